"""`tminus review`: each move of a finished game judged, its best move and the loss."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.markup import escape

from tminus.cli.common import SeedOpt, console, fail
from tminus.cli.progress import progress_bar


def review(
    record: Annotated[str, typer.Argument(help="A finished game: an export (JSON) or a save.")],
    html: Annotated[
        str | None, typer.Option("--html", help="Also write an HTML report to this file.")
    ] = None,
    samples: Annotated[
        int,
        typer.Option(
            "--samples",
            help="Worlds in a decision's first round of playouts where no solver covers it "
            "(more follow until each value is within ± 3 points, or --budget runs out).",
        ),
    ] = 8,
    budget: Annotated[
        float,
        typer.Option("--budget", help="Seconds the whole review may sample (0: no limit)."),
    ] = 55.0,
    seed: SeedOpt = 0,
) -> None:
    """Review a game: each move's chance to win before and after, the best move, the loss."""
    from tminus.review import read_record, review_game
    from tminus.review.report import html_report, summary, terminal_table

    if budget < 0:
        raise fail("--budget is 0 (no limit) or more seconds")
    try:
        with open(record, encoding="utf-8") as handle:
            game_record = read_record(json.load(handle))
        with progress_bar("Decisions judged", 0) as bar:

            def judged(done: int, decisions: int) -> None:
                bar.update(bar.task_ids[0], completed=done, total=decisions)

            result = review_game(
                game_record.game, game_record.history, game_record.names, samples=samples,
                seed=seed, budget=budget or None, progress=judged,
            )  # fmt: skip
    except (OSError, json.JSONDecodeError, ValueError) as error:
        raise fail(f"cannot review {record}: {error}") from None
    console.print(terminal_table(result))
    for line in summary(result):
        console.print(escape(line))
    if html:
        with open(html, "w", encoding="utf-8") as handle:
            handle.write(html_report(result))
        console.print(f"HTML report: {escape(html)}")
