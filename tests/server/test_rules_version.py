"""Saves, stored games and exports carry the version of the rules they were played under."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import tminus
from tminus.cli import app
from tminus.core.serialize import state_from_dict, state_to_dict
from tminus.server.fairness import verify_export

from .test_fairness import finished_export  # noqa: F401  (a fixture)


def played(moves: int = 12):
    state = tminus.load_game("four_way").new_initial_state()
    for _ in range(moves):
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[0][0] if outcomes else state.legal_actions()[-1])
    return state


def test_a_save_names_its_rules_version_and_loads_under_the_same_rules():
    state = played()
    saved = state_to_dict(state)
    assert saved["rules_version"] == state.game.rules_version
    assert state_from_dict(saved).history() == state.history()


def test_a_save_from_other_rules_that_no_longer_replays_says_so():
    saved = state_to_dict(played())
    now = saved["rules_version"]
    saved["rules_version"] = now + 1
    assert state_from_dict(saved).history() == saved["history"]  # it still replays: fine
    saved["history"][3] = 99
    with pytest.raises(ValueError, match=rf"saved under rules version {now + 1} .* version {now}:"):
        state_from_dict(saved)
    saved["rules_version"] = now
    with pytest.raises(ValueError) as plain:
        state_from_dict(saved)
    assert "rules version" not in str(plain.value)


def test_an_export_names_its_rules_version_and_verify_notes_a_change(
    finished_export,  # noqa: F811
    tmp_path,
):
    now = tminus.load_game("four_way").rules_version
    assert finished_export["rules_version"] == now
    assert verify_export(finished_export).notes == []
    older = dict(finished_export, rules_version=0)
    result = verify_export(older)
    assert result.ok and result.notes == [
        f"played under rules version 0; checked under version {now}, the rules installed here"
    ]
    path = tmp_path / "older.json"
    path.write_text(json.dumps(older))
    output = CliRunner().invoke(app, ["verify", str(path)]).output
    assert "note: played under rules version 0" in output and "verified" in output
