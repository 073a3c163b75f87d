"""The layers between subpackages ([tool.importlinter] in pyproject.toml): cli, server,
sim | review, interop, batch, agents, games, core, each importing only those below it; and
the engines and bots import none of the optional dependencies."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def lint_imports_in(folder: Path) -> subprocess.CompletedProcess:
    """import-linter's check of ``folder``'s pyproject.toml, in a process of its own. Run in a
    test worker, its logging set-up closes every handler there, and absl's (made when
    OpenSpiel or JAX were imported) then closes the stream it was made with: pytest's own
    capture of stderr, which broke every later test on that worker."""
    return subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
         "sys.exit(lint_imports(no_cache=True))"],
        cwd=folder, env={**os.environ, "PYTHONPATH": str(folder)},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_every_import_keeps_the_layers():
    check = lint_imports_in(ROOT)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "kept, 0 broken." in check.stdout


def test_the_check_sees_an_import_that_breaks_a_layer(tmp_path):
    """The contracts are read and applied: the same check on a copy whose core imports the
    server fails, naming the import (in a process of its own, which imports the copy)."""
    copy = tmp_path / "tminus"
    shutil.copytree(ROOT / "tminus", copy, ignore=shutil.ignore_patterns("web", "__pycache__"))
    (copy / "core" / "breach.py").write_text("import tminus.server.app\n")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    check = lint_imports_in(tmp_path)
    assert check.returncode == 1, check.stdout + check.stderr
    assert "tminus.core.breach -> tminus.server.app" in check.stdout
