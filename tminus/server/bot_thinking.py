"""A bot's thinking, in a worker process (never the event loop's): one turn at a time from
a pipe, within a CPU budget. The worker keeps the games it has seen (state and agent), so
a turn costs it only the actions since the last one."""

from __future__ import annotations

import signal
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from tminus.agents.base import Agent, estimate_of
from tminus.agents.registry import make_agent
from tminus.core.game import Game, State

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


_games: OrderedDict[tuple[str, int], tuple[State, Agent]] = OrderedDict()


def _out_of_time(_signum, _frame) -> None:
    raise OutOfTime()


def think(turn: Turn, budget: float) -> tuple[int, float | None] | None:
    """The bot's action and its estimate of its chance to win (``estimate_of``), or None
    if it spent its CPU budget (runs in a worker process)."""
    key = (turn.game_id, turn.seat)
    cached = _games.pop(key, None)
    known = cached[0].history() if cached is not None else []
    if cached is None or list(turn.history[: len(known)]) != known:
        game = turn.game(**turn.params)
        state, agent = game.new_initial_state(), make_agent(turn.spec, game, seed=turn.seed)
        known = []
    else:
        state, agent = cached
    for action in turn.history[len(known) :]:
        state.apply_action(action)
    _games[key] = (state, agent)
    while len(_games) > WORKER_CACHE:
        _games.popitem(last=False)
    signal.signal(signal.SIGPROF, _out_of_time)
    signal.setitimer(signal.ITIMER_PROF, budget)  # counts this process's CPU time
    try:
        action = int(agent.step(state.clone()))
    except OutOfTime:
        _games.pop(key, None)  # the agent was stopped mid-thought: start it afresh
        return None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
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
