"""`tminus play`: a game in the terminal against bots, moves typed as numbers or words."""

from __future__ import annotations

import secrets
import sys
import time
from collections import Counter
from itertools import cycle, islice
from typing import Annotated

import numpy as np
import typer
from rich.columns import Columns
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tminus.agents.base import estimate_of
from tminus.agents.registry import level_spec, make_agent
from tminus.cli.common import (
    AGENTS_HELP,
    GameArg,
    ParamOpt,
    PlayersOpt,
    build_game,
    console,
    fail,
    game_class_or_fail,
    split_names,
)
from tminus.core.game import Game, IllegalActionError, State
from tminus.core.playout import sample_chance
from tminus.core.registry import game_class


def play(
    game: GameArg,
    players: PlayersOpt = None,
    bots: Annotated[
        str,
        typer.Option(help=f"Bots for the other seats, comma-separated (cycled): {AGENTS_HELP}."),
    ] = "greedy",
    seat: Annotated[
        int, typer.Option(help="Your seat: 1 is the first, and seat order is play order.")
    ] = 1,
    name: Annotated[
        str | None, typer.Option(help="Your name in the log (default: Player and your seat).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for dice, cards and bots.")] = None,
    param: ParamOpt = None,
    pause: Annotated[
        float, typer.Option(help="Seconds a move you cannot choose is shown before it plays.")
    ] = 1.0,
    thoughts: Annotated[
        bool,
        typer.Option(
            help="After a searching bot's move, say its chance to win as it reckoned "
            "(games with nothing hidden: elsewhere it would tell what the bot holds)."
        ),
    ] = False,
) -> None:
    """Play a game in the terminal against bots."""
    bot_names = split_names(bots)
    if not bot_names:
        raise fail("name at least one bot, e.g. --bots greedy")
    if players is None and len(bot_names) > 1 and "players" in game_class_or_fail(game).parameters:
        players = len(bot_names) + 1  # one seat per bot named, and yours
    the_game = build_game(game, players, param)
    n = the_game.num_players
    if not 1 <= seat <= n:
        raise fail(f"seat {seat} does not exist: seats are 1 to {n}")
    me = seat - 1
    seed = seed if seed is not None else secrets.randbits(32)
    rng = np.random.default_rng(seed)
    others = [s for s in range(n) if s != me]
    kinds = dict(zip(others, islice(cycle(bot_names), len(others)), strict=True))
    try:
        agents = {s: make_agent(kind, the_game, seed=[seed, s]) for s, kind in kinds.items()}
    except ValueError as error:
        raise fail(str(error)) from None
    names = [f"Bot {s + 1}" for s in range(n)]
    names[me] = name.strip() if name and name.strip() else f"Player {seat}"
    if names.count(names[me]) > 1:
        raise fail(f"{names[me]!r} is a bot's name here: choose another with --name")
    table = Table.grid(padding=(0, 1))
    table.add_row(Text(game_class(game).title, style="bold"), Text(f"seed {seed}", style="dim"))
    table.add_row("You are", Text(f"{names[me]} (seat {seat} of {n})", style="bold"))
    for s, kind in kinds.items():
        table.add_row(Text(names[s]), Text(f"plays {described(kind, the_game)}", style="dim"))
    console.print(table)
    console.print(
        "[dim]Type a move's number or its words (any case), + for more moves, "
        "a word to find moves, q or Ctrl-D to quit.[/]"
    )
    try:
        state = play_game(the_game, me, names, agents, rng, pause, thoughts)
    except EOFError:  # q or Ctrl-D
        console.print("\n[dim]Game left.[/]")
        raise typer.Exit(code=0) from None
    except KeyboardInterrupt:  # Ctrl-C: left as well, and the shell is told so
        console.print("\n[dim]Game left.[/]")
        raise typer.Exit(code=130) from None
    show_board(state, me, names)
    announce_result(state, names, me)


def described(kind: str, game: Game) -> str:
    """A bot as asked for, with the agent a level's name stands for: "hard (mcts:...)"."""
    spec = level_spec(kind, game)
    return kind if spec == kind else f"{kind} ({spec})"


def play_game(
    game: Game,
    me: int,
    names: list[str],
    agents: dict,
    rng: np.random.Generator,
    pause: float,
    thoughts: bool = False,
) -> State:
    """Play to the end: chance and bots move at once, the person is asked (EOFError: quit).

    Every move is told in the log as the person may know it, with everyone's names (and,
    with ``thoughts`` where nothing is hidden, what a searching bot made of its move)."""
    thoughts = thoughts and game.information == "perfect"
    state = game.new_initial_state()
    chance_lines: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state.chance_outcomes(), rng.random())
            chance_lines.append(state.narrate(action, names, me))
            state.apply_action(action)
            continue
        print_chance_lines(chance_lines)
        chance_lines = []
        player = state.current_player()
        if player == me:
            action = your_move(state, names, pause)
            style = "bold"
        else:
            action = agents[player].step(state)
            style = "yellow"
        line = Text("  " + state.narrate(action, names, me), style=style)
        estimate = estimate_of(agents[player]) if thoughts and player != me else None
        if estimate is not None:
            line.append(f" — thinks its chance to win is {estimate:.0%}", style="dim italic")
        console.print(line)
        state.apply_action(action)
    print_chance_lines(chance_lines)
    return state


PANEL_EDGES = 4  # a panel's border and padding, left and right


def show_board(state: State, me: int, names: list[str]) -> None:
    """The board in a panel, drawn for the terminal's width; where it cannot fit (a large
    Sputnik board), the width it needs is said first."""
    room = console.width - PANEL_EDGES
    board = state.render(me, names, room)
    needed = max(Text.from_markup(line).cell_len for line in board.splitlines())
    if needed > room:
        console.print(
            Text(
                f"This board is {needed + PANEL_EDGES} columns wide and the terminal "
                f"{console.width}: widen the terminal to see it whole.",
                style="yellow",
            )
        )
    console.print(Panel(board))


# A run of chance events longer than this (a deal) is folded: repeats counted, in columns.
FOLD_CHANCE_LINES = 8
PAGE_SIZE = 24  # moves listed at once; + shows the next ones


def print_chance_lines(lines: list[str]) -> None:
    if len(lines) <= FOLD_CHANCE_LINES:
        for line in lines:
            console.print(Text("  " + line, style="cyan"))
        return
    counts = Counter(lines)  # in the order first seen
    items = [Text(line + (f" ×{k}" if k > 1 else ""), style="cyan") for line, k in counts.items()]
    console.print(Padding(Columns(items, column_first=True, padding=(0, 3)), (0, 0, 0, 2)))


def your_move(state: State, names: list[str], pause: float) -> int:
    """The person's move: played at once when it is the only one, else asked for."""
    legal = state.legal_actions()
    if len(legal) == 1:
        label = state.move_label(legal[0], names)
        console.print(Text(f"  Only one move for you: {label}. It plays itself.", style="dim"))
        if pause > 0 and sys.stdin.isatty():
            time.sleep(pause)  # time to read the notice; never when input is piped
        return legal[0]
    me = state.current_player()
    show_board(state, me, names)
    # A game may put a question to the person (Count Down's meetings: "Bot 3 asks you to
    # sell Radar (forced sale): a price of 50 to 100").
    question = state.prompt(me, names)
    if question:
        console.print(Text(question, style="bold"))
    return ask_move(state, names)


def ask_move(state: State, names: list[str]) -> int:
    """Read a move: its number, its words or its program name (any case and spacing);
    + pages the list, other text lists the moves that contain it."""
    legal = state.legal_actions()
    labels = [state.move_label(a, names) for a in legal]
    said = [
        {simple(label), simple(state.action_to_string(a))}
        for a, label in zip(legal, labels, strict=True)
    ]
    page = 0
    show_moves(labels, range(len(labels)), page)
    while True:
        answer = console.input("your move> ")
        text = simple(answer)
        if text in ("q", "quit", "exit"):
            raise EOFError
        if text in ("+", "more", ""):
            page = page + 1 if text and (page + 1) * PAGE_SIZE < len(legal) else 0
            show_moves(labels, range(len(labels)), page)
            continue
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        chosen = [a for a, words in zip(legal, said, strict=True) if text in words]
        if len(chosen) == 1:
            return chosen[0]
        try:
            return state.string_to_action(answer.strip())  # a game's own shorthand
        except IllegalActionError:
            pass
        found = [i for i, words in enumerate(said) if any(text in w for w in words)]
        if found:
            console.print(Text(f"Moves with {answer.strip()!r}:", style="dim"))
            show_moves(labels, found, 0, page_size=len(found))
            continue
        console.print(
            Text(
                f"{answer.strip()!r} is not a move here: type 1 to {len(legal)}, or words "
                "of a move.",
                style="red",
            )
        )


def simple(text: str) -> str:
    """Text as matched against moves: no case, single spaces."""
    return " ".join(text.casefold().split())


def show_moves(labels: list[str], which, page: int, page_size: int = PAGE_SIZE) -> None:
    """The moves (numbered as typed) in columns, a page at a time."""
    which = list(which)
    shown = which[page * page_size : (page + 1) * page_size]
    items = [Text.assemble((f"{i + 1:>2} ", "bold"), labels[i]) for i in shown]
    console.print(Padding(Columns(items, column_first=True, padding=(0, 3)), (0, 0, 0, 2)))
    if len(which) > len(shown):
        first = page * page_size + 1
        console.print(
            Text(
                f"  moves {first}–{first + len(shown) - 1} of {len(which)}: + shows more, "
                "or type a word to find a move",
                style="dim",
            )
        )


def announce_result(state: State, names: list[str], me: int) -> None:
    if state.ended_by_turn_cap():
        console.print("[bold]Draw[/]: the turn limit was reached.")
        return
    winners = state.winners()
    if not winners:
        console.print("[bold]Draw[/]: everyone finished level, so nobody won.")
        return
    said = ", ".join(names[s] for s in winners)
    verdict = "you win!" if me in winners else "you lose."
    console.print(Text.assemble(("Winner: ", "bold green"), (said, "bold green"), f" — {verdict}"))
