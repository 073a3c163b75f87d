"""Sputnik from the `tminus` command: rules, a game in the terminal, simulations."""

import json

from typer.testing import CliRunner

from tminus.cli import app

runner = CliRunner()


def test_rules_page_has_the_rulings():
    result = runner.invoke(app, ["rules", "sputnik"])
    assert result.exit_code == 0
    assert "T-minus rulings" in result.output and "Base help" in result.output


def test_play_draws_the_board_and_takes_moves_to_the_end():
    result = runner.invoke(app, ["play", "sputnik", "--seed", "3"], input="1\n" * 200)
    assert result.exit_code == 0, result.output
    # The board (players numbered from 1, as people count), the moves in words.
    assert "[▲1]" in result.output and "Move to e1" in result.output
    assert "Winner:" in result.output


def test_play_takes_a_move_by_name_and_refuses_a_bad_one():
    result = runner.invoke(app, ["play", "sputnik", "--seed", "3"], input="move d4\nmove d2\nq\n")
    assert "'move d4' is not a move here" in result.output
    assert "Remove the galaxy on d4" in result.output  # the removals after the move to d2


def test_simulate_with_variants():
    result = runner.invoke(
        app,
        ["simulate", "sputnik", "-n", "20", "--agents", "greedy,random", "--json",
         "-p", "rockets_per_player=2"],
    )  # fmt: skip
    data = json.loads(result.output)
    assert data["params"]["rockets_per_player"] == 2
    assert sum(s["wins"] for s in data["seats"]) + data["draws"] == 20
    result = runner.invoke(app, ["simulate", "sputnik", "--players", "3", "-p", "teams=true"])
    assert result.exit_code == 2 and "teams need 4 players" in result.output
