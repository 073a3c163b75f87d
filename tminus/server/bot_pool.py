"""The worker processes that think for the bots, seen from the server's event loop.

``BotPool`` sends each bot's turn to a worker process (``bot_thinking``). A game always
goes to the same worker (its lane), so that the worker's cache of games hits. A worker
stops a bot that spends more than ``budget`` seconds of CPU on one move; a bot that
crashes, runs out of time or answers an illegal move is replaced, for that move, by a
random legal move, and the log says so ("Search (hard) ran out of time and played a random
move."). A worker that hangs or dies is replaced.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import secrets
import sys
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler

from tminus.server.bot_thinking import Turn, serve_turns
from tminus.server.limits import BUDGET

log = logging.getLogger("tminus.server.bots")  # (the bots' one logger, wherever they fail)


@dataclass
class Thought:
    action: int
    problem: str | None = None  # why the bot's own choice was not played
    estimate: float | None = None  # the bot's chance to win by its own search, if it has one


def played_at_random(name: str, game_id: str, problem: str, legal: list[int]) -> Thought:
    """A random legal move instead of a bot's that failed (``problem``), and the log says so,
    wherever the bot thought."""
    log.warning("%s in game %s %s and played a random move", name, game_id, problem)
    return Thought(secrets.choice(legal), f"{name} {problem} and played a random move.")


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
                async with asyncio.timeout(self.deadline(ahead)):
                    thought = await answer
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
        return played_at_random(name, turn.game_id, problem, legal)

    def stop(self) -> None:
        for lane in self.lanes:
            lane.stop()
