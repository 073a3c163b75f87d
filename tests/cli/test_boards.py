"""Boards drawn for the terminal with the players' names: shown as typed (never read as
markup), nobody called "seat N", and nothing a seat may not see."""

import io

import numpy as np
import pytest
from rich.console import Console
from rich.text import Text

import tminus
from tminus.cli import terminal
from tminus.core.playout import sample_chance
from tminus.core.registry import game_class

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


def player_counts(name):
    """The fewest players, the default and the most (the longest boards)."""
    param = game_class(name).parameters["players"]
    return sorted({min(param.choices), param.default, max(param.choices)})


@pytest.fixture
def screen(monkeypatch):
    """The terminal, as wide as a test asks (``screen(80)``), its output kept."""

    def of_width(width):
        console = Console(width=width, record=True, file=io.StringIO())
        monkeypatch.setattr(terminal, "console", console)
        return console

    return of_width


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("name", tminus.list_games())
def test_boards_fit_the_terminal_so_that_it_breaks_no_line(name, width, screen):
    console = screen(width)
    room = width - terminal.PANEL_EDGES
    for players in player_counts(name):
        game = tminus.load_game(name, players=players)
        names = ["Player 1", *(f"Bot {n}" for n in range(2, players + 1))]
        for state in positions(game, 400, seed=players):
            board = state.render(0, names, room).splitlines()
            assert max(Text.from_markup(line).cell_len for line in board) <= room
            terminal.show_board(state, 0, names)
            assert len(console.export_text().splitlines()) == len(board) + 2  # (the borders)


def test_count_downs_track_takes_as_many_columns_as_fit():
    state = tminus.load_game("count_down", players=4).new_initial_state()

    def first_row(width):
        lines = shown(state.render(0, NAMES, width)).splitlines()
        return lines[lines.index("track:") + 1].split()  # the header may wrap on a narrow screen

    assert first_row(None) == first_row(200) == [
        "0", "Launch", "ramp", "1", "16", "Launch", "ramp", "2",
        "32", "Launch", "ramp", "3", "48", "Launch", "ramp", "4",
    ]  # fmt: skip
    assert first_row(76) == ["0", "Launch", "ramp", "1", "32", "Launch", "ramp", "3"]
    assert first_row(30) == ["0", "Launch", "ramp", "1"]


def test_a_board_too_wide_for_the_terminal_says_the_width_it_needs(screen):
    console = screen(80)
    state = tminus.load_game("sputnik", radius=12).new_initial_state()
    terminal.show_board(state, 0, ["Ann", "Bob"])
    said = " ".join(console.export_text().split())
    assert "This board is 104 columns wide and the terminal 80" in said
