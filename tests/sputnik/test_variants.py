"""Variants: several rockets per player (2 or 3 players) and teams of two (4 players)."""

import pytest

import tminus
from tests.sputnik.helpers import arrange, legal_strings, play, rocket_cells, started


def seats_of_bases(state):
    return {r["cell"]: r["seat"] for r in state.observation(0)["rockets"]}


@pytest.mark.parametrize(
    ("players", "rockets", "expected"),
    [
        (2, 2, {"d1": 0, "g1": 1, "d7": 0, "a7": 1}),
        (2, 3, {"d1": 0, "g1": 1, "g4": 0, "d7": 1, "a7": 0, "a4": 1}),
        (3, 2, {"d1": 0, "g1": 1, "g4": 2, "d7": 0, "a7": 1, "a4": 2}),
    ],
)
def test_each_rocket_starts_on_a_base_of_its_own_colours_alternating(players, rockets, expected):
    state = started(players, rockets_per_player=rockets)
    assert seats_of_bases(state) == expected
    for name, seat in expected.items():
        assert state.observation(0)["cells"][state.game.board.by_name[name]] == (
            f"base of seat {seat}"
        )


def test_a_turn_moves_one_of_the_players_rockets():
    state = started(2, rockets_per_player=2)
    assert legal_strings(state) == [
        "move d1-e1", "move d1-c2", "move d1-d2", "move d7-d6", "move d7-e6", "move d7-c7",
    ]  # fmt: skip
    play(state, "move d7-d6", "remove d4")
    assert rocket_cells(state) == ["d1", "g1", "d6", "a7"]
    assert state.current_player() == 1


def test_a_move_may_name_only_the_target_when_one_rocket_can_go_there():
    state = started(2, rockets_per_player=2)
    play(state, "move d6")
    assert rocket_cells(state)[2] == "d6"


def test_each_base_helps_its_own_rocket():
    # Rocket 0's base has helped already; rocket 2's base (d7) still can.
    state = arrange(2, ["d3", "g1", "d5", "a7"], "f2", helped=(0,), rockets_per_player=2)
    helps = [m for m in legal_strings(state) if m.startswith("help")]
    assert helps and all(m.startswith("help d5-") for m in helps)


def test_a_rocket_that_cannot_move_is_removed_when_its_owners_turn_comes():
    # Seat 1's rocket 1 (d5, help used) hangs on e5; rocket 3 is free on a7.
    state = arrange(2, ["d2", "d5", "f2", "a7"], "d3 e5 b7 g1", helped=(1,), rockets_per_player=2)
    play(state, "move d2-d3", "remove e5")
    assert state.eliminated() == [1]
    assert state.current_player() == 1 and not state.is_terminal()
    assert all(m.startswith("move a7-") for m in legal_strings(state))


def test_a_player_with_no_rockets_left_is_out():
    state = arrange(2, ["d2", "d5", "f2", "e6"], "d3 e5", helped=(1, 3), rockets_per_player=2)
    play(state, "move d2-d3", "remove e5")
    assert state.eliminated() == [1, 3]
    assert state.is_terminal() and state.winners() == [0]
    assert state.returns() == [1.0, -1.0]


def test_several_rockets_are_only_for_two_or_three_players():
    with pytest.raises(ValueError, match="need 8 bases and there are 6"):
        tminus.load_game("sputnik", players=4, rockets_per_player=2)
    with pytest.raises(ValueError, match="'rockets_per_player' of sputnik must be one of 1, 2, 3"):
        tminus.load_game("sputnik", players=2, rockets_per_player=4)


def test_teams_are_for_four_players():
    with pytest.raises(ValueError, match="teams need 4 players, not 3"):
        tminus.load_game("sputnik", players=3, teams=True)


def test_team_partners_sit_on_opposite_corners_and_turns_alternate_teams():
    state = started(4, teams=True)
    assert state.game.allies(0) == [0, 2] and state.game.allies(1) == [1, 3]
    board = state.game.board
    cells = [board.by_name[name] for name in rocket_cells(state)]
    assert board.distance(cells[0], cells[2]) == 6  # opposite corners of radius 3
    assert board.distance(cells[1], cells[3]) == 6


def test_a_team_wins_when_only_its_rockets_are_left():
    # Seats 1 (d5) and 3 (e6) hang on e5; seat 0 takes it.
    state = arrange(4, ["a4", "d5", "g1", "e6"], "b4 e5 f1 f2", helped=(1, 3), teams=True)
    play(state, "move b4", "remove e5")
    # Seat 1 is out, but its partner is still on the board: the game goes on.
    assert state.eliminated() == [1] and state.current_player() == 2
    play(state, "move f1", "remove a4")
    # Seat 3 cannot move either: team 0 (seats 0 and 2) wins with both rockets left.
    assert state.eliminated() == [1, 3]
    assert state.is_terminal() and state.winners() == [0, 2]
    assert state.returns() == [1.0, -1.0, 1.0, -1.0]


def test_without_teams_four_players_play_each_for_themselves():
    state = arrange(4, ["a4", "d5", "g1", "e6"], "b4 e5 f1 f2", helped=(1, 3))
    play(state, "move b4", "remove e5", "move f1", "remove a4")
    assert state.eliminated() == [1, 3] and not state.is_terminal()
    assert state.current_player() == 0
