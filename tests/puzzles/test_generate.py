"""The generator: the same seed makes the same puzzles, each proved; bad requests are clear
errors; the model's JSON round trip; the `tminus puzzle` command."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tminus.cli import app
from tminus.puzzles import (
    Puzzle,
    generate,
    load_set,
    prove,
    read_set,
    save_set,
    state_of,
    verdict,
)

runner = CliRunner()


@pytest.mark.parametrize(("game", "count"), [("four_way", 6), ("count_down", 3), ("sputnik", 2)])
def test_the_same_seed_makes_the_same_puzzles_each_proved(game, count):
    told = []
    first = generate(game, count, seed=7, progress=lambda done, total: told.append(done))
    again = generate(game, count, seed=7)
    assert [p.to_dict() for p in first] == [p.to_dict() for p in again]
    assert len(first) == count and told[-1] == count
    for p in first:
        prove(p)
        assert p.source["seed"] == 7 and p.history == tuple(state_of(p).history())


def test_another_seed_makes_other_puzzles():
    assert {p.id for p in generate("count_down", 5, seed=1)} != {
        p.id for p in generate("count_down", 5, seed=2)
    }


@pytest.mark.parametrize(
    ("game", "count", "message"),
    [
        ("nope", 5, "unknown game 'nope'"),
        ("three_two_one", 5, "hides each player's hand"),
        ("four_way", 0, "1 or more"),
        ("four_way", -3, "1 or more"),
        ("four_way", 2.5, "whole number"),
        ("count_down", 35, "only 34 distinct puzzles"),
    ],
)
def test_a_bad_game_or_count_is_a_clear_error(game, count, message):
    with pytest.raises(ValueError, match=message):
        generate(game, count)


def test_a_run_that_finds_too_few_returns_what_it_found():
    assert generate("count_down", 34, seed=0, max_games=1) != []
    assert len(generate("count_down", 34, seed=0, max_games=1)) < 34


def test_a_set_round_trips_through_json(tmp_path):
    puzzles = load_set("sputnik")[:3] + load_set("four_way")[:3]
    path = tmp_path / "set.json"
    save_set(puzzles, path, made_by="a test")
    assert read_set(path) == puzzles
    data = json.loads(path.read_text())
    first = data["puzzles"][0]
    assert set(first) >= {
        "id", "game", "params", "history", "seat", "kind", "prompt", "answer", "values",
        "margin", "source", "rating",
    }  # fmt: skip
    assert Puzzle.from_dict(first) == puzzles[0]
    (tmp_path / "bad.json").write_text("[]")
    with pytest.raises(ValueError, match="not a puzzle set"):
        read_set(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="no puzzles for 'three_two_one'"):
        load_set("three_two_one")


def test_a_verdict_says_right_or_wrong_with_every_value():
    p = load_set("four_way")[0]
    wrong = next(a for a in p.values if a != p.answer)
    right = verdict(p, p.answer)
    assert right["correct"] and right["moves"][0]["action"] == p.answer
    said = verdict(p, wrong)
    assert not said["correct"] and len(said["moves"]) == len(p.values)
    assert all("% to win" in row["said"] for row in said["moves"])
    with pytest.raises(ValueError, match="not legal"):
        verdict(p, 99)


def test_the_command_plays_a_puzzle_and_says_right_or_wrong():
    p = load_set("count_down")[0]
    words = p.moves[p.answer]
    result = runner.invoke(app, ["puzzle", "count_down", "--id", p.id], input=f"{words}\n")
    assert result.exit_code == 0, result.output
    assert p.prompt.split(":")[0] in result.output and "Right!" in result.output
    assert "1 of 1 right" in result.output
    wrong = next(a for a in p.values if a != p.answer)
    result = runner.invoke(app, ["puzzle", "count_down", "--id", p.id], input=f"{p.moves[wrong]}\n")
    assert "Not quite" in result.output and "0 of 1 right" in result.output


def test_the_command_makes_and_proves_a_set(tmp_path):
    out = tmp_path / "cd.json"
    result = runner.invoke(
        app, ["puzzle", "count_down", "--generate", "2", "--seed", "3", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "2 puzzles" in result.output and len(read_set(out)) == 2
    result = runner.invoke(app, ["puzzle", "count_down", "--check", "--out", str(out)])
    assert result.exit_code == 0 and "proved" in result.output


def test_the_command_says_what_is_wrong():
    result = runner.invoke(app, ["puzzle", "nope", "--generate", "3"])
    assert result.exit_code == 2 and "unknown game 'nope'" in result.output
    result = runner.invoke(app, ["puzzle", "three_two_one"])
    assert result.exit_code == 2 and "hides each player's hand" in result.output
    result = runner.invoke(app, ["puzzle", "--generate", "3"])
    assert result.exit_code == 2 and "name the game" in result.output
