"""One set of limits for every way a game or a bot comes to be (a game created, a rematch
made, a seat handed to a bot): the games an address may make a minute, and the bots the
server can play."""

from __future__ import annotations

from tminus.server.bots import BotPlayer
from tminus.server.errors import Refused
from tminus.server.limits import Limits, RateLimiter, retry_after
from tminus.server.service import GameError, is_search


class Admission:
    """Admits new games and new bots, or refuses them (over HTTP: 429 with Retry-After)."""

    def __init__(self, limits: Limits, bots: BotPlayer) -> None:
        self.limits = limits
        self.bots = bots
        per_minute = limits.creates_per_minute
        self.creations = RateLimiter(per_minute / 60, max(1, per_minute))

    def admit(self, client: str, specs: list[str], new_game: bool = True) -> None:
        """Admit what a request from ``client`` would add: a new game (``new_game``) and
        bots (``specs``: the bots it would add); else ``Refused``."""
        wait = self.creations.take(client) if new_game else 0
        if wait:
            raise Refused(
                "rate_limited",
                f"too many games created from your address ({self.limits.creates_per_minute:g}"
                f" a minute at most): try again in {retry_after(wait)} s",
                wait,
            )
        self.admit_bots(specs)

    def admit_here(self, client: str, specs: list[str], new_game: bool) -> None:
        """``admit`` for a socket's request: a refusal is its answer, nothing changes."""
        try:
            self.admit(client, specs, new_game)
        except Refused as refused:
            raise GameError(refused.code, refused.message) from None

    def admit_bots(self, specs: list[str]) -> None:
        """Refuse new bots while the server's bots already use what it allows."""
        if not specs:
            return
        limits = self.limits
        thinking = self.bots.thinking()
        if len(thinking) >= limits.max_bot_games:
            raise Refused(
                "busy",
                f"the server is busy: {len(thinking)} games have bots playing: try again in "
                "a minute",
                60,
            )
        wanted = sum(is_search(spec) for spec in specs)
        if not wanted:
            return  # (no search bot asked for: the others' are not counted, every game over)
        searching = sum(
            is_search(s.bot) for t in thinking for s in t.record.seats if s.kind == "bot"
        )
        if searching + wanted > limits.max_search_bots:
            raise Refused(
                "busy",
                f"the server is busy: {searching} search bots are playing (at most "
                f"{limits.max_search_bots}): pick a lighter bot or try again in a minute",
                60,
            )
