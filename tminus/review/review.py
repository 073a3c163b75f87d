"""The review: every decision judged by the best judge that covers it."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tminus.core.game import Game, State
from tminus.review.grading import SIGNIFICANT, grade
from tminus.review.judges import Estimate, Judge, judge_for, missing_table_note
from tminus.review.playouts import FIRST_ROUND, MAX_SAMPLES, PRECISION, Playouts, Sampling


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
    judges: list[Judge],
    state: State,
    actions: list[int],
    keep: Sequence[int] = (),
    deadline: float | None = None,
) -> tuple[dict[int, list[float]], Judge]:
    """The samples of the first judge that covers ``state`` (the last, playouts, always
    does), and that judge."""
    for judge in judges:
        samples = judge.values(state, actions, keep=keep, deadline=deadline)
        if samples is not None:
            return samples, judge
    raise RuntimeError("no judge covers this position")  # pragma: no cover


def finalists(samples: dict[int, list[float]]) -> list[int]:
    """The candidates played in every world: those a race dropped as worse have fewer."""
    most = max(len(v) for v in samples.values())
    return [a for a, v in samples.items() if len(v) == most]


def move_review(
    state: State,
    index: int,
    action: int,
    samples: dict[int, list[float]],
    judge: Judge,
    names: list[str],
) -> MoveReview:
    """``action`` played in ``state`` judged from ``samples`` of each move's value; moves
    are named as their buttons say them (the mover's own moves: nothing hidden from them)."""
    means = {a: float(np.mean(v)) for a, v in samples.items()}
    best = max(finalists(samples), key=lambda a: (means[a], a == action))  # ties: the played
    loss = Estimate.of(np.subtract(samples[best], samples[action]))
    return MoveReview(
        index=index,
        seat=state.current_player(),
        played=action,
        played_text=state.move_label(action, names),
        best=best,
        best_text=state.move_label(best, names),
        before=Estimate.of(samples[best]),
        after=Estimate.of(samples[action]),
        loss=loss,
        exact=judge.exact,
        grade=grade(loss.mean, loss.error),
    )


Progress = Callable[[int, int], None]  # (decisions judged, decisions in all)


def decisions(
    game: Game, history: list[int], reviewed: Callable[[State], bool]
) -> list[tuple[int, State, int]]:
    """The decisions a review judges, as (place in ``history``, the position, the move
    played): a choice of more than one move by a seat it reviews."""
    state = game.new_initial_state()
    found = []
    for index, action in enumerate(history):
        if not state.is_chance_node() and reviewed(state) and len(state.legal_actions()) > 1:
            found.append((index, state.clone(), action))
        state.apply_action(action)
    return found


def _review(
    game: Game,
    history: list[int],
    names: list[str],
    viewer: int | None,
    judges: list[Judge],
    reviewed: Callable[[State], bool],
    budget: float | None = None,
    progress: Progress | None = None,
    judged: Callable[[MoveReview], None] | None = None,
) -> Review:
    """Exact judges first, each decision on its own; the playouts then sample every other
    decision together (``Playouts.sample``) until each is precise or ``budget`` seconds
    have passed. ``judged`` is given each move's review as soon as it is made (not in the
    order of the game)."""
    found = decisions(game, history, reviewed)
    at = {index: (state, action) for index, state, action in found}
    ends = time.monotonic() + budget if budget is not None else None
    *exact, playouts = judges
    assert isinstance(playouts, Playouts)  # (judges_for puts them last)
    made: dict[int, MoveReview] = {}
    judge_names: dict[int, str] = {}

    def verdict(index: int, values: dict[int, list[float]], judge: Judge) -> None:
        state, action = at[index]
        made[index] = move_review(state, index, action, values, judge, names)
        judge_names[index] = judge.name
        if judged is not None:
            judged(made[index])
        if progress is not None:
            progress(len(made), len(found))

    if progress is not None:
        progress(0, len(found))
    sampling = []
    for index, state, action in found:
        legal = state.legal_actions()
        for judge in exact:
            values = judge.values(state, legal)
            if values is not None:
                verdict(index, values, judge)
                break
        else:
            sampling.append(Sampling(state, legal, (action,)))
    # (a decision's ``where``, its place in the history, is its index here)
    playouts.sample(sampling, ends, finished=lambda d: verdict(d.where, d.values, playouts))
    moves = [made[index] for index, _, _ in found]
    used = list(dict.fromkeys(judge_names[index] for index, _, _ in found))
    return Review(game.name, dict(game.params), names, moves, viewer, used)


def judges_for(
    game: Game,
    samples: int,
    seed: int,
    viewer: int | None,
    table: Any = None,
    precision: float | None = PRECISION,
    max_samples: int = MAX_SAMPLES,
) -> list[Judge]:
    """The exact judge first where there is one, then playouts (``precision=None``:
    exactly ``samples`` a move; else at most ``max_samples`` worlds a decision)."""
    exact = judge_for(game, table)
    playouts = Playouts(
        game, samples=samples, seed=seed, seat=viewer, precision=precision, max_samples=max_samples
    )
    return [exact, playouts] if exact is not None else [playouts]


def review_game(
    game: Game,
    history: list[int],
    names: list[str] | None = None,
    samples: int = FIRST_ROUND,
    seed: int = 0,
    table: Any = None,
    budget: float | None = None,
    progress: Progress | None = None,
    judged: Callable[[MoveReview], None] | None = None,
) -> Review:
    """After the end: every decision of every player, judged with everything known.

    ``samples``: worlds in a decision's first round of playouts (more follow until each
    value is within ± 3 points); ``budget``: seconds for the whole review; ``progress``:
    called with (decisions judged, decisions in all); ``judged``: given each move's review
    as soon as it is made; ``table``: a Sputnik endgame table to use instead of the cached
    one (tests)."""
    names = names or [f"Player {s + 1}" for s in range(game.num_players)]
    judges = judges_for(game, samples, seed, None, table)
    everything = lambda state: True  # noqa: E731
    review = _review(game, history, names, None, judges, everything, budget, progress, judged)
    missing = missing_table_note(game, table)
    if missing is not None:
        review.judges.append(missing)
    return review


def review_seat(
    state: State,
    seat: int,
    names: list[str] | None = None,
    samples: int = FIRST_ROUND,
    seed: int = 0,
    table: Any = None,
    budget: float | None = None,
) -> Review:
    """During play: ``seat``'s own decisions so far, judged from what ``seat`` knew.

    Exact judges only read perfect-information games; playouts start from worlds redrawn
    from ``seat``'s information set; move names are as ``seat`` sees them."""
    state.check_seat(seat)
    game = state.game
    names = names or [f"Player {s + 1}" for s in range(game.num_players)]
    judges = judges_for(game, samples, seed, seat, table)
    mine = lambda s: s.current_player() == seat  # noqa: E731
    return _review(game, state.history(), names, seat, judges, mine, budget)


def review_position(
    state: State,
    seat: int,
    samples: int = FIRST_ROUND,
    seed: int = 0,
    table: Any = None,
    budget: float | None = None,
) -> dict[int, Estimate]:
    """During play: ``seat``'s chance to win after each of its legal moves now (the hint:
    the best is the highest), from ``seat``'s information only; within ``budget`` seconds.
    Moves the race dropped as clearly worse than the best are left out."""
    found = compared_to_best(state, seat, samples, seed, table, budget)
    return {action: value for action, value, _ in found}


def about_equal(found: list[tuple[int, Estimate, Estimate]]) -> list[int]:
    """The moves of ``compared_to_best`` that the best does not beat by more than two
    standard errors of their paired difference (the best first): one move when the best is
    shown to be best, several when they are about equal."""
    return [action for action, _, short in found if short.mean <= SIGNIFICANT * short.error]


def compared_to_best(
    state: State,
    seat: int,
    samples: int = FIRST_ROUND,
    seed: int = 0,
    table: Any = None,
    budget: float | None = None,
    max_samples: int = MAX_SAMPLES,
) -> list[tuple[int, Estimate, Estimate]]:
    """The hint's evidence: ``seat``'s moves still in the race, best first, each with its
    value and its shortfall from the best (paired on the same worlds: the best's own is 0),
    sampled for ``budget`` seconds at most and in ``max_samples`` worlds at most."""
    state.check_seat(seat)
    if state.current_player() != seat:
        raise ValueError(f"seat {seat} is not to move")
    legal = state.legal_actions()
    judges = judges_for(state.game, samples, seed, seat, table, max_samples=max_samples)
    deadline = time.monotonic() + budget if budget is not None else None
    found, _ = first_verdict(judges, state, legal, deadline=deadline)
    kept = sorted(finalists(found), key=lambda a: (-float(np.mean(found[a])), a))
    best = kept[0]
    return [
        (a, Estimate.of(found[a]), Estimate.of(np.subtract(found[best], found[a]))) for a in kept
    ]
