"""Boards drawn for the terminal with the players' names: shown as typed (never read as
markup), nobody called "seat N", and nothing a seat may not see."""

import numpy as np
import pytest
from rich.console import Console

import tminus
from tminus.core.playout import sample_chance

NAMES = ["[b]Ann[/b]", "Bob", "Cy", "Dee"]


def positions(game, steps, seed):
    """States along a random game, one every few steps."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for step in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = sample_chance(state.chance_outcomes(), rng.random())
        else:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        state.apply_action(action)
        if step % 7 == 0:
            yield state.clone()


def shown(markup):
    console = Console(width=200, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(markup)
    return console.export_text()


@pytest.mark.parametrize("name", tminus.list_games())
def test_boards_call_players_by_their_names(name):
    game = tminus.load_game(name, players=3)
    names = NAMES[:3]
    rng = np.random.default_rng(0)
    for state in positions(game, 120, seed=1):
        for seat in range(3):
            board = state.render(seat, names)
            text = shown(board)
            assert "[b]Ann[/b]" in text and "Bob" in text and "Cy" in text
            assert "seat " not in text and "you " not in text
            world = state.resample_hidden(seat, rng)
            assert world.render(seat, names) == board  # nothing hidden shows


def test_count_downs_track_names_every_square_and_marks_the_pieces():
    state = tminus.load_game("count_down", players=4).new_initial_state()
    for roll in (12, 11, 10, 9):  # Ann takes centre 1, Bob 2, Cy 3, Dee 4
        state.apply_action(state.string_to_action(f"ball {roll}"))
    text = shown(state.render(0, NAMES))
    for square in ("Launch ramp 1", "Forbidden zone 4", "Funding 300", "Saturn V", "Surprise"):
        assert square in text
    assert "1 [b]Ann[/b] is on 0 Launch ramp 1" in text
    assert "centre 2 Bob" in text
