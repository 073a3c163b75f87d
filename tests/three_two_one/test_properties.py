"""Invariants over random games (Hypothesis): the 110 cards are always all there."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import tminus
from tminus.core.playout import possible_actions, sample_chance
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


@settings(max_examples=100, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=8),
    choices=st.lists(st.integers(min_value=0, max_value=10**6), min_size=100, max_size=3000),
)
def test_cards_are_conserved_and_views_stay_consistent(players, choices):
    state = tminus.load_game("three_two_one", players=players).new_initial_state()
    for choice in choices:
        if state.is_terminal():
            break
        options = possible_actions(state)
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


def test_cards_are_conserved_through_whole_games_and_reshuffles():
    reshuffles = 0
    for seed in range(12):
        state = tminus.load_game("three_two_one", players=2 + seed % 7).new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            assert cards_everywhere(state) == list(rules.DECK)
            reshuffles += state.public_observation()["reshuffled"] is not None
    assert reshuffles > 0  # the reshuffle really happened along the way
