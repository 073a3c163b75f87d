"""Sputnik as a T-minus game: the lot for who starts, then turns of a move and a removal.

A turn is split into decisions of the same player: first ``move`` (a step) or ``help``
(base help, which ends the turn), then ``remove`` (skipped when no galaxy can be taken).

Action ids, with N cells (``board.py`` numbers them) and K rockets per player, k being
which of the mover's rockets (0 for the first):
    move:   k * N + cell            rocket k steps onto ``cell``
    help:   (K + k) * N + cell      rocket k's base moves to ``cell``, the rocket onto it
    remove: 2 * K * N + cell        the galaxy on ``cell`` is taken
Chance outcome ids (the lot): s = seat s starts, each with probability 1/players.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tminus.core.game import CHANCE, TERMINAL, Game, GameType, IllegalActionError, TurnState
from tminus.core.params import Param
from tminus.core.positions import check_each_in, check_in, check_length
from tminus.games.phrasing import check_viewer
from tminus.games.sputnik import rules, why_not, words
from tminus.games.sputnik.board import MAX_RADIUS, base_corners, hex_board
from tminus.games.sputnik.masks import NeighbourActions, actions_in, byte_tables
from tminus.games.sputnik.render import render
from tminus.games.sputnik.rules import BASE, EMPTY, GALAXY, NOBODY, OUT

PHASES = ("lot", "move", "remove", "over")
LOT, MOVE, REMOVE, OVER = range(4)
MAX_BASES = 6


class SputnikGame(Game):
    name = "sputnik"
    title = "Sputnik"
    game_type = GameType(teams=True, position_keys=True)
    parameters = {
        "players": Param(2, "number of players", choices=(2, 3, 4, 5, 6)),
        "radius": Param(3, "board radius in cells (3: 37 cells)", minimum=2, maximum=MAX_RADIUS),
        "rockets_per_player": Param(
            1, "rockets (and bases) per player: 2 or 3 with 2 players, 2 with 3", choices=(1, 2, 3)
        ),
        "teams": Param(False, "4 players as two teams, partners opposite", choices=(False, True)),
        "max_turns": Param(
            1000, "turns after which an unfinished game is a draw", minimum=1, maximum=10**6
        ),
    }

    observation_bounds = (0.0, 1.0)

    @classmethod
    def configurations(cls) -> list[dict[str, Any]]:
        counts = [{"players": n} for n in (2, 3, 4, 5, 6)]
        rockets = [{"players": n, "rockets_per_player": k} for n, k in ((2, 2), (2, 3), (3, 2))]
        return [*counts, *rockets, {"players": 4, "teams": True}]

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        n = self.num_players = self.params["players"]
        k = self.rockets_per_player = self.params["rockets_per_player"]
        self.teams = self.params["teams"]
        self.max_turns = self.params["max_turns"]
        if n * k > MAX_BASES:
            raise ValueError(
                f"parameter 'rockets_per_player' of sputnik: {n} players with {k} rockets each "
                f"need {n * k} bases and there are {MAX_BASES}; several rockets are for "
                "2 players (2 or 3 each) or 3 players (2 each)"
            )
        if self.teams and n != 4:
            raise ValueError(f"parameter 'teams' of sputnik: teams need 4 players, not {n}")
        self.board = board = hex_board(self.params["radius"])
        self.cells = board.size
        # Base j (clockwise) belongs to seat j mod n: with several rockets colours alternate.
        self.start = base_corners(board, n * k)
        self.num_rockets = n * k
        self.rocket_owner = [j % n for j in range(self.num_rockets)]
        self._cell_planes: list[np.ndarray | None] = [None] * n
        self.rockets_of: list[list[int]] = [[s + n * i for i in range(k)] for s in range(n)]
        # A side is what wins: a player, or with teams the pair on opposite corners.
        self.side_of_seat = [s % 2 if self.teams else s for s in range(n)]
        self.side_of_rocket = [self.side_of_seat[s] for s in self.rocket_owner]
        # How a cell's content reads in observations: "empty", "galaxy", "base of seat 1".
        self.content_names = ["empty", "galaxy"] + [f"base of seat {s}" for s in self.rocket_owner]
        self.rows = board.rows()
        self.help_offset = k * self.cells
        self.remove_offset = 2 * k * self.cells
        self.num_distinct_actions = (2 * k + 1) * self.cells
        # Reading masks of cells as actions (``masks.py``): removals, and each rocket's
        # steps and base helps.
        self.remove_tables = byte_tables(self.cells, self.remove_offset)
        step_actions = [NeighbourActions(i * self.cells) for i in range(k)]
        help_actions = [NeighbourActions(self.help_offset + i * self.cells) for i in range(k)]
        # Per seat, its rockets with the memos that read their steps and helps.
        self.movers = [
            list(zip(rockets, step_actions, help_actions, strict=True))
            for rockets in self.rockets_of
        ]
        self.max_chance_outcomes = n
        # The lot, then at most a move and a removal per turn.
        self.max_game_length = 1 + 2 * self.max_turns
        self.max_utility = 1.0
        self.min_utility = -1.0 if self.teams else -1.0 / (n - 1)

    def new_initial_state(self) -> SputnikState:
        return SputnikState(self)

    def decode(self, action: int) -> tuple[str, int, int]:
        """(kind, k, cell) of a player action: kind "move", "help" or "remove", k which of
        the mover's rockets (0 for a removal), cell the cell it goes to or takes."""
        if not 0 <= action < self.num_distinct_actions:
            raise ValueError(
                f"no Sputnik action {action}; actions are 0 to {self.num_distinct_actions - 1}"
            )
        k, cell = divmod(action, self.cells)
        K = self.rockets_per_player
        if k == 2 * K:
            return "remove", 0, cell
        return ("move", k, cell) if k < K else ("help", k - K, cell)

    def cell_planes(self, seat: int) -> np.ndarray:
        """For each cell code (content * (rockets + 1) + rocket + 1), its tensor planes as
        ``seat`` sees them: galaxy, empty, (restricted), base of each seat, rocket of each
        seat, the observer first."""
        table = self._cell_planes[seat]
        if table is None:
            n, stride = self.num_players, self.num_rockets + 1
            table = np.zeros(((BASE + self.num_rockets) * stride, 3 + 2 * n), dtype=np.float32)
            for content in range(BASE + self.num_rockets):
                for rocket in range(NOBODY, self.num_rockets):
                    row = table[content * stride + rocket + 1]
                    if content == GALAXY:
                        row[0] = 1
                    elif content == EMPTY:
                        row[1] = 1
                    else:
                        row[3 + (self.rocket_owner[content - BASE] - seat) % n] = 1
                    if rocket != NOBODY:
                        row[3 + n + (self.rocket_owner[rocket] - seat) % n] = 1
            self._cell_planes[seat] = table
        return table

    def allies(self, seat: int) -> list[int]:
        """The seats that win together with ``seat`` (itself, and a partner with teams)."""
        side = self.side_of_seat[seat]
        return [s for s in range(self.num_players) if self.side_of_seat[s] == side]


class SputnikState(TurnState[SputnikGame]):
    __slots__ = (
        "_at",
        "_base",
        "_board",
        "_empty",
        "_free",
        "_history",
        "_out",
        "_phase",
        "_player",
        "_pos",
        "_restricted",
        "_turns",
        "_unmoved",
        "_winner",
        "game",
    )  # fmt: skip
    # Cells and rockets by index, board contents as in ``rules``; the masks are remade.
    position_fields = (
        "board", "at", "pos", "base", "unmoved", "out", "turns", "winner", "phase", "player",
    )  # fmt: skip

    def __init__(self, game: SputnikGame) -> None:
        self.game = game
        self._history: list[int] = []
        # "Unused space bases are turned over to the galaxy side": every other cell is a galaxy.
        self._board = [GALAXY] * game.cells
        self._at = [NOBODY] * game.cells
        for rocket, cell in enumerate(game.start):
            self._board[cell] = BASE + rocket
            self._at[cell] = rocket  # "a place on his space base of the same color"
        self._pos = list(game.start)
        self._base = list(game.start)
        self._unmoved = [True] * game.num_rockets
        self._out: list[int] = []  # rockets in the order they left the game
        self._turns = 0
        self._winner = -1  # the winning side
        # "Lots determine who starts the game."
        self._phase = LOT
        self._player = CHANCE
        self.rebuild_masks()

    def rebuild_masks(self) -> None:
        """Recompute the cell masks from the lists (needed only after editing ``position()``).

        The masks (bit ``c`` for cell ``c``) keep, move by move, the sets that the hot path
        asks about at every decision, instead of scanning every cell each time:
        ``_free``, the uninhabited galaxies; ``_empty``, the empty cells; ``_restricted``,
        the galaxies protected by a base (``rules.start_restricted``).
        """
        board, at = self._board, self._at
        free = [c for c, content in enumerate(board) if content == GALAXY and at[c] == NOBODY]
        self._free = sum(1 << cell for cell in free)
        self._empty = sum(1 << cell for cell, content in enumerate(board) if content == EMPTY)
        self._update_restricted()

    def _update_restricted(self) -> None:
        """Called when a rocket first leaves its base or leaves the game: rare events."""
        self._restricted = sum(1 << cell for cell in self.start_restricted())

    # -- whose turn ----------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._phase != LOT:
            return []
        n = self.game.num_players
        return [(seat, 1 / n) for seat in range(n)]

    def legal_actions(self) -> list[int]:
        if self._phase == MOVE:
            return self._move_actions()
        if self._phase == REMOVE:
            # rules.removable_galaxies, from the masks
            return actions_in(self._free & ~self._restricted, self.game.remove_tables)
        return []

    def _move_actions(self) -> list[int]:
        """``rules.step_targets`` and ``rules.help_targets`` of each rocket, from the masks."""
        game = self.game
        pos, base, free, empty = self._pos, self._base, self._free, self._empty
        neighbour_masks = game.board.neighbour_masks
        steps: list[int] = []
        helps: list[int] = []
        for rocket, step_actions, help_actions in game.movers[self._player]:
            cell = pos[rocket]
            if cell == OUT:
                continue
            home = base[rocket]
            around = neighbour_masks[cell]
            # "onto a galaxy" (uninhabited) "or an adjacent base of his own color"
            steps += step_actions[around & (free if home == OUT else free | 1 << home)]
            # "move his base onto an empty space adjacent to his rocket", once, not from it
            if home != OUT and home != cell:
                helps += help_actions[around & empty]
        if helps:
            steps += helps
        return steps

    def is_legal(self, action: int) -> bool:
        if self._phase == MOVE:
            return self._can_fly(action)
        if self._phase == REMOVE:
            cell = action - self.game.remove_offset
            removable = self._free & ~self._restricted
            return 0 <= cell < self.game.cells and bool(removable >> cell & 1)
        if self._phase == LOT:
            return 0 <= action < self.game.num_players
        return False

    def _can_fly(self, action: int) -> bool:
        """Whether ``action`` is among ``_move_actions``, checked directly (it is the hot path)."""
        game = self.game
        K = game.rockets_per_player
        k, cell = divmod(action, game.cells)
        if not 0 <= k < 2 * K:
            return False
        rocket = game.rockets_of[self._player][k % K]
        here = self._pos[rocket]
        if here == OUT or not game.board.neighbour_masks[here] >> cell & 1:
            return False
        home = self._base[rocket]
        if k < K:  # a step
            return cell == home or bool(self._free >> cell & 1)
        return home != OUT and home != here and bool(self._empty >> cell & 1)  # base help

    # -- rules, one per phase ------------------------------------------------------------
    def _apply(self, action: int) -> None:
        if self._phase == MOVE:
            game = self.game
            k, cell = divmod(action, game.cells)
            K = game.rockets_per_player
            if k < K:
                self._step(game.rockets_of[self._player][k], cell)
            else:
                self._base_help(game.rockets_of[self._player][k - K], cell)
        elif self._phase == REMOVE:
            self._remove(action - self.game.remove_offset)
        else:
            self._start_turn(action)  # the lot

    def _fly(self, rocket: int, cell: int) -> None:
        here = self._pos[rocket]
        self._at[here] = NOBODY
        self._at[cell] = rocket
        self._pos[rocket] = cell
        # The galaxy left behind is uninhabited again; the cell reached is not.
        free = self._free & ~(1 << cell)
        self._free = free | 1 << here if self._board[here] == GALAXY else free
        if self._unmoved[rocket]:
            self._unmoved[rocket] = False
            self._update_restricted()

    def _step(self, rocket: int, cell: int) -> None:
        """Move one step; "after moving his rocket, the player takes any uninhabited galaxy"."""
        self._fly(rocket, cell)
        if self._free & ~self._restricted:  # rules.removable_galaxies is not empty
            self._phase = REMOVE
        else:
            self._end_turn()  # Ruling: nothing can be taken, so the turn ends.

    def _base_help(self, rocket: int, cell: int) -> None:
        """ "He turns the base over to its galaxy side and then places his rocket on it."

        The base's old cell becomes empty; "he does not take any galaxy" this turn.
        """
        home = self._base[rocket]
        self._board[home] = EMPTY
        self._board[cell] = GALAXY
        self._empty = (self._empty | 1 << home) & ~(1 << cell)
        self._base[rocket] = OUT
        self._fly(rocket, cell)
        self._end_turn()

    def _remove(self, cell: int) -> None:
        self._board[cell] = EMPTY
        self._free &= ~(1 << cell)
        self._empty |= 1 << cell
        self._end_turn()

    def _end_turn(self) -> None:
        """ "Then the turn passes clockwise": seats are numbered clockwise."""
        self._turns += 1
        self._start_turn((self._player + 1) % self.game.num_players)
        if self._phase != OVER and self._turns >= self.game.max_turns:
            self._phase = OVER  # the turn cap: a draw
            self._player = TERMINAL

    def _start_turn(self, seat: int) -> None:
        """Eliminate what cannot move, skip players who are out, or end the game."""
        game = self.game
        out = len(self._out)
        while True:
            can_play = self._eliminate_stuck_rockets(seat)
            # A turn starts with two sides or more on the board (else the game is over):
            # only a rocket leaving can change that, so the sides are counted only then.
            if len(self._out) > out:
                out = len(self._out)
                sides = rules.sides_left(game.side_of_rocket, self._pos)
                if len(sides) == 1:
                    # "The player whose rocket remains last on the board wins the game."
                    self._winner = sides.pop()
                    self._phase = OVER
                    self._player = TERMINAL
                    return
            if can_play:
                self._phase = MOVE
                self._player = seat
                return
            seat = (seat + 1) % game.num_players

    def _eliminate_stuck_rockets(self, seat: int) -> bool:
        """ "When, on his turn, a player cannot move his rocket, he is eliminated."

        Each of the seat's rockets that cannot move leaves the game; its cell keeps its
        galaxy (or base). True when the seat still has a rocket to move.
        """
        neighbour_masks = self.game.board.neighbour_masks
        alive = False
        for rocket in self.game.rockets_of[seat]:
            cell = self._pos[rocket]
            if cell == OUT:
                continue
            # rules.can_move, from the masks: a step or its base's help. ``_free`` is read
            # afresh for each rocket: one eliminated just before has freed its cell.
            around, home = neighbour_masks[cell], self._base[rocket]
            if home in (OUT, cell):  # no help: steps onto uninhabited galaxies
                can_move = around & self._free
            else:  # steps onto galaxies or the base, or help onto an empty cell
                can_move = around & (self._free | self._empty | 1 << home)
            if can_move:
                alive = True
            else:
                self._at[cell] = NOBODY
                self._pos[rocket] = OUT
                self._out.append(rocket)
                if self._board[cell] == GALAXY:
                    self._free |= 1 << cell
                if self._unmoved[rocket]:
                    self._update_restricted()
        return alive

    # -- queries (read-only; agents use them) --------------------------------------------
    def start_restricted(self) -> set[int]:
        return rules.start_restricted(
            self.game.board.neighbours, self._pos, self._base, self._unmoved
        )

    def removable_galaxies(self) -> list[int]:
        removable = self._free & ~self._restricted
        return [cell for cell in range(self.game.cells) if removable >> cell & 1]

    def position(self) -> tuple[list[int], list[int], list[int], list[int], list[bool]]:
        """The live lists (board, at, pos, base, unmoved), see ``rules.py``. Do not modify
        them (tests that set up a board by hand call ``rebuild_masks`` after)."""
        return self._board, self._at, self._pos, self._base, self._unmoved

    def phase(self) -> str:
        return PHASES[self._phase]

    def turn(self) -> int:
        return self._turns

    def eliminated(self) -> list[int]:
        """Rockets that have left the game, in order."""
        return list(self._out)

    def state_key(self) -> tuple[int, int, bytes, tuple[int, ...], tuple[bool, ...]]:
        """A hashable key of the position (for transposition tables): not the history."""
        return (
            self._phase,
            self._player,
            bytes(self._board),
            tuple(self._at),
            tuple(self._unmoved),
        )

    # -- names ---------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        game = self.game
        if self._phase == LOT and 0 <= action < game.num_players:
            return f"lot: seat {action} starts"
        kind, k, cell = game.decode(action)
        name = game.board.names[cell]
        if kind == "remove" or game.rockets_per_player == 1:
            return f"{kind} {name}"
        return f"{kind} {self._rocket_label(k)}-{name}"

    def action_to_struct(self, action: int) -> dict[str, Any]:
        game = self.game
        if self._phase == LOT and 0 <= action < game.num_players:
            return {"kind": "lot", "seat": action}
        kind, k, cell = game.decode(action)
        if kind == "remove":
            return {"kind": kind, "cell": game.board.names[cell]}
        start = self.rocket_cell(k)
        return {
            "kind": kind,
            "rocket": k,
            "from": None if start is None else game.board.names[start],
            "to": game.board.names[cell],
        }

    def _rocket_label(self, k: int) -> str:
        """A rocket of the player to move, named by its cell (or its number when not known)."""
        cell = self.rocket_cell(k)
        return f"rocket{k + 1}" if cell is None else self.game.board.names[cell]

    def rocket_cell(self, k: int) -> int | None:
        """The cell of the player to move's rocket ``k`` (None: no player to move, or out)."""
        if self._player < 0:
            return None
        cell = self._pos[self.game.rockets_of[self._player][k]]
        return None if cell == OUT else cell

    # -- words for people (``words.py``) ---------------------------------------------------
    def move_label(self, action: int, names: Sequence[str]) -> str:
        return words.move_label(self, action, names)

    def narrate(
        self,
        action: int,
        names: Sequence[str],
        viewer: int | None = None,
        *,
        reveal: bool = False,
    ) -> str:
        check_viewer(self, viewer)
        return words.narrate(self, action, names)  # nothing is hidden: all read the same

    # -- why a move is not possible (``why_not.py``) --------------------------------------
    def _why_not(self, action: int, names: Sequence[str]) -> str | None:
        return why_not.reason(self, action, names)

    def _chance_first(self) -> str:
        return why_not.chance_first(self)

    def string_to_action(self, text: str) -> int:
        """Also accepts ``move c3`` with several rockets, when only one of them can go there."""
        try:
            return super().string_to_action(text)
        except IllegalActionError:
            if self.game.rockets_per_player == 1 or self._phase != MOVE:
                raise
            verb, _, target = text.strip().partition(" ")
            matches = [
                a
                for a in self.legal_actions()
                if self.action_to_string(a).startswith(verb + " ")
                and self.action_to_string(a).endswith("-" + target)
            ]
            if len(matches) != 1:
                raise
            return matches[0]

    # -- results -------------------------------------------------------------------------
    def returns(self) -> list[float]:
        game = self.game
        if self._winner < 0:
            return [0.0] * game.num_players
        loss = game.min_utility
        return [1.0 if side == self._winner else loss for side in game.side_of_seat]

    def ended_by_turn_cap(self) -> bool:
        return self._phase == OVER and self._winner < 0

    def placing_keys(self) -> list[int]:
        """Sides rank by how long they stayed: a side still on the board (the winner, or
        every side left at the turn cap) before any side knocked out, and of two sides
        knocked out, the one whose last rocket left later. Partners share their side's."""
        side_of = self.game.side_of_rocket
        stayed = {side_of[r]: len(self._out) for r, cell in enumerate(self._pos) if cell != OUT}
        for order, rocket in enumerate(self._out):  # (the last of a side's rockets counts)
            if side_of[rocket] not in stayed or stayed[side_of[rocket]] < len(self._out):
                stayed[side_of[rocket]] = order
        return [stayed[side] for side in self.game.side_of_seat]

    # -- views (perfect information: every seat sees everything) -------------------------
    def public_observation(self) -> dict[str, Any]:
        game = self.game
        names = game.board.names

        def name(cell: int) -> str | None:
            return None if cell == OUT else names[cell]

        kinds = game.content_names
        cells = [kinds[content] for content in self._board]
        rockets = [
            {
                "seat": game.rocket_owner[r],
                "cell": name(self._pos[r]),
                "base": name(self._base[r]),
                "left_base": not self._unmoved[r],
            }
            for r in range(game.num_rockets)
        ]
        return {
            "game": game.name,
            "params": dict(game.params),
            "phase": PHASES[self._phase],
            "current_player": self._player,
            "turn": self._turns,
            "cell_names": list(names),
            "cells": cells,
            "rockets": rockets,
            "eliminated": list(self._out),
            "removable": [names[c] for c in self.removable_galaxies()],
            "winners": self.winners(),
        }

    def observation(self, seat: int) -> dict[str, Any]:
        self.check_seat(seat)
        return {"seat": seat, **self.public_observation()}

    def observation_tensor(self, seat: int) -> np.ndarray:
        """Per cell: galaxy, empty, restricted, base of each seat and rocket of each seat
        (observer first); then the phase (move, remove) and the mover (observer first)."""
        self.check_seat(seat)
        game = self.game
        n = game.num_players
        # One code per cell for its content and its rocket; a table turns codes into planes.
        stride = game.num_rockets + 1
        at = self._at
        codes = [content * stride + at[cell] + 1 for cell, content in enumerate(self._board)]
        planes = game.cell_planes(seat)[codes].T.copy()
        planes[2, list(self.start_restricted())] = 1
        extra = np.zeros(2 + n, dtype=np.float32)
        if self._phase in (MOVE, REMOVE):
            extra[self._phase - MOVE] = 1
            extra[2 + (self._player - seat) % n] = 1
        return np.concatenate([planes.ravel(), extra])

    def render(
        self, seat: int | None = None, names: Sequence[str] | None = None, width: int | None = None
    ) -> str:
        return render(self, seat, names, width)

    def _after_set_up(self) -> None:
        self.rebuild_masks()

    def _check_position(self) -> None:
        game = self.game
        cells, rockets = range(game.cells), range(game.num_rockets)
        check_in("phase", self._phase, range(len(PHASES)))
        check_length("board", self._board, game.cells)
        check_each_in("board", self._board, range(BASE + game.num_rockets))
        check_length("at", self._at, game.cells)
        check_each_in("at", self._at, [NOBODY, *rockets])
        for name, where in (("pos", self._pos), ("base", self._base)):
            check_length(name, where, game.num_rockets)
            check_each_in(name, where, [OUT, *cells])
        for rocket, cell in enumerate(self._pos):
            if cell != OUT and self._at[cell] != rocket:
                raise ValueError(f"position field at: rocket {rocket} is on {cell}, not there")
        check_length("unmoved", self._unmoved, game.num_rockets)
        check_each_in("out", self._out, rockets)
        check_in("turns", self._turns, range(game.max_turns + 1))
        check_in("winner", self._winner, range(-1, game.num_players))
        seats = range(game.num_players)
        check_in("player", self._player, {LOT: [CHANCE], OVER: [TERMINAL]}.get(self._phase, seats))

    def clone(self) -> SputnikState:
        copy = SputnikState.__new__(SputnikState)
        copy.game = self.game
        copy._history = self._history.copy()
        copy._board = self._board.copy()
        copy._at = self._at.copy()
        copy._pos = self._pos.copy()
        copy._base = self._base.copy()
        copy._unmoved = self._unmoved.copy()
        copy._out = self._out.copy()
        copy._free = self._free
        copy._empty = self._empty
        copy._restricted = self._restricted
        copy._turns = self._turns
        copy._winner = self._winner
        copy._phase = self._phase
        copy._player = self._player
        return copy

    def __str__(self) -> str:
        game = self.game
        names = game.board.names
        lines = [
            f"Sputnik ({game.num_players} players, radius {game.board.radius}, "
            f"{game.rockets_per_player} rocket(s) each{', teams' if game.teams else ''}), "
            f"{PHASES[self._phase]}, turn {self._turns}/{game.max_turns}"
        ]
        for row in game.rows:
            indent = "  " * (2 * game.board.radius + 1 - len(row))
            lines.append(indent + "  ".join(self._cell_code(cell) for cell in row))
        for r in range(game.num_rockets):
            where = "out" if self._pos[r] == OUT else f"at {names[self._pos[r]]}"
            base = "used" if self._base[r] == OUT else names[self._base[r]]
            left = "never left base" if self._unmoved[r] else "has left base"
            lines.append(f"rocket {r} (seat {game.rocket_owner[r]}) {where}, base {base}, {left}")
        if self._phase in (MOVE, REMOVE):
            lines.append(f"seat {self._player} to {PHASES[self._phase]}")
        elif self._phase == OVER:
            winners = self.winners()
            lines.append(f"seats {winners} win" if winners else "draw: the turn cap was reached")
        return "\n".join(lines)

    def _cell_code(self, cell: int) -> str:
        """Two characters: '..' empty, '**' galaxy, 'b3' base of rocket 3, 'R3' rocket 3
        (on a galaxy), 'H3' rocket 3 on its own base."""
        content, rocket = self._board[cell], self._at[cell]
        if rocket != NOBODY:
            return f"{'H' if content >= BASE else 'R'}{rocket}"
        if content >= BASE:
            return f"b{content - BASE}"
        return "**" if content == GALAXY else ".."
