"""Sputnik solved: does the first player win two-player games with perfect play?

Plain minimax with alpha-beta over the exact results (+1 seat 0 wins, -1 it loses, 0 a
draw), a transposition table keyed by ``state_key()`` holding exact values and bounds,
and the Sputnik move ordering. A player's move and removal are two decisions in a row,
so each node maximises or minimises by who is to move, not by alternation.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from tminus.agents.evaluation.sputnik import order_actions
from tminus.core.game import State
from tminus.core.registry import load_game

EXACT, LOWER, UPPER = 0, 1, 2


@dataclass(frozen=True)
class SputnikSolution:
    radius: int
    first_player_result: int  # +1 the first player wins, -1 the second, 0 a draw
    nodes: int
    seconds: float


class Solver:
    def __init__(self) -> None:
        self.table: dict[tuple, tuple[int, int]] = {}
        self.nodes = 0

    def value(self, state: State, alpha: int = -1, beta: int = 1) -> int:
        """The exact result for seat 0 with perfect play by both."""
        self.nodes += 1
        if state.is_terminal():
            return round(state.returns()[0])
        key = state.state_key()
        stored = self.table.get(key)
        if stored is not None:
            value, flag = stored
            if (
                flag == EXACT
                or (flag == LOWER and value >= beta)
                or (flag == UPPER and value <= alpha)
            ):
                return value
        maximising = state.current_player() == 0
        low, high = alpha, beta
        best = -2 if maximising else 2
        for action in order_actions(state, state.legal_actions()):
            child = state.clone()
            child.apply_action(action)
            value = self.value(child, low, high)
            if maximising:
                best = max(best, value)
                low = max(low, value)
            else:
                best = min(best, value)
                high = min(high, value)
            if low >= high:
                break
        flag = EXACT
        if best <= alpha:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        self.table[key] = (best, flag)
        return best


def solve_first_player(radius: int = 2) -> SputnikSolution:
    """Solve the 2-player game on a board of ``radius`` with seat 0 drawn to start."""
    state = load_game("sputnik", players=2, radius=radius).new_initial_state()
    state.apply_action(state.string_to_action("lot: seat 0 starts"))
    solver = Solver()
    start = time.perf_counter()
    result = solver.value(state)
    return SputnikSolution(radius, result, solver.nodes, time.perf_counter() - start)


def report(radius: int = 2) -> str:
    solution = solve_first_player(radius)
    verdict = {1: "the first player wins", -1: "the second player wins", 0: "a draw"}
    return "\n".join(
        [
            "# Sputnik, two players, solved",
            "",
            f"Board of radius {radius}, one rocket each, bases on opposite corners.",
            f"With perfect play by both: **{verdict[solution.first_player_result]}**.",
            "",
            f"Positions searched: {solution.nodes:,} in {solution.seconds:.1f} s "
            "(alpha-beta with a transposition table).",
        ]
    )
