"""Random playouts: the shared loop of the conformance checker and the benchmark."""

from __future__ import annotations

import random

from tminus.core.game import State


def sample_chance(outcomes: list[tuple[int, float]], u: float) -> int:
    """The outcome that a uniform number ``u`` in [0, 1) falls on."""
    for action, probability in outcomes:
        u -= probability
        if u < 0:
            return action
    return outcomes[-1][0]  # rounding left u a hair above the total


def possible_actions(state: State) -> list[int]:
    """What can happen now: the chance outcomes at a chance node, else the legal moves."""
    if state.is_chance_node():
        return [action for action, _ in state.chance_outcomes()]
    return state.legal_actions()


def random_playout(state: State, rng: random.Random) -> int:
    """Play ``state`` to the end with uniformly random moves; return the actions applied."""
    steps = 0
    pick = rng.random
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), pick()))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(pick() * len(legal))])
        steps += 1
    return steps
