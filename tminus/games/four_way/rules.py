"""4-Way CountDown: what a roll of two dice lets a player do, as the rulebook says it.

Pure functions of the dice and the player's keys; the state machine is in ``game.py``.
Keys are numbered 1 to 10; a player's keys are a 10-bit mask, bit k-1 set when key k is up.
"""

from __future__ import annotations

KEYS = range(1, 11)
ALL_KEYS_UP = (1 << 10) - 1
DOUBLE_SIX = (6, 6)
ELEVEN = (5, 6)


def key_bit(key: int) -> int:
    return 1 << (key - 1)


def is_down(mask: int, key: int) -> bool:
    return not mask & key_bit(key)


def adult_keys(a: int, b: int) -> list[int]:
    """Keys a roll can flip in the adult game: a+b, the difference, a×b, an exact quotient.

    "The two numbers rolled must be converted into one number": only keys 1 to 10 exist,
    so 5 and 3 give just 8 and 2.
    """
    low, high = sorted((a, b))
    candidates = {low + high, high - low, low * high}
    if high % low == 0:
        candidates.add(high // low)
    return sorted(k for k in candidates if 1 <= k <= 10)


def junior_single_keys(a: int, b: int) -> list[int]:
    """Junior keys flipped alone: the sum; with a double, the die's number as well.

    "Players must use both numbers rolled on a turn except when a double is rolled."
    """
    keys = {a + b} if a + b <= 10 else set()
    if a == b:
        keys.add(a)
    return sorted(keys)


def junior_score_keys(a: int, b: int) -> tuple[int, int] | None:
    """SCORE KEYS: flip both dice's keys at once (not for a double: that is one key)."""
    return None if a == b else (min(a, b), max(a, b))


def can_score_keys(mask: int, pair: tuple[int, int]) -> bool:
    """Both keys must be down: "both dice must be used"."""
    return is_down(mask, pair[0]) and is_down(mask, pair[1])
