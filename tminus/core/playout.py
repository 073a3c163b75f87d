"""Playouts: sampling chance, the random playout shared by the conformance checker and
the benchmark, and the streams of luck of playouts compared on common random numbers."""

from __future__ import annotations

import random
from collections.abc import Hashable

from tminus.core.game import Game, State


def sample_chance(outcomes: list[tuple[int, float]], u: float) -> int:
    """The outcome that a uniform number ``u`` in [0, 1) falls on."""
    for action, probability in outcomes:
        u -= probability
        if u < 0:
            return action
    return outcomes[-1][0]  # rounding left u a hair above the total


def possible_actions(state: State[Game]) -> list[int]:
    """What can happen now: the chance outcomes at a chance node, else the legal moves."""
    if state.is_chance_node():
        return [action for action, _ in state.chance_outcomes()]
    return state.legal_actions()


def random_playout(state: State[Game], rng: random.Random) -> int:
    """Play ``state`` to the end with uniformly random moves; return the actions applied."""
    return random_playout_counts(state, rng)[0]


def random_playout_counts(state: State[Game], rng: random.Random) -> tuple[int, int]:
    """Play ``state`` to the end with uniformly random moves; return the actions applied
    (chance outcomes included) and the players' decisions among them."""
    steps = decisions = 0
    pick = rng.random
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), pick()))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(pick() * len(legal))])
            decisions += 1
        steps += 1
    return steps, decisions


class ChanceStreams:
    """Uniform numbers for a playout's chance nodes, one seeded stream for each of the
    game's streams of luck (``State.chance_stream()``).

    Two playouts from the same seed that differ in one move meet the same luck: the n-th
    draw of a stream is the same number in both, even where one of them drew from another
    stream more often (a card more, so the ball's rolls would otherwise all shift). A game
    with one stream gets exactly ``random.Random(seed)``.
    """

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self.streams: dict[Hashable, random.Random] = {None: random.Random(seed)}

    def draw(self, state: State[Game]) -> int:
        """The chance outcome of ``state`` (a chance node), from its stream's next number."""
        key = state.chance_stream()
        stream = self.streams.get(key)
        if stream is None:  # a string seed: the same numbers in every process
            stream = self.streams[key] = random.Random(f"{self.seed}/{key!r}")
        return sample_chance(state.chance_outcomes(), stream.random())
