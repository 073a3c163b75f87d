"""How long a hint takes, and how sure it is: ``hint_of`` (the server's hints process) at
decisions of a recorded game, timed from the call to the answer.

    python scripts/hint_timing.py --game three_two_one --players 3 --every 10
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tminus import load_game
from tminus.server.reviews import SAMPLES, hint_of
from tminus.sim.runner import make_agents, play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="three_two_one")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    game = load_game(args.game, players=args.players)
    agents = make_agents(["greedy"] * game.num_players, game, [args.seed])
    history = play_game(game, agents, [args.seed]).history
    state, decision, times, widths, equal = game.new_initial_state(), 0, [], [], 0
    for index, action in enumerate(history):
        if not state.is_chance_node() and len(state.legal_actions()) > 1:
            decision += 1
            if decision % args.every == 0:
                seat = state.current_player()
                started = time.perf_counter()
                hint = hint_of(type(game), dict(game.params), history[:index], seat, SAMPLES)
                times.append(time.perf_counter() - started)
                widths.append(hint["width"])
                equal += len(hint["equal"]) > 1
        state.apply_action(action)
    print(f"{len(times)} hints in a {args.players}-player {args.game} game: median "
          f"{np.median(times):.2f} s, slowest {max(times):.2f} s; chance to win ± "
          f"{100 * np.median(widths):.1f} points (median, 95%), widest ± "
          f"{100 * max(widths):.1f}; {equal} said the best moves were about equal")  # fmt: skip


if __name__ == "__main__":
    main()
