"""The 4-Way CountDown unit drawn as text (Rich markup): ten keys per seat, the dice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tminus.games.four_way import rules

if TYPE_CHECKING:
    from tminus.games.four_way.game import FourWayState

DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def render(state: FourWayState, seat: int | None = None) -> str:
    obs = state.public_observation()
    lines = [f"[bold]4-Way CountDown[/] ({obs['variant']}) · turn {obs['turn']}"]
    for s, up in enumerate(obs["keys"]):
        keys = " ".join(
            f"[bold black on green]{k:>2}↑[/]" if k in up else f"[dim]{k:>2} [/]"
            for k in rules.KEYS
        )
        who = "you" if s == seat else f"seat {s}"
        marker = "▶" if obs["phase"] in ("roll", "move") and state.mover() == s else " "
        lines.append(f"{marker} {who:<7} {keys}  [dim]{len(up)}/10[/]")
    if obs["dice"]:
        a, b = obs["dice"]
        lines.append(f"  dice: {DIE_FACES[a - 1]} {DIE_FACES[b - 1]}  ({a},{b})")
    if obs["phase"] == "roll-off":
        roll_off = obs["roll_off"]
        # Contenders still to roll have no roll yet: zip stops at the last roll.
        pairs = zip(roll_off["contenders"], roll_off["rolls"], strict=False)
        rolls = ", ".join(f"seat {s}: {r}" for s, r in pairs)
        lines.append(f"  roll-off for who starts: {rolls or 'rolling…'}")
    return "\n".join(lines)
