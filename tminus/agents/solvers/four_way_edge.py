"""How much better than the greedy bot (or worse than the perfect player) an agent plays
4-Way CountDown for two, measured on exact values instead of counted wins.

Even perfect play wins only 50.34% against greedy (adult rules), so counting wins needs
about 80,000 games to tell any agent from greedy. The performance difference lemma
(Kakade & Langford 2002) needs far fewer: an agent's chance to win against greedy, less
greedy's own, is the expected sum over the agent's moves of
    Q(its move) - Q(the move greedy would make there),
where Q is the exact chance to win when both sides play greedy from then on
(``four_way_duel.duel_values``). The dice's luck, which decides most games, cancels out of
each difference; what is left is how the agent's choices differ from greedy's. Against
the perfect player (``solver``) the same sum over the solved values gives the agent's
chance to win against it, less one half: what its mistakes cost.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache

import numpy as np

from tminus.agents.registry import make_agent
from tminus.agents.solvers.four_way_duel import (
    PERFECT,
    RANDOM,
    TABLE_TOLERANCE,
    duel_values,
    either_starts,
    greedy_policy,
    solve,
)
from tminus.core.playout import sample_chance
from tminus.games.four_way.game import FourWayGame, FourWayState

BASELINES = ("greedy", "solver")


@dataclass(frozen=True)
class Edge:
    agent: str
    variant: str
    games: int
    mean: float  # the agent's chance to win against the baseline, less one half
    standard_error: float
    differing_moves: int  # moves where the agent did not play what the baseline would
    baseline: str = "greedy"


@cache
def both_greedy_values(variant: str) -> np.ndarray:
    """V[m, o]: the chance to win of the player about to roll, both playing greedy."""
    game = FourWayGame(players=2, variant=variant)
    greedy = greedy_policy(game)
    return duel_values(game.junior, greedy, greedy)[0]


def baseline_values(baseline: str, variant: str) -> np.ndarray:
    """V[m, o] of the player about to roll, both playing ``baseline`` (greedy or solver)."""
    if baseline not in BASELINES:
        raise ValueError(f"unknown baseline {baseline!r}; baselines: {', '.join(BASELINES)}")
    if baseline == "greedy":
        return both_greedy_values(variant)
    return solve(variant == "junior")


def greedy_continuation_value(state: FourWayState, action: int, values: np.ndarray) -> float:
    """The mover's chance to win after ``action`` when both then play greedy (or the policy
    of ``values``): the turn passes, so it is one less the opponent's chance as the next to
    roll."""
    me = state.current_player()
    after = state.clone()
    after.apply_action(action)
    if after.is_terminal():
        return 1.0 if me in after.winners() else 0.0
    return 1.0 - float(values[after.keys_mask(1 - me), after.keys_mask(me)])


def edge_over_greedy(spec: str, games: int, seed: int = 0, variant: str = "adult") -> Edge:
    """Play ``spec`` against greedy (seats alternating) and sum, per game, the exact value of
    each of its moves less that of greedy's move in its place."""
    return edge_over(spec, "greedy", games, seed, variant)


def edge_over(spec: str, baseline: str, games: int, seed: int = 0, variant: str = "adult") -> Edge:
    """``edge_over_greedy`` against ``baseline``: greedy, or the perfect ``solver``."""
    game = FourWayGame(players=2, variant=variant)
    values = baseline_values(baseline, variant)
    sums, differing = [], 0
    for index in range(games):
        seat = index % 2
        agent = make_agent(spec, game, seed=[seed, index, 0])
        reference = make_agent(baseline, game, seed=[seed, index, 1])
        dice = random.Random(f"{seed}-{index}")
        state, total = game.new_initial_state(), 0.0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), dice.random()))
                continue
            reference_move = reference.step(state)
            move = agent.step(state) if state.current_player() == seat else reference_move
            if move != reference_move:
                differing += 1
                total += greedy_continuation_value(state, move, values)
                total -= greedy_continuation_value(state, reference_move, values)
            state.apply_action(move)
        sums.append(total)
    spread = float(np.std(sums, ddof=1)) if games > 1 else math.inf
    mean = float(np.mean(sums))
    return Edge(spec, variant, games, mean, spread / math.sqrt(games), differing, baseline)


def levels_report(hard: str, games: int, seed: int = 0, variant: str = "adult") -> str:
    """The lobby's levels at 4-Way for two, on exact values: easy (``random``), medium
    (``greedy``) and expert (``solver``) against each other solved exactly, either side
    starting half the time; ``hard`` against greedy and against the solver by the sums of
    exact values above, over ``games`` games each (with the standard error)."""
    junior = variant == "junior"
    greedy = greedy_policy(FourWayGame(players=2, variant=variant))
    policies = {"easy": RANDOM, "medium": greedy, "expert": PERFECT}
    exact = {
        (a, b): either_starts(junior, policies[a], policies[b], TABLE_TOLERANCE)
        for a, b in (("medium", "easy"), ("expert", "easy"), ("expert", "medium"))
    }
    over_greedy = edge_over(hard, "greedy", games, seed, variant)
    over_solver = edge_over(hard, "solver", games, seed, variant)
    lines = [
        f"4-Way CountDown for two ({variant} rules): the chance that the first level beats the",
        "second, either starting half the time",
        "",
        "| levels | agents | chance to win | how |",
        "|---|---|---|---|",
        f"| medium vs easy | `greedy` vs `random` | {exact['medium', 'easy']:.4f} | exact |",
        f"| hard vs medium | `{hard}` vs `greedy` | {0.5 + over_greedy.mean:.4f} "
        f"± {over_greedy.standard_error:.4f} | {games} games, exact values |",
        f"| expert vs hard | `solver` vs `{hard}` | {0.5 - over_solver.mean:.4f} "
        f"± {over_solver.standard_error:.4f} | {games} games, exact values |",
        f"| expert vs medium | `solver` vs `greedy` | {exact['expert', 'medium']:.4f} | exact |",
        f"| expert vs easy | `solver` vs `random` | {exact['expert', 'easy']:.4f} | exact |",
        "",
        "± is one standard error. The hard level's rows sum, over its moves in each game, the",
        "exact value of its move less that of the other's move in its place (both then",
        "playing as the other does): the dice's luck cancels out.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    hard = sys.argv[1] if len(sys.argv) > 1 else "mcts:simulations=800"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    print(levels_report(hard, games, int(sys.argv[3]) if len(sys.argv) > 3 else 0))
