"""tminus/batch/COPIES.md lists every copy of a rule and the test that proves it agrees
with the reference: each file and each test it names exists (a renamed test or module
would otherwise leave the list pointing at nothing)."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "tminus" / "batch" / "COPIES.md"


def named_paths() -> list[str]:
    """The `path` and `path::test` spans of the document; a bare `::test` continues the
    file named before it in the same cell."""
    found = []
    for line in DOC.read_text().splitlines():
        current = None
        for span in re.findall(r"`([^`]+)`", line):
            if span.startswith("::"):
                assert current, f"{span} follows no file"
                found.append(current + span)
            elif re.fullmatch(r"[a-z_/]+\.py(::\w+)?|[a-z_/]+/", span):
                current = span.split("::")[0]
                found.append(span)
    return found


def test_every_file_and_test_the_list_names_exists():
    names = named_paths()
    assert len(names) > 20
    for name in names:
        path, _, test = name.partition("::")
        top = path.split("/")[0]
        file = ROOT / path if top in ("tests", "scripts", "tminus") else ROOT / "tminus" / path
        assert file.exists(), f"COPIES.md names {path}, which does not exist"
        if test:
            defined = {n.name for n in ast.walk(ast.parse(file.read_text()))
                       if isinstance(n, ast.FunctionDef)}  # fmt: skip
            assert test in defined, f"COPIES.md names {name}, which does not exist"
