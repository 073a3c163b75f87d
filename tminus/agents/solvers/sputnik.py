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
from functools import cache

from tminus.agents.greedy.sputnik import SputnikGreedy
from tminus.agents.solvers.sputnik_kernel import Kernel, kernel
from tminus.core.progress import Step, Steps, step_of
from tminus.games.sputnik.game import SputnikGame, SputnikState

# Positions the whole solve searches, by radius, as last measured (the search is
# deterministic): what the time left is reckoned on while it runs.
NODES_TO_SOLVE = {2: 3_547_635}


class OutOfBudget(Exception):
    """The node or time budget ran out before the search finished."""


@dataclass(frozen=True)
class SputnikSolution:
    radius: int
    first_player_wins: bool | None  # None: the budget ran out
    nodes: int  # positions searched (one per turn)
    positions: int  # distinct positions in the table (mirror images counted once)
    seconds: float  # processor time (the machine may be shared)
    wall_seconds: float
    winning_turn: str | None  # a first turn that wins, when the first player wins


class Solver:
    """Won/lost values of kernel positions for the player to move, with a shared table."""

    def __init__(
        self,
        radius: int,
        max_nodes: int | None = None,
        max_seconds: float | None = None,
        progress: Step | None = None,
    ) -> None:
        self.kernel: Kernel = kernel(radius)
        self.table: dict[int, bool] = {}
        self.nodes = 0
        self.positions = 0  # distinct positions solved (a position and its mirror once)
        self.max_nodes = max_nodes
        self.max_seconds = max_seconds
        self.progress = progress  # told the positions searched, now and then
        self._deadline = 0.0

    def wins(self, key: int) -> bool:
        """Whether the player to move in position ``key`` wins with perfect play by both."""
        self._deadline = time.process_time() + (self.max_seconds or 0.0)
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
            if self.progress is not None:
                self.progress(self.nodes, NODES_TO_SOLVE.get(self.kernel.board.radius))
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

    def winning_turn(self, key: int) -> int | None:
        """A position after a turn that wins for the player to move in ``key`` (None: lost)."""
        children = self.kernel.successors(key)
        for child in children:
            if not self.kernel.can_move(child) or self.table.get(child) is False:
                return child
        for child in children:
            if not self.wins(child):
                return child
        return None

    def _check_budget(self) -> None:
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfBudget(f"more than {self.max_nodes:,} positions")
        if self.max_seconds is not None and time.process_time() > self._deadline:
            raise OutOfBudget(f"more than {self.max_seconds:g} s")


@cache
def shared_solver(radius: int) -> Solver:
    """One solver (and table) per board for all the agents of a process."""
    return Solver(radius)


class SputnikSolverAgent:
    """Plays a winning turn whenever there is one (2 players, one rocket each).

    Each decision searches for at most ``max_seconds`` of processor time (the table is kept between
    decisions and games; ``None``: no limit); when that runs out, or the position is lost,
    it plays as the greedy agent does. Exact and quick on radius 2 (the first decision
    solves the board); on larger boards mostly greedy, which is why it is not registered.
    """

    name = "solver"

    def __init__(
        self,
        game: SputnikGame,
        seed: int | list[int] | None = None,
        max_seconds: float | None = 5.0,
    ) -> None:
        if game.num_players != 2 or game.rockets_per_player != 1:
            raise ValueError("the Sputnik solver plays 2-player games with one rocket each")
        self.solver = shared_solver(game.board.radius)
        self.max_seconds = max_seconds
        self.fallback = SputnikGreedy(game, seed)

    def step(self, state: SputnikState) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self.solver.max_seconds = self.max_seconds
        try:
            action = self.winning_action(state)
        except OutOfBudget:
            action = None
        return self.fallback.step(state) if action is None else action

    def winning_action(self, state: SputnikState) -> int | None:
        """The move of a winning turn, or the removal that completes one (None: lost)."""
        solver = self.solver
        k = solver.kernel
        game = state.game
        if state.phase() == "move":
            key = k.position_of(state)
            child = solver.winning_turn(key)
            if child is None:
                return None
            verb, cell, _ = k.describe_turn(key, child)
            return cell + (game.help_offset if verb == "help" else 0)
        for removal in state.legal_actions():
            after = state.clone()
            after.apply_action(removal)
            if after.is_terminal() or not solver.wins(k.position_of(after)):
                return removal
        return None


def solve_first_player(
    radius: int = 2,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    progress: Step | None = None,
) -> SputnikSolution:
    """Solve the 2-player game on a board of ``radius`` from the first turn (whoever the
    lot chose: the board is the same seen from either base), telling ``progress`` the
    positions searched."""
    solver = Solver(radius, max_nodes, max_seconds, progress)
    start, wall = time.process_time(), time.perf_counter()
    try:
        result: bool | None = solver.wins(solver.kernel.start())
    except OutOfBudget:
        result = None
    seconds, wall = time.process_time() - start, time.perf_counter() - wall
    turn = None
    if result:
        key = solver.kernel.start()
        child = solver.winning_turn(key)
        assert child is not None  # the start is won: some turn wins
        verb, cell, removed = solver.kernel.describe_turn(key, child)
        names = solver.kernel.board.names
        turn = f"{verb} {names[cell]}" + ("" if removed is None else f", remove {names[removed]}")
    return SputnikSolution(radius, result, solver.nodes, solver.positions, seconds, wall, turn)


def report(radius: int = 2, max_seconds: float | None = None, progress: Steps | None = None) -> str:
    searching = step_of(progress, f"Sputnik radius {radius}: positions searched")
    solution = solve_first_player(radius, max_seconds=max_seconds, progress=searching)
    verdict = {
        True: "the first player wins",
        False: "the second player wins",
        None: f"not solved: the budget of {max_seconds} s (processor time) ran out",
    }
    return "\n".join(
        [
            "# Sputnik, two players, solved",
            "",
            f"Board of radius {radius} ({solution_cells(radius)} cells), one rocket each, "
            "bases on opposite corners.",
            f"With perfect play by both: **{verdict[solution.first_player_wins]}**"
            + (f" (for one, with `{solution.winning_turn}`)." if solution.winning_turn else "."),
            "",
            f"Positions searched (one per turn): {solution.nodes:,}; distinct positions stored "
            f"(a position and its mirror image once): {solution.positions:,}; "
            f"{solution.seconds:.1f} s of processor time ({solution.wall_seconds:.1f} s elapsed).",
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
