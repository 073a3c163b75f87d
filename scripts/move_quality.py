"""Whose moves are better, judged move by move (``tminus.review.quality``): the two agents
of saved tournament runs choose in positions of their own games, and where they choose
differently the review's judge values both moves.

    nice python scripts/move_quality.py SAVED.json [SAVED.json ...] [--every 0.1]
        [--judge 2000] [--workers 2] [--seed 0] [--agents A B]

The runs must be saved with their games' moves (``tminus tournament ... --save``) and be
runs of the same two agents; ``--agents A B`` judges two other agents on their positions.
Prints the share of positions where the agents differ, the first agent's mean gain a
decision (its move's chance to win minus the second's, zero where both chose alike) with a
95% interval over deals (the positions of a deal's two games are not independent: they
often share an opening), and how many differing positions the judge decided for each side.
Positions and seeds follow the files' order.
"""

from __future__ import annotations

import argparse

from tminus.core.registry import load_game_from
from tminus.review.quality import compare_moves, interval_text, sample_positions
from tminus.sim.stats import Z_95
from tminus.sim.tournament import load_tournament


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("saved", nargs="+")
    parser.add_argument("--every", type=float, default=0.1)
    parser.add_argument("--judge", type=int, default=2000, help="playouts a move")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agents", nargs=2, help="two other agents to judge on these positions")
    args = parser.parse_args()
    runs = [load_tournament(path) for path in args.saved]
    agents = runs[0].agents[:2]
    if any(run.agents[:2] != agents or run.game != runs[0].game for run in runs):
        raise SystemExit("the saved runs are not all of the same two agents at one game")
    if any(result.history is None for run in runs for result in run.results):
        raise SystemExit("a run was saved without its games' moves")
    game = load_game_from(runs[0].game, runs[0].params)
    agents = args.agents or agents
    histories = [result.history for run in runs for result in run.results]
    # A duplicate deal's games share their seed: the deal is the group (in the files' order).
    deals = [(i, result.seed) for i, run in enumerate(runs) for result in run.results]
    positions = sample_positions(game, histories, args.every, args.seed, deals)  # type: ignore[arg-type]
    comparison = compare_moves(game, agents, positions, args.judge, args.workers)
    first, second = comparison.decided()
    differing = comparison.differing
    judges = ", ".join(comparison.judges) or "none (no two moves differed)"
    print(f"{comparison.positions} positions of {len(histories)} games; judge: {judges}")
    print(f"`{agents[0]}` and `{agents[1]}` chose differently in {len(differing)}")
    print(f"`{agents[0]}`'s gain a decision: {interval_text(comparison.gain(), Z_95)}")
    print(
        f"decided by the judge (two standard errors): for `{agents[0]}` {first}, "
        f"for `{agents[1]}` {second}, neither {len(differing) - first - second}"
    )
    for gain in differing:
        print(f"  {gain.mean:+.4f} ± {gain.error:.4f}")


if __name__ == "__main__":
    main()
