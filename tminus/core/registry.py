"""Which games exist: each game's manifest (``tminus.core.manifest``), read on demand.

The games inside T-minus are found by their packages: every ``tminus/games/NAME/`` with a
``manifest.py`` declaring ``MANIFEST``. Games from outside (and tests) ``register`` theirs.
Nothing a manifest names is imported before it is asked for, so that ``import tminus``
stays light and one game's import cost is paid only by whoever plays it.
"""

from __future__ import annotations

import importlib
import importlib.resources
import pkgutil
from typing import Any

from tminus.core.game import Game
from tminus.core.manifest import GameManifest, resolve

GAMES_PACKAGE = "tminus.games"
_manifests: dict[str, GameManifest] | None = None  # by name, once the packages are read


def _packaged_manifests() -> dict[str, GameManifest]:
    """The manifests of the game packages inside T-minus."""
    found = {}
    games = importlib.import_module(GAMES_PACKAGE)
    for package in pkgutil.iter_modules(games.__path__):
        if not package.ispkg:
            continue
        name = f"{GAMES_PACKAGE}.{package.name}.manifest"
        try:
            manifest = importlib.import_module(name).MANIFEST
        except ModuleNotFoundError as error:
            if error.name != name:  # a manifest that imports something missing: say so
                raise
            continue
        found[manifest.name] = manifest
    return found


def _all() -> dict[str, GameManifest]:
    global _manifests
    if _manifests is None:
        _manifests = _packaged_manifests()
    return _manifests


def register(manifest: GameManifest) -> None:
    """Add a game by its manifest (a game from outside T-minus, or a test's); a manifest
    of the same name takes the place of the one before."""
    if not isinstance(manifest, GameManifest):
        raise ValueError(f"register takes a GameManifest, not {type(manifest).__name__}")
    _all()[manifest.name] = manifest


def register_game(cls: type[Game]) -> None:
    """Add a game class under ``cls.name`` with nothing beyond its engine."""
    register(GameManifest(name=cls.name, game=cls))


def unregister_game(name: str) -> None:
    _all().pop(name, None)


def list_games() -> list[str]:
    return sorted(_all())


def manifest(name: str) -> GameManifest:
    """The manifest of the game ``name``; ValueError naming the games that exist."""
    found = _all().get(name)
    if found is None:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(list_games())}")
    return found


def manifests() -> list[GameManifest]:
    """Every game's manifest, by name."""
    return [_all()[name] for name in list_games()]


def game_class(name: str) -> type[Game]:
    declared = manifest(name)
    cls = declared.game if isinstance(declared.game, type) else resolve(declared.game)
    called = getattr(cls, "name", None)
    if called != name:
        raise ValueError(f"the manifest of {name!r} names a game class called {called!r}")
    return cls


def load_game(name: str, **params: Any) -> Game:
    """A game by name with its parameters, e.g. ``load_game("four_way", players=3)``."""
    return game_class(name)(**params)


def load_game_from(name: str, params: dict[str, Any]) -> Game:
    """``load_game`` with the parameters as one mapping (what pickling needs)."""
    return load_game(name, **params)


def rules_text(name: str) -> str:
    """The game's rules page (Markdown), with the T-minus rulings, from its package."""
    package = game_class(name).__module__.rsplit(".", 1)[0]
    page = importlib.resources.files(package).joinpath("RULES.md")
    if not page.is_file():  # (a game being made: its package says how it is played)
        raise ValueError(f"{name} has no rules page yet: {package} needs a RULES.md")
    return page.read_text(encoding="utf-8")
