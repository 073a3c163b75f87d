"""Small pieces of English that every game's words module shares.

A game's ``words.py`` says its moves to people: ``move_label`` (a button) and ``narrate``
(a log line naming who did it). Names are opaque strings chosen by people (or marks the
server replaces later): they are used whole, never changed, pluralised or parsed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from rich.markup import escape

if TYPE_CHECKING:
    from tminus.core.game import Game, State

S = TypeVar("S", bound="State[Game]")

# A player's move said both ways: (its button, its log line).
Said = tuple[str, str]

NUMBER_WORDS = (
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
)  # fmt: skip


def check_names(state: State[Game], names: Sequence[str]) -> None:
    """One name per seat, each a string: anything else is a clear error."""
    n = state.game.num_players
    if isinstance(names, str) or len(names) < n:
        raise ValueError(f"name every seat: {n} names are needed, got {names!r}")
    for name in names[:n]:
        if not isinstance(name, str):
            raise ValueError(f"a name is a string, not {name!r}")


def check_viewer(state: State[Game], viewer: int | None) -> None:
    """A viewer is a seat of the game, or None for a spectator."""
    if viewer is not None:
        state.check_seat(viewer)


def check_decision(state: State[Game], action: int) -> None:
    """``move_label`` is asked only where a player decides, of an action in range."""
    if state.current_player() < 0:
        raise ValueError(f"no move to label: nobody decides here (action {action})")
    check_action(state, action)


def check_action(state: State[Game], action: int) -> None:
    size = state.game.num_distinct_actions
    if isinstance(action, bool) or not 0 <= action < size:
        raise ValueError(f"no {state.game.title} action {action!r}: actions are 0 to {size - 1}")


def join(parts: Sequence[str]) -> str:
    """ "Alice", "Alice and Bob", "Alice, Bob and Carol"."""
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def count_word(count: int) -> str:
    """A small count in words ("three"), larger ones in figures."""
    return NUMBER_WORDS[count] if 0 <= count < len(NUMBER_WORDS) else str(count)


def a_number(value: int) -> str:
    """ "a 7", "an 8", "an 11": a number as a noun with its article."""
    spoken = str(value)
    return f"an {spoken}" if spoken.startswith("8") or value in (11, 18) else f"a {spoken}"


def cards_of(value: int, count: int) -> str:
    """ "a 7", "two 7s"."""
    return a_number(value) if count == 1 else f"{count_word(count)} {value}s"


def ending(after: State[Game], names: Sequence[str]) -> str:
    """What the game's end says, once ``after`` is over: "Alice wins", or a draw."""
    if after.ended_by_turn_cap():
        return "the turn limit ends the game in a draw"
    returns = after.returns()
    best = max(returns)
    winners = [names[s] for s, r in enumerate(returns) if r == best]
    if len(winners) == len(returns) and len(winners) > 1:
        return f"{join(winners)} share the win"
    return f"{join(winners)} {'wins' if len(winners) == 1 else 'win'} the game"


def then(sentence: str, consequence: str | None) -> str:
    """A sentence with what followed from it: "Alice flips 10: Alice wins the game"."""
    return f"{sentence}: {consequence}" if consequence else sentence


def applied(state: S, action: int) -> S:
    """The state after ``action`` (on a copy): what followed, when the engine knows it now."""
    after = state.clone()
    after.apply_action(action)  # an illegal action: IllegalActionError, nothing changed
    return after


def seat_labels(state: State[Game], seat: int | None, names: Sequence[str] | None) -> list[str]:
    """What a board drawn for a terminal calls each seat (plain text: escape it for Rich):
    the names given, or without names "you" and "seat N" as programs number them."""
    n = state.game.num_players
    if names is None:
        return ["you" if s == seat else f"seat {s}" for s in range(n)]
    check_names(state, names)
    return list(names[:n])


def piece_marks(state: State[Game], names: Sequence[str] | None) -> list[str]:
    """How a board marks each seat's piece: players are numbered from 1 for people (with
    names), from 0 as programs number seats (without)."""
    first = 0 if names is None else 1
    return [str(s + first) for s in range(state.game.num_players)]


def board_name(label: str, yours: bool, width: int = 0) -> str:
    """A player's name on a board (Rich markup): escaped, padded, in bold for the viewer."""
    text = escape(label.ljust(width))
    return f"[bold]{text}[/]" if yours else text
