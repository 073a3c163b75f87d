"""How a game's decisions fall among its phases, and how fast the reference engine plays it.

    python scripts/decision_mix.py count_down --players 2 4 6 --seconds 8

plays random games (uniform legal moves, chance by its odds) on the reference engine for
``--seconds`` per player count and prints the decisions a second and the share of each
phase (``State.phase()``). What a batch engine must make fast is where the decisions are:
in Count Down, at 4 to 6 players, half of them are in meetings.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from tminus.core.playout import sample_chance
from tminus.core.registry import load_game


def decision_mix(name: str, players: int, seconds: float, seed: int = 1) -> dict:
    """Random games for ``seconds`` (at least one whole game): decisions a second, games,
    and the decisions counted by phase."""
    game = load_game(name, players=players)
    rng = random.Random(seed)
    phases: Counter[str] = Counter()
    games = 0
    started = time.perf_counter()
    while games == 0 or time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
                continue
            phases[state.phase()] += 1
            state.apply_action(rng.choice(state.legal_actions()))
        games += 1
    elapsed = time.perf_counter() - started
    decisions = sum(phases.values())
    return {"decisions_per_second": decisions / elapsed, "games": games, "phases": phases}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, nargs="+", default=[2])
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args(argv)
    for players in args.players:
        mix = decision_mix(args.game, players, args.seconds)
        total = sum(mix["phases"].values())
        shares = ", ".join(
            f"{phase} {100 * count / total:.1f}%" for phase, count in mix["phases"].most_common()
        )
        print(
            f"{args.game}, {players} players: {mix['decisions_per_second']:,.0f} decisions/s, "
            f"{mix['games']} games, {total // mix['games']} decisions a game\n  {shares}"
        )


if __name__ == "__main__":
    main()
