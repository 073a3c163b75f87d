"""HTML reports: one page with every figure inlined."""

import tminus
from tminus.sim.report import build_report
from tminus.sim.simulate import simulate
from tminus.sim.tournament import tournament


def test_a_simulation_report_has_its_figures():
    game = tminus.load_game("four_way", players=2)
    summary = simulate(game, ["greedy", "random"], games=40, seed=1)
    page = build_report("four_way", dict(game.params), summary.results, "test", [("k", "v")])
    assert page.count("data:image/png;base64,") == 3  # seats, lengths, turns to finish
    assert "Win rate by seat and by turn order" in page and "Turns to finish" in page


def test_a_tournament_report_adds_ratings():
    game = tminus.load_game("four_way", players=2)
    result = tournament(game, ["greedy", "random"], games=20, seed=1)
    page = build_report("four_way", {}, result.results, "t", [], result.ratings)
    assert page.count("data:image/png;base64,") == 4 and "Ratings" in page
