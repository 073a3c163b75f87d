"""How much better than the greedy bot an agent plays 4-Way CountDown for two, measured
on exact values instead of counted wins.

Even perfect play wins only 50.34% against greedy (adult rules), so counting wins needs
about 80,000 games to tell any agent from greedy. The performance difference lemma
(Kakade & Langford 2002) needs far fewer: an agent's chance to win against greedy, less
greedy's own, is the expected sum over the agent's moves of
    Q(its move) - Q(the move greedy would make there),
where Q is the exact chance to win when both sides play greedy from then on
(``four_way_duel.duel_values``). The dice's luck, which decides most games, cancels out of
each difference; what is left is how the agent's choices differ from greedy's.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache

import numpy as np

from tminus.agents.registry import make_agent
from tminus.agents.solvers.four_way_duel import duel_values, greedy_policy
from tminus.core.playout import sample_chance
from tminus.games.four_way.game import FourWayGame, FourWayState


@dataclass(frozen=True)
class Edge:
    agent: str
    variant: str
    games: int
    mean: float  # the agent's chance to win against greedy, less one half
    standard_error: float
    differing_moves: int  # moves where the agent did not play what greedy would


@cache
def both_greedy_values(variant: str) -> np.ndarray:
    """V[m, o]: the chance to win of the player about to roll, both playing greedy."""
    game = FourWayGame(players=2, variant=variant)
    greedy = greedy_policy(game)
    return duel_values(game.junior, greedy, greedy)[0]


def greedy_continuation_value(state: FourWayState, action: int, values: np.ndarray) -> float:
    """The mover's chance to win after ``action`` when both then play greedy: the turn
    passes, so it is one less the opponent's chance as the next to roll."""
    me = state.current_player()
    after = state.clone()
    after.apply_action(action)
    if after.is_terminal():
        return 1.0 if me in after.winners() else 0.0
    return 1.0 - float(values[after.keys_mask(1 - me), after.keys_mask(me)])


def edge_over_greedy(spec: str, games: int, seed: int = 0, variant: str = "adult") -> Edge:
    """Play ``spec`` against greedy (seats alternating) and sum, per game, the exact value of
    each of its moves less that of greedy's move in its place."""
    game = FourWayGame(players=2, variant=variant)
    values = both_greedy_values(variant)
    sums, differing = [], 0
    for index in range(games):
        seat = index % 2
        agent = make_agent(spec, game, seed=[seed, index, 0])
        greedy = make_agent("greedy", game, seed=[seed, index, 1])
        dice = random.Random(f"{seed}-{index}")
        state, total = game.new_initial_state(), 0.0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), dice.random()))
                continue
            greedy_move = greedy.step(state)
            move = agent.step(state) if state.current_player() == seat else greedy_move
            if move != greedy_move:
                differing += 1
                total += greedy_continuation_value(state, move, values)
                total -= greedy_continuation_value(state, greedy_move, values)
            state.apply_action(move)
        sums.append(total)
    spread = float(np.std(sums, ddof=1)) if games > 1 else math.inf
    return Edge(spec, variant, games, float(np.mean(sums)), spread / math.sqrt(games), differing)
