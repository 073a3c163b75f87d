"""`tminus play/simulate/rules count_down` through the generic command line."""

import json

from typer.testing import CliRunner

from tminus.cli import app

runner = CliRunner()


def test_rules_page_shows_the_reconstruction_and_rulings():
    result = runner.invoke(app, ["rules", "count_down"])
    assert result.exit_code == 0
    assert "T-minus rulings" in result.output and "reconstruction" in result.output


def test_simulate_greedy_against_random():
    result = runner.invoke(
        app, ["simulate", "count_down", "-n", "5", "--agents", "greedy,random", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["params"]["players"] == 2 and data["games"] == 5


def test_play_draws_the_board_and_quits():
    result = runner.invoke(app, ["play", "count_down", "--seed", "3"], input="q\n")
    assert result.exit_code == 0, result.output
    assert "track:" in result.output and "centre 1" in result.output


def test_a_bad_board_file_is_a_message():
    result = runner.invoke(app, ["simulate", "count_down", "-p", "board=missing.toml"])
    assert result.exit_code == 2 and "does not exist" in result.output
