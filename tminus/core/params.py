"""Game parameters: declared once per game, validated with errors that name the allowed values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Param:
    """One game parameter: its default and what values it accepts.

    ``choices`` lists every allowed value; otherwise ``minimum``/``maximum`` bound an integer.
    """

    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    # A file on the machine that runs the game: never to be set from the network.
    local_only: bool = False

    def allowed(self) -> str:
        if self.choices is not None:
            return ", ".join(repr(c) if isinstance(c, str) else str(c) for c in self.choices)
        low = "" if self.minimum is None else f"{self.minimum}"
        high = "" if self.maximum is None else f"{self.maximum}"
        return f"integers from {low or '-inf'} to {high or 'inf'}"

    def validate(self, game: str, name: str, value: Any) -> Any:
        if self.choices is not None:
            # bool is an int in Python: refuse True where 1 is allowed and the reverse.
            for choice in self.choices:
                if value == choice and type(value) is type(choice):
                    return choice
            raise ValueError(
                f"parameter {name!r} of {game} must be one of {self.allowed()}; got {value!r}"
            )
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"parameter {name!r} of {game} must be an integer; got {value!r}")
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise ValueError(
                f"parameter {name!r} of {game} must be one of {self.allowed()}; got {value!r}"
            )
        return value


def validate_params(
    game: str, declared: Mapping[str, Param], given: Mapping[str, Any]
) -> Mapping[str, Any]:
    """Return the full, frozen parameter mapping (defaults filled in) or raise ValueError."""
    unknown = sorted(set(given) - set(declared))
    if unknown:
        raise ValueError(
            f"unknown parameter {unknown[0]!r} for {game}; "
            f"its parameters are: {', '.join(sorted(declared)) or 'none'}"
        )
    values = {
        name: param.validate(game, name, given[name]) if name in given else param.default
        for name, param in declared.items()
    }
    return MappingProxyType(values)


def coerce_param(param: Param, text: str) -> Any:
    """Turn a command-line string into the parameter's type (validation comes after)."""
    sample = param.choices[0] if param.choices else param.default
    if isinstance(sample, bool):
        return {"true": True, "false": False}.get(text.lower(), text)
    if isinstance(sample, int):
        try:
            return int(text)
        except ValueError:
            return text
    return text
