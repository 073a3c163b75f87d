"""The data files beside the rules (Count Down's ``board.toml``, 3-2-1's ``deck.json``,
Sputnik's ``setup.json``): each has a pydantic schema, and every problem in a file is
reported naming its entry ("photo_cards[2] 'Astronauts'.value: ...").

Data holds data only: a schema refuses keys it does not know, so the words about a file
live in its schema's docstring and in the game's RULES.md, not in the file.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any, TypeVar, cast

from pydantic import BaseModel, ConfigDict, ValidationError

M = TypeVar("M", bound=BaseModel)


class DataModel(BaseModel):
    """A data file's schema: unknown keys refused, values frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def entry_name(data: Any, loc: tuple[int | str, ...]) -> str:
    """'photo_cards[2] 'Astronauts'.value' from pydantic's ('photo_cards', 2, 'value')."""
    out, node = "", cast(Any, data)
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
            try:
                node = node[part]
                if isinstance(node, dict) and "name" in node:
                    out += f" {node['name']!r}"
            except (IndexError, KeyError, TypeError):
                node = None
        else:
            out += f".{part}" if out else str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return out


def validated(model: type[M], data: Any, what: str) -> M:
    """``data`` checked against ``model``; ValueError "bad <what>: <entry>: <problem>; ..."."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        problems = []
        for e in error.errors():
            message = e["msg"].removeprefix("Value error, ")
            entry = entry_name(data, e["loc"])  # none: a check of the whole file names its own
            problems.append(f"{entry}: {message}" if entry else message)
        raise ValueError(f"bad {what}: " + "; ".join(problems)) from None


def parse_json(model: type[M], text: str, what: str) -> M:
    """A JSON data file's text, checked against ``model`` (ValueError as ``validated``)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"bad {what}: not valid JSON: {error}") from None
    return validated(model, data, what)


def read_json(package: str, name: str, model: type[M], what: str) -> M:
    """The data file ``name`` of ``package``, checked against ``model``."""
    text = files(package).joinpath(name).read_text(encoding="utf-8")
    return parse_json(model, text, f"{what} ({name})")
