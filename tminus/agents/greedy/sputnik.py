"""A sensible Sputnik player: keep your own rocket's room, cut the opponents'.

Moves go to the cell with the most free galaxies around it (base help is kept for when
there is no step at all). Removals take a galaxy next to the opponent with the fewest
steps left, never one next to its own rockets if it can help it. Ties are broken at random.
"""

from __future__ import annotations

import numpy as np

from tminus.games.sputnik.game import SputnikGame, SputnikState
from tminus.games.sputnik.rules import BASE, GALAXY, NOBODY, OUT

SAVE_HELP = 10.0  # how much a step must be worse before the base's help is used
OWN_ROOM = 5.0  # the cost of taking a galaxy next to one's own rocket


class SputnikGreedy:
    name = "greedy"
    instant = True  # a move in microseconds (scripts/bot_think_time.py)

    def __init__(self, game: SputnikGame, seed: int | list[int] | None = None) -> None:
        self.game = game
        self._rng = np.random.default_rng(seed)

    def step(self, state: SputnikState) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        score = self.removal_value if state.phase() == "remove" else self.move_value
        values = [score(state, action) for action in legal]
        best = max(values)
        choices = [a for a, v in zip(legal, values, strict=True) if v == best]
        return choices[int(self._rng.integers(len(choices)))]

    def free_around(self, state: SputnikState, cell: int, rocket: int) -> int:
        """Steps a rocket standing on ``cell`` would have."""
        board, at, _, _, _ = state.position()
        return sum(
            1
            for n in self.game.board.neighbours[cell]
            if (at[n] == NOBODY or at[n] == rocket)
            and (board[n] == GALAXY or board[n] == BASE + rocket)
        )

    def move_value(self, state: SputnikState, action: int) -> float:
        game = self.game
        k, cell = divmod(action, game.cells)
        rocket = game.rockets_of[state.current_player()][k % game.rockets_per_player]
        value = float(self.free_around(state, cell, rocket))
        if k >= game.rockets_per_player:  # base help: keep it for an emergency
            value -= SAVE_HELP
        return value

    def removal_value(self, state: SputnikState, action: int) -> float:
        game = self.game
        cell = action - game.remove_offset
        _, at, pos, _, _ = state.position()
        mine = game.side_of_seat[state.current_player()]
        value = 0.0
        for n in game.board.neighbours[cell]:
            rocket = at[n]
            if rocket == NOBODY or pos[rocket] == OUT:
                continue
            if game.side_of_rocket[rocket] == mine:
                value -= OWN_ROOM
            else:
                # The fewer steps that rocket has, the more this cut hurts it.
                value += 10.0 / max(1, self.free_around(state, n, rocket))
        return value
