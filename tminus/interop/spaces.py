"""Observation and action spaces shared by the PettingZoo and Gymnasium adapters."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from tminus.core.game import Game, State
from tminus.core.playout import sample_chance


def observation_space(game: Game) -> spaces.Dict:
    """``observation``: the seat's observation tensor; ``action_mask``: 1 for each legal action."""
    shape = game.observation_tensor_shape()
    low, high = game.observation_bounds
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, shape=shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(game.num_distinct_actions,), dtype=np.int8),
        }
    )


def action_mask(state: State, seat: int) -> np.ndarray:
    mask = np.zeros(state.game.num_distinct_actions, dtype=np.int8)
    if state.current_player() == seat:
        mask[state.legal_actions()] = 1
    return mask


def observe(state: State, seat: int) -> dict[str, np.ndarray]:
    return {
        "observation": state.observation_tensor(seat).astype(np.float32),
        "action_mask": action_mask(state, seat),
    }


def resolve_chance(state: State, rng: np.random.Generator) -> None:
    """Play chance nodes, drawing outcomes with ``rng``, until a seat must move or the end."""
    while state.is_chance_node():
        state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
