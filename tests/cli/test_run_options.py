"""`simulate`, `tournament` and `report` hand their run to tminus.sim as one RunOptions."""

from tminus.cli.simulation import RunOptions, progress_bar
from tminus.core.registry import load_game
from tminus.sim.simulate import simulate


def test_every_run_option_reaches_the_simulation_and_the_tournament():
    game = load_game("sputnik")
    options = RunOptions(games=3, seed=5, workers=1, facts=True)
    with progress_bar("sputnik", 6, hidden=True) as bar:
        summary = options.simulate(game, ["greedy", "random"], bar)
        result = options.tournament(game, ["greedy", "random"], bar)
        assert bar.tasks[0].completed == 6  # both runs told the bar of each game
    direct = simulate(game, ["greedy", "random"], 3, seed=5, facts=True)
    assert summary.to_dict() == direct.to_dict()
    assert [r.facts for r in summary.results] == [r.facts for r in direct.results]
    assert all(r.facts for r in summary.results + result.results)  # facts=True went through
    assert (result.games, result.seeds, len(result.results)) == (3, (5,), 3)
