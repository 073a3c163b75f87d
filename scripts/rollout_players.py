"""Which player should finish a review's playouts? Measured, not guessed.

On decisions sampled from recorded games, each candidate rollout player values every legal
move by playouts (``Playouts``, to ± 3 points or ``--worlds`` deals); a reference valuation
with the stronger, slower player (the reference engine's greedy, with its look at the
others' likely hands before declaring) says which move is best. Printed per candidate: how
often its best move is the reference's best, how often it picks a move the reference
shows worse by two standard errors, its playouts a second and the time a decision took.

    python scripts/rollout_players.py --game three_two_one --players 3 --positions 30

(The review's choice is the game manifest's ``batch_rollout``.)
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tminus import load_game
from tminus.review.judges import Estimate
from tminus.review.playouts import Playouts
from tminus.sim.runner import make_agents, play_game


def sample_decisions(game, games: int, every: int, seed: int):
    """States at every ``every``-th decision (more than one legal move) of greedy games."""
    found = []
    for g in range(games):
        history = play_game(game, make_agents(["greedy"] * game.num_players, game, [seed, g]),
                            [seed, g]).history  # fmt: skip
        state, decision = game.new_initial_state(), 0
        for action in history:
            if not state.is_chance_node() and len(state.legal_actions()) > 1:
                decision += 1
                if decision % every == 0:
                    found.append(state.clone())
            state.apply_action(action)
    return found


def valuation(judge: Playouts, state) -> tuple[dict[int, Estimate], float]:
    started = time.perf_counter()
    samples = judge.values(state, state.legal_actions())
    most = max(len(v) for v in samples.values())
    values = {a: Estimate.of(v) for a, v in samples.items() if len(v) == most}
    return values, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="three_two_one")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--reference-worlds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = load_game(args.game, players=args.players)
    positions = sample_decisions(game, games=4, every=3, seed=args.seed)
    rng = np.random.default_rng(args.seed)
    chosen = rng.choice(len(positions), min(args.positions, len(positions)), replace=False)
    positions = [positions[i] for i in sorted(chosen)]
    print(f"{len(positions)} decisions of {args.game} ({args.players} players), greedy games")
    reference = Playouts(game, samples=args.reference_worlds, seed=7, rollout="greedy",
                         precision=None)  # fmt: skip
    truth, spent = [], 0.0
    for state in positions:
        values, seconds = valuation(reference, state)
        truth.append(values)
        spent += seconds
    print(f"reference: greedy on the reference engine, {args.reference_worlds} worlds a move, "
          f"{spent:.0f} s")  # fmt: skip
    candidates = {"shedder (batch)": None, "random (batch)": "random"}
    for label, rollout in candidates.items():
        judge = Playouts(game, samples=32, seed=11)
        if rollout == "random":
            judge.batch = "random"
        agree = worse = 0
        times, worlds = [], []
        for state, best_known in zip(positions, truth, strict=True):
            values, seconds = valuation(judge, state)
            times.append(seconds)
            worlds.append(max(v.count for v in values.values()))
            pick = max(values, key=lambda a: values[a].mean)
            top = max(best_known, key=lambda a: best_known[a].mean)
            agree += pick == top
            gap = best_known[top].mean - best_known[pick].mean
            spread = np.hypot(best_known[top].error, best_known[pick].error)
            worse += gap > 2 * spread
        print(f"{label}: same best move {agree}/{len(positions)}, a move shown worse "
              f"{worse}/{len(positions)}; median {np.median(times):.2f} s and "
              f"{np.median(worlds):.0f} worlds a decision")  # fmt: skip


if __name__ == "__main__":
    main()
