"""A bot's thinking, in a worker process (never the event loop's): one turn at a time from
a pipe, within a CPU budget. The worker keeps the games it has seen (state and agent), so
a turn costs it only the actions since the last one."""

from __future__ import annotations

import signal
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from tminus.agents.base import estimate_of
from tminus.agents.registry import make_agent
from tminus.core.game import Game

WORKER_CACHE = 256  # games a worker keeps (state and agent) between turns


@dataclass(frozen=True)
class Turn:
    """What a worker needs to think about one move (the game class goes by reference)."""

    game_id: str
    game: type[Game]
    params: dict[str, Any]
    history: tuple[int, ...]
    seat: int
    spec: str
    seed: int


class OutOfTime(Exception):
    pass


class SeatMemory:
    """What a bot kept of each (game, seat) between its turns, while the game goes on as it
    saw it (a take-back starts it afresh); the ``size`` most recently used are kept."""

    def __init__(self, size: int = WORKER_CACHE) -> None:
        self.size = size
        self.kept: OrderedDict[tuple[str, int], tuple[list[int], Any]] = OrderedDict()

    def recall(self, key: tuple[str, int], history) -> tuple[list[int], Any] | None:
        """The history seen then and what was kept, if ``history`` goes on from it (it is
        taken out: ``keep`` it again)."""
        seen = self.kept.pop(key, None)
        if seen is None or list(history[: len(seen[0])]) != seen[0]:
            return None
        return seen

    def keep(self, key: tuple[str, int], history, value: Any) -> None:
        self.kept[key] = (list(history), value)
        while len(self.kept) > self.size:
            self.kept.popitem(last=False)

    def forget(self, game_id: str) -> None:
        for key in [k for k in self.kept if k[0] == game_id]:
            del self.kept[key]


_games = SeatMemory()  # this worker's: each seat's state and agent


def _out_of_time(_signum, _frame) -> None:
    raise OutOfTime()


def think(turn: Turn, budget: float) -> tuple[int, float | None] | None:
    """The bot's action and its estimate of its chance to win (``estimate_of``), or None
    if it spent its CPU budget (runs in a worker process)."""
    key = (turn.game_id, turn.seat)
    seen = _games.recall(key, turn.history)
    if seen is None:
        game = turn.game(**turn.params)
        state, agent = game.new_initial_state(), make_agent(turn.spec, game, seed=turn.seed)
        known: list[int] = []
    else:
        known, (state, agent) = seen
    for action in turn.history[len(known) :]:
        state.apply_action(action)
    signal.signal(signal.SIGPROF, _out_of_time)
    signal.setitimer(signal.ITIMER_PROF, budget)  # counts this process's CPU time
    try:
        action = int(agent.step(state.clone()))
    except OutOfTime:
        return None  # (stopped mid-thought, it is not kept: it starts afresh)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    _games.keep(key, turn.history, (state, agent))  # (one that failed is not kept either)
    return action, estimate_of(agent)


def serve_turns(connection) -> None:
    """A worker process: answer turns from the pipe, one at a time, until it closes."""
    import tminus.agents.mcts  # noqa: F401  (what search bots need, imported once)

    while True:
        try:
            turn, budget = connection.recv()
        except EOFError:
            return
        answer: tuple[str, tuple[int, float | None] | str | None]  # (kind, what think says)
        try:
            answer = ("action", think(turn, budget))
        except Exception as error:
            answer = ("error", f"{type(error).__name__}: {error}")
        connection.send(answer)
