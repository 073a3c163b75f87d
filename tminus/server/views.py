"""What each seat may see of a game: its view, the lobby's summary, the export, the replay.

Pure functions of a game in memory (``tables.Table``) or as stored: nothing here reads the
store or changes a game. A seat is shown only what it may see; a spectator (seat None)
what everyone may.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from tminus.server.catalog import bot_levels, title_of
from tminus.server.clocks import clocks_view
from tminus.server.fairness import DRAW_RULES, EXPORT_FORMAT, EXPORT_VERSION
from tminus.server.storage import BROKEN, FINISHED, PLAYING, StoredGame
from tminus.server.tables import (
    GameError,
    LogEntry,
    Table,
    put_names,
    rematch_seat,
    seat_names,
    whose_turn,
)
from tminus.server.takeback import TAKE_BACK, last_standing, play_row, taken_back
from tminus.server.undo import may_ask, open_request, waiting_for


def view(
    table: Table, seat: int | None, log_from: int = 0, now: float | None = None
) -> dict[str, Any]:
    """The state message for ``seat`` (None: a spectator): only what it may see. Its shape is
    ``outbound.StateMessage`` (checked by the tests; a dict here: it is made every move).
    ``now``: the time the clocks read (Unix seconds; the service's)."""
    state = table.state
    record = table.record
    n = table.game.num_players
    viewer = n if seat is None else seat
    to_move = state.current_player()
    names = seat_names(table)
    legal = []
    if seat is not None and record.status == PLAYING and to_move == seat:
        legal = [
            {
                "action": a,
                "text": state.action_to_string(a),
                "label": state.move_label(a, names),
                "struct": state.action_to_struct(a),  # what programs read (seats as seats)
            }
            for a in state.legal_actions()
        ]
    return {
        "type": "state",
        "id": record.id,
        "game": record.game,
        "title": table.game.title,
        "params": record.params,
        "status": record.status,
        "seat": seat,
        "move_number": table.move_number,
        "to_move": to_move if to_move >= 0 and record.status == PLAYING else None,
        "observation": state.public_observation() if seat is None else state.observation(seat),
        "legal": legal,
        "log_from": log_from,
        "log": [log_line(e, said(e, e.seen[viewer], names)) for e in table.log[log_from:]],
        "seats": public_seats(record),
        "commitment": record.commitment,
        "seed": record.seed if record.status == FINISHED else None,
        "result": record.result,
        "rematch": rematch_of(record),
        "paused": record.paused,
        "undo": record.undo,
        "hints": record.hints,
        "rated": record.rated,
        "clock": record.clock,
        "clocks": clocks_view(record.clocks, time.time() if now is None else now),
        "may_take_back": may_ask(table),
        "take_back": take_back_view(table, viewer, names),
    }


def summary(table: Table | StoredGame, now: float | None = None) -> dict[str, Any]:
    """A game as the lobby lists it (a game in memory may be ahead of the store)."""
    record = table.record if isinstance(table, Table) else table
    summed = stored_summary(record, now)
    if isinstance(table, Table):
        summed["move_number"] = table.move_number
        turn = whose_turn(table.state, table.status)
        summed["to_move"] = turn if turn >= 0 else None
    return summed


def stored_summary(record: StoredGame, now: float | None = None) -> dict[str, Any]:
    """A game as the lobby lists it, from its stored record alone (nothing replayed)."""
    return {
        "id": record.id,
        "game": record.game,
        "title": title_of(record.game),
        "params": record.params,
        "rules_version": record.rules_version,
        "status": record.status,
        "seats": public_seats(record),
        "move_number": record.moves,
        "commitment": record.commitment,
        "seed": record.seed if record.status in (FINISHED, BROKEN) else None,
        "result": record.result,
        "problem": record.problem,
        "created": record.created.isoformat(),
        "listed": record.listed,
        "rematch": rematch_of(record),
        "paused": record.paused,
        "to_move": record.to_move if record.status == PLAYING else None,
        "undo": record.undo,
        "rated": record.rated,
        "clock": record.clock,
        "clocks": clocks_view(record.clocks, time.time() if now is None else now),
    }


def export(table: Table | StoredGame) -> dict[str, Any]:
    """The game for ``tminus verify``: the seed only once the game is over.

    A broken game (its log no longer replays) is over too: its export has the raw log."""
    record = table.record if isinstance(table, Table) else table
    over = record.status in (FINISHED, BROKEN)
    names = seat_names(record)
    if isinstance(table, Table):
        # Before the end only what a spectator may see: no action ids (a card dealt is
        # an id), the spectator's strings.
        undone = taken_back((e.index, e.action) for e in table.log)
        actions = [
            exported(e.index, e.actor, e.action, over, said(e, told, names), undone)
            for e in table.log
            for told in [e.text if over else e.seen[-1]]
        ]
    else:
        rows = list(enumerate(zip(record.actions, record.actors, strict=True)))
        undone = taken_back((index, action) for index, (action, _) in rows)
        actions = [
            exported(index, actor, action, True, None, undone) for index, (action, actor) in rows
        ]
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "id": record.id,
        "game": record.game,
        "params": record.params,
        "rules_version": record.rules_version,
        "status": record.status,
        "result": record.result,
        "problem": record.problem,
        "seats": [{k: v for k, v in s.items() if k != "joined"} for s in public_seats(record)],
        "commitment": record.commitment,
        "seed": record.seed if over else None,
        "draw_version": record.draw_rule,
        "draw_rule": DRAW_RULES[record.draw_rule],
        "actions": actions,
    }


def replay_frames(table: Table, start: int = 0, stop: int | None = None) -> Iterator:
    """A finished game step by step: every view, for every seat, after each action.

    Frame 0 is the start; frame i follows action i - 1. Made one at a time (a long
    game's replay is large), from a fresh copy of the game."""
    if table.status != FINISHED:
        raise GameError("bad_state", "a replay is shown once the game is over")
    log = table.log
    stop = len(log) + 1 if stop is None else min(stop, len(log) + 1)
    n = table.game.num_players
    names = seat_names(table)

    def frames() -> Iterator[dict[str, Any]]:
        state = table.game.new_initial_state()
        for index in range(stop):
            entry = log[index - 1] if index else None
            if entry is not None:
                state = play_row(table.game, state, entry.action)
            if index >= start:
                yield {
                    "index": None if entry is None else entry.index,
                    "actor": None if entry is None else entry.actor,
                    "text": None if entry is None else said(entry, entry.text, names),
                    "public": state.public_observation(),
                    "seats": [state.observation(s) for s in range(n)],
                }

    return frames()


def said(entry: LogEntry, text: str, names: list[str]) -> str:
    """A log line as people read it: the note first, if any, and names put in."""
    line = f"{entry.note} {text}" if entry.note else text
    return put_names(line, names)


def log_line(entry: LogEntry, text: str) -> dict[str, Any]:
    """A line of the log as a seat is sent it (a take-back names the line it undid)."""
    line = {"index": entry.index, "actor": entry.actor, "text": text}
    if entry.takes_back is not None:
        line["takes_back"] = entry.takes_back
    if entry.estimate is not None:  # (shown to those who turn it on: "Why a bot moved")
        line["estimate"] = round(entry.estimate, 3)
    return line


def exported(
    index: int, actor: int, action: int, with_id: bool, text: str | None, undone: set[int]
) -> dict[str, Any]:
    """An entry of an export: the action's id ``with_id`` (not before the end: a card dealt is
    an id); a take-back row says ``take_back``, and a move it undid ``taken_back``."""
    entry: dict[str, Any] = {"index": index, "actor": actor}
    if action == TAKE_BACK:
        entry["take_back"] = True
    elif with_id:
        entry["action"] = action
    if text is not None:
        entry["text"] = text
    if index in undone:
        entry["taken_back"] = True
    return entry


def take_back_view(table: Table, viewer: int, names: list[str]) -> dict[str, Any] | None:
    """The take-back asked for now, if any, its move told as ``viewer`` saw it."""
    request = open_request(table)
    if request is None:
        return None
    move = last_standing(reversed(table.log))
    assert move is not None  # (a request is open only while the asker's move stands)
    return {
        "seat": request["seat"],
        "index": move.index,
        "move": said(move, move.seen[viewer], names),
        "accepted": request["accepted"],
        "waiting": waiting_for(table, request),
    }


def rematch_of(record: StoredGame) -> dict[str, Any] | None:
    """The game that follows this one, and where each seat sits there."""
    if record.rematch is None:
        return None
    n = len(record.seats)
    return {"id": record.rematch, "seats": [rematch_seat(seat, n) for seat in range(n)]}


def public_seats(record: StoredGame) -> list[dict[str, Any]]:
    stand_in = {s.seat: bot_label(record, s.bot) for s in record.seats if s.stand_in}
    return [
        {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name, "joined": s.joined,
         "stand_in": stand_in.get(s.seat)}
        for s in record.seats
    ]  # fmt: skip


def bot_label(record: StoredGame, spec: str | None) -> str:
    """What the lobby calls a bot of this game (its spec, if it is none of the levels)."""
    levels = bot_levels(record.game, len(record.seats))
    return next((level["label"] for level in levels if level["spec"] == spec), spec or "a bot")
