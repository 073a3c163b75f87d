"""Invariants over random games (Hypothesis): the bank plus the players always hold every
card, part and the money issued; nobody's money goes below zero; pieces stay on the
track; the fast list of offers is exactly the offers the rules allow; the fast checks
of the engine (chance outcomes, clones) agree with the slow, plain ones."""

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

import tminus
from tests.count_down.helpers import TRACK, conserved
from tminus.core.game import CHANCE
from tminus.core.playout import possible_actions
from tminus.games.count_down import trading
from tminus.games.count_down.actions import DONE
from tminus.games.count_down.game import CountDownState

CHOICES = st.lists(st.integers(min_value=0, max_value=10**6), min_size=50, max_size=1500)


def random_walk(players: int, choices: list[int]) -> Iterator[CountDownState]:
    """Play the moves (and chance outcomes) that ``choices`` pick; yield after each."""
    state = tminus.load_game("count_down", players=players, max_turns=300).new_initial_state()
    for choice in choices:
        if state.is_terminal():
            return
        options = possible_actions(state)
        state.apply_action(options[choice % len(options)])
        yield state


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from([2, 3, 4, 5, 6]), choices=CHOICES)
def test_money_cards_and_parts_are_conserved(players, choices):
    for state in random_walk(players, choices):
        assert conserved(state), str(state)
        assert all(m >= 0 for m in state._money)
        # A Saturn V bought whole is still whole: its four parts are held.
        assert all(0 <= state._saturn_sets[c] <= min(state._parts[c]) for c in range(4))
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


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 3, 4, 5, 6]), choices=CHOICES)
def test_a_meeting_lists_every_feasible_offer_to_each_partner_missions_and_done(players, choices):
    """The mover proposes to anyone met (and shows agents in a forbidden zone); a player
    met proposes to the mover."""
    for state in random_walk(players, choices):
        if state.phase() != "meeting":
            continue
        space = state.game.space
        speaker, mover = state.current_player(), state._mover
        assert speaker == mover or speaker in state._partners
        me = state._centre[speaker]
        offers = [
            space.proposal(seat, t)
            for seat in (state._partners if speaker == mover else [mover])
            for t, template in enumerate(space.templates)
            if state._proposals_left and trading.feasible(state, me, state._centre[seat], template)
        ]
        missions = [space.mission + t for t, n in enumerate(state._agents[me]) if n]
        in_zone = state._fz_owner >= 0 and speaker == mover
        expected = sorted([DONE, *offers, *(missions if in_zone else [])])
        assert state.legal_actions() == expected
        state._legal = None  # listed afresh, not from the meeting's last step
        assert state.legal_actions() == expected


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 4, 6]), choices=CHOICES)
def test_a_chance_outcome_is_legal_exactly_when_it_is_listed(players, choices):
    for state in random_walk(players, choices):
        if state.current_player() != CHANCE:
            continue
        listed = {a for a, p in state.chance_outcomes() if p > 0}
        size = max(state.game.max_chance_outcomes, state.game.num_distinct_actions)
        assert {a for a in range(-2, size + 2) if state.is_legal(a)} == listed


NEVER_MODIFIED = {"_legal", "_meeting_list"}  # lists of actions a clone may share


@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from([2, 5, 6]), choices=CHOICES)
def test_a_clone_copies_every_slot_and_shares_nothing_it_may_change(players, choices):
    for state in random_walk(players, choices):
        copy = state.clone()
        for name in CountDownState.__slots__:
            mine, theirs = getattr(state, name), getattr(copy, name)
            assert mine == theirs, name
            if isinstance(mine, list) and name not in NEVER_MODIFIED:
                assert mine is not theirs, name
                rows = zip(mine, theirs, strict=True)
                assert all(a is not b for a, b in rows if isinstance(a, list)), name
