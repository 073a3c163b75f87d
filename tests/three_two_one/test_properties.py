"""Invariants over random games (Hypothesis): the 110 cards are always all there."""

from hypothesis import given, settings
from hypothesis import strategies as st

import tminus
from tminus.games.three_two_one import rules


def cards_everywhere(state) -> list[int]:
    """Hands + both discard piles + the draw pile, as counts by value."""
    counts = state.draw_pile_counts()
    obs = state.public_observation()
    for seat in range(state.game.num_players):
        for value in state.hand(seat):
            counts[value] += 1
    for pile in obs["discard_piles"]:
        for value in pile:
            counts[value] += 1
    return counts


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=8),
    choices=st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=1500),
)
def test_cards_are_conserved_and_views_stay_consistent(players, choices):
    state = tminus.load_game("three_two_one", players=players).new_initial_state()
    for choice in choices:
        if state.is_terminal():
            break
        options = (
            [a for a, _ in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_actions()
        )
        state.apply_action(options[choice % len(options)])
        assert cards_everywhere(state) == list(rules.DECK)
        obs = state.public_observation()
        sizes = [len(state.hand(s)) for s in range(players)]
        assert obs["hand_sizes"] == sizes
        assert obs["draw_pile_size"] == sum(state.draw_pile_counts())
        for seat in range(players):
            # What others know of a hand is really in it.
            known, hand = obs["known_cards"][seat], state.hand(seat)
            assert all(known.count(v) <= hand.count(v) for v in set(known))
        if obs["phase"] == "turn":
            # In play nobody holds fewer than two cards (the last card is never discarded).
            assert all(sizes[s] >= 2 for s in obs["playing"])
