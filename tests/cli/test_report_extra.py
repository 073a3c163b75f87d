"""`tminus report` without matplotlib says which extra to install, before playing any game."""

import sys

from typer.testing import CliRunner

from tminus.cli import app


def test_report_without_matplotlib_names_the_analysis_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    out = tmp_path / "r.html"
    result = CliRunner().invoke(app, ["report", "four_way", "-n", "5", "--out", str(out)])
    assert result.exit_code == 2
    assert "pip install 'tminus[analysis]'" in result.output  # not swallowed as markup
    assert not out.exists()


def test_error_messages_are_never_read_as_markup():
    result = CliRunner().invoke(app, ["play", "four_way", "-p", "[bold]x"])
    assert result.exit_code == 2 and "'[bold]x'" in result.output
