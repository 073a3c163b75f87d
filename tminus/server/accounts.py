"""Accounts, optional: a person may sign up with a name and a password, sign in on any
device and find their games there. Anyone still plays with an invite link and no account.

A password is kept only as its argon2id hash (argon2-cffi, with its salt); a session is a
random cookie kept only as its SHA-256, with the token every state-changing request of the
account must repeat in ``X-CSRF-Token`` (the cookie alone, which a browser sends along with
another site's request, changes nothing). Sign-in attempts are limited per address and per
name (in each process). An account holds the seats its browsers played (their invite tokens,
read back only by its sessions), so that its games follow it; it can be renamed, exported
and deleted (its seats in past games then keep a neutral name, ``store_accounts.FORMER``).
"""

from __future__ import annotations

import asyncio
import hmac
import re
import secrets
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from tminus.server.errors import Refused
from tminus.server.limits import Limits, RateLimiter
from tminus.server.replication import take_seats
from tminus.server.service import GameError, GameService
from tminus.server.storage import FINISHED, Refusal, Store, now, token_hash
from tminus.server.store_accounts import Account, HeldSeat

NAME_LENGTH = 24
PASSWORD_LENGTHS = (8, 128)
# A name: letters (of any alphabet), digits, and spaces, dots, hyphens or underscores
# between them; it starts with a letter or a digit.
NAME = re.compile(r"[^\W_](?:[\w .\-]*[\w.\-])?")
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


def name_key(name: str) -> str:
    """What makes two names the same: case and spacing aside ("Ada  L" is "ada l")."""
    return " ".join(name.split()).casefold()


def check_name(name: Any) -> str:
    if not isinstance(name, str):
        raise GameError("bad_request", "a name is text")
    name = " ".join(name.split())
    if not name:
        raise GameError("bad_request", "a name cannot be empty")
    if len(name) > NAME_LENGTH:
        raise GameError("bad_request", f"a name has at most {NAME_LENGTH} characters")
    if len(name_key(name)) > NAME_LENGTH:  # (casefolding lengthens a few: "ß" is "ss")
        raise GameError("bad_request", f"a name has at most {NAME_LENGTH} characters")
    if not NAME.fullmatch(name):
        raise GameError(
            "bad_request",
            "a name is letters and digits, with spaces, dots, hyphens or underscores between them",
        )
    return name


def check_password(password: Any) -> str:
    low, high = PASSWORD_LENGTHS
    if not isinstance(password, str) or not low <= len(password) <= high:
        raise GameError("bad_request", f"a password has {low} to {high} characters")
    return password


def check_email(email: Any) -> str | None:
    if email in (None, ""):
        return None
    if not isinstance(email, str) or len(email) > 254 or not EMAIL.fullmatch(email):
        raise GameError("bad_request", "this is not an e-mail address")
    return email


class Accounts:
    """Signing up and in, sessions, and what an account holds (one per server process)."""

    def __init__(self, store: Store, service: GameService, limits: Limits) -> None:
        self.store, self.service = store, service
        self.session_seconds = limits.session_days * 86_400
        per_second = limits.sign_ins_per_minute / 60
        burst = max(1.0, limits.sign_ins_per_minute)
        self.by_address = RateLimiter(per_second, burst)
        self.by_name = RateLimiter(per_second, burst)  # (per name and address)
        # (Per name from anywhere, ten times looser: a stranger cannot lock a name out alone.)
        self.name_anywhere = RateLimiter(10 * per_second, 10 * burst)
        self.sign_ups = RateLimiter(per_second, burst)  # (per address)
        self.hasher = PasswordHasher()
        self._dummy: str | None = None  # (a hash to verify against when no such name)

    # -- signing up, in and out -------------------------------------------------------------
    def limit_sign_ups(self, client: str) -> None:
        """Sign-ups from one address are as limited as sign-ins (a flood of accounts waits)."""
        wait = self.sign_ups.take(client)
        if wait:
            raise Refused("rate_limited", "too many sign-ups from here: wait a moment", wait)

    async def sign_up(
        self, name: Any, password: Any, email: Any = None, reminders: bool = False
    ) -> tuple[Account, str, str]:
        """A new account, signed in: (account, session cookie, CSRF token)."""
        name = check_name(name)
        password = check_password(password)
        email = check_email(email)
        hashed = await asyncio.to_thread(self.hasher.hash, password)
        allowed = bool(reminders and email)
        account = Account(secrets.token_hex(8), name, email, allowed, hashed, now())
        if not await self.store.create_account(account, name_key(name)):
            raise GameError("name_taken", f"the name {name!r} is taken: choose another")
        return (account, *await self._new_session(account))

    async def sign_in(self, name: Any, password: Any, client: str) -> tuple[Account, str, str]:
        """(account, session cookie, CSRF token); refused alike for an unknown name and a
        wrong password, and limited per address and per name."""
        key = name_key(name) if isinstance(name, str) else ""
        tries = ((self.by_address, client), (self.by_name, f"{key}|{client}"),
                 (self.name_anywhere, key))  # fmt: skip
        for limiter, who in tries:
            wait = limiter.take(who)
            if wait:
                raise Refused("rate_limited", "too many sign-in attempts: wait a moment", wait)
        account = await self.store.account_named(key) if key else None
        verified = await self._verified(account, password)  # (an unknown name too: as slow)
        if account is None or not verified:
            raise GameError("unauthorized", "wrong name or password")
        for limiter, who in tries:
            limiter.give_back(who)
        return (account, *await self._new_session(account))

    async def _verified(self, account: Account | None, password: Any) -> bool:
        if not isinstance(password, str) or len(password) > PASSWORD_LENGTHS[1]:
            return False
        if account is None:  # (as slow as a wrong password: names are not told apart)
            if self._dummy is None:
                self._dummy = await asyncio.to_thread(self.hasher.hash, "x" * 12)
            hashed = self._dummy
        else:
            hashed = account.password_hash
        try:
            await asyncio.to_thread(self.hasher.verify, hashed, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return account is not None

    async def _new_session(self, account: Account) -> tuple[str, str]:
        cookie, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        await self.store.add_session(token_hash(cookie), account.id, csrf, self.session_seconds)
        return cookie, csrf

    async def session(self, cookie: str | None) -> tuple[Account, str] | None:
        """The account a session cookie is signed in as, and its CSRF token (None: none)."""
        if not cookie or len(cookie) > 100:
            return None
        return await self.store.session(token_hash(cookie))

    @staticmethod
    def check_csrf(expected: str, given: str | None) -> None:
        if not given or not hmac.compare_digest(expected, given):
            raise GameError(
                "forbidden", "this request lacks the page's CSRF token (X-CSRF-Token): reload"
            )

    async def sign_out(self, account: Account, cookie: str) -> None:
        await self.store.end_sessions(account.id, token_hash(cookie))

    # -- changing, holding seats, exporting, deleting ---------------------------------------
    async def change(
        self, account: Account, changes: dict[str, Any], cookie: str | None = None
    ) -> Account:
        """A new name, e-mail, reminders switch or password (the current one given; the
        other devices are signed out, the one of ``cookie`` stays in)."""
        values: dict[str, Any] = {}
        if "name" in changes:
            values["name"] = check_name(changes["name"])
            values["name_key"] = name_key(values["name"])
        if "email" in changes:
            values["email"] = check_email(changes["email"])
        if "reminders" in changes:
            email = values.get("email", account.email)
            values["reminders"] = bool(changes["reminders"]) and email is not None
        elif values.get("email", account.email) is None:
            values["reminders"] = False
        if "new_password" in changes:
            if not await self._verified(account, changes.get("password")):
                raise GameError("unauthorized", "the current password is wrong")
            new = check_password(changes["new_password"])
            values["password_hash"] = await asyncio.to_thread(self.hasher.hash, new)
        if values and not await self.store.change_account(account.id, **values):
            raise GameError("name_taken", f"the name {values['name']!r} is taken: choose another")
        if "password_hash" in values:  # (other devices must sign in again)
            await self.store.end_sessions(account.id, keep=cookie and token_hash(cookie))
        return await self.store.account(account.id) or account

    async def hold(self, account: Account, game_id: Any, seat: Any, token: Any) -> None:
        """The account holds a seat whose invite token its browser has."""
        table = await self.service.get(game_id)
        self.service.authorize(table, seat, token)
        if table.record.rated:
            others = await self.store.seat_holders(table.id)
            if any(a == account.id and s != seat for s, a in others.items()):
                raise GameError("forbidden", "in a rated game an account holds one seat only")
        try:
            await self.store.hold_seat(account.id, HeldSeat(table.id, seat, token))
        except Refusal as refusal:
            raise GameError(refusal.code, refusal.message) from None

    async def games(self, account: Account) -> list[dict[str, Any]]:
        """The account's games, newest first, each with the seats it holds and their links."""
        held = await self.store.held_seats(account.id)
        by_game: dict[str, list[HeldSeat]] = {}
        for seat in held:
            by_game.setdefault(seat.game_id, []).append(seat)
        summaries = await self.service.some(list(by_game))
        for summary in summaries:
            summary["held"] = [
                {"seat": s.seat, "url": f"/game/{s.game_id}#seat={s.seat}&token={s.token}"}
                for s in sorted(by_game[summary["id"]], key=lambda s: s.seat)
            ]
        return summaries

    async def export(self, account: Account) -> dict[str, Any]:
        """Everything kept of the account: its details, ratings, puzzles, lessons and games."""
        held = await self.store.held_seats(account.id)
        games = []
        for game_id in dict.fromkeys(s.game_id for s in held):
            games.append(await self.service.export_broken(game_id))
        return {
            "account": {"name": account.name, "email": account.email,
                        "reminders": account.reminders, "created": account.created.isoformat()},
            "seats": [{"game": s.game_id, "seat": s.seat} for s in held],
            "ratings": [vars(s) for s in await self.store.standings_of(account.id)],
            "rating_history": await self.store.rating_history(account.id),
            "puzzle_tries": [{"puzzle": p, "solved": s}
                             for p, s in await self.store.tries_of(account.id)],
            "lessons_finished": await self.store.lessons_of(account.id),
            "games": games,
        }  # fmt: skip

    async def delete(self, account: Account, password: Any) -> None:
        """The account goes (its password confirms it); its past games keep a neutral name."""
        if not await self._verified(account, password):
            raise GameError("unauthorized", "the password is wrong")
        renamed = await self.store.delete_account(account.id)
        for game_id, seats in renamed.items():  # (the other processes hear it from the store)
            table = self.service.memory.tables.get(game_id)
            if table is not None:
                take_seats(table, seats)
                self.service.memory.changed(table)

    # -- what anyone may read ---------------------------------------------------------------
    async def profile(self, name: str) -> dict[str, Any]:
        """A person's page: their ratings, its history, and their finished games."""
        account = await self.store.account_named(name_key(name))
        if account is None:
            raise GameError("not_found", f"nobody is called {name!r} here")
        held = await self.store.held_seats(account.id)
        seats = {(s.game_id, s.seat) for s in held}
        games = await self.service.some(list(dict.fromkeys(s.game_id for s in held)))
        return {
            "name": account.name,
            "since": account.created.isoformat(),
            "ratings": [vars(s) for s in await self.store.standings_of(account.id)],
            "history": await self.store.rating_history(account.id),
            # (Finished games only: one in play may be unlisted, reachable by its link alone.)
            "games": [game_line(g, seats) for g in games if g["status"] == FINISHED],
        }


def game_line(summary: dict[str, Any], seats: set[tuple[str, int]]) -> dict[str, Any]:
    """A game on a profile: what it was, when, and the place the person took."""
    placings = (summary.get("result") or {}).get("placings") or []
    mine = [s for g, s in seats if g == summary["id"]]
    places = [placings[s] for s in mine if s < len(placings) and placings[s] is not None]
    return {
        "id": summary["id"], "game": summary["game"], "title": summary["title"],
        "players": len(summary["seats"]), "status": summary["status"],
        "created": summary["created"], "rated": summary.get("rated", False),
        "place": min(places) if places else None,
    }  # fmt: skip
