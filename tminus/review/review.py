"""The review: every decision judged by the best judge that covers it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tminus.core.game import Game, State
from tminus.review.grading import grade
from tminus.review.judges import Estimate, Judge, Playouts, judge_for


@dataclass(frozen=True)
class MoveReview:
    index: int  # the action's place in the history (chance outcomes counted)
    seat: int
    played: int
    played_text: str
    best: int
    best_text: str
    before: Estimate  # the position's value: its best move's
    after: Estimate  # after the move played
    loss: Estimate  # before - after (its error from the paired samples)
    exact: bool
    grade: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seat": self.seat,
            "played": self.played,
            "played_text": self.played_text,
            "best": self.best,
            "best_text": self.best_text,
            "before": self.before.mean,
            "after": self.after.mean,
            "loss": self.loss.mean,
            "error": self.loss.error,
            "exact": self.exact,
            "grade": self.grade,
        }


@dataclass
class Review:
    game: str
    params: dict[str, Any]
    names: list[str]
    moves: list[MoveReview]
    viewer: int | None  # None: after the end, with everything known
    judges: list[str] = field(default_factory=list)  # how the values were found

    @property
    def knowledge(self) -> str:
        if self.viewer is None:
            return "After the end: this review uses everything, hidden cards and draws included."
        return (
            f"During play, for {self.names[self.viewer]}: this review uses only what "
            f"{self.names[self.viewer]} can see."
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "params": self.params,
            "names": self.names,
            "viewer": self.viewer,
            "knowledge": self.knowledge,
            "judges": self.judges,
            "moves": [m.to_dict() for m in self.moves],
        }


def first_verdict(
    judges: list[Judge], state: State, actions: list[int]
) -> tuple[dict[int, list[float]], Judge]:
    """The samples of the first judge that covers ``state`` (the last, playouts, always
    does), and that judge."""
    for judge in judges:
        samples = judge.values(state, actions)
        if samples is not None:
            return samples, judge
    raise RuntimeError("no judge covers this position")  # pragma: no cover


def judge_decision(state: State, action: int, judges: list[Judge], names: list[str]) -> tuple:
    """(MoveReview fields, the judge used) for ``action`` played in ``state``; moves are
    named as their buttons say them (the mover's own moves: nothing hidden from them)."""
    legal = state.legal_actions()
    samples, judge = first_verdict(judges, state, legal)
    means = {a: float(np.mean(v)) for a, v in samples.items()}
    best = max(legal, key=lambda a: (means[a], a == action))  # ties: the move played
    differences = np.subtract(samples[best], samples[action])
    loss = Estimate.of(differences)
    seat = state.current_player()

    def text(a: int) -> str:
        return state.move_label(a, names)

    fields = dict(
        seat=seat,
        played=action,
        played_text=text(action),
        best=best,
        best_text=text(best),
        before=Estimate.of(samples[best]),
        after=Estimate.of(samples[action]),
        loss=loss,
        exact=judge.exact,
        grade=grade(loss.mean, loss.error),
    )
    return fields, judge


def _review(
    game: Game,
    history: list[int],
    names: list[str],
    viewer: int | None,
    judges: list[Judge],
    reviewed: Callable[[State], bool],
) -> Review:
    state = game.new_initial_state()
    moves, used = [], []
    for index, action in enumerate(history):
        if not state.is_chance_node() and reviewed(state) and len(state.legal_actions()) > 1:
            fields, judge = judge_decision(state, action, judges, names)
            moves.append(MoveReview(index=index, **fields))
            if judge.name not in used:
                used.append(judge.name)
        state.apply_action(action)
    return Review(game.name, dict(game.params), names, moves, viewer, used)


def judges_for(
    game: Game, samples: int, seed: int, viewer: int | None, table: Any = None
) -> list[Judge]:
    """The exact judge first where there is one, then playouts."""
    exact = judge_for(game, table)
    playouts = Playouts(game, samples=samples, seed=seed, seat=viewer)
    return [exact, playouts] if exact is not None else [playouts]


def review_game(
    game: Game,
    history: list[int],
    names: list[str] | None = None,
    samples: int = 32,
    seed: int = 0,
    table: Any = None,
) -> Review:
    """After the end: every decision of every player, judged with everything known.

    ``table``: a Sputnik endgame table to use instead of the cached one (tests)."""
    names = names or [f"Player {s + 1}" for s in range(game.num_players)]
    judges = judges_for(game, samples, seed, None, table)
    return _review(game, history, names, None, judges, lambda state: True)


def review_seat(
    state: State,
    seat: int,
    names: list[str] | None = None,
    samples: int = 32,
    seed: int = 0,
    table: Any = None,
) -> Review:
    """During play: ``seat``'s own decisions so far, judged from what ``seat`` knew.

    Exact judges only read perfect-information games; playouts start from worlds redrawn
    from ``seat``'s information set; move names are as ``seat`` sees them."""
    state.check_seat(seat)
    game = state.game
    names = names or [f"Player {s + 1}" for s in range(game.num_players)]
    judges = judges_for(game, samples, seed, seat, table)
    return _review(game, state.history(), names, seat, judges, lambda s: s.current_player() == seat)


def review_position(
    state: State, seat: int, samples: int = 32, seed: int = 0, table: Any = None
) -> dict[int, Estimate]:
    """During play: ``seat``'s chance to win after each of its legal moves now (the hint:
    the best is the highest), from ``seat``'s information only."""
    state.check_seat(seat)
    if state.current_player() != seat:
        raise ValueError(f"seat {seat} is not to move")
    legal = state.legal_actions()
    judges = judges_for(state.game, samples, seed, seat, table)
    samples_by_move, _ = first_verdict(judges, state, legal)
    return {a: Estimate.of(v) for a, v in samples_by_move.items()}
