"""Issue 40: no secret on the command line, and no address taken from a header that anyone
on the machine could send."""

from __future__ import annotations

import os

import httpx
import pytest
import typer

from tminus.cli.online import database_url_from

from .live import LiveServer

PERSONS = [{"kind": "person"}, {"kind": "person"}]


def test_the_database_url_comes_from_the_environment_not_the_command_line(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.db'}"
    server = LiveServer(url).start()
    try:
        with open(f"/proc/{server.process.pid}/cmdline", "rb") as handle:
            command = handle.read().decode().replace("\0", " ")
        assert url not in command and "--db" not in command
        assert httpx.post(server.url + "/api/games", json={"game": "sputnik",
                          "seats": PERSONS}).status_code == 201  # fmt: skip
        assert (tmp_path / "games.db").exists()  # the store named in the environment
    finally:
        server.stop()


def test_a_url_file_gives_its_first_line_and_a_bad_one_says_why(tmp_path, capsys):
    path = tmp_path / "db-url"
    path.write_text("postgresql://u:secret@db/games\n")
    os.chmod(path, 0o600)
    assert database_url_from(str(path)) == "postgresql://u:secret@db/games"
    (tmp_path / "empty").write_text("\n")
    bad_files = {"empty": "holds no database URL", "missing": "cannot read"}
    for name, said in bad_files.items():
        with pytest.raises(typer.Exit):
            database_url_from(str(tmp_path / name))
        assert said in " ".join(capsys.readouterr().out.split())  # (as wrapped on screen)


def spoofed_creates(server: LiveServer) -> list[int]:
    """Two games made from this address, each claiming another in X-Forwarded-For."""
    return [
        httpx.post(
            server.url + "/api/games",
            json={"game": "sputnik", "seats": PERSONS},
            headers={"X-Forwarded-For": f"203.0.113.{n}"},
        ).status_code
        for n in (1, 2)
    ]


def test_a_forwarded_address_is_believed_only_from_a_trusted_proxy(tmp_path):
    limit = ("--creates-per-minute", "1")
    server = LiveServer(tmp_path / "a.db", options=limit).start()
    try:
        assert spoofed_creates(server) == [201, 429]  # one address: one game a minute
    finally:
        server.stop()
    behind = LiveServer(tmp_path / "b.db", options=(*limit, "--trusted-proxies", "127.0.0.1"))
    behind.start()
    try:
        assert spoofed_creates(behind) == [201, 201]  # the proxy's word: two people
    finally:
        behind.stop()
