"""Reviews of finished games for their pages, and hints during play.

A review plays every decision out many times (``tminus.review``): seconds to minutes of
CPU. It is worked out in a process of its own, one game at a time (never in the server's
process, so the games in play never wait for it), at most ``at_once`` games asked for at
once (more: ``busy``), and kept: a finished game never changes, so the review of a game is
made once per process (the last ``keep`` of them stay in memory). Only a finished game is
reviewed: after the end everything may be used, hidden cards included, and the review says
so; during play nobody may ask (that would tell a seat what it cannot see).

A hint is a review of the position now, for the seat to move, from that seat's information
only (``hint_of``), in a game whose creator allowed hints: its best move and the chance to
win after it. Hints have a process of their own, so that a long review never holds one up.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import queue
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any

from tminus.core.game import Game
from tminus.review import MoveReview, Review, batch_playouts, review_game
from tminus.review.judges import missing_table_note
from tminus.review.playouts import MAX_SAMPLES, Z95
from tminus.review.review import about_equal, compared_to_best
from tminus.server.bots import worker_context

SAMPLES = 8  # worlds in a decision's first round of playouts (more until ± 3 points)
HINT_BUDGET = 2.5  # seconds a hint samples at most (its answer comes within 3 s)
REVIEW_BUDGET = 55.0  # seconds a review samples at most (all of it: within a minute)
KEEP = 32  # reviews kept in memory


# In the review process, shared with the server's process (set by the pool's initializer):
# where the review under way stands (job number, decisions judged, decisions in all, the
# time it started), and a queue of (job number, MoveReview) as each move is judged.
_board: Any = None
_moves: Any = None


def start_review_process(board: Any, moves: Any = None) -> None:
    global _board, _moves
    os.nice(10)  # a review gives way to the bots and the server when the cores are busy
    batch_playouts.compile_engines = False  # (the server compiles them: see there)
    _board, _moves = board, moves


def review_of(
    game: type[Game],
    params: dict[str, Any],
    history: list[int],
    names: list[str],
    samples: int,
    job: int = 0,
    budget: float | None = REVIEW_BUDGET,
) -> Review:
    """In the review process: the review of a finished game (seed 0), within ``budget``
    seconds, telling the server's process how far it is. The game class goes by reference,
    as bots' turns do (a game registered from outside T-minus is found by its module)."""
    started = time.time()

    def progress(judged: int, decisions: int) -> None:
        if _board is not None:
            _board[:] = [job, judged, decisions, started]

    def judged(move: MoveReview) -> None:
        if _moves is not None:
            _moves.put((job, move))

    return review_game(
        game(**params), history, names, samples=samples, seed=0, budget=budget,
        progress=progress, judged=judged,
    )  # fmt: skip


def plain_note(note: str | None) -> str | None:
    """A judges' note for a page that shows it as it is: without the `quotes` that mark code
    in a report (``review.report.inline_code``)."""
    return None if note is None else note.replace("`", "")


def hint_of(
    game: type[Game],
    params: dict[str, Any],
    history: list[int],
    seat: int,
    samples: int,
    budget: float | None = HINT_BUDGET,
    max_samples: int = MAX_SAMPLES,
) -> dict[str, Any]:
    """In the hints process: ``seat``'s best move now and its chance to win after it,
    judged from ``seat``'s information only (``compared_to_best``: playouts start from deals
    that seat may imagine). Seeded by the position, so asking again gives the same hint.

    A best move is named only when it beats the next by two standard errors of their
    paired difference; otherwise ``equal`` lists the moves about as good as it (best first),
    and the table says they are about equal. ``width``: the 95% interval of the chance;
    ``worlds``: how many deals it was played out in; ``note``: why a hint the solved
    endgame table would make exact is only estimated (the table is not built yet)."""
    state = game(**params).new_initial_state()
    for action in history:
        state.apply_action(action)
    found = compared_to_best(
        state, seat, samples=samples, seed=len(history), budget=budget, max_samples=max_samples
    )
    best, value, _ = found[0]
    equal = about_equal(found)
    return {
        "action": best,
        "chance": value.mean,
        "error": value.error,
        "width": Z95 * value.error,
        "equal": equal,
        "worlds": value.count,  # (1: an exact value)
        # (Sputnik's endgame table not built or being built here: estimated until it is.)
        "note": plain_note(missing_table_note(state.game)),
    }


class ReviewBusy(Exception):
    """Too many reviews asked for at once: ask again later."""


class Reviews:
    """The reviews this process made or is making, by game id, and the hints it gave, by
    position (game, move number, seat): a position's hint is worked out once."""

    def __init__(
        self,
        samples: int = SAMPLES,
        at_once: int = 4,
        keep: int = KEEP,
        hint_budget: float | None = HINT_BUDGET,
        hint_worlds: int = MAX_SAMPLES,
    ) -> None:
        self.samples = samples
        self.budget: float | None = REVIEW_BUDGET  # a review's sampling, at most
        self.hint_budget = hint_budget  # (None: sampled until precise, however long)
        self.hint_worlds = hint_worlds  # (worlds a hint is played out in at most)
        self.at_once = at_once
        self.keep = keep
        self.done: OrderedDict[str, Review] = OrderedDict()
        self.working: dict[str, asyncio.Future] = {}
        self.failed: dict[str, str] = {}  # game id -> why (told once, then asked again)
        self.pools: dict[str, ProcessPoolExecutor] = {}  # "reviews", "hints": one process each
        self.hints: OrderedDict[tuple, asyncio.Future] = OrderedDict()  # given or on the way
        self.board = worker_context().Array("d", 4, lock=False)  # see ``review_of``
        self.moves_queue = worker_context().Queue()  # (job, MoveReview) as they are made
        self.moves_so_far: dict[int, list[MoveReview]] = {}  # by job number
        self.jobs: dict[str, int] = {}  # game id -> its job number, while being made
        self.numbers = itertools.count(1)

    def ready(self, game_id: str) -> Review | None:
        review = self.done.get(game_id)
        if review is not None:
            self.done.move_to_end(game_id)
        return review

    def ask(self, game_id: str, game: type[Game], params, history, names) -> Review | None:
        """The review of a finished game if it is made; else start making it (None)."""
        review = self.ready(game_id)
        if review is not None or game_id in self.working:
            return review
        problem = self.failed.pop(game_id, None)
        if problem is not None:
            raise RuntimeError(problem)
        if len(self.working) >= self.at_once:
            raise ReviewBusy(f"{len(self.working)} reviews are being made: ask again later")
        number = self.jobs[game_id] = next(self.numbers)
        job = self._submit("reviews", review_of, game, dict(params), list(history), list(names),
                           self.samples, number, self.budget)  # fmt: skip
        self.working[game_id] = job
        job.add_done_callback(lambda finished: self._finished(game_id, finished))
        return None

    def progress(self, game_id: str) -> dict[str, Any]:
        """How far the review of ``game_id`` (being made) is: decisions ``judged`` of
        ``decisions`` and about ``seconds_left``, or ``waiting`` for the reviews before it."""
        number = self.jobs.get(game_id)
        job, judged, decisions, started = list(self.board)
        if number is None or int(job) != number:
            ahead = sum(n < number for n in self.jobs.values()) if number else 0
            return {"waiting": ahead}
        elapsed = max(0.0, time.time() - started)
        left = elapsed / judged * (decisions - judged) if judged else None
        if left is not None and self.budget is not None:  # (moves come in bursts)
            left = min(left, max(1.0, self.budget - elapsed))
        return {"judged": int(judged), "decisions": int(decisions), "seconds_left": left}

    def so_far(self, game_id: str) -> list[MoveReview]:
        """The moves of ``game_id``'s review judged so far (it is being made), in the order
        of the game: the page fills in as they come."""
        working = set(self.jobs.values())
        while True:
            try:
                job, move = self.moves_queue.get_nowait()
            except queue.Empty:
                break
            if job in working:  # (a review already made needs none of its moves)
                self.moves_so_far.setdefault(job, []).append(move)
        number = self.jobs.get(game_id, -1)
        return sorted(self.moves_so_far.get(number, []), key=lambda m: m.index)

    def hint_known(self, position: tuple) -> bool:
        """Whether this position's hint was asked for already (given, or on its way)."""
        return position in self.hints

    def check_hint_room(self) -> None:
        """Refuse a new hint while ``at_once`` are being worked out (``ReviewBusy``)."""
        working = sum(not job.done() for job in self.hints.values())
        if working >= self.at_once:
            raise ReviewBusy(f"{working} hints are being worked out: ask again later")

    async def hint(self, position: tuple, game: type[Game], params, history) -> dict[str, Any]:
        """The hint for ``position`` (game id, move number, seat), worked out in a process
        of its own (a review under way does not hold it up), once: asked again, the same."""
        job = self.hints.get(position)
        failed = job is not None and job.done() and (job.cancelled() or job.exception())
        if job is None or failed:  # (a hint that failed is worked out again)
            self.check_hint_room()
            seat = position[2]
            job = self._submit("hints", hint_of, game, dict(params), list(history), seat,
                               self.samples, self.hint_budget, self.hint_worlds)  # fmt: skip
            self.hints[position] = job
            while len(self.hints) > 4 * KEEP:
                self.hints.popitem(last=False)
        return await asyncio.shield(job)

    def _submit(self, kind: str, function, *arguments) -> asyncio.Future:
        """Run ``function`` in the process of ``kind``; a process that died is replaced."""
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            pool = self.pools.get(kind)
            if pool is None:
                shared = (self.board, self.moves_queue) if kind == "reviews" else (None, None)
                pool = self.pools[kind] = self._pool(*shared)
            try:
                job = loop.run_in_executor(pool, function, *arguments)
            except BrokenProcessPool:  # (died while idle: start another, once)
                self.pools.pop(kind, None)
                if attempt:
                    raise
                continue
            job.add_done_callback(partial(self._forget_broken, kind, pool))
            return job
        raise AssertionError("unreachable")  # pragma: no cover

    def _forget_broken(self, kind: str, pool: ProcessPoolExecutor, job: asyncio.Future) -> None:
        broken = not job.cancelled() and isinstance(job.exception(), BrokenProcessPool)
        if broken and self.pools.get(kind) is pool:
            del self.pools[kind]  # the next job starts a new process

    def _finished(self, game_id: str, job: asyncio.Future) -> None:
        self.working.pop(game_id, None)
        self.moves_so_far.pop(self.jobs.pop(game_id, -1), None)
        if job.cancelled():
            return
        error = job.exception()
        if error is not None:
            self.failed[game_id] = f"the review could not be made: {error}"
            return
        self.done[game_id] = job.result()
        while len(self.done) > self.keep:
            self.done.popitem(last=False)

    @staticmethod
    def _pool(board: Any = None, moves: Any = None) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=worker_context(),
            initializer=start_review_process,
            initargs=(board, moves),
        )

    def close(self) -> None:
        """Stop at once: a review under way is dropped (its process is killed), not awaited."""
        for pool in self.pools.values():
            for process in list(getattr(pool, "_processes", {}).values()):
                process.kill()
            pool.shutdown(wait=False, cancel_futures=True)
        self.pools.clear()
        self.moves_queue.cancel_join_thread()  # (moves no page will ask for: not waited for)
        self.moves_queue.close()
