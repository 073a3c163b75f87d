"""Issue 40: every background chore is supervised and the process says how it is:
`/healthz` (liveness: every chore still runs) and `/readyz` (the database answers)."""

from __future__ import annotations

import asyncio

import pytest

from tminus.server.chores import Chores
from tminus.server.storage import StoreError

from .test_api import client  # noqa: F401


def test_healthz_lists_every_chore_running(client):  # noqa: F811
    answer = client.get("/healthz")
    assert answer.status_code == 200
    chores = answer.json()["chores"]
    assert answer.json()["status"] == "ok" and all(chores.values())
    assert {"renewing who is here", "pausing abandoned games", "expiring waiting games",
            "keeping the bots' leases"} <= set(chores)  # fmt: skip


def test_readyz_says_whether_the_database_answers(client, monkeypatch):  # noqa: F811
    assert client.get("/readyz").json() == {"status": "ok", "database": "reachable"}
    store = client.app.state.service.store

    async def unreachable() -> None:
        raise StoreError("the game store cannot be reached: connection refused")

    monkeypatch.setattr(store, "ping", unreachable)
    answer = client.get("/readyz")
    assert answer.status_code == 503 and "cannot be reached" in answer.json()["database"]


@pytest.mark.anyio
async def test_a_chore_that_fails_runs_again_and_never_dies_silently(caplog):
    rounds: list[int] = []

    async def flaky() -> None:
        rounds.append(len(rounds))
        if len(rounds) <= 2:
            raise RuntimeError("a bug in this round")

    chores = Chores()
    chores.start("flaky chore", 0.001, flaky)
    while len(rounds) < 4:
        await asyncio.sleep(0.005)
    assert chores.running() == {"flaky chore": True}
    assert "flaky chore failed" in caplog.text
    await chores.stop()
    assert chores.running() == {}
