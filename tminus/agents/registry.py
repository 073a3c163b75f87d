"""Agents by name: generic ones for every game, heuristic ones per game.

An agent is named by a spec: ``name`` or ``name:option=value:option=value``, for example
``mcts:simulations=500:rollout=greedy``.
"""

from __future__ import annotations

import importlib
from typing import Any

from tminus.agents.base import Agent
from tminus.core.game import Game
from tminus.core.registry import game_class

GENERIC: dict[str, str] = {
    "random": "tminus.agents.random_agent:RandomAgent",
    "mcts": "tminus.agents.mcts:MCTSAgent",
    "ismcts": "tminus.agents.mcts:ISMCTSAgent",
}
# mcts reads the whole state; ismcts exists for games that hide something.
FOR_INFORMATION = {"mcts": "perfect", "ismcts": "imperfect"}
PER_GAME: dict[str, dict[str, str]] = {
    "greedy": {
        "count_down": "tminus.agents.greedy.count_down:CountDownGreedy",
        "four_way": "tminus.agents.greedy.four_way:FourWayGreedy",
        "sputnik": "tminus.agents.greedy.sputnik:SputnikGreedy",
        "three_two_one": "tminus.agents.greedy.three_two_one:ThreeTwoOneGreedy",
    },
    "alphabeta": {
        "sputnik": "tminus.agents.search.alphabeta:AlphaBetaAgent",
    },
    "solver": {
        "four_way": "tminus.agents.solvers.four_way:FourWaySolverAgent",
    },
    # Perfect inside the solved endgame table (two players, radius 3), its search elsewhere.
    "endgame": {
        "sputnik": "tminus.agents.solvers.sputnik_endgame:SputnikEndgameAgent",
    },
}


def default_rollout(game_name: str) -> str:
    """How MCTS finishes a simulation unless told: with the game's greedy player when it
    has one. Random players take thousands of moves to end 3-2-1 Countdown or Count Down,
    and who wins such a game says next to nothing about the position it started from."""
    return "greedy" if game_name in PER_GAME["greedy"] else "random"


def list_agents(game_name: str) -> list[str]:
    information = game_class(game_name).game_type.information
    names = {n for n in GENERIC if FOR_INFORMATION.get(n, information) == information}
    names |= {name for name, games in PER_GAME.items() if game_name in games}
    return sorted(names)


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``mcts:simulations=500:rollout=greedy`` -> ("mcts", {"simulations": 500, ...})."""
    name, *options = spec.split(":")
    kwargs: dict[str, Any] = {}
    for option in options:
        key, sep, text = option.partition("=")
        if not sep or not key:
            raise ValueError(f"agent option {option!r} in {spec!r} is not name=value")
        kwargs[key] = _number_or_text(text)
    return name, kwargs


def _number_or_text(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make_agent(spec: str, game: Game, seed: Any = None) -> Agent:
    """An agent by spec for ``game``, seeded; ValueError naming the agents that exist."""
    name, options = parse_spec(spec)
    path = GENERIC.get(name) or PER_GAME.get(name, {}).get(game.name)
    if path is None:
        raise ValueError(
            f"unknown agent {name!r} for {game.name}; agents: {', '.join(list_agents(game.name))}"
        )
    module, cls = path.split(":")
    try:
        return getattr(importlib.import_module(module), cls)(game, seed=seed, **options)
    except TypeError as error:  # an option the agent does not take
        raise ValueError(f"agent {spec!r}: {error}") from None
