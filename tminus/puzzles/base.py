"""What each game's puzzle maker provides, and what the makers share: the unique best move
by a margin, and the starting difficulty rating.

The rating heuristic (a starting value only: a server moves it as players solve or fail
the puzzle, as it moves a player's rating), the same for every game:

    rating = 1500
           + 25 per legal move beyond two (at most +250): more moves to look at
           + up to +200 as the second best move comes close to the best (the gap
             measured on the game's ``gap_scale``: a gap of the scale or more adds 0)
           + 150 when the greedy bot would not play the answer, -100 when it would
           + the game's own term (Sputnik: +150 per turn of the win beyond the first)
    clamped to 800 .. 2400, rounded to a multiple of 5.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from tminus.core.game import Game, State
from tminus.puzzles.model import START_RATING


class Maker(Protocol):
    """A game's puzzle maker (one module per game: ``four_way``, ``sputnik``, ``count_down``)."""

    game: str
    kind: str
    margin: float  # the answer beats every other move by this much (the kind's unit)
    # Where puzzles come from: the parameters and the bots (one spec a seat) of the games
    # played, both cycled game by game.
    configurations: Sequence[Mapping[str, Any]]
    pairings: Sequence[Sequence[str]]
    # The most distinct puzzles the game can give (None: far more than a set needs).
    most: int | None

    def values(self, state: State[Game]) -> dict[int, float] | None:
        """Every legal move's exact value for the player to move, or None where this kind
        of puzzle has no exact values (not such a decision, or beyond the search's budget)."""
        ...

    def best(self, values: Mapping[int, float]) -> int | None:
        """The move that beats every other by at least ``margin`` (None: no such move)."""
        ...

    def key(self, state: State[Game]) -> Hashable:
        """Positions with equal keys are the same puzzle (kept once)."""
        ...

    def prompt(self, state: State[Game], values: Mapping[int, float], answer: int) -> str: ...

    def rating(self, state: State[Game], values: Mapping[int, float], answer: int) -> int: ...

    def describe(self, value: float) -> str:
        """A value in words: "wins in 3", "62.1% to win"."""
        ...

    def decisions(
        self, positions: Sequence[State[Game]]
    ) -> Iterable[tuple[State[Game], dict[int, float]]]:
        """A game's decisions (given in play order) that have exact values, with them."""
        ...


def unique_best(values: Mapping[int, float], margin: float) -> int | None:
    """The one move whose value beats every other's by ``margin`` or more."""
    if len(values) < 2:
        return None
    ordered = sorted(values, key=values.__getitem__, reverse=True)
    first, second = ordered[0], ordered[1]
    return first if values[first] - values[second] >= margin else None


def starting_rating(
    legal_moves: int, closeness: float, greedy_finds: bool, extra: float = 0.0
) -> int:
    """The heuristic in the module docstring; ``closeness`` in [0, 1] (1: the second best
    move is as good as the answer, 0: a gap of the game's scale or more)."""
    rating = START_RATING + min(25 * (legal_moves - 2), 250) + 200 * min(max(closeness, 0), 1)
    rating += -100 if greedy_finds else 150
    rating += extra
    return int(5 * round(min(max(rating, 800), 2400) / 5))


def closeness(values: Mapping[int, float], answer: int, scale: float) -> float:
    """1 - (the answer's lead over the next best move) / ``scale``, within [0, 1]."""
    lead = min(values[answer] - v for a, v in values.items() if a != answer)
    return 1.0 - min(lead / scale, 1.0)


def every_decision(
    positions: Sequence[State[Game]], values: Callable[[State[Game]], dict[int, float] | None]
) -> Iterable[tuple[State[Game], dict[int, float]]]:
    """Each decision with exact values, in play order."""
    for state in positions:
        found = values(state)
        if found is not None:
            yield state, found


def greedy_move(state: State[Game]) -> int:
    """What the game's greedy bot plays here (seeded: the same move every time)."""
    from tminus.agents.registry import make_agent

    return make_agent("greedy", state.game, seed=0).step(state.clone())
