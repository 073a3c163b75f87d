"""How long a hint takes, and how sure it is: ``hint_of`` (the server's hints process) at
decisions of a recorded game, timed from the call to the answer.

    python scripts/hint_timing.py --game three_two_one --players 3 --every 10

``--as-the-server``: as the server's hints process, which does not compile a batch engine
missing on disk (Count Down's on a fresh install) but plays on the reference engine until
it is saved. A fresh install's first Count Down hint, each way:

    NUMBA_CACHE_DIR=$(mktemp -d) python scripts/hint_timing.py --game count_down --players 4
    NUMBA_CACHE_DIR=$(mktemp -d) python scripts/hint_timing.py --game count_down --players 4 \
        --as-the-server
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tminus import load_game
from tminus.review import batch_playouts
from tminus.server.reviews import SAMPLES, hint_of
from tminus.sim.runner import make_agents, play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="three_two_one")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument(
        "--as-the-server", action="store_true",
        help="no batch engine compiled here (the reference engine until one is on disk)",
    )  # fmt: skip
    args = parser.parse_args()
    batch_playouts.compile_engines = not args.as_the_server
    game = load_game(args.game, players=args.players)
    agents = make_agents(["greedy"] * game.num_players, game, [args.seed])
    history = play_game(game, agents, [args.seed]).history
    state, decision, times, widths, worlds, equal = game.new_initial_state(), 0, [], [], [], 0
    for index, action in enumerate(history):
        if not state.is_chance_node() and len(state.legal_actions()) > 1:
            decision += 1
            if decision % args.every == 0:
                seat = state.current_player()
                started = time.perf_counter()
                hint = hint_of(type(game), dict(game.params), history[:index], seat, SAMPLES)
                times.append(time.perf_counter() - started)
                widths.append(hint["width"])
                worlds.append(hint["worlds"])
                equal += len(hint["equal"]) > 1
        state.apply_action(action)
    print(f"{len(times)} hints in a {args.players}-player {args.game} game: the first "
          f"{times[0]:.2f} s over {worlds[0]} worlds (± {100 * widths[0]:.1f} points), median "
          f"{np.median(times):.2f} s, slowest {max(times):.2f} s; chance to win ± "
          f"{100 * np.median(widths):.1f} points (median, 95%), widest ± "
          f"{100 * max(widths):.1f}; {equal} said the best moves were about equal")  # fmt: skip


if __name__ == "__main__":
    main()
