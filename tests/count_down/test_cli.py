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


def test_the_terminal_asks_a_player_met_by_name(monkeypatch):
    """Bot 4 arrives on Ann's square and claims the Radar she does not need: the terminal
    puts the question to her before her moves."""
    from tests.count_down.helpers import FUNDING_100, give_photo, place, play, started, take_turn
    from tminus import cli

    state = take_turn(take_turn(take_turn(started())))  # Bot 4 (centre 4) is to roll
    state = give_photo(state, 1, "Radar")  # on centre 4's control card, not on Ann's
    state = place(state, 0, FUNDING_100)
    state = place(state, 3, FUNDING_100 - 1)
    play(state, "ball 1", "ask seat 0 for Radar")
    names = ["Ann", "Bot 2", "Bot 3", "Bot 4"]
    monkeypatch.setattr(cli.console, "input", lambda prompt="": "ask 100")
    with cli.console.capture() as out:
        action = cli.your_move(state, names, pause=0)
    shown = out.get()
    assert "Bot 4 asks you to sell Radar (forced sale): a price of 50 to 100" in shown
    assert "Bot 4 asks Ann to sell Radar" in shown  # the board itself, by name
    assert state.action_to_string(action) == "ask 100"
