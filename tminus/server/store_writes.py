"""The rows a game's creation and its saves write, in the caller's transaction (telling the
other processes is the caller's part: ``storage.write_saves``)."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import Update, bindparam, delete, insert, select, text, update

from tminus.server.clock import Clock
from tminus.server.store_clocks import turn_ended
from tminus.server.store_notices import NOTIFY_IF, notices_bound
from tminus.server.store_rows import ActionRow, BotLease, GameRow, SeatRow, now
from tminus.server.store_values import FINISHED, ClaimLost, Save, StoredGame

# The statements of every save are built once: a move costs no statement compilation.
# (PostgreSQL, a batch that charges clocks: its games locked before they are charged.)
LOCK_STATUSES = (
    select(GameRow.id, GameRow.status)
    .where(GameRow.id.in_(bindparam("ids", expanding=True)))
    .order_by(GameRow.id)
    .with_for_update()
)


@functools.cache
def set_status(fields: tuple[str, ...]) -> Update:
    """The statement that sets a game's status and what came with it (its result, when it
    finished): ``fields``, bound as ``b_<field>``. Made once for each set of fields."""
    return (
        update(GameRow)
        .where(GameRow.id == bindparam("b_id"))
        .values({field: bindparam(f"b_{field}") for field in fields})
    )


async def write_rows(
    connection,
    batch: list[Save],
    clock: Clock | None = None,
    told: Iterable[tuple[str, str]] = (),
) -> None:
    """The rows and status changes of several saves: on PostgreSQL one statement
    (``write_in_one_statement``) with the notices ``told`` (game id, payload), read once the
    clocks are charged; on SQLite a few statements of one step each (``write_in_few_steps``).

    The games' rows are locked first, in the order of their ids; a game whose status is no
    longer the one a save expects refuses the whole batch (ClaimLost). A game with a clock
    has it charged when its turn passes (``store_clocks.turn_ended``, on ``clock``)."""
    if connection.dialect.name != "postgresql":
        await write_in_few_steps(connection, batch, clock)
        return
    if any(map(charges_a_clock, batch)):  # (in the caller's transaction, the games locked)
        if commits_each_statement(connection):
            raise ValueError("a clock is charged in a transaction, not statement by statement")
        ids = sorted({save.game_id for save in batch})
        await connection.execute(LOCK_STATUSES, {"ids": ids})
        await charge_clocks(connection, batch, clock)
    await write_in_one_statement(connection, batch, told)


def commits_each_statement(connection) -> bool:
    """Whether the connection commits each statement by itself (``Store._run_held``)."""
    options = connection.sync_connection.get_execution_options()
    return options.get("isolation_level") == "AUTOCOMMIT"


async def charge_clocks(connection, batch: list[Save], clock: Clock | None) -> None:
    """Charge the clock of each game whose turn a save ends (before the notices are made:
    they tell the clocks)."""
    for save in batch:
        if charges_a_clock(save):
            await turn_ended(connection, save, clock or Clock())


def charges_a_clock(save: Save) -> bool:
    """Whether the save ends a turn of a game with a clock (which is charged for it)."""
    return save.clocked and (save.to_move is not None or save.status is not None)


# A batch is one statement on PostgreSQL, and one that charges no clock is committed by itself
# (``Store._commit``): one round trip where a transaction of statements made four to six
# (BEGIN, the lock, the rows, the statuses, the leases, COMMIT), each waiting for the busy
# event loop to come round to it (at 200 games a group commit of about 90 saves spent 36 ms
# in its six). The rows go as one array a column (``action_columns``). The games' rows are
# locked first, in the order of their ids (``locked``, which ``claimed`` reads whole, as
# LOCK_STATUSES does), and nothing is written, or told, unless each game is in the status its
# saves expect. (``changed`` sets a game's turn and status at once: one statement may change
# a row only once.) The statement sees the leases as they were when it began, before it
# waited for any lock: a lease taken meanwhile on a game it finishes is left, as one taken
# just after a finish always could be, to run out unrenewed.
SAVES_IN_ONE_STATEMENT = text(
    f"""
    WITH locked AS MATERIALIZED (
        SELECT id, status FROM games WHERE id = ANY(CAST(:ids AS varchar[]))
        ORDER BY id FOR UPDATE
    ), claimed AS MATERIALIZED (
        SELECT (SELECT count(*) FROM locked) = cardinality(CAST(:ids AS varchar[]))
            AND NOT EXISTS (
                SELECT FROM unnest(CAST(:expect_ids AS varchar[]), CAST(:expects AS varchar[]))
                    AS expected(id, status)
                LEFT JOIN locked USING (id)
                WHERE locked.status IS DISTINCT FROM expected.status
            ) AS ok
    ), written AS (
        INSERT INTO actions (game_id, index, action, seat, note, estimate, at)
        SELECT * FROM unnest(
            CAST(:game_ids AS varchar[]), CAST(:indexes AS integer[]),
            CAST(:actions AS integer[]), CAST(:seats AS integer[]), CAST(:notes AS text[]),
            CAST(:estimates AS double precision[]), CAST(:ats AS timestamptz[])
        ) WHERE (SELECT ok FROM claimed)
    ), changed AS (
        UPDATE games SET
            to_move = CASE WHEN change.turned THEN change.seat ELSE games.to_move END,
            status = coalesce(change.status, games.status),
            result = coalesce(CAST(change.result AS json), games.result),
            finished = coalesce(change.finished, games.finished)
        FROM unnest(
            CAST(:change_ids AS varchar[]), CAST(:turned AS boolean[]),
            CAST(:turn_seats AS integer[]), CAST(:statuses AS varchar[]),
            CAST(:results AS text[]), CAST(:finished AS timestamptz[])
        ) AS change(id, turned, seat, status, result, finished)
        WHERE games.id = change.id AND (SELECT ok FROM claimed)
    ), unleased AS (  -- nobody plays a finished game's bots any more
        DELETE FROM bot_leases
        WHERE game_id = ANY(CAST(:ended AS varchar[])) AND (SELECT ok FROM claimed)
    )
    {NOTIFY_IF.format(when="(SELECT ok FROM claimed)")}
    """
)


async def write_in_one_statement(
    connection, batch: list[Save], told: Iterable[tuple[str, str]]
) -> None:
    """PostgreSQL: a batch's rows, status changes and notices ``told`` (one a save) in one
    statement (its clocks, if any, charged already). ClaimLost, with nothing written, if a
    game is not in the status a save expects."""
    at = now()
    turns, changes = turns_of(batch), status_changes(batch, at)
    changed_ids = sorted(turns.keys() | changes.keys())
    changes_in_order = [changes.get(game_id, {}) for game_id in changed_ids]
    expected = [(save.game_id, save.expect) for save in batch if save.expect is not None]
    notices = notices_bound(told)
    notified = await connection.execute(
        SAVES_IN_ONE_STATEMENT,
        {
            "ids": sorted({save.game_id for save in batch}),
            "expect_ids": [game_id for game_id, _ in expected],
            "expects": [status for _, status in expected],
            **action_columns(batch, at),
            "change_ids": changed_ids, "turned": [game_id in turns for game_id in changed_ids],
            "turn_seats": [turns.get(game_id) for game_id in changed_ids],
            "statuses": [values.get("status") for values in changes_in_order],
            "results": [
                None if "result" not in values else json.dumps(values["result"])
                for values in changes_in_order
            ],
            "finished": [values.get("finished") for values in changes_in_order],
            "ended": [save.game_id for save in batch if save.status == FINISHED],
            **notices,
        },
    )  # fmt: skip
    # Every save tells one notice, and each is told only if the claim held: none, it did not.
    if len(notified.all()) != len(batch):
        raise ClaimLost()


def action_columns(batch: list[Save], at: datetime) -> dict[str, list]:
    """The batch's log rows as ``SAVES_IN_ONE_STATEMENT`` binds them: an array a column."""
    rows = [(save.game_id, *row) for save in batch for row in save.rows]
    columns = [list(column) for column in zip(*rows, strict=True)] or [[]] * 6
    names = ("game_ids", "indexes", "actions", "seats", "notes", "estimates")
    return dict(zip(names, columns, strict=True)) | {"ats": [at] * len(rows)}


def turns_of(batch: list[Save]) -> dict[str, int | None]:
    """Whose turn it is in each game a save passed the turn in (None: nobody's): its last
    save says."""
    return {
        save.game_id: None if save.to_move < 0 else save.to_move
        for save in batch
        if save.to_move is not None
    }


def status_changes(batch: list[Save], at: datetime) -> dict[str, dict[str, Any]]:
    """Each game's changes of status, result and time finished, merged in the saves' order."""
    changes: dict[str, dict[str, Any]] = {}
    for save in batch:
        if save.status is not None:
            values = changes.setdefault(save.game_id, {})
            values["status"] = save.status
            if save.result is not None:
                values["result"] = save.result
            if save.status == FINISHED:
                values["finished"] = at
    return changes


# SQLite works in this process, and Python's sqlite3 lets go of the GIL at every step of a
# statement: each row an executemany writes, each row a query returns. On a busy event loop
# taking it back waits for the loop's thread, up to the switch interval (5 ms) each time: a
# group commit of 90 saves written row by row waited about 290 turns of a busy loop
# (``scripts/group_commit_laps.py``). So a batch is a few statements of one step each, its
# rows one JSON array bound once (``json_each`` reads it), as PostgreSQL's take arrays.
SQLITE_CLAIMS_LOST = text(
    """
    SELECT count(*) FROM json_each(:expected) AS expected
    LEFT JOIN games ON games.id = json_extract(expected.value, '$[0]')
    WHERE games.status IS NOT json_extract(expected.value, '$[1]')
    """
)
SQLITE_ACTIONS = text(
    """
    INSERT INTO actions (game_id, "index", action, seat, note, estimate, at)
    SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'),
        json_extract(value, '$[2]'), json_extract(value, '$[3]'),
        json_extract(value, '$[4]'), json_extract(value, '$[5]'), :at
    FROM json_each(:rows)
    """
).bindparams(bindparam("at", type_=ActionRow.__table__.c.at.type))
SQLITE_TURNS = text(  # (UPDATE ... FROM: SQLite 3.33; the store's RETURNING needs 3.35)
    """
    UPDATE games SET to_move = json_extract(turn.value, '$[1]')
    FROM json_each(:turns) AS turn WHERE games.id = json_extract(turn.value, '$[0]')
    """
)


async def write_in_few_steps(connection, batch: list[Save], clock: Clock | None) -> None:
    """SQLite: the claims checked, the clocks charged, then the actions and the turns, each
    in a statement of one step, the statuses (a step each game that starts or ends) and the
    finished games' leases."""
    at = now()
    expected = [(save.game_id, save.expect) for save in batch if save.expect is not None]
    if expected and await connection.scalar(SQLITE_CLAIMS_LOST, {"expected": json.dumps(expected)}):
        raise ClaimLost()
    await charge_clocks(connection, batch, clock)
    rows = [(save.game_id, *row) for save in batch for row in save.rows]
    if rows:
        await connection.execute(SQLITE_ACTIONS, {"rows": json.dumps(rows), "at": at})
    turns = turns_of(batch)
    if turns:
        await connection.execute(SQLITE_TURNS, {"turns": json.dumps(sorted(turns.items()))})
    by_fields: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for game_id, values in sorted(status_changes(batch, at).items()):
        by_fields.setdefault(tuple(values), []).append(
            {"b_id": game_id, **{f"b_{field}": value for field, value in values.items()}}
        )
    for fields, params in by_fields.items():
        await connection.execute(set_status(fields), params)
    finished = [save.game_id for save in batch if save.status == FINISHED]
    if finished:  # nobody plays their bots any more
        await connection.execute(delete(BotLease).where(BotLease.game_id.in_(finished)))


async def insert_game(game: StoredGame, connection) -> None:
    """A new game's row and seats, in the caller's transaction."""
    await connection.execute(
        insert(GameRow),
        [
            {
                "id": game.id, "game": game.game, "params": game.params,
                "rules_version": game.rules_version, "commitment": game.commitment,
                "seed": game.seed, "status": game.status, "result": None,
                "created": game.created, "listed": game.listed, "draw_rule": game.draw_rule,
                "undo": game.undo, "hints": game.hints, "rated": game.rated,
                "clock": game.clock, "banks": game.clocks and game.clocks["left"],
            }
        ],
    )  # fmt: skip
    await connection.execute(
        insert(SeatRow),
        [
            {"game_id": game.id, "seat": s.seat, "kind": s.kind, "bot": s.bot,
             "token_hash": s.token_hash, "name": s.name, "joined": s.joined}
            for s in game.seats
        ],
    )  # fmt: skip
