"""Sputnik solved: does the first player win two-player games with perfect play?

The search runs on the integer positions of ``sputnik_kernel`` (a whole turn per step,
from the point of view of the player to move). With one rocket each there are no draws (a
game ends long before the turn cap, see the kernel), so a position is won or lost for the
player to move, and the search is a plain AND/OR search with alpha-beta's cut-off at the
first winning turn:
- the player to move wins when some turn leaves the opponent lost; a player who cannot
  move has lost (eliminated on its own turn);
- a transposition table maps positions to won/lost (every stored result is exact, since
  the only values are win and loss);
- a position and its mirror image in the axis through both bases have the same value
  (the rules only use adjacency, which the mirror keeps, and the mirror fixes both
  bases): every result is stored under both;
- before searching any turn: a win in one turn is found without listing the turns
  (``Kernel.wins_at_once``), then any turn to a position already known lost for the
  opponent;
- move ordering (``Kernel.successors``): steps next to the opponent first, then steps to
  roomy cells; removals next to the opponent first.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from tminus.agents.solvers.sputnik_kernel import Kernel, kernel


class OutOfBudget(Exception):
    """The node or time budget ran out before the search finished."""


@dataclass(frozen=True)
class SputnikSolution:
    radius: int
    first_player_wins: bool | None  # None: the budget ran out
    nodes: int  # positions searched (one per turn)
    positions: int  # distinct positions in the table (mirror images counted once)
    seconds: float


class Solver:
    """Won/lost values of kernel positions for the player to move, with a shared table."""

    def __init__(
        self, radius: int, max_nodes: int | None = None, max_seconds: float | None = None
    ) -> None:
        self.kernel: Kernel = kernel(radius)
        self.table: dict[int, bool] = {}
        self.nodes = 0
        self.positions = 0  # distinct positions solved (a position and its mirror once)
        self.max_nodes = max_nodes
        self.max_seconds = max_seconds
        self._deadline = 0.0

    def wins(self, key: int) -> bool:
        """Whether the player to move in position ``key`` wins with perfect play by both."""
        self._deadline = time.monotonic() + (self.max_seconds or 0.0)
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 10 * self.kernel.cells + 1000))
        try:
            return self._wins(key)
        finally:
            sys.setrecursionlimit(limit)

    def _wins(self, key: int) -> bool:
        self.nodes += 1
        if self.nodes & 0xFFFF == 0:
            self._check_budget()
        table = self.table
        known = table.get(key)
        if known is not None:
            return known
        won = self.kernel.wins_at_once(key)
        if not won:
            children = self.kernel.successors(key)
            # No turn at all: the player to move is eliminated (won stays False).
            for child in children:
                if table.get(child) is False:
                    won = True
                    break
            else:
                for child in children:
                    if not self._wins(child):
                        won = True
                        break
        table[key] = won
        table[self.kernel.mirror(key)] = won
        self.positions += 1  # neither the position nor its mirror image was known
        return won

    def _check_budget(self) -> None:
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfBudget(f"more than {self.max_nodes:,} positions")
        if self.max_seconds is not None and time.monotonic() > self._deadline:
            raise OutOfBudget(f"more than {self.max_seconds:g} s")


def solve_first_player(
    radius: int = 2, max_nodes: int | None = None, max_seconds: float | None = None
) -> SputnikSolution:
    """Solve the 2-player game on a board of ``radius`` from the first turn (whoever the
    lot chose: the board is the same seen from either base)."""
    solver = Solver(radius, max_nodes, max_seconds)
    start = time.perf_counter()
    try:
        result: bool | None = solver.wins(solver.kernel.start())
    except OutOfBudget:
        result = None
    seconds = time.perf_counter() - start
    return SputnikSolution(radius, result, solver.nodes, solver.positions, seconds)


def report(radius: int = 2, max_seconds: float | None = None) -> str:
    solution = solve_first_player(radius, max_seconds=max_seconds)
    verdict = {
        True: "the first player wins",
        False: "the second player wins",
        None: f"not solved: the time budget of {max_seconds} s ran out",
    }
    return "\n".join(
        [
            "# Sputnik, two players, solved",
            "",
            f"Board of radius {radius} ({solution_cells(radius)} cells), one rocket each, "
            "bases on opposite corners.",
            f"With perfect play by both: **{verdict[solution.first_player_wins]}**.",
            "",
            f"Positions searched (one per turn): {solution.nodes:,}; distinct positions stored "
            f"(a position and its mirror image once): {solution.positions:,}; "
            f"{solution.seconds:.1f} s.",
        ]
    )


def solution_cells(radius: int) -> int:
    return kernel(radius).cells


if __name__ == "__main__":  # python -m tminus.agents.solvers.sputnik [radius] [seconds]
    arguments = sys.argv[1:]
    print(
        report(
            int(arguments[0]) if arguments else 2,
            float(arguments[1]) if len(arguments) > 1 else None,
        )
    )
