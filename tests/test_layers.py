"""The layers between subpackages ([tool.importlinter] in pyproject.toml): cli, server,
sim | review, interop, batch, agents, games, core, each importing only those below it; and
the engines and bots import none of the optional dependencies."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]


def test_every_import_keeps_the_layers(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    kept = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    assert kept == 0, capsys.readouterr().out


def test_the_check_sees_an_import_that_breaks_a_layer(tmp_path):
    """The contracts are read and applied: the same check on a copy whose core imports the
    server fails, naming the import (in a process of its own, which imports the copy)."""
    copy = tmp_path / "tminus"
    shutil.copytree(ROOT / "tminus", copy, ignore=shutil.ignore_patterns("web", "__pycache__"))
    (copy / "core" / "breach.py").write_text("import tminus.server.app\n")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    check = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
         "sys.exit(lint_imports(no_cache=True))"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert check.returncode == 1, check.stdout + check.stderr
    assert "tminus.core.breach -> tminus.server.app" in check.stdout
