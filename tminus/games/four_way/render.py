"""The 4-Way CountDown unit drawn as text (Rich markup): ten keys per seat, the dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.markup import escape

from tminus.games.four_way import rules
from tminus.games.layout import fit
from tminus.games.phrasing import board_name, seat_labels

if TYPE_CHECKING:
    from tminus.games.four_way.game import FourWayState

DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def render(
    state: FourWayState,
    seat: int | None = None,
    names: Sequence[str] | None = None,
    width: int | None = None,
) -> str:
    """The board as ``seat`` sees it, in ``width`` columns; seats called by ``names``
    (default: "you", "seat N")."""
    obs = state.public_observation()
    labels = seat_labels(state, seat, names)
    name_width = max(7, *(len(label) for label in labels))
    lines = [f"[bold]4-Way CountDown[/] ({obs['variant']}) · turn {obs['turn']}"]
    for s, up in enumerate(obs["keys"]):
        keys = " ".join(
            f"[bold black on green]{k:>2}↑[/]" if k in up else f"[dim]{k:>2} [/]"
            for k in rules.KEYS
        )
        who = board_name(labels[s], s == seat and names is not None, name_width)
        marker = "▶" if obs["phase"] in ("roll", "move") and state.mover() == s else " "
        lines.append(f"{marker} {who} {keys}  [dim]{len(up)}/10[/]")
    if obs["dice"]:
        a, b = obs["dice"]
        lines.append(f"  dice: {DIE_FACES[a - 1]} {DIE_FACES[b - 1]}  ({a},{b})")
    if obs["phase"] == "roll-off":
        roll_off = obs["roll_off"]
        # Contenders still to roll have no roll yet: zip stops at the last roll.
        pairs = zip(roll_off["contenders"], roll_off["rolls"], strict=False)
        rolls = ", ".join(f"{escape(labels[s])}: {r}" for s, r in pairs)
        lines.append(f"  roll-off for who starts: {rolls or 'rolling…'}")
    return "\n".join(fit(lines, width))
