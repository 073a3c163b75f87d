"""4-Way CountDown as a T-minus game: the roll-off, turns of two dice, flips, attacks, resets.

The action ids are in ``actions.py``; the words people read in ``words.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tminus.core.game import CHANCE, TERMINAL, Game, GameType, TurnState
from tminus.core.params import Param
from tminus.core.positions import check_each_in, check_in, check_length
from tminus.games.four_way import rules, why_not, words
from tminus.games.four_way.actions import (
    ATTACK,
    DICE,
    FLIP,
    NUM_ACTIONS,
    PASS,
    RESET,
    SCORE_KEYS,
    SCORE_MASKS,
    SCORE_PAIRS,
    move_to_string,
    move_to_struct,
)
from tminus.games.four_way.render import render
from tminus.games.four_way.rules import ALL_KEYS_UP, DOUBLE_SIX, ELEVEN
from tminus.games.phrasing import check_viewer

MAX_PLAYERS = 4

DICE_OUTCOMES = [(i, (1 if a == b else 2) / 36) for i, (a, b) in enumerate(DICE)]
DIE_OUTCOMES = [(face - 1, 1 / 6) for face in range(1, 7)]
KEYS_UP = [[k for k in rules.KEYS if mask & rules.key_bit(k)] for mask in range(1 << 10)]
DOUBLE_SIX_ROLL = DICE.index(DOUBLE_SIX)
ELEVEN_ROLL = DICE.index(ELEVEN)

PHASES = ("roll-off", "roll", "move", "over")
ROLL_OFF, ROLL, MOVE, OVER = range(4)


def moves_for_roll(junior: bool, roll: int, mask: int) -> tuple[int, ...]:
    """The flips (and the forced reset) a roll allows a player with keys ``mask``.

    Attacks on eleven depend on the seat, so ``FourWayState.legal_actions`` adds them.
    """
    a, b = DICE[roll]
    if (a, b) == DOUBLE_SIX:
        return (RESET,)  # "he must flip all of his keys back down and start over"
    if not junior:
        return tuple(FLIP + k - 1 for k in rules.adult_keys(a, b) if rules.is_down(mask, k))
    moves = [FLIP + k - 1 for k in rules.junior_single_keys(a, b) if rules.is_down(mask, k)]
    pair = rules.junior_score_keys(a, b)
    if pair is not None and rules.can_score_keys(mask, pair):
        moves.append(SCORE_KEYS + SCORE_PAIRS.index(pair))
    return tuple(moves)


MOVES_BY_VARIANT: dict[bool, list[tuple[int, ...] | None]] = {
    junior: [None] * (len(DICE) << 10) for junior in (False, True)
}


class FourWayGame(Game):
    name = "four_way"
    title = "4-Way CountDown"
    game_type = GameType()
    parameters = {
        "players": Param(2, "number of players", choices=(2, 3, 4)),
        "variant": Param("adult", "adult or junior rules", choices=("adult", "junior")),
        "max_turns": Param(
            5000, "rolls after which an unfinished game is a draw", minimum=1, maximum=10**7
        ),
    }

    observation_bounds = (0.0, 1.0)

    @classmethod
    def configurations(cls) -> list[dict[str, Any]]:
        return [{"players": n, "variant": v} for v in ("adult", "junior") for n in (2, 3, 4)]

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.num_players = self.params["players"]
        self.junior = self.params["variant"] == "junior"
        self.max_turns = self.params["max_turns"]
        self.num_distinct_actions = NUM_ACTIONS
        self.max_chance_outcomes = len(DICE)
        # Each roll (roll-off die or turn dice) is one chance node and at most one move.
        self.max_game_length = 2 * self.max_turns
        self.max_utility = 1.0
        self.min_utility = -1.0 / (self.num_players - 1)
        # Legal moves by (roll, keys mask), filled lazily: the hot path is a list lookup.
        # Shared by every game of the variant: a server makes a game for each table.
        self._moves_cache = MOVES_BY_VARIANT[self.junior]
        self.attacks_by_seat = [
            tuple(ATTACK + s for s in range(self.num_players) if s != seat)
            for seat in range(self.num_players)
        ]

    def new_initial_state(self) -> FourWayState:
        return FourWayState(self)

    def moves(self, roll: int, mask: int) -> tuple[int, ...]:
        index = (roll << 10) | mask
        moves = self._moves_cache[index]
        if moves is None:
            moves = self._moves_cache[index] = moves_for_roll(self.junior, roll, mask)
        return moves


class FourWayState(TurnState[FourWayGame]):
    __slots__ = (
        "_contenders",
        "_history",
        "_keys",
        "_mover",
        "_phase",
        "_player",
        "_roll",
        "_rolloff",
        "_turns",
        "_winner",
        "game",
    )  # fmt: skip
    # The seat to play follows from the phase and the mover.
    position_fields = (
        "keys", "phase", "mover", "roll", "turns", "contenders", "rolloff", "winner",
    )  # fmt: skip

    def __init__(self, game: FourWayGame) -> None:
        self.game = game
        self._history: list[int] = []
        # "Players press down all 10 keys on their sides."
        self._keys = [0] * game.num_players
        # "Players each roll one die to determine who goes first."
        self._phase = ROLL_OFF
        self._player = CHANCE
        self._mover = 0
        self._roll = -1
        self._turns = 0
        self._contenders = list(range(game.num_players))
        self._rolloff: list[int] = []
        self._winner = -1

    # -- whose turn ----------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._phase == ROLL:
            return list(DICE_OUTCOMES)
        if self._phase == ROLL_OFF:
            return list(DIE_OUTCOMES)
        return []

    def legal_actions(self) -> list[int]:
        if self._phase != MOVE:
            return []
        mover = self._mover
        moves = self.game.moves(self._roll, self._keys[mover])
        if self._roll == ELEVEN_ROLL:
            # "he may count it as a 1 ... OR as an 11": the attack is always there.
            return [*moves, *self.game.attacks_by_seat[mover]]
        # "A player with at least one option must take one; with none, the turn passes."
        return list(moves) if moves else [PASS]

    def is_legal(self, action: int) -> bool:
        phase = self._phase
        if phase == MOVE:
            return action in self.legal_actions()
        if phase == ROLL:
            return 0 <= action < len(DICE)
        if phase == ROLL_OFF:
            return 0 <= action < 6
        return False

    # -- rules, one per phase ------------------------------------------------------------
    def _apply(self, action: int) -> None:
        if self._phase == MOVE:
            self._move(action)
        elif self._phase == ROLL:
            self._roll_dice(action)
        else:
            self._roll_off(action)

    def _roll_off(self, face_index: int) -> None:
        """Highest roll begins; tied highest roll again."""
        self._turns += 1
        self._rolloff.append(face_index + 1)
        if len(self._rolloff) == len(self._contenders):
            best = max(self._rolloff)
            tied = [s for s, r in zip(self._contenders, self._rolloff, strict=True) if r == best]
            self._rolloff = []
            if len(tied) == 1:
                self._contenders = []
                self._mover = tied[0]
                self._phase = ROLL
            else:
                self._contenders = tied
        if self._turns >= self.game.max_turns:
            self._end_in_draw()

    def _roll_dice(self, roll: int) -> None:
        self._turns += 1
        self._roll = roll
        self._phase = MOVE
        self._player = self._mover

    def _move(self, action: int) -> None:
        mover = self._mover
        keys = self._keys
        if action < SCORE_KEYS:
            keys[mover] |= 1 << action
        elif action < ATTACK:
            keys[mover] |= SCORE_MASKS[action - SCORE_KEYS]
        elif action < PASS:
            # "make any opponent of his choice flip all of his keys back down"
            keys[action - ATTACK] = 0
        elif action == RESET:
            keys[mover] = 0
        if keys[mover] == ALL_KEYS_UP:
            # "The first player to flip up all 10 keys ... wins the game."
            self._winner = mover
            self._phase = OVER
            self._player = TERMINAL
        elif self._turns >= self.game.max_turns:
            self._end_in_draw()
        else:
            # "Play then moves to the left."
            self._mover = (mover + 1) % self.game.num_players
            self._roll = -1
            self._phase = ROLL
            self._player = CHANCE

    def _end_in_draw(self) -> None:
        self._phase = OVER
        self._player = TERMINAL

    # -- names ---------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if self._phase == ROLL_OFF and 0 <= action < 6:
            return f"die {action + 1}"
        if self._phase == ROLL and 0 <= action < len(DICE):
            a, b = DICE[action]
            return f"dice {a},{b}"
        return move_to_string(action)

    def action_to_struct(self, action: int) -> dict[str, Any]:
        if self._phase == ROLL_OFF and 0 <= action < 6:
            return {"kind": "die", "value": action + 1}
        if self._phase == ROLL and 0 <= action < len(DICE):
            return {"kind": "dice", "dice": list(DICE[action])}
        return move_to_struct(action)

    # -- words for people (``words.py``) --------------------------------------------------
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

    # -- results -------------------------------------------------------------------------
    def returns(self) -> list[float]:
        n = self.game.num_players
        if self._winner < 0:
            return [0.0] * n
        loss = -1.0 / (n - 1)
        return [1.0 if s == self._winner else loss for s in range(n)]

    def ended_by_turn_cap(self) -> bool:
        return self._phase == OVER and self._winner < 0

    def keys_up(self, seat: int) -> list[int]:
        return KEYS_UP[self._keys[seat]].copy()

    def keys_mask(self, seat: int) -> int:
        """The seat's keys as a 10-bit mask (bit k-1 set when key k is up)."""
        return self._keys[seat]

    def mover(self) -> int:
        """The seat whose turn it is (also while its dice are being rolled)."""
        return self._mover

    def phase(self) -> str:
        return PHASES[self._phase]

    def roll_off_standing(self) -> tuple[list[int], list[int]]:
        """(the seats rolling for who starts, in order; the dice they rolled so far)."""
        return list(self._contenders), list(self._rolloff)

    def dice(self) -> tuple[int, int] | None:
        return DICE[self._roll] if self._roll >= 0 else None

    # -- views (perfect information: every seat sees everything) -------------------------
    def public_observation(self) -> dict[str, Any]:
        game = self.game
        return {
            "game": game.name,
            "players": game.num_players,
            "variant": game.params["variant"],
            "phase": PHASES[self._phase],
            "current_player": self._player,
            "keys": [self.keys_up(s) for s in range(game.num_players)],
            "dice": list(DICE[self._roll]) if self._roll >= 0 else None,
            "roll_off": {"contenders": list(self._contenders), "rolls": list(self._rolloff)},
            "turn": self._turns,
            "max_turns": game.max_turns,
            "winner": self._winner if self._winner >= 0 else None,
        }

    def observation(self, seat: int) -> dict[str, Any]:
        self.check_seat(seat)
        return {"seat": seat, **self.public_observation()}

    def observation_tensor(self, seat: int) -> np.ndarray:
        """Keys of each seat (observer first), mover, dice and phase, one-hot; float32."""
        self.check_seat(seat)
        n = self.game.num_players
        tensor = np.zeros(n * 10 + n + len(DICE) + len(PHASES), dtype=np.float32)
        for offset in range(n):
            mask = self._keys[(seat + offset) % n]
            for bit in range(10):
                if mask >> bit & 1:
                    tensor[offset * 10 + bit] = 1.0
        if self._phase in (ROLL, MOVE):
            tensor[n * 10 + (self._mover - seat) % n] = 1.0
        if self._roll >= 0:
            tensor[n * 11 + self._roll] = 1.0
        tensor[n * 11 + len(DICE) + self._phase] = 1.0
        return tensor

    def render(
        self, seat: int | None = None, names: Sequence[str] | None = None, width: int | None = None
    ) -> str:
        return render(self, seat, names, width)

    def _after_set_up(self) -> None:
        phase = self._phase
        self._player = (
            CHANCE if phase in (ROLL_OFF, ROLL) else self._mover if phase == MOVE else TERMINAL
        )

    def _check_position(self) -> None:
        n = self.game.num_players
        seats = range(n)
        check_in("phase", self._phase, range(len(PHASES)))
        check_length("keys", self._keys, n)
        check_each_in("keys", self._keys, range(ALL_KEYS_UP + 1))
        check_in("mover", self._mover, seats)
        check_in("roll", self._roll, range(-1, len(DICE)))
        if self._phase == MOVE and self._roll < 0:
            raise ValueError("position field roll: a move needs the dice rolled")
        check_each_in("contenders", self._contenders, seats)
        if len(self._rolloff) > len(self._contenders):
            raise ValueError("position field rolloff: more rolls than contenders")
        check_each_in("rolloff", self._rolloff, range(1, 7))
        check_in("winner", self._winner, range(-1, n))
        check_in("turns", self._turns, range(self.game.max_turns + 1))

    def clone(self) -> FourWayState:
        copy = FourWayState.__new__(FourWayState)
        copy.game = self.game
        copy._history = self._history.copy()
        copy._keys = self._keys.copy()
        copy._phase = self._phase
        copy._player = self._player
        copy._mover = self._mover
        copy._roll = self._roll
        copy._turns = self._turns
        copy._contenders = self._contenders.copy()
        copy._rolloff = self._rolloff.copy()
        copy._winner = self._winner
        return copy

    def __str__(self) -> str:
        lines = [
            f"4-Way CountDown ({self.game.params['variant']}, {self.game.num_players} players), "
            f"{PHASES[self._phase]}, turn {self._turns}/{self.game.max_turns}"
        ]
        for seat in range(self.game.num_players):
            up = self._keys[seat]
            shown = " ".join(str(k) if up & rules.key_bit(k) else "." for k in rules.KEYS)
            lines.append(f"seat {seat}: {shown}")
        if self._phase == ROLL_OFF:
            lines.append(f"roll-off: seats {self._contenders} rolled {self._rolloff}")
        elif self._phase in (ROLL, MOVE):
            dice = self.dice()
            lines.append(f"seat {self._mover} to {PHASES[self._phase]}; dice {dice}")
        elif self._winner >= 0:
            lines.append(f"seat {self._winner} wins")
        else:
            lines.append("draw: the turn cap was reached")
        return "\n".join(lines)
