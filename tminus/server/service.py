"""The game service: create, join, start, move, resign, rebuild after a restart, export.

Synchronous and free of the web: the app (``tminus.server.app``) wraps it with locks,
WebSockets and bot scheduling. Every accepted action is committed to the store before the
method returns, and so before anyone is told of it.
"""

from __future__ import annotations

import hmac
import re
import secrets
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tminus.agents.base import Agent
from tminus.agents.registry import list_agents, make_agent
from tminus.core.game import CHANCE, Game, State
from tminus.core.registry import game_class, list_games, load_game
from tminus.server.fairness import (
    DRAW_RULE,
    EXPORT_FORMAT,
    EXPORT_VERSION,
    commitment,
    draw_chance,
    new_seed,
)
from tminus.server.storage import (
    BOT,
    FINISHED,
    PERSON,
    PLAYING,
    WAITING,
    Seat,
    Store,
    StoredGame,
    now,
)

SPECTATOR = None
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

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def bot_levels(game_name: str) -> list[dict[str, str]]:
    """The bots a lobby offers for a game, weakest first: (spec, label)."""
    agents = list_agents(game_name)
    levels = [{"spec": "random", "label": "Random (easy)"}]
    if "greedy" in agents:
        levels.append({"spec": "greedy", "label": "Greedy (medium)"})
    search = "mcts" if "mcts" in agents else "ismcts" if "ismcts" in agents else None
    if search:
        levels.append({"spec": f"{search}:simulations=100", "label": "Search (hard)"})
        levels.append({"spec": f"{search}:simulations=400", "label": "Deep search (expert)"})
    if "solver" in agents:
        levels.append({"spec": "solver", "label": "Solver"})
    return levels


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
                "params": params,
                "bots": bot_levels(name),
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
    # (Both narrated with seat marks for names: see ``put_names``.)


@dataclass
class Table:
    """A live game: its stored record, its state rebuilt from the log, and its bots."""

    record: StoredGame
    game: Game
    state: State
    log: list[LogEntry] = field(default_factory=list)
    bots: dict[int, Agent] = field(default_factory=dict)
    # Changes not yet committed: (index, action, seat) rows, and whether the status changed.
    unsaved: list[tuple[int, int, int]] = field(default_factory=list)
    status_changed: bool = False

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
        seat = self.state.current_player()
        if self.status == PLAYING and seat >= 0 and self.record.seats[seat].kind == BOT:
            return seat
        return None


class GameService:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}

    # -- creating and finding games --------------------------------------------------------
    def create(self, game_name: str, params: dict[str, Any], seats: list[dict[str, Any]]) -> Table:
        """A new game; ``seats`` lists {"kind": "person"|"bot", "bot": spec, "name": ...}."""
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
        offered = {level["spec"] for level in bot_levels(game_name)}
        made = []
        for number, seat in enumerate(seats):
            kind = seat.get("kind")
            name = str(seat.get("name") or "").strip()[:40]
            if kind == PERSON:
                name = name or f"Player {number + 1}"
                made.append(Seat(number, PERSON, None, secrets.token_urlsafe(24), name))
            elif kind == BOT:
                spec = seat.get("bot") or "random"
                if spec not in offered:
                    raise GameError(
                        "bad_request",
                        f"seat {number}: no bot {spec!r} for {game_name}; bots: "
                        + ", ".join(sorted(offered)),
                    )
                name = name or f"Bot {number + 1} ({spec})"
                made.append(Seat(number, BOT, spec, None, name, joined=True))
            else:
                raise GameError("bad_request", f"seat {number}: kind must be 'person' or 'bot'")
        seed = new_seed()
        record = StoredGame(
            id=secrets.token_hex(8), game=game_name, params=dict(game.params),
            commitment=commitment(seed), seed=seed, status=WAITING, seats=made,
            actions=[], result=None, created=now(),
        )  # fmt: skip
        self.store.create(record)
        table = self._table(record, game)
        self.tables[record.id] = table
        if all(s.kind == BOT for s in made):
            with self._saving(table):
                self._start(table)
        return table

    def get(self, game_id: str) -> Table:
        """The live game ``game_id``, rebuilt from the store by replay if not in memory."""
        table = self.tables.get(game_id)
        if table is not None:
            return table
        record = self.store.load(game_id) if isinstance(game_id, str) else None
        if record is None:
            raise GameError("not_found", f"no game {game_id!r}")
        table = self._table(record, load_game(record.game, **record.params))
        for action in record.actions:
            self._apply(table, action, store=False)
        self.tables[game_id] = table
        return table

    def forget(self, game_id: str) -> None:
        """Drop a game from memory (it is rebuilt from the store when asked for again)."""
        self.tables.pop(game_id, None)

    def recent(self, limit: int) -> list[dict[str, Any]]:
        """Summaries of the newest games, from memory or the store (without replaying)."""
        summaries = []
        for game_id in self.store.ids(limit=limit):
            table = self.tables.get(game_id)
            record = table.record if table else self.store.load(game_id)
            moves = table.move_number if table else len(record.actions)
            summaries.append(self._summary(record, moves))
        return summaries

    def resume_all(self) -> list[Table]:
        """Rebuild every unfinished game (after a restart) and, if needed, finish its chance."""
        tables = [self.get(game_id) for game_id in self.store.ids((WAITING, PLAYING))]
        for table in tables:
            if table.status == PLAYING:
                with self._saving(table):
                    self._advance(table)
        return tables

    def _table(self, record: StoredGame, game: Game) -> Table:
        table = Table(record=record, game=game, state=game.new_initial_state())
        for seat in record.seats:
            if seat.kind == BOT:
                table.bots[seat.seat] = make_agent(seat.bot, game, seed=secrets.randbits(64))
        return table

    # -- seats -----------------------------------------------------------------------------
    def authorize(self, table: Table, seat: Any, token: Any) -> int:
        """The seat if ``token`` is its token; GameError otherwise."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise GameError("bad_request", f"a seat is a number, not {seat!r}")
        if not 0 <= seat < len(table.record.seats):
            raise GameError(
                "unknown_seat",
                f"seat {seat} does not exist: seats are 0 to {len(table.record.seats) - 1}",
            )
        expected = table.record.seats[seat].token
        if expected is None:
            raise GameError("forbidden", f"seat {seat} is played by a bot")
        if not isinstance(token, str) or not hmac.compare_digest(expected, token):
            raise GameError("forbidden", f"wrong token for seat {seat}")
        return seat

    def join(self, table: Table, seat: int, token: str, name: str | None = None) -> None:
        """A person takes their seat; the game starts once every person has joined."""
        self.authorize(table, seat, token)
        entry = table.record.seats[seat]
        name = (name or "").strip()[:40] or None
        if not entry.joined or (name and name != entry.name):
            self.store.set_joined(table.id, seat, name)
            entry.joined = True
            entry.name = name or entry.name
        if table.status == WAITING and all(s.joined for s in table.record.seats):
            with self._saving(table):
                self._start(table)

    def start(self, table: Table, seat: int, token: str) -> None:
        """Start now, without waiting for the persons who have not joined yet."""
        self.authorize(table, seat, token)
        if table.status != WAITING:
            raise GameError("bad_state", f"the game has already {self._status_words(table)}")
        with self._saving(table):
            self._start(table)

    def _start(self, table: Table) -> None:
        table.record.status = PLAYING
        table.status_changed = True
        self._advance(table)

    @contextmanager
    def _saving(self, table: Table):
        """Commit what the block changed, in one transaction, before anyone is told.

        If the commit fails, the game is dropped from memory: the next request rebuilds it
        from the store, so memory is never ahead of what is stored.
        """
        try:
            yield
            if table.unsaved or table.status_changed:
                status = table.record.status if table.status_changed else None
                self.store.save(table.id, table.unsaved, status, table.record.result)
        except GameError:
            raise
        except Exception:
            self.tables.pop(table.id, None)
            raise
        finally:
            table.unsaved = []
            table.status_changed = False

    # -- moves -----------------------------------------------------------------------------
    def move(self, table: Table, seat: int, token: str, move_number: Any, action: Any) -> None:
        """A person's move, made for the position after ``move_number`` actions."""
        self.authorize(table, seat, token)
        self._check_move(table, seat, move_number, action)
        with self._saving(table):
            self._apply(table, action)
            self._advance(table)

    def bot_move(self, table: Table, seat: int, move_number: int, action: int) -> bool:
        """Apply a bot's move if the position is still the one it thought about."""
        if table.bot_to_move() != seat or move_number != table.move_number:
            return False
        self._check_move(table, seat, move_number, action)
        with self._saving(table):
            self._apply(table, action)
            self._advance(table)
        return True

    def _check_move(self, table: Table, seat: int, move_number: Any, action: Any) -> None:
        if table.status != PLAYING:
            raise GameError("bad_state", f"no moves now: the game has {self._status_words(table)}")
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
            who = f"seat {to_move}" if to_move >= 0 else "chance"
            raise GameError("not_your_turn", f"not your turn: it is {who}'s turn")
        is_int = isinstance(action, int) and not isinstance(action, bool)
        if not (is_int and table.state.is_legal(action)):
            legal = ", ".join(
                f"{a} ({table.state.action_to_string(a)})" for a in table.state.legal_actions()
            )
            raise GameError("illegal", f"illegal move {action!r}; legal moves: {legal}")

    def resign(self, table: Table, seat: int, token: str) -> None:
        """A person gives up: the game ends, the others win together."""
        self.authorize(table, seat, token)
        if table.status == FINISHED:
            raise GameError("bad_state", "the game is already over")
        others = [s for s in range(len(table.record.seats)) if s != seat]
        with self._saving(table):
            self._finish(table, {"reason": "resigned", "resigned": seat, "winners": others})

    def _apply(self, table: Table, action: int, store: bool = True) -> None:
        state = table.state
        actor = state.current_player()
        marks = seat_marks(table.game.num_players)
        viewers = [*range(table.game.num_players), None]
        seen = [state.narrate(action, marks, v) for v in viewers]
        text = state.narrate(action, marks, reveal=True)
        index = len(table.log)
        if store:
            table.unsaved.append((index, action, actor))
        state.apply_action(action)
        table.log.append(LogEntry(index, actor, action, text, seen))

    def _advance(self, table: Table) -> None:
        """Draw chance outcomes from the seed until a player must move or the game ends."""
        state = table.state
        while state.current_player() == CHANCE:
            outcome = draw_chance(table.record.seed, len(table.log), state.chance_outcomes())
            self._apply(table, outcome)
        if state.is_terminal() and table.status != FINISHED:
            returns = state.returns()
            best = max(returns)
            winners = [s for s, r in enumerate(returns) if r == best] if best > min(returns) else []
            reason = "turn cap" if state.ended_by_turn_cap() else "game over"
            self._finish(table, {"reason": reason, "returns": returns, "winners": winners})

    def _finish(self, table: Table, result: dict[str, Any]) -> None:
        table.record.status = FINISHED
        table.record.result = result
        table.status_changed = True

    @staticmethod
    def _status_words(table: Table) -> str:
        return {WAITING: "not started", PLAYING: "started", FINISHED: "ended"}[table.status]

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
                }
                for a in state.legal_actions()
            ]
        return {
            "type": "state",
            "id": record.id,
            "game": record.game,
            "title": game_class(record.game).title,
            "params": record.params,
            "status": record.status,
            "seat": seat,
            "move_number": table.move_number,
            "to_move": to_move if to_move >= 0 and record.status == PLAYING else None,
            "observation": state.public_observation() if seat is None else state.observation(seat),
            "legal": legal,
            "log_from": log_from,
            "log": [
                {"index": e.index, "actor": e.actor, "text": put_names(e.seen[viewer], names)}
                for e in table.log[log_from:]
            ],
            "seats": self.public_seats(table),
            "commitment": record.commitment,
            "seed": record.seed if record.status == FINISHED else None,
            "result": record.result,
        }

    @staticmethod
    def names(table: Table) -> list[str]:
        """What people call each seat: the names they chose ("Player 2" if they did not)."""
        return [s.name for s in table.record.seats]

    @staticmethod
    def public_seats(game: Table | StoredGame) -> list[dict[str, Any]]:
        record = game.record if isinstance(game, Table) else game
        return [
            {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name, "joined": s.joined}
            for s in record.seats
        ]

    def summary(self, table: Table) -> dict[str, Any]:
        return self._summary(table.record, table.move_number)

    def _summary(self, record: StoredGame, move_number: int) -> dict[str, Any]:
        return {
            "id": record.id,
            "game": record.game,
            "title": game_class(record.game).title,
            "params": record.params,
            "status": record.status,
            "seats": self.public_seats(record),
            "move_number": move_number,
            "commitment": record.commitment,
            "seed": record.seed if record.status == FINISHED else None,
            "result": record.result,
            "created": record.created.isoformat(),
        }

    def export(self, table: Table) -> dict[str, Any]:
        """The game for ``tminus verify``: the seed only once the game is over."""
        finished = table.status == FINISHED
        names = self.names(table)
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "id": table.id,
            "game": table.record.game,
            "params": table.record.params,
            "status": table.status,
            "result": table.record.result,
            "seats": [
                {k: v for k, v in s.items() if k != "joined"} for s in self.public_seats(table)
            ],
            "commitment": table.record.commitment,
            "seed": table.record.seed if finished else None,
            "draw_rule": DRAW_RULE,
            # Before the end only what a spectator may see: no action ids (a card dealt is
            # an id), the spectator's strings.
            "actions": [
                {
                    "index": e.index,
                    "actor": e.actor,
                    "action": e.action,
                    "text": put_names(e.text, names),
                }
                if finished
                else {"index": e.index, "actor": e.actor, "text": put_names(e.seen[-1], names)}
                for e in table.log
            ],
        }

    def replay(self, table: Table) -> dict[str, Any]:
        """A finished game step by step: every view, for every seat, after every action."""
        if table.status != FINISHED:
            raise GameError("bad_state", "a replay is shown once the game is over")
        state = table.game.new_initial_state()
        n = table.game.num_players
        names = self.names(table)

        def frame(entry: LogEntry | None) -> dict[str, Any]:
            return {
                "index": None if entry is None else entry.index,
                "actor": None if entry is None else entry.actor,
                "text": None if entry is None else put_names(entry.text, names),
                "public": state.public_observation(),
                "seats": [state.observation(s) for s in range(n)],
            }

        frames = [frame(None)]
        for entry in table.log:
            state.apply_action(entry.action)
            frames.append(frame(entry))
        return {**self.summary(table), "frames": frames}


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
