"""The lobby's levels: four per game, weakest first, every spec an agent that exists."""

import pytest

from tminus import list_games, load_game
from tminus.agents.levels import level_table, levels
from tminus.agents.registry import list_agents, make_agent
from tminus.core.registry import game_class
from tminus.sim.levels import format_levels_table, levels_tournament


@pytest.mark.parametrize("name", list_games())
def test_every_game_has_four_levels_whose_specs_make_agents(name):
    table = level_table(name)
    assert [level.name for level in table] == ["easy", "medium", "hard", "expert"]
    game = load_game(name)
    for level in table:
        if level.spec == "solver":  # solving the duel takes seconds: just that it exists
            assert "solver" in list_agents(name)
        else:
            make_agent(level.spec, game, seed=0)
    assert levels(name) == [{"spec": lv.spec, "label": lv.label} for lv in table]
    assert [lv.seconds for lv in table] == [None, None, 0.5, 2.0]


def test_four_way_expert_is_the_solver_with_two_players_only():
    assert level_table("four_way", 2)[-1].spec == "solver"
    assert level_table("four_way", 3)[-1].spec.startswith("mcts")


def test_an_unknown_game_has_no_levels():
    with pytest.raises(ValueError, match="unknown game"):
        levels("chess")


def test_a_game_not_measured_here_gets_levels_by_its_agents():
    from tests.server.secret_game import SecretGame
    from tminus.core.registry import register_game, unregister_game

    register_game(SecretGame)  # hidden cards, no greedy player
    try:
        specs = [level["spec"] for level in levels(SecretGame.name)]
    finally:
        unregister_game(SecretGame.name)
    assert specs == ["random", "ismcts:simulations=100", "ismcts:simulations=400"]


def test_the_levels_tournament_prints_every_level_with_intervals():
    from dataclasses import replace

    from tminus.core.registry import manifest, register

    # The real budgets take seconds a move; the table's shape is the point here.
    four_way = manifest("four_way")
    register(replace(four_way, levels=replace(four_way.levels, hard="mcts:simulations=4")))
    try:
        result = levels_tournament("four_way", games=12, seed=1)
    finally:
        register(four_way)
    table = format_levels_table(result)
    lines = [line for line in table.splitlines() if line.startswith("| ")][1:]
    assert [line.split("|")[1].strip() for line in lines] == ["easy", "medium", "hard", "expert"]
    assert "(" in lines[-1] and "/" in lines[-1]  # an interval and a head-to-head score
    ratings = {r.agent: r.elo_text() for r in result.ratings}  # each level's, on one scale
    assert [line.split("|")[3].strip() for line in lines] == [ratings[a] for a in result.agents]


def test_the_levels_command_plays_a_candidate_against_the_expert(capsys):
    from dataclasses import replace

    from tminus.core.registry import manifest, register
    from tminus.sim import levels as module

    four_way = manifest("four_way")
    register(replace(four_way, levels=replace(four_way.levels, hard="mcts:simulations=4")))
    try:
        module.main(["four_way", "10", "--seed", "2", "--candidate", "mcts:simulations=3"])
    finally:
        register(four_way)
    out = capsys.readouterr()
    levels, matrix = out.out.split("\n\n| won")  # the levels, then every pair's score
    rows = [line.split("|")[1:3] for line in levels.splitlines() if line.startswith("| ")][1:]
    assert [(a.strip(), b.strip()) for a, b in rows] == [
        ("easy", "`random`"), ("medium", "`greedy`"), ("hard", "`mcts:simulations=4`"),
        ("expert", "`solver`"), ("candidate", "`mcts:simulations=3`"),
    ]  # fmt: skip
    assert "10 of 10 games" in out.err  # progress, apart from the table
    assert matrix.startswith(" / decided | easy | medium | hard | expert | candidate |")
    assert len(matrix.strip().splitlines()) == 2 + 5  # the header, its rule, a row each


def test_a_duplicate_levels_tournament_adds_each_levels_paired_edge_over_the_one_below():
    from dataclasses import replace

    from tminus.core.registry import manifest, register

    four_way = manifest("four_way")
    register(replace(four_way, levels=replace(four_way.levels, hard="mcts:simulations=4")))
    try:
        result = levels_tournament("four_way", games=24, seed=1, players=2, duplicate=True)
    finally:
        register(four_way)
    paired = format_levels_table(result).split("| level | paired edge")[1]
    rows = [line.split("|")[1:4] for line in paired.splitlines() if line.startswith("| ")]
    assert [row[0].strip() for row in rows] == ["medium", "hard", "expert"]
    # 24 games of 4 levels at 2 seats (12 seatings): two deals, each pair met in both.
    assert all(row[2].strip() == "2" for row in rows)
    edge = result.paired[result.agents[1]][result.agents[0]]
    assert f"{edge.edge:+.3f}" in rows[0][1]


def test_count_down_searches_more_with_two_players_whose_simulations_cost_less():
    two, four = level_table("count_down", 2), level_table("count_down", 4)
    assert [lv.spec for lv in two[2:]] == ["ismcts:simulations=200", "ismcts:simulations=800"]
    assert [lv.spec for lv in four[2:]] == ["ismcts:simulations=100", "ismcts:simulations=300"]
    assert level_table("count_down") == four  # four players, the default


@pytest.mark.parametrize("name", list_games())
def test_every_player_counts_levels_make_agents_of_that_count(name):
    from tminus.server.service import player_counts

    for players in player_counts(game_class(name)):
        game = load_game(name, players=players)
        for level in level_table(name, players):
            if level.spec != "solver":
                make_agent(level.spec, game, seed=0)


def test_levels_pooled_from_saved_pair_runs_are_shown_in_level_order(tmp_path, capsys):
    """Neighbouring levels played apart (expert against hard, hard against medium, each
    saved), then pooled: one table, weakest first, each edge over the level below."""
    import json
    from dataclasses import replace

    from tminus.core.registry import manifest, register
    from tminus.sim import levels as module
    from tminus.sim.tournament import tournament

    four_way = manifest("four_way")
    register(replace(four_way, levels=replace(four_way.levels, hard="mcts:simulations=4")))
    game = load_game("four_way", players=2)
    runs = []
    try:
        pairs = [("solver", "mcts:simulations=4"), ("mcts:simulations=4", "greedy")]
        for seed, pair in enumerate(pairs, 1):
            played = tournament(game, list(pair), 4, seed=seed, duplicate=True)
            path = tmp_path / f"run{seed}.json"
            path.write_text(json.dumps(played.to_dict(with_games=True)))
            runs.append(played)
        module.main(
            [
                "four_way",
                "--pool",
                str(tmp_path / "run1.json"),
                "--pool",
                str(tmp_path / "run2.json"),
            ]
        )
    finally:
        register(four_way)
    table = capsys.readouterr().out
    assert table.startswith("four_way") and "8 games, seeds 1, 2" in table.splitlines()[0]
    levels_part, paired = table.split("| level | paired edge")
    rows = [line.split("|")[1:3] for line in levels_part.splitlines() if line.startswith("| ")][1:]
    assert [(a.strip(), b.strip()) for a, b in rows] == [
        ("medium", "`greedy`"),
        ("hard", "`mcts:simulations=4`"),
        ("expert", "`solver`"),
    ]
    edges = [line.split("|")[1:4] for line in paired.split("\n\n")[0].splitlines()[2:]]
    assert [(e[0].strip(), e[2].strip()) for e in edges] == [("hard", "2"), ("expert", "2")]
    matrix = table.split("| won / decided |")[1].splitlines()
    assert matrix[2].startswith("| medium | — |") and matrix[2].endswith("| not met |")
    hard_over_medium = runs[1].paired["mcts:simulations=4"]["greedy"]
    assert f"{hard_over_medium.edge:+.3f}" in edges[0][1]


def test_a_level_name_makes_that_levels_agent_for_the_player_count():
    # The terminal speaks as the lobby does: "hard" is the lobby's hard bot of this game.
    two, four = load_game("count_down", players=2), load_game("count_down", players=4)
    assert make_agent("hard", two).simulations == 200  # hards_by_players
    assert make_agent("hard", four).simulations == 100
    assert make_agent("medium", four).name == "greedy" and make_agent("easy", four).name == "random"
    assert make_agent("hard:simulations=7", four).simulations == 7  # options after it kept
    with pytest.raises(ValueError, match="levels: easy, medium, hard, expert"):
        make_agent("hardest", four)
