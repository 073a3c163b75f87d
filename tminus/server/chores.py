"""The server's background chores (expiring, pausing, presence, the bots' leases): each runs
for good, every so many seconds, under supervision. An error in one round is logged and the
next round comes; a chore never dies silently, and `/healthz` says whether each still runs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("tminus.server")


class Chores:
    """The chores of one process, by name."""

    def __init__(self) -> None:
        self.tasks: dict[str, asyncio.Task] = {}

    def start(self, name: str, seconds: float, work: Callable[[], Awaitable[object]]) -> None:
        """Run ``work`` now and every ``seconds`` after it, until ``stop``."""
        self.tasks[name] = asyncio.get_running_loop().create_task(self._every(name, seconds, work))

    def watch(self, name: str, task: asyncio.Task) -> None:
        """A chore that runs its own loop (the bots' keeper): reported, stopped elsewhere."""
        self.tasks[name] = task

    @staticmethod
    async def _every(name: str, seconds: float, work: Callable[[], Awaitable[object]]) -> None:
        while True:
            try:
                await work()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # (logged, and tried again next round)
                message = getattr(error, "message", None)
                if message:
                    log.warning("%s: %s", name, message)
                else:
                    log.exception("%s failed; it runs again in %g s", name, seconds)
            await asyncio.sleep(seconds)

    def running(self) -> dict[str, bool]:
        """Whether each chore still runs."""
        return {name: not task.done() for name, task in self.tasks.items()}

    async def stop(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        for task in self.tasks.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks.clear()
