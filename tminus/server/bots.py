"""Bots play on the server: ``BotPlayer`` listens to the service and plays the bots of
every game whose turn is a bot's, if this process holds the game's lease (``Leases``): one
process at a time plays a game's bots, on any number of processes sharing a database. The
holder follows the game (it hears the moves made on other processes, and reads the game
again when it is a bot's turn, without keeping it in memory meanwhile) and renews its
leases in the background; a lease not renewed in time (its process died or hung) is taken
by another process, which sweeps the store for games in play whose bots nobody plays.

Bots think in worker processes, within a CPU budget: ``BotPool`` (``bot_pool``) sends each
turn to a worker, which thinks (``bot_thinking``); a bot that fails is replaced, for that
move, by a random legal move. Only the bots that answer in microseconds (random and greedy
players) think in the event loop's process (``bot_quick``), where a worker's round trip
would cost a hundred times their thought. The leases this
process holds are kept in ``Leases`` (``bot_leases``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time

from tminus.server.bot_leases import Leases
from tminus.server.bot_pool import BotPool, BrokenWorker, Lane, Thought, worker_context
from tminus.server.bot_quick import QuickBots
from tminus.server.bot_thinking import WORKER_CACHE, OutOfTime, Turn, serve_turns, think
from tminus.server.service import GameError, GameService, Table, unavailable
from tminus.server.storage import FINISHED, PLAYING, StoreError

__all__ = [  # (what the rest of the server and the tests import from here)
    "WORKER_CACHE", "BotPlayer", "BotPool", "BrokenWorker", "Lane", "Leases", "OutOfTime",
    "Thought", "Turn", "bot_seed", "serve_turns", "think", "worker_context",
]  # fmt: skip

log = logging.getLogger("tminus.server.bots")


def bot_seed(game_seed: str, seat: int) -> int:
    """A bot's own random seed: from the game's secret seed, so nobody can foresee it."""
    return int.from_bytes(hashlib.sha256(f"bot {seat} {game_seed}".encode()).digest()[:8], "big")


class BotPlayer:
    """Plays the bots of every game whose lease this process holds, one task per game."""

    def __init__(
        self,
        service: GameService,
        pool: BotPool,
        delay: float,
        leases: Leases,
        max_games: int = 100,
    ) -> None:
        self.service = service
        self.pool = pool
        self.quick = QuickBots()  # the bots that think here, in microseconds
        self.delay = delay
        self.leases = leases
        self.max_games = max_games  # games taken over in one sweep at most
        self.tasks: dict[str, asyncio.Task] = {}
        # The games whose lease is held here: followed (not kept in memory: a game whose
        # person went away costs a channel, not a game in memory).
        self.held: set[str] = set()
        self.keeper: asyncio.Task | None = None
        self.chores: set[asyncio.Task] = set()
        # Held games whose bots' task ended on a store error (an outage): the keeper looks at
        # them again every third of a lease, so that no game waits on a bot for good.
        self.stalled: set[str] = set()
        service.listen(self.changed)
        service.listen_absent(self.woken)

    def changed(self, table: Table) -> None:
        if table.id in self.held and (table.status != PLAYING or table.record.paused):
            # (Its end, or its pause, deleted the lease with it: not lost, and nothing left
            # to release; a game stopped otherwise, broken say, has it released.)
            self.leases.mine.pop(table.id, None)
            deleted = table.status == FINISHED or table.record.paused
            self._spawn(self.let_go(table.id, release=not deleted))
            return
        task = self.tasks.get(table.id)
        if table.bot_to_move() is not None and (task is None or task.done()):
            if self.leases.theirs.get(table.id, 0.0) > time.monotonic():
                return  # another process plays them (and is told of this change)
            self.tasks[table.id] = asyncio.get_running_loop().create_task(self.play(table))

    def thinking(self) -> list[Table]:
        """The games whose bots are playing now."""
        return [t for t in self.service.tables.values() if t.id in self.tasks]

    def woken(self, game_id: str) -> None:
        """A game held here but not in memory changed elsewhere: perhaps a bot's turn."""
        if game_id in self.held and game_id not in self.tasks:
            self._spawn(self.wake(game_id))

    async def wake(self, game_id: str) -> None:
        with contextlib.suppress(GameError):
            self.changed(await self.service.get(game_id))

    async def hold(self, game_id: str) -> bool:
        """Take the game's lease (if nobody else has it) and follow the game while held."""
        if not await self.leases.take(game_id):
            return False
        if game_id not in self.held:
            self.held.add(game_id)
            try:
                await self.service.follow(game_id)
            except BaseException:
                self.held.discard(game_id)
                self.leases.mine.pop(game_id, None)  # not renewed: it runs out, for any to take
                raise
        return True

    async def let_go(self, game_id: str, release: bool = True) -> None:
        """Stop playing a game's bots here (its game ended, or the lease was lost)."""
        self.quick.forget(game_id)
        if game_id in self.held:
            self.held.discard(game_id)
            self.service.unfollow(game_id)
        if release:
            with contextlib.suppress(StoreError):
                await self.leases.release([game_id])
        else:
            self.leases.mine.pop(game_id, None)

    async def play(self, table: Table) -> None:
        """Bots move while it is a bot's turn, each after a short visible delay."""
        game_id = table.id
        self.service.pin(table)
        try:
            if not await self.hold(game_id):
                return  # another process plays this game's bots
            while (seat := table.bot_to_move()) is not None and self.leases.holds(game_id):
                await asyncio.sleep(self.delay)
                table = await self.service.get(game_id)  # the one copy in memory
                move_number = table.move_number
                if table.bot_to_move() != seat:
                    continue
                entry = table.record.seats[seat]
                # (bot_to_move: a bot's seat, and every bot's seat is made with its spec)
                assert entry.bot is not None
                seed = bot_seed(table.record.seed, seat)
                if self.quick.instant(table.game, entry.bot):
                    thought = self.quick.think(
                        game_id, table.game, table.state, seat, entry.bot, seed, entry.name
                    )
                else:
                    turn = Turn(
                        game_id, type(table.game), dict(table.game.params),
                        tuple(table.state.history()), seat, entry.bot, seed,
                    )  # fmt: skip
                    thought = await self.pool.think(turn, table.state.legal_actions(), entry.name)
                try:
                    await self.service.bot_move(
                        table, seat, move_number, thought.action, thought.problem, thought.estimate
                    )
                except GameError as error:
                    if error.code == "unavailable":
                        await asyncio.sleep(1)  # the store is busy: think again in a moment
                    elif error.code != "stale":  # (stale: the game moved on; look again)
                        raise
                table = await self.service.get(game_id)
            if table.bot_to_move() is not None and game_id in self.held:
                # The lease was not renewed in time (the store was out of reach): the keeper
                # plays on once it is renewed, or lets the game go if another process took it.
                log.warning("bots of game %s wait for their lease to be renewed", game_id)
                self.stalled.add(game_id)
        except StoreError as error:  # (taking the lease, when the store is out of reach)
            await self.stopped(game_id, unavailable(error))
        except GameError as error:
            await self.stopped(game_id, error)
        finally:
            self.tasks.pop(game_id, None)
            self.service.unpin(table)

    async def stopped(self, game_id: str, error: GameError) -> None:
        """A bots' task ended on an error. The store out of reach: the game stays held here
        and is played again once the store answers (``restart_stalled``). Anything else:
        the lease is released, never kept by a task that no longer plays."""
        if error.code == "unavailable":
            log.warning("bots of game %s wait for the store: %s", game_id, error.message)
            self.stalled.add(game_id)
            return
        log.warning("bots of game %s stopped: %s; their lease is let go", game_id, error.message)
        await self.let_go(game_id)

    async def restart_stalled(self) -> None:
        """Supervision: the held games whose bots stopped on a store error play again."""
        for game_id in list(self.stalled):
            if game_id in self.tasks or game_id not in self.held:
                self.stalled.discard(game_id)
                continue
            try:
                table = await self.service.get(game_id)
            except GameError as error:
                log.warning("bots of game %s still wait: %s", game_id, error.message)
                continue
            self.stalled.discard(game_id)
            self.changed(table)

    # -- leases kept, lost and taken over -----------------------------------------------------
    def start(self) -> None:
        """Keep the leases in the background: renew them, and take over the games whose
        bots nobody plays (their process died), every third of a lease."""
        self.keeper = asyncio.get_running_loop().create_task(self.keep())

    async def keep(self) -> None:
        while True:
            try:
                await self.renew()
                await self.sweep()
                await self.restart_stalled()
            except (GameError, StoreError) as error:
                log.warning("bot leases: %s", getattr(error, "message", error))
            except Exception:
                log.exception("bot leases")
            await asyncio.sleep(self.leases.seconds / 3)

    async def renew(self) -> None:
        for game_id in await self.leases.renew():
            log.warning("lost the lease of game %s's bots: another process plays them", game_id)
            await self.let_go(game_id, release=False)

    async def sweep(self) -> list[str]:
        """Take the leases nobody holds (at most ``max_games`` a sweep): the games taken."""
        taken = []
        for game_id in await self.leases.store.unleased(self.max_games):
            try:
                table = await self.service.get(game_id)
            except GameError as error:  # broken, or gone
                log.warning("game %s cannot be resumed: %s", game_id, error.message)
                continue
            if await self.hold(game_id):
                taken.append(game_id)
                await self.service.settle(table)  # e.g. chance left to draw
                self.changed(table)
        return taken

    def _spawn(self, work) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)

    async def stop(self) -> None:
        tasks = [*self.tasks.values(), *self.chores, *([self.keeper] if self.keeper else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(StoreError):  # others take these games over at once
            await self.leases.release()
        for game_id in list(self.held):
            self.held.discard(game_id)
            self.service.unfollow(game_id)
        self.pool.stop()
