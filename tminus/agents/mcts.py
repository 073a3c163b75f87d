"""Monte Carlo tree search for any game of the contract.

``MCTSAgent`` is UCT: chance nodes are sampled, each node keeps every player's total
reward (max-n: the player to move picks by its own mean), and a rollout agent finishes
each simulation. It reads the whole state, so it refuses hidden-information games.

``ISMCTSAgent`` is single-observer information-set MCTS (Cowling, Powley & Whitehouse
2012): every simulation starts from ``resample_hidden`` (a deal consistent with what the
searching seat has seen), the tree's edges are moves *as that seat sees them*
(``action_to_string_for``), so hidden outcomes merge into one node, and UCB counts a
child's availability instead of its parent's visits.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

import numpy as np

from tminus.agents.registry import default_rollout, make_agent
from tminus.core.game import CHANCE, Game, State
from tminus.core.playout import sample_chance


class Node:
    __slots__ = ("available", "children", "totals", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * players


class MCTSAgent:
    name = "mcts"
    determinize = False

    def __init__(
        self,
        game: Game,
        seed: Any = None,
        simulations: int = 200,
        seconds: float | None = None,
        exploration: float = 1.4,
        rollout: str | None = None,
        max_rollout_moves: int | None = None,
    ) -> None:
        if not self.determinize and game.information != "perfect":
            raise ValueError(
                f"mcts reads the whole state, so it would cheat at {game.name}: use ismcts"
            )
        if simulations < 1:
            raise ValueError("mcts needs at least one simulation")
        self.game = game
        self.simulations = simulations
        self.seconds = seconds
        self.exploration = exploration
        self.max_rollout_moves = max_rollout_moves
        self._rng = np.random.default_rng(seed)
        rollout = rollout or default_rollout(game.name)
        self.rollout = rollout
        # Random rollouts are most of the work: draw them from a plain, seeded Random.
        self._random_rollouts = rollout == "random"
        self._fast = random.Random(int(self._rng.integers(2**63)))
        self._rollout = make_agent(rollout, game, seed=self._rng.integers(2**63))
        self._low = game.min_utility
        self._span = (game.max_utility - game.min_utility) or 1.0

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        root = Node(self.game.num_players)
        if self.seconds is None:
            for _ in range(self.simulations):
                self._simulate(root, self._start(state, me), me)
        else:  # a time budget: as many simulations as fit, at least one
            deadline = time.perf_counter() + self.seconds
            while True:
                self._simulate(root, self._start(state, me), me)
                if time.perf_counter() >= deadline:
                    break
        # The most visited move is the most robust choice.
        return max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)

    def _start(self, state: State, me: int) -> State:
        return state.resample_hidden(me, self._rng) if self.determinize else state.clone()

    # -- one simulation: select, expand, roll out, back up -------------------------------
    def _simulate(self, root: Node, state: State, me: int) -> None:
        path = [root]
        node = root
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                action = self._sample_chance(state)
                key = self._edge(state, action, me, player)
                node = node.children.setdefault(key, Node(self.game.num_players))
                state.apply_legal_action(action)
                path.append(node)
                continue
            legal = state.legal_actions()
            edges = [(self._edge(state, a, me, player), a) for a in legal]
            untried = []
            for key, action in edges:
                child = node.children.get(key)
                if child is None:
                    untried.append((key, action))
                else:
                    child.available += 1
            if untried:
                key, action = untried[self._fast.randrange(len(untried))]
                child = Node(self.game.num_players)
                child.available = 1
                node.children[key] = child
                state.apply_legal_action(action)
                path.append(child)
                break
            key, action = self._select(node, edges, player)
            node = node.children[key]
            state.apply_legal_action(action)
            path.append(node)
        returns = self._rollout_returns(state)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for seat, value in enumerate(returns):
                totals[seat] += value

    def _select(self, node: Node, edges: list[tuple[Any, int]], player: int) -> tuple[Any, int]:
        """UCB1 by the mover's own mean; a child's availability stands for its parent's visits
        (they are the same count when every move is always available)."""
        best, best_score = edges[0], -math.inf
        children, explore, log, sqrt = node.children, self.exploration, math.log, math.sqrt
        log_visits = None if self.determinize else log(node.visits)
        for key, action in edges:
            child = children[key]
            log_n = log(child.available) if log_visits is None else log_visits
            score = child.totals[player] / child.visits + explore * sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = (key, action), score
        return best

    def _edge(self, state: State, action: int, me: int, player: int) -> Any:
        """A tree edge: the action itself, or as ``me`` sees it when searching over deals."""
        if not self.determinize or player == me:
            return action
        return state.action_to_string_for(me, action)

    def _sample_chance(self, state: State) -> int:
        return sample_chance(state.chance_outcomes(), self._fast.random())

    def _rollout_returns(self, state: State) -> list[float]:
        moves = 0
        limit = self.max_rollout_moves
        pick = self._fast.random
        while not state.is_terminal() and (limit is None or moves < limit):
            if state.is_chance_node():
                state.apply_legal_action(sample_chance(state.chance_outcomes(), pick()))
            elif self._random_rollouts:
                legal = state.legal_actions()
                state.apply_legal_action(legal[int(pick() * len(legal))])
                moves += 1
            else:
                state.apply_action(self._rollout.step(state))
                moves += 1
        # An unfinished rollout counts as a draw; rewards are scaled to [0, 1].
        returns = state.returns()
        return [(r - self._low) / self._span for r in returns]


class ISMCTSAgent(MCTSAgent):
    name = "ismcts"
    determinize = True
