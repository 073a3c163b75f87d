"""A puzzle: a position cut from a bot game, the one move that is clearly best, and the exact
value of every legal move. Saved as JSON, one file per game in ``data/``.

A puzzle is replayed, never stored as a board: its ``history`` is every action from
``load_game(game, **params).new_initial_state()`` to the position, chance outcomes
included, so anyone (the terminal, the server, a test) rebuilds the same state with
``state_of``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from tminus.core.game import Game, State
from tminus.core.registry import load_game

FORMAT = "tminus-puzzles"
VERSION = 1
START_RATING = 1500  # a new puzzle's difficulty before any player has tried it

# What a value means, per kind of puzzle (the mover's point of view, both playing perfectly).
KINDS = {
    "best_chance": "the mover's exact chance to win after the move (4-Way, two players)",
    "win_in_n": "turns: +n wins with the mover's n-th turn (this one is the first), "
    "-n loses on the opponent's n-th turn from now (Sputnik, two players)",
    "count_now_or_wait": "the exact chance that this COUNTDOWN attempt succeeds (Count Down)",
}


@dataclass(frozen=True)
class Puzzle:
    """One puzzle. ``values`` holds every legal move's exact value (what it means: ``KINDS``
    of ``kind``); ``answer`` beats every other move by at least ``margin``."""

    id: str
    game: str
    params: Mapping[str, Any]
    history: tuple[int, ...]
    seat: int
    kind: str
    prompt: str
    answer: int
    values: Mapping[int, float]
    margin: float
    source: Mapping[str, Any]
    rating: int = START_RATING
    rules_version: int = 1
    # The move's words as the engine says them, for people reading the file.
    moves: Mapping[int, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: action ids as strings in ``values`` and ``moves`` (JSON object keys)."""
        return {
            "id": self.id,
            "game": self.game,
            "params": dict(self.params),
            "rules_version": self.rules_version,
            "history": list(self.history),
            "seat": self.seat,
            "kind": self.kind,
            "prompt": self.prompt,
            "answer": self.answer,
            "values": {str(a): v for a, v in sorted(self.values.items())},
            "moves": {str(a): text for a, text in sorted(self.moves.items())},
            "margin": self.margin,
            "rating": self.rating,
            "source": dict(self.source),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Puzzle:
        """The inverse of ``to_dict``; ValueError naming what is missing or wrong."""
        try:
            values = {int(a): v for a, v in data["values"].items()}
            puzzle = cls(
                id=str(data["id"]),
                game=str(data["game"]),
                params=dict(data["params"]),
                history=tuple(int(a) for a in data["history"]),
                seat=int(data["seat"]),
                kind=str(data["kind"]),
                prompt=str(data["prompt"]),
                answer=int(data["answer"]),
                values=values,
                margin=data["margin"],
                source=dict(data["source"]),
                rating=int(data.get("rating", START_RATING)),
                rules_version=int(data.get("rules_version", 1)),
                moves={int(a): str(t) for a, t in data.get("moves", {}).items()},
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ValueError(f"not a puzzle: {error!r} in {dict(data).get('id', '?')}") from None
        if puzzle.kind not in KINDS:
            raise ValueError(f"puzzle {puzzle.id}: unknown kind {puzzle.kind!r}")
        if puzzle.answer not in puzzle.values:
            raise ValueError(f"puzzle {puzzle.id}: its answer has no value")
        return puzzle

    def value_of(self, action: int) -> float:
        return self.values[action]


def puzzle_id(game: str, params: Mapping[str, Any], history: Sequence[int]) -> str:
    """A short stable id: the first 12 hex digits of SHA-256 of game, params and history."""
    text = json.dumps([game, dict(sorted(params.items())), list(history)], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def state_of(puzzle: Puzzle) -> State[Game]:
    """The puzzle's position, replayed from the start of a game with its parameters;
    ValueError when the history does not replay or does not reach the seat to move."""
    state = load_game(puzzle.game, **puzzle.params).new_initial_state()
    for action in puzzle.history:
        state.apply_action(action)
    if state.is_terminal() or state.current_player() != puzzle.seat:
        raise ValueError(f"puzzle {puzzle.id}: its history does not reach seat {puzzle.seat}")
    return state


def data_path(game: str) -> Path:
    """The shipped set of ``game`` (it may not exist: see ``shipped_games``)."""
    return Path(str(resources.files("tminus.puzzles").joinpath("data", f"{game}.json")))


def shipped_games() -> list[str]:
    """The games with a shipped set of puzzles."""
    folder = resources.files("tminus.puzzles").joinpath("data")
    return sorted(p.name[: -len(".json")] for p in folder.iterdir() if p.name.endswith(".json"))


def load_set(game: str) -> list[Puzzle]:
    """The shipped puzzles of ``game``; ValueError naming the games that have some."""
    path = data_path(game)
    if not path.is_file():
        raise ValueError(
            f"no puzzles for {game!r}; games with puzzles: {', '.join(shipped_games())}"
        )
    return read_set(path)


def read_set(path: str | Path) -> list[Puzzle]:
    """A set saved by ``save_set``; ValueError when it is not one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not JSON: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path} is not a puzzle set (format {FORMAT!r})")
    if data.get("version") != VERSION:
        raise ValueError(f"{path}: unsupported puzzle set version {data.get('version')!r}")
    return [Puzzle.from_dict(item) for item in data["puzzles"]]


def save_set(puzzles: Sequence[Puzzle], path: str | Path, made_by: str = "") -> None:
    """Write ``puzzles`` as a set (one puzzle a line: diffs stay readable)."""
    lines = [json.dumps(p.to_dict(), separators=(",", ":")) for p in puzzles]
    header = json.dumps({"format": FORMAT, "version": VERSION, "made_by": made_by})[:-1]
    body = ",\n".join(lines)
    Path(path).write_text(f'{header}, "puzzles": [\n{body}\n]}}\n', encoding="utf-8")


def find(puzzles: Sequence[Puzzle], puzzle_id: str) -> Puzzle:
    """The puzzle with this id (or a unique prefix of it); ValueError otherwise."""
    found = [p for p in puzzles if p.id.startswith(puzzle_id)]
    if len(found) != 1:
        raise ValueError(
            f"no puzzle {puzzle_id!r}" if not found else f"{puzzle_id!r} names several puzzles"
        )
    return found[0]
