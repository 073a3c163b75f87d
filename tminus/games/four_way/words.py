"""4-Way CountDown in words: the buttons of a turn and the lines of the log.

"Alice rolls 2 and 4", "Alice flips 6", "Alice calls eleven and attacks Bob, whose keys all
go back down". Everything in this game is public, so every viewer reads the same line.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tminus.core.game import CHANCE
from tminus.games.four_way.actions import ATTACK, DICE, PASS, SCORE_KEYS, SCORE_PAIRS
from tminus.games.phrasing import (
    Said,
    applied,
    check_action,
    check_decision,
    check_names,
    ending,
    join,
    then,
)

if TYPE_CHECKING:
    from tminus.games.four_way.game import FourWayState


def move_label(state: FourWayState, action: int, names: Sequence[str]) -> str:
    check_names(state, names)
    check_decision(state, action)
    return said(state, action, names)[0]


def narrate(state: FourWayState, action: int, names: Sequence[str]) -> str:
    """The log line of ``action`` (nothing is hidden in this game)."""
    check_names(state, names)
    check_action(state, action)
    if state.current_player() == CHANCE:
        if state.phase() == "roll-off":
            return roll_off_die(state, action, names)
        return dice(state, action, names)
    return then(said(state, action, names)[1], game_end(state, action, names))


def said(state: FourWayState, action: int, names: Sequence[str]) -> Said:
    """A player's move, both ways: its button and its log line."""
    who = names[state.current_player()]
    if action < SCORE_KEYS:
        return flip(state, action + 1, who)
    if action < ATTACK:
        return score_keys(SCORE_PAIRS[action - SCORE_KEYS], who)
    if action < PASS:
        return attack(names[action - ATTACK], who)
    if action == PASS:
        return pass_turn(who)
    return reset(who)


def flip(state: FourWayState, key: int, who: str) -> Said:
    how = made_from(state, key)
    if not how:  # (a key these dice do not make: a move named only to ask why not)
        return f"Flip {key}", f"{who} flips {key}"
    return f"Flip {key} ({how})", f"{who} flips {key} ({how})"


def score_keys(keys: tuple[int, int], who: str) -> Said:
    """Junior SCORE KEYS: both dice's keys at once."""
    a, b = keys
    return f"Flip {a} and {b}", f"{who} flips {a} and {b}"


def attack(target: str, who: str) -> Said:
    """Eleven: "make any opponent of his choice flip all of his keys back down"."""
    return (
        f"Attack {target}",
        f"{who} calls eleven and attacks {target}, whose keys all go back down",
    )


def pass_turn(who: str) -> Said:
    return "Pass", f"{who} has no key to flip and passes"


def reset(who: str) -> Said:
    """Double six: "he must flip all of his keys back down and start over"."""
    return "Put every key down", f"{who} puts every key back down (double six)"


def roll_off_die(state: FourWayState, action: int, names: Sequence[str]) -> str:
    """ "Each player rolls one die": the roll, and once all have rolled, who starts."""
    contenders, rolls = state.roll_off_standing()
    roller = contenders[len(rolls)]
    line = f"{names[roller]} rolls {action + 1} to see who starts"
    if len(rolls) + 1 < len(contenders):
        return line
    after = applied(state, action)
    if after.is_terminal():
        return then(line, ending(after, names))
    if after.phase() == "roll-off":
        tied = after.roll_off_standing()[0]
        return then(line, f"{join_names(tied, names)} tie and roll again")
    return then(line, f"{names[after.mover()]} starts")


def dice(state: FourWayState, action: int, names: Sequence[str]) -> str:
    a, b = DICE[action]
    who = names[state.mover()]
    if (a, b) == (6, 6):
        return f"{who} rolls double six: every key must go back down"
    line = f"{who} rolls {b} and {a}" if (a, b) == (5, 6) else f"{who} rolls {a} and {b}"
    if (a, b) == (5, 6):
        return f"{line}: eleven"
    after = applied(state, action)
    if after.legal_actions() == [PASS]:
        return then(line, "no key can be flipped")
    return line


def made_from(state: FourWayState, key: int) -> str:
    """How the dice make ``key``: "2 + 4", "6 − 5", "2 × 4", "4 ÷ 2", or "double 3" (""
    when they do not make it)."""
    dice = state.dice()
    if dice is None:
        return "no dice rolled"
    low, high = sorted(dice)
    return made_with(low, high, key, state.game.junior)


@functools.cache  # (said at every flip a server narrates: 21 rolls, 10 keys, two rules)
def made_with(low: int, high: int, key: int, junior: bool) -> str:
    """How the dice ``low`` and ``high`` make ``key`` (see ``made_from``)."""
    ways: list[tuple[float, str]] = [(low + high, f"{low} + {high}")]
    if not junior:
        ways += [
            (high - low, f"{high} − {low}"),
            (low * high, f"{low} × {high}"),
            (high / low, f"{high} ÷ {low}"),
        ]
    made = next((text for value, text in ways if value == key), None)
    if made is None and low == high and key == low:
        return f"double {low}"  # the junior rule: one die of a double
    return made or ""


def game_end(state: FourWayState, action: int, names: Sequence[str]) -> str | None:
    after = applied(state, action)
    return ending(after, names) if after.is_terminal() else None


def join_names(seats: Sequence[int], names: Sequence[str]) -> str:
    return join([names[s] for s in seats])
