"""Cut a py-spy raw record of the server to what its event loop ran: each stack below the
asyncio frames that run the loop, without line numbers or install paths, merged.

    py-spy record -p SERVER_PID -d 15 -r 250 -f raw -o loop.raw
    python scripts/fold_profile.py loop.raw > docs/measurements/loop-NAME.folded

The result opens in speedscope or ``flamegraph.pl`` like py-spy's own output.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

LOOP = re.compile(r"asyncio/(runners|base_events|events)\.py")
LINE = re.compile(r":\d+\)")
INSTALLED = re.compile(r"\(/[^)]*/(?:site-packages|python3\.\d+)/")  # (greedy: the last one)
LOOP_ITSELF = "(event loop)"  # a sample in the loop's own code (uvloop's is native)
HERE = f"({Path(__file__).resolve().parents[1]}/"  # this repository's files, named from it


def below_the_loop(frames: list[str]) -> list[str]:
    """The frames under the first run of the loop's own frames (from ``asyncio.run`` down to
    the callback it runs): the app's code, even where it calls back into asyncio."""
    first = next((i for i, frame in enumerate(frames) if LOOP.search(frame)), None)
    if first is None:
        return frames
    end = first
    while end < len(frames) and LOOP.search(frames[end]):
        end += 1
    return frames[end:]


def fold(lines) -> Counter[str]:
    stacks: Counter[str] = Counter()
    for line in lines:
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        frames = stack.split(";")
        cleaned = [
            INSTALLED.sub("(", LINE.sub(")", frame)).replace(HERE, "(")
            for frame in below_the_loop(frames)
        ]
        stacks[";".join(cleaned) or LOOP_ITSELF] += int(count)
    return stacks


def main(path: str) -> None:
    with open(path, encoding="utf-8") as record:
        stacks = fold(record)
    for stack, count in sorted(stacks.items()):
        print(stack, count)


if __name__ == "__main__":
    main(sys.argv[1])
