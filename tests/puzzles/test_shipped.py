"""Every shipped puzzle proved: replayed, every legal move's value worked out again by the
game's exact solver or search and equal to the stored one, the answer ahead of every other
move by the margin (so no puzzle has two answers), each position once, ids unique.

Then the solvers themselves checked against the engines on the shipped positions, by
means that share nothing with them: Count Down's countdown by enumerating the engine's own
chance outcomes, Sputnik's search by a plain minimax over the engine's states.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tminus.puzzles import ProofError, load_set, maker_of, prove, shipped_games, state_of
from tminus.puzzles.check import answer_lead
from tminus.puzzles.model import Puzzle, puzzle_id

GAMES = ("four_way", "sputnik", "count_down")


def test_the_shipped_sets_are_the_three_games_with_exact_values():
    assert shipped_games() == sorted(GAMES)
    assert len(load_set("four_way")) >= 200
    assert len(load_set("sputnik")) >= 200
    # Count Down has only so many distinct countdown decisions: the set holds all of them.
    assert len(load_set("count_down")) == maker_of("count_down").most == 34


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_puzzle_is_proved_by_the_exact_solver(game):
    puzzles = load_set(game)
    maker = maker_of(game)
    for p in puzzles:
        assert p.game == game and p.kind == maker.kind and p.margin == maker.margin
        assert p.id == puzzle_id(p.game, p.params, p.history)
        values = prove(p)  # replays, recomputes every value, checks answer and margin
        assert sorted(values) == sorted(p.values) == state_of(p).legal_actions()
        assert answer_lead(p.kind, values, p.answer) >= p.margin
        # No other move is within the margin of the answer: there is one answer.
        for other in values:
            if other != p.answer:
                assert answer_lead(p.kind, values, other) < 0


@pytest.mark.parametrize("game", GAMES)
def test_each_position_and_id_is_shipped_once(game):
    puzzles = load_set(game)
    maker = maker_of(game)
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert len({maker.key(state_of(p)) for p in puzzles}) == len(puzzles)


def test_a_wrong_value_or_answer_fails_the_proof():
    p = load_set("four_way")[0]
    other = next(a for a in p.values if a != p.answer)
    changed = {**p.values, other: p.values[other] + 0.001}
    with pytest.raises(ProofError, match="worth"):
        prove(_with(p, values=changed))
    with pytest.raises(ProofError, match="leads by"):
        prove(_with(p, answer=other))
    s = load_set("sputnik")[0]
    changed = {**s.values, s.answer: s.values[s.answer] + 1}
    with pytest.raises(ProofError, match="worth"):
        prove(_with(s, values=changed))
    c = load_set("count_down")[0]
    with pytest.raises(ProofError, match="values for"):
        prove(_with(c, values={c.answer: c.values[c.answer]}))


def _with(p: Puzzle, **changes) -> Puzzle:
    return Puzzle.from_dict({**p.to_dict(), **{k: _json(v) for k, v in changes.items()}})


def _json(value):
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else value


def test_count_down_values_are_the_engines_own_chances():
    """Each countdown choice's chance of success, enumerated over the engine's chance
    outcomes (the rest of the attempt played perfectly), equals the stored value."""
    memo: dict = {}  # (an attempt's chance depends on its own record alone)
    for p in load_set("count_down"):
        state = state_of(p)
        mover = p.seat
        for action, stored in p.values.items():
            after = state.clone()
            after.apply_action(action)
            assert float(attempt_success(after, mover, memo)) == pytest.approx(stored, abs=1e-12)


def attempt_success(state, mover: int, memo: dict) -> Fraction:
    """The chance that the mover's COUNTDOWN attempt under way succeeds (best choices)."""
    if state.is_terminal():
        return Fraction(int(mover in state.winners()))
    phase = state.phase()
    if phase not in ("countdown roll", "count choice"):
        return Fraction(0)  # the attempt failed: the turn has passed
    count = state.countdown
    key = (phase, count.waits, count.total, count.rolls, state.last_roll())
    if key not in memo:
        if phase == "count choice":
            options = []
            for action in state.legal_actions():
                after = state.clone()
                after.apply_action(action)
                options.append(attempt_success(after, mover, memo))
            memo[key] = max(options)
        else:
            total = Fraction(0)
            for outcome, probability in state.chance_outcomes():
                after = state.clone()
                after.apply_action(outcome)
                total += Fraction(probability).limit_denominator(10**6) * attempt_success(
                    after, mover, memo
                )
            memo[key] = total
    return memo[key]


class TooBig(Exception):
    pass


def engine_value(state, memo: dict, limit: int = 5000) -> int:
    """A Sputnik decision's value for the player to move, by minimax over the engine's own
    states (no kernel): +n wins with the n-th turn of the player to move, counting the one
    under way, -n loses on the opponent's n-th turn (TooBig past ``limit`` states)."""
    key = state.state_key()
    if key not in memo:
        if len(memo) >= limit:
            raise TooBig
        best = None
        for action in state.legal_actions():
            value = engine_move_value(state, action, memo, limit)
            if best is None or (value > 0, -value) > (best > 0, -best):
                best = value
                if best == 1:
                    break  # nothing beats winning with this turn
        memo[key] = best
    return memo[key]


def engine_move_value(state, action: int, memo: dict, limit: int = 5000) -> int:
    me = state.current_player()
    after = state.clone()
    after.apply_action(action)
    if after.is_terminal():
        return 1 if me in after.winners() else -1
    if after.current_player() == me:  # the removal of the same turn
        return engine_value(after, memo, limit)
    theirs = engine_value(after, memo, limit)
    return 1 - theirs if theirs < 0 else -theirs


def test_sputnik_values_agree_with_a_minimax_over_the_engine():
    """On the shipped positions small enough for a plain minimax over engine states (it
    has none of the search's shortcuts), every move's value by the engine alone equals
    the stored one."""
    checked = []
    for p in load_set("sputnik"):
        state = state_of(p)
        memo: dict = {}
        try:
            found = {a: engine_move_value(state, a, memo, limit=500) for a in p.values}
        except TooBig:
            continue
        assert found == p.values, p.id
        checked.append(p.values[p.answer])
    # (about 70 of the first set: most of them wins in one turn, a few in two or three)
    assert len(checked) >= 50 and sum(n >= 2 for n in checked) >= 5
