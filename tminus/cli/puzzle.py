"""`tminus puzzle`: solve puzzles cut from bot games in the terminal, make a set of them
(`--generate`), or prove a set against the exact solvers (`--check`)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from tminus.cli.common import console, fail
from tminus.cli.progress import progress_bar
from tminus.cli.terminal import ask_move, show_board


def puzzle(
    game: Annotated[
        str | None,
        typer.Argument(help="four_way, sputnik or count_down (default: puzzles of all three)."),
    ] = None,
    count: Annotated[
        int, typer.Option("--count", "-n", min=1, help="How many puzzles to play.")
    ] = 5,
    puzzle_id: Annotated[
        str | None, typer.Option("--id", help="Play this puzzle (its id or a prefix of it).")
    ] = None,
    generate: Annotated[
        int | None,
        typer.Option(
            "--generate", min=1, help="Make a set of this many puzzles from bot games instead."
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="With --generate: the run's seed (default 0; the same seed, the same set). "
            "Playing: the order of the puzzles (default: a new order each time)."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="With --generate: the file to write (default: puzzles-GAME.json)."),
    ] = None,
    check: Annotated[
        bool,
        typer.Option(
            "--check", help="Prove every puzzle of the set (--out, else the shipped set)."
        ),
    ] = False,
    sets: Annotated[
        list[Path] | None,
        typer.Option("--set", help="Play the puzzles of this file instead of the shipped ones."),
    ] = None,
) -> None:
    """Puzzles: positions from bot games where one move is clearly best by exact value."""
    from tminus.puzzles import generate as make_set
    from tminus.puzzles import load_set, maker_of, read_set, save_set, shipped_games

    if generate is not None:
        if game is None:
            raise fail("name the game to make puzzles of: tminus puzzle GAME --generate N")
        run_seed = 0 if seed is None else seed
        started = time.perf_counter()
        try:
            maker_of(game)
            with progress_bar(f"{game}: puzzles found", generate) as bar:

                def found(done: float, total: float | None) -> None:
                    bar.update(bar.task_ids[0], completed=done)

                puzzles = make_set(game, generate, seed=run_seed, progress=found)
        except ValueError as error:
            raise fail(str(error)) from None
        path = out or Path(f"puzzles-{game}.json")
        seconds = time.perf_counter() - started
        command = f"tminus puzzle {game} --generate {generate} --seed {run_seed}"
        save_set(puzzles, path, made_by=command)
        note = "" if len(puzzles) == generate else f" (asked for {generate}: no more found)"
        console.print(
            f"{len(puzzles)} puzzles{note} written to {escape(str(path))} in {seconds:.0f} s"
        )
        return
    try:
        if check:
            proved = check_sets(game, out)
            console.print(f"[green]proved[/]: {proved}")
            return
        if game is not None:
            maker_of(game)  # (a game without puzzles: the reason why)
        if sets:
            puzzles = [p for path in sets for p in read_set(path)]
        else:
            games = [game] if game else shipped_games()
            puzzles = [p for name in games for p in load_set(name)]
        if game and sets:
            puzzles = [p for p in puzzles if p.game == game]
        if puzzle_id:
            from tminus.puzzles.model import find

            chosen = [find(puzzles, puzzle_id)]
        else:
            chosen = random.Random(seed).sample(puzzles, min(count, len(puzzles)))
    except (OSError, ValueError) as error:
        raise fail(str(error)) from None
    if not chosen:
        raise fail("no puzzles to play")
    play_puzzles(chosen)


def check_sets(game: str | None, path: Path | None) -> str:
    """Prove a set (ValueError with the first puzzle that fails); what was proved, in words."""
    from tminus.puzzles import ProofError, load_set, prove, read_set, shipped_games

    if path is not None:
        puzzles = read_set(path)
    else:
        puzzles = [p for name in ([game] if game else shipped_games()) for p in load_set(name)]
    started = time.perf_counter()
    with progress_bar("Puzzles proved", len(puzzles)) as bar:
        for p in puzzles:
            try:
                prove(p)
            except ProofError as error:
                raise ValueError(str(error)) from None
            bar.advance(bar.task_ids[0])
    return f"{len(puzzles)} puzzles, in {time.perf_counter() - started:.1f} s"


def play_puzzles(puzzles: list) -> None:
    from tminus.puzzles import state_of, verdict

    right = 0
    try:
        for number, p in enumerate(puzzles, 1):
            state = state_of(p)
            names = [f"Player {s + 1}" for s in range(state.game.num_players)]
            names[p.seat] = "You"
            console.print(
                Text.assemble(
                    (f"Puzzle {number} of {len(puzzles)}", "bold"),
                    (f"  {p.id} · rating {p.rating}", "dim"),
                )
            )
            show_board(state, p.seat, names)
            console.print(Text(p.prompt, style="bold"))
            action = ask_move(state, names)
            judged = verdict(p, action)
            right += judged["correct"]
            for row in judged["moves"]:  # the moves' words as the list above said them
                row["move"] = state.move_label(row["action"], names)
            show_verdict(judged, state.move_label(p.answer, names))
            console.print()
    except EOFError:  # q or Ctrl-D
        console.print("\n[dim]Puzzles left.[/]")
    console.print(f"[bold]{right} of {len(puzzles)} right.[/]" if puzzles else "")


def show_verdict(judged: dict, answer_label: str) -> None:
    if judged["correct"]:
        console.print(Text("Right!", style="bold green"))
    else:
        console.print(Text(f"Not quite: the answer was {answer_label}.", style="bold red"))
    table = Table(box=None, padding=(0, 2))
    table.add_column("move")
    table.add_column("exact value")
    for row in judged["moves"]:
        style = "green" if row["action"] == judged["answer"] else ""
        mark = " ← yours" if row["action"] == judged["chosen"] else ""
        table.add_row(Text(row["move"] + mark, style=style), Text(row["said"], style=style))
    console.print(table)
