"""Reviews of finished games for their pages: where each game was won and lost.

A review plays every decision out many times (``tminus.review``): seconds to minutes of
CPU. It is worked out in a process of its own, one game at a time (never in the server's
process, so the games in play never wait for it), at most ``at_once`` games asked for at
once (more: ``busy``), and kept: a finished game never changes, so the review of a game is
made once per process (the last ``keep`` of them stay in memory). Only a finished game is
reviewed: after the end everything may be used, hidden cards included, and the review says
so; during play nobody may ask (that would tell a seat what it cannot see).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sys
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from tminus.core.registry import load_game
from tminus.review import Review, review_game

SAMPLES = 8  # playouts a move where no solver covers the position
KEEP = 32  # reviews kept in memory


def review_of(
    game_name: str, params: dict[str, Any], history: list[int], names: list[str], samples: int
) -> Review:
    """In the review process: the review of a finished game (the same every time: seed 0)."""
    return review_game(load_game(game_name, **params), history, names, samples=samples, seed=0)


class ReviewBusy(Exception):
    """Too many reviews asked for at once: ask again later."""


class Reviews:
    """The reviews this process made or is making, by game id."""

    def __init__(self, samples: int = SAMPLES, at_once: int = 4, keep: int = KEEP) -> None:
        self.samples = samples
        self.at_once = at_once
        self.keep = keep
        self.done: OrderedDict[str, Review] = OrderedDict()
        self.working: dict[str, asyncio.Future] = {}
        self.failed: dict[str, str] = {}  # game id -> why (told once, then asked again)
        self.executor: ProcessPoolExecutor | None = None

    def ready(self, game_id: str) -> Review | None:
        review = self.done.get(game_id)
        if review is not None:
            self.done.move_to_end(game_id)
        return review

    def ask(self, game_id: str, game_name: str, params, history, names) -> Review | None:
        """The review of a finished game if it is made; else start making it (None)."""
        review = self.ready(game_id)
        if review is not None or game_id in self.working:
            return review
        problem = self.failed.pop(game_id, None)
        if problem is not None:
            raise RuntimeError(problem)
        if len(self.working) >= self.at_once:
            raise ReviewBusy(f"{len(self.working)} reviews are being made: ask again later")
        job = asyncio.get_running_loop().run_in_executor(
            self._executor(), review_of, game_name, dict(params), list(history), list(names),
            self.samples,
        )  # fmt: skip
        self.working[game_id] = job
        job.add_done_callback(lambda finished: self._finished(game_id, finished))
        return None

    def _finished(self, game_id: str, job: asyncio.Future) -> None:
        self.working.pop(game_id, None)
        if job.cancelled():
            return
        error = job.exception()
        if error is not None:
            if isinstance(error, BrokenProcessPool):
                self.executor = None  # the next review starts a new process
            self.failed[game_id] = f"the review could not be made: {error}"
            return
        self.done[game_id] = job.result()
        while len(self.done) > self.keep:
            self.done.popitem(last=False)

    def _executor(self) -> ProcessPoolExecutor:
        if self.executor is None:
            method = "forkserver" if sys.platform.startswith("linux") else "spawn"
            context = multiprocessing.get_context(method)
            # Nice: a review gives way to the bots and the server when the cores are busy.
            self.executor = ProcessPoolExecutor(
                max_workers=1, mp_context=context, initializer=os.nice, initargs=(10,)
            )
        return self.executor

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None
