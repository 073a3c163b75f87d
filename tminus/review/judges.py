"""Judges: the mover's chance to win after each of its moves, exact or estimated.

A judge's ``values(state, actions, keep=(), deadline=None)`` gives, for each action, a list
of samples of the mover's chance to win after it: one sample when exact, playouts otherwise
(sample ``i`` of every action is played in the same world, so that differences between
moves are measured without most of the luck; ``keep``: actions whose value will be shown,
``deadline``: when to stop sampling). It returns None where it cannot judge the position
(the review then asks the next judge).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from tminus.core.game import Game, State


@dataclass(frozen=True)
class Estimate:
    """A chance to win: the mean of its samples, its standard error (0 when exact) and how
    many samples it has."""

    mean: float
    error: float
    count: int = 1

    @classmethod
    def of(cls, samples: Sequence[float] | np.ndarray) -> Estimate:
        values = np.asarray(samples, dtype=float)
        error = float(values.std(ddof=1) / np.sqrt(len(values))) if len(values) > 1 else 0.0
        return cls(float(values.mean()), error, len(values))


class Judge(Protocol):
    exact: bool
    name: str

    def values(
        self,
        state: State,
        actions: Sequence[int],
        keep: Sequence[int] = (),
        deadline: float | None = None,
    ) -> dict[int, list[float]] | None: ...


def share_of_win(state: State, seat: int) -> float:
    """A finished game's result for ``seat`` as a chance to win: 1 for the sole winner, a
    share when several tie for the best result, 1/players when all results are equal."""
    returns = state.returns()
    best = max(returns)
    tied = [s for s, r in enumerate(returns) if r == best]
    if len(tied) == len(returns):
        return 1.0 / len(returns)
    return 1.0 / len(tied) if seat in tied else 0.0


class ExactFourWayDuel:
    """4-Way CountDown with two players: the solved duel (``four_way_duel``)."""

    exact = True
    name = "the solved duel (exact)"

    def __init__(self, game: Game) -> None:
        from tminus.agents.solvers.four_way import FourWaySolverAgent
        from tminus.games.four_way.game import FourWayGame

        if not isinstance(game, FourWayGame) or game.num_players != 2:
            raise ValueError("the duel table judges 2-player 4-Way CountDown")
        self.solver = FourWaySolverAgent(game)

    def values(self, state: State, actions: Sequence[int], **_: Any) -> dict[int, list[float]]:
        from tminus.games.four_way.game import FourWayState

        assert isinstance(state, FourWayState)  # (a judge is asked about its own game)
        return {a: [self.solver.chance_to_win(state, a)] for a in actions}


class ExactSputnik:
    """Sputnik with two players and one rocket each: the endgame table (radius 3, few
    galaxies left) or the solver (radius 2, the whole board)."""

    exact = True
    name = "the Sputnik solver (exact)"

    def __init__(self, game: Game, table: Any = None) -> None:
        from tminus.agents.solvers.sputnik_endgame import oracle_for

        oracle = oracle_for(game, table)
        if oracle is None:
            raise ValueError(
                "no exact Sputnik values for this game (2 players, radius 2 or a table)"
            )
        self.oracle = oracle

    def values(
        self, state: State, actions: Sequence[int], **_: Any
    ) -> dict[int, list[float]] | None:
        from tminus.agents.solvers.sputnik_endgame import chance_to_win
        from tminus.games.sputnik.game import SputnikState

        assert isinstance(state, SputnikState)  # (a judge is asked about its own game)
        mover = state.current_player()
        values = {}
        for action in actions:
            after = state.clone()
            after.apply_action(action)
            value = chance_to_win(self.oracle, after, mover)
            if value is None:
                return None
            values[action] = [value]
        return values


def missing_table_note(game: Game, table: Any = None) -> str | None:
    """Why a game that the solved endgame table would judge exactly near its end is only
    estimated here (None: nothing is missing): said with the review's judges."""
    from tminus.agents.solvers import sputnik_endgame

    covered: Any = game  # (the table's board: the default radius)
    if table is not None or not sputnik_endgame.solvable(game):
        return None
    if covered.board.radius != sputnik_endgame.RADIUS or sputnik_endgame.cached_table() is not None:
        return None
    where = "being built" if sputnik_endgame.being_built() else "not built"
    return (f"Sputnik's endgame table is {where} on this server: the last moves are estimated "
            "by `playouts` until it is (`tminus tables build`)")  # fmt: skip


def judge_for(game: Game, table: Any = None) -> Any | None:
    """The exact judge for ``game`` when there is one (None: estimates only)."""
    for exact in (ExactFourWayDuel, ExactSputnik):
        try:
            return exact(game, table) if exact is ExactSputnik else exact(game)
        except ValueError:
            continue
    return None
