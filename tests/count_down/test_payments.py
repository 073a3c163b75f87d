"""Payments a player cannot make: sell holdings back to the leader at face value."""

from tests.count_down.helpers import (
    FUNDING_100,
    SURPRISE,
    arrive,
    conserved,
    give_part,
    give_photo,
    legal_strings,
    money,
    photos,
    play,
    set_money,
    started,
)


def test_a_short_player_sells_holdings_at_face_value_until_they_can_pay():
    state = started()
    set_money(state, 1, 40)
    give_photo(state, 1, "Radar")
    give_part(state, 1, "stage 1")
    play(arrive(state, SURPRISE), "surprise: Fuel leak repairs")  # pay 150
    assert state.current_player() == 0
    assert legal_strings(state) == ["sell photo Radar", "sell stage 1"]
    play(state, "sell photo Radar")  # 40 + 50 = 90 < 150: sell again
    assert legal_strings(state) == ["sell stage 1"]
    play(state, "sell stage 1")  # 90 + 200 - 150
    assert money(state, 1) == 140 and photos(state, 1) == {}
    assert state.observation(0)["mover"] == 1 and conserved(state)


def test_with_nothing_left_to_sell_the_rest_is_lost():
    state = started()
    set_money(state, 1, 40)
    play(arrive(state, SURPRISE), "surprise: Fuel leak repairs")
    assert money(state, 1) == 0 and state.observation(0)["mover"] == 1
    assert conserved(state)


def test_each_debtor_of_collect_each_pays_in_turn():
    state = started()
    set_money(state, 3, 0)
    give_photo(state, 3, "Launch tower")
    play(arrive(state, SURPRISE), "surprise: Press conference")
    assert state.current_player() == 2  # centre 3 must sell to pay 20
    play(state, "sell photo Launch tower")
    assert money(state, 3) == 30 and money(state, 1) == 1260 and conserved(state)


def test_nobody_is_eliminated():
    state = started()
    set_money(state, 1, 0)
    play(arrive(state, SURPRISE), "surprise: Budget overrun")
    arrive(state, FUNDING_100)
    assert money(state, 2) == 1200  # the game goes on for everyone
