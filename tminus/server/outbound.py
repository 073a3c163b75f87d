"""What the server sends on a game's socket: one model per message ``type``, and their
union ``ServerMessage`` (the messages a client sends are ``protocol.ClientMessage``).

A client reads each frame as JSON and looks at its ``type``: ``state`` (the seat's view,
after every change), ``chat`` (table talk), ``hint`` (the best move, to the socket that
asked), ``pong`` (answers ``ping``) or ``error`` (refused: nothing changed). The JSON
Schema of both directions is served at ``GET /api/schema/messages`` (``messages_schema``).

How they are built. A ``state`` message is made for every socket after every move, so it
is a plain dict (``views.view``) turned into text by ``pydantic_core.to_json``
(``hub.as_text``), not built through ``StateMessage``. The tests check it instead: they play
every game over a real socket and validate every message received against ``ServerMessage``
(``server_message``), so a field the models do not name, or one sent otherwise than they
say, fails them. Measured on 10,000 state messages of games under way, made and turned into
text, against the dict and ``json.dumps`` of before: validated into ``StateMessage`` and
dumped, up to 20% more; ``model_construct`` with its nested parts, 60 to 130% more; the
dict and ``to_json``, about a third less (what the hub does). Validated on the server, a
field that does not fit would also fail the send, which closes the socket. The rare
messages (``error``, ``chat``, ``hint``, ``pong``) are built through their models: a few
microseconds each.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from tminus.server.protocol import client_message


class Shown(BaseModel):
    """A part of a message: exactly these fields, of exactly these types (a field the
    server adds must be named here first: the tests validate every message)."""

    model_config = ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True)


# -- the pieces of a state -----------------------------------------------------------------
class SeatShown(Shown):
    """A seat as everyone sees it (never its token)."""

    seat: int
    """The seat's number (0-based), as in every other field."""
    kind: Literal["person", "bot"]
    """Shown beside the name: a bot is marked as one."""
    bot: str | None
    """The bot's level (a person: null), e.g. "Search (hard)"."""
    name: str
    """The name to show for the seat (log lines and labels have it put in already)."""
    joined: bool
    """A person who has taken their seat (a game starts once every person has)."""
    stand_in: str | None
    """The bot that plays for the person, whose time ran out, until they come back."""


class LegalMove(Shown):
    """A move the seat may make now: one button."""

    action: int
    """What the client sends back: ``{"type": "move", "move_number", "action"}``."""
    text: str
    """The engine's name for the move (stable: for logs and programs)."""
    label: str
    """The button's words, with names put in ("Attack Bob")."""
    struct: dict[str, Any]
    """The move as data for programs and boards: ``kind`` first, seats as seats."""


class LogLine(Shown):
    """A line of the game's log, as this seat saw it happen."""

    index: int
    """The line's place in the log (0-based): ``log_from`` + its place in ``log``."""
    actor: int
    """The seat that acted (a negative number: chance)."""
    text: str
    """The line to show, names put in (a hidden card is hidden from those who may not see it)."""
    takes_back: int | None = None
    """Sent on a take-back's line only: the index of the line it undid (shown struck out)."""
    estimate: float | None = None
    """Sent on a searching bot's line in a game with nothing hidden only: its chance to win
    as it reckoned its move (0 to 1), for "Why a bot moved"."""


class Result(Shown):
    """How a finished game ended."""

    reason: Literal["game over", "turn cap", "resigned"]
    """Why it ended, told in the end banner."""
    winners: list[int]
    """The seats that won (a team wins together; empty: nobody did)."""
    placings: list[int | None] | None = None
    """Each seat's place, 1 the best (ties share a place); null for a seat that takes no
    part. Absent in games finished before places were kept."""
    returns: list[float] | None = None
    """Each seat's score by the game's rules (not sent for a resignation)."""
    resigned: int | None = None
    """Sent for a resignation only: the seat that resigned."""


class RematchShown(Shown):
    """The game that follows this one ("Play again")."""

    id: str
    """The new game: the client opens ``/game/ID`` with the same token."""
    seats: list[int]
    """``seats[s]``: where seat s sits in the new game."""


class TakeBackShown(Shown):
    """A take-back asked for and not answered yet."""

    seat: int
    """The seat asking to take back its last move."""
    index: int
    """The log line of the move it would take back."""
    move: str
    """That move, as this seat saw it."""
    accepted: list[int]
    """The seats that accepted already."""
    waiting: list[int]
    """The seats whose answer is awaited (asked with Accept / Refuse)."""


# -- the messages --------------------------------------------------------------------------
class StateMessage(Shown):
    """The game as this seat may see it, after every change (``views.view``)."""

    type: Literal["state"]
    id: str
    """The game's id (its page: ``/game/ID``)."""
    game: str
    """The game's name in the catalog: which board to draw."""
    title: str
    """The game's title, for the page's heading."""
    params: dict[str, Any]
    """The game's parameters (its rules, as made: see ``/api/catalog``)."""
    status: Literal["waiting", "playing", "finished", "broken", "expired"]
    """Waiting for its people, in play, over, broken (its log no longer replays) or expired
    (never started)."""
    seat: int | None
    """The seat this socket plays (null: a spectator)."""
    move_number: int
    """Rows in the log: what ``move``, ``take_back`` and ``hint`` send back with them."""
    to_move: int | None
    """The seat to move (null: nobody's turn: not started, over, chance)."""
    observation: dict[str, Any]
    """What this seat may know of the position, drawn by the game's board script."""
    legal: list[LegalMove]
    """This seat's moves now (empty unless it is this seat's turn)."""
    log_from: int
    """The index of the first line in ``log``: the client appends from there (0: the
    whole log; a socket that fell behind gets the lines it missed)."""
    log: list[LogLine]
    """The log's lines from ``log_from`` on."""
    seats: list[SeatShown]
    """Every seat, in order."""
    commitment: str
    """The SHA-256 of the secret seed, published at creation (fair dice)."""
    seed: str | None
    """The seed once the game is over (null before): the client checks every roll."""
    result: Result | None
    """How the game ended (null while it goes on)."""
    rematch: RematchShown | None
    """The game that follows this one, once someone asked to play again."""
    paused: bool
    """All its people left long ago: its bots wait for one to come back."""
    undo: bool
    """Take-backs allowed: the client offers them."""
    hints: bool
    """Hints allowed: the client offers a Hint button to the seat to move."""
    rated: bool
    """Its result changes its players' ratings (accounts' seats)."""
    clock: dict[str, Any] | None
    """Its clock's settings (``turn``: per_move, reserve; ``fischer``: minutes, increment;
    and on_timeout), or null."""
    clocks: dict[str, Any] | None
    """The clocks: {"left": each seat's bank in seconds, "to_move", "deadline" (Unix time
    when the seat to move runs out), "now" (the server's time as this was sent)}, or null."""
    may_take_back: int | None
    """The seat that may ask now to take back its last move (null: none)."""
    take_back: TakeBackShown | None
    """The take-back asked for now (null: none)."""


class ErrorMessage(Shown):
    """A message refused (nothing changed), or a socket refused before it closes."""

    type: Literal["error"]
    code: str
    """For programs: ``bad_request``, ``forbidden``, ``stale``, ``not_your_turn``, ``illegal``,
    ``rate_limited``, ``busy``... (docs/protocol.md lists them)."""
    message: str
    """For people: shown as it is, names put in."""


class ChatLine(Shown):
    """A line of table talk."""

    index: int
    """The line's number in the game's talk (1 first): a line already shown is skipped."""
    seat: int | None
    """Who said it (null: the table's own notice, e.g. a take-back asked for)."""
    text: str
    """The words, shown as text (never as HTML)."""
    at: str
    """When it was said (ISO 8601)."""


class ChatMessage(Shown):
    """New lines of table talk, told to everyone present; after the hello, the talk so far."""

    type: Literal["chat"]
    messages: list[ChatLine]
    """The lines, oldest first."""
    history: bool = False
    """True for the talk so far, sent right after the hello (a page shows it as it was)."""


class HintMessage(Shown):
    """The best move now, told to the socket that asked (the table is told it was asked)."""

    type: Literal["hint"]
    seat: int
    """The seat the hint is for."""
    move_number: int
    """The position it is for: a hint for an older ``move_number`` is stale."""
    action: int
    """The best move (a ``legal`` move's ``action``): the client marks its button."""
    label: str
    """That move in words."""
    chance: float
    """Its chance to win after that move (0 to 1)."""
    error: float
    """The standard error of ``chance`` (0: an exact value)."""
    width: float
    """Half the 95% interval of ``chance``."""
    equal: list[int]
    """The moves about as good as the best (best first), when none stands out."""
    labels: list[str]
    """Those moves in words."""
    worlds: int
    """The deals the chance was played out in (1: an exact value)."""
    note: str | None = None
    """Why the hint is estimated where it could be exact (Sputnik's endgame table is not
    built on this server yet), or None."""


class WhyMessage(Shown):
    """Why a move is not possible now, told to the socket that asked."""

    type: Literal["why"]
    seat: int
    """The seat that asked."""
    move_number: int
    """The position it is about."""
    action: int
    """The move asked about."""
    label: str
    """That move in words."""
    reason: str | None
    """The rule that forbids it, in words (null: it is possible now)."""


class PongMessage(Shown):
    """The answer to ``ping``: the socket is alive."""

    type: Literal["pong"]


ServerMessage = Annotated[
    StateMessage | ErrorMessage | ChatMessage | HintMessage | WhyMessage | PongMessage,
    Field(discriminator="type"),
]
server_message: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


def error(code: str, message: str) -> dict[str, Any]:
    """An error message, over the socket and over HTTP alike."""
    return ErrorMessage(type="error", code=code, message=message).model_dump()


def chat(lines: Sequence[Mapping[str, Any]], history: bool = False) -> dict[str, Any]:
    """Lines of table talk, as the store tells them (``history``: the talk so far)."""
    told = {"type": "chat", "messages": lines, "history": history}
    return ChatMessage.model_validate(told).model_dump()


def pong() -> dict[str, Any]:
    return PongMessage(type="pong").model_dump()


def messages_schema() -> dict[str, Any]:
    """The JSON Schema of both directions: what the server sends, what a client sends."""
    server = server_message.json_schema(mode="serialization")
    client = client_message.json_schema()
    return {
        "server": {"title": "ServerMessage", **server},
        "client": {"title": "ClientMessage", **client},
    }
