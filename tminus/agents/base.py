"""The agent protocol: anything that picks a legal action for the player to move.

A searching agent may also say what it made of the position: after ``step``, its
``estimate`` is the mover's chance to win by its own reckoning (None: it has none, as
after a forced move). ``estimate_of`` reads it from any agent.
"""

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


def is_instant(agent: object) -> bool:
    """Whether ``agent`` answers in microseconds (its class says ``instant = True``): the
    server lets such a bot think in its own process, where a round trip to a worker
    process would cost a hundred times its thought."""
    return bool(getattr(agent, "instant", False))


def estimate_of(agent: object) -> float | None:
    """The chance to win that ``agent`` gave its last move, if it keeps one."""
    value = getattr(agent, "estimate", None)
    return None if value is None else float(value)
