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
from tminus.batch.bits import (
    Cells,
    CellTable,
    popcount,
    select_bit,
    select_in_sets,
    words_for,
)
from tminus.core.game import TERMINAL
from tminus.games.sputnik.game import LOT, MOVE, OVER, REMOVE, SputnikGame, SputnikState
from tminus.games.sputnik.rules import BASE, GALAXY, NOBODY, OUT


class SputnikBatch(BatchEnv[SputnikGame]):
    name = "sputnik"
    game_class = SputnikGame

    def _allocate(self) -> None:
        game, b = self.game, self.batch_size
        n, k = self.num_players, game.rockets_per_player
        self.cells = cells = game.cells
        self.words = words_for(cells)
        self.rockets = game.num_rockets
        self.per_player = k
        self.out = cells  # the cell of a rocket that is out, of a base that has helped
        self._bit = CellTable(cells, [1 << c for c in range(cells)])
        self._around = CellTable(cells, game.board.neighbour_masks)
        whole = CellTable(cells, [(1 << cells) - 1])
        self._board = whole.constant(0, 1)
        self._start_cells = np.array(game.start, dtype=np.int64)
        self._start_set = CellTable(cells, [sum(1 << c for c in game.start)])
        # The galaxies that the bases of rockets still unmoved protect, by the set of those
        # rockets (bit r: rocket r is on the board and has never left its base).
        protected = []
        for rockets in range(1 << self.rockets):
            mask = 0
            for r in range(self.rockets):
                if rockets >> r & 1:
                    mask |= game.board.neighbour_masks[game.start[r]]
            protected.append(mask)
        self._protected = CellTable(cells, protected)
        self._rocket_bit = 1 << np.arange(self.rockets + 1, dtype=np.int64)
        # By the set of rockets on the board: the set of sides they belong to, and the side
        # when there is only one.
        sides = [
            {game.side_of_rocket[r] for r in range(self.rockets) if rockets >> r & 1}
            for rockets in range(1 << self.rockets)
        ]
        self._sides = np.array([sum(1 << side for side in s) for s in sides], dtype=np.int64)
        self._only_side = np.array([max(int(s).bit_length() - 1, 0) for s in self._sides])
        self._next = np.array([(s + 1) % n for s in range(n)], dtype=np.int64)
        # By ``player * sections + section``: the rocket that a move of that section flies.
        self.sections = 2 * k + 1  # steps of each rocket, helps of each rocket, removals
        self._rocket_of = np.array(
            [s + n * (i % k) if i < 2 * k else 0 for s in range(n) for i in range(self.sections)],
            dtype=np.int64,
        )
        # By action id: its cell, whether it is a base help, and the rocket it flies as an
        # offset from the mover's first rocket (table look-ups are faster than divisions).
        section, cell = np.divmod(np.arange(self.sections * cells, dtype=np.int64), cells)
        self._action_cell = cell
        self._action_helps = (section >= k) & (section < 2 * k)
        self._action_rocket = np.where(section < 2 * k, n * (section % k), 0)
        self._first_rocket = self._all * self.rockets  # a game's first rocket, flattened
        self.galaxy = Cells([np.zeros(b, dtype=np.int64) for _ in range(self.words)])
        self.occupied = Cells([np.zeros(b, dtype=np.int64) for _ in range(self.words)])
        self.bases = Cells([np.zeros(b, dtype=np.int64) for _ in range(self.words)])
        self.pos = np.zeros((b, self.rockets), dtype=np.int64)
        self.base = np.zeros((b, self.rockets), dtype=np.int64)
        self.unmoved = np.zeros(b, dtype=np.int64)  # bit r: rocket r never left its base
        self.alive = np.zeros(b, dtype=np.int64)  # bit r: rocket r is on the board
        self.phase = np.zeros(b, dtype=np.int64)
        self.player = np.zeros(b, dtype=np.int64)
        self.turns = np.zeros(b, dtype=np.int64)
        self.winner = np.full(b, -1, dtype=np.int64)  # the winning side

    def state_arrays(self) -> dict[str, np.ndarray]:
        return {
            **{f"galaxy{w}": a for w, a in enumerate(self.galaxy.words)},
            **{f"occupied{w}": a for w, a in enumerate(self.occupied.words)},
            **{f"bases{w}": a for w, a in enumerate(self.bases.words)},
            "pos": self.pos,
            "base": self.base,
            "unmoved": self.unmoved,
            "alive": self.alive,
            "phase": self.phase,
            "player": self.player,
            "turns": self.turns,
            "winner": self.winner,
        }

    # -- sets of cells ---------------------------------------------------------------------
    def free(self) -> Cells:
        """Uninhabited galaxies."""
        return self.galaxy.minus(self.occupied)

    def empty(self) -> Cells:
        return self._board.minus(self.galaxy | self.bases)

    def restricted(self) -> Cells:
        """ "It is forbidden to take a galaxy adjacent to a base" whose rocket is on the board
        and has not yet left it (RULINGS.md)."""
        return self._protected[self.unmoved & self.alive]

    def _rocket_cells(self, games: np.ndarray | None, rocket: np.ndarray) -> tuple:
        """(cell, base cell) of ``rocket`` in each of ``games`` (None: every game)."""
        rows = self._all if games is None else games
        flat = rows * self.rockets + rocket
        return self.pos.ravel().take(flat), self.base.ravel().take(flat), flat

    # -- the start: bases and rockets on the corners, the lot ------------------------------
    def _start(self, games: np.ndarray) -> None:
        count = len(games)
        start = self._start_set.constant(0, count)
        self.bases.put(games, start)
        self.occupied.put(games, start)
        self.galaxy.put(games, self._board.minus(start))
        self.pos[games] = self._start_cells
        self.base[games] = self._start_cells
        everyone = (1 << self.rockets) - 1
        self.unmoved[games] = everyone
        self.alive[games] = everyone
        self.turns[games] = 0
        self.winner[games] = -1
        self.phase[games] = LOT
        # "Lots determine who starts the game."
        seat = self.rng.integers(0, self.num_players, size=count)
        self._record(games, seat)
        self._start_turns(games, seat)

    # -- a position of the reference engine, into rows (a review's playouts start there) ---
    def _load(self, games: np.ndarray, states: list[SputnikState]) -> None:
        for game, state in zip(games.tolist(), states, strict=True):
            board, at = state._board, state._at
            row = np.array([game])
            sets = [
                sum(1 << c for c, content in enumerate(board) if content == GALAXY),
                sum(1 << c for c, rocket in enumerate(at) if rocket != NOBODY),
                sum(1 << c for c, content in enumerate(board) if content >= BASE),
            ]
            table = CellTable(self.cells, sets)
            self.galaxy.put(row, table.constant(0, 1))
            self.occupied.put(row, table.constant(1, 1))
            self.bases.put(row, table.constant(2, 1))
            self.pos[game] = [self.out if c == OUT else c for c in state._pos]
            self.base[game] = [self.out if c == OUT else c for c in state._base]
            self.unmoved[game] = sum(1 << r for r, fresh in enumerate(state._unmoved) if fresh)
            self.alive[game] = sum(1 << r for r, c in enumerate(state._pos) if c != OUT)
            self.phase[game] = state._phase
            self.player[game] = max(state._player, 0)  # (a finished game's: unused)
            self.turns[game] = state._turns
            self.winner[game] = state._winner

    # -- a decision, for every game at once ------------------------------------------------
    # (Choices between two values are arithmetic, ``b + (a - b) * condition``, and subsets
    # are index arrays: ``np.where`` and boolean indexing are several times slower on
    # masks that vary from game to game.)
    def _apply(self, actions: np.ndarray, active: np.ndarray) -> None:
        self._record_where(active, actions)
        phase = self.phase
        moving = active & (phase == MOVE)
        removing = active & (phase == REMOVE)
        cell = self._action_cell.take(actions)
        helping = moving & self._action_helps.take(actions)
        # (a removal's "rocket" is the mover's first: nothing of it changes below)
        rocket = self.player + self._action_rocket.take(actions)
        flat = self._first_rocket + rocket
        here = self.pos.ravel().take(flat)
        target = self._bit[cell]
        # Base help: "he turns the base over to its galaxy side and then places his rocket
        # on it"; the base's old cell becomes empty.
        if helping.any():
            games = np.flatnonzero(helping)
            rockets = flat[games]
            self.galaxy.put(games, self.galaxy.take(games) | self._bit[cell[games]])
            home = self._bit[self.base.ravel().take(rockets)]
            self.bases.put(games, self.bases.take(games).minus(home))
            self.base.ravel()[rockets] = self.out
        # A step or a help: the rocket flies; the cell it leaves is uninhabited again.
        self.occupied = self.occupied.minus(self._bit[here].times(moving)) | target.times(moving)
        self.pos.ravel()[flat] = here + (cell - here) * moving
        self.unmoved &= ~(moving * self._rocket_bit.take(rocket))
        # "Then the player takes any uninhabited galaxy", if one can be taken.
        self.galaxy = self.galaxy.minus(target.times(removing))
        stepped = moving & ~helping
        to_remove = stepped & self.free().minus(self.restricted()).any()
        self.phase = phase + (REMOVE - MOVE) * to_remove  # (a step's phase is MOVE)
        self._end_turns(np.flatnonzero(removing | helping | (stepped ^ to_remove)))

    def _end_turns(self, games: np.ndarray) -> None:
        """ "Then the turn passes clockwise"; the turn cap makes a draw."""
        if len(games) == 0:
            return
        turns = self.turns.take(games) + 1
        self.turns[games] = turns
        self._start_turns(games, self._next.take(self.player.take(games)))
        capped = turns >= self.game.max_turns
        if capped.any():  # (a game already over stays so)
            self.phase[games[capped]] = OVER

    def _start_turns(self, games: np.ndarray, seat: np.ndarray) -> None:
        """Eliminate the seat's rockets that cannot move; a seat with none left is skipped;
        one side left wins. ``games``: those whose turn starts, ``seat``: with whom."""
        n, out = self.num_players, self.out
        while len(games):
            galaxy, occupied = self.galaxy.take(games), self.occupied.take(games)
            empty = self._board.minus(galaxy | self.bases.take(games))
            can_play = np.zeros(len(games), dtype=bool)
            eliminated = None  # bit r: rocket r just left
            first = games * self.rockets
            for i in range(self.per_player):
                rocket = seat + n * i
                flat = first + rocket
                cell, home = self.pos.ravel().take(flat), self.base.ravel().take(flat)
                # "When, on his turn, a player cannot move his rocket, he is eliminated": no
                # step (onto a galaxy or its own base) and no help (onto an empty cell).
                free = galaxy.minus(occupied)
                with_help = (home != out) & (home != cell)
                reach = free | (empty | self._bit[home]).times(with_help)
                moves = (self._around[cell] & reach).any()
                on_board = cell != out
                stuck = on_board & ~moves
                if stuck.any():
                    if i + 1 < self.per_player:  # (the seat's next rocket sees the cell free)
                        occupied = occupied.minus(self._bit[cell].times(stuck))
                    at = np.flatnonzero(stuck)
                    left = games.take(at)
                    self.occupied.put(left, self.occupied.take(left).minus(self._bit[cell[at]]))
                    self.pos.ravel()[flat.take(at)] = out
                    gone = stuck * self._rocket_bit.take(rocket)
                    eliminated = gone if eliminated is None else eliminated | gone
                can_play |= on_board & moves
            # Then per game: won (one side left), playing (the seat can move), or on to the
            # next seat. The first two are few: all games are set playing, then they mended.
            done = can_play
            if eliminated is not None:
                at = np.flatnonzero(eliminated)
                some = games.take(at)
                alive = self.alive.take(some) & ~eliminated.take(at)
                self.alive[some] = alive
                # "The player whose rocket remains last on the board wins the game."
                last = popcount(self._sides.take(alive)) == 1
                if last.any():
                    won = some[last]
                    self.winner[won] = self._only_side.take(alive[last])
                    self.phase[won] = OVER
                    done = can_play.copy()
                    done[at[last]] = True
                    can_play[at[last]] = False
            if can_play.all():
                self.phase[games] = MOVE
                self.player[games] = seat
                return
            waiting = games[np.flatnonzero(~can_play)]
            phase, player = self.phase.take(waiting), self.player.take(waiting)
            self.phase[games] = MOVE
            self.player[games] = seat
            self.phase[waiting], self.player[waiting] = phase, player
            at = np.flatnonzero(~done)
            games, seat = games.take(at), self._next.take(seat.take(at))

    # -- queries ---------------------------------------------------------------------------
    def current_player(self) -> np.ndarray:
        return self.player + (TERMINAL - self.player) * (self.phase == OVER)

    def terminal(self) -> np.ndarray:
        return self.phase == OVER

    def legal_sets(self) -> list[Cells]:
        """The cells of each kind of legal action: steps of each rocket, helps of each
        rocket, removals; action = kind * cells + cell."""
        k, n = self.per_player, self.num_players
        moving = self.phase == MOVE
        free, empty = self.free(), self.empty()
        steps, helps = [], []
        for i in range(k):
            cell, home, _ = self._rocket_cells(None, self.player + n * i)
            cell = self.out + (cell - self.out) * moving
            around = self._around[cell]
            # "onto a galaxy" (uninhabited) "or an adjacent base of his own color"
            steps.append(around & (free | self._bit[home]))
            # "move his base onto an empty space adjacent to his rocket", once, not from it
            can_help = (home != self.out) & (home != cell)
            helps.append(self._around[self.out + (cell - self.out) * can_help] & empty)
        removing = self.phase == REMOVE
        removable = self.free().minus(self.restricted())
        removals = removable.times(removing)
        return [*steps, *helps, removals]

    def _legal_mask(self) -> np.ndarray:
        sets = [s.unpack(self.cells) for s in self.legal_sets()]
        return np.concatenate(sets, axis=1)

    def sample_legal(self, uniform: np.ndarray) -> np.ndarray:
        if self.per_player > 1 or self.words > 1:
            kind, cell = select_in_sets(self.legal_sets(), uniform)
            return kind * self.cells + cell
        # One rocket each and one word: steps (onto galaxies or the base), helps (onto empty
        # cells) and removals (another phase) are sets of different cells: pick in their union.
        steps, helps, removals = self._one_rocket_sets()
        union = steps | helps | removals
        cell = select_bit(union, (uniform * popcount(union)).astype(np.int64))
        bit = 1 << cell
        kind = ((helps & bit) != 0) + 2 * ((removals & bit) != 0)
        return kind * self.cells + cell

    def _one_rocket_sets(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``legal_sets`` with one rocket each and one word, as plain words."""
        galaxy, occupied = self.galaxy.words[0], self.occupied.words[0]
        phase = self.phase
        flat = self._first_rocket + self.player
        cell, home = self.pos.ravel().take(flat), self.base.ravel().take(flat)
        free = galaxy & ~occupied
        around = self._around.columns[0].take(cell) * (phase == MOVE)
        steps = around & (free | self._bit.columns[0].take(home))
        empty = self._board.words[0] & ~(galaxy | self.bases.words[0])
        can_help = (home != self.out) & (home != cell)
        helps = around & empty * can_help
        restricted = self._protected.columns[0].take(self.unmoved & self.alive)
        removals = (free & ~restricted) * (phase == REMOVE)
        return steps, helps, removals

    def ended_by_turn_cap(self) -> np.ndarray:
        return (self.phase == OVER) & (self.winner < 0)

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
        rows = self._all
        planes = np.zeros((b, 3 + 2 * n, cells + 1), dtype=np.float32)
        planes[:, 0, :cells] = self.galaxy.unpack(cells)
        planes[:, 1, :cells] = self.empty().unpack(cells)
        planes[:, 2, :cells] = self.restricted().unpack(cells)
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
