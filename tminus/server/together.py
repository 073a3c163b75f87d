"""What the people at a table do together: a seat given to a bot when its person left, a
move taken back if the others agree, "play again", and the table talk.

Each is decided by the store (a vote, a request, a claim on the log) before it is in memory
or told, and the table talk says what was decided.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from tminus.server.catalog import bot_levels, title_of
from tminus.server.lifecycle import new_record
from tminus.server.memory import CHAT_KEPT
from tminus.server.parts import ServiceParts
from tminus.server.pipeline import apply, draft_of, save_of
from tminus.server.replication import take_seats
from tminus.server.storage import (
    BOT,
    EXPIRED,
    FINISHED,
    PERSON,
    ChatLine,
    Refusal,
    Seat,
    StoredGame,
)
from tminus.server.tables import (
    EXPIRED_WORDS,
    Draft,
    GameError,
    Table,
    await_store,
    rematch_seat,
    seat_names,
)
from tminus.server.takeback import TAKE_BACK, last_standing
from tminus.server.undo import (
    answer_words,
    ask,
    asked_words,
    check_answer,
    store_answer,
    store_ask,
    waiting_for,
)
from tminus.server.views import said

CHAT_LENGTH = 200  # characters in a line of table talk


class Together(ServiceParts):
    # -- a person who left: their seat given to a bot ------------------------------------
    async def renew_seen(self, seats: list[tuple[str, int]]) -> None:
        """These (game, seat) have a socket open here now (see ``give_to_bot``): a paused
        game of theirs goes on."""
        for game_id in await await_store(self.store.renew_seen(seats)):
            self._set_paused(game_id, False)

    async def pause_abandoned(self, seconds: float) -> list[str]:
        """Games in play whose people have all been away ``seconds`` or more are paused:
        nobody plays their bots (the lease sweep skips them) until a person is back."""
        paused = await await_store(self.store.pause_abandoned(seconds))
        for game_id in paused:
            self._set_paused(game_id, True)
        return paused

    def _set_paused(self, game_id: str, paused: bool) -> None:
        table = self.memory.tables.get(game_id)
        if table is not None and table.record.paused != paused:
            table.record.paused = paused
            self.memory.changed(table)

    async def give_to_bot(
        self, table: Table, voter: int, token: str, seat: Any, bot: str, away: float
    ) -> bool:
        """``voter`` asks that a bot plays for the person of ``seat``, away (no socket) for
        ``away`` seconds or more: at once if ``voter`` made the game (seat 0), else once a
        majority of the people present asked. The table says so. Whether it is the bot's."""
        self.authorize(table, voter, token)
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise GameError("bad_request", f"a seat is a number, not {seat!r}")
        if not 0 <= seat < (n := len(table.record.seats)):
            raise GameError("bad_request", f"no seat {seat}: the game has {n}")
        offered = bot_levels(table.record.game, len(table.record.seats))
        label = {level["spec"]: level["label"] for level in offered}.get(bot)
        if label is None:
            raise GameError("bad_request", f"no bot {bot!r} for {title_of(table.record.game)}")
        names = seat_names(table)
        async with table.lock:
            try:
                given, votes, present, seats = await await_store(
                    self.store.give_to_bot(table.id, seat, voter, bot, away)
                )
            except Refusal as refusal:
                raise GameError(refusal.code, refusal.message) from None
            take_seats(table, seats)
        if given:
            await self.tell(table, None, f"{names[seat]} left; {label} plays for them")
            self.memory.changed(table)
        else:
            await self.tell(
                table, None, f"{names[voter]} asks that {label} plays for {names[seat]}, who "
                f"left ({votes} of {present} present asked; more than half is needed)",
            )  # fmt: skip
        return given

    # -- undo: a move taken back if the others agree (``tminus.server.undo``) ----------------
    async def take_back(self, table: Table, seat: int, token: str, move_number: Any) -> None:
        """``seat`` asks to take back its last move, for the position after ``move_number``
        rows of the log. The other people answer (``answer_take_back``); with nobody to ask
        (bots accept at once) the move is taken back now. The table talk says so."""
        self.authorize(table, seat, token)
        async with table.lock:
            try:
                request = ask(table, seat, move_number)
                draft = None
                if not waiting_for(table, request):
                    draft = draft_of(table)
                    apply(table, draft, TAKE_BACK)
                save = save_of(table, draft) if draft is not None else None
                work = partial(store_ask, self.store.origin, table.id, request, save)
                request = await self.pipeline.claim(table, self.store.transaction(work))
            except Refusal as refusal:
                raise GameError(refusal.code, refusal.message) from None
            move = last_standing(reversed(table.log))
            assert move is not None  # (ask() found the asker's own move standing, under the lock)
            self._settled(table, request, draft)
        names = seat_names(table)
        await self.tell(table, None, asked_words(names[seat], said(move, move.seen[-1], names)))
        if draft:
            bots = " and ".join(names[s.seat] for s in table.record.seats if s.seat != seat)
            await self.tell(table, None, answer_words(bots, True, True, []))

    def _settled(self, table: Table, request: dict[str, Any], draft: Draft | None) -> None:
        """A request as stored, and the take-back (``draft``) if it was committed."""
        table.record.take_back = request
        if draft is None:
            self.memory.changed(table)
        else:
            self.pipeline.put(table, draft)

    async def answer_take_back(
        self, table: Table, seat: int, token: str, move_number: Any, accept: bool
    ) -> bool:
        """``seat`` answers the take-back asked for: once all the other people accepted, the
        move is taken back (its row claims its place in the log like a move); one refusal
        ends the request. The table talk says so. Whether the move was taken back."""
        self.authorize(table, seat, token)
        async with table.lock:
            try:
                request = check_answer(table, seat, move_number)
                draft = save = None
                if accept:  # (if it is the last yes, as the store knows it: the take-back)
                    draft = draft_of(table)
                    apply(table, draft, TAKE_BACK)
                    save = save_of(table, draft)
                work = partial(
                    store_answer, self.store.origin, table.id, seat, request["at"], accept, save
                )
                request, done = await self.pipeline.claim(table, self.store.transaction(work))
            except Refusal as refusal:
                raise GameError(refusal.code, refusal.message) from None
            self._settled(table, request, draft if done else None)
        names = seat_names(table)
        waiting = [names[s] for s in waiting_for(table, request)]
        await self.tell(table, None, answer_words(names[seat], accept, done, waiting))
        return done

    # -- play again ------------------------------------------------------------------------
    async def rematch(self, table: Table, seat: int, token: str) -> Table:
        """ "Play again": a new game with the same seats, names, bots and parameters, a new
        seed, and the first player rotated (seat order: who sat second sits first). Each
        person keeps their secret, so their link moves them; the one asking has accepted,
        bots accept at once. If the rematch is made already, the one asking accepts it."""
        self.authorize(table, seat, token)
        async with table.lock:
            if table.status != FINISHED:
                raise GameError("bad_state", "play again once the game is over")
            if table.record.rematch is None:
                record = rematch_record(table, seat)
                made = await await_store(self.store.create_rematch(table.id, record))
                table.record.rematch = made
                if made == record.id:
                    self.memory.keep(Table(record=record, game=table.game,
                                           state=table.game.new_initial_state()))  # fmt: skip
        # (Read back as it is kept: a rematch is not followed from its making as a new game
        # is, for one game in many is not worth another path.)
        following = await self.get(table.record.rematch)
        await self.join(following, rematch_seat(seat, len(table.record.seats)), token)
        self.memory.changed(table)  # (told once the one asking sits in the rematch)
        return following

    # -- table talk ------------------------------------------------------------------------
    async def say(self, table: Table, seat: int, token: str, words: str) -> None:
        """A person's line of table talk, stored with the game and told to everyone present
        (spectators too). Spectators only read."""
        self.authorize(table, seat, token)
        if table.status == EXPIRED:
            raise GameError("bad_state", EXPIRED_WORDS)
        words = " ".join(str(words).split())[:CHAT_LENGTH]
        if not words:
            raise GameError("bad_request", "say something: the message is empty")
        await self.tell(table, seat, words)

    async def tell(self, table: Table, seat: int | None, words: str) -> None:
        """A line in the table talk: a person's (``seat``), or the table's (None)."""
        line = await await_store(self.store.say(table.id, seat, words))
        self.memory.said(table, [line])

    async def chat_history(self, table: Table) -> list[ChatLine]:
        """The last lines of a game's table talk (read from the store once)."""
        if table.chat is None:
            table.chat = await await_store(self.store.chat(table.id, CHAT_KEPT))
        return list(table.chat)


def rematch_record(table: Table, seat: int) -> StoredGame:
    """The rematch of a finished game, ``seat`` (the one asking) seated already."""
    old = table.record
    n = len(old.seats)
    moved_seats: dict[int, Seat] = {}
    for entry in old.seats:
        moved = rematch_seat(entry.seat, n)
        if entry.stand_in:  # (a bot stood in: the rematch's seat is its person's)
            moved_seats[moved] = Seat(moved, PERSON, None, entry.token_hash, entry.name,
                                      entry.seat == seat)  # fmt: skip
            continue
        joined = entry.kind == BOT or entry.seat == seat
        moved_seats[moved] = Seat(
            moved, entry.kind, entry.bot, entry.token_hash, entry.name, joined
        )
    seats = [moved_seats[place] for place in range(n)]  # (a rotation: every place filled)
    return new_record(
        old.game, dict(old.params), type(table.game).rules_version, seats,
        listed=old.listed, undo=old.undo, hints=old.hints, rated=old.rated, clock=old.clock,
    )  # fmt: skip
