"""No import cycles inside a game package: the modules of tminus/games/<game>/ import each
other in one direction (types needed only by the type checker are imported under
``if TYPE_CHECKING:``, which does not count; an import inside a function does).

The graph is built with the standard library (``ast``, ``graphlib``): no import runs."""

import ast
import graphlib
from pathlib import Path

import pytest

import tminus.games

GAMES_DIR = Path(tminus.games.__file__).parent
PACKAGES = sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").is_file())


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported_names(tree: ast.AST, package: str) -> set[str]:
    """Every module (or ``module.name``) imported anywhere in ``tree``, except under
    ``if TYPE_CHECKING:``; relative imports resolved against ``package``."""
    names: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
        stack.extend(ast.iter_child_nodes(node))
    return names


def import_graph(directory: Path, package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports."""
    modules = {
        path.stem: (package if path.stem == "__init__" else f"{package}.{path.stem}")
        for path in directory.glob("*.py")
    }
    inside = set(modules.values())
    graph = {}
    for stem, module in modules.items():
        tree = ast.parse((directory / f"{stem}.py").read_text(encoding="utf-8"))
        # ``from tminus.games.x import y`` imports the package itself only to reach y.
        found = imported_names(tree, module if stem == "__init__" else package)
        graph[module] = {name for name in found if name in inside and name != module}
        graph[module].discard(package)
    return graph


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return error.args[1]
    return None


@pytest.mark.parametrize("name", PACKAGES)
def test_a_game_package_has_no_import_cycle(name):
    graph = import_graph(GAMES_DIR / name, f"tminus.games.{name}")
    assert len(graph) > 1  # the package's modules were read
    assert cycle_in(graph) is None


def test_the_check_finds_a_cycle_and_ignores_imports_for_the_type_checker(tmp_path):
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "game.py").write_text("from toy import render\n")
    (tmp_path / "rules.py").write_text("def f():\n    from toy.game import State\n")
    (tmp_path / "render.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from toy.game import State\n"
    )
    graph = import_graph(tmp_path, "toy")
    assert graph["toy.game"] == {"toy.render"} and graph["toy.rules"] == {"toy.game"}
    assert cycle_in(graph) is None
    (tmp_path / "render.py").write_text("from . import rules\n")  # render -> rules -> game
    assert sorted(set(cycle_in(import_graph(tmp_path, "toy")))) == [
        "toy.game",
        "toy.render",
        "toy.rules",
    ]
