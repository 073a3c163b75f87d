"""T-minus: a digital tabletop for four countdown-themed games."""

from tminus.core import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    State,
    list_games,
    load_game,
    load_state,
    save_state,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "IllegalActionError",
    "State",
    "list_games",
    "load_game",
    "load_state",
    "save_state",
]
