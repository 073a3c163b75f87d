"""Agents by name: generic ones for every game, and each game's own from its manifest
(``GameManifest.agents``: heuristic players, solvers, searches made for it).

An agent is named by a spec: ``name`` or ``name:option=value:option=value``, for example
``mcts:simulations=500:rollout=greedy``. The lobby's level names (``easy``, ``medium``,
``hard``, ``expert``: see ``tminus.agents.levels``) name agents too: each stands for its
level's spec in the game at hand, so the terminal speaks as the browser does.
"""

from __future__ import annotations

from typing import Any

from tminus.agents.base import Agent
from tminus.core.game import Game
from tminus.core.manifest import resolve
from tminus.core.registry import game_class, list_games, manifest

GENERIC: dict[str, str] = {
    "random": "tminus.agents.random_agent:RandomAgent",
    "mcts": "tminus.agents.mcts:MCTSAgent",
    "ismcts": "tminus.agents.mcts:ISMCTSAgent",
}
# mcts reads the whole state; ismcts exists for games that hide something.
FOR_INFORMATION = {"mcts": "perfect", "ismcts": "imperfect"}
LEVEL_NAMES = ("easy", "medium", "hard", "expert")  # weakest first


def default_rollout(game_name: str) -> str:
    """How MCTS finishes a simulation unless told: with the game's greedy player when it
    has one. Random players take thousands of moves to end 3-2-1 Countdown or Count Down,
    and who wins such a game says next to nothing about the position it started from."""
    known = game_name in list_games()  # (a search may play a game made in a test)
    return "greedy" if known and "greedy" in manifest(game_name).agents else "random"


def list_agents(game_name: str) -> list[str]:
    information = game_class(game_name).game_type.information
    names = {n for n in GENERIC if FOR_INFORMATION.get(n, information) == information}
    return sorted(names | set(manifest(game_name).agents))


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


def level_spec(spec: str, game: Game) -> str:
    """``spec`` with a level's name (``hard``, ``hard:simulations=50``) replaced by the agent
    spec of that level in ``game``; any other spec as it is."""
    name = spec.split(":", 1)[0]
    if name not in LEVEL_NAMES:
        return spec
    # (imported here: tminus.agents.levels builds its levels from this module's lists)
    from tminus.agents.levels import level_table

    level = next(level for level in level_table(game.name, game.num_players) if level.name == name)
    return level.spec + spec[len(name) :]  # options given after the level's are kept


def make_agent(spec: str, game: Game, seed: Any = None) -> Agent:
    """An agent by spec or level name for ``game``, seeded; ValueError naming the agents
    and levels that exist."""
    name, options = parse_spec(level_spec(spec, game))
    path = GENERIC.get(name) or manifest(game.name).agents.get(name)
    if path is None:
        raise ValueError(
            f"unknown agent {name!r} for {game.name}; agents: {', '.join(list_agents(game.name))}"
            f"; levels: {', '.join(LEVEL_NAMES)}"
        )
    try:
        return resolve(path)(game, seed=seed, **options)
    except TypeError as error:  # an option the agent does not take
        raise ValueError(f"agent {spec!r}: {error}") from None
