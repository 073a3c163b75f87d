"""Invariants over random games (Hypothesis): the bank plus the players always hold every
card, part and the money issued; nobody's money goes below zero; pieces stay on the
track; the fast list of offers is exactly the offers the rules allow."""

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

import tminus
from tests.count_down.helpers import TRACK, conserved
from tminus.games.count_down import trading
from tminus.games.count_down.game import CountDownState

CHOICES = st.lists(st.integers(min_value=0, max_value=10**6), min_size=50, max_size=1500)


def random_walk(players: int, choices: list[int]) -> Iterator[CountDownState]:
    """Play the moves (and chance outcomes) that ``choices`` pick; yield after each."""
    state = tminus.load_game("count_down", players=players, max_turns=300).new_initial_state()
    for choice in choices:
        if state.is_terminal():
            return
        if state.is_chance_node():
            options = [a for a, _ in state.chance_outcomes()]
        else:
            options = state.legal_actions()
        state.apply_action(options[choice % len(options)])
        yield state


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from([2, 3, 4, 5, 6]), choices=CHOICES)
def test_money_cards_and_parts_are_conserved(players, choices):
    for state in random_walk(players, choices):
        assert conserved(state), str(state)
        assert all(m >= 0 for m in state._money)
        positions = state.observation(0)["positions"]
        for seat, at in enumerate(positions):
            assert 0 <= at < TRACK if state._centre[seat] >= 0 else at == -1
        assert all(n >= 0 for n in state._photo_stock + state._part_stock + state._pile)


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 4, 6]), choices=CHOICES)
def test_the_fast_offer_list_is_every_feasible_template(players, choices):
    for state in random_walk(players, choices):
        centres = state.centres_in_play()
        if len(centres) < 2:
            continue
        a, b = centres[0], centres[1]
        fast = trading.feasible_templates(state, a, b)
        templates = enumerate(state.game.space.templates)
        slow = [t for t, tpl in templates if trading.feasible(state, a, b, tpl)]
        assert sorted(fast) == slow
