"""The 3-2-1 Countdown greedy agent: sheds high sets, takes low cards, declares wisely."""

import pytest

import tminus
from tests.three_two_one.helpers import (
    BLASTOFF_HAND,
    COUNTDOWN_HAND,
    deal,
    new_game,
    play,
)
from tminus.agents import make_agent
from tminus.agents.greedy.three_two_one import card_cost, expected_draw, unseen_cards
from tminus.games.three_two_one import rules
from tminus.sim import simulate

OTHER = [2] * 8 + [3] * 4


def greedy_move(state):
    agent = make_agent("greedy", state.game, seed=0)
    return state.action_to_string(agent.step(state))


def test_sheds_the_set_worth_most():
    hand = [1, 2, 3, 6, 6, 7, 7, 7, 8, 9, 9, 10]  # 7,7,7 = 21 beats 9,9 = 18 and 10
    state = deal(new_game(2), {0: hand, 1: OTHER}, left=5, right=6)
    assert greedy_move(state).startswith("discard 7,7,7 ")


def test_discards_so_as_to_draw_a_low_top_card():
    # Shedding 10 onto the right pile leaves the left pile's 0 to draw.
    hand = [0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 10]  # no set worth more than the 10
    state = deal(new_game(2), {0: hand, 1: OTHER}, left=0, right=9)
    assert greedy_move(state) == "discard 10 right"
    play(state, "discard 10 right")
    assert greedy_move(state) == "draw left"


def test_draws_blind_rather_than_take_a_high_card():
    hand = [1, 2, 3, 4, 4, 5, 6, 6, 7, 8, 9, 10]
    state = deal(new_game(2), {0: hand, 1: OTHER}, left=10, right=10)
    play(state, "discard 9 left")
    assert greedy_move(state) == "draw pile"


def test_takes_the_card_that_makes_a_blastoff():
    # Seat 0 holds 4 4 4 9 9 (set by hand); the right pile shows a 4: shed the 9s onto the
    # left pile and take the 4, for a sure Blastoff! next turn.
    state = deal(new_game(2), {0: COUNTDOWN_HAND, 1: OTHER}, left=7, right=4)
    hands = state.position_dict()["hands"]
    hands[0] = [0, 0, 0, 0, 3, 0, 0, 0, 0, 2, 0]
    state = state.with_position({"hands": hands})
    assert greedy_move(state) == "discard 9,9 left"
    play(state, "discard 9,9 left")
    assert greedy_move(state) == "draw right"
    assert card_cost(4, [4, 4, 4]) < card_cost(0, [4, 4, 4])


def test_blastoff_is_taken_when_possible():
    state = deal(new_game(2), {0: BLASTOFF_HAND, 1: OTHER}, left=9, right=9)
    assert greedy_move(state) == "blastoff"


def test_declares_countdown_when_nobody_can_be_lower():
    state = deal(new_game(2), {0: COUNTDOWN_HAND, 1: OTHER})
    assert greedy_move(state) == "countdown"


def test_holds_back_a_countdown_that_is_likely_beaten():
    # Seat 0 has 0 1 3 (4); seat 1 was seen to pick up all four of its cards 0 0 1 1 (2).
    state = deal(new_game(2), {0: COUNTDOWN_HAND, 1: OTHER})
    position = state.position_dict()
    hands, known = position["hands"], position["known"]
    hands[1] = [2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    known[1] = [2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    hands[0] = [1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    state = state.with_position({"hands": hands, "known": known})
    assert "countdown" in [state.action_to_string(a) for a in state.legal_actions()]
    assert greedy_move(state) != "countdown"


def test_countdown_odds_agree_with_the_exact_chance(monkeypatch):
    """Seat 1 holds 0 0 seen picked up and two cards seat 0 has not seen: the worlds deal
    those two from the unseen cards, so the odds of a Countdown! on 4 follow exactly."""
    import tminus.agents.greedy.three_two_one as greedy

    state = deal(new_game(2), {0: COUNTDOWN_HAND, 1: OTHER})
    position = state.position_dict()
    hands, known = position["hands"], position["known"]
    hands[1] = [2, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0]  # 0 0 seen, 2 3 not
    known[1] = [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    hands[0] = [1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0]  # 0 1 3
    state = state.with_position({"hands": hands, "known": known})
    unseen = unseen_cards(state.observation(0))
    cards = [v for v, c in enumerate(unseen) for _ in range(c)]
    pairs = [a + b for i, a in enumerate(cards) for b in cards[i + 1 :]]
    safe = sum(t >= 4 for t in pairs) / len(pairs)
    points = sum(0 if t < 4 else 3 if t == 4 else 4 for t in pairs) / len(pairs)
    monkeypatch.setattr(greedy, "SAMPLES", 20_000)
    agent = make_agent("greedy", state.game, seed=1)
    estimate = agent.countdown_odds(state, 0)
    assert estimate == pytest.approx((safe, points), abs=0.015)


def test_estimates_only_from_what_the_seat_has_seen():
    state = deal(new_game(2), {0: COUNTDOWN_HAND, 1: OTHER}, left=5, right=6)
    obs = state.observation(0)
    unseen = unseen_cards(obs)
    assert sum(unseen) == 110 - 12 - 2
    assert unseen[0] == 0 and unseen[5] == rules.DECK[5] - 1
    assert expected_draw(obs) == pytest.approx(
        sum(v * c for v, c in enumerate(unseen)) / sum(unseen)
    )


@pytest.mark.parametrize("agents", [["greedy", "random"], ["random", "greedy", "random"]])
def test_beats_random_clearly(agents):
    game = tminus.load_game("three_two_one", players=len(agents))
    summary = simulate(game, agents, games=100, seed=5)
    seat = agents.index("greedy")
    low, _ = summary.seats[seat].interval
    assert low > 0.8, summary.seats[seat]


def test_greedy_against_itself_finishes_its_games():
    game = tminus.load_game("three_two_one", players=2, max_turns=1000)
    summary = simulate(game, ["greedy", "greedy"], games=100, seed=3)
    assert summary.turn_cap_draws == 0
