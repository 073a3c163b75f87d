"""What one process tells the others of a committed change: a short JSON notice published
with PostgreSQL's ``NOTIFY`` on the game's channel, in the transaction that commits it (so
it is heard in commit order, once durable). SQLite is for one process: nothing is sent."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text

MAX_NOTICE = 7_900  # bytes of a NOTIFY payload (PostgreSQL takes fewer than 8,000)


def channel(game_id: str) -> str:
    """The NOTIFY channel of a game (its id is hex: a plain identifier)."""
    return f"tminus_{game_id}"


def said_by(origin: str, news: dict[str, Any]) -> str:
    """A notice from the store ``origin`` (its first field, for a quick look)."""
    return json.dumps({"by": origin, **news}, separators=(",", ":"))


def own_notice(origin: str, payload: str) -> bool:
    """Whether a notice was published by the store ``origin`` (this process)."""
    return payload.startswith(f'{{"by":"{origin}",')


async def notify(connection, notices: list[tuple[str, str]]) -> None:
    """Publish (game id, payload) pairs on the games' channels, in order, in one statement
    of the caller's transaction (they are heard once it commits)."""
    if not notices or connection.dialect.name != "postgresql":
        return
    await connection.execute(
        text(
            "SELECT pg_notify(c, p) FROM unnest(CAST(:channels AS text[]), "
            "CAST(:payloads AS text[])) WITH ORDINALITY AS n(c, p, i) ORDER BY i"
        ),
        {"channels": [channel(g) for g, _ in notices], "payloads": [p for _, p in notices]},
    )
