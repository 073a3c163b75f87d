"""A game to review, read from a server export (``tminus-game-export``, as ``tminus verify``
reads it) or a saved state (``tminus-state``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tminus.core.game import Game, IllegalActionError
from tminus.core.registry import load_game
from tminus.core.serialize import FORMAT as STATE_FORMAT
from tminus.core.serialize import state_from_dict

EXPORT_FORMAT = "tminus-game-export"  # as tminus.server.fairness writes it


@dataclass(frozen=True)
class GameRecord:
    game: Game
    history: list[int]  # every action, chance outcomes included
    names: list[str]  # a name per seat


def read_record(data: Any) -> GameRecord:
    """The game and its actions; ValueError saying what is wrong with ``data``."""
    if not isinstance(data, dict):
        raise ValueError("a game to review is a JSON object (a game export or a saved state)")
    if data.get("format") == STATE_FORMAT:
        state = state_from_dict(data)
        return GameRecord(state.game, state.history(), default_names(state.game))
    if data.get("format") != EXPORT_FORMAT:
        raise ValueError(f"not a T-minus game export ({EXPORT_FORMAT}) or saved state")
    try:
        game = load_game(data["game"], **data["params"])
    except (KeyError, TypeError) as error:
        raise ValueError(f"the export names no game and parameters: {error}") from None
    entries = data.get("actions")
    if not isinstance(entries, list):
        raise ValueError("the export has no list of actions")
    history = []
    for index, entry in enumerate(entries):
        if isinstance(entry, dict) and (entry.get("take_back") or entry.get("taken_back")):
            continue  # a move taken back, and its take-back: the game as it stands skips both
        action = entry.get("action") if isinstance(entry, dict) else None
        if isinstance(action, bool) or not isinstance(action, int):
            raise ValueError(
                f"action {index} has no action id: an export made before the end hides them, "
                "export the game again once it is over"
            )
        history.append(action)
    state = game.new_initial_state()
    for index, action in enumerate(history):
        try:
            state.apply_action(action)
        except IllegalActionError as error:
            raise ValueError(f"action {index} does not replay: {error}") from None
    seats = data.get("seats")
    names = default_names(game)
    if isinstance(seats, list) and len(seats) == game.num_players:
        names = [
            str(s.get("name") or n) if isinstance(s, dict) else n
            for s, n in zip(seats, names, strict=True)
        ]
    return GameRecord(game, history, names)


def default_names(game: Game) -> list[str]:
    return [f"Player {seat + 1}" for seat in range(game.num_players)]
