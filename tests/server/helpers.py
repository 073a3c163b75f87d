"""Shared helpers of the server tests: a service on a temporary SQLite file, games played out."""

from __future__ import annotations

from tminus.server.service import GameService, Table
from tminus.server.storage import PLAYING, Store


def seats(*kinds: str) -> list[dict]:
    """Seats from short names: "person", or a bot spec such as "greedy"."""
    return [{"kind": "person"} if k == "person" else {"kind": "bot", "bot": k} for k in kinds]


def token(table: Table, seat: int) -> str:
    return table.record.seats[seat].token


def join_all(service: GameService, table: Table) -> None:
    for seat in table.record.seats:
        if seat.kind == "person":
            service.join(table, seat.seat, seat.token)


def step(service: GameService, table: Table) -> None:
    """One decision: a bot's by its agent, a person's as its first legal move."""
    seat = table.state.current_player()
    if seat in table.bots:
        action = int(table.bots[seat].step(table.state.clone()))
        assert service.bot_move(table, seat, table.move_number, action)
    else:
        action = table.state.legal_actions()[0]
        service.move(table, seat, token(table, seat), table.move_number, action)


def play_out(service: GameService, table: Table, limit: int = 100_000) -> None:
    for _ in range(limit):
        if table.status != PLAYING:
            return
        step(service, table)
    raise AssertionError("the game did not end")


def new_service(path) -> GameService:
    return GameService(Store(f"sqlite:///{path}"))
