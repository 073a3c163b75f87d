"""Every configuration of the batch engines against the reference engines, on a
sample of games (``python -m tminus.batch.differential`` runs 10,000 per configuration)."""

import numpy as np
import pytest

from tminus.batch.differential import CONFIGURATIONS, check_against_reference


def sample_size(name, params):
    """Games per configuration: enough to reach every phase, few enough for a fast suite
    (2-3 player 3-2-1 games and large Sputnik boards run to thousands of actions)."""
    if name == "four_way":
        return 40
    if name == "sputnik":
        return 8 if params.get("radius", 3) > 4 else 20
    if name == "count_down":  # (a random game runs to its cap of 2,000 turns: 5,000 actions)
        return 3 if params.get("max_turns", 2000) > 100 else 20
    return 2 if params["players"] <= 3 else 3


def configurations():
    return [
        pytest.param(name, params, id=f"{name}-{'-'.join(map(str, params.values()))}")
        for name, configs in CONFIGURATIONS.items()
        for params in configs
    ]


@pytest.mark.parametrize("name, params", configurations())
def test_batch_games_replay_identically_in_the_reference_engine(name, params):
    games = sample_size(name, params)
    report = check_against_reference(name, games, seed=11, batch_size=40, **params)
    assert report.ok, report.line()
    assert report.games == games and report.decisions > 0


def test_three_two_one_samples_reach_extra_rounds_and_reshuffles(monkeypatch):
    from tminus.games.three_two_one.game import ThreeTwoOneState

    extra = check_against_reference("three_two_one", 8, seed=3, players=4, rounds=1,
                                    keep_states=True)  # fmt: skip
    assert extra.ok, extra.line()
    assert any(s.public_observation()["extra_round"] for s in extra.states)
    # Count the reference's reshuffles while it replays the batch's games.
    reshuffles = []
    real = ThreeTwoOneState._reshuffle
    monkeypatch.setattr(
        ThreeTwoOneState, "_reshuffle", lambda self: (reshuffles.append(1), real(self))[1]
    )
    long = check_against_reference("three_two_one", 2, seed=1, players=3)
    assert long.ok, long.line()
    assert reshuffles


def test_sputnik_samples_use_base_help_and_eliminate_rockets():
    report = check_against_reference("sputnik", 25, seed=11, players=3, keep_states=True)
    assert report.ok, report.line()
    game = report.states[0].game
    helps = [a for s in report.states for a in s.history()[1:]
             if game.help_offset <= a < game.remove_offset]  # fmt: skip
    assert helps
    assert any(len(s.eliminated()) >= 2 for s in report.states)


def test_a_wrong_observation_is_caught(monkeypatch):
    from tminus.batch.four_way import FourWayBatch

    real = FourWayBatch.observation_tensor

    def off_by_one(self, seat):
        tensor = real(self, seat)
        tensor[:, -1] += 1.0  # the phase one-hot of every game
        return tensor

    monkeypatch.setattr(FourWayBatch, "observation_tensor", off_by_one)
    report = check_against_reference("four_way", 4, seed=1)
    assert not report.ok and "observation of seat 0" in report.mismatches[0]


def test_a_wrong_legal_move_is_caught(monkeypatch):
    from tminus.batch.sputnik import SputnikBatch

    real = SputnikBatch._legal_mask

    def with_a_pass(self):
        mask = real(self).copy()
        mask[:, 0] = ~self.terminal()
        return mask

    monkeypatch.setattr(SputnikBatch, "_legal_mask", with_a_pass)
    report = check_against_reference("sputnik", 4, seed=1)
    assert not report.ok and "legal" in report.mismatches[0]


def test_a_wrong_return_is_caught(monkeypatch):
    from tminus.batch.three_two_one import ThreeTwoOneBatch

    real = ThreeTwoOneBatch.returns
    monkeypatch.setattr(ThreeTwoOneBatch, "returns", lambda self: -real(self))
    report = check_against_reference("three_two_one", 2, seed=2, players=4, rounds=1)
    assert not report.ok and "returns" in report.mismatches[0]


def test_a_wrong_chance_outcome_is_caught(monkeypatch):
    from tminus.batch import four_way

    # The engine's dice come from a table: make it always double six, then a roll that
    # does not exist.
    monkeypatch.setattr(four_way, "DICE_OF_36", np.full(36, 20))
    report = check_against_reference("four_way", 4, seed=1, max_turns=30)
    assert report.ok  # double six every time is a possible history...
    monkeypatch.setattr(four_way, "DICE_OF_36", np.full(36, 21))
    report = check_against_reference("four_way", 4, seed=1, max_turns=30)
    assert not report.ok and "refuses its history" in report.mismatches[0]  # ...21 is not
