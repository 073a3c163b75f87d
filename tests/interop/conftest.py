"""Interop tests run only where the `rl` extra is installed."""

import pytest

from tminus.core.registry import game_class, list_games

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")


def every_configuration():
    """(game, params) for every registered game, player count and variant."""
    return [
        pytest.param(name, params, id=f"{name}-{'-'.join(map(str, params.values())) or 'default'}")
        for name in list_games()
        for params in game_class(name).configurations()
    ]
