"""Alpha-beta search for any game with a position evaluation (``tminus.agents.evaluation``).

- Two sides: minimax with alpha-beta pruning, from the point of view of the seat to move
  (a player may take several decisions in a row: each node maximises or minimises by who
  is to move there, not by alternation). Partners (``game.allies(seat)``) maximise too.
- More sides: ``paranoid`` (default; every opponent minimises our value, so alpha-beta
  still prunes) or ``maxn`` (each seat maximises its own value; no pruning).
- Iterative deepening, one ply (decision) at a time, within a node budget and optionally
  a time budget; the best move of the deepest finished search is played (or a better one
  found by an unfinished search after it searched the previous best first).
- Move ordering: the transposition table's best move, then the game's own ordering
  (``order_actions``), then the history heuristic.
- A transposition table keyed by ``state.state_key()`` when the game provides it.
- Chance nodes (rare in these games after the start) are averaged over their outcomes.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from tminus.agents.evaluation import evaluation_module
from tminus.core.game import Game, State

WIN = 100_000.0
EXACT, LOWER, UPPER = 0, 1, 2


class OutOfBudget(Exception):
    """The node or time budget ran out in the middle of an iteration."""


class AlphaBetaAgent:
    name = "alphabeta"

    def __init__(
        self,
        game: Game,
        seed: Any = None,
        max_nodes: int = 1500,
        max_seconds: float | None = None,
        max_depth: int = 40,
        mode: str = "paranoid",
    ) -> None:
        if mode not in ("paranoid", "maxn"):
            raise ValueError(f"alpha-beta mode is 'paranoid' or 'maxn', not {mode!r}")
        module = evaluation_module(game.name)
        self.game = game
        self.evaluate = module.evaluate
        self.order_actions = getattr(module, "order_actions", None)
        self.max_nodes = max_nodes
        self.max_seconds = max_seconds
        self.max_depth = max_depth
        self.mode = mode
        self._rng = np.random.default_rng(seed)
        self.nodes = 0
        self.depth_reached = 0
        self.last_value = 0.0  # the root value of the deepest finished search
        self._history_scores: dict[int, int] = {}
        self._table: dict[Any, tuple[int, float, int, int]] = {}

    # -- the agent -------------------------------------------------------------------------
    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self._root = state.current_player()
        self._allies = set(self.game.allies(self._root))
        self._table = {}
        self._history_scores = {}
        self.nodes = 0
        self._deadline = None if self.max_seconds is None else time.monotonic() + self.max_seconds
        # Random order among equals, so that games between fixed agents differ.
        order = [legal[i] for i in self._rng.permutation(len(legal))]
        best = self._ordered(state, order, None)[0]
        self.depth_reached = 0
        self.last_value = 0.0
        for depth in range(1, self.max_depth + 1):
            try:
                value, best = self._search_root(state, order, best, depth)
            except OutOfBudget as stop:
                if stop.args and stop.args[0] is not None:
                    best = stop.args[0]
                break
            self.depth_reached = depth
            self.last_value = value
            if abs(value) >= WIN:
                break  # a proven win or loss: deeper search changes nothing
        return best

    def _search_root(
        self, state: State, order: list[int], previous: int, depth: int
    ) -> tuple[float, int]:
        moves = [previous] + [a for a in self._ordered(state, order, None) if a != previous]
        best, best_value = previous, -float("inf")
        alpha = -float("inf")
        for index, action in enumerate(moves):
            child = state.clone()
            child.apply_action(action)
            try:
                value = self._value(child, depth - 1, alpha, float("inf"))
            except OutOfBudget:
                # The previous best was searched first: anything that beat it is better.
                raise OutOfBudget(best if index > 0 else None) from None
            if value > best_value:
                best, best_value = action, value
                alpha = max(alpha, value)
        return best_value, best

    # -- the search ------------------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise OutOfBudget
        if (
            self._deadline is not None
            and self.nodes % 128 == 0
            and time.monotonic() > self._deadline
        ):
            raise OutOfBudget

    def _leaf(self, state: State, depth: int) -> float:
        """The value of a terminal or horizon node for the root seat."""
        if state.is_terminal():
            result = state.returns()[self._root]
            if result > 0:
                return WIN + depth  # sooner wins are better
            if result < 0:
                return -WIN - depth  # later losses are better
            return 0.0
        return self.evaluate(state, self._root)

    def _value(self, state: State, depth: int, alpha: float, beta: float) -> float:
        self._tick()
        if depth <= 0 or state.is_terminal():
            return self._leaf(state, depth)
        if state.is_chance_node():
            total = 0.0
            for action, probability in state.chance_outcomes():
                child = state.clone()
                child.apply_action(action)
                total += probability * self._value(child, depth - 1, -float("inf"), float("inf"))
            return total
        if self.mode == "maxn" and len(self._sides()) > 2:
            return self._maxn(state, depth)[self._root]
        key = state.state_key() if self.game.game_type.position_keys else None
        entry = self._table.get(key) if key is not None else None
        tt_move = None
        if entry is not None:
            stored_depth, stored, flag, tt_move = entry
            if stored_depth >= depth:
                if flag == EXACT:
                    return stored
                if flag == LOWER:
                    alpha = max(alpha, stored)
                elif flag == UPPER:
                    beta = min(beta, stored)
                if alpha >= beta:
                    return stored
        maximising = state.current_player() in self._allies
        alpha_in, beta_in = alpha, beta
        best_value = -float("inf") if maximising else float("inf")
        best_move = -1
        for action in self._ordered(state, state.legal_actions(), tt_move):
            child = state.clone()
            child.apply_action(action)
            value = self._value(child, depth - 1, alpha, beta)
            if maximising:
                if value > best_value:
                    best_value, best_move = value, action
                alpha = max(alpha, value)
            else:
                if value < best_value:
                    best_value, best_move = value, action
                beta = min(beta, value)
            if alpha >= beta:
                self._history_scores[action] = self._history_scores.get(action, 0) + depth * depth
                break
        if key is not None:
            if best_value <= alpha_in:
                flag = UPPER
            elif best_value >= beta_in:
                flag = LOWER
            else:
                flag = EXACT
            self._table[key] = (depth, best_value, flag, best_move)
        return best_value

    def _sides(self) -> set[int]:
        return {min(self.game.allies(s)) for s in range(self.game.num_players)}

    def _maxn(self, state: State, depth: int) -> list[float]:
        """Max-n: every seat picks the child best for itself; values for all seats."""
        self._tick()
        seats = range(self.game.num_players)
        if state.is_terminal():
            return [WIN * r for r in state.returns()]
        if depth <= 0:
            return [self.evaluate(state, s) for s in seats]
        player = state.current_player()
        best: list[float] | None = None
        for action in self._ordered(state, state.legal_actions(), None):
            child = state.clone()
            child.apply_action(action)
            values = self._maxn(child, depth - 1)
            if best is None or values[player] > best[player]:
                best = values
        assert best is not None
        return best

    def _ordered(self, state: State, actions: list[int], first: int | None) -> list[int]:
        if self.order_actions is not None:
            actions = self.order_actions(state, actions)
        if self._history_scores:
            scores = self._history_scores
            actions = sorted(actions, key=lambda a: -scores.get(a, 0))  # stable
        if first is not None and first >= 0 and first in actions:
            actions = [first] + [a for a in actions if a != first]
        return actions
