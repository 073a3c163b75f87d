"""Monte Carlo tree search for any game of the contract.

``MCTSAgent`` is UCT: chance nodes are sampled, each node keeps every player's total
reward (max-n: the player to move picks by its own mean), and a rollout agent finishes
each simulation. It reads the whole state, so it refuses hidden-information games.

``ISMCTSAgent`` is single-observer information-set MCTS (Cowling, Powley & Whitehouse
2012): every simulation starts from ``resample_hidden`` (a deal consistent with what the
searching seat has seen), the tree's edges are moves *as that seat sees them*
(``action_to_string_for``), so hidden outcomes merge into one node, and UCB counts a
child's availability instead of its parent's visits.

Two options make either search stronger where a good rollout agent exists, and both are
the default where they apply (a game's greedy player rolls out; a game of rounds):

- ``root="halving"``: the root's moves are compared by sequential halving (Karnin, Koren &
  Somekh 2013; the root of Gumbel MuZero, Danihelka et al. 2022) on common random numbers:
  in each phase every move still in play is simulated on the *same* few fresh seeds, that
  is the same deal of the hidden cards and the same stream of dice and draws, so their
  differences are measured without most of the luck, which in a long game of chance is far
  larger than what one move changes. Below the root each simulation is played out by the
  rollout agent. The moves other than the rollout agent's own choice are halved until one
  is left; the last phase plays that one against the rollout agent's choice on fresh seeds
  (at least ``FINAL_SEEDS``), and it replaces that choice only when it wins by ``margin``
  standard errors of the paired difference: a one-step improvement of the rollout policy.
- ``horizon="round"``: in a game played in rounds, a simulation ends when the round is
  scored and counts the round's result (``State.round_returns``), not the whole match's
  (a round that ends the game counts as the game).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

import numpy as np

from tminus.agents.registry import default_rollout, make_agent
from tminus.core.game import CHANCE, Game, State
from tminus.core.playout import ChanceStreams, sample_chance

ROOTS = ("uct", "halving")
# The last phase's seeds at least: fewer, and "two standard errors" is not what it says.
FINAL_SEEDS = 8
HORIZONS = ("game", "round")


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
        root: str | None = None,
        horizon: str | None = None,
        margin: float = 2.0,
    ) -> None:
        if not self.determinize and game.game_type.information != "perfect":
            raise ValueError(
                f"mcts reads the whole state, so it would cheat at {game.name}: use ismcts"
            )
        if simulations < 1:
            raise ValueError("mcts needs at least one simulation")
        rollout = rollout or default_rollout(game.name)
        # Unless told: a rollout player worth following anchors a halving root (random
        # rollouts and time budgets keep UCT), and a game of rounds is simulated to the round's end.
        in_rounds = game.game_type.rounds
        root = root or ("halving" if rollout != "random" and seconds is None else "uct")
        horizon = horizon or ("round" if in_rounds else "game")
        if root not in ROOTS:
            raise ValueError(f"root must be one of {', '.join(ROOTS)}, not {root!r}")
        if horizon not in HORIZONS:
            raise ValueError(f"horizon must be one of {', '.join(HORIZONS)}, not {horizon!r}")
        if horizon == "round" and not in_rounds:
            raise ValueError(f"{game.name} is not played in rounds: horizon=round does not apply")
        if root == "halving" and seconds is not None:
            raise ValueError(
                "root=halving shares its simulations out in phases: give simulations, not seconds"
            )
        self.root = root
        self.horizon = horizon
        self.margin = margin
        self._round_limit: int | None = None  # rounds finished at the root, for horizon=round
        self.game = game
        self.simulations = simulations
        self.seconds = seconds
        self.exploration = exploration
        self.max_rollout_moves = max_rollout_moves
        self._rng = np.random.default_rng(seed)
        self.rollout = rollout
        # Random rollouts are most of the work: draw them from a plain, seeded Random.
        self._random_rollouts = rollout == "random"
        self._fast = random.Random(int(self._rng.integers(2**63)))
        self._rollout = make_agent(rollout, game, seed=self._rng.integers(2**63))
        self._low = game.min_utility
        self._span = (game.max_utility - game.min_utility) or 1.0

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        self.estimate: float | None = None  # the chosen move's mean result (agent protocol)
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        if self.horizon == "round":
            self._round_limit = state.rounds_finished()
        if self.root == "halving":
            return self._sequential_halving(state, legal, me)
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
        best = max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)
        chosen = root.children[best]
        self.estimate = chosen.totals[me] / chosen.visits
        return best

    def _start(self, state: State, me: int, rng: np.random.Generator | None = None) -> State:
        if not self.determinize:
            return state.clone()
        return state.resample_hidden(me, self._rng if rng is None else rng)

    # -- the root by sequential halving, on common random numbers -------------------------
    def _sequential_halving(self, state: State, legal: list[int], me: int) -> int:
        anchor = self._rollout.step(self._start(state, me))  # what the rollout agent would play
        challengers = [a for a in legal if a != anchor]
        # Halve the challengers until one is left (n -> n // 2: bit_length - 1 phases), then
        # play it against the anchor. Each phase spends about the same, and at least one seed.
        budget = self.simulations // len(challengers).bit_length()
        while len(challengers) > 1:
            values = self._play_phase(state, me, challengers, budget // len(challengers))
            challengers.sort(key=lambda a: -_mean(values[a]))
            del challengers[max(1, len(challengers) // 2) :]
        # The last two meet on fresh seeds: the challenger that won the earlier phases had
        # luck on its side there, and judging it on the same draws would reward that luck.
        (challenger,) = challengers
        final = self._play_phase(state, me, [anchor, challenger], max(FINAL_SEEDS, budget // 2))
        chosen = challenger if self._clearly_better(final[challenger], final[anchor]) else anchor
        self.estimate = _mean(final[chosen])
        return chosen

    def _play_phase(
        self, state: State, me: int, moves: list[int], seeds: int
    ) -> dict[int, list[float]]:
        """Each move's value on each of ``seeds`` new seeds, the same seeds for every move."""
        values: dict[int, list[float]] = {a: [] for a in moves}
        for _ in range(max(1, seeds)):
            seed = int(self._rng.integers(2**63))
            for action in moves:
                values[action].append(self._paired_simulation(state, action, me, seed))
        return values

    def _paired_simulation(self, state: State, action: int, me: int, seed: int) -> float:
        """``action`` in a world, a rollout player and the luck of chance drawn from ``seed``
        alone (separate streams of it: the world, the player, each stream of the game's luck)."""
        world = self._start(state, me, np.random.default_rng([seed, 0]))
        world.apply_legal_action(action)
        rollout = make_agent(self.rollout, self.game, seed=[seed, 1])
        moves = random.Random(f"{seed}/moves")  # a random rollout's picks
        return self._rollout_returns(world, moves, rollout, ChanceStreams(seed))[me]

    def _clearly_better(self, challenger: list[float], anchor: list[float]) -> bool:
        """The paired difference's mean exceeds ``margin`` standard errors (any gain at all
        when every seed gave the same difference, as in a game without chance). The last
        phase always has ``FINAL_SEEDS`` seeds at least, so the spread can be estimated."""
        differences = np.subtract(challenger, anchor)
        spread = differences.std(ddof=1) / math.sqrt(len(differences))
        return differences.mean() > self.margin * spread

    # -- one simulation: select, expand, roll out, back up -------------------------------
    def _simulate(self, root: Node, state: State, me: int) -> None:
        path = [root]
        node = root
        while not self._finished(state):
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
        returns = self._rollout_returns(state, self._fast, self._rollout)
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

    def _finished(self, state: State) -> bool:
        """The game is over, or with horizon=round the round the search started in."""
        return state.is_terminal() or self._round_over(state)

    def _round_over(self, state: State) -> bool:
        return self._round_limit is not None and state.rounds_finished() > self._round_limit

    def _rollout_returns(
        self,
        state: State,
        fast: random.Random,
        rollout: Any,
        streams: ChanceStreams | None = None,
    ) -> list[float]:
        """Play on to the horizon; chance from ``streams`` when given, else from ``fast``."""
        moves = 0
        limit = self.max_rollout_moves
        pick = fast.random
        while not self._finished(state) and (limit is None or moves < limit):
            if state.is_chance_node():
                if streams is None:
                    outcome = sample_chance(state.chance_outcomes(), pick())
                else:
                    outcome = streams.draw(state)
                state.apply_legal_action(outcome)
            elif self._random_rollouts:
                legal = state.legal_actions()
                state.apply_legal_action(legal[int(pick() * len(legal))])
                moves += 1
            else:
                state.apply_action(rollout.step(state))
                moves += 1
        # A round that ended the game counts as the game; an unfinished rollout as a draw.
        # Rewards are scaled to [0, 1].
        if not state.is_terminal() and self._round_over(state):
            returns = state.round_returns()
        else:
            returns = state.returns()
        return [(r - self._low) / self._span for r in returns]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


class ISMCTSAgent(MCTSAgent):
    name = "ismcts"
    determinize = True
