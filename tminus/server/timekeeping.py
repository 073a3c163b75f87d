"""Games' clocks running out (``tminus.server.clocks``): a seat whose time is out is resigned,
or a bot stands in for its person until they come back, as the game's creator chose. One
process acts on each timeout (``Store.timed_out`` claims it); the table talk says so."""

from __future__ import annotations

from tminus.server.clocks import RESIGN
from tminus.server.parts import ServiceParts
from tminus.server.replication import take_seats
from tminus.server.tables import GameError, Table, await_store
from tminus.server.views import bot_label


class Timekeeping(ServiceParts):
    async def act_on_timeouts(self) -> list[Table]:
        """Act on every seat whose time ran out (claimed here): the games acted on."""
        acted = []
        for out in await await_store(self.store.timed_out()):
            try:
                table = await self.get(out.game_id)
            except GameError:  # (gone broken meanwhile: nothing to play on)
                continue
            name = table.record.seats[out.seat].name
            if out.on_timeout == RESIGN:
                await self.tell(table, None, f"{name}'s time ran out: {name} loses")
                try:
                    await self.resign_seat(table, out.seat, reason="time")
                except GameError:  # (it ended meanwhile)
                    continue
            else:
                async with table.lock:
                    take_seats(table, out.seats)
                    table.record.clocks = out.clocks
                label = bot_label(table.record, out.on_timeout)
                await self.tell(
                    table, None, f"{name}'s time ran out: {label} plays for {name} until "
                    f"{name} is back (opening the game gives the seat back)",
                )  # fmt: skip
                self.memory.changed(table)
            acted.append(table)
        return acted
