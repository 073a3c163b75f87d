"""Ratings from a tournament's games: one Plackett-Luce model fitted to all of them at once.

Each agent has a strength; a game's seats finish in order as if drawn one by one, each time
among the seats not yet placed, with chances in proportion to their agents' strengths
(Plackett-Luce: the Bradley-Terry model of two players, extended to any number). The
strengths are the ones that make the games played most likely, found by Newton's method,
as BayesElo and Ordo rate chess engines: every game counts alike, whatever its place in the
list, where an online rating (openskill, Elo) moves with the order the games were played in.

Seats with equal results are counted in every order alike (the mean of the orders'
log-likelihoods): a two-player draw is half a win for each, as in Elo. A weak prior (each
log-strength normal with standard deviation ``PRIOR_SD``, centred on 0) keeps an agent
that won or lost every game finite. Ratings are on the Elo scale (400 points: 10 to 1
odds), 0 being their mean, each with a 95% interval from the curvature of the likelihood
(its Fisher information) at the best fit.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

ELO = 400 / math.log(10)  # Elo points per unit of log-strength
PRIOR_SD = 4.0  # of a log-strength (about 700 Elo): ten games already outweigh it


@dataclass(frozen=True)
class Fit:
    """Each agent's rating (Elo) and its standard error, in the agents' order."""

    elo: np.ndarray
    error: np.ndarray  # one standard error, in Elo


def choice_terms(
    seats: Sequence[int], returns: Sequence[float], agents: int
) -> list[tuple[int, np.ndarray, float]]:
    """One game as choices: (agent chosen, how many seats of each agent it was chosen
    among, weight). Places are filled best first, each among the seats not yet placed;
    seats with equal results fill their places in every order alike (weights 1 / orders)."""
    remaining = np.bincount(seats, minlength=agents).astype(float)
    terms = []
    for result in sorted(set(returns), reverse=True):
        tied = [seats[i] for i, r in enumerate(returns) if r == result]
        size = len(tied)
        for place in range(size):  # the place-th of the tied seats to be placed
            for placed in combinations(range(size), place):  # which went before it
                among = remaining.copy()
                for k in placed:
                    among[tied[k]] -= 1
                if among.sum() < 2:
                    continue  # the last seat standing is no choice
                weight = 1 / (math.comb(size, place) * (size - place))
                terms += [(tied[k], among, weight) for k in range(size) if k not in placed]
        for agent in tied:
            remaining[agent] -= 1
    return terms


def fit_plackett_luce(
    agents: int, games: Sequence[tuple[Sequence[int], Sequence[float]]], prior_sd: float = PRIOR_SD
) -> Fit:
    """The strengths that make ``games`` most likely: each game is (each seat's agent, as
    an index, and each seat's result, higher better)."""
    chosen, among, weights = [], [], []
    alike = Counter((tuple(seats), tuple(returns)) for seats, returns in games)
    for (seats, returns), times in alike.items():  # (games alike: their terms once)
        for agent, counts, weight in choice_terms(seats, returns, agents):
            chosen.append(agent)
            among.append(counts)
            weights.append(weight * times)
    picked = np.zeros((len(chosen), agents))
    picked[np.arange(len(chosen)), chosen] = 1.0
    counts = np.array(among).reshape(len(chosen), agents)
    w = np.array(weights)
    precision = np.eye(agents) / prior_sd**2

    def log_likelihood(theta: np.ndarray) -> float:
        share = counts @ np.exp(theta)
        return float(w @ (picked @ theta - np.log(share)) - theta @ precision @ theta / 2)

    def chances(theta: np.ndarray) -> np.ndarray:
        """Each term's chance of choosing each agent."""
        strength = counts * np.exp(theta)
        return strength / strength.sum(axis=1, keepdims=True)

    def information(p: np.ndarray) -> np.ndarray:
        """Minus the second derivative of the log-likelihood (with the prior's)."""
        return np.diag(w @ p) - (p.T * w) @ p + precision

    theta = np.zeros(agents)
    for _ in range(100):
        p = chances(theta)
        step = np.linalg.solve(information(p), w @ (picked - p) - precision @ theta)
        scale, before = 1.0, log_likelihood(theta)
        while log_likelihood(theta + scale * step) < before - 1e-12 and scale > 1e-6:
            scale /= 2  # (Newton on a concave function: halving only guards far starts)
        theta = theta + scale * step
        if np.max(np.abs(scale * step)) < 1e-10:
            break
    # The games say nothing of the level of all strengths together, only of their
    # differences: the fit's mean is the prior's centre, 0, and each rating's error is that
    # of its distance from the mean.
    centre = np.eye(agents) - 1 / agents
    covariance = centre @ np.linalg.inv(information(chances(theta))) @ centre
    return Fit(elo=ELO * theta, error=ELO * np.sqrt(np.diag(covariance)))
