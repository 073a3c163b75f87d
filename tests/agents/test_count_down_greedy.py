"""The Count Down greedy agent: buys what it needs, trades, counts down well, beats random."""

import pytest

import tminus
from tests.count_down.helpers import (
    ASTRONAUTS,
    FORBIDDEN,
    FUNDING_100,
    RADAR,
    STAGE_1,
    arrive,
    give_part,
    give_photo,
    legal_strings,
    make_ready,
    place,
    play,
    started,
)
from tminus.agents import make_agent
from tminus.agents.greedy.count_down import countdown_thresholds
from tminus.sim import simulate


def move(state):
    agent = make_agent("greedy", state.game, seed=0)
    return state.action_to_string(agent.step(state))


def test_countdown_chances_come_from_the_ball():
    start, wait = countdown_thresholds(tminus.load_game("count_down"))
    # Starting on 12 needs 13 or more from two rolls: 78 of 144 pairs.
    assert start[12] == pytest.approx(78 / 144)
    assert start[1] == pytest.approx(1 / 144)  # only 12 and 12
    assert wait[1] > wait[2] > wait[3] > 0


def test_counts_down_when_ready_and_starts_on_a_high_number_only():
    state = started()
    make_ready(state, 1)
    state._phase, state._player = 6, 0
    assert move(state) == "count down"
    play(state, "count down", "ball 5")
    assert move(state) == "wait"
    play(state, "wait", "ball 12")
    assert move(state) == "start count"


def test_on_the_third_roll_it_settles_for_less():
    state = started()
    make_ready(state, 1)
    state._phase, state._player = 6, 0
    play(state, "count down", "ball 2", "wait", "ball 3", "wait", "ball 9")
    assert move(state) == "start count"


def test_buys_what_its_control_card_needs_and_declines_the_rest():
    assert move(arrive(started(), ASTRONAUTS)) == "buy photo Astronauts"
    assert move(arrive(started(), RADAR)) == "decline"


def test_asks_for_a_card_it_lacks_that_another_does_not_need():
    state = place(started(), 1, FUNDING_100)
    give_photo(state, 2, "Astronauts", 2)
    play(state, "ball 4")
    assert move(state) == "ask seat 1 for Astronauts"


def test_as_the_forced_seller_it_asks_double_and_as_buyer_it_counters_low():
    state = place(started(), 1, FUNDING_100)
    give_photo(state, 2, "Astronauts", 2)
    play(state, "ball 4", "ask seat 1 for Astronauts")
    assert move(state) == "ask 300"
    play(state, "ask 300")
    assert move(state) == "counter 150"


def test_chooses_the_direction_towards_a_part_it_lacks():
    state = place(started(), 0, (STAGE_1 + 11) % 64)
    play(state, "ball 11")
    assert legal_strings(state) == ["forward", "backward"]
    assert move(state) == "backward"


def test_sends_its_agent_against_the_owner_of_the_zone():
    state = started()
    state._pile[0] -= 1
    state._agents[0][0] += 1
    arrive(state, FORBIDDEN[1], 3)
    assert move(state) == "mission Stolen plans"


def test_bids_for_a_card_it_needs_up_to_its_value():
    state = started()
    give_part(state, 2, "stage 1")
    state._lots = [state.game.board.photo_names.index("Astronauts")]
    state._auction_done = True
    state._bidders, state._bid_at, state._lot_price, state._lot_high = [0, 1, 2, 3], 0, 0, -1
    state._phase, state._player = 21, 0
    assert move(state) == "bid 70"


def test_beats_three_random_players_clearly():
    game = tminus.load_game("count_down", players=4)
    summary = simulate(game, ["greedy", "random", "random", "random"], games=100, seed=3)
    low, _ = summary.seats[0].interval
    assert low > 0.8, summary.seats[0]
    assert summary.turn_cap_draws == 0
