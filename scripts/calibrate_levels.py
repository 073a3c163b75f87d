"""Seconds a move of candidate level agents, on this machine: the figures behind
``tminus/agents/levels.py``.

    nice python scripts/calibrate_levels.py [GAME ...] [--games 2] [--players N]

For each game and candidate spec, plays a few games of the spec against the game's
greedy bot (the spec in every seat in turn) and prints the mean, 90th percentile and
longest processor time the spec's own decisions took (forced moves skipped).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tminus.agents.registry import make_agent
from tminus.core.playout import sample_chance
from tminus.core.registry import load_game

CANDIDATES = {
    "sputnik": [
        "mcts:simulations=100",
        "mcts:simulations=300",
        "mcts:simulations=1000",
        "alphabeta:max_nodes=1500",
        "alphabeta:max_nodes=5000",
        "alphabeta:max_nodes=20000",
    ],
    "four_way": ["mcts:simulations=100", "mcts:simulations=400", "mcts:simulations=1500"],
    "three_two_one": ["ismcts:simulations=50", "ismcts:simulations=200", "ismcts:simulations=800"],
    "count_down": ["ismcts:simulations=25", "ismcts:simulations=100", "ismcts:simulations=400"],
}


def seconds_a_move(
    game_name: str, spec: str, games: int, max_moves: int = 40, players: int | None = None
) -> list[float]:
    """Processor seconds of each of ``spec``'s decisions (more than one legal move), at the
    game's default number of players unless given."""
    game = load_game(game_name) if players is None else load_game(game_name, players=players)
    times: list[float] = []
    for index in range(games):
        seat = index % game.num_players
        agents = [make_agent("greedy", game, seed=[index, s]) for s in range(game.num_players)]
        agents[seat] = make_agent(spec, game, seed=[index, seat])
        rng = np.random.default_rng(index)
        state = game.new_initial_state()
        timed = 0
        while not state.is_terminal() and timed < max_moves:
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
                continue
            player = state.current_player()
            many = len(state.legal_actions()) > 1
            start = time.process_time()
            action = agents[player].step(state)
            if player == seat and many:
                times.append(time.process_time() - start)
                timed += 1
            state.apply_action(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games_to_time", nargs="*", default=list(CANDIDATES))
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--spec", action="append", help="time these specs instead")
    parser.add_argument("--players", type=int, help="this many players (default: the game's)")
    arguments = parser.parse_args()
    print("| game | spec | decisions | mean s | p90 s | max s |")
    print("|---|---|---|---|---|---|")
    for name in arguments.games_to_time:
        for spec in arguments.spec or CANDIDATES[name]:
            times = seconds_a_move(name, spec, arguments.games, players=arguments.players)
            if not times:
                continue
            p90 = float(np.percentile(times, 90))
            print(
                f"| {name} | `{spec}` | {len(times)} | {np.mean(times):.3f} | {p90:.3f} "
                f"| {max(times):.3f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
