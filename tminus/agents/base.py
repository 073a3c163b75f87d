"""The agent protocol: anything that picks a legal action for the player to move."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from tminus.core.game import State


@runtime_checkable
class Agent(Protocol):
    name: str

    def step(self, state: State) -> int:
        """A legal action for ``state.current_player()``. Never called at chance nodes."""
        ...
