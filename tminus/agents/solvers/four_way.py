"""4-Way CountDown solved for one player: the fewest expected turns to flip all ten keys.

A player alone faces a stochastic shortest-path problem over the 1,024 sets of keys up:
    E[all up] = 0
    E[m] = 1 + sum over the 21 rolls r of p(r) * min over the options o of E[o(m, r)]
where a double six's only option is all keys down and a roll with no option leaves m.
Value iteration converges to E; the policy is the arg-min. Alone, there is nobody to
attack, so eleven offers only its flips. Greedy and random are scored by evaluating
their (fixed) policies on the same equations.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from tminus.core.progress import Steps, step_of
from tminus.games.four_way.actions import ATTACK, DICE, PASS, RESET, SCORE_KEYS, SCORE_MASKS
from tminus.games.four_way.game import DICE_OUTCOMES, FourWayGame, FourWayState, moves_for_roll
from tminus.games.four_way.rules import ALL_KEYS_UP

MASKS = 1 << 10
ROLL_PROBABILITIES = np.array([p for _, p in DICE_OUTCOMES])


def next_mask(mask: int, action: int) -> int:
    if action == RESET:
        return 0
    if action < SCORE_KEYS:
        return mask | (1 << action)
    if action < ATTACK:
        return mask | SCORE_MASKS[action - SCORE_KEYS]
    return mask  # pass (an attack changes nothing of one's own keys)


def solo_moves(junior: bool, roll: int, mask: int) -> list[int]:
    """A lone player's moves: the flips or the reset; pass when there are none."""
    return list(moves_for_roll(junior, roll, mask)) or [PASS]


@cache
def option_masks(junior: bool) -> np.ndarray:
    """options[r, m, k]: the mask after the k-th move on roll r (padded by repeating).

    Shared by the solvers (cached): read it, never write to it."""
    widest = max(len(solo_moves(junior, r, m)) for r in range(len(DICE)) for m in range(MASKS))
    table = np.zeros((len(DICE), MASKS, widest), dtype=np.int64)
    for r in range(len(DICE)):
        for m in range(MASKS):
            results = [next_mask(m, a) for a in solo_moves(junior, r, m)]
            table[r, m] = results + [results[0]] * (widest - len(results))
    return table


def _expected_turns(step, tolerance: float = 1e-12) -> np.ndarray:
    """Iterate E <- 1 + sum_r p(r) * step(E)[r] to its fixed point; E[all up] = 0."""
    expected = np.zeros(MASKS)
    while True:
        updated = 1.0 + ROLL_PROBABILITIES @ step(expected)
        updated[ALL_KEYS_UP] = 0.0
        if np.max(np.abs(updated - expected)) < tolerance:
            return updated
        expected = updated


@dataclass(frozen=True)
class Solution:
    junior: bool
    expected: np.ndarray  # expected turns to finish from each mask, playing optimally
    policy: np.ndarray  # policy[r, m]: the optimal next mask

    @property
    def from_start(self) -> float:
        return float(self.expected[0])


@cache
def solve(junior: bool) -> Solution:
    options = option_masks(junior)
    expected = _expected_turns(lambda e: e[options].min(axis=2))
    best = np.take_along_axis(options, expected[options].argmin(axis=2)[..., None], axis=2)
    return Solution(junior, expected, best[..., 0])


def evaluate(junior: bool, choose) -> float:
    """Expected turns from the start of a fixed policy ``choose(roll, mask, moves) -> weights``.

    ``weights`` gives a probability to each move, so random play is a policy too.
    """
    options = option_masks(junior)
    weights = np.zeros(options.shape)
    for r in range(len(DICE)):
        for m in range(MASKS):
            moves = solo_moves(junior, r, m)
            weights[r, m, : len(moves)] = choose(r, m, moves)
    return float(_expected_turns(lambda e: (e[options] * weights).sum(axis=2))[0])


def simulate_solo(junior: bool, games: int, seed: int) -> np.ndarray:
    """Turns that ``games`` lone optimal players take to finish (vectorised over games)."""
    policy = solve(junior).policy
    rng = np.random.default_rng(seed)
    masks = np.zeros(games, dtype=np.int64)
    turns = np.zeros(games, dtype=np.int64)
    playing = np.ones(games, dtype=bool)
    while playing.any():
        rolls = rng.choice(len(DICE), size=int(playing.sum()), p=ROLL_PROBABILITIES)
        masks[playing] = policy[rolls, masks[playing]]
        turns[playing] += 1
        playing &= masks != ALL_KEYS_UP
    return turns


class FourWaySolverAgent:
    """With two players, plays perfectly: the move with the best chance to win by the
    solved duel (``four_way_duel``). With three or four, plays the solo policy and, on
    eleven, attacks the leader when that costs them more expected turns than flipping
    key 1 would save its own."""

    name = "solver"

    def __init__(self, game: FourWayGame, seed: object = None) -> None:
        self.expected = solve(game.junior).expected
        self.duel: np.ndarray | None = None
        if game.num_players == 2:
            from tminus.agents.solvers.four_way_duel import solve as solve_duel

            self.duel = solve_duel(game.junior)

    def step(self, state: FourWayState) -> int:
        legal = state.legal_actions()
        self.estimate: float | None = None  # with two: the exact chance (agent protocol)
        if self.duel is not None:
            best = max(legal, key=lambda action: self.chance_to_win(state, action))
            self.estimate = self.chance_to_win(state, best)
            return best
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        mine = state.keys_mask(me)
        flips = [a for a in legal if a < ATTACK]
        best_flip = min(flips, key=lambda a: self.expected[next_mask(mine, a)], default=None)
        attacks = [a for a in legal if ATTACK <= a < PASS]
        if attacks:
            targets = [a - ATTACK for a in attacks]
            leader = min(targets, key=lambda s: self.expected[state.keys_mask(s)])
            their_loss = self.expected[0] - self.expected[state.keys_mask(leader)]
            my_gain = (
                self.expected[mine] - self.expected[next_mask(mine, best_flip)]
                if best_flip is not None
                else 0.0
            )
            if their_loss > my_gain:
                return ATTACK + leader
        return best_flip if best_flip is not None else legal[0]

    def chance_to_win(self, state: FourWayState, action: int) -> float:
        """The mover's chance to win after ``action``, two players playing perfectly."""
        if self.duel is None:
            raise ValueError("the chance to win is solved for two players only")
        me = state.current_player()
        after = state.clone()
        after.apply_action(action)
        if after.is_terminal():  # won, or (at the turn cap) a draw
            return 1.0 if me in after.winners() else 0.5
        them = 1 - me  # to roll next, against my keys
        return 1.0 - float(self.duel[after.keys_mask(them), after.keys_mask(me)])


def greedy_choice(game: FourWayGame):
    from tminus.agents.greedy.four_way import FourWayGreedy

    greedy = FourWayGreedy(game)

    def choose(roll: int, mask: int, moves: list[int]) -> list[float]:
        best = greedy.best_flip([a for a in moves if a < ATTACK])
        best = moves[0] if best is None else best
        return [1.0 if a == best else 0.0 for a in moves]

    return choose


def random_choice(roll: int, mask: int, moves: list[int]) -> list[float]:
    return [1 / len(moves)] * len(moves)


def expected_turns_table(progress: Steps | None = None) -> dict[str, dict[str, float]]:
    """Expected turns to finish alone, from all keys down: solver, greedy and random (each
    variant told to ``progress`` when done)."""
    table: dict[str, dict[str, float]] = {}
    done = step_of(progress, "4-Way alone: variants solved")
    for variant in ("adult", "junior"):
        game = FourWayGame(players=2, variant=variant)
        done(len(table), 2)
        table[variant] = {
            "solver": solve(game.junior).from_start,
            "greedy": evaluate(game.junior, greedy_choice(game)),
            "random": evaluate(game.junior, random_choice),
        }
    done(2, 2)
    return table


def report(progress: Steps | None = None) -> str:
    table = expected_turns_table(progress)
    lines = [
        "# 4-Way CountDown, one player alone",
        "",
        "Expected turns to flip all ten keys up from all down (double six included),",
        "by value iteration over the 1,024 sets of keys (`solver` = the optimal policy).",
        "",
        "| variant | solver | greedy | random |",
        "|---|---|---|---|",
    ]
    for variant, row in table.items():
        lines.append(
            f"| {variant} | {row['solver']:.4f} | {row['greedy']:.4f} | {row['random']:.4f} |"
        )
    return "\n".join(lines)
