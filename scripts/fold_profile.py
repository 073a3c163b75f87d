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
HERE = f"({Path(__file__).resolve().parents[1]}/"  # this repository's files, named from it


def fold(lines) -> Counter[str]:
    stacks: Counter[str] = Counter()
    for line in lines:
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        frames = stack.split(";")
        below = max((i + 1 for i, frame in enumerate(frames) if LOOP.search(frame)), default=0)
        cleaned = [
            INSTALLED.sub("(", LINE.sub(")", frame)).replace(HERE, "(") for frame in frames[below:]
        ]
        stacks[";".join(cleaned)] += int(count)
    return stacks


def main(path: str) -> None:
    with open(path, encoding="utf-8") as record:
        stacks = fold(record)
    for stack, count in sorted(stacks.items()):
        print(stack, count)


if __name__ == "__main__":
    main(sys.argv[1])
