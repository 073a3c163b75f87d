"""4-Way CountDown, a batch of games at once (NumPy).

A game is a handful of integers: every seat's keys packed in one 64-bit word (10 bits a
seat), the mover, the dice, the turn count and the winner. What a roll allows is looked up
in tables built once from the reference engine's own rules (``moves_for_roll``), by roll
and keys: a move is two table look-ups and two bit operations for every game at once.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from tminus.batch.base import BatchEnv
from tminus.core.game import TERMINAL
from tminus.games.four_way import game as ref
from tminus.games.four_way.actions import (
    ATTACK,
    DICE,
    NUM_ACTIONS,
    PASS,
    RESET,
    SCORE_KEYS,
    SCORE_MASKS,
)
from tminus.games.four_way.rules import ALL_KEYS_UP

KEY_BITS = 10
ROLLS = len(DICE)
ROLL_OFF, ROLL, MOVE, OVER = ref.ROLL_OFF, ref.ROLL, ref.MOVE, ref.OVER
ELEVEN = ref.ELEVEN_ROLL
# Two ordered dice (36 equally likely) -> the unordered roll's chance outcome id.
DICE_OF_36 = np.array(
    [DICE.index((min(a, b), max(a, b))) for a in range(1, 7) for b in range(1, 7)],
    dtype=np.int64,
)


@cache
def move_tables(junior: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """By ``roll << 10 | keys``: the legal moves as bits of a word, their count, and the
    moves themselves (4 a row, padded with -1). Attacks on eleven depend on the seat and
    are added apart; so the eleven's rows hold only its flips, with no pass."""
    bits = np.zeros(ROLLS << KEY_BITS, dtype=np.int64)
    counts = np.zeros(ROLLS << KEY_BITS, dtype=np.int8)
    moves = np.full((ROLLS << KEY_BITS, 4), -1, dtype=np.int8)
    for roll in range(ROLLS):
        for keys in range(1 << KEY_BITS):
            row = ref.moves_for_roll(junior, roll, keys)
            if not row and roll != ELEVEN:
                row = (PASS,)
            index = roll << KEY_BITS | keys
            bits[index] = sum(1 << a for a in row)
            counts[index] = len(row)
            moves[index, : len(row)] = row
    return bits, counts, moves.ravel()


@cache
def action_masks(players: int) -> tuple[np.ndarray, np.ndarray]:
    """By ``mover * NUM_ACTIONS + action``: what to OR into and AND with the packed keys.
    The last entry does nothing (for games that are over)."""
    full = (1 << (KEY_BITS * players)) - 1
    ors = np.zeros(players * NUM_ACTIONS + 1, dtype=np.uint64)
    ands = np.full(players * NUM_ACTIONS + 1, full, dtype=np.uint64)
    for mover in range(players):
        shift = KEY_BITS * mover
        for action in range(NUM_ACTIONS):
            index = mover * NUM_ACTIONS + action
            if action < SCORE_KEYS:
                ors[index] = 1 << (action + shift)
            elif action < ATTACK:
                ors[index] = SCORE_MASKS[action - SCORE_KEYS] << shift
            elif action < PASS:
                target = action - ATTACK
                if target < players:
                    ands[index] = full & ~(ALL_KEYS_UP << (KEY_BITS * target))
            elif action == RESET:
                ands[index] = full & ~(ALL_KEYS_UP << shift)
    return ors, ands


class FourWayBatch(BatchEnv[ref.FourWayGame]):
    name = "four_way"
    game_class = ref.FourWayGame

    def _allocate(self) -> None:
        b, n = self.batch_size, self.num_players
        self.junior = self.game.junior
        self.max_turns = self.game.max_turns
        self._bits, self._counts, self._moves = move_tables(self.junior)
        self._ors, self._ands = action_masks(n)
        self._noop = n * NUM_ACTIONS
        self._attack_bits = np.array(
            [sum(1 << a for a in self.game.attacks_by_seat[s]) for s in range(n)], np.int64
        )
        self._next = np.array([(s + 1) % n for s in range(n)], dtype=np.int64)
        self._shift = np.arange(n, dtype=np.uint64) * np.uint64(KEY_BITS)
        self.keys = np.zeros(b, dtype=np.uint64)  # seat s's keys at bits 10s..10s+9
        self.mover = np.zeros(b, dtype=np.int64)
        self.roll = np.full(b, -1, dtype=np.int64)
        self.phase = np.zeros(b, dtype=np.int64)
        self.turns = np.zeros(b, dtype=np.int64)
        self.winner = np.full(b, -1, dtype=np.int64)
        # The move tables' row of each game: roll << 10 | the mover's keys.
        self.index = np.zeros(b, dtype=np.int64)

    def state_arrays(self) -> dict[str, np.ndarray]:
        return {
            "keys": self.keys,
            "mover": self.mover,
            "roll": self.roll,
            "phase": self.phase,
            "turns": self.turns,
            "winner": self.winner,
            "index": self.index,
        }

    # -- the start: keys down, the roll-off, the first roll --------------------------------
    def _start(self, games: np.ndarray) -> None:
        self.keys[games] = 0
        self.roll[games] = -1
        self.winner[games] = -1
        self.phase[games] = ROLL_OFF
        self._roll_off(games)

    def _roll_off(self, games: np.ndarray) -> None:
        """ "Players each roll one die to determine who goes first": every contender rolls,
        in seat order; the highest starts, the tied highest roll again. Each die is one
        chance node and one turn (the turn cap can end the game here)."""
        count, n = len(games), self.num_players
        contenders = np.ones((count, n), dtype=bool)
        pending = np.ones(count, dtype=bool)
        mover = np.zeros(count, dtype=np.int64)
        rolled, faces = [], []
        while pending.any():
            rolling = contenders & pending[:, None]
            face = self.rng.integers(1, 7, size=(count, n))
            rolled.append(rolling)
            faces.append(face)
            shown = np.where(rolling, face, 0)
            tied = rolling & (shown == shown.max(axis=1)[:, None])
            single = pending & (tied.sum(axis=1) == 1)
            mover[single] = np.argmax(tied[single], axis=1)
            pending &= ~single
            contenders = tied
        valid = np.concatenate(rolled, axis=1)
        dice = np.concatenate(faces, axis=1) - 1
        # The turn cap counts every die: the game ends at the die that reaches it.
        valid &= np.cumsum(valid, axis=1) <= self.max_turns
        self.turns[games] = valid.sum(axis=1)
        self._record_ragged(games, dice, valid)
        self.mover[games] = mover
        capped = self.turns[games] >= self.max_turns
        self.phase[games[capped]] = OVER
        started = games[~capped]
        roll = self._draw_rolls(len(started))
        self.roll[started] = roll
        self.turns[started] += 1
        self.phase[started] = MOVE
        self._record(started, roll)
        self.index[started] = roll << KEY_BITS

    def _draw_rolls(self, count: int) -> np.ndarray:
        """Two dice, as the unordered roll's chance outcome id."""
        return DICE_OF_36[(self.rng.random(count) * 36).astype(np.int64)]

    # -- a move, for every game at once ----------------------------------------------------
    def _apply(self, actions: np.ndarray, active: np.ndarray) -> None:
        mover = self.mover
        index = np.where(active, mover * NUM_ACTIONS + actions, self._noop)
        keys = (self.keys | self._ors[index]) & self._ands[index]
        self.keys = keys
        own = (keys >> self._shift[mover]) & np.uint64(ALL_KEYS_UP)
        # "The first player to flip up all 10 keys ... wins the game."
        won = active & (own == ALL_KEYS_UP)
        stop = won | (active & (self.turns >= self.max_turns))
        going_on = active & ~stop
        self.winner = np.where(won, mover, self.winner)
        self.phase = np.where(stop, OVER, self.phase)
        self._record_where(active, actions)
        # "Play then moves to the left", and the next player rolls: one chance node.
        mover = np.where(going_on, self._next[mover], mover)
        self.mover = mover
        roll = np.where(going_on, self._draw_rolls(self.batch_size), self.roll)
        self.roll = roll
        self.turns = self.turns + going_on
        self._record_where(going_on, roll)
        own = ((keys >> self._shift[mover]) & np.uint64(ALL_KEYS_UP)).astype(np.int64)
        self.index = (roll << KEY_BITS) | own

    # -- queries ---------------------------------------------------------------------------
    def current_player(self) -> np.ndarray:
        return np.where(self.phase == MOVE, self.mover, TERMINAL)

    def terminal(self) -> np.ndarray:
        return self.phase == OVER

    def seat_keys(self, seat: int) -> np.ndarray:
        """Each game's keys of ``seat`` as a 10-bit mask (bit k-1: key k up)."""
        shifted = self.keys >> np.uint64(KEY_BITS * seat)
        return (shifted & np.uint64(ALL_KEYS_UP)).astype(np.int64)

    def legal_bits(self) -> np.ndarray:
        """The legal moves of each game as bits of an integer (bit a: action a legal)."""
        bits = self._bits[self.index]
        bits = np.where(self.roll == ELEVEN, bits | self._attack_bits[self.mover], bits)
        return np.where(self.phase == MOVE, bits, 0)

    def _legal_mask(self) -> np.ndarray:
        shifts = np.arange(NUM_ACTIONS, dtype=np.int64)
        return (self.legal_bits()[:, None] >> shifts & 1).astype(bool)

    def sample_legal(self, uniform: np.ndarray) -> np.ndarray:
        index = self.index
        flips = self._counts[index]
        eleven = self.roll == ELEVEN
        count = flips + eleven * (self.num_players - 1)
        pick = (uniform * count).astype(np.int64)
        flip = self._moves[(index << 2) + np.minimum(pick, 3)]
        # Attacks follow the flips: the j-th opponent in seat order, the mover skipped.
        j = pick - flips
        attack = ATTACK + j + (j >= self.mover)
        return np.where(pick < flips, flip, attack)

    def ended_by_turn_cap(self) -> np.ndarray:
        return (self.phase == OVER) & (self.winner < 0)

    def returns(self) -> np.ndarray:
        n = self.num_players
        won = self.winner >= 0
        out = np.zeros((self.batch_size, n))
        out[won] = -1.0 / (n - 1)
        out[np.flatnonzero(won), self.winner[won]] = 1.0
        return out

    def observation_tensor(self, seat: int) -> np.ndarray:
        """Keys of each seat (observer first), mover, dice and phase, one-hot; float32."""
        self.check_seat(seat)
        n, b = self.num_players, self.batch_size
        size = n * KEY_BITS + n + ROLLS + len(ref.PHASES)
        tensor = np.zeros((b, size), dtype=np.float32)
        bits = np.arange(KEY_BITS, dtype=np.uint64)
        for offset in range(n):
            mask = self.keys >> np.uint64(KEY_BITS * ((seat + offset) % n))
            tensor[:, offset * KEY_BITS : (offset + 1) * KEY_BITS] = mask[:, None] >> bits & 1
        playing = np.flatnonzero((self.phase == ROLL) | (self.phase == MOVE))
        tensor[playing, n * KEY_BITS + (self.mover[playing] - seat) % n] = 1.0
        rolled = np.flatnonzero(self.roll >= 0)
        tensor[rolled, n * 11 + self.roll[rolled]] = 1.0
        tensor[self._all, n * 11 + ROLLS + self.phase] = 1.0
        return tensor
