"""Invariants over random games (Hypothesis): the bank plus the players always hold every
card, part and the money issued; nobody's money goes below zero; pieces stay on the
track; the fast list of offers is exactly the offers the rules allow; the fast checks
of the engine (chance outcomes, clones, the sets of needed and spare photo cards) agree
with the slow, plain ones."""

import random
from collections.abc import Iterator
from dataclasses import fields, is_dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

import tminus
from tests.count_down.helpers import TRACK, conserved
from tminus.core.game import CHANCE
from tminus.core.playout import possible_actions
from tminus.games.count_down import trading
from tminus.games.count_down.actions import DONE
from tminus.games.count_down.game import SHARED_OUTSIDE, CountDownState

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
        assert all(held.money >= 0 for held in state.holdings)
        # A Saturn V bought whole is still whole: its four parts are held.
        assert all(0 <= held.saturn_v <= min(held.parts) for held in state.holdings)
        positions = state.observation(0)["positions"]
        for seat, at in enumerate(positions):
            assert 0 <= at < TRACK if state.centre_of(seat) >= 0 else at == -1
        leader = state.leader
        assert all(n >= 0 for n in leader.photos + leader.parts + state.piles.agents)


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 4, 6]), choices=CHOICES)
def test_the_sets_of_needed_and_unneeded_photos_are_the_rules_one_card_tests(players, choices):
    photos = range(len(tminus.load_game("count_down").board.photo_names))
    for state in random_walk(players, choices):
        for centre in state.centres_in_play():
            needed = {p for p in photos if trading.needs(state, centre, p)}
            unneeded = {p for p in photos if trading.unneeded(state, centre, p)}
            assert trading.needed_photos(state, centre) == needed
            assert trading.unneeded_photos(state, centre) == unneeded


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
        meeting = state.meeting
        speaker, mover = state.current_player(), state.mover()
        assert speaker == mover or speaker in meeting.partners
        me = state.centre_of(speaker)
        offers = [
            space.proposal(seat, t)
            for seat in (meeting.partners if speaker == mover else [mover])
            for t, template in enumerate(space.templates)
            if meeting.proposals_left
            and trading.feasible(state, me, state.centre_of(seat), template)
        ]
        missions = [space.mission + t for t, n in enumerate(state.holdings[me].agents) if n]
        in_zone = meeting.zone_owner >= 0 and speaker == mover
        expected = sorted([DONE, *offers, *(missions if in_zone else [])])
        assert state.legal_actions() == expected
        # A set-up position lists them afresh, not from the meeting's last step.
        assert state.with_position({}).legal_actions() == expected


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 4, 6]), choices=CHOICES)
def test_a_chance_outcome_is_legal_exactly_when_it_is_listed(players, choices):
    for state in random_walk(players, choices):
        if state.current_player() != CHANCE:
            continue
        listed = {a for a, p in state.chance_outcomes() if p > 0}
        size = max(state.game.max_chance_outcomes, state.game.num_distinct_actions)
        assert {a for a in range(-2, size + 2) if state.is_legal(a)} == listed


# Never changed in place, so a clone may share them: the game, the legal moves and the
# moves a meeting listed.
NEVER_MODIFIED = {"game", "_legal", "meeting.listed"}


def shared(mine, theirs, path: str) -> list[str]:
    """The paths of the lists and records that two states share, at ``path`` or below."""
    if path in NEVER_MODIFIED or (not isinstance(mine, list) and not is_dataclass(mine)):
        return []
    found = [path] if mine is theirs else []
    if is_dataclass(mine):
        parts = [(f.name, getattr(mine, f.name), getattr(theirs, f.name)) for f in fields(mine)]
    else:
        parts = [(str(i), a, b) for i, (a, b) in enumerate(zip(mine, theirs, strict=False))]
    for name, a, b in parts:
        found += shared(a, b, f"{path}.{name}")
    return found


@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from([2, 5, 6]), choices=CHOICES)
def test_a_clone_copies_every_slot_and_shares_nothing_it_may_change(players, choices):
    for state in random_walk(players, choices):
        copy = state.clone()
        for name in CountDownState.__slots__:
            mine, theirs = getattr(state, name), getattr(copy, name)
            assert mine == theirs, name
            outside = name in SHARED_OUTSIDE and state._phase not in SHARED_OUTSIDE[name]
            if not outside:  # a record shared outside its phases is not changed there
                assert shared(mine, theirs, name) == []


@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from([2, 4, 6]), choices=CHOICES, seed=st.integers(0, 2**32))
def test_playing_on_a_clone_never_changes_the_original(players, choices, seed):
    """Whatever phases the clone goes through (records shared outside their phases)."""
    rng = random.Random(seed)
    for state in random_walk(players, choices):
        before = str(state)
        copy = state.clone()
        for _ in range(40):
            if copy.is_terminal():
                break
            copy.apply_action(rng.choice(possible_actions(copy)))
        assert str(state) == before


@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from([2, 5, 6]), choices=CHOICES)
def test_a_set_up_position_shares_nothing_it_may_change(players, choices):
    """A position set up may be in any phase: it owns every record."""
    for state in random_walk(players, choices):
        copy = state.with_position({})
        for name in CountDownState.__slots__:
            assert shared(getattr(state, name), getattr(copy, name), name) == []
