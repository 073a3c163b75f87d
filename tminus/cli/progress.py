"""What a long command shows while it works: a bar of the games played, or a line saying
what it is doing with a bar and the time left. Written to stderr, so that what a command
prints (its --json above all) stays clean, and gone once the work is done."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskProgressColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from tminus.core.progress import Steps

progress_console = Console(stderr=True)


def progress_bar(label: str, total: int, hidden: bool = False) -> Progress:
    """A bar of ``total`` games (``advance`` makes its callback)."""
    bar = Progress(
        "{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=progress_console, transient=True, disable=hidden,
    )  # fmt: skip
    bar.add_task(label, total=total)
    return bar


def advance(bar: Progress) -> Callable[[int], None]:
    """The callback ``tminus.sim`` tells of each batch of games finished."""
    return lambda k: bar.advance(bar.task_ids[0], k)


@contextmanager
def shown_steps(doing: str) -> Iterator[Steps]:
    """A status line for work told by a ``Steps`` callback: what it is doing now, a bar, the
    time it has taken and, where the amount of work is known, the time left."""
    # Few redraws a second: a benchmark timed in CPU seconds counts them too.
    with Progress(
        SpinnerColumn(), "{task.description}", BarColumn(bar_width=12), TaskProgressColumn(),
        TimeElapsedColumn(), TimeRemainingColumn(),
        console=progress_console, transient=True, refresh_per_second=2,
    ) as bar:  # fmt: skip
        bar.add_task(doing, total=None)

        def tell(doing: str, done: float, total: float | None) -> None:
            step = bar.tasks[-1]
            step_id = step.id
            if doing != step.description or done < step.completed:  # a new step, own clock
                bar.remove_task(step_id)
                step_id = bar.add_task(doing, total=total)
            bar.update(step_id, completed=done)

        yield tell
