"""The game service: create, join, start, move, resign, resume after a restart, export.

Asynchronous and free of the web: the app (``tminus.server.app``) holds the sockets and
listens for changes (``GameService.listen``). The store is the one truth and the games in
memory are a cache of it: a change is worked out on a draft of the game, committed (the
store's primary key (game, index) claims each place in the log), and only then put in memory
and announced. A claim lost to another writer is a ``stale`` move; a store that cannot be
used is an ``unavailable`` error, and in both cases nothing changed.

Games leave memory when nobody needs them: a game with sockets open or a bot thinking is
pinned; the others stay in a small cache of recently used games and are rebuilt from the
store by replay when asked for again.

Several processes may serve one game (on PostgreSQL). A process *watches* the games it has
sockets on: it hears every change the others commit (``heard``, from
``tminus.server.fanout``) and applies it to its copy, in order; a change it missed (a gap)
is read from the store (``catch_up``). It *follows* the games it plays the bots of without
keeping them in memory: news of such a game is passed on (``listen_absent``) and the game is
read again. A game in memory that nobody here follows may be behind, so it is brought up to
date before use.
"""

from __future__ import annotations

import asyncio
import hmac
import itertools
import json
import logging
import re
import secrets
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from tminus.agents.levels import levels
from tminus.core.game import CHANCE, Game, State, places_by
from tminus.core.registry import game_class, list_games, load_game, manifest
from tminus.server.fairness import (
    DRAW_RULE,
    DRAW_RULES,
    EXPORT_FORMAT,
    EXPORT_VERSION,
    commitment,
    draw_chance,
    new_seed,
)
from tminus.server.fanout import Listener
from tminus.server.limits import CACHE_SIZE
from tminus.server.storage import (
    BOT,
    BROKEN,
    EXPIRED,
    FINISHED,
    PERSON,
    PLAYING,
    WAITING,
    ChatLine,
    ClaimLost,
    Refusal,
    Save,
    Seat,
    Store,
    StoredGame,
    StoreError,
    now,
    token_hash,
)
from tminus.server.takeback import TAKE_BACK, last_standing, play_row, taken_back, without_last
from tminus.server.undo import (
    answer_words,
    ask,
    asked_words,
    check_answer,
    default_undo,
    may_ask,
    open_request,
    store_answer,
    store_ask,
    waiting_for,
)

log = logging.getLogger("tminus.server")

SPECTATOR = None
CHAT_LENGTH = 200  # characters in a line of table talk
EXPIRED_WORDS = "this game expired before it started: make a new one in the lobby"
CHAT_KEPT = 100  # lines of table talk a page is given when it opens (all are stored)
# Log lines are narrated with these marks in place of names, and the current names are put
# in when a line is sent: a person who renames themselves is renamed in the whole log.
SEAT_MARK = "\x1f{}\x1f"
SEAT_MARK_PATTERN = re.compile("\x1f(\\d+)\x1f")


def seat_marks(n: int) -> list[str]:
    return [SEAT_MARK.format(seat) for seat in range(n)]


def put_names(text: str, names: list[str]) -> str:
    """A narrated line with each seat's mark replaced by the seat's name."""
    return SEAT_MARK_PATTERN.sub(lambda m: names[int(m.group(1))], text)


class GameError(Exception):
    """A refused request: nothing changed. ``code`` is for programs, the message for people."""

    problem: str | None  # (set on a "broken" error only: see ``broken_error``)

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def bot_levels(game_name: str, players: int | None = None) -> list[dict[str, str]]:
    """The bots a lobby offers for a game of ``players`` (None: its default count), weakest
    first: (spec, label), as measured in ``tminus.agents.levels``."""
    return levels(game_name, players)


def player_counts(cls) -> list[int]:
    """The numbers of players a game class allows (its ``players`` parameter)."""
    param = cls.parameters.get("players")
    if param is None:
        return []
    if param.choices is not None:
        return [int(n) for n in param.choices]
    return list(range(int(param.minimum), int(param.maximum) + 1))


def is_search(spec: str | None) -> bool:
    """A bot that searches (and so costs real CPU per move)."""
    return bool(spec and spec.split(":")[0] in ("mcts", "ismcts", "alphabeta", "solver"))


def title_of(game_name: str) -> str:
    try:
        return game_class(game_name).title
    except ValueError:  # a game no longer installed
        return game_name


def catalog() -> list[dict[str, Any]]:
    """Every game with its parameters and bots, for the lobby."""
    games = []
    for name in list_games():
        cls = game_class(name)
        params = {
            key: {
                "default": p.default,
                "help": p.help,
                "choices": list(p.choices) if p.choices is not None else None,
                "minimum": p.minimum,
                "maximum": p.maximum,
            }
            for key, p in cls.parameters.items()
        }
        games.append(
            {
                "name": name,
                "title": cls.title,
                "information": cls.information,
                "rules_version": cls.rules_version,
                "params": params,
                "bots": bot_levels(name),
                # The levels for each count of players (an expert may depend on it).
                "bots_by_players": {n: bot_levels(name, n) for n in player_counts(cls)},
                # From the game's manifest: the lobby's line, the board script's URL.
                "description": manifest(name).description,
                "luck": manifest(name).luck,  # what the committed seed decides, in words
                "board": manifest(name).board,
            }
        )
    return games


@dataclass
class LogEntry:
    index: int
    actor: int  # the seat that moved, or CHANCE
    action: int
    text: str  # the full truth, for people: shown to no one before the end
    seen: list[str]  # how each seat saw it, then (last) how a spectator saw it
    note: str | None = None  # said before it (a bot that fell back on a random move)
    takes_back: int | None = None  # a take-back row: the index of the entry it undid
    estimate: float | None = None  # a searching bot's chance to win, as it reckoned its move
    # (All narrated with seat marks for names: see ``put_names``.)


@dataclass
class Table:
    """A game in memory: its stored record, its state rebuilt from the log, and its lock."""

    record: StoredGame
    game: Game
    state: State
    log: list[LogEntry] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    version: int = 0  # counts the changes seen in memory (views rendered once per version)
    # Which copy of the game this is, unique in the process: a copy rebuilt from the store
    # starts again at version 0, so views are cached by (copy, version).
    copy: int = field(default_factory=itertools.count().__next__)
    news: deque[str] = field(default_factory=deque)  # heard from other processes, in order
    hearing: asyncio.Task | None = None  # applies the news, one at a time
    chat: list[ChatLine] | None = None  # the last lines of table talk (None: not read)
    taken: int = 0  # rows of the log that do not stand: moves taken back and take-backs

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def move_number(self) -> int:
        """How many actions (chance ones too) the log holds: a move names the one it follows."""
        return len(self.log)

    def bot_to_move(self) -> int | None:
        """The bot's seat if a bot is to move now (never in a paused game)."""
        seat = self.state.current_player()
        playing = self.status == PLAYING and not self.record.paused
        if playing and seat >= 0 and self.record.seats[seat].kind == BOT:
            return seat
        return None


@dataclass
class Draft:
    """A change being worked out on a copy of a game, put in memory only once committed."""

    state: State
    start: int  # the log's length when the draft began
    expect: str  # the game's status when the draft began (the store checks it is still so)
    entries: list[LogEntry] = field(default_factory=list)
    status: str | None = None
    result: dict[str, Any] | None = None
    taken: int = 0  # rows that do not stand (see ``Table.taken``)

    @property
    def move_number(self) -> int:
        return self.start + len(self.entries)

    @property
    def standing(self) -> int:
        """How many actions stand: the index of the next chance outcome's draw."""
        return self.move_number - self.taken


@dataclass
class Created:
    table: Table
    tokens: dict[int, str]  # each person's seat token: told once, stored only hashed


class GameService:
    def __init__(
        self, store: Store, cache_size: int = CACHE_SIZE, listener: Listener | None = None
    ) -> None:
        self.store = store
        self.cache_size = cache_size
        self.listener = listener or Listener()  # (the default: one process, nothing to hear)
        self.tables: OrderedDict[str, Table] = OrderedDict()
        self.pins: Counter[str] = Counter()
        self.listeners: list[Callable[[Table], None]] = []
        self.chat_listeners: list[Callable[[Table, list[ChatLine]], None]] = []
        self.absent_listeners: list[Callable[[str], None]] = []
        self.loading: Counter[str] = Counter()  # games being read from the store, how often
        self.missed: set[str] = set()  # games that changed while being read

    # -- who is told of changes ------------------------------------------------------------
    def listen(self, listener: Callable[[Table], None]) -> None:
        """``listener(table)`` is called after each committed change of a game."""
        self.listeners.append(listener)

    def listen_chat(self, listener: Callable[[Table, list[ChatLine]], None]) -> None:
        """``listener(table, lines)`` is called with each new line of a game's table talk."""
        self.chat_listeners.append(listener)

    def _said(self, table: Table, lines: list[ChatLine]) -> None:
        if table.chat is not None:
            known = {line["index"] for line in table.chat}
            table.chat.extend(line for line in lines if line["index"] not in known)
            table.chat.sort(key=lambda line: line["index"])
            del table.chat[:-CHAT_KEPT]
        for listener in self.chat_listeners:
            listener(table, lines)

    def _changed(self, table: Table) -> None:
        table.version += 1
        for listener in self.listeners:
            listener(table)

    # -- memory: pinned games and a small cache of the others -------------------------------
    def pin(self, table: Table) -> None:
        """Keep ``table`` in memory until as many ``unpin`` calls (a socket, a thinking bot)."""
        self.pins[table.id] += 1
        self.tables[table.id] = table

    def unpin(self, table: Table) -> None:
        self.pins[table.id] -= 1
        if self.pins[table.id] <= 0:
            del self.pins[table.id]
        self._evict()

    def forget(self, game_id: str) -> None:
        """Drop a game from memory (it is rebuilt from the store when asked for again)."""
        self.tables.pop(game_id, None)

    # -- watching: hearing what other processes commit --------------------------------------
    async def watch(self, table: Table) -> Table:
        """Keep ``table`` in memory and up to date until ``unwatch``: the changes other
        processes commit are heard and applied; those made before are read now."""
        self.pin(table)
        try:
            await self.follow(table.id)
        except BaseException:
            self.unpin(table)
            raise
        return table

    def unwatch(self, table: Table) -> None:
        self.unfollow(table.id)
        self.unpin(table)

    async def follow(self, game_id: str) -> None:
        """Hear the changes of a game from now on, until ``unfollow`` (in memory or not:
        news of a game not in memory go to ``listen_absent``'s callbacks)."""
        try:
            if await self.listener.follow(game_id) and game_id in self.tables:
                await self.catch_up(self.tables[game_id])  # what changed before listening
        except StoreError as error:
            self.listener.unfollow(game_id)
            raise unavailable(error) from None
        except BaseException:
            self.listener.unfollow(game_id)
            raise

    def unfollow(self, game_id: str) -> None:
        self.listener.unfollow(game_id)

    def listen_absent(self, listener: Callable[[str], None]) -> None:
        """``listener(game_id)`` is called when a followed game not in memory changed."""
        self.absent_listeners.append(listener)

    def heard(self, game_id: str, payload: str) -> None:
        """Another process (or this one) committed a change of ``game_id``: apply it to the
        copy in memory, after the news heard before it. A game not in memory needs nothing."""
        table = self.tables.get(game_id)
        if table is None:  # read from the store when next used (it is behind nothing then)
            if game_id in self.loading:
                self.missed.add(game_id)  # (perhaps read before this change)
            for listener in self.absent_listeners:
                listener(game_id)
            return
        table.news.append(payload)
        if table.hearing is None or table.hearing.done():
            table.hearing = asyncio.get_running_loop().create_task(self._hear(table))

    async def _hear(self, table: Table) -> None:
        try:
            async with table.lock:
                changed = False
                while table.news:
                    changed |= await self._take_news(table, json.loads(table.news.popleft()))
                if changed:
                    self._changed(table)
        except (GameError, StoreError) as error:
            # Not applied: drop the copy, so that the game is read anew when next used. Table
            # talk does not depend on the copy: what was heard of it is said all the same.
            log.warning("game %s could not be brought up to date: %s", table.id, error)
            unheard = [json.loads(payload) for payload in table.news]
            table.news.clear()
            for news in unheard:
                if "chat" in news:
                    self._said(table, news["chat"])
            self.forget(table.id)

    async def _take_news(self, table: Table, news: dict[str, Any]) -> bool:
        """Apply one notice (see ``storage.Save.notice``): whether anything changed."""
        if "chat" in news:
            self._said(table, news["chat"])
            return False
        if "rematch" in news:
            table.record.rematch = news["rematch"]
            return True
        if "paused" in news:
            changed = table.record.paused != news["paused"]
            table.record.paused = news["paused"]
            return changed
        if "seats" in news:
            return self._take_seats(table, news["seats"])
        if "take_back" in news:
            changed = table.record.take_back != news["take_back"]
            table.record.take_back = news["take_back"]
            return changed
        at = news.get("at", 0)
        if news.get("reload") or at > table.move_number:  # a gap: read what was missed
            return await self._catch_up(table)
        moves = news["moves"][table.move_number - at :]  # (those before are known here)
        return self._absorb(table, moves, news.get("status"), news.get("result"))

    def _take_seats(self, table: Table, seats: list[list[Any]]) -> bool:
        """Seats as stored ([joined, name, kind, bot] each, see ``storage.seat_news``)."""
        changed = False
        for entry, news in zip(table.record.seats, seats, strict=False):
            if seat_state(entry) != list(news):
                entry.joined, entry.name, entry.kind, entry.bot = news
                if entry.kind == BOT:
                    entry.token_hash = None  # (given to a bot: its person's link is void)
                changed = True
        return changed

    def _absorb(
        self, table: Table, moves: list, status: str | None, result: dict[str, Any] | None
    ) -> bool:
        """Committed actions ([action, note, estimate] each) and status, put in memory."""
        if moves:
            draft = self._draft(table)
            for action, note, estimate in moves:
                self._apply(table, draft, action, note, estimate)
            table.state, table.taken = draft.state, draft.taken
            table.log.extend(draft.entries)
            table.record.moves = table.move_number
        changed = bool(moves)
        if status is not None and status != table.record.status:
            table.record.status = status
            table.record.result = result or table.record.result
            changed = True
        table.record.to_move = to_move_of(table)
        return changed

    async def catch_up(self, table: Table) -> None:
        """Read from the store what ``table`` has not seen yet, and tell those watching:
        the moves, seats and status, then the table talk."""
        async with table.lock:
            if await self._catch_up(table):
                self._changed(table)
        await self._catch_up_talk(table)

    async def _catch_up_talk(self, table: Table) -> None:
        """The table talk said on other processes while this one was not listening (its
        LISTEN connection lost): read back and told, so every process shows the same."""
        if table.chat is None:
            return  # never read here: it is read whole when first asked for
        stored = await self._store(self.store.chat(table.id, CHAT_KEPT))
        known = {line["index"] for line in table.chat}
        missed = [line for line in stored if line["index"] not in known]
        if missed:
            self._said(table, missed)

    async def _catch_up(self, table: Table) -> bool:
        """(Under the game's lock.) The actions after the copy's, status and seats."""
        record = await self.store.load(table.id, actions=True, since=table.move_number)
        if record is None:
            return False
        changed = self._take_seats(table, [seat_state(s) for s in record.seats])
        if record.paused != table.record.paused:
            table.record.paused, changed = record.paused, True
        if record.take_back != table.record.take_back:
            table.record.take_back, changed = record.take_back, True
        if record.moves != table.move_number + len(record.actions):  # not a continuation
            return self._replace(table, await self.store.load(table.id)) or changed
        if record.status == BROKEN:
            table.record.problem = record.problem
        try:
            moves = list(zip(record.actions, record.notes, record.estimates, strict=True))
            return self._absorb(table, moves, record.status, record.result) or changed
        except Exception:  # the copy went astray: replay the whole stored log
            return self._replace(table, await self.store.load(table.id))

    def _replace(self, table: Table, record: StoredGame | None) -> bool:
        """Put the game as stored into ``table`` (the same object those holding it see)."""
        if record is None:
            return False
        try:
            fresh = self.rebuild(record)
        except Unreplayable as error:
            table.record.status, table.record.problem = BROKEN, str(error)
            return True
        table.record, table.game, table.state, table.log, table.taken = (
            fresh.record, fresh.game, fresh.state, fresh.log, fresh.taken
        )  # fmt: skip
        return True

    def _keep(self, table: Table) -> None:
        self.tables[table.id] = table
        self.tables.move_to_end(table.id)
        self._evict()

    def _evict(self) -> None:
        idle = [game_id for game_id in self.tables if game_id not in self.pins]
        for game_id in idle[: max(0, len(idle) - self.cache_size)]:
            del self.tables[game_id]

    # -- creating and finding games --------------------------------------------------------
    async def create(
        self,
        game_name: str,
        params: dict[str, Any],
        seats: list[dict[str, Any]],
        listed: bool = False,
        undo: bool | None = None,
        hints: bool = False,
    ) -> Created:
        """A new game; ``seats`` lists {"kind": "person"|"bot", "bot": spec, "name": ...};
        ``listed``: shown in the lobby's public list while in play (else by link only);
        ``undo``: take-backs allowed (None: in a game of persons only, see ``undo``);
        ``hints``: a player may ask for the best move (see ``hint``)."""
        try:
            refuse_local_only(game_name, params)
            game = load_game(game_name, **params)
        except (TypeError, ValueError) as error:
            raise GameError("bad_request", str(error)) from None
        if len(seats) != game.num_players:
            raise GameError(
                "bad_request",
                f"{game_class(game_name).title} with these parameters has {game.num_players} "
                f"seats; {len(seats)} were given",
            )
        made, tokens = self._seats(game_name, seats)
        seed = new_seed()
        record = StoredGame(
            id=secrets.token_hex(8), game=game_name, params=dict(game.params),
            rules_version=type(game).rules_version, commitment=commitment(seed), seed=seed,
            status=WAITING, seats=made, actions=[], result=None, created=now(), listed=listed,
            draw_rule=DRAW_RULE,
            undo=default_undo(s.kind for s in made) if undo is None else undo, hints=hints,
        )  # fmt: skip
        await self._store(self.store.create(record))
        table = Table(record=record, game=game, state=game.new_initial_state())
        self._keep(table)
        if all(s.kind == BOT for s in made):
            async with table.lock:
                await self._start(table)
        return Created(table, tokens)

    def _seats(self, game_name: str, seats: list[dict[str, Any]]):
        levels = {level["spec"]: level["label"] for level in bot_levels(game_name, len(seats))}
        bots = [s.get("bot") or "random" for s in seats if s.get("kind") == BOT]
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
                spec = seat.get("bot") or "random"
                if spec not in levels:
                    raise GameError(
                        "bad_request",
                        f"Player {number + 1}: no bot {spec!r} for {title_of(game_name)}; bots: "
                        + ", ".join(sorted(levels)),
                    )
                # Bots are called by their level; two of one level are told apart by number.
                label = levels[spec]
                numbered[label] += 1
                if not name:
                    name = label if labels[label] == 1 else f"{label} {numbered[label]}"
                made.append(Seat(number, BOT, spec, None, name, joined=True))
            else:
                raise GameError(
                    "bad_request", f"Player {number + 1}: kind must be 'person' or 'bot'"
                )
        return made, tokens

    async def get(self, game_id: Any, current: bool = True) -> Table:
        """The game ``game_id``, from memory or rebuilt from the store by replay.

        ``current``: brought up to date if others may have changed it (not needed by a
        caller that is about to ``watch`` it, which does that)."""
        table = self.tables.get(game_id) if isinstance(game_id, str) else None
        if table is not None:
            self.tables.move_to_end(game_id)
            if current and not (self.listener.following(game_id) or table.status == FINISHED):
                await self._store(self.catch_up(table))  # others may have moved meanwhile
            return table
        self.loading[game_id] += 1  # (news of it heard meanwhile: see ``heard``)
        try:
            table = await self._read(game_id)
        finally:
            self.loading[game_id] -= 1
            if self.loading[game_id] <= 0:
                del self.loading[game_id]
        kept = self.tables.get(game_id)  # (rebuilt meanwhile by another request: keep one)
        if kept is None:
            self._keep(table)
            kept = table
        if game_id in self.missed or is_behind(kept, table):
            # Changed while it was read (the news found no copy to apply to): read again.
            self.missed.discard(game_id)
            await self._store(self.catch_up(kept))
        return kept

    async def _read(self, game_id: Any) -> Table:
        """The game rebuilt from the store (marked broken there if it no longer replays)."""
        record = await self.record(game_id, actions=True)
        if record.status == BROKEN:
            raise broken_error(record)
        try:
            table = self.rebuild(record)
        except Unreplayable as error:
            record.status, record.problem = BROKEN, str(error)
            await self._store(self.store.mark_broken(record.id, str(error)))
            raise broken_error(record) from None
        if record.rules_version != table.game.rules_version:
            # The log still replays under today's rules: the game goes on under them.
            await self._store(self.store.set_rules_version(record.id, table.game.rules_version))
            record.rules_version = table.game.rules_version
        return table

    async def exists(self, game_id: Any) -> None:
        """Nothing if there is such a game (in memory, or in the store); else ``not_found``."""
        if not (isinstance(game_id, str) and game_id in self.tables):
            await self.record(game_id)

    async def record(self, game_id: Any, actions: bool = False) -> StoredGame:
        """The stored game (from memory if there and up to date), or a ``not_found`` error."""
        table = self.tables.get(game_id) if isinstance(game_id, str) else None
        if table is not None and (self.listener.following(game_id) or table.status == FINISHED):
            return table.record
        record = None
        if isinstance(game_id, str) and len(game_id) <= 32:
            record = await self._store(self.store.load(game_id, actions=actions))
        if record is None:
            raise GameError("not_found", f"no game {game_id!r}")
        return record

    def rebuild(self, record: StoredGame) -> Table:
        """Replay the stored log. A log that no longer replays raises ``Unreplayable``."""
        try:
            game = load_game(record.game, **record.params)
            table = Table(record=record, game=game, state=game.new_initial_state())
            draft = Draft(table.state, 0, record.status)
            moves = zip(record.actions, record.notes, record.estimates, strict=True)
            for action, note, estimate in moves:
                self._apply(table, draft, action, note, estimate)
        except Exception as error:
            version = record.rules_version
            raise Unreplayable(
                f"the stored log of {title_of(record.game)} (rules version {version}) does not "
                f"replay under the rules installed now ({rules_version_of(record.game)}): "
                f"{type(error).__name__}: {error}"
            ) from error
        table.state, table.log, table.taken = draft.state, draft.entries, draft.taken
        record.actions, record.actors = [], []  # the log holds them now
        record.notes, record.estimates = [], []
        return table

    async def recent(self, limit: int, listed: bool = False) -> list[dict[str, Any]]:
        """Summaries of the newest games (``listed``: the listed games in play), from the
        store (nothing is replayed)."""
        records = await self._store(self.store.recent(limit, listed))
        return [self._summary(record) for record in records]

    async def some(self, game_ids: list[str]) -> list[dict[str, Any]]:
        """Summaries of these games (those that exist), e.g. the ones a browser holds seats
        in; a game in memory is summed up from there (it may be ahead of the store)."""
        ids = [i for i in dict.fromkeys(game_ids) if 0 < len(i) <= 32]
        kept = {i: self.tables[i] for i in ids if i in self.tables}
        stored = await self._store(self.store.some([i for i in ids if i not in kept]))
        summaries = [self.summary(t) for t in kept.values()] + [self._summary(r) for r in stored]
        return sorted(summaries, key=lambda s: s["created"], reverse=True)

    async def resume(self) -> tuple[list[Table], dict[str, str | None]]:
        """After a restart: rebuild each game in play, each on its own, and finish its chance.

        A game whose log no longer replays is marked broken with the reason; the others
        resume. Waiting and finished games stay in the store until someone asks for them.
        Returns the resumed tables and {game id: problem} of those found broken.
        """
        resumed: list[Table] = []
        broken: dict[str, str | None] = {}  # (the problem as stored: None if none was kept)
        for game_id in await self._store(self.store.ids((PLAYING,))):
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
        expired = await self._store(self.store.expire_waiting(seconds))
        for game_id in expired:
            table = self.tables.get(game_id)
            if table is not None and table.status == WAITING:
                table.record.status = EXPIRED
                self._changed(table)
        return expired

    async def settle(self, table: Table) -> None:
        """Draw the chance outcomes a stored game in play waits for (after a crash between
        two writes, or under new rules), so that a player or the end comes next."""
        async with table.lock:
            if table.status == PLAYING:
                draft = self._draft(table)
                self._advance(table, draft)
                await self._commit(table, draft)

    # -- seats -----------------------------------------------------------------------------
    @staticmethod
    def names(table: Table | StoredGame) -> list[str]:
        """What people call each seat: the names they chose ("Player 2" if they did not)."""
        record = table.record if isinstance(table, Table) else table
        return [s.name for s in record.seats]

    def authorize(self, table: Table, seat: Any, token: Any) -> int:
        """The seat if ``token`` is its token; GameError otherwise."""
        seats = table.record.seats
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise GameError("bad_request", f"a seat is a number, not {seat!r}")
        if not 0 <= seat < len(seats):
            raise GameError(
                "unknown_seat",
                f"this link names a seat the game does not have: it has {len(seats)} players",
            )
        expected = seats[seat].token_hash
        if expected is None:
            raise GameError("forbidden", f"{seats[seat].name} is a bot: nobody takes that seat")
        if not isinstance(token, str) or not hmac.compare_digest(expected, token_hash(token)):
            raise GameError(
                "forbidden", f"this invite link is not valid for {seats[seat].name}'s seat"
            )
        return seat

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
            changed = not entry.joined or bool(name and name != entry.name)
            if changed:  # (the seats as stored: others may have joined on other processes)
                self._take_seats(
                    table, await self._store(self.store.set_joined(table.id, seat, name))
                )
            if table.status == WAITING and all(s.joined for s in table.record.seats):
                await self._start(table)
                return True
        if changed:
            self._changed(table)
        return changed

    async def start(self, table: Table, seat: int, token: str) -> None:
        """Start now, without waiting for the persons who have not joined yet."""
        self.authorize(table, seat, token)
        async with table.lock:
            if table.status != WAITING:
                raise GameError("bad_state", f"the game has already {status_words(table)}")
            await self._start(table)

    async def _start(self, table: Table) -> None:
        draft = self._draft(table)
        draft.status = PLAYING
        self._advance(table, draft)
        try:
            await self._commit(table, draft)
        except GameError as error:
            if error.code != "stale":
                raise
            # Another process started it first: this copy now has the game as started.

    # -- moves -----------------------------------------------------------------------------
    async def move(self, table: Table, seat: int, token: str, move_number: Any, action: Any):
        """A person's move, made for the position after ``move_number`` actions."""
        self.authorize(table, seat, token)
        async with table.lock:
            self._check_move(table, seat, move_number, action)
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
            self._check_turn(table, seat, move_number)
            state = table.state.clone()
        if announce:
            await self.tell(table, None, f"{self.names(table)[seat]} asks for a hint")
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
        ``estimate`` is the bot's chance to win as it reckoned (see ``_apply``)."""
        async with table.lock:
            if table.bot_to_move() != seat or move_number != table.move_number:
                return False
            self._check_move(table, seat, move_number, action)
            await self._play(table, action, note, estimate)
        return True

    async def _play(
        self, table: Table, action: int, note: str | None = None, estimate: float | None = None
    ) -> None:
        draft = self._draft(table)
        self._apply(table, draft, action, note, estimate)
        self._advance(table, draft)
        await self._commit(table, draft)

    def _check_move(self, table: Table, seat: int, move_number: Any, action: Any) -> None:
        self._check_turn(table, seat, move_number)
        is_int = isinstance(action, int) and not isinstance(action, bool)
        if not (is_int and table.state.is_legal(action)):
            names = self.names(table)
            legal = ", ".join(
                f"{a} ({table.state.move_label(a, names)})" for a in table.state.legal_actions()
            )
            raise GameError("illegal", f"illegal move {action!r}; legal moves: {legal}")

    def _check_turn(self, table: Table, seat: int, move_number: Any) -> None:
        """``seat`` is to move in the game in play, which is at ``move_number``."""
        if table.status != PLAYING:
            raise GameError("bad_state", f"no moves now: the game has {status_words(table)}")
        if isinstance(move_number, bool) or not isinstance(move_number, int):
            raise GameError("bad_request", f"move_number must be an integer, not {move_number!r}")
        if move_number != table.move_number:
            raise GameError(
                "stale",
                f"stale move: it was made for move {move_number}, the game is at move "
                f"{table.move_number}",
            )
        to_move = table.state.current_player()
        if to_move != seat:
            who = f"{self.names(table)[to_move]}'s" if to_move >= 0 else "chance's"
            raise GameError("not_your_turn", f"not your turn: it is {who} turn")

    async def resign(self, table: Table, seat: int, token: str) -> None:
        """A person gives up: the game ends, the others win together."""
        self.authorize(table, seat, token)
        async with table.lock:
            if table.status == FINISHED:
                raise GameError("bad_state", "the game is already over")
            if table.status == EXPIRED:
                raise GameError("bad_state", EXPIRED_WORDS)
            others = [s for s in range(len(table.record.seats)) if s != seat]
            draft = self._draft(table)
            placings = places_by([s != seat for s in range(len(table.record.seats))])
            result = {"reason": "resigned", "resigned": seat, "winners": others}
            self._finish(draft, result | {"placings": placings})
            await self._commit(table, draft)

    # -- a person who left: their seat given to a bot ------------------------------------
    async def renew_seen(self, seats: list[tuple[str, int]]) -> None:
        """These (game, seat) have a socket open here now (see ``give_to_bot``): a paused
        game of theirs goes on."""
        for game_id in await self._store(self.store.renew_seen(seats)):
            self._set_paused(game_id, False)

    async def pause_abandoned(self, seconds: float) -> list[str]:
        """Games in play whose people have all been away ``seconds`` or more are paused:
        nobody plays their bots (the lease sweep skips them) until a person is back."""
        paused = await self._store(self.store.pause_abandoned(seconds))
        for game_id in paused:
            self._set_paused(game_id, True)
        return paused

    def _set_paused(self, game_id: str, paused: bool) -> None:
        table = self.tables.get(game_id)
        if table is not None and table.record.paused != paused:
            table.record.paused = paused
            self._changed(table)

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
        names = self.names(table)
        async with table.lock:
            try:
                given, votes, present, seats = await self._store(
                    self.store.give_to_bot(table.id, seat, voter, bot, away)
                )
            except Refusal as refusal:
                raise GameError(refusal.code, refusal.message) from None
            self._take_seats(table, seats)
        if given:
            await self.tell(table, None, f"{names[seat]} left; {label} plays for them")
            self._changed(table)
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
                    draft = self._draft(table)
                    self._apply(table, draft, TAKE_BACK)
                save = self._save_of(table, draft) if draft is not None else None
                work = partial(store_ask, self.store.origin, table.id, request, save)
                request = await self._claim(table, self.store.transaction(work))
            except Refusal as refusal:
                raise GameError(refusal.code, refusal.message) from None
            move = last_standing(reversed(table.log))
            assert move is not None  # (ask() found the asker's own move standing, under the lock)
            self._settled(table, request, draft)
        names = self.names(table)
        await self.tell(table, None, asked_words(names[seat], said(move, move.seen[-1], names)))
        if draft:
            bots = " and ".join(names[s.seat] for s in table.record.seats if s.seat != seat)
            await self.tell(table, None, answer_words(bots, True, True, []))

    def _settled(self, table: Table, request: dict[str, Any], draft: Draft | None) -> None:
        """A request as stored, and the take-back (``draft``) if it was committed."""
        table.record.take_back = request
        if draft is None:
            self._changed(table)
        else:
            self._put(table, draft)

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
                    draft = self._draft(table)
                    self._apply(table, draft, TAKE_BACK)
                    save = self._save_of(table, draft)
                work = partial(
                    store_answer, self.store.origin, table.id, seat, request["at"], accept, save
                )
                request, done = await self._claim(table, self.store.transaction(work))
            except Refusal as refusal:
                raise GameError(refusal.code, refusal.message) from None
            self._settled(table, request, draft if done else None)
        names = self.names(table)
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
                record = self._rematch_record(table, seat)
                made = await self._store(self.store.create_rematch(table.id, record))
                table.record.rematch = made
                if made == record.id:
                    self._keep(Table(record=record, game=table.game,
                                     state=table.game.new_initial_state()))  # fmt: skip
        following = await self.get(table.record.rematch)
        await self.join(following, rematch_seat(seat, len(table.record.seats)), token)
        self._changed(table)  # (told once the one asking sits in the rematch)
        return following

    def _rematch_record(self, table: Table, seat: int) -> StoredGame:
        old = table.record
        n = len(old.seats)
        moved_seats: dict[int, Seat] = {}
        for entry in old.seats:
            moved = rematch_seat(entry.seat, n)
            joined = entry.kind == BOT or entry.seat == seat
            moved_seats[moved] = Seat(
                moved, entry.kind, entry.bot, entry.token_hash, entry.name, joined
            )
        seats = [moved_seats[place] for place in range(n)]  # (a rotation: every place filled)
        seed = new_seed()
        return StoredGame(
            id=secrets.token_hex(8), game=old.game, params=dict(old.params),
            rules_version=type(table.game).rules_version, commitment=commitment(seed),
            seed=seed, status=WAITING, seats=seats, actions=[], result=None, created=now(),
            listed=old.listed, draw_rule=DRAW_RULE, undo=old.undo, hints=old.hints,
        )  # fmt: skip

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
        line = await self._store(self.store.say(table.id, seat, words))
        self._said(table, [line])

    async def chat_history(self, table: Table) -> list[ChatLine]:
        """The last lines of a game's table talk (read from the store once)."""
        if table.chat is None:
            table.chat = await self._store(self.store.chat(table.id, CHAT_KEPT))
        return list(table.chat)

    # -- drafts: worked out on a copy, committed, then put in memory ------------------------
    @staticmethod
    def _draft(table: Table) -> Draft:
        return Draft(table.state.clone(), table.move_number, table.status, taken=table.taken)

    def _apply(
        self,
        table: Table,
        draft: Draft,
        action: int,
        note: str | None = None,
        estimate: float | None = None,
    ) -> None:
        """Play ``action`` on the draft and log it. A bot's ``estimate`` is kept only where
        nothing is hidden: elsewhere it would tell what the bot holds."""
        if action == TAKE_BACK:
            return self._take_back(table, draft, note)
        state = draft.state
        actor = state.current_player()
        marks = seat_marks(table.game.num_players)
        text = state.narrate(action, marks, reveal=True)
        if table.game.information == "perfect":  # nothing hidden: every seat reads the truth
            seen = [text] * (table.game.num_players + 1)
        else:
            viewers = [*range(table.game.num_players), None]
            seen = [state.narrate(action, marks, v) for v in viewers]
        state.apply_action(action)
        if table.game.information != "perfect":
            estimate = None
        entry = LogEntry(draft.move_number, actor, action, text, seen, note, estimate=estimate)
        draft.entries.append(entry)

    def _advance(self, table: Table, draft: Draft) -> None:
        """Draw chance outcomes from the seed until a player must move or the game ends."""
        state = draft.state
        while state.current_player() == CHANCE:
            record = table.record
            outcome = draw_chance(
                record.seed, draft.standing, state.chance_outcomes(), record.draw_rule
            )
            self._apply(table, draft, outcome)
        if state.is_terminal() and table.status != FINISHED:
            reason = "turn cap" if state.ended_by_turn_cap() else "game over"
            result = {
                "reason": reason, "returns": state.returns(), "winners": state.winners(),
                "placings": state.placings(),
            }  # fmt: skip
            self._finish(draft, result)

    @staticmethod
    def _finish(draft: Draft, result: dict[str, Any]) -> None:
        draft.status = FINISHED
        draft.result = result

    def _take_back(self, table: Table, draft: Draft, note: str | None = None) -> None:
        """A take-back row: the last standing decision is undone (see ``takeback``); the log
        says so, to each seat as that seat saw the move."""
        undone = last_standing(itertools.chain(reversed(draft.entries), reversed(table.log)))
        if undone is None or undone.actor < 0:
            raise ValueError("a take-back follows no decision of a player")
        draft.state = without_last(table.game, draft.state)
        draft.entries.append(
            LogEntry(
                draft.move_number, undone.actor, TAKE_BACK, f"Taken back: {undone.text}",
                [f"Taken back: {seen}" for seen in undone.seen], note, takes_back=undone.index,
            )
        )  # fmt: skip
        draft.taken += 2  # (the move, and this row)

    async def _commit(self, table: Table, draft: Draft) -> None:
        """Commit the draft (its log rows claim their places), then put it in memory."""
        if not draft.entries and draft.status is None:
            return
        await self._claim(table, self.store.save(self._save_of(table, draft)))
        self._put(table, draft)

    @staticmethod
    def _save_of(table: Table, draft: Draft) -> Save:
        """What the store commits of a draft."""
        rows = [(e.index, e.action, e.actor, e.note, e.estimate) for e in draft.entries]
        save = Save(table.id, draft.start, rows, draft.status, draft.result, draft.expect)
        turn = whose_turn(draft.state, draft.status or table.status)
        if turn != whose_turn(table.state, table.status):
            save.to_move = turn
        return save

    async def _claim(self, table: Table, work):
        """Await a write that claims places in the log. A claim lost to another writer is a
        ``stale`` error (nothing changed), and the copy is brought up to date."""
        try:
            return await self._store(work)
        except ClaimLost:
            # The store is ahead of this copy: those watching get the game as stored.
            if await self._store(self._catch_up(table)):
                self._changed(table)
            raise GameError(
                "stale", "stale move: another move was accepted first; here is the game now"
            ) from None

    def _put(self, table: Table, draft: Draft) -> None:
        """A committed draft, put in memory; those watching are told."""
        table.state, table.taken = draft.state, draft.taken
        table.log.extend(draft.entries)
        table.record.moves = table.move_number
        if draft.status is not None:
            table.record.status = draft.status
            table.record.result = draft.result or table.record.result
        table.record.to_move = to_move_of(table)
        self._changed(table)

    @staticmethod
    async def _store(work):
        """Await the store; a store that cannot be used is a clear, retryable error."""
        try:
            return await work
        except StoreError as error:
            raise unavailable(error) from None

    # -- what each seat may see ------------------------------------------------------------
    def view(self, table: Table, seat: int | None, log_from: int = 0) -> dict[str, Any]:
        """The state message for ``seat`` (None: a spectator): only what it may see."""
        state = table.state
        record = table.record
        n = table.game.num_players
        viewer = n if seat is None else seat
        to_move = state.current_player()
        names = self.names(table)
        legal = []
        if seat is not None and record.status == PLAYING and to_move == seat:
            legal = [
                {
                    "action": a,
                    "text": state.action_to_string(a),
                    "label": state.move_label(a, names),
                    "struct": state.action_to_struct(a),  # what programs read (seats as seats)
                }
                for a in state.legal_actions()
            ]
        return {
            "type": "state",
            "id": record.id,
            "game": record.game,
            "title": table.game.title,
            "params": record.params,
            "status": record.status,
            "seat": seat,
            "move_number": table.move_number,
            "to_move": to_move if to_move >= 0 and record.status == PLAYING else None,
            "observation": state.public_observation() if seat is None else state.observation(seat),
            "legal": legal,
            "log_from": log_from,
            "log": [log_line(e, said(e, e.seen[viewer], names)) for e in table.log[log_from:]],
            "seats": public_seats(record),
            "commitment": record.commitment,
            "seed": record.seed if record.status == FINISHED else None,
            "result": record.result,
            "rematch": rematch_of(record),
            "paused": record.paused,
            "undo": record.undo,
            "hints": record.hints,
            "may_take_back": may_ask(table),
            "take_back": take_back_view(table, viewer, names),
        }

    def summary(self, table: Table | StoredGame) -> dict[str, Any]:
        record = table.record if isinstance(table, Table) else table
        summary = self._summary(record)
        if isinstance(table, Table):
            summary["move_number"] = table.move_number
            turn = whose_turn(table.state, table.status)
            summary["to_move"] = turn if turn >= 0 else None
        return summary

    def _summary(self, record: StoredGame) -> dict[str, Any]:
        return {
            "id": record.id,
            "game": record.game,
            "title": title_of(record.game),
            "params": record.params,
            "rules_version": record.rules_version,
            "status": record.status,
            "seats": public_seats(record),
            "move_number": record.moves,
            "commitment": record.commitment,
            "seed": record.seed if record.status in (FINISHED, BROKEN) else None,
            "result": record.result,
            "problem": record.problem,
            "created": record.created.isoformat(),
            "listed": record.listed,
            "rematch": rematch_of(record),
            "paused": record.paused,
            "to_move": record.to_move if record.status == PLAYING else None,
            "undo": record.undo,
        }

    def export(self, table: Table | StoredGame) -> dict[str, Any]:
        """The game for ``tminus verify``: the seed only once the game is over.

        A broken game (its log no longer replays) is over too: its export has the raw log."""
        record = table.record if isinstance(table, Table) else table
        over = record.status in (FINISHED, BROKEN)
        names = self.names(record)
        if isinstance(table, Table):
            # Before the end only what a spectator may see: no action ids (a card dealt is
            # an id), the spectator's strings.
            undone = taken_back((e.index, e.action) for e in table.log)
            actions = [
                exported(e.index, e.actor, e.action, over, said(e, told, names), undone)
                for e in table.log
                for told in [e.text if over else e.seen[-1]]
            ]
        else:
            rows = list(enumerate(zip(record.actions, record.actors, strict=True)))
            undone = taken_back((index, action) for index, (action, _) in rows)
            actions = [
                exported(index, actor, action, True, None, undone)
                for index, (action, actor) in rows
            ]
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "id": record.id,
            "game": record.game,
            "params": record.params,
            "rules_version": record.rules_version,
            "status": record.status,
            "result": record.result,
            "problem": record.problem,
            "seats": [{k: v for k, v in s.items() if k != "joined"} for s in public_seats(record)],
            "commitment": record.commitment,
            "seed": record.seed if over else None,
            "draw_version": record.draw_rule,
            "draw_rule": DRAW_RULES[record.draw_rule],
            "actions": actions,
        }

    async def export_broken(self, game_id: str) -> dict[str, Any]:
        """The export of a game whether or not it still replays."""
        try:
            return self.export(await self.get(game_id))
        except GameError as error:
            if error.code != "broken":
                raise
        return self.export(await self.record(game_id, actions=True))

    def replay_frames(self, table: Table, start: int = 0, stop: int | None = None) -> Iterator:
        """A finished game step by step: every view, for every seat, after each action.

        Frame 0 is the start; frame i follows action i - 1. Made one at a time (a long
        game's replay is large), from a fresh copy of the game."""
        if table.status != FINISHED:
            raise GameError("bad_state", "a replay is shown once the game is over")
        log = table.log
        stop = len(log) + 1 if stop is None else min(stop, len(log) + 1)
        n = table.game.num_players
        names = self.names(table)

        def frames() -> Iterator[dict[str, Any]]:
            state = table.game.new_initial_state()
            for index in range(stop):
                entry = log[index - 1] if index else None
                if entry is not None:
                    state = play_row(table.game, state, entry.action)
                if index >= start:
                    yield {
                        "index": None if entry is None else entry.index,
                        "actor": None if entry is None else entry.actor,
                        "text": None if entry is None else said(entry, entry.text, names),
                        "public": state.public_observation(),
                        "seats": [state.observation(s) for s in range(n)],
                    }

        return frames()


def is_behind(table: Table, other: Table) -> bool:
    """Whether ``other``, a copy of the same game, has seen a change ``table`` has not."""
    seats = [seat_state(s) for s in table.record.seats]
    return (
        other.move_number > table.move_number
        or (other.status != table.status and table.status != FINISHED)
        or seats != [seat_state(s) for s in other.record.seats]
        or other.record.paused != table.record.paused
        or other.record.take_back != table.record.take_back
    )


def seat_state(seat: Seat) -> list[Any]:
    """A seat as the other processes are told of it (``storage.seat_news``)."""
    return [seat.joined, seat.name, seat.kind, seat.bot]


def rematch_seat(seat: int, players: int) -> int:
    """Where a seat sits in the rematch: one place earlier, so the second player starts."""
    return (seat - 1) % players


def whose_turn(state: State, status: str) -> int:
    """The seat to move in a game in play, else -1 (nobody's: chance, over, not started)."""
    return max(-1, state.current_player()) if status == PLAYING else -1


def to_move_of(table: Table) -> int | None:
    """The seat to move, as the store keeps it (None: nobody's)."""
    turn = whose_turn(table.state, table.status)
    return turn if turn >= 0 else None


def unavailable(error: StoreError) -> GameError:
    return GameError("unavailable", f"{error}. Nothing was changed: try again in a moment.")


class Unreplayable(Exception):
    """A stored game whose log does not replay under the rules installed now."""


def rules_version_of(game_name: str) -> str:
    try:
        return f"version {game_class(game_name).rules_version}"
    except ValueError:
        return "the game is not installed"


def broken_error(record: StoredGame) -> GameError:
    error = GameError(
        "broken",
        f"this game cannot go on: {record.problem or 'its log no longer replays'}. "
        "Its export still has the whole log.",
    )
    error.problem = record.problem
    return error


def status_words(table: Table) -> str:
    return {WAITING: "not started", PLAYING: "started", FINISHED: "ended",
            EXPIRED: "expired"}[table.status]  # fmt: skip


def said(entry: LogEntry, text: str, names: list[str]) -> str:
    """A log line as people read it: the note first, if any, and names put in."""
    line = f"{entry.note} {text}" if entry.note else text
    return put_names(line, names)


def log_line(entry: LogEntry, text: str) -> dict[str, Any]:
    """A line of the log as a seat is sent it (a take-back names the line it undid)."""
    line = {"index": entry.index, "actor": entry.actor, "text": text}
    if entry.takes_back is not None:
        line["takes_back"] = entry.takes_back
    if entry.estimate is not None:  # (shown to those who turn it on: "Why a bot moved")
        line["estimate"] = round(entry.estimate, 3)
    return line


def exported(
    index: int, actor: int, action: int, with_id: bool, text: str | None, undone: set[int]
) -> dict[str, Any]:
    """An entry of an export: the action's id ``with_id`` (not before the end: a card dealt is
    an id); a take-back row says ``take_back``, and a move it undid ``taken_back``."""
    entry: dict[str, Any] = {"index": index, "actor": actor}
    if action == TAKE_BACK:
        entry["take_back"] = True
    elif with_id:
        entry["action"] = action
    if text is not None:
        entry["text"] = text
    if index in undone:
        entry["taken_back"] = True
    return entry


def take_back_view(table: Table, viewer: int, names: list[str]) -> dict[str, Any] | None:
    """The take-back asked for now, if any, its move told as ``viewer`` saw it."""
    request = open_request(table)
    if request is None:
        return None
    move = last_standing(reversed(table.log))
    assert move is not None  # (a request is open only while the asker's move stands)
    return {
        "seat": request["seat"],
        "index": move.index,
        "move": said(move, move.seen[viewer], names),
        "accepted": request["accepted"],
        "waiting": waiting_for(table, request),
    }


def rematch_of(record: StoredGame) -> dict[str, Any] | None:
    """The game that follows this one, and where each seat sits there."""
    if record.rematch is None:
        return None
    n = len(record.seats)
    return {"id": record.rematch, "seats": [rematch_seat(seat, n) for seat in range(n)]}


def public_seats(record: StoredGame) -> list[dict[str, Any]]:
    return [
        {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name, "joined": s.joined}
        for s in record.seats
    ]


def refuse_local_only(game_name: str, params: dict[str, Any]) -> None:
    """A parameter naming a file on the server (a board file) is not for players to set."""
    declared = game_class(game_name).parameters
    for name, value in params.items():
        param = declared.get(name)
        if param is not None and param.local_only and value != param.default:
            raise ValueError(
                f"parameter {name!r} of {game_name} names a file on the server: "
                "it cannot be set from the browser"
            )
