"""Sputnik, a batch of games at once (NumPy).

The board of each game is three sets of cells as bit masks (``bits.py``): the galaxies,
the cells with a rocket, the cells with a base; with each rocket's cell and base cell and
whether it has left its base. A rocket that is out, or a base that has helped, stands on
the cell number ``cells`` (one past the board), whose masks are empty. Legal moves are
set arithmetic on the masks, for every game at once, as in the reference engine's fast
path (``tminus.games.sputnik.game``).
"""

from __future__ import annotations

import numpy as np

from tminus.batch.base import BatchEnv
from tminus.batch.bits import cell_table, popcount, select_in_masks, unpack, words_for
from tminus.core.game import TERMINAL
from tminus.games.sputnik.game import LOT, MOVE, OVER, REMOVE


class SputnikBatch(BatchEnv):
    name = "sputnik"

    def _allocate(self) -> None:
        game, b = self.game, self.batch_size
        n, k = self.num_players, game.rockets_per_player
        self.cells = cells = game.cells
        self.words = words_for(cells)
        self.rockets = game.num_rockets
        self.per_player = k
        self.out = cells  # the cell of a rocket that is out, of a base that has helped
        self._bit = cell_table(cells, [1 << c for c in range(cells)])
        self._around = cell_table(cells, game.board.neighbour_masks)
        self._board = cell_table(cells, [(1 << cells) - 1])[0]
        self._start_cells = np.array(game.start, dtype=np.int64)
        # The galaxies that the bases of rockets still unmoved protect, by the set of those
        # rockets (bit r: rocket r is on the board and has never left its base).
        protected = []
        for rockets in range(1 << self.rockets):
            mask = 0
            for r in range(self.rockets):
                if rockets >> r & 1:
                    mask |= game.board.neighbour_masks[game.start[r]]
            protected.append(mask)
        self._protected = cell_table(cells, protected)[:-1]
        self._rocket_bit = 1 << np.arange(self.rockets, dtype=np.int64)
        self._side_bit = 1 << np.array(game.side_of_rocket, dtype=np.int64)
        self._next = np.array([(s + 1) % n for s in range(n)], dtype=np.int64)
        self.remove_offset = game.remove_offset
        self.sections = 2 * k + 1  # steps of each rocket, helps of each rocket, removals
        self.galaxy = np.zeros((b, self.words), dtype=np.uint64)
        self.occupied = np.zeros((b, self.words), dtype=np.uint64)
        self.bases = np.zeros((b, self.words), dtype=np.uint64)
        self.pos = np.zeros((b, self.rockets), dtype=np.int64)
        self.base = np.zeros((b, self.rockets), dtype=np.int64)
        self.unmoved = np.zeros(b, dtype=np.int64)  # bit r: rocket r never left its base
        self.phase = np.zeros(b, dtype=np.int64)
        self.player = np.zeros(b, dtype=np.int64)
        self.turns = np.zeros(b, dtype=np.int64)
        self.winner = np.full(b, -1, dtype=np.int64)  # the winning side

    def state_arrays(self) -> dict[str, np.ndarray]:
        return {
            "galaxy": self.galaxy,
            "occupied": self.occupied,
            "bases": self.bases,
            "pos": self.pos,
            "base": self.base,
            "unmoved": self.unmoved,
            "phase": self.phase,
            "player": self.player,
            "turns": self.turns,
            "winner": self.winner,
        }

    # -- sets of cells ------------------------------------------------------------------------
    def free(self) -> np.ndarray:
        """Uninhabited galaxies."""
        return self.galaxy & ~self.occupied

    def empty(self) -> np.ndarray:
        return self._board & ~(self.galaxy | self.bases)

    def alive(self) -> np.ndarray:
        """(batch, rockets) bool: rockets on the board."""
        return self.pos != self.out

    def restricted(self) -> np.ndarray:
        """ "It is forbidden to take a galaxy adjacent to a base" whose rocket is on the board
        and has not yet left it (RULINGS.md)."""
        alive = (self.alive() * self._rocket_bit).sum(axis=1)
        return self._protected[self.unmoved & alive]

    # -- the start: bases and rockets on the corners, the lot ------------------------------------
    def _start(self, games: np.ndarray) -> None:
        count = len(games)
        start_bits = np.bitwise_or.reduce(self._bit[self._start_cells], axis=0)
        self.bases[games] = start_bits
        self.occupied[games] = start_bits
        self.galaxy[games] = self._board & ~start_bits
        self.pos[games] = self._start_cells
        self.base[games] = self._start_cells
        self.unmoved[games] = (1 << self.rockets) - 1
        self.turns[games] = 0
        self.winner[games] = -1
        self.phase[games] = LOT
        # "Lots determine who starts the game."
        seat = self.rng.integers(0, self.num_players, size=count)
        self._record(games, seat)
        todo = np.zeros(self.batch_size, dtype=bool)
        todo[games] = True
        player = self.player.copy()
        player[games] = seat
        self._start_turns(todo, player)

    # -- a decision, for every game at once ------------------------------------------------------
    def _apply(self, actions: np.ndarray, active: np.ndarray) -> None:
        self._record_where(active, actions)
        section, cell = np.divmod(actions, self.cells)
        k = self.per_player
        moving = active & (self.phase == MOVE)
        removing = active & (self.phase == REMOVE)
        helping = moving & (section >= k)
        rocket = self.player + self.num_players * np.where(helping, section - k, section)
        ends = removing | helping
        # Base help: "he turns the base over to its galaxy side and then places his rocket
        # on it"; the base's old cell becomes empty.
        if helping.any():
            games = np.flatnonzero(helping)
            home = self.base[games, rocket[games]]
            self.galaxy[games] |= self._bit[cell[games]]
            self.bases[games] &= ~self._bit[home]
            self.base[games, rocket[games]] = self.out
        # A step or a help: the rocket flies; the cell it leaves is uninhabited again.
        games = np.flatnonzero(moving)
        flying = rocket[games]
        here = self.pos[games, flying]
        self.occupied[games] = (self.occupied[games] & ~self._bit[here]) | self._bit[cell[games]]
        self.pos[games, flying] = cell[games]
        self.unmoved[games] &= ~self._rocket_bit[flying]
        # "Then the player takes any uninhabited galaxy", if one can be taken.
        removed = np.flatnonzero(removing)
        self.galaxy[removed] &= ~self._bit[cell[removed]]
        stepped = moving & ~helping
        can_take = (self.free() & ~self.restricted()).any(axis=1)
        self.phase = np.where(stepped & can_take, REMOVE, self.phase)
        self._end_turns(ends | (stepped & ~can_take))

    def _end_turns(self, ending: np.ndarray) -> None:
        """ "Then the turn passes clockwise"; the turn cap makes a draw."""
        if not ending.any():
            return
        self.turns = self.turns + ending
        self._start_turns(ending, np.where(ending, self._next[self.player], self.player))
        capped = ending & (self.phase != OVER) & (self.turns >= self.game.max_turns)
        self.phase = np.where(capped, OVER, self.phase)

    def _start_turns(self, todo: np.ndarray, seat: np.ndarray) -> None:
        """Eliminate the seat's rockets that cannot move; a seat with none left is skipped;
        one side left wins. ``todo``: the games whose turn starts, ``seat``: with whom."""
        n, k = self.num_players, self.per_player
        rows = np.arange(self.batch_size)
        todo = todo.copy()
        while todo.any():
            can_play = np.zeros(self.batch_size, dtype=bool)
            for i in range(k):
                rocket = seat + n * i
                cell = self.pos[rows, rocket]
                home = self.base[rows, rocket]
                around = self._around[cell]
                # "When, on his turn, a player cannot move his rocket, he is eliminated": no
                # step (onto a galaxy or its own base) and no help (onto an empty cell).
                reach = self.free()
                with_help = (home != self.out) & (home != cell)
                reach = np.where(
                    with_help[:, None], reach | self.empty() | self._bit[home], reach
                )
                moves = (around & reach).any(axis=1)
                here = todo & (cell != self.out)
                stuck = np.flatnonzero(here & ~moves)
                if len(stuck):
                    self.occupied[stuck] &= ~self._bit[cell[stuck]]
                    self.pos[stuck, rocket[stuck]] = self.out
                can_play |= here & moves
            # "The player whose rocket remains last on the board wins the game."
            sides = np.bitwise_or.reduce(np.where(self.alive(), self._side_bit, 0), axis=1)
            last = todo & (popcount(sides) == 1)
            side = np.log2(np.maximum(sides, 1)).astype(np.int64)
            self.winner = np.where(last, side, self.winner)
            self.phase = np.where(last, OVER, self.phase)
            playing = todo & ~last & can_play
            self.phase = np.where(playing, MOVE, self.phase)
            self.player = np.where(playing, seat, self.player)
            todo &= ~last & ~can_play
            seat = np.where(todo, self._next[seat], seat)

    # -- queries ------------------------------------------------------------------------------------
    def current_player(self) -> np.ndarray:
        return np.where(self.phase == OVER, TERMINAL, self.player)

    def terminal(self) -> np.ndarray:
        return self.phase == OVER

    def legal_sections(self) -> np.ndarray:
        """(batch, 2K + 1, words) uint64: the cells of each kind of legal action (steps of
        each rocket, helps of each rocket, removals), action = section * cells + cell."""
        b, k, n = self.batch_size, self.per_player, self.num_players
        rows = np.arange(b)
        sections = np.zeros((b, self.sections, self.words), dtype=np.uint64)
        moving = self.phase == MOVE
        free, empty = self.free(), self.empty()
        for i in range(k):
            rocket = self.player + n * i
            cell = self.pos[rows, rocket]
            home = self.base[rows, rocket]
            around = np.where(moving[:, None], self._around[cell], 0)
            # "onto a galaxy" (uninhabited) "or an adjacent base of his own color"
            sections[:, i] = around & (free | self._bit[home])
            # "move his base onto an empty space adjacent to his rocket", once, not from it
            helps = (home != self.out) & (home != cell)
            sections[:, k + i] = np.where(helps[:, None], around & empty, 0)
        removing = self.phase == REMOVE
        sections[:, 2 * k] = np.where(removing[:, None], free & ~self.restricted(), 0)
        return sections

    def _legal_mask(self) -> np.ndarray:
        cells = unpack(self.legal_sections(), self.cells)
        return cells.reshape(self.batch_size, self.sections * self.cells)

    def sample_legal(self, uniform: np.ndarray) -> np.ndarray:
        sections = self.legal_sections().reshape(self.batch_size, -1)
        count = popcount(sections).sum(axis=1)
        index = select_in_masks(sections, (uniform * count).astype(np.int64))
        section, cell = np.divmod(index, self.words * 64)
        return section * self.cells + cell

    def returns(self) -> np.ndarray:
        game = self.game
        sides = np.array(game.side_of_seat)
        won = self.winner >= 0
        out = np.where(sides[None, :] == self.winner[:, None], 1.0, game.min_utility)
        return np.where(won[:, None], out, 0.0)

    def observation_tensor(self, seat: int) -> np.ndarray:
        """Per cell: galaxy, empty, restricted, base of each seat and rocket of each seat
        (observer first); then the phase (move, remove) and the mover (observer first)."""
        self.check_seat(seat)
        b, n, cells = self.batch_size, self.num_players, self.cells
        rows = np.arange(b)
        planes = np.zeros((b, 3 + 2 * n, cells + 1), dtype=np.float32)
        planes[:, 0, :cells] = unpack(self.galaxy, cells)
        planes[:, 1, :cells] = unpack(self.empty(), cells)
        planes[:, 2, :cells] = unpack(self.restricted(), cells)
        owner = np.array(self.game.rocket_owner)
        for r in range(self.rockets):
            relative = (owner[r] - seat) % n
            planes[rows, 3 + relative, self.base[:, r]] = 1.0
            planes[rows, 3 + n + relative, self.pos[:, r]] = 1.0
        extra = np.zeros((b, 2 + n), dtype=np.float32)
        playing = np.flatnonzero((self.phase == MOVE) | (self.phase == REMOVE))
        extra[playing, self.phase[playing] - MOVE] = 1.0
        extra[playing, 2 + (self.player[playing] - seat) % n] = 1.0
        tensor = planes[:, :, :cells].reshape(b, -1)
        return np.concatenate([tensor, extra], axis=1)
