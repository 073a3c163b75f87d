"""4-Way CountDown's action ids and the dice they are rolled with.

Action ids (player):   0-9 flip key 1-10 | 10-24 flip two keys (junior SCORE KEYS)
                       25-28 attack seat 0-3 | 29 pass | 30 reset (forced after double six)
Chance outcome ids:    roll-off: 0-5 = one die showing 1-6
                       turn:     0-20 = two dice, unordered (a <= b), see ``DICE``
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from tminus.games.four_way import rules

FLIP = 0
SCORE_KEYS = 10
ATTACK = 25
PASS = 29
RESET = 30
NUM_ACTIONS = 31

DICE = [(a, b) for a in range(1, 7) for b in range(a, 7)]  # 21 unordered rolls of two dice
SCORE_PAIRS = list(combinations(range(1, 7), 2))  # 15 pairs of different faces
SCORE_MASKS = [rules.key_bit(a) | rules.key_bit(b) for a, b in SCORE_PAIRS]


def move_to_struct(action: int) -> dict[str, Any]:
    """A player's move as data: which keys it flips, whom it attacks."""
    if FLIP <= action < SCORE_KEYS:
        return {"kind": "flip", "keys": [action - FLIP + 1]}
    if SCORE_KEYS <= action < ATTACK:
        return {"kind": "flip", "keys": list(SCORE_PAIRS[action - SCORE_KEYS])}
    if ATTACK <= action < PASS:
        return {"kind": "attack", "seat": action - ATTACK}
    if action in (PASS, RESET):
        return {"kind": move_to_string(action)}
    raise ValueError(f"no 4-Way CountDown action {action}; actions are 0 to {NUM_ACTIONS - 1}")


def move_to_string(action: int) -> str:
    if FLIP <= action < SCORE_KEYS:
        return f"flip {action - FLIP + 1}"
    if SCORE_KEYS <= action < ATTACK:
        a, b = SCORE_PAIRS[action - SCORE_KEYS]
        return f"flip {a}+{b}"
    if ATTACK <= action < PASS:
        return f"attack seat {action - ATTACK}"
    if action == PASS:
        return "pass"
    if action == RESET:
        return "reset"
    raise ValueError(f"no 4-Way CountDown action {action}; actions are 0 to {NUM_ACTIONS - 1}")
