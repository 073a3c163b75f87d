"""Bots that answer in microseconds think in the event loop's process.

A random or greedy player (``is_instant``: ``scripts/bot_think_time.py`` measures them,
0.25 ms at the longest) chooses a move a hundred times faster than a round trip to a
worker process (``bot_pool``) and back. Every other bot still thinks in a worker, within
its CPU budget.

Each (game, seat) keeps its agent while the game goes on as that agent saw it, as a worker
keeps it (after a take-back the agent starts afresh), so a bot plays the same moves here as
a worker would.
"""

from __future__ import annotations

import logging

from tminus.agents.base import estimate_of, is_instant
from tminus.agents.registry import make_agent
from tminus.core.game import Game, State
from tminus.server.bot_pool import Thought, played_at_random
from tminus.server.bot_thinking import SeatMemory

log = logging.getLogger("tminus.server.bots")


class QuickBots:
    def __init__(self) -> None:
        self.agents = SeatMemory()  # each seat's agent, as a worker keeps it
        self.kinds: dict[tuple[str, str], bool] = {}  # (game, spec) -> instant?

    def instant(self, game: Game, spec: str) -> bool:
        """Whether the bot ``spec`` thinks here in ``game`` (asked once a game and spec)."""
        key = (game.name, spec)
        if key not in self.kinds:
            try:
                self.kinds[key] = is_instant(make_agent(spec, game, seed=0))
            except Exception:  # (a spec that fails here fails in a worker, and is told so)
                self.kinds[key] = False
        return self.kinds[key]

    def think(
        self, game_id: str, game: Game, state: State, seat: int, spec: str, seed: int, name: str
    ) -> Thought:
        """The bot's move in ``state``; a random legal one (with the reason) if it failed."""
        legal = state.legal_actions()
        history = state.history()
        key = (game_id, seat)
        seen = self.agents.recall(key, history)
        agent = make_agent(spec, game, seed=seed) if seen is None else seen[1]
        try:
            action = int(agent.step(state.clone()))
        except Exception:
            log.exception("bot %s (%s) in game %s failed", name, spec, game_id)
            problem = "failed"
        else:
            self.agents.keep(key, history, agent)
            if action in legal:
                return Thought(action, estimate=estimate_of(agent))
            problem = f"chose the illegal move {action}"
        return played_at_random(name, game_id, problem, legal)

    def forget(self, game_id: str) -> None:
        """A game whose bots are no longer played here."""
        self.agents.forget(game_id)
