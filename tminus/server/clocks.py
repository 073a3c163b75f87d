"""Game clocks, chosen by a game's creator (none by default, as before):

- **turn-based** ("turn"): each move may take ``per_move`` seconds (1 hour to 3 days), and
  a seat's ``reserve`` (up to 7 days) pays for what a move takes beyond that, as on Board
  Game Arena; the reserve is not refilled;
- **live with a Fischer clock** ("fischer"): ``minutes`` on each seat's clock, and
  ``increment`` seconds added after each of its turns, as in chess.

Only the seat to move has its clock running; a turn of several decisions by one seat is one
turn. The times are the database's (``tminus.server.clock``), so every process agrees, and
the store keeps them (``store_clocks``) so they survive restarts. When a seat's time is out,
``on_timeout`` applies: a bot of that level plays for the person until they come back
(opening the game gives them their seat again), or "resign": they lose as if they had
resigned.

This module is the arithmetic and the settings' checks; no I/O.
"""

from __future__ import annotations

from typing import Any

RESIGN = "resign"
PER_MOVE = (3_600, 259_200)  # seconds: 1 hour to 3 days
RESERVE = (0, 604_800)  # seconds: up to 7 days
MINUTES = (1, 180)
INCREMENT = (0, 60)
# Seconds a process that acted on a timeout leaves before another may act on it again (the
# bot's first move, or the resignation, ends it sooner: then the next turn's clock runs).
TIMEOUT_GRACE = 60.0


def check_clock(clock: Any, bot_specs: list[str]) -> dict[str, Any] | None:
    """The clock asked for, checked (``bot_specs``: the game's levels, for ``on_timeout``);
    ValueError with what is wrong."""
    if clock is None:
        return None
    if not isinstance(clock, dict):
        raise ValueError("a clock is an object with a kind, or null")
    kind = clock.get("kind")
    if kind == "turn":
        fields = {"per_move": PER_MOVE, "reserve": RESERVE}
    elif kind == "fischer":
        fields = {"minutes": MINUTES, "increment": INCREMENT}
    else:
        raise ValueError("a clock's kind is 'turn' or 'fischer'")
    extra = set(clock) - {"kind", "on_timeout", *fields}
    if extra:
        raise ValueError(f"a {kind} clock has no {', '.join(sorted(extra))}")
    checked: dict[str, Any] = {"kind": kind}
    for name, (low, high) in fields.items():
        value = clock.get(name, 0 if name in ("reserve", "increment") else None)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"a {kind} clock's {name} is a whole number from "
                            f"{low} to {high}")  # fmt: skip
        checked[name] = value
    on_timeout = clock.get("on_timeout", RESIGN)
    if on_timeout != RESIGN and on_timeout not in bot_specs:
        offered = ", ".join([RESIGN, *bot_specs])
        raise ValueError(f"when time runs out: one of {offered}")
    checked["on_timeout"] = on_timeout
    return checked


def first_banks(clock: dict[str, Any], seats: int) -> list[float]:
    """Each seat's bank at the start: its reserve (turn-based) or its whole time (Fischer)."""
    bank = clock["reserve"] if clock["kind"] == "turn" else clock["minutes"] * 60
    return [float(bank)] * seats


def allowance(clock: dict[str, Any], bank: float) -> float:
    """Seconds the seat to move has for this turn, its bank included."""
    return clock["per_move"] + bank if clock["kind"] == "turn" else bank


def charged(clock: dict[str, Any], bank: float, used: float) -> float:
    """A seat's bank after a turn that took ``used`` seconds."""
    if clock["kind"] == "turn":
        return max(0.0, bank - max(0.0, used - clock["per_move"]))
    return max(0.0, bank - used) + clock["increment"]


def clocks_view(clocks: dict[str, Any] | None, now: float) -> dict[str, Any] | None:
    """The clocks as the table shows them: each seat's bank, whose runs and until when, and
    the server's time now (the client counts down from there)."""
    if clocks is None:
        return None
    return {**clocks, "now": now}
