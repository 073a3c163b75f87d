"""3-2-1 Countdown's action ids.

Action ids (player):  0-263  discard k cards of value v onto pile p:  (v * 12 + k - 1) * 2 + p
                      264 draw left | 265 draw right | 266 draw pile | 267 countdown | 268 blastoff
Chance outcome ids:   0-10   a card of that value, from the (unordered) draw pile, with
                             probability (copies left) / (cards left): every dealt card,
                             the two cards turned up to start the discard piles, every draw.
"""

from __future__ import annotations

from typing import Any

from tminus.games.three_two_one.rules import VALUES

MAX_SET = 12  # at most 12 cards of one value can be in a hand (there are 12 fives)
LEFT, RIGHT = 0, 1
PILE_NAMES = ("left", "right")
DRAW_LEFT = 2 * len(VALUES) * MAX_SET  # 264
DRAW_RIGHT = DRAW_LEFT + 1
DRAW_PILE = DRAW_LEFT + 2
DECLARE_COUNTDOWN = DRAW_LEFT + 3
DECLARE_BLASTOFF = DRAW_LEFT + 4
NUM_ACTIONS = DRAW_LEFT + 5


def discard_action(value: int, count: int, pile: int) -> int:
    return (value * MAX_SET + count - 1) * 2 + pile


def discard_parts(action: int) -> tuple[int, int, int]:
    """(value, count, pile) of a discard action."""
    index, pile = divmod(action, 2)
    value, count = divmod(index, MAX_SET)
    return value, count + 1, pile


def move_to_struct(action: int) -> dict[str, Any]:
    """A player's move as data: the cards discarded and where, where a card is drawn from."""
    if 0 <= action < DRAW_LEFT:
        value, count, pile = discard_parts(action)
        return {"kind": "discard", "value": value, "count": count, "pile": PILE_NAMES[pile]}
    if action in (DRAW_LEFT, DRAW_RIGHT, DRAW_PILE):
        return {"kind": "draw", "from": ("left", "right", "pile")[action - DRAW_LEFT]}
    if action in (DECLARE_COUNTDOWN, DECLARE_BLASTOFF):
        return {"kind": "declare", "call": move_to_string(action)}
    raise ValueError(f"no 3-2-1 Countdown action {action}; actions are 0 to {NUM_ACTIONS - 1}")


def move_to_string(action: int) -> str:
    if 0 <= action < DRAW_LEFT:
        value, count, pile = discard_parts(action)
        return f"discard {','.join([str(value)] * count)} {PILE_NAMES[pile]}"
    names = {
        DRAW_LEFT: "draw left",
        DRAW_RIGHT: "draw right",
        DRAW_PILE: "draw pile",
        DECLARE_COUNTDOWN: "countdown",
        DECLARE_BLASTOFF: "blastoff",
    }
    if action not in names:
        raise ValueError(f"no 3-2-1 Countdown action {action}; actions are 0 to {NUM_ACTIONS - 1}")
    return names[action]
