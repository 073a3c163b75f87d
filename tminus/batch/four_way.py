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
from tminus.games.four_way.rules import ALL_KEYS_UP

KEY_BITS = 10
ROLLS = len(ref.DICE)
ROLL_OFF, ROLL, MOVE, OVER = ref.ROLL_OFF, ref.ROLL, ref.MOVE, ref.OVER
ELEVEN = ref.ELEVEN_ROLL
# Two ordered dice (36 equally likely) -> the unordered roll's chance outcome id.
DICE_OF_36 = np.array(
    [ref.DICE.index((min(a, b), max(a, b))) for a in range(1, 7) for b in range(1, 7)],
    dtype=np.int64,
)


@cache
def move_tables(junior: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """By ``roll << 10 | keys``: the legal moves as bits of a word, their count, and the
    moves themselves (padded with -1). Attacks on eleven depend on the seat and are added
    apart; so the eleven's row holds only its flips, with no pass."""
    bits = np.zeros(ROLLS << KEY_BITS, dtype=np.int64)
    counts = np.zeros(ROLLS << KEY_BITS, dtype=np.int64)
    moves = np.full((ROLLS << KEY_BITS, 4), -1, dtype=np.int64)
    for roll in range(ROLLS):
        for keys in range(1 << KEY_BITS):
            row = ref.moves_for_roll(junior, roll, keys)
            if not row and roll != ELEVEN:
                row = (ref.PASS,)
            index = roll << KEY_BITS | keys
            bits[index] = sum(1 << a for a in row)
            counts[index] = len(row)
            moves[index, : len(row)] = row
    return bits, counts, moves


@cache
def action_masks(players: int) -> tuple[np.ndarray, np.ndarray]:
    """By ``mover * NUM_ACTIONS + action``: what to OR into and AND with the packed keys."""
    full = (1 << (KEY_BITS * players)) - 1
    ors = np.zeros(players * ref.NUM_ACTIONS, dtype=np.uint64)
    ands = np.full(players * ref.NUM_ACTIONS, full, dtype=np.uint64)
    for mover in range(players):
        shift = KEY_BITS * mover
        for action in range(ref.NUM_ACTIONS):
            index = mover * ref.NUM_ACTIONS + action
            if action < ref.SCORE_KEYS:
                ors[index] = 1 << (action + shift)
            elif action < ref.ATTACK:
                ors[index] = ref.SCORE_MASKS[action - ref.SCORE_KEYS] << shift
            elif action < ref.PASS:
                target = action - ref.ATTACK
                if target < players:
                    ands[index] = full & ~(ALL_KEYS_UP << (KEY_BITS * target))
            elif action == ref.RESET:
                ands[index] = full & ~(ALL_KEYS_UP << shift)
    return ors, ands


class FourWayBatch(BatchEnv):
    name = "four_way"

    def _allocate(self) -> None:
        b, n = self.batch_size, self.num_players
        self.junior = self.game.junior
        self.max_turns = self.game.max_turns
        self._bits, self._counts, self._moves = move_tables(self.junior)
        self._ors, self._ands = action_masks(n)
        self._attack_bits = np.array(
            [sum(1 << a for a in self.game.attacks_by_seat[s]) for s in range(n)], np.int64
        )
        self._next = np.array([(s + 1) % n for s in range(n)], dtype=np.int64)
        self._shift = np.arange(n, dtype=np.uint64) * np.uint64(KEY_BITS)
        self.keys = np.zeros(b, dtype=np.uint64)  # seat s's keys at bits 10s..10s+9
        self.mover = np.zeros(b, dtype=np.int64)
        self.roll = np.full(b, -1, dtype=np.int64)
        self.phase = np.zeros(b, dtype=np.int8)
        self.turns = np.zeros(b, dtype=np.int64)
        self.winner = np.full(b, -1, dtype=np.int8)

    def state_arrays(self) -> dict[str, np.ndarray]:
        return {
            "keys": self.keys,
            "mover": self.mover,
            "roll": self.roll,
            "phase": self.phase,
            "turns": self.turns,
            "winner": self.winner,
        }

    # -- the start: keys down, the roll-off, the first roll ------------------------------------
    def _start(self, games: np.ndarray) -> None:
        self.keys[games] = 0
        self.roll[games] = -1
        self.turns[games] = 0
        self.winner[games] = -1
        self.phase[games] = ROLL_OFF
        self._roll_off(games)

    def _roll_off(self, games: np.ndarray) -> None:
        """Every contender rolls one die, in seat order; highest starts, tied highest again.

        Each die is one chance node and counts against the turn cap."""
        n = self.num_players
        contenders = np.ones((len(games), n), dtype=bool)
        pending = np.ones(len(games), dtype=bool)
        faces = np.zeros((len(games), n), dtype=np.int64)
        while pending.any():
            for seat in range(n):
                rolling = np.flatnonzero(pending & contenders[:, seat])
                if len(rolling) == 0:
                    continue
                face = self.rng.integers(1, 7, size=len(rolling))
                faces[rolling, seat] = face
                where = games[rolling]
                self.turns[where] += 1
                self._record(where, face - 1)
                capped = rolling[self.turns[where] >= self.max_turns]
                pending[capped] = False
                self.phase[games[capped]] = OVER
            best = np.where(contenders, faces, 0).max(axis=1)
            contenders &= faces == best[:, None]
            single = pending & (contenders.sum(axis=1) == 1)
            self.mover[games[single]] = np.argmax(contenders[single], axis=1)
            pending &= ~single
        started = games[self.phase[games] == ROLL_OFF]
        self._roll_dice(started)

    def _roll_dice(self, games: np.ndarray) -> None:
        """Two dice for the mover: one chance node, one turn."""
        roll = DICE_OF_36[self.rng.integers(0, 36, size=len(games))]
        self.roll[games] = roll
        self.turns[games] += 1
        self.phase[games] = MOVE
        self._record(games, roll)

    # -- a move, for every game at once ----------------------------------------------------------
    def _apply(self, actions: np.ndarray, active: np.ndarray) -> None:
        mover = self.mover
        index = mover * ref.NUM_ACTIONS + actions
        moved = (self.keys | self._ors[index]) & self._ands[index]
        keys = np.where(active, moved, self.keys)
        self.keys = keys
        own = (keys >> self._shift[mover]) & np.uint64(ALL_KEYS_UP)
        # "The first player to flip up all 10 keys ... wins the game."
        won = active & (own == ALL_KEYS_UP)
        capped = active & ~won & (self.turns >= self.max_turns)
        going_on = active & ~won & ~capped
        self.winner[won] = mover[won]
        self.phase[won | capped] = OVER
        played = np.flatnonzero(active)
        self._record(played, actions[played])
        # "Play then moves to the left", and the next player rolls.
        self.mover = np.where(going_on, self._next[mover], mover)
        self._roll_dice(np.flatnonzero(going_on))

    # -- queries ------------------------------------------------------------------------------------
    def current_player(self) -> np.ndarray:
        return np.where(self.phase == MOVE, self.mover, TERMINAL)

    def terminal(self) -> np.ndarray:
        return self.phase == OVER

    def mover_keys(self) -> np.ndarray:
        return ((self.keys >> self._shift[self.mover]) & np.uint64(ALL_KEYS_UP)).astype(np.int64)

    def seat_keys(self, seat: int) -> np.ndarray:
        return ((self.keys >> np.uint64(KEY_BITS * seat)) & np.uint64(ALL_KEYS_UP)).astype(
            np.int64
        )

    def _table_index(self) -> np.ndarray:
        return np.maximum(self.roll, 0) << KEY_BITS | self.mover_keys()

    def legal_bits(self) -> np.ndarray:
        """The legal moves of each game as bits of an integer (bit a: action a legal)."""
        bits = self._bits[self._table_index()]
        bits = np.where(self.roll == ELEVEN, bits | self._attack_bits[self.mover], bits)
        return np.where(self.phase == MOVE, bits, 0)

    def _legal_mask(self) -> np.ndarray:
        shifts = np.arange(ref.NUM_ACTIONS, dtype=np.int64)
        return (self.legal_bits()[:, None] >> shifts & 1).astype(bool)

    def sample_legal(self, uniform: np.ndarray) -> np.ndarray:
        index = self._table_index()
        flips = self._counts[index]
        eleven = self.roll == ELEVEN
        count = flips + np.where(eleven, self.num_players - 1, 0)
        pick = (uniform * count).astype(np.int64)
        flip = self._moves[index, np.minimum(pick, 3)]
        # Attacks follow the flips: the j-th opponent in seat order, the mover skipped.
        j = pick - flips
        attack = ref.ATTACK + j + (j >= self.mover)
        chosen = np.where(pick < flips, flip, attack)
        return np.where(self.phase == MOVE, chosen, 0)

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
