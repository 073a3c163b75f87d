"""The conformance checker passes a correct game and catches each kind of planted bug."""

import pytest

from tests.core.toy_game import RoundsToyGame, ToyGame, UndeclaredRoundsToyGame
from tminus.core.conformance import ConformanceError, check_conformance
from tminus.core.registry import register_game, unregister_game


@pytest.fixture(autouse=True)
def toy_registered():
    register_game(ToyGame)
    register_game(RoundsToyGame)
    register_game(UndeclaredRoundsToyGame)
    yield
    unregister_game("toy_rounds_undeclared")
    unregister_game("toy")
    unregister_game("toy_rounds")


@pytest.mark.parametrize("toy", [ToyGame, RoundsToyGame])
def test_a_correct_game_passes(toy):
    report = check_conformance(toy(), seeds=range(300))
    assert report.games == 300 and report.deep_checks >= 300


@pytest.mark.parametrize(
    "bug, message",
    [
        ("clone_shares_list", "clone changed the original"),
        ("history_drops_action", "replaying the history does not reproduce"),
        ("hidden_param", "save then load does not reproduce"),
        ("chance_sum", "probabilities sum to"),
        ("unsorted_legal", "not sorted and unique"),
        ("duplicate_legal", "not sorted and unique"),
        ("accepts_illegal", "was accepted"),
        ("illegal_mutates", "changed the state"),
        ("observation_leaks", "changes with cards seat"),
        ("public_leaks", "public_observation"),
        ("returns_out_of_bounds", "outside"),
        ("returns_not_zero_sum", "zero-sum"),
        ("too_long", "max_game_length"),
        ("log_leaks", "look alike to seat"),
        ("nondeterministic_apply", "two clones gave different states|does not reproduce"),
        ("rule_in_apply_action", "apply_legal_action and apply_action disagree"),
        ("rounds_skip", "rounds_finished\\(\\) went from 2 to 6"),
        ("round_returns_out_of_bounds", "round_returns\\(\\) .* do not fit"),
        ("structs_collide", "have the same struct"),
        ("rounds_undeclared", "game_type.rounds is not set"),
        ("position_drops_field", "set_up\\(position_dict\\(\\)\\) is another position"),
        ("unnamed_chance_stream", "name it by plain values"),
        ("why_not_disagrees", "why_not\\(1\\) is 'Stopping is not allowed.' for a legal action"),
        ("why_not_silent", "why_not\\(-1\\) is None for an illegal action"),
        ("why_not_leaks", "why_not\\(-1\\) changes with what seat 0 cannot see"),
    ],
)
def test_each_planted_bug_is_caught(bug, message):
    toy = RoundsToyGame if bug.startswith("round") else ToyGame
    toy = UndeclaredRoundsToyGame if bug == "rounds_undeclared" else toy
    with pytest.raises(ConformanceError, match=message):
        check_conformance(toy(bug=bug), seeds=range(300))
