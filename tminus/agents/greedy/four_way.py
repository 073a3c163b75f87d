"""A sensible 4-Way CountDown player: hardest keys first, attacks the leader on eleven."""

from __future__ import annotations

from functools import cache

from tminus.games.four_way import rules
from tminus.games.four_way.actions import ATTACK, FLIP, PASS, SCORE_KEYS, SCORE_PAIRS
from tminus.games.four_way.game import FourWayGame, FourWayState


@cache  # (the same for every game: a server makes a greedy player for every bot seat)
def hardness(junior: bool) -> dict[int, float]:
    """For each key, how hard it is to get: 1 / the chance that one roll offers it."""
    return {key: 1 / p for key, p in chance_to_get(junior).items()}


def chance_to_get(junior: bool) -> dict[int, float]:
    """For each key, the chance that one roll of two dice offers it (keys all down)."""
    hits = dict.fromkeys(rules.KEYS, 0)
    for a in range(1, 7):
        for b in range(1, 7):
            if junior:
                offered = set(rules.junior_single_keys(a, b))
                pair = rules.junior_score_keys(a, b)
                offered |= set(pair) if pair else set()
            else:
                offered = set(rules.adult_keys(a, b))
            for key in offered:
                hits[key] += 1
    return {key: count / 36 for key, count in hits.items()}


class FourWayGreedy:
    name = "greedy"
    instant = True  # a move in microseconds (scripts/bot_think_time.py)

    def __init__(self, game: FourWayGame, seed: int | list[int] | None = None) -> None:
        # A key that few rolls offer is worth more now: it will be hard to get later.
        self._hardness = hardness(game.junior)

    def keys_flipped(self, action: int) -> list[int]:
        if FLIP <= action < SCORE_KEYS:
            return [action - FLIP + 1]
        if SCORE_KEYS <= action < ATTACK:
            return list(SCORE_PAIRS[action - SCORE_KEYS])
        return []

    def step(self, state: FourWayState) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]  # pass, reset, or the only option
        flips = [a for a in legal if a < ATTACK]
        attacks = [a for a in legal if ATTACK <= a < PASS]
        best_flip = self.best_flip(flips)
        if attacks:
            target = self.leader(state, [a - ATTACK for a in attacks])
            keys_lost = len(state.keys_up(target))
            keys_won = len(self.keys_flipped(best_flip)) if best_flip is not None else 0
            if keys_lost > keys_won:
                return ATTACK + target
        return best_flip if best_flip is not None else legal[0]

    def best_flip(self, flips: list[int]) -> int | None:
        """The flip worth most: the keys hardest to get later (None without flips)."""
        return max(flips, key=self.flip_value, default=None)

    def flip_value(self, action: int) -> float:
        return sum(self._hardness[k] for k in self.keys_flipped(action))

    @staticmethod
    def leader(state: FourWayState, opponents: list[int]) -> int:
        """The opponent with most keys up; on a tie, the one who plays soonest."""
        me, n = state.current_player(), state.game.num_players
        return max(opponents, key=lambda s: (len(state.keys_up(s)), -((s - me) % n)))
