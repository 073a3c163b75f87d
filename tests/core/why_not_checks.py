"""What every game's "Why can't I?" tests share: states met along random games, the promise
that ``why_not`` agrees with the legal moves, and action ids found by their names."""

from __future__ import annotations

import random

from tminus.core.game import Game, State
from tminus.core.playout import sample_chance


def sampled_states(game: Game, count: int, seed: int, rate: float = 0.2) -> list[State[Game]]:
    """``count`` states met along random games (decisions, chance nodes and ends), each
    kept with probability ``rate``."""
    rng = random.Random(seed)
    found: list[State[Game]] = []
    while len(found) < count:
        state = game.new_initial_state()
        while len(found) < count:
            if rng.random() < rate or state.is_terminal():
                found.append(state.clone())
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return found


def reasons_agree_with_legality(state: State[Game]) -> dict[int, str]:
    """Assert that ``why_not`` is None exactly for the legal actions and a reason (a
    non-empty string) for every other action id of the game and beyond; return the
    reasons of the action ids of the game, by id."""
    legal = set(state.legal_actions())
    size = state.game.num_distinct_actions
    reasons = {}
    for action in range(size):
        reason = state.why_not(action)
        if action in legal:
            assert reason is None, (state.action_to_string(action), reason)
            continue
        assert isinstance(reason, str) and reason.strip(), (action, reason)
        reasons[action] = reason
    for outside in (-1, size, "1", 2.5, None):
        reason = state.why_not(outside)  # type: ignore[arg-type]
        assert isinstance(reason, str) and reason.strip(), (outside, reason)
    return reasons


def action_named(state: State[Game], text: str) -> int:
    """The action id that ``action_to_string`` calls ``text`` here, legal or not."""
    for action in range(state.game.num_distinct_actions):
        if state.action_to_string(action) == text:
            return action
    raise AssertionError(f"no action is called {text!r} here")
