"""The garbage collector's pauses in a `tminus serve` process, measured from inside.

Put this directory first on PYTHONPATH for a load run; each server process it starts writes
the pauses after ``GC_PAUSES_AFTER`` seconds (default 25) of serving to
``$TMPDIR/gc-pauses.PID``, by generation: how many, their total, median and longest, and how
many objects they freed::

    PYTHONPATH=scripts/gc_pauses python -m tminus.server.load --games 50 --seconds 30
    cat /tmp/gc-pauses.*

Serving starts when the server settles its heap (``gc.freeze``); with code from before
that, counting starts 3 s after the process (30 s, if nothing of ``tminus.server.serving``
was loaded by then). Other processes (the load tool, bot workers) are left alone.
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
import threading
import time

pauses: list[tuple[int, float, int]] = []  # (generation, seconds, objects freed)
started = [0.0]


def timed(phase: str, info: dict) -> None:
    if phase == "start":
        started[0] = time.perf_counter()
    else:
        pauses.append((info["generation"], time.perf_counter() - started[0], info["collected"]))


def report_later() -> None:
    # Nothing is imported from this thread: an import racing the server's own (finding
    # the game packages) left the server with no games at all, now and then. Serving starts
    # at the freeze; code from before there was one counts from 3 s in.
    started_at = time.monotonic()
    while not gc.get_freeze_count() and time.monotonic() - started_at < 30:
        serving = sys.modules.get("tminus.server.serving")
        old_code = serving is not None and not hasattr(serving, "settle_the_heap")
        if old_code and time.monotonic() - started_at > 3:
            break
        time.sleep(0.1)
    del pauses[:]  # (the start's own collections are not serving's)
    time.sleep(float(os.environ.get("GC_PAUSES_AFTER", "25")))
    seen = list(pauses)
    path = os.path.join(tempfile.gettempdir(), f"gc-pauses.{os.getpid()}")
    with open(path, "w", encoding="utf-8") as out:
        for generation in (0, 1, 2):
            times = sorted(s for g, s, _ in seen if g == generation)
            if times:
                freed = sum(f for g, _, f in seen if g == generation)
                out.write(
                    f"generation {generation}: {len(times)} pauses, {sum(times) * 1000:.1f} ms"
                    f" in all, median {times[len(times) // 2] * 1000:.2f} ms, longest"
                    f" {times[-1] * 1000:.2f} ms, {freed} objects freed\n"
                )


if "serve" in sys.argv[1:2]:
    gc.callbacks.append(timed)
    threading.Thread(target=report_later, daemon=True).start()
