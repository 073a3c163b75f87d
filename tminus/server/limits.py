"""The server's limits (each a `tminus serve` option) and the rate counters that enforce them.

Plain Python only: the command line reads the defaults without the web extra installed.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, fields

# CPU seconds a bot may spend on one move: the expert levels keep to 2 s at the 90th
# percentile (README, "Levels"), and a slower move on a busy machine is not cut short.
BUDGET = 3.0
CACHE_SIZE = 64  # games kept in memory with no socket and no bot (rebuilt on demand)
BUSY_TIMEOUT = 5.0  # seconds a write waits for a locked SQLite file before it is refused
BOT_LEASE = 10.0  # seconds a process holds a game's bots without renewing (then others may)


@dataclass(frozen=True)
class Limits:
    """What one client, one socket, one game and the whole server may take."""

    max_body: int = 65_536  # bytes in an HTTP request body
    creates_per_minute: float = 20  # games one client (address) may create a minute; 0: no limit
    max_bot_games: int = 100  # games whose bots are thinking at once, server-wide
    max_search_bots: int = 8  # search bots (mcts, ismcts, solver) among them
    bot_budget: float = BUDGET  # CPU seconds a bot may spend on one move
    bot_workers: int = 0  # processes bots think in (0: one fewer than the cores, at least 1)
    sockets_per_client: int = 64  # WebSockets open at once from one address
    max_sockets: int = 4_000  # WebSockets open at once, server-wide
    sockets_per_game: int = 500  # WebSockets (seats and spectators) on one game
    hello_timeout: float = 10.0  # seconds a new socket has to say hello
    messages_per_second: float = 20  # what one socket may send (moves, names, pings) ...
    message_burst: int = 60  # ... with this many at once
    send_queue: int = 32  # messages waiting for one socket before it is closed as not reading
    send_timeout: float = 10.0  # seconds one message may take to reach a socket
    cache_size: int = CACHE_SIZE  # idle games kept in memory (others rebuilt when asked for)
    replays_at_once: int = 2  # replays built at once (others wait their turn)
    reviews_at_once: int = 4  # finished games' reviews asked for at once (made one at a time)
    # Worlds in a decision's first round of playouts where no solver covers it (reviews and
    # hints; more rounds follow until each value is within ± 3 points, or time runs out).
    review_samples: int = 8
    # Seconds a hint samples at most (None: until precise, however long: reproducible).
    hint_budget: float | None = 2.5
    hint_worlds: int = 8192  # worlds a hint is played out in at most (review.playouts.MAX_SAMPLES)
    busy_timeout: float = BUSY_TIMEOUT  # seconds a write waits for a locked SQLite file
    bot_lease: float = BOT_LEASE  # seconds before another process may take a game's bots
    waiting_expiry: float = 86_400.0  # seconds a game waits for its players, then expires
    pause_after: float = 3_600.0  # seconds a game in play waits with all its people away
    away_after: float = 120.0  # seconds without a socket before a person's seat may go to a bot
    request_timeout: float = 20.0  # seconds an HTTP request (head and body) may take to arrive
    connections_per_address: int = 64  # HTTP connections open at once from one address
    sign_ins_per_minute: float = 5  # sign-in attempts from one address, or for one name
    session_days: float = 30  # how long a signed-in browser stays signed in

    @classmethod
    def documented(cls) -> dict[str, object]:
        return {f.name: f.default for f in fields(cls)}


class RateLimiter:
    """A token bucket per key: ``rate`` a second, up to ``burst`` at once."""

    def __init__(self, rate: float, burst: float, max_keys: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self.buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> float:
        """0 if allowed (one token taken), else the seconds until a token is there."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic()
        tokens, last = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens >= 1:
            self.buckets[key] = (tokens - 1, now)
            self._trim()
            return 0.0
        self.buckets[key] = (tokens, now)
        return (1 - tokens) / self.rate

    def give_back(self, key: str) -> None:
        """Return the token a request took, when it turned out to do nothing (refused)."""
        if self.rate > 0 and key in self.buckets:
            tokens, last = self.buckets[key]
            self.buckets[key] = (min(self.burst, tokens + 1), last)

    def _trim(self) -> None:
        """Forget the fullest buckets first when too many clients are remembered."""
        if len(self.buckets) > self.max_keys:
            for key in list(self.buckets)[: len(self.buckets) - self.max_keys]:
                del self.buckets[key]


def retry_after(seconds: float) -> str:
    return str(max(1, math.ceil(seconds)))
