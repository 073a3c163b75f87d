"""The lobby's levels per game, weakest first: easy, medium, hard, expert.

Each level is an agent spec with the time a move it stays under on the development
machine (2 shared cores): "hard" at most 0.5 s a move, "expert" at most 2 s, measured as the
90th percentile of processor time a decision by ``scripts/calibrate_levels.py`` (the
figures are in the README, "Levels"). Search counts, not clocks, fix the budgets, so that a
level plays the same on any machine and a game replays from its seed.

A game declares its calibrated hard and expert specs in its manifest (``Levels`` in
``tminus/games/NAME/manifest.py``, with the reasons for its choices); easy is ``random``
and medium ``greedy``. A game that declares none gets levels made from the agents it has.

``levels(game_name)`` has the shape of the server's ``bot_levels``: [{"spec", "label"}].
``tminus.sim.levels`` plays every level against every other in every seat (the measure).
"""

from __future__ import annotations

from dataclasses import dataclass

from tminus.agents.registry import LEVEL_NAMES, list_agents
from tminus.core.registry import game_class, manifest

HARD_SECONDS = 0.5
EXPERT_SECONDS = 2.0
NAMES = LEVEL_NAMES


@dataclass(frozen=True)
class Level:
    name: str  # easy, medium, hard, expert
    label: str  # what the lobby shows
    spec: str  # the agent
    seconds: float | None  # the time a move it stays under here (None: instant)


def level_table(game_name: str, players: int | None = None) -> list[Level]:
    """The levels of ``game_name`` (with ``players``, when hard or expert depends on it)."""
    declared = manifest(game_name).levels
    if declared is None:
        return generic_levels(game_name)
    expert, label = declared.expert, declared.expert_label
    if players is None:  # the game's default count
        param = game_class(game_name).parameters.get("players")
        players = param.default if param else 0
    expert, label = declared.experts_by_players.get(players, (expert, label))
    hard = declared.hards_by_players.get(players, declared.hard)
    return [
        Level("easy", "Random (easy)", "random", None),
        Level("medium", "Greedy (medium)", "greedy", None),
        Level("hard", "Search (hard)", hard, HARD_SECONDS),
        Level("expert", label, expert, EXPERT_SECONDS),
    ]


def generic_levels(game_name: str) -> list[Level]:
    """A game not measured here (a new or a test game): the agents it has, by their kind."""
    agents = list_agents(game_name)
    table = [Level("easy", "Random (easy)", "random", None)]
    if "greedy" in agents:
        table.append(Level("medium", "Greedy (medium)", "greedy", None))
    search = "mcts" if "mcts" in agents else "ismcts"
    table.append(Level("hard", "Search (hard)", f"{search}:simulations=100", None))
    table.append(Level("expert", "Deep search (expert)", f"{search}:simulations=400", None))
    return table


def levels(game_name: str, players: int | None = None) -> list[dict[str, str]]:
    """The bots a lobby offers for a game, weakest first: [{"spec", "label"}]."""
    return [{"spec": level.spec, "label": level.label} for level in level_table(game_name, players)]
