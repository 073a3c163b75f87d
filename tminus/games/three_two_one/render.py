"""The 3-2-1 Countdown table drawn as text (Rich markup), as one seat sees it.

Only what ``seat`` may know is drawn: its own hand, the others' card backs (and any card
they were seen to pick up), both discard piles, the draw pile's size and the scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.markup import escape

from tminus.games.layout import fit
from tminus.games.phrasing import board_name, seat_labels

if TYPE_CHECKING:
    from tminus.games.three_two_one.game import ThreeTwoOneState

SHOWN_PILE_CARDS = 8


def card(value: int) -> str:
    return f"[bold black on white]{value:>2}[/]"


def cards(values: list[int]) -> str:
    return " ".join(card(v) for v in values) or "[dim](none)[/]"


def pile_text(pile: list[int]) -> str:
    if not pile:
        return "[dim]empty[/]"
    hidden = len(pile) - SHOWN_PILE_CARDS
    under = f"[dim]{hidden} more under ·[/] " if hidden > 0 else ""
    return f"{under}{' '.join(str(v) for v in pile[-SHOWN_PILE_CARDS:-1])} {card(pile[-1])}"


def render(
    state: ThreeTwoOneState,
    seat: int | None = None,
    names: Sequence[str] | None = None,
    width: int | None = None,
) -> str:
    """The table as ``seat`` sees it, in ``width`` columns; seats called by ``names``
    (default: "you", "seat N")."""
    obs: dict[str, Any] = (
        state.observation(seat) if seat is not None else (state.public_observation())
    )
    labels = seat_labels(state, seat, names)
    name_width = max(7, *(len(label) for label in labels))
    extra = " (extra round)" if obs["extra_round"] else ""
    lines = [f"[bold]3-2-1 Countdown[/] · round {obs['round']}{extra} · turn {obs['turn']}"]
    for s in range(obs["players"]):
        who = board_name(labels[s], s == seat and names is not None, name_width)
        marker = "▶" if obs["mover"] == s else " "
        score = f"[dim]score {obs['scores'][s]}, round wins {obs['round_wins'][s]}[/]"
        if s not in obs["playing"]:
            lines.append(f"{marker} {who} [dim]sits out this round[/]  {score}")
            continue
        if s == seat:
            total = sum(obs["hand"])
            shown = f"{cards(obs['hand'])}  [dim]total {total}[/]"
        else:
            known = obs["known_cards"][s]
            backs = "▮" * (obs["hand_sizes"][s] - len(known))
            seen = f" + seen {' '.join(str(v) for v in known)}" if known else ""
            shown = f"{backs}{seen}  [dim]{obs['hand_sizes'][s]} cards[/]"
        lines.append(f"{marker} {who} {shown}  {score}")
    left, right = obs["discard_piles"]
    lines.append(f"  left pile:  {pile_text(left)}")
    lines.append(f"  draw pile:  {obs['draw_pile_size']} cards")
    lines.append(f"  right pile: {pile_text(right)}")
    if obs["phase"] == "draw":
        who = escape(labels[obs["mover"]])
        lines.append(f"  {who} discarded {obs['discarded_on']}; now a draw")
    last = obs["last_round"]
    if last is not None:
        lines.append(f"  [bold]round {last['round']}[/]: {round_story(last, labels)}")
        for s, hand in enumerate(last["hands"]):
            if hand is not None:
                lines.append(
                    f"    {escape(labels[s])}: {revealed(hand, last['totals'][s])}"
                    f" → {plural(last['points'][s], 'point')}"
                )
    if obs["winners"]:
        winners = ", ".join(escape(labels[s]) for s in obs["winners"])
        lines.append(f"  [bold green]winner: {winners}[/]")
    return "\n".join(fit(lines, width))


def revealed(hand: list[int], total: int | None) -> str:
    """A hand shown at the round's end and its total; the Blastoff! declarer has neither."""
    if total is None:
        return "Blastoff!"
    return f"{' '.join(map(str, hand))} = {total}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def round_story(last: dict[str, Any], labels: Sequence[str]) -> str:
    if last["declarer"] is None:
        return "ended with nothing left to draw"
    return f"{escape(labels[last['declarer']])} declared {last['declaration'].capitalize()}!"
