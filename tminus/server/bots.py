"""Bots think in worker processes, never in the event loop's process, within a CPU budget.

``BotPool`` sends each bot's turn (the game, its log, the seat and the bot's spec) to a
worker process. A worker keeps the games it has seen, so a turn costs it only the actions
since the last one. A game always goes to the same worker (its lane), so that cache hits.
A worker stops a bot that spends more than ``budget`` seconds of CPU on one move; a bot
that crashes, runs out of time or answers an illegal move is replaced, for that move, by a
random legal move, and the log says so ("Search (hard) ran out of time and played a random
move."). A worker that hangs or dies is replaced.

``BotPlayer`` listens to the service and plays the bots of every game whose turn is a bot's,
if this process holds the game's lease (``Leases``): one process at a time plays a game's
bots, on any number of processes sharing a database. The holder follows the game (it hears
the moves made on other processes, and reads the game again when it is a bot's turn, without
keeping it in memory meanwhile) and renews its leases in the background; a lease not
renewed in time (its process died or hung) is taken by another process, which sweeps the
store for games in play whose bots nobody plays.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import multiprocessing
import os
import secrets
import signal
import socket
import sys
import time
from collections import OrderedDict, deque
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import Any

from tminus.agents.base import Agent, estimate_of
from tminus.agents.registry import make_agent
from tminus.core.game import Game, State
from tminus.server.limits import BOT_LEASE, BUDGET
from tminus.server.service import GameError, GameService, Table, unavailable
from tminus.server.storage import PLAYING, Store, StoreError

log = logging.getLogger("tminus.server.bots")
WORKER_CACHE = 256  # games a worker keeps (state and agent) between turns


@dataclass(frozen=True)
class Turn:
    """What a worker needs to think about one move (the game class goes by reference)."""

    game_id: str
    game: type[Game]
    params: dict[str, Any]
    history: tuple[int, ...]
    seat: int
    spec: str
    seed: int


@dataclass
class Thought:
    action: int
    problem: str | None = None  # why the bot's own choice was not played
    estimate: float | None = None  # the bot's chance to win by its own search, if it has one


class OutOfTime(Exception):
    pass


# -- in the worker process -----------------------------------------------------------------
_games: OrderedDict[tuple[str, int], tuple[State, Agent]] = OrderedDict()


def _out_of_time(_signum, _frame) -> None:
    raise OutOfTime()


def think(turn: Turn, budget: float) -> tuple[int, float | None] | None:
    """The bot's action and its estimate of its chance to win (``estimate_of``), or None
    if it spent its CPU budget (runs in a worker process)."""
    key = (turn.game_id, turn.seat)
    cached = _games.pop(key, None)
    known = cached[0].history() if cached is not None else []
    if cached is None or list(turn.history[: len(known)]) != known:
        game = turn.game(**turn.params)
        state, agent = game.new_initial_state(), make_agent(turn.spec, game, seed=turn.seed)
        known = []
    else:
        state, agent = cached
    for action in turn.history[len(known) :]:
        state.apply_action(action)
    _games[key] = (state, agent)
    while len(_games) > WORKER_CACHE:
        _games.popitem(last=False)
    signal.signal(signal.SIGPROF, _out_of_time)
    signal.setitimer(signal.ITIMER_PROF, budget)  # counts this process's CPU time
    try:
        action = int(agent.step(state.clone()))
    except OutOfTime:
        _games.pop(key, None)  # the agent was stopped mid-thought: start it afresh
        return None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return action, estimate_of(agent)


def serve_turns(connection) -> None:
    """A worker process: answer turns from the pipe, one at a time, until it closes."""
    import tminus.agents.mcts  # noqa: F401  (what search bots need, imported once)

    while True:
        try:
            turn, budget = connection.recv()
        except EOFError:
            return
        answer: tuple[str, tuple[int, float | None] | str | None]  # (kind, what think says)
        try:
            answer = ("action", think(turn, budget))
        except Exception as error:
            answer = ("error", f"{type(error).__name__}: {error}")
        connection.send(answer)


# -- in the server process -----------------------------------------------------------------
def worker_context():
    """How the server starts the processes that think for it (bots, reviews, hints): a
    fork server, so that none inherits the event loop's threads and sockets."""
    return multiprocessing.get_context(
        "forkserver" if sys.platform.startswith("linux") else "spawn"
    )


class BrokenWorker(Exception):
    pass


class Lane:
    """One worker process, a pipe to it, and the turns it was sent, answered in order.

    The event loop writes turns to the pipe and is woken when an answer is there (no thread,
    nothing waits on the loop). Turns are queued in the pipe, so the worker never waits
    for the loop between two turns; but never more than ``PIPE_ROOM`` bytes of them, so a
    write always fits in the pipe and never holds up the loop."""

    PIPE_ROOM = 48 * 1024  # (a Linux pipe holds 64 KiB)

    def __init__(self) -> None:
        # The worker and the pipe to it: both set (``start``), or both None (``stop``).
        self.process: BaseProcess | None = None
        self.connection: Connection | None = None
        self.waiting: deque[tuple[asyncio.Future, int]] = deque()  # (answer, bytes sent)
        self.queued = 0  # bytes of the turns not answered yet
        self.freed = asyncio.Event()

    def start(self) -> None:
        if self.process is not None:
            return
        context = worker_context()
        mine, theirs = context.Pipe()
        process = context.Process(target=serve_turns, args=(theirs,), daemon=True)
        try:
            process.start()
        except Exception:  # (no worker: the pipe goes, and the next turn tries again)
            mine.close()
            raise
        finally:
            theirs.close()
        self.process, self.connection = process, mine
        asyncio.get_running_loop().add_reader(mine.fileno(), self._answered)

    async def ask(self, turn: Turn, budget: float) -> tuple[asyncio.Future, int]:
        """Send a turn once there is room in the pipe: its answer to come, and how many
        turns are before it."""
        data = ForkingPickler.dumps((turn, budget))
        size = len(data) + 4
        while self.waiting and self.queued + size > self.PIPE_ROOM:
            self.freed.clear()
            await self.freed.wait()
        answer = asyncio.get_running_loop().create_future()
        ahead = len(self.waiting)
        try:
            self.start()
        except Exception as error:  # no worker could be started: this turn fails
            answer.set_exception(BrokenWorker(f"no worker could be started: {error}"))
            return answer, ahead
        assert self.connection is not None  # (start made the worker and its pipe)
        try:
            self.connection.send_bytes(data)
        except OSError as error:
            self.stop(f"the worker's pipe broke: {error}")
            answer.set_exception(BrokenWorker(str(error)))
            return answer, ahead
        self.waiting.append((answer, size))
        self.queued += size
        return answer, ahead

    def _answered(self) -> None:
        assert self.connection is not None  # (the pipe is read only between start and stop)
        try:
            kind, value = self.connection.recv()
        except (EOFError, OSError):
            self.stop("the worker died")
            return
        answer, size = self.waiting.popleft()
        self.queued -= size
        self.freed.set()
        if not answer.done():
            if kind == "action":
                answer.set_result(value)
            else:
                answer.set_exception(RuntimeError(value))

    def stop(self, reason: str = "stopped") -> None:
        """Kill the worker; every turn it had not answered fails (the next turn starts one)."""
        if self.process is None:
            return
        process, connection = self.process, self.connection
        assert connection is not None  # (set together with the process, in start)
        self.process = self.connection = None
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(connection.fileno())
        connection.close()
        process.kill()
        process.join(timeout=0)
        waiting, self.waiting, self.queued = self.waiting, deque(), 0
        self.freed.set()
        for answer, _ in waiting:
            if not answer.done():
                answer.set_exception(BrokenWorker(reason))


class BotPool:
    def __init__(self, workers: int | None = None, budget: float = BUDGET):
        workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self.budget = budget
        self.lanes = [Lane() for _ in range(workers)]

    def start(self) -> None:
        """Start the workers now, so that the first bot does not wait for them."""
        for lane in self.lanes:
            lane.start()

    def deadline(self, ahead: int) -> float:
        """Wall seconds after which a worker is taken for hung: the turns before this one
        and this one have spent their CPU budgets by then, even on a busy machine."""
        return 3 * self.budget * (ahead + 1) + 5

    async def think(self, turn: Turn, legal: list[int], name: str) -> Thought:
        """The bot's move; a random legal one (with the reason) if the bot failed."""
        lane = self.lanes[hash(turn.game_id) % len(self.lanes)]
        problem = "failed"
        for attempt in range(2):
            try:
                answer, ahead = await lane.ask(turn, self.budget)
                thought = await asyncio.wait_for(answer, self.deadline(ahead))
            except BrokenWorker:
                if attempt == 0:
                    continue  # perhaps another game's bot broke the worker: try once more
            except TimeoutError:
                lane.stop("a turn took too long")
                problem = "ran out of time"
            except Exception:
                log.exception("bot %s (%s) in game %s failed", name, turn.spec, turn.game_id)
            else:
                if thought is None:
                    problem = "ran out of time"
                elif thought[0] not in legal:
                    problem = f"chose the illegal move {thought[0]}"
                else:
                    return Thought(thought[0], estimate=thought[1])
            break
        log.warning("%s in game %s %s and played a random move", name, turn.game_id, problem)
        return Thought(secrets.choice(legal), f"{name} {problem} and played a random move.")

    def stop(self) -> None:
        for lane in self.lanes:
            lane.stop()


def bot_seed(game_seed: str, seat: int) -> int:
    """A bot's own random seed: from the game's secret seed, so nobody can foresee it."""
    return int.from_bytes(hashlib.sha256(f"bot {seat} {game_seed}".encode()).digest()[:8], "big")


class Leases:
    """The bot leases this process holds (each for ``seconds`` on the database's clock).

    ``take`` asks the store only when it does not know: a lease it holds is its own until
    ``seconds`` after it was last taken or renewed (measured from before the asking, so
    never later than the store's expiry); one another process holds is not asked for again
    before half that time."""

    def __init__(self, store: Store, seconds: float = BOT_LEASE) -> None:
        self.store = store
        self.seconds = seconds
        self.holder = f"{socket.gethostname()[:30]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.mine: dict[str, float] = {}  # game id -> (monotonic) until when surely ours
        self.theirs: dict[str, float] = {}  # game id -> (monotonic) when to ask again

    def holds(self, game_id: str) -> bool:
        return self.mine.get(game_id, 0.0) > time.monotonic()

    async def take(self, game_id: str) -> bool:
        asked = time.monotonic()
        if self.holds(game_id):
            return True
        if self.theirs.get(game_id, 0.0) > asked:
            return False
        if await self.store.take_lease(game_id, self.holder, self.seconds):
            self.mine[game_id] = asked + self.seconds
            self.theirs.pop(game_id, None)
            return True
        self.mine.pop(game_id, None)
        self.theirs[game_id] = asked + self.seconds / 2
        return False

    async def renew(self) -> set[str]:
        """Renew every lease held: the ids of the games whose lease was lost meanwhile.
        Only leases held before asking can be lost: one taken while the renewal was under
        way may be missing from what it renewed, and is ours all the same."""
        asked = time.monotonic()
        held = set(self.mine)
        kept = await self.store.renew_leases(self.holder, self.seconds, held)
        lost = (held & set(self.mine)) - kept
        for game_id in kept & set(self.mine):  # (one released meanwhile stays released)
            self.mine[game_id] = asked + self.seconds
        for game_id in lost:
            del self.mine[game_id]
        now = time.monotonic()
        self.theirs = {g: t for g, t in self.theirs.items() if t > now}
        return lost

    async def release(self, game_ids=None) -> None:
        """Give leases up (all of them if ``game_ids`` is None) for others to take at once."""
        released = list(self.mine) if game_ids is None else list(game_ids)
        for game_id in released:
            self.mine.pop(game_id, None)
        await self.store.release_leases(self.holder, None if game_ids is None else released)


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
            # (Its end, or its pause, deleted the lease: not lost.)
            self.leases.mine.pop(table.id, None)
            self._spawn(self.let_go(table.id))
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
