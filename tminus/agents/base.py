"""The agent protocol: anything that picks a legal action for the player to move."""

from __future__ import annotations

from typing import Protocol, TypeVar, runtime_checkable

from tminus.core.game import State

# The states an agent can play: a game's own agents take its state class.
S = TypeVar("S", bound=State, contravariant=True)


@runtime_checkable
class Agent(Protocol[S]):
    name: str

    def step(self, state: S) -> int:
        """A legal action for ``state.current_player()``. Never called at chance nodes."""
        ...
