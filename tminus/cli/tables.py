"""`tminus tables`: the solved tables the bots, hints and reviews read (which are built,
where, how big), and `tminus tables build`, which builds the missing ones, several at once
(one process a table, at most one a core), with a bar for each."""

from __future__ import annotations

import os
import threading
import time
from typing import Annotated

import typer
from rich.progress import BarColumn, Progress, SpinnerColumn, TaskProgressColumn, TimeElapsedColumn
from rich.table import Table

from tminus.agents.solvers.tables import BUSY, TABLES, SolvedTable, build_process, table_named
from tminus.cli.common import console, fail
from tminus.cli.progress import progress_console

app = typer.Typer(
    help="The solved tables the bots, hints and reviews read: list them, build the missing.",
    invoke_without_command=True,
)


@app.callback()
def tables(context: typer.Context) -> None:
    """List the solved tables: what each is, who reads it, whether it is built here."""
    if context.invoked_subcommand is not None:
        return
    shown = Table(title="Solved tables")
    shown.add_column("table", no_wrap=True)
    for heading in ("what it is", "read by", "built", "size"):
        shown.add_column(heading)
    for table in TABLES.values():
        path = table.path()
        built = table.built()
        size = f"{path.stat().st_size / 1e6:,.0f} MB" if built else ""
        shown.add_row(table.name, table.about, table.used_by, "yes" if built else "no", size)
    console.print(shown)
    console.print(f"Kept in {next(iter(TABLES.values())).path().parent} (TMINUS_CACHE to move).")


@app.command()
def build(
    names: Annotated[
        list[str] | None, typer.Argument(help="Tables to build (default: every one missing).")
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="Tables built at once (default: cores)."),
    ] = None,
) -> None:
    """Build the tables missing here, in parallel over the cores, each with its progress."""
    try:
        wanted = [table_named(n) for n in names] if names else list(TABLES.values())
    except ValueError as error:
        raise fail(str(error)) from None
    todo = [t for t in wanted if not t.built()]
    for table in wanted:
        if table.built():
            console.print(f"{table.name}: built already ({table.path()})")
    if not todo:
        return
    failed = run_builds(todo, jobs or os.cpu_count() or 1)
    if failed:
        raise fail(f"could not build {', '.join(failed)} (see above)")


def run_builds(todo: list[SolvedTable], jobs: int) -> list[str]:
    """Build ``todo``, ``jobs`` at a time, each in its process with its bar: the failed."""
    failed: list[str] = []
    slots = threading.Semaphore(jobs)
    with Progress(
        SpinnerColumn(), "{task.description}", BarColumn(), TaskProgressColumn(),
        TimeElapsedColumn(), console=progress_console,
    ) as bars:  # fmt: skip
        workers = [threading.Thread(target=one_build, args=(t, bars, slots, failed)) for t in todo]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    return failed


def one_build(table: SolvedTable, bars: Progress, slots: threading.Semaphore, failed: list) -> None:
    task = bars.add_task(f"{table.name} (waiting)", total=None)
    with slots:
        started = time.monotonic()
        bars.update(task, description=table.name)
        said: list[str] = []
        try:
            process = build_process(table.name)
            assert process.stdout is not None
            for line in process.stdout:
                words = line.split()
                if len(words) == 3 and words[0] == "progress":
                    bars.update(task, completed=float(words[1]), total=float(words[2]))
                else:
                    said.append(line.rstrip())
            code = process.wait()
        except OSError as error:  # (no process could be started)
            said, code = [str(error)], -1
    took = time.monotonic() - started
    if code == 0 and table.built():
        bars.update(task, description=f"{table.name}: built in {took:.0f} s")
        return
    if code == BUSY:
        bars.update(task, description=f"{table.name}: another process is building it (a server?)")
        return
    failed.append(table.name)
    bars.update(task, description=f"{table.name}: failed")
    for line in said[-10:]:
        console.print(f"  {line}", markup=False)
