"""Meaning of the squares: parts, Saturn V, photo cards, surprise, funding, training,
exhausted stock and "play once more"."""

import pytest

from tests.count_down.helpers import (
    ASTRONAUTS,
    ESPIONAGE,
    FUNDING_100,
    LUNAR_TAKE_OFF,
    RADAR,
    SABOTAGE,
    SATURN_V,
    STAGE_1,
    SURPRISE,
    TRAINING,
    arrive,
    changed,
    conserved,
    give_agent,
    give_part,
    give_photo,
    legal_strings,
    money,
    parts,
    photos,
    play,
    set_money,
    started,
    take_turn,
)


def test_a_part_square_gives_the_part_free():
    state = arrive(started(), STAGE_1)
    assert parts(state, 1) == {"stage 1": 1} and money(state, 1) == 1200
    assert state.observation(0)["stock"]["parts"]["stage 1"] == 3


def test_a_player_may_own_the_same_part_twice():
    state = started()
    state = give_part(state, 1, "stage 1")
    state = arrive(state, STAGE_1)
    assert parts(state, 1) == {"stage 1": 2}


def test_an_exhausted_part_square_lets_the_player_play_once_more():
    state = started()
    state = give_part(state, 2, "stage 1", 4)
    state = arrive(state, STAGE_1)
    assert parts(state, 1) == {}
    assert legal_strings(state) == ["play once more", "end turn"]
    play(state, "play once more", "ball 2")
    assert state.observation(0)["positions"][0] == FUNDING_100
    assert money(state, 1) == 1300  # the funding square after the extra roll


def test_ending_the_turn_instead_of_playing_once_more():
    state = started()
    state = give_part(state, 2, "stage 1", 4)
    state = play(arrive(state, STAGE_1), "end turn")
    assert state.observation(0)["mover"] == 1


def test_saturn_v_sells_the_complete_rocket_for_500():
    state = arrive(started(), SATURN_V)
    assert legal_strings(state) == ["decline", "buy Saturn V"]
    play(state, "buy Saturn V")
    assert parts(state, 1) == {"stage 1": 1, "stage 2": 1, "stage 3": 1, "capsule": 1}
    assert money(state, 1) == 1200 - 500
    assert state.observation(0)["mover"] == 1


def test_without_a_complete_rocket_in_stock_the_parts_sell_at_fixed_prices():
    state = started()
    state = give_part(state, 2, "capsule", 4)
    state = arrive(state, SATURN_V)
    assert legal_strings(state) == ["decline", "buy stage 1", "buy stage 2", "buy stage 3"]
    play(state, "buy stage 1", "buy stage 2")
    assert money(state, 1) == 1200 - 200 - 100
    play(state, "decline")
    assert parts(state, 1) == {"stage 1": 1, "stage 2": 1}


def test_saturn_v_with_an_empty_stock_is_exhausted():
    state = started()
    for part in ("stage 1", "stage 2", "stage 3", "capsule"):
        state = give_part(state, 2, part, 4)
    state = arrive(state, SATURN_V)
    assert legal_strings(state) == ["play once more", "end turn"]


def test_a_photo_card_is_bought_at_the_price_on_it():
    state = arrive(started(), ASTRONAUTS)
    assert legal_strings(state) == ["decline", "buy photo Astronauts"]
    play(state, "buy photo Astronauts")
    assert photos(state, 1) == {"Astronauts": 1} and money(state, 1) == 1200 - 150


def test_declining_a_photo_card():
    state = play(arrive(started(), ASTRONAUTS), "decline")
    assert photos(state, 1) == {} and money(state, 1) == 1200


def test_a_card_nobody_at_this_centre_needs_may_be_bought():
    state = play(arrive(started(), RADAR), "buy photo Radar")  # not on centre 1's card
    assert photos(state, 1) == {"Radar": 1}


def test_a_photo_card_too_dear_asks_nothing():
    state = started()
    state = set_money(state, 1, 50)
    state = arrive(state, ASTRONAUTS)
    assert state.observation(0)["mover"] == 1 and photos(state, 1) == {}


def test_a_square_whose_cards_are_sold_out_lets_the_player_play_once_more():
    state = started()
    state = give_photo(state, 2, "Astronauts", 5)
    state = arrive(state, ASTRONAUTS)
    assert legal_strings(state) == ["play once more", "end turn"]


@pytest.mark.parametrize(("players", "once_more"), [(2, True), (3, True), (4, False)])
def test_with_two_or_three_players_a_card_nobody_needs_plays_once_more(players, once_more):
    # Lunar take-off is on centre 4's card only.
    state = play(arrive(started(players), LUNAR_TAKE_OFF), "buy photo Lunar take-off")
    assert (legal_strings(state) == ["play once more", "end turn"]) == once_more


def test_with_six_players_a_card_nobody_needs_plays_once_more():
    state = play(arrive(started(6), LUNAR_TAKE_OFF), "buy photo Lunar take-off")
    assert legal_strings(state) == ["play once more", "end turn"]


def test_a_card_someone_needs_gives_no_extra_roll_with_two_players():
    state = play(arrive(started(2), RADAR), "buy photo Radar")  # centre 2 needs Radar
    assert state.observation(0)["mover"] == 1


def test_a_funding_square_pays_its_amount():
    state = arrive(started(), FUNDING_100)
    assert money(state, 1) == 1300 and conserved(state)


def test_astronaut_training_squats_cost_nothing_refusing_costs_ten():
    state = arrive(started(), TRAINING)
    assert legal_strings(state) == ["squats", "pay 10"]
    play(state, "squats")
    assert money(state, 1) == 1200
    state = play(arrive(started(), TRAINING), "pay 10")
    assert money(state, 1) == 1190 and conserved(state)


def surprise(card: str, players: int = 4):
    return play(arrive(started(players), SURPRISE), f"surprise: {card}")


def test_the_first_surprise_card_is_a_chance_draw_among_unseen_cards():
    state = arrive(started(), SURPRISE)
    outcomes = state.chance_outcomes()
    count = len(state.game.board.surprises)
    assert len(outcomes) == count
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    play(state, "surprise: Government grant")
    assert money(state, 1) == 1400
    # The card goes under the pile: the next draw is among the others.
    state = arrive(state, SURPRISE)
    drawn = [state.action_to_string(a) for a, _ in state.chance_outcomes()]
    assert len(drawn) == count - 1 and "surprise: Government grant" not in drawn


def test_once_every_surprise_card_was_seen_the_pile_order_is_known():
    state = started()
    names = [c[0] for c in state.game.board.surprises]
    state = changed(state, surprise_unseen=[], surprise_queue=[1, 0, *range(2, len(names))])
    state = arrive(state, SURPRISE)  # top card: Budget overrun (pay 100), no chance node
    assert money(state, 1) == 1100
    assert state.observation(0)["stock"]["surprise_known_order"][-1] == "Budget overrun"


def test_surprise_money_to_pay_and_to_collect_from_each():
    state = surprise("Press conference")
    assert [money(state, c) for c in (1, 2, 3, 4)] == [1260, 1080, 980, 880]
    state = surprise("Open day for the other centres")
    assert [money(state, c) for c in (1, 2, 3, 4)] == [1140, 1120, 1020, 920]
    assert conserved(state)


def test_surprise_photo_card_while_available_otherwise_nothing():
    state = surprise("Photographer on the tower")
    assert photos(state, 1) == {"Launch tower": 1}
    state = started()
    state = give_photo(state, 2, "Launch tower", 5)
    state = play(arrive(state, SURPRISE), "surprise: Photographer on the tower")
    assert photos(state, 1) == {}


def test_surprise_part_while_available():
    state = surprise("Spare stage delivered")
    assert parts(state, 1) == {"stage 3": 1}


def test_surprise_move_to_does_what_the_square_says():
    state = surprise("Visit to the Saturn V hangar")
    assert state.observation(0)["positions"][0] == SATURN_V
    assert legal_strings(state) == ["decline", "buy Saturn V"]


def test_surprise_home_play_again_and_lose_turn():
    state = surprise("Recalled to your launch ramp")
    assert state.observation(0)["positions"][0] == 0
    state = surprise("Good weather: play once more")
    assert legal_strings(state) == ["play once more", "end turn"]
    state = surprise("Strike at your centre")
    assert state.observation(0)["turns_to_sit_out"][0] == 1
    take_turn(take_turn(take_turn(state)))
    assert state.observation(0)["mover"] == 1  # seat 0's turn was skipped
    assert state.observation(0)["turns_to_sit_out"][0] == 0


def test_a_strike_at_a_teams_centre_costs_each_partner_a_turn():
    # The same as a Strike agent card against a team (test_forbidden_zones): the strike is
    # at the centre the partners share.
    state = surprise("Strike at your centre", players=6)
    assert state.observation(0)["turns_to_sit_out"] == [1, 0, 0, 1, 0, 0]


def test_an_agent_square_gives_a_secret_card_of_its_colour():
    state = arrive(started(), ESPIONAGE)
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == [
        "green card: Stolen plans"
    ]
    assert state.action_to_string_for(1, 0) == "a green card"
    assert state.action_to_string_for(0, 0) == "green card: Stolen plans"
    play(state, "green card: Stolen plans")
    assert state.observation(0)["centres"][0]["agent_cards"] == {"Stolen plans": 1}
    assert "agent_cards" not in state.observation(1)["centres"][0]
    assert state.observation(1)["centres"][0]["green_cards"] == 1


def test_a_red_card_is_drawn_by_its_copies():
    state = arrive(started(), SABOTAGE)
    outcomes = dict(state.chance_outcomes())
    assert sorted(outcomes.values()) == pytest.approx([1 / 3] * 3)


def test_an_empty_agent_pile_is_exhausted_stock():
    state = started()
    state = give_agent(state, 2, 0, state.position_dict()["pile"][0])
    state = arrive(state, ESPIONAGE)
    assert legal_strings(state) == ["play once more", "end turn"]
