"""Why a move of 3-2-1 Countdown is not possible: the rule that forbids it, in words.

"You may declare Countdown! only when your hand totals 5 or less; yours totals 23", "If a
discard pile is empty, you must discard there". ``ThreeTwoOneState._why_not`` asks here
about an action of the game that is not legal for the player to move (``State.why_not``
has said what every game shares). A reason reads only what that player sees: their own
hand and what lies face up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tminus.games.phrasing import cards_of, join
from tminus.games.three_two_one import rules
from tminus.games.three_two_one.actions import (
    DECLARE_BLASTOFF,
    DECLARE_COUNTDOWN,
    DRAW_LEFT,
    DRAW_PILE,
    LEFT,
    PILE_NAMES,
    RIGHT,
    discard_parts,
)

if TYPE_CHECKING:
    from tminus.games.three_two_one.game import ThreeTwoOneState


def reason(state: ThreeTwoOneState, action: int, names: Sequence[str]) -> str | None:
    """The rule that forbids ``action`` in this part of the turn (None: no decision)."""
    phase = state.phase()
    if phase == "turn":
        return start_of_turn(state, action)
    if phase == "draw":
        return draw(state, action)
    return None


def chance_first(state: ThreeTwoOneState) -> str:
    phase = state.phase()
    if phase == "deal":
        return "The cards are being dealt: play starts once every hand is dealt."
    if phase == "turn up":
        return "The two discard piles are being turned up: play starts after that."
    return "The card drawn from the draw pile comes first."


# -- the start of a turn: declare, or discard ------------------------------------------------
def start_of_turn(state: ThreeTwoOneState, action: int) -> str | None:
    hand = own_hand(state)
    size = sum(hand)
    if action == DECLARE_COUNTDOWN:
        return single_card() if size == 1 else countdown_needs_five_or_less(hand)
    if action == DECLARE_BLASTOFF:
        return blastoff_needs_one_number(hand)
    if action >= DRAW_LEFT:
        return discard_first()
    value, count, pile = discard_parts(action)
    if size == 1:
        return single_card()
    if count > hand[value]:
        return only_cards_in_hand(hand, value, count)
    if count >= size:
        return never_the_last_card(hand, size)
    return empty_pile_first(state, pile)


def single_card() -> str:
    """Ruling: with a single card left no discard is possible, so Blastoff! is the only move."""
    return (
        "With a single card left no discard is possible (your last card is never "
        "discarded): declare Blastoff!"
    )


def countdown_needs_five_or_less(hand: list[int]) -> str:
    """ "If the face value of a player's hand totals 5 or less, they can ... declare
    'Countdown!'" """
    return (
        f"You may declare Countdown! only when your hand totals "
        f"{rules.COUNTDOWN_LIMIT} or less; yours totals {rules.hand_total(hand)}."
    )


def blastoff_needs_one_number(hand: list[int]) -> str:
    """ "If a player's hand consists entirely of cards with the same number, they can
    discard their entire hand and declare 'Blastoff!'" """
    numbers = [str(value) for value, count in enumerate(hand) if count]
    return (
        "You may declare Blastoff! only when every card in your hand shows the same "
        f"number; yours shows {join(numbers)}."
    )


def discard_first() -> str:
    """ "A turn has two actions: 1. Discard at least one card ... 2. Draw a card" """
    return (
        "First discard at least one card; then draw, from the other discard pile or the draw pile."
    )


def only_cards_in_hand(hand: list[int], value: int, count: int) -> str:
    if not hand[value]:
        return f"You have no {value}s in your hand to discard."
    held, asked = cards_of(value, hand[value]), cards_of(value, count)
    return f"You have only {held}: you cannot discard {asked}."


def never_the_last_card(hand: list[int], size: int) -> str:
    """Ruling: never your last card: emptying your hand is Blastoff! only."""
    instead = " (declare it instead)" if rules.can_blastoff(hand, size) else ""
    return f"You may never discard your last card: emptying your hand is Blastoff! only{instead}."


def empty_pile_first(state: ThreeTwoOneState, pile: int) -> str | None:
    """ "If a discard pile is empty, they must discard there." """
    other = RIGHT if pile == LEFT else LEFT
    if state.discard_piles()[other]:
        return None
    return (
        f"If a discard pile is empty, you must discard there: the {PILE_NAMES[other]} pile "
        "is empty."
    )


# -- the draw -----------------------------------------------------------------------------
def draw(state: ThreeTwoOneState, action: int) -> str | None:
    """ "Draw a card from the other discard pile -or- risk drawing from the top of the draw
    pile." """
    if action in (DECLARE_COUNTDOWN, DECLARE_BLASTOFF):
        return "Countdown! and Blastoff! are declared at the start of a turn, before discarding."
    if action < DRAW_LEFT:
        return "You have discarded this turn: now draw a card."
    other = 1 - state._discarded_on
    if action == DRAW_PILE:
        return (
            "The draw pile is empty and there is nothing to shuffle into it: take the top "
            f"card of the {PILE_NAMES[other]} pile."
        )
    if action - DRAW_LEFT != other:
        return (
            f"Draw from the other discard pile: you have just discarded on the "
            f"{PILE_NAMES[1 - other]} pile."
        )
    return f"The {PILE_NAMES[other]} discard pile is empty: draw from the draw pile."


# -- what the player sees ---------------------------------------------------------------------
def own_hand(state: ThreeTwoOneState) -> list[int]:
    """The hand of the player to move, a count of each value (theirs to see)."""
    hand = [0] * len(rules.VALUES)
    for value in state.hand(state.current_player()):
        hand[value] += 1
    return hand
