"""One place per game: a game's manifest is all the registries read.

A game from outside T-minus (the server tests' secret-words game) is registered through
one manifest, whose every entry is a dotted path into this module, and shows up in every
registry that applies: games, agents and MCTS's rollout, levels, solvers, evaluations,
report facts and figures, batch engines and their agents, and the server's catalog (the
board script and the lobby's line)."""

import subprocess
import sys
from pathlib import Path

import pytest

import tminus.games
from tminus.agents.base import Agent
from tminus.agents.evaluation import evaluation_module
from tminus.agents.levels import level_table
from tminus.agents.registry import default_rollout, list_agents, make_agent
from tminus.agents.solvers import games_with_solvers, solver_report
from tminus.batch import batch_class, list_batch_games
from tminus.batch.agents import batch_agent_names
from tminus.core.manifest import GameManifest, Levels, resolve
from tminus.core.registry import (
    game_class,
    list_games,
    load_game,
    manifest,
    manifests,
    register,
    rules_text,
    unregister_game,
)
from tminus.sim.facts import game_facts

HERE = __name__  # the dotted paths below name things in this module
NAME = "secret_words"  # tests.server.secret_game.SecretGame.name


class FirstMove(Agent):
    """The toy game's own heuristic: the first legal move."""

    name = "first"

    def __init__(self, game, seed=None):
        self.game = game

    def step(self, state):
        return state.legal_actions()[0]


class ToyBatch:
    """Stands in for a batch engine (the registry only has to find it)."""


def evaluate(state, seat):
    return 0.0


def solve() -> str:
    return "The secret-words game: solved here."


def facts(game, history):
    return {"decisions": len(history) - game.num_players}


def figure(results):
    from tminus.sim.report import Figure

    return Figure("Decisions a game", "From the facts.", b"")


TOY = GameManifest(
    name=NAME,
    game="tests.server.secret_game:SecretGame",
    description="Guess the next seat's secret word.",
    agents={"greedy": f"{HERE}:FirstMove"},
    evaluation=HERE,
    solvers=(f"{HERE}:solve",),
    facts=f"{HERE}:facts",
    figures=(f"{HERE}:figure",),
    levels=Levels(hard="ismcts:simulations=5", expert="ismcts:simulations=9"),
    board="/static/js/boards/secret_words.js",
    batch={"numpy": f"{HERE}:ToyBatch"},
    batch_agents={"greedy": f"{HERE}:FirstMove"},
)


@pytest.fixture
def toy():
    register(TOY)
    yield TOY
    unregister_game(NAME)


def test_a_game_from_outside_is_in_every_registry_through_its_manifest(toy):
    assert NAME in list_games() and manifest(NAME) is toy
    game = load_game(NAME, players=3)
    assert game.num_players == 3 and game_class(NAME).__name__ == "SecretGame"
    assert list_agents(NAME) == ["greedy", "ismcts", "random"]  # ismcts: hidden words
    assert isinstance(make_agent("greedy", game), FirstMove)
    assert default_rollout(NAME) == "greedy"
    assert [lv.spec for lv in level_table(NAME)] == [
        "random",
        "greedy",
        "ismcts:simulations=5",
        "ismcts:simulations=9",
    ]
    assert NAME in games_with_solvers() and solver_report(NAME) == solve()
    assert evaluation_module(NAME).evaluate is evaluate
    assert NAME in list_batch_games() and batch_class(NAME) is ToyBatch
    assert batch_agent_names(NAME) == ["random", "greedy"]
    assert NAME not in list_batch_games("jax")


def test_its_facts_and_figures_reach_a_report(toy):
    pytest.importorskip("matplotlib")
    from tminus.sim.report import build_report
    from tminus.sim.simulate import simulate

    game = load_game(NAME)
    summary = simulate(game, ["greedy", "random"], games=3, seed=1, facts=True)
    assert [r.facts for r in summary.results] == [{"decisions": r.moves} for r in summary.results]
    page = build_report(NAME, {}, summary.results, "toy", [])
    assert "Decisions a game" in page and "From the facts." in page


def test_the_catalog_sends_its_board_script_and_its_line(toy):
    pytest.importorskip("sqlalchemy")
    from tminus.server.service import catalog

    entry = next(g for g in catalog() if g["name"] == NAME)
    assert entry["board"] == "/static/js/boards/secret_words.js"
    assert entry["description"] == "Guess the next seat's secret word."
    four_way = next(g for g in catalog() if g["name"] == "four_way")
    assert four_way["board"] == "/static/js/boards/four_way.js"


def test_without_the_manifest_the_game_is_nowhere(toy):
    unregister_game(NAME)
    for ask in (lambda: load_game(NAME), lambda: list_agents(NAME), lambda: level_table(NAME)):
        with pytest.raises(ValueError, match="unknown game 'secret_words'"):
            ask()
    assert NAME not in games_with_solvers() and NAME not in list_batch_games()
    assert default_rollout(NAME) == "random"


def test_a_game_with_nothing_but_its_engine_gets_the_generic_parts(toy):
    register(GameManifest(name=NAME, game="tests.server.secret_game:SecretGame"))
    assert list_agents(NAME) == ["ismcts", "random"]
    assert [lv.spec for lv in level_table(NAME)] == [
        "random",
        "ismcts:simulations=100",  # no greedy player: no medium level
        "ismcts:simulations=400",
    ]
    with pytest.raises(ValueError, match="no exact solver for secret_words yet"):
        solver_report(NAME)
    with pytest.raises(ValueError, match="no evaluation for secret_words"):
        evaluation_module(NAME)
    with pytest.raises(ValueError, match="no numpy batch engine for 'secret_words'"):
        batch_class(NAME)
    assert batch_agent_names(NAME) == ["random"] and game_facts(load_game(NAME), []) is None
    with pytest.raises(ValueError, match=r"has no rules page yet: tests\.server needs a RULES\.md"):
        rules_text(NAME)  # (said, not a traceback: `tminus rules`, the rules page)


@pytest.mark.parametrize(
    ("declared", "problem"),
    [
        ({"name": "two words"}, "a game's name is a Python identifier"),
        ({"game": "tests.server.secret_game.SecretGame"}, "game is a dotted path module:name"),
        ({"agents": {"greedy": "no colon"}}, r"agents\['greedy'\] is a dotted path"),
        ({"solvers": f"{HERE}:solve"}, "solvers is a tuple of dotted paths"),
        ({"figures": ("",)}, r"figures\[0\] is a dotted path"),
        ({"evaluation": "a/b"}, "evaluation is a dotted path module or module:name"),
        ({"board": "javascript:alert(1)"}, "board is a script's path on the server"),
        ({"levels": {"hard": "mcts"}}, "levels is a Levels record"),
        ({"batch_rollout": "random"}, "batch_rollout needs a numpy batch engine"),
        (
            {"batch": {"numpy": f"{HERE}:ToyBatch"}, "batch_rollout": "greedy"},
            "batch_rollout is random or one of batch_agents, not 'greedy'",
        ),
    ],
)
def test_a_malformed_manifest_is_refused_naming_the_entry(declared, problem):
    fields = {"name": NAME, "game": "tests.server.secret_game:SecretGame", **declared}
    with pytest.raises(ValueError, match=problem):
        GameManifest(**fields)


def test_a_manifest_must_name_its_own_game_class(toy):
    register(GameManifest(name="other", game="tests.server.secret_game:SecretGame"))
    try:
        with pytest.raises(ValueError, match="names a game class called 'secret_words'"):
            load_game("other")
    finally:
        unregister_game("other")
    with pytest.raises(ValueError, match="register takes a GameManifest"):
        register(TOY.__dict__)


def test_every_game_package_has_a_manifest_whose_paths_all_resolve():
    packages = sorted(
        p.name for p in Path(tminus.games.__file__).parent.iterdir() if (p / "manifest.py").exists()
    )
    assert packages == [m.name for m in manifests()] == list_games()
    for declared in manifests():
        paths = [declared.game, *declared.agents.values(), *declared.solvers]
        paths += [*declared.figures, *declared.batch.values(), *declared.batch_agents.values()]
        paths += [p for p in (declared.facts, declared.evaluation) if p]
        for path in paths:
            try:
                assert resolve(path) is not None
            except ModuleNotFoundError as error:
                if error.name != "jax":  # the jax extra is optional
                    raise
        if declared.board:
            script = declared.board.removeprefix("/static/")
            assert (Path(tminus.__file__).parent / "web" / script).is_file(), declared.board


def test_reading_every_manifest_imports_no_game_agent_or_simulation():
    code = (
        "import sys; from tminus.core.registry import manifests; manifests(); "
        "print(sorted(m for m in sys.modules if m.startswith('tminus.')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "tminus.games.four_way.manifest" in loaded
    for heavy in ("tminus.games.four_way.game", "tminus.agents", "tminus.sim", "tminus.batch"):
        assert f"'{heavy}" not in loaded
