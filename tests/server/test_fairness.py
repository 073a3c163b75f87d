"""Fair randomness: the commitment, chance drawn from the seed, and `tminus verify`."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3

import numpy as np
import pytest
from typer.testing import CliRunner

from tminus.cli import app
from tminus.core.playout import sample_chance
from tminus.server import lifecycle
from tminus.server.fairness import commitment, draw_chance, new_seed, verify_export

from .helpers import create, join_all, new_service, play_out, seats, step


async def finished(path):
    service = await new_service(path)
    table = await create(service, "four_way", {"players": 3}, seats("person", "greedy", "random"))
    await join_all(service, table)
    await play_out(service, table)
    await service.store.close()
    return service.export(table)


@pytest.fixture
def finished_export(tmp_path):
    return asyncio.run(finished(tmp_path / "games.db"))


def test_the_commitment_is_the_sha256_of_the_seed():
    seed = new_seed()
    assert len(bytes.fromhex(seed)) == 32
    assert commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert new_seed() != seed


def test_a_chance_outcome_is_a_pure_function_of_seed_and_index():
    """Rule 2, as the export states it: the first 8 bytes of SHA-256(seed ‖ index), 53 bits."""
    seed = new_seed()
    outcomes = [(a, 1 / 6) for a in range(6)]
    draws = [draw_chance(seed, i, outcomes) for i in range(200)]
    assert draws == [draw_chance(seed, i, outcomes) for i in range(200)]
    key = bytes.fromhex(seed)
    expected = [
        sample_chance(
            outcomes,
            (int(hashlib.sha256(key + i.to_bytes(8, "big")).hexdigest()[:16], 16) >> 11) / 2**53,
        )
        for i in range(200)
    ]
    assert draws == expected
    assert set(draws) == set(range(6))  # and they do vary


def test_rule_1_of_older_games_seeds_numpy_with_seed_and_index():
    seed = new_seed()
    outcomes = [(a, 1 / 6) for a in range(6)]
    expected = [
        sample_chance(outcomes, np.random.default_rng([int(seed, 16), i]).random())
        for i in range(200)
    ]
    assert [draw_chance(seed, i, outcomes, rule=1) for i in range(200)] == expected
    assert expected != [draw_chance(seed, i, outcomes) for i in range(200)]
    with pytest.raises(ValueError, match="unknown draw rule 3"):
        draw_chance(seed, 0, outcomes, rule=3)


def test_every_chance_outcome_of_a_served_game_follows_from_its_seed(finished_export):
    export = finished_export
    assert export["status"] == "finished"
    assert commitment(export["seed"]) == export["commitment"]
    result = verify_export(export)
    assert result.ok, result.problems
    assert result.chance_checked > 0 and result.moves_checked > 0
    assert result.chance_checked + result.moves_checked == len(export["actions"])


def tampered_chance(export):
    data = json.loads(json.dumps(export))
    entry = next(e for e in data["actions"] if e["actor"] == -1 and e["index"] > 3)
    entry["action"] = (entry["action"] + 1) % 21
    return data


def test_verify_finds_a_changed_chance_outcome(finished_export):
    result = verify_export(tampered_chance(finished_export))
    assert not result.ok
    assert "the seed gives" in result.problems[0]


def test_verify_finds_a_seed_that_is_not_the_committed_one(finished_export):
    data = dict(finished_export, seed=new_seed())
    result = verify_export(data)
    assert not result.ok
    assert "does not match the commitment" in result.problems[0]


@pytest.mark.anyio
async def test_verify_refuses_an_unfinished_game(tmp_path):
    service = await new_service(tmp_path / "games.db")
    table = await create(service, "four_way", {}, seats("person", "person"))
    await join_all(service, table)
    result = verify_export(service.export(table))
    assert not result.ok and "not revealed" in result.problems[0]
    assert not verify_export({"format": "something else"}).ok


def test_the_verify_command(finished_export, tmp_path):
    runner = CliRunner()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(finished_export))
    result = runner.invoke(app, ["verify", str(good)])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered_chance(finished_export)))
    result = runner.invoke(app, ["verify", str(bad)])
    assert result.exit_code == 1 and "the seed gives" in result.output
    result = runner.invoke(app, ["verify", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "cannot read" in result.output


@pytest.mark.anyio
async def test_a_game_stored_before_draw_rules_is_upgraded_to_rule_1_and_verifies(
    tmp_path, monkeypatch
):
    """A database made before the draw_rule column: its games drew by rule 1 (NumPy). The
    upgrade says so, the game goes on under rule 1, and its export verifies, also as an
    older export that did not name its rule."""
    path = tmp_path / "old.db"
    monkeypatch.setattr(lifecycle, "DRAW_RULE", 1)  # a server from before rule 2
    service = await new_service(path)
    table = await create(service, "four_way", {"players": 2}, seats("person", "greedy"))
    await join_all(service, table)
    await step(service, table)
    await service.store.close()
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE games DROP COLUMN draw_rule")
        db.execute("DROP TABLE alembic_version")  # (made before migrations)
    monkeypatch.setattr(lifecycle, "DRAW_RULE", 2)

    service = await new_service(path)
    table = await service.get(table.id)
    assert table.record.draw_rule == 1
    await play_out(service, table)
    export = service.export(table)
    await service.store.close()
    assert export["draw_version"] == 1 and "numpy" in export["draw_rule"]
    assert verify_export(export).ok
    older = {k: v for k, v in export.items() if k != "draw_version"}
    assert verify_export(older).ok
    claimed = dict(export, draw_version=2)  # the wrong rule does not verify
    assert "the seed gives" in verify_export(claimed).problems[0]
    assert "unknown draw rule 9" in verify_export(dict(export, draw_version=9)).problems[0]


def test_a_game_made_now_draws_by_rule_2(finished_export):
    assert finished_export["draw_version"] == 2 and "SHA-256(seed" in finished_export["draw_rule"]
