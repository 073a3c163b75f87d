"""The game contract, parameters, registry, saving, playouts and the conformance checker."""

from tminus.core.game import CHANCE, TERMINAL, Game, IllegalActionError, State
from tminus.core.params import Param
from tminus.core.registry import list_games, load_game
from tminus.core.serialize import load_state, save_state

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "IllegalActionError",
    "Param",
    "State",
    "list_games",
    "load_game",
    "load_state",
    "save_state",
]
