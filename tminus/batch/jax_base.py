"""What the JAX batch engines share: keys from the seed, games started in chunks of one
size (one compilation), the history log kept on the host from what each call returns.

A JAX engine provides, as jitted functions over the whole batch or a chunk of it (set
by its ``_allocate`` before it calls ``_setup_jax``; their types are ``JaxBatch``'s):
- ``_start_games(keys) -> (state, block, valid)``: new games, one a key, with the chance
  outcomes each drew (``block[j][valid[j]]``, in order);
- ``_move(state, actions, active, key) -> (state, chance)``: one move in the active games,
  then the chance outcome each drew (-1: none);
- ``_legal_sets(state)``, ``_sample(state, uniform)``, ``_observe(state, seat)``: the
  queries (an engine that overrides ``_legal_mask`` needs no ``_legal_sets``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

import jax
import jax.numpy as jnp
import numpy as np

from tminus.batch.base import BatchEnv, G

CHUNK = 256  # games started by one call, at most

# The games' state: one array a field, one row a game.
JaxState: TypeAlias = dict[str, jax.Array]
# New games with the chance outcomes they drew: (state, block, valid).
Started: TypeAlias = tuple[JaxState, jax.Array, jax.Array]
StartGames: TypeAlias = Callable[[jax.Array], Started]  # (keys, one a game)
# (state, actions, active, key) -> (state, chance outcome of each game or -1)
Move: TypeAlias = Callable[[JaxState, jax.Array, jax.Array, jax.Array], tuple[JaxState, jax.Array]]
Query: TypeAlias = Callable[[JaxState], jax.Array]
Sample: TypeAlias = Callable[[JaxState, jax.Array], jax.Array]  # (state, uniform)
Observe: TypeAlias = Callable[[JaxState, int], jax.Array]  # (state, seat)


class JaxBatch(BatchEnv[G]):
    # The engine's jitted functions (attributes, not methods: they are set per instance).
    _start_games: StartGames
    _move: Move
    _legal_sets: Query
    _sample: Sample
    _observe: Observe
    state: JaxState

    def _setup_jax(self) -> None:
        seed = np.random.SeedSequence(
            self.seed if isinstance(self.seed, int) else list(np.atleast_1d(self.seed))
        )
        self._key = jax.random.PRNGKey(int(seed.generate_state(1)[0]))
        self._chunk = min(self.batch_size, CHUNK)
        self._put = jax.jit(
            lambda state, rows, new: jax.tree.map(
                lambda a, b: a.at[rows].set(b, mode="drop"), state, new
            )
        )
        self._take = jax.jit(
            lambda state, rows: jax.tree.map(lambda a: a.take(rows, axis=0, mode="clip"), state)
        )
        self.state = self._start_games(self._keys(self.batch_size))[0]

    def _keys(self, count: int | None = None) -> jax.Array:
        self._key, key = jax.random.split(self._key)
        return key if count is None else jax.random.split(key, count)

    def _start(self, games: np.ndarray) -> None:
        self._in_chunks(games, lambda rows, keys: self._start_games(keys))

    def _in_chunks(
        self, games: np.ndarray, make: Callable[[jax.Array, jax.Array], Started]
    ) -> None:
        """``make(rows, keys) -> (state rows, block, valid)`` for ``games``, in chunks of one
        size (the last padded with rows past the end, which are dropped): one shape, one
        compilation, whichever games it is."""
        chunk = self._chunk
        for first in range(0, len(games), chunk):
            part = games[first : first + chunk]
            count = len(part)
            rows = np.full(chunk, self.batch_size, dtype=np.int32)
            rows[:count] = part
            new, block, valid = make(jnp.asarray(rows), self._keys(chunk))
            self.state = self._put(self.state, jnp.asarray(rows), new)
            self._record_ragged(part, np.asarray(block)[:count], np.asarray(valid)[:count])

    def _rows(self, rows: jax.Array) -> JaxState:
        """The state of the games ``rows`` (rows past the end read the last game)."""
        return self._take(self.state, rows)

    def _apply(self, actions: np.ndarray, active: np.ndarray) -> None:
        self._record_where(active, actions)
        self.state, drawn = self._move(
            self.state, jnp.asarray(actions, jnp.int32), jnp.asarray(active), self._keys()
        )
        chance = np.asarray(drawn)
        self._record_where(chance >= 0, chance)

    def state_arrays(self) -> dict[str, np.ndarray]:
        return {name: np.asarray(value) for name, value in self.state.items()}

    def _host(self, name: str) -> np.ndarray:
        return np.asarray(self.state[name])

    def _legal_mask(self) -> np.ndarray:
        return np.array(self._legal_sets(self.state))

    def sample_legal(self, uniform: np.ndarray) -> np.ndarray:
        return np.array(self._sample(self.state, jnp.asarray(uniform, jnp.float32)))

    def observation_tensor(self, seat: int) -> np.ndarray:
        self.check_seat(seat)
        return np.array(self._observe(self.state, seat))
