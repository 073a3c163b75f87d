"""A fast Sputnik kernel for exact search: 2 players, one rocket each, positions as integers.

A position is taken at the start of a turn, from the point of view of the player to move
("mover") against the other ("opponent"), and packed in one integer:

    bits 0 .. N-1         the galaxies (cells with a galaxy, occupied or not)
    then, B bits each     mover's cell, mover's base, opponent's cell, opponent's base
    then one bit each     mover has never left its base, opponent has never left its base

where N is the number of cells, a base is its cell or ``USED`` (= N) once it has helped,
and B bits hold 0 .. N. A cell is *empty* when it holds neither a galaxy nor an unused
base. A whole turn (a move, then the removal that follows it, if any) is one step of the
kernel: ``successors`` lists the positions after each turn the mover can play, with the
opponent to move. The mover of a position without successors cannot move: by the rules
("when, on his turn, a player cannot move his rocket, he is eliminated") it loses, and with
two players the other one wins.

The rules, exactly as the engine (``tminus.games.sputnik``) implements them:
- a step goes onto an adjacent galaxy not occupied by the opponent, or onto one's own
  unused base;
- base help (not from the base itself, once): the base moves onto an empty cell next to the
  rocket, turns into a galaxy, the rocket goes onto it, the old base cell becomes empty and
  nothing is removed;
- after a step, one uninhabited galaxy is removed, never one next to the opponent's base
  while the opponent has never left it (the mover has just left its own); with nothing
  removable the turn ends after the step.
The turn cap never matters here: every turn removes a galaxy except the two base helps
(which add one each) and steps with nothing to remove, and a step with nothing to remove
cannot be followed by another one (see ``tests/agents/test_sputnik_solver.py``), so a game
lasts fewer than 2 (N + 4) turns, below the engine's default cap for every radius.
"""

from __future__ import annotations

from functools import cache

from tminus.games.sputnik.board import HexBoard, base_corners, hex_board
from tminus.games.sputnik.game import SputnikState
from tminus.games.sputnik.rules import GALAXY, OUT


class Kernel:
    """The packed positions of the 2-player, one-rocket game on a board of ``radius``."""

    def __init__(self, radius: int) -> None:
        board: HexBoard = hex_board(radius)
        self.board = board
        n = self.cells = board.size
        self.used = n
        self.width = width = n.bit_length()
        self.shift = n
        self.galaxy_mask = (1 << n) - 1
        self.cell_mask = (1 << width) - 1
        self.neighbours = [sum(1 << m for m in board.neighbours[c]) for c in range(n)]
        # A used base (``USED``) has no bit and protects nothing.
        self.bit = [1 << c for c in range(n)] + [0]
        self.corners = base_corners(board, 2)
        # The mirror in the axis through both bases: (q, r) -> (-q, q + r) in axial
        # coordinates; the half turn, which swaps the bases: (q, r) -> (-q, -r).
        self.mirror_cells = self._symmetry(lambda q, r: (-q, q + r))
        self.half_turn_cells = self._symmetry(lambda q, r: (-q, -r))

    # -- packing ---------------------------------------------------------------------------
    def pack(
        self,
        galaxies: int,
        mover: tuple[int, int, bool],
        opponent: tuple[int, int, bool],
    ) -> int:
        """``mover`` and ``opponent`` are (rocket cell, base cell or USED, never left base)."""
        (mc, mb, mu), (oc, ob, ou) = mover, opponent
        w, s = self.width, self.shift
        return (
            galaxies
            | mc << s
            | mb << (s + w)
            | oc << (s + 2 * w)
            | ob << (s + 3 * w)
            | int(mu) << (s + 4 * w)
            | int(ou) << (s + 4 * w + 1)
        )

    def unpack(self, key: int) -> tuple[int, tuple[int, int, bool], tuple[int, int, bool]]:
        """The inverse of ``pack``."""
        w, m = self.width, self.cell_mask
        rest = key >> self.shift
        return (
            key & self.galaxy_mask,
            (rest & m, rest >> w & m, bool(rest >> 4 * w & 1)),
            (rest >> 2 * w & m, rest >> 3 * w & m, bool(rest >> (4 * w + 1) & 1)),
        )

    def start(self) -> int:
        """The first turn: every cell but the two bases is a galaxy, the rockets at home."""
        a, b = self.corners
        galaxies = self.galaxy_mask & ~(1 << a) & ~(1 << b)
        return self.pack(galaxies, (a, a, True), (b, b, True))

    def position_of(self, state: SputnikState) -> int:
        """The kernel position of an engine state at the start of a turn (phase "move")."""
        board, _, pos, base, unmoved = state.position()
        if state.phase() != "move" or len(pos) != 2:
            raise ValueError("a kernel position is a 2-rocket game at the start of a turn")
        galaxies = sum(1 << cell for cell, content in enumerate(board) if content == GALAXY)
        mover = state.current_player()
        rockets = [(pos[r], self.used if base[r] == OUT else base[r], unmoved[r]) for r in (0, 1)]
        return self.pack(galaxies, rockets[mover], rockets[1 - mover])

    # -- the rules -------------------------------------------------------------------------
    def steps(self, key: int) -> int:
        """The cells (a mask) the mover can step onto."""
        w, m = self.width, self.cell_mask
        rest = key >> self.shift
        bit = self.bit
        mc, mb, oc = rest & m, rest >> w & m, rest >> 2 * w & m
        return self.neighbours[mc] & ((key & self.galaxy_mask) | bit[mb]) & ~bit[oc]

    def helps(self, key: int) -> int:
        """The empty cells (a mask) the mover's base can move to, the rocket onto it."""
        w, m = self.width, self.cell_mask
        rest = key >> self.shift
        mc, mb, ob = rest & m, rest >> w & m, rest >> 3 * w & m
        if mb == self.used or mb == mc:
            return 0
        bit = self.bit
        return self.neighbours[mc] & ~(key & self.galaxy_mask) & ~bit[mb] & ~bit[ob]

    def can_move(self, key: int) -> bool:
        return bool(self.steps(key) or self.helps(key))

    def successors(self, key: int) -> list[int]:
        """The positions after every turn the mover can play (the opponent to move).

        In the order most likely to win first: steps next to the opponent, then steps to
        the cells with the most galaxies around; with each step, removals next to the
        opponent first; base helps last.
        """
        w, s, m = self.width, self.shift, self.cell_mask
        galaxies = key & self.galaxy_mask
        rest = key >> s
        mc, mb, oc, ob = rest & m, rest >> w & m, rest >> 2 * w & m, rest >> 3 * w & m
        ou = rest >> 4 * w + 1 & 1
        bit, neighbours = self.bit, self.neighbours
        around = neighbours[oc]
        # The opponent becomes the mover: its fields go first.
        opponent = oc << s | ob << (s + w) | ou << (s + 4 * w)
        base_field = mb << (s + 3 * w)
        # "Galaxies adjacent to a base cannot be removed" while its rocket never left it.
        free = galaxies & ~bit[oc] & ~(neighbours[ob] if ou else 0)
        targets = neighbours[mc] & (galaxies | bit[mb]) & ~bit[oc]
        steps = []
        while targets:
            low = targets & -targets
            targets ^= low
            t = low.bit_length() - 1
            room = (neighbours[t] & galaxies).bit_count() + (4 if low & around else 0)
            steps.append((-room, t, low))
        steps.sort()
        children = []
        for _, t, low in steps:
            head = opponent | t << (s + 2 * w) | base_field
            removable = free & ~low
            if not removable:
                children.append(head | galaxies)
            near = removable & around
            removable ^= near
            while near:
                x = near & -near
                near ^= x
                children.append(head | (galaxies ^ x))
            while removable:
                x = removable & -removable
                removable ^= x
                children.append(head | (galaxies ^ x))
        if mb != self.used and mb != mc:
            empty = neighbours[mc] & ~galaxies & ~bit[mb] & ~bit[ob]
            used = self.used << (s + 3 * w)
            while empty:
                low = empty & -empty
                empty ^= low
                t = low.bit_length() - 1
                children.append(opponent | t << (s + 2 * w) | used | galaxies | low)
        return children

    def describe_turn(self, key: int, child: int) -> tuple[str, int, int | None]:
        """The turn from ``key`` to its successor ``child``: ("move" or "help", the cell the
        rocket goes to, the cell of the galaxy removed or None)."""
        galaxies, (_, base, _), _ = self.unpack(key)
        after, _, (cell, base_after, _) = self.unpack(child)
        if base != self.used and base_after == self.used:
            return "help", cell, None
        removed = galaxies & ~after
        return "move", cell, removed.bit_length() - 1 if removed else None

    def wins_at_once(self, key: int) -> bool:
        """Whether the mover has a turn after which the opponent cannot move (and is out).

        The same as ``any(not can_move(k) for k in successors(key))``, computed per move
        rather than per turn: a removal can only take one of the opponent's steps away, and
        it leaves an empty cell that the opponent's base could help it to.
        """
        w, m = self.width, self.cell_mask
        galaxies = key & self.galaxy_mask
        rest = key >> self.shift
        mc, mb, oc, ob = rest & m, rest >> w & m, rest >> 2 * w & m, rest >> 3 * w & m
        ou = rest >> 4 * w + 1 & 1
        bit, neighbours, used = self.bit, self.neighbours, self.used
        around = neighbours[oc]
        helped = ob != used and ob != oc  # the opponent's base could still help it
        # The opponent's steps after the mover's turn, but for the mover's new cell.
        steps = around & (galaxies | bit[ob])
        if mb != used and mb != mc and not steps:
            # Base help: the opponent's steps stay as they are; the old base cell empties.
            targets = neighbours[mc] & ~galaxies & ~bit[mb] & ~bit[ob]
            # After it, the cells next to the opponent that are empty: the new galaxy is not.
            empty = around & ~galaxies & ~bit[ob]
            while targets:
                low = targets & -targets
                targets ^= low
                if not (helped and empty & ~low):
                    return True
        empty = around & ~galaxies & ~bit[mb] & ~bit[ob]
        if helped and empty:
            return False  # the opponent's base can help it onto an empty cell
        free = galaxies & ~bit[oc] & ~(neighbours[ob] if ou else 0)
        targets = neighbours[mc] & (galaxies | bit[mb]) & ~bit[oc]
        while targets:
            low = targets & -targets
            targets ^= low
            left = steps & ~low
            removable = free & ~low
            if not removable:
                if not left:
                    return True
            elif not left:
                # Any removal will do, but one next to the opponent empties a cell for help.
                if not helped or removable & ~around:
                    return True
            elif left & (left - 1) == 0 and left & removable and not helped:
                return True  # take the opponent's last galaxy
        return False

    # -- symmetries ----------------------------------------------------------------------
    def _symmetry(self, image) -> tuple[list[int], list[list[int]]]:
        """A map of the board (``image`` of axial coordinates) as a cell table (``USED``
        maps to itself) and, for each 10 bits of a galaxy mask, the image of every value."""
        board = self.board
        cells = [board.index[image(q, r)] for q, r in board.cells]
        chunks = []
        for start in range(0, len(cells), 10):
            part = cells[start : start + 10]
            table = [0] * (1 << len(part))
            for value in range(1, len(table)):
                low = value & -value
                table[value] = table[value ^ low] | 1 << part[low.bit_length() - 1]
            chunks.append(table)
        return [*cells, self.used], chunks

    def transform(self, key: int, symmetry: tuple[list[int], list[list[int]]]) -> int:
        """The position with every cell moved by ``symmetry`` (see ``_symmetry``)."""
        cell, chunks = symmetry
        galaxies = key & self.galaxy_mask
        image = 0
        for i, table in enumerate(chunks):
            image |= table[galaxies >> (10 * i) & 1023]
        w, m = self.width, self.cell_mask
        rest = key >> self.shift
        fields = rest >> 4 * w << 4 * w  # the two flags
        for i in range(4):
            fields |= cell[rest >> (i * w) & m] << (i * w)
        return image | fields << self.shift

    def mirror(self, key: int) -> int:
        """The position reflected in the axis through both bases."""
        return self.transform(key, self.mirror_cells)


@cache
def kernel(radius: int) -> Kernel:
    return Kernel(radius)
