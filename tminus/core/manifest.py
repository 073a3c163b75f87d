"""A game's manifest: everything T-minus knows about a game beyond its engine, in one place.

Each game package declares ``MANIFEST = GameManifest(...)`` in its ``manifest.py``
(``tminus/games/NAME/manifest.py``); a game from outside T-minus passes its manifest to
``tminus.core.registry.register``. Every registry reads it: the games themselves, agents
and the lobby's levels, exact solvers, search evaluations, report facts and figures,
batch engines, and the browser's board script (sent with the server's catalog).

Everything a manifest names is a dotted path, ``"package.module:attribute"`` (a module
alone where a module is meant), imported only when it is asked for, as Gymnasium's
``entry_point`` strings: reading every game's manifest imports nothing but this module.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

_NAME = r"[A-Za-z_]\w*"
_MODULE = re.compile(rf"{_NAME}(\.{_NAME})*")
_OBJECT = re.compile(rf"{_NAME}(\.{_NAME})*:{_NAME}")


def resolve(path: str) -> Any:
    """What a dotted path names: ``"package.module:attribute"``, or a module."""
    module, _, attribute = path.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


@dataclass(frozen=True)
class Levels:
    """The lobby's search levels, calibrated (README, "Levels"); easy is always ``random``
    and medium the game's ``greedy`` agent."""

    hard: str  # an agent spec, at most 0.5 s a move
    expert: str  # at most 2 s a move
    expert_label: str = "Deep search (expert)"
    # Another expert with this many players: players -> (spec, label).
    experts_by_players: Mapping[int, tuple[str, str]] = field(default_factory=dict)
    # Another hard level with this many players (a search whose moves cost less or more
    # there): players -> spec.
    hards_by_players: Mapping[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "experts_by_players", MappingProxyType(self.experts_by_players))
        object.__setattr__(self, "hards_by_players", MappingProxyType(self.hards_by_players))


@dataclass(frozen=True)
class GameManifest:
    """One game, declared once. Only ``name`` and ``game`` are required."""

    name: str  # the game's name, as ``load_game`` takes it (its class's ``name``)
    game: str | type  # "module:Class" of its ``Game`` (a class itself: games made in tests)
    description: str | None = None  # one line for people choosing a game (the lobby)
    # What the server's committed seed decides, in words for the table's fairness panel
    # ("every roll of the dice" can be checked; Sputnik has no dice, only the lot).
    luck: str = "every chance outcome"
    # Agents of this game only, by name -> "module:Class" (random and the searches are
    # everyone's: ``tminus.agents.registry``). "greedy" also finishes MCTS simulations.
    agents: Mapping[str, str] = field(default_factory=dict)
    # A module (or object) with ``evaluate(state, seat)`` and perhaps ``order_actions``,
    # for the searches that need one (alpha-beta).
    evaluation: str | None = None
    # Exact solvers: functions that return their findings as Markdown, called with nothing
    # (or, when they take one, a ``progress`` callback: see ``tminus.agents.solvers``).
    solvers: tuple[str, ...] = ()
    # ``facts(game, history) -> dict`` of picklable data that the report figures read.
    facts: str | None = None
    # Report figures of this game: functions of the results -> ``Figure`` or None.
    figures: tuple[str, ...] = ()
    levels: Levels | None = None  # None: levels made from the agents the game has
    # The browser's board: the URL of an ES module whose default export draws it
    # (None: the generic board, which shows the observation readably).
    board: str | None = None
    # Batch engines by backend ("numpy", "jax") -> "module:Class", and their vectorised
    # agents by name (random is everyone's).
    batch: Mapping[str, str] = field(default_factory=dict)
    batch_agents: Mapping[str, str] = field(default_factory=dict)
    # The vectorised agent that plays out a review's and a hint's playouts on the batch
    # engine ("random" or one of ``batch_agents``; None: playouts on the reference engine).
    batch_rollout: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not re.fullmatch(_NAME, self.name):
            raise ValueError(f"a game's name is a Python identifier, not {self.name!r}")
        if not isinstance(self.game, type):
            self._check_path("game", self.game)
        for key in ("agents", "batch", "batch_agents"):
            table = getattr(self, key)
            for name, path in table.items():
                self._check_path(f"{key}[{name!r}]", path)
            object.__setattr__(self, key, MappingProxyType(dict(table)))
        for key in ("solvers", "figures"):
            paths = getattr(self, key)
            if isinstance(paths, str):
                raise ValueError(f"{self.name} manifest: {key} is a tuple of dotted paths")
            for index, path in enumerate(paths):
                self._check_path(f"{key}[{index}]", path)
            object.__setattr__(self, key, tuple(paths))
        if self.batch_rollout is not None:
            if "numpy" not in self.batch:
                raise ValueError(f"{self.name} manifest: batch_rollout needs a numpy batch engine")
            if self.batch_rollout != "random" and self.batch_rollout not in self.batch_agents:
                raise ValueError(
                    f"{self.name} manifest: batch_rollout is random or one of batch_agents, "
                    f"not {self.batch_rollout!r}"
                )
        if self.facts is not None:
            self._check_path("facts", self.facts)
        if self.evaluation is not None:
            self._check_path("evaluation", self.evaluation, _MODULE, "module or module:name")
        if self.board is not None and not re.fullmatch(r"/[\w./-]*\.js", self.board):
            raise ValueError(
                f"{self.name} manifest: board is a script's path on the server "
                f"(/static/js/boards/{self.name}.js), not {self.board!r}"
            )
        if self.levels is not None and not isinstance(self.levels, Levels):
            raise ValueError(f"{self.name} manifest: levels is a Levels record")

    def _check_path(
        self, key: str, path: Any, shape: re.Pattern[str] = _OBJECT, said: str = "module:name"
    ) -> None:
        ok = isinstance(path, str) and (shape.fullmatch(path) or _OBJECT.fullmatch(path))
        if not ok:
            raise ValueError(f"{self.name} manifest: {key} is a dotted path {said}, not {path!r}")
