"""Why a move of 4-Way CountDown is not possible: the rule that forbids it, in words.

"Key 6 is already up", "The dice show 5 and 3: they make key 8 (3 + 5) or key 2 (5 − 3),
not key 6", "Both numbers must be used ...". ``FourWayState._why_not`` asks here about an
action of the game that is not legal for the player to move (``State.why_not`` has said
what every game shares: the game is over, the dice are still to be rolled).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tminus.games.four_way import rules
from tminus.games.four_way.actions import ATTACK, PASS, RESET, SCORE_KEYS, SCORE_PAIRS
from tminus.games.four_way.rules import DOUBLE_SIX, ELEVEN
from tminus.games.four_way.words import made_from

if TYPE_CHECKING:
    from tminus.games.four_way.game import FourWayState


def reason(state: FourWayState, action: int, names: Sequence[str]) -> str | None:
    """The rule that forbids ``action`` after this roll (None: no decision is asked)."""
    dice = state.dice()
    if state.phase() != "move" or dice is None:
        return None
    if dice == DOUBLE_SIX:
        return double_six_resets()  # the only move, so every other one is refused
    if action < SCORE_KEYS:
        return flip(state, action + 1)
    if action < ATTACK:
        return score_keys(state, SCORE_PAIRS[action - SCORE_KEYS])
    if action < PASS:
        return attack(state, action - ATTACK, names)
    if action == PASS:
        return must_take_an_option()
    if action == RESET:
        return reset_only_on_double_six(dice)
    return None


def chance_first(state: FourWayState) -> str:
    if state.phase() == "roll-off":
        return "Nobody moves yet: each player rolls one die to see who starts."
    return "The dice are rolled first: nobody moves before the roll."


# -- one function per rule ------------------------------------------------------------------
def double_six_resets() -> str:
    """ "If a player rolls a double six he must flip all of his keys back down"."""
    return (
        "A double six means you must flip all your keys back down and start over: "
        "nothing else is allowed on that roll."
    )


def already_up(key: int) -> str:
    return f"Key {key} is already up: only a key that is still down can be flipped."


def flip(state: FourWayState, key: int) -> str:
    """One key: one the dice make (adult), the sum or a double's number (junior), and down."""
    a, b = dice_of(state)
    junior = state.game.junior
    made = rules.junior_single_keys(a, b) if junior else rules.adult_keys(a, b)
    if key in made:
        return already_up(key)  # made by the dice, so it is up (else it would be legal)
    if junior and key in (a, b):
        return both_numbers_used(state, key)
    return not_made_by_the_dice(state, f"key {key}")


def both_numbers_used(state: FourWayState, key: int) -> str:
    """Junior: "Players must use both numbers rolled on a turn except when a double is
    rolled": 3 and 5 flip key 8, or 3 and 5 together, never 5 alone."""
    a, b = dice_of(state)
    return (
        f"Both numbers must be used (junior rules): with {a} and {b} flip "
        f"{or_join(options(state, attack=False))}, never key {key} alone."
    )


def score_keys(state: FourWayState, pair: tuple[int, int]) -> str:
    """Junior SCORE KEYS: the keys of both dice at once, both still down."""
    if not state.game.junior:
        return (
            "Flipping two keys at once is the junior rule (score keys): in the adult game "
            "the two numbers make one key."
        )
    a, b = dice_of(state)
    if a == b:
        return (
            f"A double is used as one number: two {a}s flip "
            f"{or_join(options(state, attack=False))}, not two keys."
        )
    if pair != (a, b):
        return not_made_by_the_dice(state, f"keys {pair[0]} and {pair[1]}")
    up = [k for k in pair if not rules.is_down(state.keys_mask(state.mover()), k)]
    which = f"key {up[0]} is" if len(up) == 1 else f"keys {a} and {b} are"
    return f"Both numbers must be used: {which} already up, so {a} and {b} cannot be flipped."


def not_made_by_the_dice(state: FourWayState, what: str) -> str:
    """ "The two numbers rolled must be converted into one number" by the allowed ways."""
    a, b = dice_of(state)
    return f"The dice show {a} and {b}: they allow {or_join(options(state))}, not {what}."


def attack(state: FourWayState, target: int, names: Sequence[str]) -> str:
    """ "If a player rolls a 6 and a 5 ... the player may make any opponent of his choice
    flip all of his keys back down." """
    players = state.game.num_players
    if target >= players:
        return f"This game has {players} players: there is no one to attack there."
    if target == state.mover():
        return "You cannot attack yourself: an eleven sends an opponent's keys back down."
    a, b = dice_of(state)
    return (
        f"An attack needs an eleven (a 6 and a 5); the dice show {a} and {b}, "
        f"so {names[target]} cannot be attacked."
    )


def must_take_an_option() -> str:
    """Ruling: a player with at least one option must take one; with none, the turn passes."""
    return (
        "A player with an option must take one: you may pass only when the dice give "
        "you no key to flip."
    )


def reset_only_on_double_six(dice: tuple[int, int]) -> str:
    a, b = dice
    return f"All your keys go back down only on a double six; the dice show {a} and {b}."


# -- what the dice allow ----------------------------------------------------------------------
def options(state: FourWayState, attack: bool = True) -> list[str]:
    """What the roll allows whatever the keys: "key 8 (3 + 5)", "keys 3 and 5 together",
    "an attack (eleven)"."""
    a, b = dice_of(state)
    if state.game.junior:
        found = [f"key {k} ({made_from(state, k)})" for k in rules.junior_single_keys(a, b)]
        pair = rules.junior_score_keys(a, b)
        if pair is not None:
            found.append(f"keys {pair[0]} and {pair[1]} together")
    else:
        found = [f"key {k} ({made_from(state, k)})" for k in rules.adult_keys(a, b)]
    if attack and (a, b) == ELEVEN:
        found.append("an attack on an opponent (eleven)")
    return found


def dice_of(state: FourWayState) -> tuple[int, int]:
    dice = state.dice()
    assert dice is not None, "asked about a move before the dice were rolled"
    return dice


def or_join(parts: Sequence[str]) -> str:
    """ "a", "a or b", "a, b or c"."""
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} or {parts[-1]}"
