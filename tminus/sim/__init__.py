"""Playing many games: the driver, simulations and their statistics."""

from tminus.sim.runner import GameResult, play_game, simulate

__all__ = ["GameResult", "play_game", "simulate"]
