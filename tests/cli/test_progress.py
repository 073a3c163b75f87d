"""Long commands show what they are doing on stderr (a bar, a status line with the time
left where the work is counted), never in what they print."""

import io
import json

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tminus.cli import about, app, progress

runner = CliRunner()


@pytest.fixture
def screen(monkeypatch):
    """What the progress console draws, as on a terminal 100 columns wide."""
    drawn = io.StringIO()
    terminal = Console(file=drawn, force_terminal=True, width=100)
    monkeypatch.setattr(progress, "progress_console", terminal)
    return drawn


def test_solve_shows_the_step_under_way_and_how_far_it_got(screen, monkeypatch):
    def solver_report(game, progress):
        for done in range(4):
            progress("Sputnik radius 2: positions searched", done, 4)
        return "# Solved"

    monkeypatch.setattr(about, "solver_report", solver_report)
    result = runner.invoke(app, ["solve", "sputnik"])
    assert result.exit_code == 0, result.output
    assert "Solved" in result.output and "positions searched" not in result.output
    assert "Sputnik radius 2: positions searched" in screen.getvalue()
    assert "75%" in screen.getvalue()  # 3 of 4, as last told


def test_bench_shows_each_measurement_and_keeps_its_json_clean(screen):
    args = ["bench", "four_way", "--runs", "1", "--seconds", "0.02", "--no-search",
            "--no-scaling", "--no-interop", "--json"]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["playouts"]) == 2
    assert "four_way: random playouts, players=4" in screen.getvalue()


def test_the_batch_bench_shows_each_timing(screen):
    result = runner.invoke(app, ["bench", "--batch", "sputnik", "--seconds", "0.01"])
    assert result.exit_code == 0, result.output
    assert "sputnik: batch of 65,536 games" in screen.getvalue()


def test_simulate_counts_the_games_played_beside_its_json(screen):
    args = ["simulate", "four_way", "-n", "6", "--workers", "1", "--json"]
    result = runner.invoke(app, args)
    assert json.loads(result.output)["games"] == 6
    assert "four_way: games played" in screen.getvalue() and "6/6" in screen.getvalue()
