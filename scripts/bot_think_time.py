"""How long the bots that call themselves instant (``instant = True``) take to choose a
move, in every game: the server lets them think in its event loop's process, which is only
right while a move costs them microseconds.

    python scripts/bot_think_time.py [--games 20]

plays each game with four such bots of one kind (two in Sputnik) and prints the median,
99th percentile and longest time of a move.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tminus.agents.base import is_instant
from tminus.agents.registry import make_agent
from tminus.core.playout import sample_chance
from tminus.core.registry import list_games, load_game

MAX_ACTIONS = 400  # a game is cut here: the figures are of moves, not of whole games


def think_times(name: str, spec: str, games: int) -> list[float]:
    times = []
    for seed in range(games):
        game = load_game(name, players=2 if name == "sputnik" else 4)
        state, rng, agents = game.new_initial_state(), random.Random(seed), {}
        for _ in range(MAX_ACTIONS):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
                continue
            seat = state.current_player()
            agent = agents.setdefault(seat, make_agent(spec, game, seed=10 * seed + seat))
            assert is_instant(agent), f"{spec} in {name} does not call itself instant"
            start = time.perf_counter()
            action = agent.step(state.clone())
            times.append(time.perf_counter() - start)
            state.apply_action(action)
    return sorted(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    print(f"{'game':<15}{'bot':<8}{'moves':>7}{'median':>10}{'p99':>10}{'longest':>10}  (ms)")
    for name in list_games():
        for spec in ("random", "greedy"):
            times = think_times(name, spec, args.games)
            p99 = times[int(0.99 * (len(times) - 1))]
            print(
                f"{name:<15}{spec:<8}{len(times):>7}{1e3 * statistics.median(times):>10.3f}"
                f"{1e3 * p99:>10.3f}{1e3 * times[-1]:>10.3f}"
            )


if __name__ == "__main__":
    main()
