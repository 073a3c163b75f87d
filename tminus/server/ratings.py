"""Ratings of rated games, per game and player count: openskill's Plackett-Luce model.

Why openskill: our games have 2 to 8 players who finish in places (ties shared, Count Down's
partners placed together), and Plackett-Luce rates a whole ranking at once, as TrueSkill
does, under an open licence and maintained; Elo and Glicko rate pairs only. Each rating is
a belief (mu, sigma); the shown rating is the conservative ``mu - 3 sigma`` scaled so that a
newcomer shows 1500 (``shown``) and climbs as the games make sure of them, as on most sites.

Only accounts' ratings change. A person without an account plays as a newcomer; a bot
plays at the fixed rating of its level (``BOT_RATINGS``), never changed by the games.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from openskill.models import PlackettLuce

BOT_RATINGS = Path(__file__).with_name("bot_ratings.json")
SCALE, BASE = 40.0, 1500.0  # the shown rating of (mu, sigma): BASE + SCALE * (mu - 3 sigma)


@cache
def model() -> PlackettLuce:
    return PlackettLuce()


@dataclass(frozen=True)
class Belief:
    mu: float
    sigma: float


def newcomer() -> Belief:
    rating = model().rating()
    return Belief(rating.mu, rating.sigma)


def shown(belief: Belief) -> int:
    """The rating people see."""
    return round(BASE + SCALE * (belief.mu - 3 * belief.sigma))


@cache
def bot_ratings() -> dict[str, dict[str, list[float]]]:
    """{game: {bot spec: [mu, sigma]}}: each level's rating, fixed (see ``BOT_RATINGS``)."""
    return json.loads(BOT_RATINGS.read_text()) if BOT_RATINGS.exists() else {}


def bot_belief(game: str, spec: str | None) -> Belief:
    """A bot's fixed rating at ``game`` (a newcomer's if it was never measured)."""
    known = bot_ratings().get(game, {}).get(spec or "")
    return Belief(*known) if known else newcomer()


def rate(beliefs: list[Belief], places: list[int | None]) -> list[Belief]:
    """Everyone's beliefs after a game where seat i took ``places[i]`` (1 the best, ties
    shared). A seat with no place (a watcher) keeps its belief and rates nobody."""
    playing = [i for i, place in enumerate(places) if place is not None]
    if len(playing) < 2:
        return list(beliefs)
    teams = [[model().rating(mu=beliefs[i].mu, sigma=beliefs[i].sigma)] for i in playing]
    rated = model().rate(teams, ranks=[float(places[i] or 0) for i in playing])
    after = list(beliefs)
    for i, (rating,) in zip(playing, rated, strict=True):
        after[i] = Belief(rating.mu, rating.sigma)
    return after
