"""The bots' fixed ratings (tminus/server/bot_ratings.json), fitted to our tournaments.

A rated game against bots moves only the people's ratings; each bot plays at the rating of
its level, fitted here once to the two-player results measured in docs/levels.md (each
pair's wins, or its exact chance for 4-Way's solved levels). The fit is openskill's own
win model: with both sigmas at SIGMA, P(i beats j) = 1 / (1 + exp(-(mu_i - mu_j) / C)),
C = sqrt(2 SIGMA^2 + 2 BETA^2); so each pair gives mu_i - mu_j = C logit(p), weighted by
its precision (n p (1 - p)), solved by least squares with the medium level (greedy) at a
newcomer's mean, 25. A 28-0 sweep gets half a game each way (p = 28.5 / 29), not infinity.

    python scripts/bot_ratings.py            # prints the table and writes the file

The same specs play at every player count; a level measured only at two players keeps
its two-player rating at more (said in the file's use, ``tminus.server.ratings``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "tminus" / "server" / "bot_ratings.json"
BETA, SIGMA, ANCHOR = 25 / 6, 1.0, 25.0
C = math.sqrt(2 * SIGMA**2 + 2 * BETA**2)
EXACT = 100_000  # the weight of an exact chance (4-Way's solved duel), as so many games

# (winner spec, loser spec, wins of the first, games decided) from docs/levels.md, two
# players; a float instead of wins is an exact chance to win.
RESULTS: dict[str, list[tuple[str, str, float, int]]] = {
    "sputnik": [  # "The levels", 168 games, seed 0
        ("greedy", "random", 28, 28),
        ("mcts:simulations=300", "random", 28, 28),
        ("endgame:search=alphabeta:max_nodes=35000", "random", 28, 28),
        ("mcts:simulations=300", "greedy", 28, 28),
        ("endgame:search=alphabeta:max_nodes=35000", "greedy", 28, 28),
        ("endgame:search=alphabeta:max_nodes=35000", "mcts:simulations=300", 26, 28),
    ],
    "three_two_one": [  # seeds 0 and 1, 480 games
        ("greedy", "random", 80, 80),
        ("ismcts:simulations=200", "random", 80, 80),
        ("ismcts:simulations=800", "random", 80, 80),
        ("ismcts:simulations=200", "greedy", 62, 80),
        ("ismcts:simulations=800", "greedy", 65, 80),
        ("ismcts:simulations=800", "ismcts:simulations=200", 55, 80),
    ],
    "four_way": [  # exact, and hard on exact values (± 0.0008, ± 0.0002)
        ("greedy", "random", 0.5989, EXACT),
        ("mcts:simulations=800", "greedy", 0.5020, 390_000),
        ("solver", "mcts:simulations=800", 0.5016, 6_000_000),
        ("solver", "greedy", 0.5034, EXACT),
        ("solver", "random", 0.6018, EXACT),
    ],
    "count_down": [  # the first tournament (easy's games), then the duplicate runs
        ("greedy", "random", 18, 20),
        ("ismcts:simulations=200", "random", 20, 20),
        ("ismcts:simulations=800", "random", 20, 20),
        ("ismcts:simulations=200", "greedy", 269, 480),
        ("ismcts:simulations=800", "greedy", 60, 100),
        ("ismcts:simulations=800", "ismcts:simulations=200", 122, 240),
    ],
}


def fit(results: list[tuple[str, str, float, int]]) -> dict[str, float]:
    """Each spec's mu (the medium level's at ANCHOR), by weighted least squares."""
    specs = sorted({s for first, second, _, _ in results for s in (first, second)})
    index = {spec: i for i, spec in enumerate(specs)}
    rows, targets, weights = [], [], []
    for first, second, wins, games in results:
        p = wins if isinstance(wins, float) else (wins + 0.5) / (games + 1)
        row = np.zeros(len(specs))
        row[index[first]], row[index[second]] = 1.0, -1.0
        rows.append(row)
        targets.append(C * math.log(p / (1 - p)))
        weights.append(games * p * (1 - p))
    anchor = np.zeros(len(specs))
    anchor[index["greedy"]] = 1.0
    rows.append(anchor)
    targets.append(ANCHOR)
    weights.append(max(weights) * 10)
    root = np.sqrt(np.array(weights))
    solution, *_ = np.linalg.lstsq(np.array(rows) * root[:, None], np.array(targets) * root)
    return {spec: round(float(solution[index[spec]]), 3) for spec in specs}


def main() -> None:
    table = {}
    for game, results in RESULTS.items():
        mus = fit(results)
        table[game] = {spec: [mu, SIGMA] for spec, mu in sorted(mus.items(), key=lambda x: x[1])}
        for spec, (mu, _) in table[game].items():
            shown = round(1500 + 40 * (mu - 3 * SIGMA))
            print(f"{game:14} {spec:42} mu {mu:7.3f}  shown {shown}")
    OUT.write_text(json.dumps(table, indent=1) + "\n")
    print(f"written: {OUT}")


if __name__ == "__main__":
    main()
