"""A change to a game: worked out on a draft, committed, then put in memory and told.

The store is the one truth and the games in memory are a cache of it. A change (a move, the
chance outcomes after it, the end, a take-back) is worked out on a ``Draft``, a copy of the
game's state, with the functions here; ``Pipeline.commit`` stores it (the store's primary key
(game, index) claims each place in the log), and only then puts it in memory and tells those
listening. A claim lost to another writer is a ``stale`` move; a store that cannot be used
is an ``unavailable`` error, and in both cases nothing changed. The same functions replay a
stored log (``rebuild``) and apply what other processes committed (``replication``).
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

from tminus.core.game import CHANCE
from tminus.core.registry import load_game
from tminus.server.catalog import rules_version_of, title_of
from tminus.server.fairness import draw_chance
from tminus.server.memory import Memory
from tminus.server.storage import FINISHED, ClaimLost, Save, Store, StoredGame
from tminus.server.tables import (
    Draft,
    GameError,
    LogEntry,
    Table,
    Unreplayable,
    await_store,
    seat_marks,
    to_move_of,
    whose_turn,
)
from tminus.server.takeback import TAKE_BACK, last_standing, without_last

if TYPE_CHECKING:  # (replication applies drafts: it imports this module)
    from tminus.server.replication import Replicator

T = TypeVar("T")


# -- drafts: a change worked out on a copy -------------------------------------------------
def draft_of(table: Table) -> Draft:
    return Draft(table.state.clone(), table.move_number, table.status, taken=table.taken)


def apply(
    table: Table,
    draft: Draft,
    action: int,
    note: str | None = None,
    estimate: float | None = None,
) -> None:
    """Play ``action`` on the draft and log it. A bot's ``estimate`` is kept only where
    nothing is hidden: elsewhere it would tell what the bot holds."""
    if action == TAKE_BACK:
        return take_back_row(table, draft, note)
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


def advance(table: Table, draft: Draft) -> None:
    """Draw chance outcomes from the seed until a player must move or the game ends."""
    state = draft.state
    while state.current_player() == CHANCE:
        record = table.record
        outcome = draw_chance(
            record.seed, draft.standing, state.chance_outcomes(), record.draw_rule
        )
        apply(table, draft, outcome)
    if state.is_terminal() and table.status != FINISHED:
        reason = "turn cap" if state.ended_by_turn_cap() else "game over"
        result = {
            "reason": reason, "returns": state.returns(), "winners": state.winners(),
            "placings": state.placings(),
        }  # fmt: skip
        finish(draft, result)


def finish(draft: Draft, result: dict[str, Any]) -> None:
    draft.status = FINISHED
    draft.result = result


def take_back_row(table: Table, draft: Draft, note: str | None = None) -> None:
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


def save_of(table: Table, draft: Draft) -> Save:
    """What the store commits of a draft."""
    rows = [(e.index, e.action, e.actor, e.note, e.estimate) for e in draft.entries]
    save = Save(table.id, draft.start, rows, draft.status, draft.result, draft.expect)
    save.clocked = table.record.clock is not None
    turn = whose_turn(draft.state, draft.status or table.status)
    if turn != whose_turn(table.state, table.status):
        save.to_move = turn
    return save


def rebuild(record: StoredGame) -> Table:
    """Replay the stored log. A log that no longer replays raises ``Unreplayable``."""
    try:
        game = load_game(record.game, **record.params)
        table = Table(record=record, game=game, state=game.new_initial_state())
        draft = Draft(table.state, 0, record.status)
        moves = zip(record.actions, record.notes, record.estimates, strict=True)
        for action, note, estimate in moves:
            apply(table, draft, action, note, estimate)
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


# -- committed, then put in memory ---------------------------------------------------------
class Pipeline:
    """Commits drafts to the store, then puts them in memory and tells those listening."""

    def __init__(self, store: Store, memory: Memory, replicator: Replicator) -> None:
        self.store = store
        self.memory = memory
        self.replicator = replicator  # (brings a copy up to date after a lost claim)

    async def commit(self, table: Table, draft: Draft) -> None:
        """Commit the draft (its log rows claim their places), then put it in memory."""
        if not draft.entries and draft.status is None:
            return
        save = save_of(table, draft)
        await self.claim(table, self.store.save(save))
        if save.clocks is not None:  # (the turn passed: the store charged the clocks)
            table.record.clocks = save.clocks
        self.put(table, draft)

    async def claim(self, table: Table, work: Awaitable[T]) -> T:
        """Await a write that claims places in the log. A claim lost to another writer is a
        ``stale`` error (nothing changed), and the copy is brought up to date."""
        try:
            return await await_store(work)
        except ClaimLost:
            # The store is ahead of this copy: those watching get the game as stored.
            if await await_store(self.replicator.catch_up_locked(table)):
                self.memory.changed(table)
            raise GameError(
                "stale", "stale move: another move was accepted first; here is the game now"
            ) from None

    def put(self, table: Table, draft: Draft) -> None:
        """A committed draft, put in memory; those watching are told."""
        table.state, table.taken = draft.state, draft.taken
        table.log.extend(draft.entries)
        table.record.moves = table.move_number
        if draft.status is not None:
            table.record.status = draft.status
            table.record.result = draft.result or table.record.result
        table.record.to_move = to_move_of(table)
        self.memory.changed(table)
