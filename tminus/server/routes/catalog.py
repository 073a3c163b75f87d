"""What this server offers: the games with their options and bots, each game's rules (as
Markdown text), the limits it enforces, and the socket's messages as a JSON Schema."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from tminus.core.registry import rules_text
from tminus.server.errors import documented
from tminus.server.limits import Limits
from tminus.server.outbound import messages_schema
from tminus.server.routes.deps import ServerLimits
from tminus.server.service import GameError, catalog

router = APIRouter()


@router.get("/api/catalog")
def get_catalog() -> list[dict[str, Any]]:
    return catalog()


@router.get("/api/rules/{game}", response_class=PlainTextResponse, responses=documented(404))
def get_rules(game: str) -> str:
    try:
        return rules_text(game)
    except ValueError as e:
        raise GameError("not_found", str(e)) from None


@router.get("/api/limits")
def get_limits(limits: ServerLimits) -> dict[str, Any]:
    """The limits this server enforces (see the README)."""
    return {name: getattr(limits, name) for name in Limits.documented()}


@router.get("/api/schema/messages")
def get_messages_schema() -> dict[str, Any]:
    """The game socket's messages as JSON Schema: ``server``, what the server sends (by its
    ``type``); ``client``, what a client may send (see docs/protocol.md)."""
    return messages_schema()
