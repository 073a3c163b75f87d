"""Playing many games: the driver, backends, simulations, tournaments and statistics."""

from tminus.sim.runner import Batch, GameResult, play_game
from tminus.sim.simulate import simulate

__all__ = ["Batch", "GameResult", "play_game", "simulate"]
