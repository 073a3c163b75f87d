"""Judges: the mover's chance to win after each of its moves, exact or estimated.

A judge's ``values(state, actions)`` gives, for each action, a list of samples of the
mover's chance to win after it: one sample when exact, ``samples`` playouts otherwise
(sample ``i`` of every action is played in the same world with the same dice and draws,
so that differences between moves are measured without most of the luck). It returns
None where it cannot judge the position (the review then asks the next judge).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from tminus.agents.registry import default_rollout, make_agent
from tminus.core.game import Game, State
from tminus.core.playout import ChanceStreams


@dataclass(frozen=True)
class Estimate:
    """A chance to win: the mean of its samples and its standard error (0 when exact)."""

    mean: float
    error: float

    @classmethod
    def of(cls, samples: Sequence[float]) -> Estimate:
        values = np.asarray(samples, dtype=float)
        error = float(values.std(ddof=1) / np.sqrt(len(values))) if len(values) > 1 else 0.0
        return cls(float(values.mean()), error)


class Judge(Protocol):
    exact: bool
    name: str

    def values(self, state: State, actions: Sequence[int]) -> dict[int, list[float]] | None: ...


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

        if game.name != "four_way" or game.num_players != 2:
            raise ValueError("the duel table judges 2-player 4-Way CountDown")
        self.solver = FourWaySolverAgent(game)

    def values(self, state: State, actions: Sequence[int]) -> dict[int, list[float]]:
        return {a: [self.solver.chance_to_win(state, a)] for a in actions}


class ExactSputnik:
    """Sputnik with two players and one rocket each: the endgame table (radius 3, few
    galaxies left) or the solver (radius 2, the whole board)."""

    exact = True
    name = "the Sputnik solver (exact)"

    def __init__(self, game: Game, table: Any = None) -> None:
        from tminus.agents.solvers.sputnik_endgame import oracle_for

        self.oracle = oracle_for(game, table)
        if self.oracle is None:
            raise ValueError(
                "no exact Sputnik values for this game (2 players, radius 2 or a table)"
            )

    def values(self, state: State, actions: Sequence[int]) -> dict[int, list[float]] | None:
        from tminus.agents.solvers.sputnik_endgame import chance_to_win

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


class Playouts:
    """An estimate: each move played out ``samples`` times by the rollout agent (the game's
    greedy player), on common random numbers.

    ``seat=None`` (after the end) plays out the true state; a seat (during play) plays out
    worlds drawn from that seat's information set, ``state.resample_hidden(seat, ...)``.
    """

    exact = False

    def __init__(
        self,
        game: Game,
        samples: int = 32,
        seed: int = 0,
        seat: int | None = None,
        rollout: str | None = None,
    ) -> None:
        if samples < 2:
            raise ValueError("playouts need at least 2 samples for a standard error")
        self.game = game
        self.samples = samples
        self.seed = seed
        self.seat = seat
        self.rollout = rollout or default_rollout(game.name)
        self.name = f"{samples} playouts a move by `{self.rollout}` (estimate ± standard error)"

    def values(self, state: State, actions: Sequence[int]) -> dict[int, list[float]]:
        mover = state.current_player()
        # Seeded by the position as the judging seat knows it, never by hidden parts.
        where = len(state.history())
        values: dict[int, list[float]] = {a: [] for a in actions}
        for i in range(self.samples):
            seed = [self.seed, where, i]
            world = (
                state.clone()
                if self.seat is None
                else state.resample_hidden(self.seat, np.random.default_rng([*seed, 0]))
            )
            for action in actions:
                played = world.clone()
                played.apply_action(action)
                values[action].append(self.play_out(played, mover, seed))
        return values

    def play_out(self, state: State, seat: int, seed: list[int]) -> float:
        agent = make_agent(self.rollout, self.game, seed=[*seed, 1])
        chance = ChanceStreams(str(seed))
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance.draw(state))
            else:
                state.apply_action(agent.step(state))
        return share_of_win(state, seat)


def judge_for(game: Game, table: Any = None) -> Any | None:
    """The exact judge for ``game`` when there is one (None: estimates only)."""
    for exact in (ExactFourWayDuel, ExactSputnik):
        try:
            return exact(game, table) if exact is ExactSputnik else exact(game)
        except ValueError:
            continue
    return None
