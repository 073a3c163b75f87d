"""Puzzles at the server (``tminus.puzzles`` makes and proves them): the shipped sets, each
puzzle's position as its seat sees it (the table's own view, so any board draws it), and a
try answered with the exact values of every move.

A try moves the puzzle's rating as a game moves a player's (Elo, ``store_puzzles``): a
puzzle often failed climbs. The solver's own puzzle rating is kept by their browser and
sent with each try; a signed-in person's first try at each puzzle is kept for their account.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from tminus.core.registry import load_game
from tminus.puzzles import Puzzle, load_set, shipped_games, verdict
from tminus.server.catalog import printed_board, title_of
from tminus.server.pipeline import rebuild
from tminus.server.storage import PERSON, PLAYING, Seat, Store, StoredGame, now
from tminus.server.store_puzzles import expected_score
from tminus.server.tables import GameError
from tminus.server.views import view

SOLVER_K = 32.0  # how far one try moves the solver's rating (a new player's K)
RATINGS = (100.0, 3500.0)  # the solver ratings a browser may send


class PuzzleBook:
    """The shipped puzzles, read once."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @cached_property
    def puzzles(self) -> dict[str, Puzzle]:
        return {p.id: p for game in shipped_games() for p in load_set(game)}

    def get(self, puzzle_id: str) -> Puzzle:
        puzzle = self.puzzles.get(puzzle_id)
        if puzzle is None:
            raise GameError("not_found", f"no puzzle {puzzle_id[:40]!r}")
        return puzzle

    async def listing(self, game: str) -> list[dict[str, Any]]:
        """A game's puzzles, easiest first, as they have proved so far."""
        if game not in shipped_games():
            raise GameError("bad_request", f"no puzzles for {game[:64]!r}; games with "
                            f"puzzles: {', '.join(shipped_games())}")  # fmt: skip
        chosen = [p for p in self.puzzles.values() if p.game == game]
        rated = await self.store.puzzle_ratings([p.id for p in chosen])
        lines = []
        for puzzle in chosen:
            rating, tries, solved = rated.get(puzzle.id, (puzzle.rating, 0, 0))
            lines.append({**summary(puzzle), "rating": round(rating), "tries": tries,
                          "solved": solved})  # fmt: skip
        return sorted(lines, key=lambda line: (line["rating"], line["id"]))

    async def show(self, puzzle_id: str) -> dict[str, Any]:
        """A puzzle and its position as the seat to move sees it (no answer, no values)."""
        puzzle = self.get(puzzle_id)
        rated = await self.store.puzzle_ratings([puzzle.id])
        rating = rated.get(puzzle.id, (puzzle.rating, 0, 0))[0]
        game = load_game(puzzle.game, **puzzle.params)
        return {**summary(puzzle), "rating": round(rating), "state": position(puzzle),
                "layout": printed_board(game)}  # fmt: skip

    async def answer(
        self, puzzle_id: str, action: Any, solver: float, account_id: str | None
    ) -> dict[str, Any]:
        """A try: right or wrong, every move's exact value, and both ratings moved."""
        puzzle = self.get(puzzle_id)
        if isinstance(action, bool) or not isinstance(action, int) or action not in puzzle.values:
            raise GameError("bad_request", f"{action!r} is not a move of this position; its "
                            f"moves: {', '.join(map(str, sorted(puzzle.values)))}")  # fmt: skip
        low, high = RATINGS
        if not low <= solver <= high:
            raise GameError("bad_request", f"a solver's rating is from {low:g} to {high:g}")
        solved = action == puzzle.answer
        before = (await self.store.puzzle_ratings([puzzle.id])).get(puzzle.id)
        start = puzzle.rating if before is None else before[0]
        rating = await self.store.try_puzzle(puzzle.id, puzzle.rating, solver, solved)
        if account_id is not None:
            await self.store.record_try(account_id, puzzle.id, solved)
        yours = solver + SOLVER_K * (float(solved) - expected_score(solver, start))
        return {
            "id": puzzle.id, "correct": solved, "answer": puzzle.answer,
            "answer_label": puzzle.moves.get(puzzle.answer, str(puzzle.answer)),
            "values": [{"action": m["action"], "label": m["move"], "value": m["value"],
                        "said": m["said"]} for m in verdict(puzzle, action)["moves"]],  # best first
            "margin": puzzle.margin, "kind": puzzle.kind, "source": dict(puzzle.source),
            "rating": round(rating), "your_rating": round(yours, 1),
        }  # fmt: skip


def summary(puzzle: Puzzle) -> dict[str, Any]:
    return {"id": puzzle.id, "game": puzzle.game, "title": title_of(puzzle.game),
            "kind": puzzle.kind, "prompt": puzzle.prompt, "params": dict(puzzle.params),
            "seat": puzzle.seat}  # fmt: skip


def position(puzzle: Puzzle) -> dict[str, Any]:
    """The table's state message for the puzzle's seat: its game replayed to the position."""
    players = load_game(puzzle.game, **puzzle.params).num_players
    names = ["You" if s == puzzle.seat else f"Player {s + 1}" for s in range(players)]
    record = StoredGame(
        id=puzzle.id, game=puzzle.game, params=dict(puzzle.params),
        rules_version=puzzle.rules_version, commitment="", seed="", status=PLAYING,
        seats=[Seat(s, PERSON, None, None, name, True) for s, name in enumerate(names)],
        actions=list(puzzle.history), result=None, created=now(),
        notes=[None] * len(puzzle.history), estimates=[None] * len(puzzle.history),
    )  # fmt: skip
    return view(rebuild(record), puzzle.seat)
