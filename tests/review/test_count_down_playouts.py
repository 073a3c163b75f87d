"""Count Down's review plays its playouts on the batch engine with the batch greedy player
(``GameManifest.batch_rollout``): the values it finds are the reference engine's, within
their errors."""

import os

import numpy as np

from tests.review.helpers import recorded
from tminus.batch.count_down import CountDownBatch
from tminus.review import batch_playouts
from tminus.review.playouts import Playouts
from tminus.server.reviews import start_review_process


def a_decision_with_choices(game, history, wanted=4):
    """The first decision of the recorded game with at least ``wanted`` legal moves."""
    state = game.new_initial_state()
    for action in history:
        if not state.is_chance_node() and len(state.legal_actions()) >= wanted:
            return state
        state.apply_action(action)
    raise AssertionError("no such decision")


def test_batch_playouts_value_moves_as_the_reference_engines_do():
    game, history = recorded("count_down", ["greedy"] * 3, seed=2, players=3)
    state = a_decision_with_choices(game, history)
    moves = state.legal_actions()[:4]
    batch = Playouts(game, samples=300, seed=1, precision=None)
    reference = Playouts(game, samples=300, seed=1, precision=None, rollout="greedy")
    assert "batch player `greedy`" in batch.name and "batch" not in reference.name
    found, expected = batch.values(state, moves), reference.values(state, moves)
    for move in moves:
        a, b = np.array(found[move]), np.array(expected[move])
        error = np.hypot(a.std(ddof=1) / np.sqrt(len(a)), b.std(ddof=1) / np.sqrt(len(b)))
        assert abs(a.mean() - b.mean()) <= 4 * error + 1e-9, (move, a.mean(), b.mean())


def test_where_engines_are_not_compiled_here_playouts_wait_for_none(monkeypatch):
    """The server's review and hint processes do not compile an engine (the server does, in
    the background): until it is on disk, their playouts run on the reference engine."""
    game, _ = recorded("count_down", ["greedy"] * 2, seed=0, players=2)
    monkeypatch.setattr(batch_playouts, "compile_engines", True)
    monkeypatch.setattr(CountDownBatch, "compiled", classmethod(lambda cls: False))
    assert "batch player" in Playouts(game).name  # (a command line's review compiles it)
    monkeypatch.setattr(os, "nice", lambda increment: 0)  # (this process keeps its priority)
    start_review_process(None)
    assert not batch_playouts.compile_engines
    assert batch_playouts.batch_rollout(game) is None
    assert "batch" not in Playouts(game).name
    monkeypatch.setattr(CountDownBatch, "compiled", classmethod(lambda cls: True))
    assert "batch player `greedy`" in Playouts(game).name  # (on disk: used at once)
