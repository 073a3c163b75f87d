"""A whole review, timed and checked against itself: a recorded game reviewed twice with
different seeds (as ``tminus review`` does, with its time budget), printing the time each
took, how precise its values are and how often the two give a decision the same label.

    python scripts/review_timing.py --game three_two_one --players 3 --seed 1
    python scripts/review_timing.py --game count_down --players 4 --reference  # no batch
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tminus import load_game
from tminus.review import review_game
from tminus.review.playouts import Z95
from tminus.sim.runner import make_agents, play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="three_two_one")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1, help="the recorded game's")
    parser.add_argument("--budget", type=float, default=55.0)
    parser.add_argument(
        "--reference", action="store_true",
        help="play the playouts on the reference engine, not the batch engine",
    )  # fmt: skip
    args = parser.parse_args()
    if args.reference:
        import tminus.review.batch_playouts

        tminus.review.batch_playouts.batch_rollout = lambda game: None
    game = load_game(args.game, players=args.players)
    agents = make_agents(["greedy"] * game.num_players, game, [args.seed])
    history = play_game(game, agents, [args.seed]).history
    reviews = []
    for seed in (0, 1):
        started = time.perf_counter()
        review = review_game(game, history, seed=seed, budget=args.budget)
        took = time.perf_counter() - started
        widths = [Z95 * max(m.before.error, m.after.error, m.loss.error) for m in review.moves]
        within = sum(w <= 0.03 + 1e-9 for w in widths)
        graded = sum(m.grade is not None for m in review.moves)
        print(f"seed {seed}: {len(review.moves)} decisions in {took:.1f} s; widest value ± "
              f"{100 * max(widths):.1f} points, median ± {100 * np.median(widths):.1f}; "
              f"{within} within ± 3; {graded} labelled")  # fmt: skip
        reviews.append(review)
    same = sum(a.grade == b.grade for a, b in zip(reviews[0].moves, reviews[1].moves, strict=True))
    print(f"same label in both: {same}/{len(reviews[0].moves)} "
          f"({100 * same / len(reviews[0].moves):.1f}%)")  # fmt: skip
    for a, b in zip(reviews[0].moves, reviews[1].moves, strict=True):
        if a.grade != b.grade:
            print(f"  move {a.index}: {a.grade} (loss {100 * a.loss.mean:.1f} ± "
                  f"{100 * Z95 * a.loss.error:.1f}, best {a.best_text!r}) vs {b.grade} (loss "
                  f"{100 * b.loss.mean:.1f} ± {100 * Z95 * b.loss.error:.1f}, best "
                  f"{b.best_text!r})")  # fmt: skip


if __name__ == "__main__":
    main()
