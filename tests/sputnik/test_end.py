"""Who starts (a lot), clockwise turns, elimination when a rocket cannot move, the last rocket
wins, and the turn cap."""

import pytest

from tests.sputnik.helpers import (
    arrange,
    content,
    legal_strings,
    new_game,
    play,
    rocket_cells,
    started,
)
from tminus import CHANCE, TERMINAL


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_lots_decide_who_starts_each_seat_equally_likely(players):
    state = new_game(players)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(s, pytest.approx(1 / players)) for s in range(players)]
    assert state.legal_actions() == []


def test_the_seat_drawn_starts_and_the_turn_passes_clockwise():
    state = started(3, first=2)
    order = []
    for _ in range(4):
        order.append(state.current_player())
        play(state, legal_strings(state)[0])
        if state.phase() == "remove":
            play(state, legal_strings(state)[-1])
    assert order == [2, 0, 1, 2]


def test_a_rocket_that_cannot_move_is_eliminated_and_the_last_rocket_wins():
    # Seat 1 on d5 has used its base's help; its last galaxy neighbour is e5.
    state = arrange(2, ["d2", "d5"], "d3 e5", helped=(1,))
    play(state, "move d3", "remove e5")
    assert state.current_player() == TERMINAL
    assert rocket_cells(state) == ["d3", None]  # "his rocket leaves the game"
    assert content(state, "d5") == "galaxy"  # its cell keeps its galaxy
    assert state.winners() == [0]
    assert state.returns() == [1.0, -1.0]
    assert state.legal_actions() == [] and state.chance_outcomes() == []


def test_a_rocket_on_its_own_base_with_nowhere_to_go_is_eliminated():
    state = arrange(2, ["d2", "d6"], "d3 d4 e1")
    play(state, "move d3", "remove e1", "move d7", "remove d2")
    # Seat 1 is back on its base: its base cannot help from there. Take d6.
    play(state, "move d4", "remove d6")
    assert state.is_terminal() and state.winners() == [0]
    assert content(state, "d7") == "base of seat 1"  # the base stays, it is never taken


def test_the_cell_of_an_eliminated_rocket_is_free_to_enter():
    state = arrange(3, ["d2", "d5", "c6"], "d3 a4", helped=(1,))
    play(state, "move d3", "remove a4")
    # Seat 1 (on d5) cannot move: out. Seat 2 plays next, and may fly onto d5.
    assert state.eliminated() == [1]
    assert state.current_player() == 2 and not state.is_terminal()
    assert "move d5" in legal_strings(state)


def test_elimination_happens_on_the_players_own_turn_only():
    state = arrange(3, ["d2", "c5", "c6"], "d3 b6 b5 f1 g1", helped=(2,))
    play(state, "move d3", "remove b6")
    # Seat 2 (c6) cannot move now, but it is not its turn: it stays on the board...
    assert rocket_cells(state)[2] == "c6"
    play(state, "move b5", "remove f1")
    # ...and seat 1 has freed c5 before seat 2's turn came: seat 2 plays on.
    assert state.current_player() == 2 and state.eliminated() == []
    assert "move c5" in legal_strings(state)


def test_the_last_rocket_wins_even_without_another_move():
    # Seats 1 (d5) and 2 (e6) both depend on e5; seat 0 takes it.
    state = arrange(3, ["a4", "d5", "e6"], "b4 e5", helped=(1, 2))
    play(state, "move b4", "remove e5")
    assert state.eliminated() == [1, 2]
    assert state.is_terminal() and state.winners() == [0]
    assert state.returns() == pytest.approx([1.0, -0.5, -0.5])


def test_an_eliminated_player_is_skipped_afterwards():
    state = arrange(3, ["d2", "d5", "c6"], "d3 a4 b6 g1 f1", helped=(1,))
    play(state, "move d3", "remove a4")
    assert state.eliminated() == [1]
    play(state, "move b6", "remove g1")
    assert state.current_player() == 0
    play(state, "move d2", "remove f1")
    assert state.current_player() == 2


def test_returns_are_zero_while_playing():
    assert started(4).returns() == [0.0] * 4


def test_turn_cap_ends_the_game_as_a_draw():
    state = started(2, max_turns=2)
    play(state, "move d2", "remove a4")
    assert not state.is_terminal()
    play(state, "move d6", "remove a5")
    assert state.is_terminal() and state.ended_by_turn_cap()
    assert state.returns() == [0.0, 0.0] and state.winners() == []
    assert "draw" in str(state)
    assert state.game.max_game_length == 1 + 2 * 2


def test_a_win_on_the_last_turn_before_the_cap_is_a_win():
    state = arrange(2, ["d2", "d5"], "d3 e5", helped=(1,), max_turns=1)
    play(state, "move d3", "remove e5")
    assert state.winners() == [0] and not state.ended_by_turn_cap()


def test_a_rocket_whose_only_move_is_back_onto_its_base_plays_on():
    # Seat 0 on e1: f1, d2 and e2 are taken by rockets; d1 is its own base.
    state = arrange(6, ["e1", "f1", "d2", "e2", "b6", "a5"], "c6 b5 a6", first=4)
    play(state, "move c6", "remove b5", "move a6", "remove a5")
    assert state.current_player() == 0 and state.eliminated() == []
    assert legal_strings(state) == ["move d1"]


@pytest.mark.parametrize("players", [3, 4, 6])
def test_places_follow_the_order_rockets_were_knocked_out(players):
    """The last rocket wins; of the others, the one knocked out later places higher (the end
    screen showed every loser as =2nd)."""
    import itertools
    import random

    import tminus

    for seed in range(8):
        rng = random.Random(seed)
        state = tminus.load_game("sputnik", players=players).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        places = state.placings()
        if state.winners():
            assert places[state.winners()[0]] == 1
        owner = state.game.rocket_owner
        out = [owner[rocket] for rocket in state.eliminated()]
        for earlier, later in itertools.pairwise(out):
            assert places[later] < places[earlier], (seed, out, places)
        assert sorted(places) == list(range(1, players + 1)) or not state.winners()
