"""The WebSocket and HTTP messages, validated with pydantic.

A socket is opened at ``/ws/games/{id}`` and says who it is in its first message
(``hello``: a seat and its token, or no seat for a spectator), so that tokens never
appear in URLs or server logs. Then a seat sends ``move``, ``start``, ``resign``,
``name`` (the name shown for its seat), ``chat`` (a line of table talk), ``bot`` (let
a bot play for a person who left), ``take_back`` (ask to take back one's last move) or
``take_back_answer`` (accept or refuse another's).
The server answers with ``state`` messages (only what the seat may see) and ``error``
messages (nothing changed): what it sends is modelled in ``tminus.server.outbound``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, TypeAdapter


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatKey(Message):
    seat: StrictInt
    token: str = Field(max_length=100)


class Hello(Message):
    type: Literal["hello"]
    seat: StrictInt | None = None
    token: str | None = Field(default=None, max_length=100)
    name: str | None = Field(default=None, max_length=40)
    # Hot-seat: more seats played on this device (they join too); ``switch`` moves between.
    seats: list[SeatKey] = Field(default_factory=list, max_length=15)


class Switch(Message):
    """Hot-seat: the device is passed to another of the seats its hello named."""

    type: Literal["switch"]
    seat: StrictInt


class Move(Message):
    type: Literal["move"]
    move_number: StrictInt
    action: StrictInt


class Start(Message):
    type: Literal["start"]


class Resign(Message):
    type: Literal["resign"]


class Ping(Message):
    type: Literal["ping"]


class Rename(Message):
    type: Literal["name"]
    name: str = Field(min_length=1, max_length=40)


class Chat(Message):
    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=200)


class Rematch(Message):
    """Play again (a finished game): the new game is made, or, if made already, accepted."""

    type: Literal["rematch"]


class GiveToBot(Message):
    """Let a bot play for a person who left (away longer than the server's ``away_after``):
    the game's creator decides, the others vote (a majority of the people present)."""

    type: Literal["bot"]
    seat: StrictInt
    bot: str = Field(min_length=1, max_length=64)


class TakeBack(Message):
    """Ask to take back one's last move, for the position after ``move_number`` rows of the
    log (the state's ``move_number``). ``seat``: on a hot-seat device, the seat asking (one
    its hello named; by default the one it plays now)."""

    type: Literal["take_back"]
    move_number: StrictInt
    seat: StrictInt | None = None


class TakeBackAnswer(Message):
    """Accept or refuse the take-back asked for (the state's ``take_back``)."""

    type: Literal["take_back_answer"]
    move_number: StrictInt
    accept: StrictBool
    seat: StrictInt | None = None


class Hint(Message):
    """Ask for the best move now (a game whose creator allowed hints); ``seat``: on a
    hot-seat device, the seat asking. Answered to this socket by ``{"type": "hint", ...}``;
    the table is told that a hint was asked for."""

    type: Literal["hint"]
    move_number: StrictInt
    seat: StrictInt | None = None


class Why(Message):
    """Ask why a move is not possible now (``seat``: on a hot-seat device, the seat asking).
    Answered to this socket alone by ``{"type": "why", ...}``."""

    type: Literal["why"]
    action: StrictInt
    seat: StrictInt | None = None


ClientMessage = Annotated[
    Hello
    | Move
    | Start
    | Resign
    | Ping
    | Rename
    | Chat
    | Rematch
    | Switch
    | GiveToBot
    | TakeBack
    | TakeBackAnswer
    | Hint
    | Why,
    Field(discriminator="type"),
]
client_message = TypeAdapter(ClientMessage)


class SeatRequest(Message):
    kind: Literal["person", "bot"]
    bot: str | None = Field(default=None, max_length=64)
    name: str | None = Field(default=None, max_length=40)


class CreateGame(Message):
    game: str = Field(max_length=64)
    params: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatRequest] = Field(min_length=1, max_length=16)
    listed: bool = False  # in the lobby's public list while in play (else: by link only)
    # Take-backs allowed (None: in a game of persons only; bots then accept at once).
    undo: bool | None = None
    hints: bool = False  # a player may ask for the best move (the table is told)
    rated: bool = False  # its result changes its players' ratings (no hints, no take-backs)
    # A clock (tminus.server.clocks): {"kind": "turn", "per_move", "reserve", "on_timeout"} or
    # {"kind": "fischer", "minutes", "increment", "on_timeout"}; null: none.
    clock: dict[str, Any] | None = None
