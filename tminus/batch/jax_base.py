"""What the JAX batch engines share: keys from the seed, games started in chunks of one
size (one compilation), the history log kept on the host from what each call returns.

A JAX engine provides, as jitted functions over the whole batch or a chunk of it:
- ``_start_games(keys) -> (state, block, valid)``: new games, one a key, with the chance
  outcomes each drew (``block[j][valid[j]]``, in order);
- ``_move(state, actions, active, key) -> (state, chance)``: one move in the active games,
  then the chance outcome each drew (-1: none).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from tminus.batch.base import BatchEnv

CHUNK = 256  # games started by one call, at most


class JaxBatch(BatchEnv):
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

    def _keys(self, count: int | None = None):
        self._key, key = jax.random.split(self._key)
        return key if count is None else jax.random.split(key, count)

    def _start(self, games: np.ndarray) -> None:
        self._in_chunks(games, lambda rows, keys: self._start_games(keys))

    def _in_chunks(self, games: np.ndarray, make) -> None:
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

    def _rows(self, rows):
        """The state of the games ``rows`` (rows past the end read the last game)."""
        return self._take(self.state, rows)

    def _apply(self, actions: np.ndarray, active: np.ndarray) -> None:
        self._record_where(active, actions)
        self.state, chance = self._move(
            self.state, jnp.asarray(actions, jnp.int32), jnp.asarray(active), self._keys()
        )
        chance = np.asarray(chance)
        self._record_where(chance >= 0, chance)

    def state_arrays(self) -> dict[str, np.ndarray]:
        return {name: np.asarray(value) for name, value in self.state.items()}

    def _host(self, name: str) -> np.ndarray:
        return np.asarray(self.state[name])

    # Engines name their jitted queries ``_legal_sets`` (the legal mask of each game),
    # ``_sample`` and ``_observe``.
    def _legal_mask(self) -> np.ndarray:
        return np.array(self._legal_sets(self.state))

    def sample_legal(self, uniform: np.ndarray) -> np.ndarray:
        return np.array(self._sample(self.state, jnp.asarray(uniform, jnp.float32)))

    def observation_tensor(self, seat: int) -> np.ndarray:
        self.check_seat(seat)
        return np.array(self._observe(self.state, seat))
