"""Game review: exact values where solved, estimates elsewhere, nothing hidden during play."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from tests.review.helpers import duel_chance_after, recorded
from tests.sputnik.helpers import arrange
from tminus import load_game
from tminus.agents.solvers.four_way_duel import solve
from tminus.agents.solvers.sputnik_endgame import build
from tminus.cli import app
from tminus.core.serialize import state_to_dict
from tminus.review import (
    GRADES,
    Estimate,
    ExactSputnik,
    grade,
    read_record,
    review_game,
    review_position,
    review_seat,
)
from tminus.review.report import counted, html_report
from tminus.review.review import about_equal


def test_a_four_way_duel_review_matches_the_exact_duel_values_at_every_move():
    game, history = recorded("four_way", ["greedy", "random"])
    duel = solve(False)
    review = review_game(game, history)
    assert review.moves and all(m.exact for m in review.moves)
    state = game.new_initial_state()
    reviewed = iter(review.moves)
    for index, action in enumerate(history):
        if not state.is_chance_node() and len(state.legal_actions()) > 1:
            move = next(reviewed)
            assert move.index == index and move.played == action
            values = {a: duel_chance_after(state, a, duel) for a in state.legal_actions()}
            assert round(move.after.mean, 4) == round(values[action], 4)
            assert round(move.before.mean, 4) == round(max(values.values()), 4)
            assert round(move.loss.mean, 4) == round(max(values.values()) - values[action], 4)
        state.apply_action(action)
    assert next(reviewed, None) is None
    # The random player gave chances away; the review says so.
    assert any(m.loss.mean > 0.01 for m in review.moves if m.seat == 1)


def test_grades_follow_the_documented_thresholds():
    assert grade(0.30) == "blunder"
    assert grade(0.15) == "mistake"
    assert grade(0.05) == "inaccuracy"
    assert grade(0.049) is None
    assert grade(0.4, error=0.25) is None  # within two standard errors: noise


def test_an_estimated_loss_is_graded_only_by_what_its_interval_clears():
    """A grade needs the loss to pass its threshold by more than two standard errors of
    the difference: where the interval (loss ± 2 SE) holds the threshold, no such label."""
    assert grade(0.40, error=0.10) == "mistake"  # 0.20 clears 0.15, not 0.30
    assert grade(0.40, error=0.04) == "blunder"  # 0.32 clears 0.30
    assert grade(0.12, error=0.05) is None  # 0.02: not even an inaccuracy for sure
    assert grade(0.12, error=0.03) == "inaccuracy"  # 0.06 clears 0.05
    assert grade(0.35, error=0.025) == "mistake"  # exactly 0.30 is not more than it
    for loss in (0.06, 0.2, 0.33, 0.5):
        for error in (0.01, 0.03, 0.1):
            label = grade(loss, error)
            thresholds = dict(GRADES)
            if label is not None:
                assert loss - 2 * error > thresholds[label]
            for _, threshold in GRADES:  # no lesser label where a greater one is sure
                if loss - 2 * error > threshold:
                    assert label is not None and thresholds[label] >= threshold
                    break


@pytest.fixture(scope="module")
def three_two_one_midgame():
    game = load_game("three_two_one", players=2)
    _, history = recorded("three_two_one", ["greedy", "greedy"], seed=3, players=2)
    state = game.new_initial_state()
    for action in history:
        mine = not state.is_chance_node() and state.current_player() == 0
        if mine and len(state.history()) > 40 and len(state.legal_actions()) > 1:
            return state
        state.apply_action(action)
    raise AssertionError("no decision for seat 0 after move 40")


def test_a_review_during_play_reads_nothing_the_seat_cannot_see(three_two_one_midgame):
    state = three_two_one_midgame
    other = state.resample_hidden(0, np.random.default_rng(7))  # seat 0 cannot tell them apart
    assert str(other) != str(state)  # the other hand (or the draw pile) differs
    a = review_position(state, 0, samples=6, seed=1)
    b = review_position(other, 0, samples=6, seed=1)
    assert a == b and len(a) > 1


def test_a_seat_review_covers_only_its_own_moves(three_two_one_midgame):
    review = review_seat(three_two_one_midgame, 1, samples=2)
    assert review.viewer == 1 and "only what Player 2 can see" in review.knowledge
    assert review.moves and {m.seat for m in review.moves} == {1}
    assert all(not m.exact and m.loss.error >= 0 for m in review.moves)


def test_sputnik_inside_the_endgame_table_is_exact():
    table = build(radius=3, max_galaxies=2)
    game = load_game("sputnik")
    home = game.start[0]
    state = arrange(2, [game.board.names[game.board.neighbours[home][0]], "d4"], helped=(1,))
    values = ExactSputnik(game, table).values(state, state.legal_actions())
    assert max(v[0] for v in values.values()) == 1.0  # the step home wins
    assert {v[0] for v in values.values()} <= {0.0, 1.0}
    assert ExactSputnik(game, table).values(load_game("sputnik").new_initial_state(), [0]) is None


def test_records_are_read_from_exports_and_saves_and_bad_ones_refused():
    game, history = recorded("four_way", ["greedy", "greedy"])
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    assert read_record(state_to_dict(state)).history == history
    export = {
        "format": "tminus-game-export",
        "game": "four_way",
        "params": dict(game.params),
        "seats": [{"name": "Ada"}, {"name": "Bo"}],
        "actions": [{"index": i, "action": a} for i, a in enumerate(history)],
    }
    assert read_record(export).names == ["Ada", "Bo"]
    # A move taken back (as the server exports it) and its take-back are not in the game.
    undone = dict(export, actions=[*export["actions"]])
    seat = game.new_initial_state().current_player()
    undone["actions"][1:1] = [
        {"index": 1, "actor": seat, "action": history[1], "taken_back": True},
        {"index": 2, "actor": seat, "take_back": True},
    ]
    assert read_record(undone).history == history
    export["actions"][3] = {"index": 3, "text": "hidden"}
    with pytest.raises(ValueError, match="no action id"):
        read_record(export)
    with pytest.raises(ValueError, match="not a T-minus"):
        read_record({"format": "chess"})


def test_the_html_report_escapes_names_and_draws_the_curve():
    game, history = recorded("four_way", ["greedy", "random", "greedy"], players=3)
    names = ["<script>x</script>", "Bo & co", "Cy"]
    review = review_game(game, history, names=names, samples=2)
    page = html_report(review)
    assert "<script>x" not in page and "&lt;script&gt;x" in page and "Bo &amp; co" in page
    assert page.count("<polyline") == 3 and "<svg" in page
    assert all(not m.exact for m in review.moves)  # three players: estimates


def test_the_page_speaks_plainly_of_its_game_and_its_grades():
    """Plurals in English, the judges' `names` as code (not raw backticks), no talk of hidden
    cards in a game that hides none, and the legend beside the curve, never over it."""
    game, history = recorded("four_way", ["greedy", "random", "greedy"], players=3)
    review = review_game(game, history, names=["Ada", "Bo", "Cy"], samples=2)
    page = html_report(review)
    assert "inaccuracys" not in page and ("inaccuracies" in page or "1 inaccuracy" in page)
    assert "`" not in page and "<code>" in page
    assert "hidden cards" not in page and "Nothing is hidden in this game" in page
    assert page.count('class="swatch"') == 3
    assert "<text" not in page.split("</svg>")[0].split("<polyline")[-1]  # (no names drawn)
    assert [counted(n, "inaccuracy") for n in (0, 1, 2)] == [
        "0 inaccuracies", "1 inaccuracy", "2 inaccuracies"]  # fmt: skip
    assert counted(0, "blunder") == "0 blunders"


def test_the_review_command_prints_the_table_and_writes_the_page(tmp_path):
    game, history = recorded("four_way", ["greedy", "random", "greedy"], players=3)
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state_to_dict(state)))
    page = tmp_path / "review.html"
    arguments = ["review", str(path), "--html", str(page), "--samples", "2"]
    result = CliRunner().invoke(app, arguments)
    assert result.exit_code == 0, result.output
    assert "Review of four_way" in result.output and "<svg" in page.read_text()
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    result = CliRunner().invoke(app, ["review", str(bad)])
    # (the console wraps long lines where it likes: read the words)
    assert result.exit_code != 0 and "not a T-minus" in " ".join(result.output.split())


def test_a_hint_names_a_best_move_only_when_it_beats_the_next_by_two_standard_errors():
    value = Estimate(0.5, 0.01, 1000)
    clear = [(7, value, Estimate(0.0, 0.0)), (3, value, Estimate(0.05, 0.02))]  # 2.5 SE
    assert about_equal(clear) == [7]
    close = [(7, value, Estimate(0.0, 0.0)), (3, value, Estimate(0.03, 0.02))]  # 1.5 SE
    assert about_equal(close) == [7, 3]
    tied_exactly = [(7, value, Estimate(0.0, 0.0)), (3, value, Estimate(0.0, 0.0))]
    assert about_equal(tied_exactly) == [7, 3]
    exact_worse = [(7, value, Estimate(0.0, 0.0)), (3, value, Estimate(0.001, 0.0))]
    assert about_equal(exact_worse) == [7]


def test_a_sputnik_review_says_when_its_endgame_table_is_missing_or_being_built(
    monkeypatch, tmp_path
):
    import fcntl

    from tminus.agents.solvers import sputnik_endgame

    monkeypatch.setenv("TMINUS_CACHE", str(tmp_path))  # a fresh server: no table built
    sputnik_endgame.forget_loaded_tables()
    game, history = recorded("sputnik", ["random", "random"])
    history = history[:9]  # (the lot and four turns: the note is about the game, not its length)
    try:
        missing = review_game(game, history, budget=0.01).judges
        assert any("endgame table is not built on this server" in j for j in missing)
        with open(sputnik_endgame.cache_path().with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another process builds it now
            building = review_game(game, history, budget=0.01).judges
        assert any("endgame table is being built on this server" in j for j in building)
        table = build(radius=3, max_galaxies=2)
        assert not any("endgame" in j for j in review_game(game, history, table=table,
                                                          budget=0.01).judges)  # fmt: skip
        table.save(sputnik_endgame.cache_path())  # the build ended (a small table in its place)
        assert sputnik_endgame.cached_table() is not None  # read from the next use on
        assert not any("endgame" in j for j in review_game(game, history, budget=0.01).judges)
        four_way, moves = recorded("four_way", ["greedy", "greedy"])
        four_way_review = review_game(four_way, moves[:9], budget=0.01)
        assert not any("endgame" in j for j in four_way_review.judges)
    finally:
        sputnik_endgame.forget_loaded_tables()
