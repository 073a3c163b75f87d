"""Count Down's review plays its playouts on the batch engine with the batch greedy player
(``GameManifest.batch_rollout``): the values it finds are the reference engine's, within
their errors."""

import numpy as np

from tests.review.helpers import recorded
from tminus.review.playouts import Playouts


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
