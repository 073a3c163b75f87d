"""Ratings fitted to all the games at once (Plackett-Luce): proved against the model's
closed forms and against its likelihood maximised by a general optimiser."""

import math
import random
from itertools import pairwise, permutations

import numpy as np
import pytest
from scipy.optimize import minimize

from tminus.sim.ratings import ELO, fit_plackett_luce
from tminus.sim.runner import GameResult
from tminus.sim.tournament import rate

WIN, LOSS = (1.0, -1.0), (-1.0, 1.0)


def duel(wins: int, losses: int, draws: int = 0) -> list:
    """Agent 0 against agent 1."""
    return [((0, 1), WIN)] * wins + [((0, 1), LOSS)] * losses + [((0, 1), (0.0, 0.0))] * draws


def test_two_agents_are_bradley_terry():
    """Two agents: the fit's gap is the log of the odds won, ln(W / L), and its standard
    error sqrt(1 / (n p (1 - p))) (each agent's half of it, measured from their mean)."""
    fit = fit_plackett_luce(2, duel(140, 100), prior_sd=100)
    assert (fit.elo[0] - fit.elo[1]) / ELO == pytest.approx(math.log(140 / 100), abs=1e-6)
    assert fit.elo.sum() == pytest.approx(0, abs=1e-6)
    p = 140 / 240
    gap_error = ELO * math.sqrt(1 / (240 * p * (1 - p)))
    assert fit.error == pytest.approx([gap_error / 2] * 2, rel=1e-4)


def test_a_draw_is_half_a_win_for_each():
    with_draws = fit_plackett_luce(2, duel(3, 1, draws=2))
    counted_as_halves = fit_plackett_luce(2, duel(4, 2))
    assert with_draws.elo == pytest.approx(counted_as_halves.elo, abs=1e-9)


def test_an_agent_that_won_every_game_is_rated_finite_and_first():
    fit = fit_plackett_luce(3, duel(20, 0) + [((1, 2), WIN)] * 20)
    assert np.isfinite(fit.elo).all() and np.isfinite(fit.error).all()
    assert fit.elo[0] > fit.elo[1] > fit.elo[2]


def independent_log_likelihood(theta, games, prior_sd):
    """Each game's log-probability under Plackett-Luce, averaged over the orders its ties
    allow, written from the model's definition: enumerate the orders."""
    total = -float(theta @ theta) / (2 * prior_sd**2)
    for seats, returns in games:
        orders = [
            order
            for order in permutations(range(len(seats)))
            if all(returns[a] >= returns[b] for a, b in pairwise(order))
        ]
        for order in orders:
            strengths = [math.exp(theta[seats[s]]) for s in order]
            total += sum(
                math.log(strengths[k] / sum(strengths[k:])) for k in range(len(order))
            ) / len(orders)
    return total


def test_many_players_ties_and_one_agent_in_two_seats_match_the_model():
    """Four-seat games of three agents (one of them in two seats), with ties: the fit is
    where a general optimiser finds the model's likelihood highest."""
    rng = random.Random(5)
    skill = [1.2, 0.0, -0.7]
    games = []
    for _ in range(60):
        seats = tuple(rng.choice([0, 0, 1, 2]) for _ in range(4))
        if len(set(seats)) < 2:
            continue
        noisy = [skill[a] + rng.gauss(0, 1.5) for a in seats]
        games.append((seats, tuple(float(round(x)) for x in noisy)))  # rounding makes ties
    assert any(len(set(r)) < len(r) for _, r in games), "the sample should have ties"
    prior_sd = 4.0
    fit = fit_plackett_luce(3, games, prior_sd=prior_sd)
    best = minimize(
        lambda t: -independent_log_likelihood(t, games, prior_sd), np.zeros(3), method="BFGS"
    )
    assert best.success
    assert fit.elo / ELO == pytest.approx(best.x, abs=1e-4)


def result(agents, returns, seed):
    winners = [s for s, r in enumerate(returns) if r == max(returns)]
    return GameResult((seed,), tuple(agents), list(returns), winners, 10, [5, 5], 0, False)


def test_the_order_of_the_games_does_not_change_the_ratings():
    """The online ratings this replaced (openskill) moved with the order: at 140 wins to
    100, some orders ranked the loser first."""
    games = [result(("a", "b"), WIN, i) for i in range(140)]
    games += [result(("b", "a"), WIN, 140 + i) for i in range(100)]
    first = rate(["a", "b"], games)
    assert [r.agent for r in first] == ["a", "b"]
    rng = random.Random(0)
    for _ in range(5):
        rng.shuffle(games)
        again = rate(["a", "b"], games)
        assert [(r.agent, round(r.elo, 9)) for r in again] == [
            (r.agent, round(r.elo, 9)) for r in first
        ]
