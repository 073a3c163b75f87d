"""3-2-1 Countdown in words: the buttons of a turn and the lines of the log.

A dealt or drawn card is named only to the player who gets it: Dave reads "Dave is dealt
a 7", everyone else "A card is dealt to Dave". Everything else happens face up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tminus.core.game import CHANCE
from tminus.games.phrasing import (
    Said,
    a_number,
    cards_of,
    check_action,
    check_decision,
    check_names,
    check_viewer,
)
from tminus.games.three_two_one.actions import (
    DECLARE_COUNTDOWN,
    DRAW_LEFT,
    DRAW_PILE,
    PILE_NAMES,
    discard_parts,
)

if TYPE_CHECKING:
    from tminus.games.three_two_one.game import ThreeTwoOneState


def move_label(state: ThreeTwoOneState, action: int, names: Sequence[str]) -> str:
    check_names(state, names)
    check_decision(state, action)
    return said(state, action, names)[0]


def narrate(
    state: ThreeTwoOneState,
    action: int,
    names: Sequence[str],
    viewer: int | None,
    reveal: bool,
) -> str:
    check_names(state, names)
    check_viewer(state, viewer)
    check_action(state, action)
    if state.current_player() == CHANCE:
        phase = state.phase()
        if phase == "deal":
            return deal(state, action, names, viewer, reveal)
        if phase == "turn up":
            return turn_up(state, action)
        return card_drawn(state, action, names, viewer, reveal)
    return said(state, action, names)[1]


def said(state: ThreeTwoOneState, action: int, names: Sequence[str]) -> Said:
    """A player's move, both ways: its button and its log line (moves are all face up)."""
    who = names[state.current_player()]
    if action < DRAW_LEFT:
        return discard(*discard_parts(action), who)
    if action < DRAW_PILE:
        return take(state, action - DRAW_LEFT, who)
    if action == DRAW_PILE:
        return draw_from_pile(state, who)
    return declare("Countdown!" if action == DECLARE_COUNTDOWN else "Blastoff!", who)


def discard(value: int, count: int, pile: int, who: str) -> Said:
    """ "Discard at least one card onto either discard pile", a set of one number."""
    cards, onto = cards_of(value, count), f"on the {PILE_NAMES[pile]} pile"
    return f"Discard {cards} {onto}", f"{who} discards {cards} {onto}"


def take(state: ThreeTwoOneState, pile: int, who: str) -> Said:
    """The top card of the other discard pile, seen by all."""
    card, source = top_card(state, pile), f"from the {PILE_NAMES[pile]} pile"
    return f"Take {card} {source}", f"{who} takes {card} {source}"


def draw_from_pile(state: ThreeTwoOneState, who: str) -> Said:
    line = f"{who} draws from the draw pile"
    if not any(state.draw_pile_counts()):
        # The reshuffle happens now, when a card must come from the empty pile.
        line += (
            ": it is empty, so both discard piles but their top cards are shuffled into a new one"
        )
    return "Draw from the draw pile", line


def declare(declaration: str, who: str) -> Said:
    return f"Declare {declaration}", f"{who} declares {declaration}"


def deal(
    state: ThreeTwoOneState,
    value: int,
    names: Sequence[str],
    viewer: int | None,
    reveal: bool,
) -> str:
    """ "Shuffle and deal": the card's value only for the player who gets it."""
    seat = state.next_recipient()
    assert seat is not None, "a card is dealt only while dealing"
    if reveal or viewer == seat:
        return f"{names[seat]} is dealt {a_number(value)}"
    return f"A card is dealt to {names[seat]}"


def turn_up(state: ThreeTwoOneState, value: int) -> str:
    """ "Flip the top two cards face up, one on either side"."""
    pile = "right" if state.discard_piles()[0] else "left"
    return f"{a_number(value).capitalize()} is turned up to start the {pile} pile"


def card_drawn(
    state: ThreeTwoOneState,
    value: int,
    names: Sequence[str],
    viewer: int | None,
    reveal: bool,
) -> str:
    """The card from the draw pile: its value only for the player who draws it."""
    seat = state.mover()
    if reveal or viewer == seat:
        return f"{names[seat]} draws {a_number(value)}"
    return f"{names[seat]} draws a card"


def top_card(state: ThreeTwoOneState, pile: int) -> str:
    cards = state.discard_piles()[pile]
    return f"the {cards[-1]}" if cards else "the top card"
