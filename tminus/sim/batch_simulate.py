"""``tminus simulate --batch``: many games between vectorised players, on a batch engine.

The same summary as ``tminus.sim.simulate.simulate`` (win rates with Wilson intervals,
moves per game, draws and turn-cap draws), from games played thousands at a time. Every
game that is started is played to its end, so long games are not under-counted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from tminus.batch import batch_class
from tminus.batch.agents import SeatedAgents
from tminus.batch.base import keep_freed_memory
from tminus.core.game import Game
from tminus.sim.simulate import SeatSummary, SimulationSummary
from tminus.sim.stats import percentile


def simulate_batch(
    game: Game,
    agent_names: Sequence[str],
    games: int,
    seed: int = 0,
    batch_size: int = 4096,
    backend: str = "numpy",
    progress: Callable[[int], None] | None = None,
) -> SimulationSummary:
    """Play ``games`` games, agent ``agent_names[i]`` in seat ``i`` (``random``, or
    ``greedy`` where it is vectorised), and summarise them."""
    names = list(agent_names)
    if len(names) != game.num_players:
        raise ValueError(f"{game.name} with {game.num_players} players needs that many agents")
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    keep_freed_memory()
    size = min(batch_size, games)
    env = batch_class(game.name, backend)(
        size, seed=seed, record_history=False, **dict(game.params)
    )
    players = SeatedAgents(env, names, seed=seed)
    n = game.num_players
    wins = np.zeros(n, dtype=np.int64)
    lengths: list[np.ndarray] = []
    draws = capped = 0
    moves = np.zeros(size, dtype=np.int64)
    started, finished = size, 0
    live = np.ones(size, dtype=bool)
    while finished < games:
        moves += live & ~env.terminal()  # (a game may end before its first move)
        env.step(players.act(), check=False)
        ended = np.flatnonzero(live & env.terminal())
        if len(ended) == 0:
            continue
        returns = env.returns()[ended]
        best, worst = returns.max(axis=1), returns.min(axis=1)
        winners = (returns == best[:, None]) & (best > worst)[:, None]
        wins += winners.sum(axis=0)
        draws += int(np.count_nonzero(best == worst))
        capped += int(np.count_nonzero(env.ended_by_turn_cap()[ended]))
        lengths.append(moves[ended].copy())
        finished += len(ended)
        if progress is not None:
            progress(len(ended))
        # Start new games in the slots that are free, as long as games remain to start.
        again = ended[: max(0, games - started)]
        live[ended] = False
        if len(again):
            env.reset(again)
            moves[again] = 0
            live[again] = True
            started += len(again)
    played = np.sort(np.concatenate(lengths)).tolist()
    return SimulationSummary(
        game=game.name,
        params=dict(game.params),
        agents=names,
        seed=seed,
        games=games,
        seats=[SeatSummary(s, names[s], int(wins[s]), games) for s in range(n)],
        length_mean=float(np.mean(played)),
        length_median=percentile(played, 0.5),
        length_p95=percentile(played, 0.95),
        turn_cap_draws=capped,
        draws=draws,
    )
