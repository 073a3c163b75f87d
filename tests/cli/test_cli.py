"""The `tminus` command: every subcommand, and bad input answered with a message."""

import json

from typer.testing import CliRunner

import tminus
from tminus.cli import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_games_lists_four_way_with_its_parameters():
    result = run("games")
    assert result.exit_code == 0
    assert "four_way" in result.output and "variant" in result.output


def test_rules_shows_the_rulings():
    result = run("rules", "four_way")
    assert result.exit_code == 0
    assert "T-minus rulings" in result.output and "Turn cap" in result.output


def test_unknown_game_is_a_message_not_a_traceback():
    for args in (("rules", "nope"), ("play", "nope"), ("simulate", "nope"), ("bench", "nope")):
        result = run(*args)
        assert result.exit_code == 2, args
        assert "unknown game 'nope'" in result.output
        assert "Traceback" not in result.output


def test_bad_parameters_are_messages():
    result = run("simulate", "four_way", "--players", "7")
    assert result.exit_code == 2 and "must be one of 2, 3, 4" in result.output
    result = run("simulate", "four_way", "-p", "variant")
    assert result.exit_code == 2 and "name=value" in result.output
    result = run("simulate", "four_way", "--agents", "genius")
    assert result.exit_code == 2 and "unknown agent 'genius'" in result.output
    result = run("simulate", "four_way", "-n", "0")
    assert result.exit_code == 2 and "Invalid value" in result.output
    result = run("play", "four_way", "--seat", "5")
    assert result.exit_code == 2 and "seats are 1 to 2" in result.output  # people count from 1


def test_simulate_prints_a_table_and_json():
    result = run("simulate", "four_way", "-n", "50", "--agents", "greedy,random", "--seed", "1")
    assert result.exit_code == 0
    assert "greedy" in result.output and "95% interval" in result.output
    result = run(
        "simulate", "four_way", "-n", "50", "--agents", "greedy,random", "--seed", "1",
        "-p", "variant=junior", "--json",
    )  # fmt: skip
    data = json.loads(result.output)
    assert data["games"] == 50 and data["params"]["variant"] == "junior"
    assert [s["agent"] for s in data["seats"]] == ["greedy", "random"]
    assert sum(s["wins"] for s in data["seats"]) + data["draws"] == 50


def test_simulate_and_bench_on_the_batch_engine():
    result = run(
        "simulate", "sputnik", "--agents", "greedy,random", "-n", "200", "--batch", "--json"
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 200 and data["seats"][0]["wins"] > 150  # greedy beats random
    result = run("simulate", "three_two_one", "--agents", "greedy", "--batch")
    assert result.exit_code == 2 and "Traceback" not in result.output  # no vectorised greedy
    result = run("bench", "--batch", "chess")  # no such game
    assert result.exit_code == 2 and "Traceback" not in result.output
    # Count Down on its batch engine, greedy against random (Numba compiles it, or reads it)
    result = run("simulate", "count_down", "--agents", "greedy,random", "-n", "40", "--batch",
                 "--seed", "2", "-p", "players=2", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 40 and data["seats"][0]["wins"] > 30  # greedy beats random


def test_play_a_whole_game_with_bad_input_reprompted():
    # Always answer "1" (the first legal move); the first answers are nonsense.
    answers = "hello\n0\n99\n" + "1\n" * 2000
    result = run("play", "four_way", "--players", "3", "--bots", "greedy,random", "--seed", "4",
                 input=answers)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "'hello' is not a move here" in result.output
    assert "'99' is not a move here" in result.output
    assert "Bot 2" in result.output and "plays greedy" in result.output
    assert "Bot 3" in result.output and "plays random" in result.output
    assert "Winner:" in result.output or "Draw" in result.output


def test_play_accepts_a_move_by_name_and_quits_on_q():
    result = run("play", "four_way", "--seed", "1", input="q\n")
    assert result.exit_code == 0
    result = run("play", "four_way", "--seed", "2", input="flip 99\nq\n")
    assert "'flip 99' is not a move here" in result.output


def test_bench_prints_throughput():
    result = run("bench", "four_way", "--runs", "1", "--seconds", "0.1", "--no-scaling", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {r["params"]["players"] for r in data["playouts"]} == {2, 4}
    assert all(r["actions_per_second"] > 0 for r in data["playouts"])
    assert data["search"][0]["agent"] == "mcts" and data["search"][0]["decisions_per_second"] > 0


def test_tournament_prints_ranking_and_head_to_head():
    result = run(
        "tournament", "four_way", "--agents", "greedy,random", "-n", "40", "--workers", "1"
    )
    assert result.exit_code == 0, result.output
    assert "ranking" in result.output and "head to head" in result.output
    result = run("tournament", "four_way", "--agents", "greedy", "-n", "4", "--workers", "1")
    assert result.exit_code == 2 and "at least two agents" in result.output


def test_saved_tournaments_pool_into_one(tmp_path):
    """Two runs of different seeds, saved, then pooled: the tables over all their games."""
    common = ("four_way", "--agents", "greedy,random", "-n", "4", "--workers", "1", "--duplicate")
    for seed in (1, 2):
        saved = tmp_path / f"run{seed}.json"
        result = run("tournament", *common, "--seed", str(seed), "--save", str(saved))
        assert result.exit_code == 0, result.output
        games = json.loads(saved.read_text())["results"]
        assert len(games) == 4
        for game in games:  # each game's moves, saved with it, replay to its result
            state = tminus.load_game("four_way", players=2).new_initial_state()
            for action in game["history"]:
                state.apply_action(action)
            assert state.is_terminal() and state.returns() == game["returns"]
    runs = [str(tmp_path / "run1.json"), str(tmp_path / "run2.json")]
    result = run("pool", *runs, "--json")
    assert result.exit_code == 0, result.output
    pooled = json.loads(result.output)
    assert pooled["games"] == 8 and pooled["seeds"] == [1, 2]
    assert pooled["paired"]["greedy"]["random"]["deals"] == 4
    assert "8 games (seed 1, 2)" in run("pool", *runs).output
    # The same run twice, a file that is not there, a file saved without its games:
    twice = run("pool", runs[0], runs[0])
    assert twice.exit_code == 2 and "seed 1 is in two runs" in twice.output
    missing = run("pool", str(tmp_path / "none.json"))
    assert missing.exit_code == 2 and "cannot read" in missing.output
    bare = tmp_path / "bare.json"
    bare.write_text(run("tournament", *common, "--json").output)
    assert "saved without its games" in run("pool", str(bare)).output
    other = tmp_path / "other.json"
    other.write_text('{"game": "four_way"}')
    wrong = run("pool", str(other))
    said = " ".join(wrong.output.split())  # (the terminal wraps a long path anywhere)
    assert wrong.exit_code == 2 and "not a tournament saved with its games" in said
    # A run of other agents: the pair that never met says so instead of 0 / 0 / 0.
    mcts = tmp_path / "mcts.json"
    other_agents = (
        "four_way",
        "--agents",
        "mcts:simulations=3,greedy",
        "-n",
        "2",
        "--workers",
        "1",
    )
    run("tournament", *other_agents, "--duplicate", "--seed", "3", "--save", str(mcts))
    grids = run("pool", runs[0], str(mcts)).output.split("head to head")[1]
    random_row = next(line for line in grids.splitlines() if line.startswith("│ 2. random"))
    assert "not met" in random_row and "0 / 0 / 0" not in grids


def test_a_tournament_never_cuts_an_agents_spec():
    """Neither the ranking nor the grids of pairs: two specs cut alike would read the same
    (the grids once showed both searchers as 'ismcts:simulation…')."""
    spec = "mcts:simulations=20:exploration=1.4"  # (wider than its column at 80 characters)
    other = "mcts:simulations=20:exploration=0.7"
    result = run(
        "tournament", "sputnik", "--agents", f"{spec},{other},random", "-n", "6", "--workers",
        "1", "--duplicate",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "…" not in result.output
    ranking, grids = result.output.split("head to head")
    agent_column = "".join(
        line.split("│")[2].strip() for line in ranking.splitlines() if line.startswith("│")
    )
    assert spec in agent_column and other in agent_column
    for grid in grids.split("paired edge"):  # each row names its agent whole, by number
        labels = "".join(
            line.split("│")[1].strip() for line in grid.splitlines() if line.startswith("│")
        )
        assert labels.replace(" ", "") == f"1.{spec}2.{other}3.random"


def test_solve_prints_what_the_solvers_found():
    # The figures themselves are proved in tests/agents (Bellman equations, simulation);
    # here: the command prints those figures, for both variants, one player and two.
    from tminus.agents.solvers import four_way, four_way_duel

    result = run("solve", "four_way")
    assert result.exit_code == 0, result.output
    for junior in (False, True):
        alone = four_way.solve(junior).from_start  # expected turns, perfect play alone
        first = float(four_way_duel.solve(junior)[0, 0])  # the first to roll, both perfect
        assert f"{alone:.4f}" in result.output and f"{first:.4f}" in result.output


def test_report_writes_a_page(tmp_path):
    out = tmp_path / "r.html"
    result = run("report", "four_way", "-n", "30", "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "data:image/png" in out.read_text()


def test_report_draws_the_games_own_figure_from_a_process_pool(tmp_path):
    out = tmp_path / "r.html"
    args = ["report", "sputnik", "-n", "12", "--players", "3", "--workers", "2", "--out"]
    result = run(*args, str(out))
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert "Who gets isolated first" in page and page.count("data:image/png") == 3


def test_simulate_on_two_workers_matches_one():
    args = ["simulate", "four_way", "-n", "40", "--agents", "greedy,random", "--json"]
    one = json.loads(run(*args, "--workers", "1").output)
    two = json.loads(run(*args, "--workers", "2").output)
    assert one == two


def test_bench_never_builds_the_endgame_table(monkeypatch, tmp_path):
    from tminus.agents.solvers import sputnik_endgame

    monkeypatch.setenv("TMINUS_CACHE", str(tmp_path))  # an empty cache
    sputnik_endgame.forget_loaded_tables()
    try:
        result = run("bench", "sputnik", "--runs", "1", "--seconds", "0.05", "--no-search",
                     "--no-scaling", "--no-interop")  # fmt: skip
    finally:
        sputnik_endgame.forget_loaded_tables()
    assert result.exit_code == 0, result.output
    assert "endgame table: not built here" in " ".join(result.output.split())
    assert list(tmp_path.iterdir()) == []


def test_serve_builds_the_tables_missing_unless_told_not_to(monkeypatch, tmp_path, capsys):
    import numpy as np

    from tminus.agents.solvers import sputnik_endgame, tables
    from tminus.cli.online import say_tables

    started = []
    monkeypatch.setattr(tables, "build_process", lambda name, **how: started.append((name, how)))
    monkeypatch.setenv("TMINUS_CACHE", str(tmp_path))  # an empty cache
    sputnik_endgame.forget_loaded_tables()
    try:
        say_tables(build=False)
        assert started == [] and "tminus tables build" in capsys.readouterr().out
        say_tables(build=True)
        assert [name for name, _ in started] == list(tables.TABLES)
        assert all(how == {"low_priority": True, "quiet": True} for _, how in started)
        assert "in the background" in capsys.readouterr().out
        sputnik_endgame.build(3, 2).save(sputnik_endgame.cache_path())  # (small, in its place)
        for table in ("four_way_duel_adult", "four_way_duel_junior"):
            np.save(tables.TABLES[table].path(), np.zeros(1))  # (there: not read here)
        started.clear()
        say_tables(build=True)  # all built: nothing to say or start
        assert started == [] and capsys.readouterr().out == ""
    finally:
        sputnik_endgame.forget_loaded_tables()


def test_tables_lists_them_and_builds_the_missing_in_processes_of_their_own(monkeypatch, tmp_path):
    monkeypatch.setenv("TMINUS_CACHE", str(tmp_path))  # (the builds' processes inherit it)
    listed = run("tables")
    assert listed.exit_code == 0, listed.output
    assert "four_way_duel_adult" in listed.output and "sputnik_endgame" in listed.output
    assert list(tmp_path.iterdir()) == []
    refused = run("tables", "build", "chess")
    assert refused.exit_code == 2 and "no table 'chess'" in refused.output
    built = run("tables", "build", "four_way_duel_adult", "--jobs", "1")
    assert built.exit_code == 0, built.output
    from tminus.agents.solvers import four_way_duel

    assert four_way_duel.solved_path(False).exists()
    again = run("tables", "build", "four_way_duel_adult")
    assert again.exit_code == 0 and "built already" in again.output

    import fcntl

    from tminus.agents.solvers import sputnik_endgame

    with open(sputnik_endgame.cache_path().with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a server's build, under way
        busy = run("tables", "build", "sputnik_endgame")
    assert busy.exit_code == 0 and "another process is building it" in busy.output
    assert not sputnik_endgame.cache_path().exists()


def test_a_batch_run_says_when_its_engine_compiles_first(monkeypatch):
    """Count Down's engine compiles on its first use on a machine (a minute): the bar says
    so then, not otherwise (a NumPy engine, a game without one)."""
    from tminus.batch.count_down import CountDownBatch  # (Numba: in the extra "dev")
    from tminus.cli.simulation import compiled_here

    monkeypatch.setattr(CountDownBatch, "compiled", classmethod(lambda cls: False))
    assert not compiled_here("count_down")
    monkeypatch.setattr(CountDownBatch, "compiled", classmethod(lambda cls: True))
    assert compiled_here("count_down") and compiled_here("four_way") and compiled_here("nope")
