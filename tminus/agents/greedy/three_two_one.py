"""A sensible 3-2-1 Countdown player: sheds the highest sets, takes low cards, declares wisely.

It looks only at what its seat may know: its observation, and worlds redrawn with
``resample_hidden`` to estimate the others' hand totals before declaring.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from tminus.core.game import State
from tminus.games.three_two_one import rules
from tminus.games.three_two_one.actions import (
    DECLARE_BLASTOFF,
    DECLARE_COUNTDOWN,
    DRAW_LEFT,
    DRAW_PILE,
    discard_parts,
)
from tminus.games.three_two_one.game import ThreeTwoOneGame

SAMPLES = 32  # worlds drawn to judge a Countdown!
DECLARE_WHEN_SAFE = 0.55  # declare when nobody is lower in at least this share of worlds
SURE_BLASTOFF = -100.0  # taking the card that makes the hand all one number: Blastoff! next
SET_DISCOUNT = 0.5  # a card that pairs with the hand costs less: it leaves with its set
# Two careful players can pass the same cards back and forth for ever (each takes the card
# the other just shed). Now and then a blind draw instead breaks such a cycle.
BLIND_DRAW_CHANCE = 0.1


def unseen_cards(obs: dict[str, Any]) -> list[int]:
    """Counts of the cards this seat has not seen: the deck less its hand, the piles and the
    cards others were seen to pick up (they are in others' hands or the draw pile)."""
    counts = list(rules.DECK)
    seen = obs["hand"] + obs["discard_piles"][0] + obs["discard_piles"][1]
    for s, known in enumerate(obs["known_cards"]):
        if s != obs["seat"]:
            seen += known
    for value in seen:
        counts[value] -= 1
    return counts


def expected_draw(obs: dict[str, Any]) -> float:
    counts = unseen_cards(obs)
    size = sum(counts)
    return sum(v * c for v, c in enumerate(counts)) / size if size else 5.0


def card_cost(card: int, hand: list[int]) -> float:
    """What taking ``card`` adds to a hand, counting what it is worth for the next turn."""
    return cost_with(card, hand.count(card), len(hand))


def cost_with(card: int, copies: int, size: int) -> float:
    """``card_cost`` for a hand of ``size`` cards holding ``copies`` of ``card``."""
    if size and copies == size:  # the hand all one number with it: Blastoff! next
        return SURE_BLASTOFF
    if copies:
        return card * (1 - SET_DISCOUNT)
    return float(card)


class ThreeTwoOneGreedy:
    name = "greedy"
    instant = True  # a move in microseconds (scripts/bot_think_time.py)

    def __init__(self, game: ThreeTwoOneGame, seed: int | list[int] | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        obs = state.observation(seat)
        if obs["phase"] == "draw":
            return self.choose_draw(obs, legal)
        declaration = self.choose_declaration(state, seat, legal)
        if declaration is not None:
            return declaration
        return self.choose_discard(obs, [a for a in legal if a < DRAW_LEFT])

    # -- declaring ---------------------------------------------------------------------------
    def choose_declaration(self, state: State, seat: int, legal: list[int]) -> int | None:
        """Blastoff! is a sure 3; Countdown! when the others are likely all higher."""
        if DECLARE_COUNTDOWN in legal:
            safe, points = self.countdown_odds(state, seat)
            if DECLARE_BLASTOFF in legal and points <= rules.POINTS_BY_RANK[0]:
                return DECLARE_BLASTOFF
            if safe >= DECLARE_WHEN_SAFE:
                return DECLARE_COUNTDOWN
        if DECLARE_BLASTOFF in legal:
            return DECLARE_BLASTOFF
        return None

    def countdown_odds(self, state: State, seat: int) -> tuple[float, float]:
        """(share of worlds where nobody is lower, mean points) if ``seat`` declares now.

        Each world deals the others' unknown cards from the cards this seat has not seen, all
        worlds at once. (After a reshuffle the draw pile can only hold reshuffled cards; the
        bot ignores that, a small bias in a rare case, to judge fast.)"""
        obs = state.observation(seat)
        mine = sum(obs["hand"])
        unseen = np.repeat(np.arange(len(rules.DECK)), unseen_cards(obs))
        order = self._rng.random((SAMPLES, len(unseen))).argsort(axis=1)
        lowest = np.full(SAMPLES, rules.DECK_SIZE * 10)
        start = 0
        for other in obs["playing"]:
            if other == seat:
                continue
            known = obs["known_cards"][other]
            unknown = obs["hand_sizes"][other] - len(known)
            dealt = unseen[order[:, start : start + unknown]].sum(axis=1)
            lowest = np.minimum(lowest, sum(known) + dealt)
            start += unknown
        # "If any player's hand total is lower than the declarer's, the declarer gets 0";
        # strictly lowest scores 3 + 1 bonus, tied for lowest 3 (rules.score_countdown).
        best = rules.POINTS_BY_RANK[0]
        points = np.where(
            lowest < mine, 0, np.where(lowest > mine, best + rules.COUNTDOWN_BONUS, best)
        )
        return float((lowest >= mine).mean()), float(points.mean())

    # -- discarding and drawing ------------------------------------------------------------------
    def choose_discard(self, obs: dict[str, Any], discards: list[int]) -> int:
        """Shed the most points, counting the card the draw will then bring."""
        hand = obs["hand"]
        total = sum(hand)
        pile_draw = expected_draw(obs)
        piles = obs["discard_piles"]
        counts = Counter(hand)  # the hand by value: what is left after a discard, without copying

        def after(action: int) -> tuple[float, int]:
            value, count, pile = discard_parts(action)
            left = len(hand) - count
            other = piles[1 - pile]
            draw = pile_draw
            if other:  # what the other pile's top card would cost the hand left
                card = other[-1]
                copies = counts[card] - (count if card == value else 0)
                draw = min(cost_with(card, copies, left), pile_draw)
            return total - value * count + draw, left

        return min(discards, key=after)

    def choose_draw(self, obs: dict[str, Any], legal: list[int]) -> int:
        """Take the other pile's top card when it costs less than a blind draw."""
        if DRAW_PILE not in legal:
            return legal[0]
        top = next((a for a in legal if a != DRAW_PILE), None)
        if top is None:
            return DRAW_PILE
        card = obs["discard_piles"][top - DRAW_LEFT][-1]
        if card_cost(card, obs["hand"]) >= expected_draw(obs):
            return DRAW_PILE
        if card >= self.last_discard(obs) and self._rng.random() < BLIND_DRAW_CHANCE:
            return DRAW_PILE  # taking it would not lower the total: maybe a cycle
        return top

    @staticmethod
    def last_discard(obs: dict[str, Any]) -> int:
        """The value this seat just discarded (the top of the pile it discarded onto)."""
        return obs["discard_piles"][0 if obs["discarded_on"] == "left" else 1][-1]
