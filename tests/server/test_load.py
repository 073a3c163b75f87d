"""The load script: runs, counts, measures round trips, stops by itself, talks to loopback only."""

from __future__ import annotations

import math
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tminus.server.load import Settling, Tally, loopback_only, main


def test_the_load_script_plays_games_and_reports_moves_per_second_and_round_trips(capsys):
    started = time.monotonic()
    figures = main(
        ["--games", "3", "--seconds", "5", "--bots", "person,greedy", "--warm-up", "1", "--json"]
    )
    assert time.monotonic() - started < 60  # its own bound (5 s) plus the server's start
    assert figures["games_concurrent"] == 3
    assert figures["moves"] > 0 and figures["actions"] > figures["moves"]
    assert figures["moves_per_second"] > 0 and figures["errors"] == 0
    assert figures["round_trips"] > 0
    assert 0 < figures["round_trip_ms_p50"] <= figures["round_trip_ms_p99"]
    # The moves sent from 1 s after the 3 games were made count once more (the start left out).
    assert 0 < figures["round_trips_settled"] <= figures["round_trips"]
    assert 0 < figures["round_trip_ms_p50_settled"] <= figures["round_trip_ms_p99_settled"]
    assert figures["server_cpu_ms_per_move"] > 0
    assert figures["database_cpu_ms_per_move"] is None  # (SQLite works inside the server)
    assert figures["seconds"] <= 5
    assert '"moves_per_second"' in capsys.readouterr().out


def test_the_cpu_of_a_postgresql_server_on_this_machine_is_counted_with_its_ended_connections(
    database,
):
    import asyncio

    from sqlalchemy import text

    from tminus.server.load import command_of, cpu_seconds, database_server
    from tminus.server.store_engine import make_engine

    postmaster = database_server(database)
    assert postmaster is not None and command_of(postmaster) == "postgres"
    before = cpu_seconds(postmaster, reaped=True)

    async def work_on_a_connection_that_then_ends() -> None:
        engine = make_engine(database)
        async with engine.connect() as connection:
            await connection.execute(text("SELECT count(*) FROM generate_series(1, 5000000)"))
        await engine.dispose()

    asyncio.run(work_on_a_connection_that_then_ends())
    # (The connection's process ends, and is reaped, a moment after the client leaves: on a
    # busy machine, later than this line.)
    deadline = time.monotonic() + 10
    while (counted := cpu_seconds(postmaster, reaped=True) - before) <= 0.1:
        if time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert counted > 0.1
    assert database_server("sqlite:///load.db") is None


def test_a_game_is_made_with_as_many_players_as_seats_named():
    """Count Down's default is four players: two seats named make a two-player game (the
    tool once left the count out for two seats, and every create was refused)."""
    figures = main(
        ["--game", "count_down", "--games", "2", "--seconds", "3", "--bots", "person,greedy",
         "--json"]
    )  # fmt: skip
    assert figures["errors"] == 0 and figures["moves"] > 0, figures


@pytest.mark.parametrize("url", ["http://10.0.0.1:8000", "http://example.com", "http://[::2]:80"])
def test_the_load_script_refuses_addresses_off_this_machine(url):
    with pytest.raises(SystemExit, match="only talks to loopback"):
        loopback_only(url)
    with pytest.raises(SystemExit, match="only talks to loopback"):
        main(["--url", url, "--seconds", "1"])


def test_loopback_addresses_are_allowed():
    for url in ("http://127.0.0.1:8000", "http://localhost:1", "http://[::1]:80"):
        loopback_only(url)


def test_the_servers_it_starts_get_the_database_url_out_of_the_process_list(tmp_path):
    from tminus.server.load import start_server, wait_until_up

    url = f"sqlite:///{tmp_path / 'secret-name.db'}"
    process, address = start_server(url)
    try:
        # (up first: read in the instant of its exec, a process's command line is empty)
        wait_until_up(process, address)
        command = Path(f"/proc/{process.pid}/cmdline").read_bytes().decode()
        assert "serve" in command and "secret-name" not in command
    finally:
        process.kill()
        process.wait()


def test_more_games_than_one_address_may_open_connections_play_without_errors():
    """Every game's connections come from loopback: the server the script starts must not
    hold it to the per-address limit (64), or 200 games would measure refusals. (Long enough
    for all 80 to start on a slow machine: in 3 s a CI run under load started 65.)"""
    figures = main(["--games", "80", "--seconds", "8", "--bots", "person,greedy", "--json"])
    assert figures["games_started"] >= 80 and figures["errors"] == 0, figures


def test_the_server_settles_its_heap_before_serving():
    """``tminus serve`` freezes what it made to start, keeps young collections short and
    full ones rare (in a process of its own: both change the whole process's collector)."""
    script = (
        "import gc; from tminus.server.serving import settle_the_heap;"
        "settle_the_heap();"
        "print(*gc.get_threshold(), gc.get_freeze_count())"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    young, middle, full, frozen = map(int, out.stdout.split())
    assert (young, middle, full) == (2_000, 5, 1_000) and frozen > 10_000


def test_a_full_collection_runs_now_and_then_unless_one_ran_meanwhile():
    """The safety net of a lightly loaded server (``settle_the_heap``'s thread): a full
    collection when none ran since the last look, none more when one did (in a process of
    its own: a collection here would finalize the test session's own garbage)."""
    script = (
        "import gc; from tminus.server.serving import collect_unless_collected as look, "
        "full_collections as count;"
        "seen = count(); after = look(seen); gc.collect(); print(seen, after, look(after))"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    seen, after, again = map(int, out.stdout.split())
    assert after == seen + 1  # none ran meanwhile: it ran one
    assert again == after + 1  # one ran meanwhile (the gc.collect): that one only


def test_a_profile_of_the_server_is_cut_below_its_event_loop(tmp_path):
    """scripts/fold_profile.py: what docs/measurements' folded profiles are made with."""
    site = "/venv/lib/python3.11/site-packages"
    raw = tmp_path / "loop.raw"
    raw.write_text(
        f"main (x.py:1);Runner.run (/usr/lib/python3.11/asyncio/runners.py:118);"
        f"Hub.send (/somewhere/tminus/server/hub.py:98);to_json ({site}/pydantic_core/x.py:5) 3\n"
        f"main (x.py:1);Runner.run (/usr/lib/python3.11/asyncio/runners.py:120);"
        f"Hub.send (/somewhere/tminus/server/hub.py:99);to_json ({site}/pydantic_core/x.py:6) 2\n"
        "idle (x.py:2) 4\n"
        "main (x.py:1);Runner.run (/usr/lib/python3.11/asyncio/runners.py:118) 6\n"
        "main (x.py:1);Runner.run (/usr/lib/python3.11/asyncio/runners.py:118);"
        "Hub.send (/somewhere/tminus/server/hub.py:98);"
        "BaseEventLoop.call_soon (/usr/lib/python3.11/asyncio/base_events.py:7) 1\n"
    )
    script = Path(__file__).parents[2] / "scripts" / "fold_profile.py"
    out = subprocess.run([sys.executable, script, raw], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [
        "(event loop) 6",
        "Hub.send (/somewhere/tminus/server/hub.py);"
        "BaseEventLoop.call_soon (asyncio/base_events.py) 1",
        "Hub.send (/somewhere/tminus/server/hub.py);to_json (pydantic_core/x.py) 5",
        "idle (x.py) 4",
    ]


def test_a_run_settles_once_every_slot_made_its_first_game_and_the_warm_up_passed():
    tallies = [Tally(), Tally()]
    settling = Settling(games=2, warm_up=5.0, tallies=tallies)
    settling.first_made()
    assert all(t.settle_at == math.inf for t in tallies)  # (one slot still making its game)
    before = time.monotonic()
    settling.first_made()
    assert all(before + 5.0 <= t.settle_at <= time.monotonic() + 5.0 for t in tallies)


def test_a_negative_warm_up_is_refused():
    with pytest.raises(SystemExit, match="--warm-up"):
        main(["--warm-up", "-1"])
