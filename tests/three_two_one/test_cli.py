"""The `tminus` command with 3-2-1 Countdown: play hides the others' cards; simulate; rules."""

import json
import re

from typer.testing import CliRunner

from tminus.cli import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_play_shows_your_hand_and_hides_the_others():
    result = run("play", "three_two_one", "--players", "3", "--bots", "greedy", "--seed", "4",
                 input="q\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert re.search(r"Player 1 is dealt an? \d+", result.output)  # your cards, by value
    assert "A card is dealt to Bot 2" in result.output
    assert "A card is dealt to Bot 3" in result.output
    assert "Bot 2 is dealt" not in result.output and "Bot 3 is dealt" not in result.output
    assert "Player 1" in result.output and "▮" in result.output and "total" in result.output
    assert "Discard" in result.output  # the list of moves


def test_a_whole_game_can_be_played_from_the_terminal():
    # Always answer with move 1: the first legal move (it ends when the game does).
    result = run("play", "three_two_one", "--players", "2", "--bots", "greedy", "--seed", "2",
                 input="1\n" * 3000)  # fmt: skip
    assert result.exit_code == 0, result.output[-2000:]
    assert "Winner" in result.output or "Draw" in result.output


def test_simulate_reports_win_rates():
    result = run("simulate", "three_two_one", "-n", "20", "--agents", "greedy,random",
                 "--seed", "1", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["params"]["players"] == 2 and data["games"] == 20
    assert [s["agent"] for s in data["seats"]] == ["greedy", "random"]


def test_rules_page_has_the_rulings():
    result = run("rules", "three_two_one")
    assert result.exit_code == 0
    assert "T-minus rulings" in result.output and "Blastoff" in result.output


def test_games_lists_three_two_one():
    result = run("games")
    assert "three_two_one" in result.output and "rounds" in result.output
