"""A game's life: created, found (in memory or rebuilt from the store), joined, started,
played move by move, resigned, resumed after a restart, expired if nobody came.

Each change is worked out on a draft and committed before it is in memory or told
(``tminus.server.pipeline``), under the game's lock.
"""

from __future__ import annotations

import secrets
from collections import Counter
from typing import Any

from tminus.agents.registry import LEVEL_NAMES, level_spec
from tminus.core.game import Game, State, places_by
from tminus.core.registry import game_class, load_game
from tminus.server.catalog import bot_levels, refuse_local_only, title_of
from tminus.server.clocks import check_clock, first_banks
from tminus.server.fairness import DRAW_RULE, commitment, new_seed
from tminus.server.parts import ServiceParts
from tminus.server.pipeline import advance, apply, draft_of, finish, rebuild
from tminus.server.replication import is_behind, take_seats
from tminus.server.storage import (
    BOT,
    BROKEN,
    EXPIRED,
    FINISHED,
    PERSON,
    PLAYING,
    WAITING,
    Seat,
    StoredGame,
    now,
    token_hash,
)
from tminus.server.store_clocks import clocks_of
from tminus.server.tables import (
    EXPIRED_WORDS,
    Created,
    GameError,
    Table,
    Unreplayable,
    await_store,
    broken_error,
    check_move,
    check_turn,
    seat_names,
    status_words,
)
from tminus.server.undo import default_undo
from tminus.server.views import export, stored_summary, summary


class Lifecycle(ServiceParts):
    # -- creating and finding games --------------------------------------------------------
    async def create(
        self,
        game_name: str,
        params: dict[str, Any],
        seats: list[dict[str, Any]],
        listed: bool = False,
        undo: bool | None = None,
        hints: bool = False,
        rated: bool = False,
        clock: dict[str, Any] | None = None,
    ) -> Created:
        """A new game; ``seats`` lists {"kind": "person"|"bot", "bot": spec, "name": ...};
        ``listed``: shown in the lobby's public list while in play (else by link only);
        ``undo``: take-backs allowed (None: in a game of persons only, see ``undo``);
        ``hints``: a player may ask for the best move (see ``hint``); ``rated``: its result
        changes its players' ratings (``tminus.server.ratings``): no hints, no take-backs;
        ``clock``: a turn-based or Fischer clock (``tminus.server.clocks``), or none."""
        try:
            refuse_local_only(game_name, params)
            game = load_game(game_name, **params)
            levels = bot_levels(game_name, game.num_players)
            clock = check_clock(clock, [level["spec"] for level in levels])
        except (TypeError, ValueError) as error:
            raise GameError("bad_request", str(error)) from None
        if len(seats) != game.num_players:
            raise GameError(
                "bad_request",
                f"{game_class(game_name).title} with these parameters has {game.num_players} "
                f"seats; {len(seats)} were given",
            )
        if rated and (hints or undo):
            raise GameError("bad_request", "a rated game allows no hints and no take-backs")
        made, tokens = new_seats(game, seats)
        record = new_record(
            game_name, dict(game.params), type(game).rules_version, made, listed=listed,
            undo=not rated and default_undo(s.kind for s in made) if undo is None else undo,
            hints=hints, rated=rated, clock=clock,
        )  # fmt: skip
        let_go = await self.replicator.follow_new(record.id)
        try:
            with self.replicator.reading(record.id):  # (news of it heard before it is kept)
                await await_store(self.store.create(record))
        except BaseException:
            let_go()
            raise
        # (A game made here has said nothing yet: its talk need not be read, and what is
        # said from now on, here or on another process, is heard into it.)
        table = Table(record=record, game=game, state=game.new_initial_state(), chat=[])
        self.memory.keep(table)
        if self.replicator.missed_while_read(record.id):
            await await_store(self.replicator.catch_up(table))
        if all(s.kind == BOT for s in made):
            async with table.lock:
                await self._start(table)
        return Created(table, tokens)

    async def get(self, game_id: Any, current: bool = True) -> Table:
        """The game ``game_id``, from memory or rebuilt from the store by replay.

        ``current``: brought up to date if others may have changed it (not needed by a
        caller that is about to ``watch`` it, which does that)."""
        tables = self.memory.tables
        table = tables.get(game_id) if isinstance(game_id, str) else None
        if table is not None:
            tables.move_to_end(game_id)
            if current and not self.replicator.current(table):
                await await_store(self.replicator.catch_up(table))  # others may have moved
            return table
        with self.replicator.reading(game_id):  # (news of it heard meanwhile: see ``heard``)
            table = await self._read(game_id)
        kept = tables.get(game_id)  # (rebuilt meanwhile by another request: keep one)
        if kept is None:
            self.memory.keep(table)
            kept = table
        if self.replicator.missed_while_read(game_id) or is_behind(kept, table):
            # Changed while it was read (the news found no copy to apply to): read again.
            await await_store(self.replicator.catch_up(kept))
        return kept

    async def _read(self, game_id: Any) -> Table:
        """The game rebuilt from the store (marked broken there if it no longer replays)."""
        record = await self.record(game_id, actions=True)
        if record.status == BROKEN:
            raise broken_error(record)
        try:
            table = rebuild(record)
        except Unreplayable as error:
            record.status, record.problem = BROKEN, str(error)
            await await_store(self.store.mark_broken(record.id, str(error)))
            raise broken_error(record) from None
        if record.rules_version != table.game.rules_version:
            # The log still replays under today's rules: the game goes on under them.
            version = table.game.rules_version
            await await_store(self.store.set_rules_version(record.id, version))
            record.rules_version = version
        return table

    async def exists(self, game_id: Any) -> None:
        """Nothing if there is such a game (in memory, or in the store); else ``not_found``."""
        if not (isinstance(game_id, str) and game_id in self.memory.tables):
            await self.record(game_id)

    async def record(self, game_id: Any, actions: bool = False) -> StoredGame:
        """The stored game (from memory if there and up to date), or a ``not_found`` error."""
        table = self.memory.tables.get(game_id) if isinstance(game_id, str) else None
        if table is not None and self.replicator.current(table):
            return table.record
        record = None
        if isinstance(game_id, str) and len(game_id) <= 32:
            record = await await_store(self.store.load(game_id, actions=actions))
        if record is None:
            raise GameError("not_found", f"no game {game_id!r}")
        return record

    async def export_broken(self, game_id: str) -> dict[str, Any]:
        """The export of a game whether or not it still replays."""
        try:
            return export(await self.get(game_id))
        except GameError as error:
            if error.code != "broken":
                raise
        return export(await self.record(game_id, actions=True))

    async def recent(self, limit: int, listed: bool = False) -> list[dict[str, Any]]:
        """Summaries of the newest games (``listed``: the listed games in play), from the
        store (nothing is replayed)."""
        records = await await_store(self.store.recent(limit, listed))
        return [stored_summary(record, self.now()) for record in records]

    async def some(self, game_ids: list[str]) -> list[dict[str, Any]]:
        """Summaries of these games (those that exist), e.g. the ones a browser holds seats
        in; a game in memory is summed up from there (it may be ahead of the store)."""
        tables = self.memory.tables
        ids = [i for i in dict.fromkeys(game_ids) if 0 < len(i) <= 32]
        kept = {i: tables[i] for i in ids if i in tables}
        stored = await await_store(self.store.some([i for i in ids if i not in kept]))
        now = self.now()
        summaries = [summary(t, now) for t in kept.values()]
        summaries += [stored_summary(r, now) for r in stored]
        return sorted(summaries, key=lambda s: s["created"], reverse=True)

    # -- after a restart, and games nobody came to -----------------------------------------
    async def resume(self) -> tuple[list[Table], dict[str, str | None]]:
        """After a restart: rebuild each game in play, each on its own, and finish its chance.

        A game whose log no longer replays is marked broken with the reason; the others
        resume. Waiting and finished games stay in the store until someone asks for them.
        Returns the resumed tables and {game id: problem} of those found broken.
        """
        resumed: list[Table] = []
        broken: dict[str, str | None] = {}  # (the problem as stored: None if none was kept)
        for game_id in await await_store(self.store.ids((PLAYING,))):
            try:
                table = await self.get(game_id)
            except GameError as error:
                if error.code != "broken":
                    raise
                broken[game_id] = error.problem
                continue
            await self.settle(table)
            resumed.append(table)
        return resumed, broken

    async def expire_waiting(self, seconds: float) -> list[str]:
        """Games that waited for their players more than ``seconds`` expire (their pages
        say so; nobody can start them): the ids of those that did now."""
        expired = await await_store(self.store.expire_waiting(seconds))
        for game_id in expired:
            table = self.memory.tables.get(game_id)
            if table is not None and table.status == WAITING:
                table.record.status = EXPIRED
                self.memory.changed(table)
        return expired

    async def settle(self, table: Table) -> None:
        """Draw the chance outcomes a stored game in play waits for (after a crash between
        two writes, or under new rules), so that a player or the end comes next."""
        async with table.lock:
            if table.status == PLAYING:
                draft = draft_of(table)
                advance(table, draft)
                await self.pipeline.commit(table, draft)

    # -- seats -----------------------------------------------------------------------------
    async def join(self, table: Table, seat: int, token: str, name: str | None = None) -> bool:
        """A person takes their seat; the game starts once every person has joined.

        Returns whether anything changed that others should see."""
        self.authorize(table, seat, token)
        if table.status == EXPIRED:  # (kept for its links: nothing at it changes)
            if name:
                raise GameError("bad_state", EXPIRED_WORDS)
            return False
        async with table.lock:
            entry = table.record.seats[seat]
            name = (name or "").strip()[:40] or None
            back = None
            if entry.stand_in:  # (a bot stood in while their time was out: theirs again)
                back = await await_store(self.store.come_back(table.id, seat))
            if back is not None:
                take_seats(table, back.seats)
                table.record.clocks = back.clocks or table.record.clocks
                await self.tell(table, None, f"{entry.name} is back and plays again")
            changed = joins_anew(entry, name) or back is not None
            if changed:  # (the seats as stored: others may have joined on other processes)
                stored, resumed = await await_store(self.store.set_joined(table.id, seat, name))
                take_seats(table, stored)
                if resumed:
                    table.record.paused = False
            if table.status == WAITING and all(s.joined for s in table.record.seats):
                await self._start(table)
                return True
        if changed:
            self.memory.changed(table)
        return changed

    async def start(self, table: Table, seat: int, token: str) -> None:
        """Start now, without waiting for the persons who have not joined yet."""
        self.authorize(table, seat, token)
        async with table.lock:
            if table.status != WAITING:
                raise GameError("bad_state", f"the game has already {status_words(table)}")
            await self._start(table)

    async def _start(self, table: Table) -> None:
        draft = draft_of(table)
        draft.status = PLAYING
        advance(table, draft)
        try:
            await self.pipeline.commit(table, draft)
        except GameError as error:
            if error.code != "stale":
                raise
            # Another process started it first: this copy now has the game as started.

    # -- moves -----------------------------------------------------------------------------
    async def move(
        self, table: Table, seat: int, token: str, move_number: Any, action: Any
    ) -> None:
        """A person's move, made for the position after ``move_number`` actions."""
        self.authorize(table, seat, token)
        async with table.lock:
            check_move(table, seat, move_number, action)
            await self._play(table, action)

    async def hint(
        self, table: Table, seat: int, token: str, move_number: Any, announce: bool = True
    ) -> State:
        """``seat`` asks for the best move now, in a game whose creator turned hints on: the
        table is told ("Ada asks for a hint"; ``announce`` False: it was told already); the
        position to judge (only ``seat``'s information is read from it, see
        ``tminus.server.reviews.hint_of``)."""
        self.authorize(table, seat, token)
        if not table.record.hints:
            raise GameError("bad_state", "hints are off in this game: its maker did not allow them")
        async with table.lock:
            check_turn(table, seat, move_number)
            state = table.state.clone()
        if announce:
            await self.tell(table, None, f"{seat_names(table)[seat]} asks for a hint")
        return state

    async def bot_move(
        self,
        table: Table,
        seat: int,
        move_number: int,
        action: int,
        note: str | None = None,
        estimate: float | None = None,
    ) -> bool:
        """Apply a bot's move if the position is still the one it thought about.

        ``note`` is said in the log before the move (e.g. that the bot ran out of time);
        ``estimate`` is the bot's chance to win as it reckoned (see ``pipeline.apply``)."""
        async with table.lock:
            if table.bot_to_move() != seat or move_number != table.move_number:
                return False
            check_move(table, seat, move_number, action)
            await self._play(table, action, note, estimate)
        return True

    async def _play(
        self, table: Table, action: int, note: str | None = None, estimate: float | None = None
    ) -> None:
        draft = draft_of(table)
        apply(table, draft, action, note, estimate)
        advance(table, draft)
        await self.pipeline.commit(table, draft)

    async def resign(self, table: Table, seat: int, token: str) -> None:
        """A person gives up: the game ends, the others win together."""
        self.authorize(table, seat, token)
        await self.resign_seat(table, seat)

    async def resign_seat(self, table: Table, seat: int, reason: str = "resigned") -> None:
        """``seat`` loses (it resigned, or its time ran out): the others win together."""
        async with table.lock:
            if table.status == FINISHED:
                raise GameError("bad_state", "the game is already over")
            if table.status == EXPIRED:
                raise GameError("bad_state", EXPIRED_WORDS)
            others = [s for s in range(len(table.record.seats)) if s != seat]
            draft = draft_of(table)
            placings = places_by([s != seat for s in range(len(table.record.seats))])
            result = {"reason": reason, "resigned": seat, "winners": others}
            finish(draft, result | {"placings": placings})
            await self.pipeline.commit(table, draft)


def joins_anew(entry: Seat, name: str | None) -> bool:
    """Whether a person's join writes their seat (they were not seated, or name it anew):
    the join then marks them seen too, and ``renew_seen`` need not."""
    name = (name or "").strip()[:40] or None
    return not entry.joined or bool(name and name != entry.name)


def new_record(
    game_name: str,
    params: dict[str, Any],
    rules_version: int,
    seats: list[Seat],
    *,
    listed: bool,
    undo: bool,
    hints: bool,
    rated: bool = False,
    clock: dict[str, Any] | None = None,
) -> StoredGame:
    """A game about to be stored, waiting for its players: a new id, and a new seed whose
    commitment everyone sees from the start (the seed itself only at the end)."""
    seed = new_seed()
    return StoredGame(
        id=secrets.token_hex(8), game=game_name, params=params, rules_version=rules_version,
        commitment=commitment(seed), seed=seed, status=WAITING, seats=seats, actions=[],
        result=None, created=now(), listed=listed, draw_rule=DRAW_RULE, undo=undo, hints=hints,
        rated=rated, clock=clock,
        clocks=None if clock is None else clocks_of(first_banks(clock, len(seats)), None, None),
    )  # fmt: skip


def bot_spec(bot: Any, game: Game) -> Any:
    """A seat's bot as a spec: a level's name ("hard") stands for its spec, as on the command
    line (``level_spec``); none is random."""
    return (level_spec(bot, game) if isinstance(bot, str) else bot) or "random"


def new_seats(game: Game, seats: list[dict[str, Any]]) -> tuple[list[Seat], dict[int, str]]:
    """The seats asked for, and each person's secret token (stored only hashed)."""
    game_name = game.name
    levels = {level["spec"]: level["label"] for level in bot_levels(game_name, len(seats))}
    bots = [bot_spec(s.get("bot"), game) for s in seats if s.get("kind") == BOT]
    labels = Counter(levels.get(spec) for spec in bots)
    numbered: Counter[str] = Counter()
    made, tokens = [], {}
    for number, seat in enumerate(seats):
        kind = seat.get("kind")
        name = str(seat.get("name") or "").strip()[:40]
        if kind == PERSON:
            token = secrets.token_urlsafe(24)
            tokens[number] = token
            name = name or f"Player {number + 1}"
            made.append(Seat(number, PERSON, None, token_hash(token), name))
        elif kind == BOT:
            spec = bot_spec(seat.get("bot"), game)
            if spec not in levels:
                raise GameError(
                    "bad_request",
                    f"Player {number + 1}: no bot {spec!r} for {title_of(game_name)}; bots: "
                    + ", ".join([*LEVEL_NAMES, *sorted(levels)]),
                )
            # Bots are called by their level; two of one level are told apart by number.
            label = levels[spec]
            numbered[label] += 1
            if not name:
                name = label if labels[label] == 1 else f"{label} {numbered[label]}"
            made.append(Seat(number, BOT, spec, None, name, joined=True))
        else:
            raise GameError("bad_request", f"Player {number + 1}: kind must be 'person' or 'bot'")
    return made, tokens
