"""The online table: `serve` starts the server, `verify` checks an exported game."""

from __future__ import annotations

import importlib.util
import json
from typing import Annotated

import typer

from tminus.cli.common import console, fail
from tminus.server.limits import Limits

LIMITS = Limits()  # the server's defaults (plain Python: no web extra needed to read them)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str,
        typer.Option(
            envvar="TMINUS_DATABASE_URL",
            help="Database URL: a SQLite file (default; one process) or postgresql://... "
            "(any number of processes, on any machines). Give a URL with a password in the "
            "environment (TMINUS_DATABASE_URL) or --db-file, never on the command line, "
            "where every user of the machine sees it.",
        ),
    ] = "sqlite:///tminus.db",
    db_file: Annotated[
        str | None,
        typer.Option(help="A file whose first line is the database URL (instead of --db)."),
    ] = None,
    request_timeout: Annotated[
        float, typer.Option(help="Seconds an HTTP request (head and body) may take to arrive.")
    ] = LIMITS.request_timeout,
    connections_per_address: Annotated[
        int, typer.Option(help="HTTP connections open at once from one address.")
    ] = LIMITS.connections_per_address,
    trusted_proxies: Annotated[
        str,
        typer.Option(
            envvar="TMINUS_TRUSTED_PROXIES",
            help="Addresses of the reverse proxies whose X-Forwarded-For is believed, "
            "comma-separated (none by default: each request's own address counts).",
        ),
    ] = "",
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before moving.")] = 0.6,
    max_body: Annotated[int, typer.Option(help="Bytes in an HTTP request body.")] = LIMITS.max_body,
    creates_per_minute: Annotated[
        float, typer.Option(help="Games one address may create a minute (0: no limit).")
    ] = LIMITS.creates_per_minute,
    max_bot_games: Annotated[
        int, typer.Option(help="Games whose bots think at once, server-wide.")
    ] = LIMITS.max_bot_games,
    max_search_bots: Annotated[
        int, typer.Option(help="Search bots among them, server-wide.")
    ] = LIMITS.max_search_bots,
    bot_budget: Annotated[
        float, typer.Option(help="CPU seconds a bot may spend on one move.")
    ] = LIMITS.bot_budget,
    bot_workers: Annotated[
        int, typer.Option(help="Processes bots think in (0: one fewer than the cores).")
    ] = LIMITS.bot_workers,
    sockets_per_client: Annotated[
        int, typer.Option(help="WebSockets open at once from one address.")
    ] = LIMITS.sockets_per_client,
    max_sockets: Annotated[int, typer.Option(help="WebSockets open at once.")] = LIMITS.max_sockets,
    sockets_per_game: Annotated[
        int, typer.Option(help="WebSockets on one game.")
    ] = LIMITS.sockets_per_game,
    hello_timeout: Annotated[
        float, typer.Option(help="Seconds a new socket has to say hello.")
    ] = LIMITS.hello_timeout,
    messages_per_second: Annotated[
        float, typer.Option(help="Messages one socket may send a second.")
    ] = LIMITS.messages_per_second,
    message_burst: Annotated[int, typer.Option(help="... and at once.")] = LIMITS.message_burst,
    send_queue: Annotated[
        int, typer.Option(help="Messages queued for a socket before it is closed.")
    ] = LIMITS.send_queue,
    send_timeout: Annotated[
        float, typer.Option(help="Seconds a message may take to reach a socket.")
    ] = LIMITS.send_timeout,
    cache_size: Annotated[
        int, typer.Option(help="Idle games kept in memory (others rebuilt when asked for).")
    ] = LIMITS.cache_size,
    replays_at_once: Annotated[
        int, typer.Option(help="Replays built at once.")
    ] = LIMITS.replays_at_once,
    reviews_at_once: Annotated[
        int, typer.Option(help="Reviews of finished games asked for at once.")
    ] = LIMITS.reviews_at_once,
    review_samples: Annotated[
        int,
        typer.Option(
            help="Worlds in a decision's first round of playouts in reviews and hints (more "
            "follow until each value is within ± 3 points or time runs out)."
        ),
    ] = LIMITS.review_samples,
    busy_timeout: Annotated[
        float, typer.Option(help="Seconds a write waits for a locked SQLite file.")
    ] = LIMITS.busy_timeout,
    bot_lease: Annotated[
        float,
        typer.Option(
            help="Seconds a process keeps a game's bots unless it renews (then others may)."
        ),
    ] = LIMITS.bot_lease,
    waiting_expiry: Annotated[
        float,
        typer.Option(help="Seconds a game waits for its players before it expires (0: never)."),
    ] = LIMITS.waiting_expiry,
    pause_after: Annotated[
        float,
        typer.Option(help="Seconds a game in play waits with all its people away, then pauses."),
    ] = LIMITS.pause_after,
    away_after: Annotated[
        float,
        typer.Option(help="Seconds a person has no socket before their seat may go to a bot."),
    ] = LIMITS.away_after,
    sign_ins_per_minute: Annotated[
        float, typer.Option(help="Sign-in attempts from one address, or for one name, a minute.")
    ] = LIMITS.sign_ins_per_minute,
    session_days: Annotated[
        float, typer.Option(help="Days a signed-in browser stays signed in.")
    ] = LIMITS.session_days,
    build_tables: Annotated[
        bool,
        typer.Option(
            help="Build the solved tables missing here in the background, at the lowest "
            "priority (Sputnik's endgame table: about 75 s on 2 cores and 900 MB, once): "
            "until then the bots, hints and reviews that read them search instead. Also "
            "compiles Count Down's batch engine, where its hints and reviews play (once, then "
            "on disk; without it they play on the reference engine until `python -m "
            "tminus.batch.count_down` has compiled it)."
        ),
    ] = True,
) -> None:
    """Play in the browser: start the server (needs the web extra) and print its address."""
    try:
        import asyncio

        import uvicorn
        from sqlalchemy.engine import make_url

        from tminus.server.app import create_app
        from tminus.server.serving import PipelinedMessages, guarded_http, settle_the_heap
        from tminus.server.storage import Store, StoreError, hold_sqlite
    except ImportError:
        raise fail('the server needs the web extra: pip install "tminus[web]"') from None
    limits = Limits(
        max_body=max_body, creates_per_minute=creates_per_minute, max_bot_games=max_bot_games,
        max_search_bots=max_search_bots, bot_budget=bot_budget, bot_workers=bot_workers,
        sockets_per_client=sockets_per_client, max_sockets=max_sockets,
        sockets_per_game=sockets_per_game, hello_timeout=hello_timeout,
        messages_per_second=messages_per_second, message_burst=message_burst,
        send_queue=send_queue, send_timeout=send_timeout, cache_size=cache_size,
        replays_at_once=replays_at_once, reviews_at_once=reviews_at_once,
        review_samples=review_samples, busy_timeout=busy_timeout, bot_lease=bot_lease,
        waiting_expiry=waiting_expiry, away_after=away_after, pause_after=pause_after,
        request_timeout=request_timeout, connections_per_address=connections_per_address,
        sign_ins_per_minute=sign_ins_per_minute, session_days=session_days,
    )  # fmt: skip
    if db_file is not None:
        db = database_url_from(db_file)
    if bot_lease <= 0:
        raise fail("--bot-lease must be above 0 seconds")
    if pause_after <= 0:
        raise fail("--pause-after must be above 0 seconds")
    if away_after <= 0:
        raise fail("--away-after must be above 0 seconds")
    if request_timeout <= 0 or connections_per_address < 1:
        raise fail("--request-timeout must be above 0 and --connections-per-address 1 or more")
    if sign_ins_per_minute <= 0 or session_days <= 0:
        raise fail("--sign-ins-per-minute and --session-days must be above 0")
    if reviews_at_once < 0 or review_samples < 2:  # (an estimate needs two samples at least)
        raise fail("--reviews-at-once must be 0 or more and --review-samples 2 or more")
    try:  # a damaged or unreachable database, or a SQLite file served already: one sentence
        hold_sqlite(db)
        asyncio.run(Store(db, busy_timeout).check())
    except StoreError as error:
        raise fail(str(error)) from None
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    stored_in = make_url(db).render_as_string(hide_password=True)  # (no password on screen)
    console.print(f"T-minus is at [bold]http://{shown}:{port}/[/]  (games stored in {stored_in})")
    say_tables(build_tables)
    if build_tables:
        compile_batch_engines()
    proxies = [address.strip() for address in trusted_proxies.split(",") if address.strip()]
    http = guarded_http(request_timeout, connections_per_address, proxies)
    app = create_app(db, bot_delay, limits)
    settle_the_heap()
    uvicorn.run(
        app, host=host, port=port, log_level="warning",
        ws_max_size=65536, http=http, ws=PipelinedMessages,
        # (uvicorn believes X-Forwarded-For from loopback by default: a local sender could
        # pose as any address and slip past the per-address limits)
        proxy_headers=bool(proxies), forwarded_allow_ips=proxies or [],
    )  # fmt: skip


def database_url_from(path: str) -> str:
    """The database URL kept in a file (readable by the server's user alone, say)."""
    try:
        with open(path, encoding="utf-8") as handle:
            url = handle.readline().strip()
    except OSError as error:
        raise fail(f"cannot read the database URL from {path}: {error}") from None
    if not url:
        raise fail(f"{path} holds no database URL (its first line is empty)")
    return url


def verify(
    export: Annotated[str, typer.Argument(help="A game exported from the server (JSON).")],
) -> None:
    """Check a finished online game: the seed's commitment and every chance outcome."""
    from tminus.server.fairness import verify_export

    try:
        with open(export, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, json.JSONDecodeError) as error:
        raise fail(f"cannot read {export}: {error}") from None
    result = verify_export(data)
    for note in result.notes:
        console.print(f"[yellow]note:[/] {note}")
    if not result.ok:
        for problem in result.problems:
            console.print(f"[bold red]✗[/] {problem}")
        raise typer.Exit(code=1)
    console.print(
        f"[bold green]✓ verified[/]: the seed matches its commitment and all "
        f"{result.chance_checked} chance outcomes follow from it ({result.moves_checked} moves "
        "replayed)."
    )


def compile_batch_engines() -> None:
    """Have Count Down's batch engine compiled in the background, at the lowest priority
    (its reviews play their playouts there): Numba keeps it on disk, so only the first start
    of a server compiles it (half a minute or so of one core), and no review waits for it."""
    from tminus.agents.solvers.tables import module_process

    if importlib.util.find_spec("numba") is not None:  # (the extra "numba"; else none used)
        module_process(["tminus.batch.count_down"], low_priority=True, quiet=True)


def say_tables(build: bool) -> None:
    """Start a build of the solved tables missing here when asked, or say how to."""
    from tminus.agents.solvers import tables

    missing = [t.name for t in tables.missing()]
    if not missing:
        return
    if build:
        tables.build_missing_in_background()
        console.print(
            f"Building the solved tables missing here in the background ({', '.join(missing)}):"
            " until each is saved, the bots, hints and reviews that read it search instead."
        )
    else:
        console.print(
            f"Solved tables missing here: {', '.join(missing)}. The bots, hints and reviews "
            "that read them search instead (`tminus tables build` builds them)."
        )
