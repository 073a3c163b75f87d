"""Payments a player cannot make: sell holdings back to the leader at face value."""

from tests.count_down.helpers import (
    FUNDING_100,
    SATURN_V,
    SURPRISE,
    arrive,
    changed,
    conserved,
    give_part,
    give_photo,
    legal_strings,
    money,
    parts,
    photos,
    play,
    set_money,
    started,
    take_part,
    take_turn,
)


def test_a_short_player_sells_holdings_at_face_value_until_they_can_pay():
    state = started()
    state = set_money(state, 1, 40)
    state = give_photo(state, 1, "Radar")
    state = give_part(state, 1, "stage 1")
    state = play(arrive(state, SURPRISE), "surprise: Fuel leak repairs")  # pay 150
    assert state.current_player() == 0
    assert legal_strings(state) == ["sell photo Radar", "sell stage 1"]
    play(state, "sell photo Radar")  # 40 + 50 = 90 < 150: sell again
    assert legal_strings(state) == ["sell stage 1"]
    play(state, "sell stage 1")  # 90 + 200 - 150
    assert money(state, 1) == 140 and photos(state, 1) == {}
    assert state.observation(0)["mover"] == 1 and conserved(state)


def test_with_nothing_left_to_sell_the_rest_is_lost():
    state = started()
    state = set_money(state, 1, 40)
    state = play(arrive(state, SURPRISE), "surprise: Fuel leak repairs")
    assert money(state, 1) == 0 and state.observation(0)["mover"] == 1
    assert conserved(state)


def test_each_debtor_of_collect_each_pays_in_turn():
    state = started()
    state = set_money(state, 3, 0)
    state = give_photo(state, 3, "Launch tower")
    state = play(arrive(state, SURPRISE), "surprise: Press conference")
    assert state.current_player() == 2  # centre 3 must sell to pay 20
    play(state, "sell photo Launch tower")
    assert money(state, 3) == 30 and money(state, 1) == 1260 and conserved(state)


def test_nobody_is_eliminated():
    state = started()
    state = set_money(state, 1, 0)
    state = play(arrive(state, SURPRISE), "surprise: Budget overrun")
    state = arrive(state, FUNDING_100)
    assert money(state, 2) == 1200  # the game goes on for everyone


def test_a_saturn_v_bought_complete_resells_at_what_it_cost():
    # The complete rocket cost 500 (not 200 + 100 + 100 + 300): it goes back for 500.
    state = started()
    state = set_money(state, 1, 500)
    state = play(arrive(state, SATURN_V), "buy Saturn V")
    state = give_part(state, 1, "stage 1")  # a spare stage 1 besides, got free
    take_turn(take_turn(take_turn(state)))
    state = play(arrive(state, SURPRISE), "surprise: Budget overrun")  # pay 100 with nothing
    assert legal_strings(state) == ["sell stage 1", "sell Saturn V"]
    assert state.observation(1)["centres"][0]["saturn_v_bought"] == 1
    play(state, "sell Saturn V")
    assert money(state, 1) == 500 - 100 and parts(state, 1) == {"stage 1": 1}
    assert state.observation(0)["stock"]["parts"] == {
        "stage 1": 3, "stage 2": 4, "stage 3": 4, "capsule": 4
    }  # fmt: skip
    assert conserved(state)


def test_a_saturn_v_that_lost_a_part_is_no_longer_the_rocket_bought():
    state = started()
    state = play(arrive(state, SATURN_V), "buy Saturn V")
    state = take_part(state, 1, "capsule")  # say a sabotage sent the capsule back to stock
    state = changed(state, saturn_sets=[0, 0, 0, 0])
    state = set_money(state, 1, 0)
    take_turn(take_turn(take_turn(state)))
    state = play(arrive(state, SURPRISE), "surprise: Budget overrun")
    assert legal_strings(state) == ["sell stage 1", "sell stage 2", "sell stage 3"]
