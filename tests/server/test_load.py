"""The load script: runs, counts, stops by itself, and talks to loopback only."""

from __future__ import annotations

import pytest

from tminus.server.load import loopback_only, main


def test_the_load_script_plays_bot_games_and_reports_moves_per_second(capsys):
    figures = main(["--games", "3", "--seconds", "2", "--bots", "random,greedy", "--json"])
    assert figures["games_concurrent"] == 3
    assert figures["moves"] > 0 and figures["actions"] > figures["moves"]
    assert figures["moves_per_second"] > 0 and figures["errors"] == []
    assert 2 <= figures["seconds"] < 30
    assert '"moves_per_second"' in capsys.readouterr().out


@pytest.mark.parametrize("url", ["http://10.0.0.1:8000", "http://example.com", "http://[::2]:80"])
def test_the_load_script_refuses_addresses_off_this_machine(url):
    with pytest.raises(SystemExit, match="only talks to loopback"):
        loopback_only(url)
    with pytest.raises(SystemExit, match="only talks to loopback"):
        main(["--url", url, "--seconds", "1"])


def test_loopback_addresses_are_allowed():
    for url in ("http://127.0.0.1:8000", "http://localhost:1", "http://[::1]:80"):
        loopback_only(url)
