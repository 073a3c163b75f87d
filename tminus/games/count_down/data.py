"""The Count Down board file: schema, loading with clear errors, and compiled tables.

The board, cards and prices live in ``board.toml`` next to this module. A user's own file
with the same shape can replace it (game parameter ``board``). Every problem in a file is
reported naming the entry ("photo_cards[2] 'Astronauts'.value: ...").
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from tminus.games.data_files import DataModel, validated

DEFAULT_BOARD = "default"
CENTRES = (1, 2, 3, 4)
BALL_FACES = 12
SQUARE_KINDS = (
    "ramp", "forbidden", "photo", "part", "saturn", "surprise",
    "funding", "espionage", "sabotage", "training",
)  # fmt: skip
SURPRISE_KINDS = (
    "money", "collect_each", "pay_each", "photo", "part",
    "move_to", "go_home", "play_again", "lose_turn",
)  # fmt: skip


class RulesSpec(DataModel):
    money_step: int = Field(gt=0)
    capital_per_pip: int = Field(gt=0)
    saturn_price: int = Field(ge=0)
    ransom: int = Field(ge=0)
    turns_out: int = Field(ge=0, le=20)
    squat_fine: int = Field(ge=0)
    countdown_target: int = Field(ge=1)
    countdown_rolls: int = Field(ge=1, le=6)
    latest_start: int = Field(ge=1, le=6)
    auction_threshold: int = Field(ge=0)
    auction_lots: int = Field(ge=0, le=20)
    offers_per_meeting: int = Field(ge=0, le=10)
    offer_price_steps: list[float] = Field(min_length=1, max_length=6)


class BallSpec(DataModel):
    weights: list[int] = Field(min_length=BALL_FACES, max_length=BALL_FACES)

    @model_validator(mode="after")
    def _positive(self) -> BallSpec:
        if any(w < 0 for w in self.weights) or sum(self.weights) == 0:
            raise ValueError("weights must be >= 0 and not all 0")
        return self


class PartSpec(DataModel):
    name: str = Field(min_length=1)
    price: int = Field(ge=0)


class PhotoSpec(DataModel):
    name: str = Field(min_length=1)
    value: int = Field(gt=0)
    copies: int = Field(ge=1, le=20)
    astronaut: bool = False


class ControlSpec(DataModel):
    centre: int = Field(ge=1, le=4)
    photos: list[str]


class SquareSpec(DataModel):
    kind: Literal[SQUARE_KINDS]  # type: ignore[valid-type]
    centre: int | None = Field(default=None, ge=1, le=4)
    photo: str | None = None
    part: str | None = None
    amount: int | None = Field(default=None, ge=0)


class SurpriseSpec(DataModel):
    name: str = Field(min_length=1)
    kind: Literal[SURPRISE_KINDS]  # type: ignore[valid-type]
    amount: int = 0
    photo: str | None = None
    part: str | None = None
    square: int | None = None


class AgentSpec(DataModel):
    name: str = Field(min_length=1)
    colour: Literal["green", "red"]
    kind: Literal["photo", "part", "turn"]
    copies: int = Field(ge=1, le=20)


class BoardSpec(DataModel):
    rules: RulesSpec
    ball: BallSpec
    parts: list[PartSpec] = Field(min_length=4, max_length=4)
    photo_cards: list[PhotoSpec] = Field(min_length=1)
    control_cards: list[ControlSpec] = Field(min_length=4, max_length=4)
    track: list[SquareSpec] = Field(min_length=8, max_length=400)
    surprise_cards: list[SurpriseSpec] = Field(min_length=1)
    agent_cards: list[AgentSpec] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> BoardSpec:
        step = self.rules.money_step
        photos = {p.name: p for p in self.photo_cards}
        parts = {p.name for p in self.parts}
        if len(photos) != len(self.photo_cards):
            raise ValueError("photo_cards: two cards have the same name")
        if len(parts) != 4:
            raise ValueError("parts: the four parts need four different names")
        for i, part in enumerate(self.parts):
            if part.price % step:
                raise ValueError(f"parts[{i}] {part.name!r}: price is not a multiple of {step}")
        for i, card in enumerate(self.photo_cards):
            if card.value % step:
                raise ValueError(
                    f"photo_cards[{i}] {card.name!r}: value is not a multiple of {step}"
                )
        if sorted(c.centre for c in self.control_cards) != list(CENTRES):
            raise ValueError("control_cards: need exactly one card for each centre 1 to 4")
        for i, control in enumerate(self.control_cards):
            where = f"control_cards[{i}] (centre {control.centre})"
            if len(control.photos) != 9 or len(set(control.photos)) != 9:
                raise ValueError(f"{where}: needs 9 different photo cards")
            for name in control.photos:
                if name not in photos:
                    raise ValueError(f"{where}: unknown photo card {name!r}")
        for name, card in photos.items():
            listed = sum(name in c.photos for c in self.control_cards)
            if card.copies < listed:
                raise ValueError(
                    f"photo_cards {name!r}: {card.copies} copies but {listed} control cards"
                )
        for kind in ("ramp", "forbidden"):
            centres = sorted(s.centre or 0 for s in self.track if s.kind == kind)
            if centres != list(CENTRES):
                raise ValueError(f"track: need exactly one {kind!r} square for each centre 1-4")
        for i, square in enumerate(self.track):
            _check_square(i, square, photos, parts)
        for i, surprise in enumerate(self.surprise_cards):
            _check_surprise(i, surprise, photos, parts, self.track, step)
        return self


def _check_square(
    i: int, square: SquareSpec, photos: dict[str, PhotoSpec], parts: set[str]
) -> None:
    where = f"track[{i}] ({square.kind})"
    if square.kind in ("ramp", "forbidden") and square.centre is None:
        raise ValueError(f"{where}: needs a centre")
    if square.kind == "photo" and square.photo not in photos:
        raise ValueError(f"{where}: unknown photo card {square.photo!r}")
    if square.kind == "part" and square.part not in parts:
        raise ValueError(f"{where}: unknown part {square.part!r}")
    if square.kind == "funding" and not square.amount:
        raise ValueError(f"{where}: needs a positive amount")


def _check_surprise(
    i: int,
    card: SurpriseSpec,
    photos: dict[str, PhotoSpec],
    parts: set[str],
    track: list[SquareSpec],
    step: int,
) -> None:
    where = f"surprise_cards[{i}] {card.name!r}"
    if card.amount % step:
        raise ValueError(f"{where}: amount is not a multiple of {step}")
    if card.kind in ("money", "collect_each", "pay_each") and not card.amount:
        raise ValueError(f"{where}: needs a non-zero amount")
    if card.kind in ("collect_each", "pay_each") and card.amount < 0:
        raise ValueError(f"{where}: amount must be positive")
    if card.kind == "photo" and card.photo not in photos:
        raise ValueError(f"{where}: unknown photo card {card.photo!r}")
    if card.kind == "part" and card.part not in parts:
        raise ValueError(f"{where}: unknown part {card.part!r}")
    if card.kind == "move_to":
        if card.square is None or not 0 <= card.square < len(track):
            raise ValueError(f"{where}: square must be on the track (0-{len(track) - 1})")
        if track[card.square].kind in ("surprise", "forbidden"):
            raise ValueError(f"{where}: cannot send a player to a {track[card.square].kind}")


class BoardData:
    """The board compiled into plain tuples and ints for the rules' hot path.

    Photo cards, parts, agent cards and surprise cards are numbered in file order.
    """

    def __init__(self, spec: BoardSpec, source: str) -> None:
        self.spec = spec
        self.source = source
        r = spec.rules
        self.step = r.money_step
        self.capital_per_pip = r.capital_per_pip
        self.saturn_price = r.saturn_price
        self.ransom = r.ransom
        self.turns_out = r.turns_out
        self.squat_fine = r.squat_fine
        self.countdown_target = r.countdown_target
        self.countdown_rolls = r.countdown_rolls
        self.latest_start = r.latest_start
        self.auction_threshold = r.auction_threshold
        self.auction_lots = r.auction_lots
        self.offers_per_meeting = r.offers_per_meeting
        self.price_steps = tuple(r.offer_price_steps)
        total = sum(spec.ball.weights)
        self.ball = tuple(
            (face - 1, w / total) for face, w in enumerate(spec.ball.weights, 1) if w > 0
        )
        self.part_names = tuple(p.name for p in spec.parts)
        self.part_prices = tuple(p.price for p in spec.parts)
        self.photo_names = tuple(p.name for p in spec.photo_cards)
        self.photo_values = tuple(p.value for p in spec.photo_cards)
        self.photo_copies = tuple(p.copies for p in spec.photo_cards)
        self.astronaut = tuple(p.astronaut for p in spec.photo_cards)
        photo_index = {name: i for i, name in enumerate(self.photo_names)}
        part_index = {name: i for i, name in enumerate(self.part_names)}
        # control[c] for centre c+1: the 9 photo card ids it requires.
        by_centre = {c.centre: c for c in spec.control_cards}
        self.control = tuple(tuple(photo_index[n] for n in by_centre[c].photos) for c in CENTRES)
        self.track_len = len(spec.track)
        self.kinds = tuple(s.kind for s in spec.track)
        # arg[i]: the photo id, part id, centre index (0-3) or amount of square i.
        args = []
        for s in spec.track:  # each square's field is there: _check_square saw to it
            if s.kind == "photo" and s.photo is not None:
                args.append(photo_index[s.photo])
            elif s.kind == "part" and s.part is not None:
                args.append(part_index[s.part])
            elif s.kind in ("ramp", "forbidden") and s.centre is not None:
                args.append(s.centre - 1)
            else:
                args.append(s.amount or 0)
        self.args = tuple(args)
        # The centre (0-3) whose forbidden zone a square is, -1 for the other squares.
        self.forbidden_zone_of = tuple(
            arg if self.kinds[i] == "forbidden" else -1 for i, arg in enumerate(self.args)
        )
        self.ramp = tuple(
            next(i for i, s in enumerate(spec.track) if s.kind == "ramp" and s.centre == c)
            for c in CENTRES
        )
        self.surprises = tuple(
            (
                s.name,
                s.kind,
                s.amount,
                photo_index.get(s.photo, -1) if s.photo else -1,
                part_index.get(s.part, -1) if s.part else -1,
                s.square if s.square is not None else -1,
            )
            for s in spec.surprise_cards
        )
        self.agent_names = tuple(a.name for a in spec.agent_cards)
        self.agent_green = tuple(a.colour == "green" for a in spec.agent_cards)
        self.agent_kinds = tuple(a.kind for a in spec.agent_cards)
        self.agent_copies = tuple(a.copies for a in spec.agent_cards)
        self.max_value = max(self.photo_values)


def parse_board(data: dict[str, Any], source: str = "<board>") -> BoardData:
    """Validate a board given as a dict (parsed TOML); ValueError naming entry and problem."""
    return BoardData(validated(BoardSpec, data, f"Count Down board {source}"), source)


@lru_cache(maxsize=16)
def load_board(path: str = DEFAULT_BOARD) -> BoardData:
    """The default board (``board.toml``) or a user's own TOML file."""
    if path == DEFAULT_BOARD:
        text = files(__package__).joinpath("board.toml").read_text(encoding="utf-8")
        source = "board.toml"
    else:
        file = Path(path)
        if not file.is_file():
            raise ValueError(f"Count Down board file {path!r} does not exist")
        text = file.read_text(encoding="utf-8")
        source = str(file)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"bad Count Down board {source}: not valid TOML: {error}") from None
    return parse_board(data, source)
