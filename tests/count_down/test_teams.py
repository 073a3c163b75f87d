"""Rules v3: with 6 players partners are a team everywhere the game says who plays with
whom: its declared capabilities, ``allies``, the observations and the terminal drawing.
"Two players are associated on each of the other three centres ... associated players
fill only one control card, have only one rocket to build, and therefore make only one
COUNTDOWN": they win (and lose) together."""

import pytest

import tminus
from tests.count_down.helpers import changed, make_ready, new_game, play, reopen_turn, started
from tminus.core.registry import game_class

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]


def test_count_down_declares_teams():
    assert game_class("count_down").game_type.teams
    assert tminus.load_game("count_down", players=6).game_type.teams


def test_six_players_are_three_teams_of_partners():
    game = tminus.load_game("count_down", players=6)
    assert [game.allies(seat) for seat in range(6)] == [
        [0, 3], [1, 4], [2, 5], [0, 3], [1, 4], [2, 5]
    ]  # fmt: skip


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_fewer_players_each_play_alone(players):
    game = tminus.load_game("count_down", players=players)
    assert [game.allies(seat) for seat in range(players)] == [[s] for s in range(players)]


@pytest.mark.parametrize("centre", [1, 2, 3])
def test_the_winners_are_the_allies_of_the_one_who_counted_down(centre):
    state = started(6)  # team t (seats t and t + 3) holds centre t + 1
    seat = centre - 1
    state = reopen_turn(changed(make_ready(state, centre), mover=seat), seat)
    play(state, "count down", "ball 12", "start count", "ball 12", "ball 1")
    assert state.winners() == state.game.allies(seat) == [seat, seat + 3]
    assert state.placings() == [1 if s % 3 == seat else 3 for s in range(6)]  # one place


def test_every_seat_scores_what_its_partners_score():
    game = tminus.load_game("count_down", players=6)
    state = reopen_turn(changed(make_ready(started(6), 2), mover=1), 1)
    play(state, "count down", "ball 12", "start count", "ball 12", "ball 1")
    returns = state.returns()
    for seat in range(6):
        assert {returns[ally] for ally in game.allies(seat)} == {returns[seat]}


def test_observations_name_the_teams_from_the_start():
    assert new_game(6).observation(2)["teams"] == [[0, 3], [1, 4], [2, 5]]
    assert started(6).public_observation()["teams"] == [[0, 3], [1, 4], [2, 5]]
    assert new_game(4).observation(0)["teams"] == []
    assert new_game(5).observation(4)["teams"] == []


def test_the_terminal_shows_partners_together():
    before = new_game(6).render(None, NAMES)
    assert "teams: Ann and Dan · Bob and Eve · Cid and Fay" in before
    drawn = started(6).render(0, NAMES).splitlines()
    assert "teams: Ann and Dan (centre 1) · Bob and Eve (centre 2) · Cid and Fay (centre 3)" in (
        "\n".join(drawn)
    )
    # Each player's piece is listed next to the partner's.
    pieces = [line for line in drawn if " is on " in line]
    order = [next(n for n in NAMES if n in line) for line in pieces]
    assert order == ["Ann", "Dan", "Bob", "Eve", "Cid", "Fay"]
    assert "teams:" not in started(4).render(0, NAMES[:4])


def test_the_terminal_names_a_winning_team_together():
    state = reopen_turn(make_ready(started(6), 1), 0)
    play(state, "count down", "ball 12", "start count", "ball 12", "ball 1")
    assert "won by centre 1: Ann and Dan" in state.render(None, NAMES)
