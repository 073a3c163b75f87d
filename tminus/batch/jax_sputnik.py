"""Sputnik on JAX: the rules as pure functions of one game (cells as boolean arrays),
``jax.vmap``-ed over the batch and ``jax.jit``-compiled. A rocket that is out, or a base
that has helped, stands on cell ``cells`` (one past the board), which is nobody's
neighbour. The only chance node is the lot for who starts.
"""

from __future__ import annotations

from functools import cache, partial

import jax
import jax.numpy as jnp
import numpy as np

from tminus.batch.jax_base import JaxBatch, Move, Observe, Query, Sample, StartGames
from tminus.core.game import TERMINAL
from tminus.core.registry import load_game
from tminus.games.sputnik.game import MOVE, OVER, REMOVE, SputnikGame


class Board:
    """The game's constants as arrays (neighbours, starts, owners, sides)."""

    def __init__(self, game) -> None:
        self.n, self.k, self.cells = game.num_players, game.rockets_per_player, game.cells
        self.rockets = game.num_rockets
        around = np.zeros((self.cells + 1, self.cells), dtype=bool)
        for cell, neighbours in enumerate(game.board.neighbours):
            around[cell, list(neighbours)] = True
        self.around = jnp.asarray(around)
        self.start = jnp.asarray(game.start, jnp.int32)
        self.side = jnp.asarray(game.side_of_rocket, jnp.int32)
        self.sides = max(game.side_of_seat) + 1
        self.owner = np.array(game.rocket_owner)
        self.max_turns = game.max_turns


def one_hot(board: Board, cell):
    return jnp.arange(board.cells) == cell  # all False for a cell that is out


def restricted(board: Board, state):
    """Galaxies next to a base whose rocket is on the board and has not left it."""
    protecting = state["unmoved"] & (state["pos"] < board.cells)
    return (board.around[board.start] & protecting[:, None]).any(axis=0)


def empty(state):
    return ~state["galaxy"] & ~state["bases"]


def start_turn(board: Board, state, seat, todo):
    """Eliminate the seat's rockets that cannot move, skip seats with none, or end the
    game when one side is left (``todo``: this game's turn starts at all)."""

    def body(carry):
        state, seat, todo = carry
        can_play = False
        for i in range(board.k):
            rocket = seat + board.n * i
            cell, home = state["pos"][rocket], state["base"][rocket]
            free = state["galaxy"] & ~state["occupied"]
            with_help = (home != board.cells) & (home != cell)
            reach = jnp.where(with_help, free | empty(state) | one_hot(board, home), free)
            moves = (board.around[cell] & reach).any()
            on_board = cell < board.cells
            stuck = todo & on_board & ~moves
            state = {
                **state,
                "occupied": jnp.where(
                    stuck, state["occupied"] & ~one_hot(board, cell), state["occupied"]
                ),
                "pos": state["pos"].at[rocket].set(jnp.where(stuck, board.cells, cell)),
            }
            can_play = can_play | (on_board & moves)
        alive = state["pos"] < board.cells
        sides = jnp.zeros(board.sides, jnp.int32).at[board.side].max(alive.astype(jnp.int32))
        sides = sides > 0
        last = todo & (sides.sum() == 1)
        playing = todo & ~last & can_play
        state = {
            **state,
            "winner": jnp.where(last, jnp.argmax(sides), state["winner"]),
            "phase": jnp.where(last, OVER, jnp.where(playing, MOVE, state["phase"])),
            "player": jnp.where(playing, seat, state["player"]),
        }
        todo = todo & ~last & ~can_play
        return state, jnp.where(todo, (seat + 1) % board.n, seat), todo

    state, _, _ = jax.lax.while_loop(lambda carry: carry[2], body, (state, seat, todo))
    return state


def start_game(board: Board, key):
    """Bases and rockets on their corners, every other cell a galaxy; the lot."""
    starts = jnp.zeros(board.cells, bool).at[board.start].set(True)
    state = {
        "galaxy": ~starts,
        "bases": starts,
        "occupied": starts,
        "pos": board.start,
        "base": board.start,
        "unmoved": jnp.ones(board.rockets, bool),
        "phase": jnp.int32(MOVE),
        "player": jnp.int32(0),
        "turns": jnp.int32(0),
        "winner": jnp.int32(-1),
    }
    seat = jax.random.randint(key, (), 0, board.n)
    state = start_turn(board, state, seat, jnp.bool_(True))
    return state, seat[None], jnp.ones(1, bool)


def move(board: Board, state, action, active):
    """A step, a base help or a removal; then, at the end of the turn, the next turn."""
    k, cells = board.k, board.cells
    section, cell = action // cells, action % cells
    moving = active & (state["phase"] == MOVE)
    removing = active & (state["phase"] == REMOVE)
    helping = moving & (section >= k) & (section < 2 * k)
    rocket = state["player"] + board.n * (jnp.where(section >= k, section - k, section) % k)
    here, home = state["pos"][rocket], state["base"][rocket]
    target = one_hot(board, cell)
    state = {
        **state,
        # Base help: the base moves onto the empty cell, turned to its galaxy side.
        "galaxy": jnp.where(helping, state["galaxy"] | target, state["galaxy"]),
        "bases": jnp.where(helping, state["bases"] & ~one_hot(board, home), state["bases"]),
        "base": state["base"].at[rocket].set(jnp.where(helping, cells, home)),
        # A step or a help: the rocket flies.
        "occupied": jnp.where(
            moving, (state["occupied"] & ~one_hot(board, here)) | target, state["occupied"]
        ),
        "pos": state["pos"].at[rocket].set(jnp.where(moving, cell, here)),
        "unmoved": state["unmoved"].at[rocket].set(state["unmoved"][rocket] & ~moving),
    }
    # "Then the player takes any uninhabited galaxy", if one can be taken.
    state["galaxy"] = jnp.where(removing, state["galaxy"] & ~target, state["galaxy"])
    stepped = moving & ~helping
    free = state["galaxy"] & ~state["occupied"]
    can_take = (free & ~restricted(board, state)).any()
    state["phase"] = jnp.where(stepped & can_take, REMOVE, state["phase"])
    ends = removing | helping | (stepped & ~can_take)
    state["turns"] = state["turns"] + ends
    state = start_turn(board, state, (state["player"] + 1) % board.n, ends)
    capped = ends & (state["phase"] != OVER) & (state["turns"] >= board.max_turns)
    state["phase"] = jnp.where(capped, OVER, state["phase"])
    return state, jnp.int32(-1)  # no chance after a move


def legal(board: Board, state):
    """(2K + 1) * cells bools: steps and helps of each rocket, then removals."""
    moving, removing = state["phase"] == MOVE, state["phase"] == REMOVE
    free, blank = state["galaxy"] & ~state["occupied"], empty(state)
    steps, helps = [], []
    for i in range(board.k):
        rocket = state["player"] + board.n * i
        cell, home = state["pos"][rocket], state["base"][rocket]
        around = board.around[cell] & moving
        steps.append(around & (free | one_hot(board, home)))
        helps.append(around & blank & (home != board.cells) & (home != cell))
    removals = free & ~restricted(board, state) & removing
    return jnp.concatenate([*steps, *helps, removals])


def sample(board: Board, state, uniform):
    mask = legal(board, state)
    count = mask.sum()
    pick = (uniform * count).astype(jnp.int32)
    return jnp.argmax(mask & (jnp.cumsum(mask) - 1 == pick))


def observe(board: Board, state, seat):
    n, cells = board.n, board.cells
    relative = (jnp.asarray(board.owner) - seat) % n
    bases = jnp.zeros((n, cells + 1)).at[relative, state["base"]].set(1.0)
    rockets = jnp.zeros((n, cells + 1)).at[relative, state["pos"]].set(1.0)
    planes = jnp.concatenate([
        jnp.stack([state["galaxy"], empty(state), restricted(board, state)]).astype(jnp.float32),
        bases[:, :cells], rockets[:, :cells],
    ])  # fmt: skip
    playing = (state["phase"] == MOVE) | (state["phase"] == REMOVE)
    phase = jax.nn.one_hot(state["phase"] - MOVE, 2) * playing
    mover = jax.nn.one_hot((state["player"] - seat) % n, n) * playing
    return jnp.concatenate([planes.ravel(), phase, mover]).astype(jnp.float32)


@cache
def compiled(params: tuple) -> tuple[StartGames, Move, Query, Sample, Observe]:
    """The jitted functions for one set of parameters, shared by every batch that has
    them (a compilation takes seconds)."""
    board = Board(load_game("sputnik", **dict(params)))
    return (
        jax.jit(jax.vmap(partial(start_game, board))),
        jax.jit(lambda state, actions, active, key: jax.vmap(partial(move, board))(
            state, actions, active)),
        jax.jit(jax.vmap(partial(legal, board))),
        jax.jit(jax.vmap(partial(sample, board))),
        jax.jit(jax.vmap(partial(observe, board), in_axes=(0, None))),
    )  # fmt: skip


class SputnikJax(JaxBatch[SputnikGame]):
    """``tminus.batch.make("sputnik", size, backend="jax")``."""

    name = "sputnik"
    game_class = SputnikGame

    def _allocate(self) -> None:
        functions = compiled(tuple(sorted(self.params.items())))
        self._start_games, self._move, self._legal_sets, self._sample, self._observe = functions
        self._setup_jax()

    def current_player(self) -> np.ndarray:
        return np.where(self._host("phase") == OVER, TERMINAL, self._host("player"))

    def terminal(self) -> np.ndarray:
        return self._host("phase") == OVER

    def returns(self) -> np.ndarray:
        sides = np.array(self.game.side_of_seat)
        winner = self._host("winner")
        out = np.where(sides[None, :] == winner[:, None], 1.0, self.game.min_utility)
        return np.where((winner >= 0)[:, None], out, 0.0)

    def ended_by_turn_cap(self) -> np.ndarray:
        return self.terminal() & (self._host("winner") < 0)
