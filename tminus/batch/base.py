"""What every batch engine shares: the batch API, the history log, legality checks, resets.

A batch holds ``batch_size`` games of one game and its parameters as a few NumPy arrays
(one row a game). Chance is resolved inside from the batch's seed, so a batch only ever
stops at a decision of a seat or at the end of a game; ``history(i)`` records every
action of game ``i``, chance outcomes included, exactly as the reference engine
(``tminus.load_game``) would, so any game replays there.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

from tminus.core.game import TERMINAL, Game, IllegalActionError
from tminus.core.registry import load_game

G = TypeVar("G", bound=Game)  # the reference engine's game that a batch engine plays


def keep_freed_memory() -> None:
    """Let glibc keep large freed blocks for reuse instead of handing them back to the
    system: a batch's temporaries (128 KB for 16,384 int64s) are freed and allocated again
    by every operation, and each time the system would map fresh pages and fault them in
    (steps of 16,384 games ran a quarter to a third faster with this, measured here).
    Without glibc it does nothing."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    mallopt(m_mmap_threshold, 1 << 30)
    mallopt(m_trim_threshold, 1 << 30)


GOLDEN64 = np.uint64(0x9E3779B97F4A7C15)


def mix64(values: np.ndarray) -> np.ndarray:
    """SplitMix64's finalizer: unsigned 64-bit integers mixed into ones that look random
    (a counter-based generator: the n-th number of a stream needs no earlier one)."""
    z = np.asarray(values, dtype=np.uint64)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def unit_interval(bits: np.ndarray) -> np.ndarray:
    """Uniform numbers in [0, 1) from 64 random bits each (their top 53)."""
    return (bits >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


def compiles_first(engine: type) -> bool:
    """Whether the batch engine ``engine`` compiles its code on its first use here (a
    compiled one, Count Down's, not on disk yet): a minute of one core before its first step."""
    return issubclass(engine, BatchEnv) and not engine.compiled()


class HistoryLog:
    """The action list of every game of a batch: one row a game, grown when full."""

    def __init__(self, batch_size: int, capacity: int = 256) -> None:
        self.actions = np.zeros((batch_size, capacity), dtype=np.int16)
        self.length = np.zeros(batch_size, dtype=np.int64)

    def clear(self, games: np.ndarray) -> None:
        self.length[games] = 0

    def _room(self, needed: int) -> None:
        capacity = self.actions.shape[1]
        if needed > capacity:
            grown = np.zeros((self.actions.shape[0], max(needed, 2 * capacity)), np.int16)
            grown[:, :capacity] = self.actions
            self.actions = grown

    def append(self, games: np.ndarray, values: np.ndarray) -> None:
        """One action for each of ``games`` (indices), in order."""
        if len(games) == 0:
            return
        at = self.length[games]
        self._room(int(at.max()) + 1)
        self.actions[games, at] = values
        self.length[games] = at + 1

    def append_ragged(self, games: np.ndarray, block: np.ndarray, valid: np.ndarray) -> None:
        """``block[j][valid[j]]``: the actions of ``games[j]``, in order (rows differ in length)."""
        if len(games) == 0:
            return
        at = self.length[games]
        offsets = at[:, None] + np.cumsum(valid, axis=1) - 1
        counts = valid.sum(axis=1)
        self._room(int((at + counts).max()))
        rows = np.broadcast_to(games[:, None], valid.shape)
        self.actions[rows[valid], offsets[valid]] = block[valid]
        self.length[games] = at + counts

    def get(self, game: int, start: int = 0) -> list[int]:
        return self.actions[game, start : self.length[game]].tolist()


class BatchEnv(Generic[G]):
    """``batch_size`` games of ``name`` with ``params``, played in lockstep.

    - ``current_player()``: per game, the seat to move, or ``TERMINAL``;
    - ``legal_mask()``: (batch, num_distinct_actions) bool, the reference engine's action ids;
    - ``step(actions)``: one action per game (ignored for games that are over);
    - ``returns()``, ``terminal()``, ``observation_tensor(seat)``, ``history(i)``.

    ``auto_reset``: a game that is over when ``step`` is called starts again (its action
    is ignored), so its final state can be read after the step that ended it.
    ``record_history``: keep ``history(i)`` (costs 2 bytes an action).
    ``deal=False``: the games are not started (every row is then ``load``-ed).

    An engine names its game twice: ``name`` in the registry, and ``game_class``, the class
    that name loads (``class SputnikBatch(BatchEnv[SputnikGame])``), so that ``self.game``
    has that class's type.
    """

    name: ClassVar[str]
    game_class: type[G]
    game: G

    @classmethod
    def compiled(cls) -> bool:
        """Whether a new process runs this engine at full speed from its first step. A NumPy
        engine does; a compiled one (Count Down's) only once its compiled code is on disk."""
        return True

    def __init__(
        self,
        batch_size: int,
        seed: Any = 0,
        auto_reset: bool = False,
        record_history: bool = True,
        deal: bool = True,
        **params: Any,
    ) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)):
            raise ValueError(f"batch_size must be an integer, not {batch_size!r}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        game = load_game(self.name, **params)
        if not isinstance(game, self.game_class):
            raise TypeError(
                f"{type(self).__name__} plays {self.game_class.__name__}, "
                f"but {self.name!r} loads {type(game).__name__}"
            )
        self.game = game
        self.params = self.game.params
        self.num_players = self.game.num_players
        self.num_distinct_actions = self.game.num_distinct_actions
        self.batch_size = int(batch_size)
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.auto_reset = auto_reset
        self.log = HistoryLog(self.batch_size) if record_history else None
        # History entries made so far (player actions and chance outcomes): the unit that
        # the reference engine's benchmark counts.
        self.actions_applied = 0
        self.games_finished = 0
        self._all = np.arange(self.batch_size)
        self._legal: np.ndarray | None = None
        self._stream_keys: np.ndarray | None = None  # (share_luck: each row's stream)
        self._drawn = np.zeros(0, dtype=np.uint64)  # numbers each row has drawn from it
        self._allocate()
        if deal:  # (False: every row is to be loaded, ``load``; until then it holds nothing)
            self._start(self._all)

    # -- what a game engine provides -------------------------------------------------------
    def _allocate(self) -> None:
        raise NotImplementedError

    def _start(self, games: np.ndarray) -> None:
        """Set ``games`` (indices) to a new game and resolve chance up to the first move."""
        raise NotImplementedError

    def _apply(self, actions: np.ndarray, active: np.ndarray) -> None:
        """Apply ``actions`` (legal) to the games where ``active``; then resolve chance."""
        raise NotImplementedError

    def _legal_mask(self) -> np.ndarray:
        raise NotImplementedError

    def state_arrays(self) -> dict[str, np.ndarray]:
        """The arrays that hold the games' state (for memory per game)."""
        raise NotImplementedError

    # -- the batch API ---------------------------------------------------------------------
    def current_player(self) -> np.ndarray:
        raise NotImplementedError

    def terminal(self) -> np.ndarray:
        return self.current_player() == TERMINAL

    def legal_mask(self) -> np.ndarray:
        """(batch, num_distinct_actions) bool; a finished game's row is all False."""
        if self._legal is None:
            self._legal = self._legal_mask()
        return self._legal

    def sample_legal(self, uniform: np.ndarray) -> np.ndarray:
        """A legal action per game, uniformly among the legal ones, picked by ``uniform``
        (numbers in [0, 1), one a game); anything where the game is over. Engines override this
        with a path that never builds the whole mask."""
        mask = self.legal_mask()
        counts = mask.sum(axis=1)
        pick = (uniform * counts).astype(np.int64)
        ranks = np.cumsum(mask, axis=1) - 1
        chosen = np.argmax(mask & (ranks == pick[:, None]), axis=1)
        return np.where(counts > 0, chosen, 0)

    def step(self, actions: Any, check: bool = True, where: Any = None) -> None:
        """One action per game. Games that are over ignore theirs (and start again first
        with ``auto_reset``); so do games outside ``where`` (a bool mask), which stay as
        they are. An illegal action raises ``IllegalActionError`` naming the game, and
        nothing changes."""
        actions = np.asarray(actions)
        if actions.shape != (self.batch_size,) or not np.issubdtype(actions.dtype, np.integer):
            raise IllegalActionError(
                f"step takes one integer action per game: shape ({self.batch_size},), "
                f"got {actions.dtype} {actions.shape}"
            )
        over = self.terminal()
        active = ~over
        if where is not None:
            where = np.asarray(where, dtype=bool)
            if where.shape != (self.batch_size,):
                raise ValueError(f"where must be a bool mask of shape ({self.batch_size},)")
            active &= where
            over &= where
        if check:
            self._check(actions, active)
        if not active.all():  # engines read every game's action: the idle ones play 0
            actions = actions * active  # (np.where is slow on masks that vary game to game)
        if actions.dtype != np.int64:
            actions = actions.astype(np.int64)
        ended_before = np.count_nonzero(self.terminal())
        self._apply(actions, active)
        self._legal = None
        self.games_finished += int(np.count_nonzero(self.terminal()) - ended_before)
        if self.auto_reset and over.any():
            self.reset(np.flatnonzero(over))

    def _check(self, actions: np.ndarray, active: np.ndarray) -> None:
        inside = (actions >= 0) & (actions < self.num_distinct_actions)
        ok = ~active | inside
        if ok.all():
            index = np.where(inside, actions, 0)
            ok = ~active | self.legal_mask()[self._all, index]
        if not ok.all():
            game = int(np.flatnonzero(~ok)[0])
            legal = np.flatnonzero(self.legal_mask()[game]).tolist()
            raise IllegalActionError(
                f"illegal action {int(actions[game])} in game {game} for seat "
                f"{int(self.current_player()[game])}; legal: {legal}"
            )

    def reset(self, games: Any = None) -> None:
        """Start the given games (indices; all by default) again."""
        games = self._all if games is None else np.asarray(games, dtype=np.int64).ravel()
        if len(games) and (games.min() < 0 or games.max() >= self.batch_size):
            raise ValueError(f"games are 0 to {self.batch_size - 1}")
        if len(games) == 0:
            return
        if self.log is not None:
            self.log.clear(games)
        self._start(games)
        self._legal = None

    def load(self, games: Any, states: Any) -> None:
        """Set each of ``games`` (indices) to the matching reference state of ``states`` (one
        state for all of them, or one a game), a decision of a seat: playouts from given
        positions (a review's candidate moves in worlds drawn for the viewer). The batch
        resolves chance from there on with its own seed; ``history(i)`` then holds the actions
        played after the loaded position."""
        games = np.asarray(games, dtype=np.int64).ravel()
        if len(games) and (games.min() < 0 or games.max() >= self.batch_size):
            raise ValueError(f"games are 0 to {self.batch_size - 1}")
        states = [states] * len(games) if not isinstance(states, (list, tuple)) else states
        if len(states) != len(games):
            raise ValueError(f"{len(games)} games but {len(states)} states to load")
        for state in states:
            if state.game.name != self.name or state.game.params != self.params:
                raise ValueError(f"a state of {state.game} does not fit a batch of {self.game}")
            if state.is_chance_node():
                raise ValueError("a batch loads decisions and ends, not chance nodes")
        if self.log is not None:
            self.log.clear(games)
        self._load(games, states)
        self._legal = None

    def copy_rows(self, games: Any, sources: Any) -> None:
        """Set each of ``games`` to the position of the matching game of ``sources`` (a
        position loaded once, played on from many rows)."""
        games = np.asarray(games, dtype=np.int64).ravel()
        sources = np.asarray(sources, dtype=np.int64).ravel()
        if games.shape != sources.shape:
            raise ValueError(f"{len(games)} games but {len(sources)} sources to copy")
        for both in (games, sources):
            if len(both) and (both.min() < 0 or both.max() >= self.batch_size):
                raise ValueError(f"games are 0 to {self.batch_size - 1}")
        for array in self.state_arrays().values():
            array[games] = array[sources]
        if self._stream_keys is not None:
            self._stream_keys[games] = self._stream_keys[sources]
            self._drawn[games] = self._drawn[sources]
        if self.log is not None:
            self.log.clear(games)
        self._legal = None

    # -- luck shared between rows (common random numbers) ----------------------------------
    def share_luck(self, streams: Any) -> None:
        """Rows with the same stream number meet the same luck from now on: the k-th random number a
        row draws (a card, a die, the coin of a rollout player that draws through ``uniforms``) is
        the k-th of its stream. A review plays each candidate move of a world on rows of one stream,
        so the difference between two moves carries little of the luck that follows them (common
        random numbers). Until this is called every row draws from the batch's generator."""
        streams = np.asarray(streams).ravel()
        if streams.shape != (self.batch_size,) or not np.issubdtype(streams.dtype, np.integer):
            raise ValueError(f"share_luck takes one integer stream per game ({self.batch_size})")
        if len(streams) and streams.min() < 0:
            raise ValueError("streams are numbers 0 and up")
        salt = np.random.default_rng(self.seed).integers(1 << 63, dtype=np.uint64)
        self._stream_keys = mix64(streams.astype(np.uint64) ^ salt)
        self._drawn = np.zeros(self.batch_size, dtype=np.uint64)

    def uniforms(
        self, games: np.ndarray, count: int | None = None, rng: np.random.Generator | None = None
    ) -> np.ndarray:
        """Numbers in [0, 1) for each of ``games`` (indices, each once): one a game, or
        ``count`` a game as an array (games, count); from each row's stream after
        ``share_luck``, else from ``rng`` (a player's own generator; default: the batch's)."""
        if self._stream_keys is None:
            shape = len(games) if count is None else (len(games), count)
            return (rng or self.rng).random(shape)
        width = 1 if count is None else count
        at = self._drawn[games][:, None] + np.arange(width, dtype=np.uint64)
        self._drawn[games] += np.uint64(width)
        numbers = unit_interval(mix64(self._stream_keys[games][:, None] + at * GOLDEN64))
        return numbers[:, 0] if count is None else numbers

    def _load(self, games: np.ndarray, states: list) -> None:
        raise NotImplementedError(f"the {self.name} batch cannot start from given positions yet")

    def history(self, game: int, start: int = 0) -> list[int]:
        """Every action of game ``game`` since it started (from the ``start``-th on),
        chance outcomes included."""
        if self.log is None:
            raise ValueError("this batch keeps no history: make it with record_history=True")
        if not 0 <= game < self.batch_size:
            raise ValueError(f"game {game} does not exist: games are 0 to {self.batch_size - 1}")
        return self.log.get(game, start)

    def returns(self) -> np.ndarray:
        """(batch, players) float64: each game's returns (zeros while it is played)."""
        raise NotImplementedError

    def ended_by_turn_cap(self) -> np.ndarray:
        """(batch,) bool: the game ended as a draw because the turn cap was reached."""
        raise NotImplementedError

    def observation_tensor(self, seat: int) -> np.ndarray:
        """(batch, size) float32: the reference engine's ``observation_tensor(seat)``."""
        raise NotImplementedError

    def check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise ValueError(f"a seat is an integer, not {seat!r}")
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat {seat} does not exist: seats are 0 to {self.num_players - 1}")

    def memory_per_game(self) -> float:
        """Bytes of state per game (the history log not counted)."""
        total = sum(a.nbytes for a in self.state_arrays().values())
        return total / self.batch_size

    # -- helpers for engines ---------------------------------------------------------------
    def _record(self, games: np.ndarray, values: np.ndarray) -> None:
        self.actions_applied += len(games)
        if self.log is not None:
            self.log.append(games, values)

    def _record_ragged(self, games: np.ndarray, block: np.ndarray, valid: np.ndarray) -> None:
        self.actions_applied += int(np.count_nonzero(valid))
        if self.log is not None:
            self.log.append_ragged(games, block, valid)

    def _record_where(self, played: np.ndarray, values: np.ndarray) -> None:
        """``values[i]`` for every game where ``played`` (a mask over the whole batch)."""
        if self.log is None:
            self.actions_applied += int(np.count_nonzero(played))
        else:
            self._record(np.flatnonzero(played), values[played])
