"""Exact solvers and the agents that play their solutions.

``SOLVERS`` maps a game to a function that returns its solver's findings as Markdown
(imported on demand: solving can take a few seconds, Sputnik's a few minutes).
"""

from __future__ import annotations

from collections.abc import Callable


def _four_way() -> str:
    from tminus.agents.solvers import four_way, four_way_duel

    return four_way.report() + "\n\n" + four_way_duel.report()


def _count_down() -> str:
    from tminus.agents.solvers.count_down import report

    return report()


def _sputnik() -> str:
    from tminus.agents.solvers.sputnik import report

    return report()


SOLVERS: dict[str, Callable[[], str]] = {
    "four_way": _four_way,
    "count_down": _count_down,
    "sputnik": _sputnik,
}
