"""Fast rule players that finish a batch's games for a review's playouts.

Not the bots: a rollout player only has to end games the way sensible players would, so
that who wins says something about the position it started from, and to do it for
thousands of games at once. Which one a review uses is chosen by measurement
(``scripts/rollout_players.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tminus.batch.three_two_one import MAX_RUNS, ThreeTwoOneBatch, V
from tminus.games.three_two_one import game as ref
from tminus.games.three_two_one import rules
from tminus.games.three_two_one.actions import (
    DECLARE_BLASTOFF,
    DECLARE_COUNTDOWN,
    DRAW_LEFT,
    DRAW_PILE,
    LEFT,
    MAX_SET,
    RIGHT,
)

VALUES = np.arange(V)
MEAN_CARD = float((VALUES * np.array(rules.DECK)).sum() / rules.DECK_SIZE)
# Two careful players can pass the same cards back and forth for ever (each takes the card
# the other just shed); now and then a blind draw breaks such a cycle (as greedy's does).
BLIND_DRAW_CHANCE = 0.1


class ThreeTwoOneShedder:
    """3-2-1 Countdown by rule: Blastoff! when it can; Countdown! when its total is below
    what each other player is expected to hold (the cards others saw it take, plus the mean
    card for each unseen one); else shed the set worth most points onto the pile with the
    higher top (the other, lower top stays to be taken), and take the other pile's top card
    when it is worth less than a blind draw (half as much when it pairs with the hand), but
    for a blind draw now and then."""

    name = "shedder"

    def __init__(self, env: ThreeTwoOneBatch, seed: Any = None) -> None:
        self.env = env
        self.rng = np.random.default_rng(seed)

    def act(self) -> np.ndarray:
        env = self.env
        actions = np.zeros(env.batch_size, dtype=np.int64)
        turn = np.flatnonzero(env.phase == ref.TURN)
        if len(turn):
            actions[turn] = self._turn(turn)
        draw = np.flatnonzero(env.phase == ref.DRAW)
        if len(draw):
            actions[draw] = self._draw(draw)
        return actions

    def _turn(self, games: np.ndarray) -> np.ndarray:
        env = self.env
        largest, _, onto, countdown, blastoff = env._turn_options(games)
        rows = env._mover_rows(games)
        total = env.totals.ravel()[rows]
        declare = countdown.copy()  # (only a hand that may count down is weighed)
        if countdown.any():
            may = np.flatnonzero(countdown)
            declare[may] = total[may] < self._lowest_other_guess(games[may])
        # The set worth most points (value × copies; the highest value on a tie).
        worth = largest * VALUES[:, None] * 16 + VALUES[:, None]
        value = np.argmax(np.where(largest > 0, worth, -1), axis=0)
        copies = largest[value, np.arange(len(games))]
        tops = self._tops(games)
        higher = np.where(tops[:, LEFT] >= tops[:, RIGHT], LEFT, RIGHT)
        pile = np.where(onto == ref.EITHER, higher, np.where(onto == ref.ONLY_LEFT, LEFT, RIGHT))
        discard = (value * MAX_SET + np.maximum(copies, 1) - 1) * 2 + pile
        return np.where(
            blastoff,
            DECLARE_BLASTOFF,
            np.where(declare | (copies == 0), DECLARE_COUNTDOWN, discard),
        )

    def _draw(self, games: np.ndarray) -> np.ndarray:
        env = self.env
        from_other, from_pile = env._draw_options(games)
        other = (1 - env.discarded_on[games]) & 1
        card = self._tops(games)[np.arange(len(games)), other]
        hand = env.mover_hand(games)  # (values, games)
        held = hand[np.clip(card, 0, V - 1), np.arange(len(games))] > 0
        cost = np.where(held, card * 0.5, card)
        blind = env.uniforms(games, rng=self.rng) < BLIND_DRAW_CHANCE
        take = from_other & (~from_pile | ((cost < MEAN_CARD) & ~blind))
        return np.where(take, DRAW_LEFT + other, DRAW_PILE)

    def _tops(self, games: np.ndarray) -> np.ndarray:
        """(games, 2): each pile's top card (-1: empty)."""
        env = self.env
        piles = games[:, None] * 2 + np.arange(2)[None, :]
        runs = env.run_count.ravel().take(piles)
        top = env.runs.ravel().take(piles * MAX_RUNS + np.maximum(runs - 1, 0))
        return np.where(runs > 0, top.astype(np.int64) >> 4, -1)

    def _lowest_other_guess(self, games: np.ndarray) -> np.ndarray:
        env = self.env
        n = env.num_players
        seats = np.arange(n)
        known = env.known[games].astype(np.int64)  # (games, seats, values)
        unseen = env.sizes[games] - known.sum(axis=2)
        expected = known @ VALUES + unseen * MEAN_CARD
        playing = (env.playing[games, None] >> seats) & 1 == 1
        other = playing & (env.mover[games, None] != seats)
        return np.where(other, expected, np.inf).min(axis=1)
