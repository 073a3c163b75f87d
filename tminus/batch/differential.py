"""The differential test: a batch engine against the reference engine, step by step.

Every game of a batch is replayed, action by action from ``history(i)`` (chance outcomes
included), in a reference state of ``tminus.load_game``. At every decision the reference
must agree on the seat to move, the legal actions and every seat's observation tensor; at
the end, on the returns. Used by ``tests/batch`` on small samples and by
``python -m tminus.batch.differential`` on 10,000 games per configuration.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tminus.batch import make
from tminus.core.game import TERMINAL

CONFIGURATIONS: dict[str, list[dict[str, Any]]] = {
    "four_way": [
        *({"players": n, "variant": v} for v in ("adult", "junior") for n in (2, 3, 4)),
        {"players": 4, "max_turns": 5},  # the turn cap ends some games in the roll-off
    ],
    "sputnik": [
        *({"players": n} for n in (2, 3, 4, 5, 6)),
        {"players": 2, "rockets_per_player": 2},
        {"players": 2, "rockets_per_player": 3},
        {"players": 3, "rockets_per_player": 2},
        {"players": 4, "teams": True},
        {"players": 2, "radius": 2},
        {"players": 3, "radius": 5},
        {"players": 2, "radius": 4, "max_turns": 20},
    ],
    # Every number of players (5: a watching fifth seat; 6: three teams of two), a weighted
    # ball, arrests on any roll and none, and the turn cap.
    "count_down": [
        *({"players": n} for n in (2, 3, 4, 5, 6)),
        {"players": 4, "ball_weights": "1,1,1,1,1,1,1,1,1,1,2,2"},
        {"players": 3, "arrest_max": 12},
        {"players": 2, "arrest_max": 0},
        {"players": 6, "max_turns": 30},
    ],
    # 2-3 players play to three round wins; 4-8 a number of rounds and extra rounds for ties.
    "three_two_one": [
        {"players": 2},
        {"players": 3},
        *({"players": n, "rounds": 1} for n in range(4, 9)),
        {"players": 4, "rounds": 2},
        {"players": 5, "max_turns": 150},
    ],
}


@dataclass
class DifferentialReport:
    game: str
    params: dict[str, Any]
    games: int = 0
    decisions: int = 0  # decisions compared (legal actions and every seat's observation)
    actions: int = 0  # history entries replayed (chance outcomes included)
    seconds: float = 0.0
    mismatches: list[str] = field(default_factory=list)
    states: list = field(default_factory=list, repr=False)  # with keep_states: the final ones

    @property
    def ok(self) -> bool:
        return not self.mismatches and self.games > 0

    def line(self) -> str:
        params = ", ".join(f"{k}={v}" for k, v in self.params.items()) or "defaults"
        verdict = "ok" if self.ok else f"MISMATCH: {self.mismatches[0]}"
        return (
            f"{self.game} ({params}): {self.games} games, {self.actions} actions, "
            f"{self.decisions} decisions compared in {self.seconds:.0f}s: {verdict}"
        )


def check_against_reference(
    name: str,
    games: int,
    seed: int = 0,
    batch_size: int = 1000,
    agent: str = "random",
    backend: str = "numpy",
    keep_states: bool = False,
    observe_every: int = 1,
    **params: Any,
) -> DifferentialReport:
    """Play ``games`` games in batches, each step compared with the reference engine.

    ``observe_every``: compare every seat's observation tensor at every decision (1), or
    at every k-th decision of the batch and at every end (k), where the reference engine's
    tensors would take hours (long 3-2-1 games); legal actions, players and returns are
    compared at every step all the same. ``keep_states``: the report keeps each game's
    final reference state (to see what the sample went through)."""
    report = DifferentialReport(name, dict(params))
    start = time.perf_counter()
    done = 0
    while done < games and not report.mismatches:
        size = min(batch_size, games - done)
        states = _check_batch(
            name, size, (seed, done), agent, backend, params, report, observe_every
        )
        if keep_states:
            report.states.extend(states)
        done += size
    report.seconds = time.perf_counter() - start
    return report


def _check_batch(name, size, seed, agent, backend, params, report, observe_every) -> list:
    """Play one batch to its end against reference states; return those states."""
    from tminus.batch.agents import make_batch_agent

    env = make(name, size, seed=seed, backend=backend, **params)
    chooser = make_batch_agent(agent, env, seed=seed)
    states = [env.game.new_initial_state() for _ in range(size)]
    replayed = [0] * size
    live = np.ones(size, dtype=bool)
    step = 0
    while live.any():
        games = np.flatnonzero(live)
        _replay(env, states, replayed, games, report)
        if report.mismatches:
            return states
        _compare(env, states, games, report, observe=step % observe_every == 0)
        step += 1
        if report.mismatches:
            return states
        live &= ~env.terminal()
        if live.any():
            env.step(chooser.act())
    report.games += size
    return states


def _replay(env, states, replayed, games, report) -> None:
    """Apply each game's new history entries to its reference state (legality checked)."""
    for i in games.tolist():
        new = env.history(i, replayed[i])
        state = states[i]
        try:
            for action in new:
                state.apply_action(action)
        except ValueError as error:
            report.mismatches.append(f"game {i}: the reference refuses its history: {error}")
            return
        report.actions += len(new)
        replayed[i] += len(new)


def _compare(env, states, games, report, observe=True) -> None:
    players = env.current_player()
    mask = env.legal_mask()
    terminal = env.terminal()
    ending = terminal[games].any()
    returns = env.returns() if ending else None
    seats = range(env.num_players)
    tensors = [env.observation_tensor(seat) for seat in seats] if observe or ending else []

    def where(i: int) -> str:
        return f"game {i} after {len(states[i].history())} actions"

    # Each game's legal actions as a list, from one pass over the whole mask.
    rows, actions = np.nonzero(mask[games])
    legal_lists = np.split(actions, np.searchsorted(rows, np.arange(1, len(games))))
    for i, legal in zip(games.tolist(), legal_lists, strict=True):
        state = states[i]
        expected = state.current_player()
        if expected != players[i]:
            report.mismatches.append(f"{where(i)}: player {players[i]}, reference {expected}")
            return
        legal = legal.tolist()
        if legal != state.legal_actions():
            report.mismatches.append(
                f"{where(i)}: legal {legal}, reference {state.legal_actions()}"
            )
            return
        for seat, tensor in enumerate(tensors if observe or terminal[i] else ()):
            reference = state.observation_tensor(seat)
            if tensor[i].shape != reference.shape or not np.array_equal(tensor[i], reference):
                diff = np.flatnonzero(tensor[i] != reference)[:8].tolist()
                report.mismatches.append(
                    f"{where(i)}: observation of seat {seat} differs at {diff}"
                )
                return
        if expected == TERMINAL:
            assert returns is not None  # (this game ended, so ``ending`` held)
            if returns[i].tolist() != state.returns():
                report.mismatches.append(
                    f"{where(i)}: returns {returns[i].tolist()}, reference {state.returns()}"
                )
                return
        else:
            report.decisions += 1


def main(argv: list[str] | None = None) -> int:
    """``python -m tminus.batch.differential [--games 10000] [GAME ...]``: every
    configuration of the given games (all by default); exit 1 on any mismatch."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("names", nargs="*", default=sorted(CONFIGURATIONS))
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch-size", type=int, default=1000)
    parser.add_argument("--agent", default="random")
    parser.add_argument("--backend", default="numpy")
    parser.add_argument("--observe-every", type=int, default=1)
    parser.add_argument(
        "--configs", default="", help="indices of the configurations to run (default: all)"
    )
    args = parser.parse_args(argv)
    failed = False
    chosen = {int(i) for i in args.configs.split(",") if i}
    for name in args.names:
        for index, params in enumerate(CONFIGURATIONS[name]):
            if chosen and index not in chosen:
                continue
            report = check_against_reference(
                name, args.games, args.seed, args.batch_size, args.agent, args.backend,
                observe_every=args.observe_every, **params,
            )  # fmt: skip
            print(report.line(), flush=True)
            failed |= not report.ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
