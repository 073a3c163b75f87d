"""Agents by name: generic ones for every game, heuristic ones per game."""

from __future__ import annotations

import importlib
from typing import Any

from tminus.agents.base import Agent
from tminus.core.game import Game

GENERIC: dict[str, str] = {
    "random": "tminus.agents.random_agent:RandomAgent",
}
PER_GAME: dict[str, dict[str, str]] = {
    "greedy": {
        "count_down": "tminus.agents.greedy.count_down:CountDownGreedy",
        "four_way": "tminus.agents.greedy.four_way:FourWayGreedy",
    },
}


def list_agents(game_name: str) -> list[str]:
    names = set(GENERIC) | {name for name, games in PER_GAME.items() if game_name in games}
    return sorted(names)


def make_agent(name: str, game: Game, seed: Any = None) -> Agent:
    """An agent by name for ``game``, seeded; ValueError naming the agents that exist."""
    path = GENERIC.get(name) or PER_GAME.get(name, {}).get(game.name)
    if path is None:
        raise ValueError(
            f"unknown agent {name!r} for {game.name}; agents: {', '.join(list_agents(game.name))}"
        )
    module, cls = path.split(":")
    return getattr(importlib.import_module(module), cls)(game, seed=seed)
