"""Bots named on the command line as the browser's lobby names them (easy, medium, hard,
expert) or by their agents (greedy, mcts:simulations=500), in every command that takes them."""

import json

from typer.testing import CliRunner

from tminus.agents.levels import level_table
from tminus.cli import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_play_takes_a_level_and_says_which_agent_it_is():
    result = run("play", "four_way", "--bots", "hard", "--seed", "1", input="q\n")
    assert result.exit_code == 0, result.output
    hard = level_table("four_way", 2)[2].spec
    assert f"plays hard ({hard})" in result.output


def test_simulate_and_tournament_take_levels_and_agents_mixed():
    result = run("simulate", "four_way", "-n", "4", "--agents", "medium,random", "--workers",
                 "1", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert [s["agent"] for s in json.loads(result.output)["seats"]] == ["medium", "random"]
    result = run("simulate", "four_way", "-n", "4", "--agents", "medium,easy", "--batch", "--json")
    assert result.exit_code == 0, result.output
    result = run("tournament", "four_way", "--agents", "easy,greedy", "-n", "4", "--workers",
                 "1", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert sorted(json.loads(result.output)["agents"]) == ["easy", "greedy"]


def test_an_unknown_bot_is_answered_with_the_names_accepted():
    for command, option in (("play", "--bots"), ("simulate", "--agents")):
        result = run(command, "four_way", option, "hardest", input="q\n")
        assert result.exit_code == 2, result.output
        said = " ".join(result.output.split())
        assert "unknown agent 'hardest'" in said
        assert "agents: greedy, mcts, random, solver" in said
        assert "levels: easy, medium, hard, expert" in said
