"""The judge of positions no solver covers: playouts, sampled until they are precise.

Each decision's moves are played out in worlds (the true position after the end, or deals
the viewing seat may imagine during play), every move in the same worlds (common random
numbers: their differences carry little of the luck of the deal). The worlds come in
rounds. After each round, a move stops being played when it is clearly worse than the best
(by ``RACE_Z`` standard errors of the paired difference) or, in a review, when it cannot be
better than the best by more than ``precision``; the move played is always kept (its value
is shown). A decision is done when each move still played has its difference from the best, and each
value shown (the best's, the move played's) is, within ± ``precision`` (95%) and, in a review, the
grade of the move played is settled (its loss clearly on one side of every threshold, ``settled``);
or when ``max_samples`` worlds are used, or when the time given runs out (the interval reached is
what the review shows).

Rounds of many decisions run together: on a batch engine a round costs about as much for a
thousand games as for one (the longest game sets the time), so a review plays all its
decisions at once, a round at a time (``sample``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from tminus.agents.registry import default_rollout, make_agent
from tminus.core.game import Game, State
from tminus.core.playout import ChanceStreams
from tminus.review.grading import GRADES, SIGNIFICANT
from tminus.review.judges import Estimate, share_of_win

PRECISION = 0.03  # the 95% interval a shown estimate is sampled down to: ± 3 points
Z95 = 1.96
RACE_Z = 3.0  # a move this many standard errors (of the difference) below the best drops
FIRST_ROUND = 8  # worlds in a decision's first round (a move all alike needs no more)
MAX_SAMPLES = 8192  # worlds a decision is given at most
SETTLE_Z = 2.0  # a grade is settled when the loss it rests on is this many errors from its edge
SETTLE_SAMPLES = 4096  # worlds a decision is given at most to settle its grade
ROWS = 1 << 18  # games in one batch round at most (about 100 MB for 3-2-1)


def cautious(samples: Sequence[float] | np.ndarray, low: float, high: float) -> Estimate:
    """An estimate to decide on when to stop sampling: the mean of ``samples``, with the
    error they would have with one more sample at each end of their range. A few worlds
    all alike (a position lost in each, two moves ending alike in each) have no spread and
    would look exact; so counted, the error shrinks only as the worlds come in."""
    padded = Estimate.of([*samples, low, high])
    return Estimate(float(np.mean(samples)), padded.error, len(samples))


def interval(samples: Sequence[float] | np.ndarray) -> float:
    """The half-width of the 95% interval of a chance to win sampled by ``samples``,
    cautiously (``cautious``)."""
    return Z95 * cautious(samples, 0.0, 1.0).error


@dataclass
class Sampling:
    """One decision's playouts so far."""

    state: State
    live: list[int]  # the moves still played
    keep: tuple[int, ...]  # moves whose values will be shown: never dropped
    values: dict[int, list[float]] = field(init=False)  # by move: its samples, world by world
    worlds: int = 0
    done: bool = False

    def __post_init__(self) -> None:
        self.values = {a: [] for a in self.live}
        self.mover = self.state.current_player()
        # Seeded by the position as the judging seat knows it, never by hidden parts.
        self.where = len(self.state.history())

    def best(self) -> int:
        return max(self.live, key=lambda a: (float(np.mean(self.values[a])), a in self.keep))

    def gap(self, action: int, best: int) -> Estimate:
        """How far ``action`` is below ``best``, paired world by world (``cautious``)."""
        return cautious(np.subtract(self.values[best], self.values[action]), -1.0, 1.0)


class Playouts:
    """Playouts by the game's batch rollout player on its batch engine where it has them
    (``GameManifest.batch_rollout``), else by ``rollout`` (the game's greedy player) on the
    reference engine. ``samples``: worlds in a decision's first round; ``precision=None``:
    exactly ``samples`` worlds a move, no race (the move-quality tool's fixed samples).

    ``seat=None`` (after the end) plays out the true state; a seat (during play) plays out
    worlds drawn from that seat's information set, ``state.resample_hidden(seat, ...)``.
    """

    exact = False

    def __init__(
        self,
        game: Game,
        samples: int = FIRST_ROUND,
        seed: int = 0,
        seat: int | None = None,
        rollout: str | None = None,
        precision: float | None = PRECISION,
        max_samples: int = MAX_SAMPLES,
    ) -> None:
        from tminus.review.batch_playouts import batch_rollout

        if samples < 2:
            raise ValueError("playouts need at least 2 samples for a standard error")
        if precision is not None and not 0 < precision < 1:
            raise ValueError(f"precision is a chance in (0, 1), not {precision}")
        self.game = game
        self.samples = samples
        self.seed = seed
        self.seat = seat
        self.precision = precision
        self.max_samples = max(samples, max_samples)
        self.batch = None if rollout else batch_rollout(game)
        self.rollout = self.batch or rollout or default_rollout(game.name)
        self.rounds = 0
        engine = "batch " if self.batch else ""
        self.name = (
            f"{samples} playouts a move by the {engine}player `{self.rollout}`"
            if precision is None
            else f"playouts by the {engine}player `{self.rollout}`, each value to ± "
            f"{100 * precision:.0f} points (95%) or as close as its time allowed"
        )

    def values(
        self,
        state: State,
        actions: Sequence[int],
        keep: Sequence[int] = (),
        deadline: float | None = None,
    ) -> dict[int, list[float]]:
        """Samples of each action's value; a move dropped by the race has fewer (the ones
        played to the end share every world)."""
        decision = Sampling(state, list(actions), tuple(keep))
        self.sample([decision], deadline, indifferent=False)
        return decision.values

    def sample(
        self,
        decisions: list[Sampling],
        deadline: float | None = None,
        indifferent: bool = True,
        finished: Callable[[Sampling], None] | None = None,
    ) -> None:
        """Sample ``decisions`` until each is done (``finished`` is told of each), in rounds
        of as many decisions as fit in a batch. With a ``deadline``, a round is sized to end
        before it (by what a game cost in the last round); each decision gets its first
        round whatever the time, and none more once the time is out. ``indifferent``: drop
        moves that cannot beat the best by more than the precision (a review; a hint keeps
        them, to say which moves are about equal)."""
        pending = list(decisions)
        row_seconds = 0.0  # what a game of the last round cost (to fit rounds to the time)
        while pending:
            room = ROWS
            if deadline is not None and row_seconds:
                room = min(room, int((deadline - time.monotonic()) / row_seconds))
            chosen: list[tuple[Sampling, int]] = []
            rows = 0
            # The least sampled first: if time runs out, every decision had its share.
            for decision in sorted(pending, key=lambda d: d.worlds):
                size = self.next_round(decision)
                if decision.worlds:  # (a first round is played whatever the time)
                    size = min(size, (room - rows) // len(decision.live))
                    if size < self.samples:
                        break
                elif chosen and rows + size * len(decision.live) > room:
                    break
                chosen.append((decision, size))
                rows += size * len(decision.live)
            if not chosen:  # out of time: each decision keeps the width it reached
                for decision in pending:
                    self._finish(decision, finished)
                break
            started = time.monotonic()
            played = self.play(chosen, deadline)
            row_seconds = (time.monotonic() - started) / rows
            self.rounds += 1
            for (decision, size), count in zip(chosen, played, strict=True):
                decision.worlds += count
                if self.precision is None or count < size:  # (cut short: out of time)
                    self._finish(decision, finished)
                    continue
                self.race(decision, indifferent)
                if self.enough(decision, settle=indifferent):
                    self._finish(decision, finished)
            pending = [d for d in pending if not d.done]

    @staticmethod
    def _finish(decision: Sampling, finished: Callable[[Sampling], None] | None) -> None:
        decision.done = True
        if finished is not None:
            finished(decision)

    def enough(self, decision: Sampling, settle: bool) -> bool:
        """Whether a decision has been sampled enough: precise, and (``settle``: a review)
        its grades settled; or out of worlds."""
        if decision.worlds >= self.max_samples:
            return True
        if not self.precise(decision):
            return False
        room = decision.worlds + self.samples <= SETTLE_SAMPLES  # (for one more round)
        return not settle or not room or self.settled(decision)

    def settled(self, decision: Sampling) -> bool:
        """Whether the grade of each move whose value is shown (the move played) is settled:
        against every move still played, the loss that grading trusts (``grading.grade``:
        the loss less two standard errors) is more than ``SETTLE_Z`` standard errors from
        every threshold. Near a threshold, two reviews with other samples could grade the
        move differently: such a decision is sampled on, up to ``SETTLE_SAMPLES`` worlds.
        (Two errors from the edge keep most, not all, of two reviews' grades alike: at the
        edge an independent review falls on the other side about 8% of the time.)"""
        for kept in decision.keep:
            for other in decision.live:
                if other == kept:
                    continue
                loss = decision.gap(kept, other)
                surely = loss.mean - SIGNIFICANT * loss.error
                if any(abs(surely - t) < SETTLE_Z * loss.error for _, t in GRADES):
                    return False
        return True

    def next_round(self, decision: Sampling) -> int:
        """Worlds for the decision's next round: ``samples`` first; then as many as its
        spread says it still needs (at most four times what it has, and ``max_samples``);
        once precise, as many again as it has, up to ``SETTLE_SAMPLES`` (to settle a
        grade: ``settled``)."""
        if not decision.worlds:
            return self.samples
        if self.precise(decision):  # (settling: at most up to SETTLE_SAMPLES worlds)
            size = max(self.samples, min(decision.worlds, SETTLE_SAMPLES - decision.worlds))
            return max(1, min(size, self.max_samples - decision.worlds))
        precision = self.precision or 1.0
        best = decision.best()
        spread = max(
            max(cautious(decision.values[a], 0.0, 1.0).error for a in decision.live),
            max(decision.gap(a, best).error for a in decision.live),
        ) * np.sqrt(decision.worlds)
        needed = int(np.ceil((Z95 * spread / precision) ** 2 * 1.1)) - decision.worlds
        size = min(max(needed, self.samples), 4 * decision.worlds)
        return max(1, min(size, self.max_samples - decision.worlds))

    def race(self, decision: Sampling, indifferent: bool) -> None:
        """Stop playing the moves shown to be worse than the best (and, ``indifferent``,
        those that cannot beat it by more than the precision). The gap is judged
        ``cautious``-ly: with common luck, the first few worlds of two moves often end
        alike, and an error of 0 measured on them would drop a move on no evidence."""
        best = decision.best()
        still = []
        for action in decision.live:
            if action == best or action in decision.keep:
                still.append(action)
                continue
            gap = decision.gap(action, best)
            worse = gap.mean > RACE_Z * gap.error
            no_better = indifferent and -gap.mean + Z95 * gap.error <= (self.precision or 0)
            if not (worse or no_better):
                still.append(action)
        decision.live = still

    def precise(self, decision: Sampling) -> bool:
        """Whether every move still played has its difference from the best within ±
        precision, and the values shown (the best's and those kept) are within it too."""
        best = decision.best()
        precision = self.precision or 0.0
        shown = {best, *decision.keep} & set(decision.live)
        return all(interval(decision.values[a]) <= precision for a in shown) and all(
            Z95 * decision.gap(a, best).error <= precision for a in decision.live
        )

    # -- playing a round --------------------------------------------------------------------
    def worlds(self, decision: Sampling, size: int) -> Iterator[State]:
        """The round's worlds, each drawn when it is asked for (a round cut short by the
        time draws no more): the true state itself after the end (never changed: it is
        copied before a move is played), else deals the seat may imagine."""
        for i in range(decision.worlds, decision.worlds + size):
            if self.seat is None:
                yield decision.state
            else:
                rng = np.random.default_rng([self.seed, decision.where, i, 0])
                yield decision.state.resample_hidden(self.seat, rng)

    def play(self, chosen: list[tuple[Sampling, int]], deadline: float | None) -> list[int]:
        """Play the round: ``size`` worlds of each chosen decision, every move still played
        in each. Returns the worlds played: on the reference engine a round stops at the
        deadline (after two worlds at least, the fewest a standard error needs)."""
        if self.batch:
            from tminus.review.batch_playouts import play_out_batch

            blocks = [(self.worlds(d, size), d.live, d.mover) for d, size in chosen]
            seed = [self.seed, self.rounds, 2]
            for (decision, _), shares in zip(
                chosen, play_out_batch(self.game, blocks, seed, self.batch), strict=True
            ):
                for action, row in zip(decision.live, shares, strict=True):
                    decision.values[action].extend(row.tolist())
            return [size for _, size in chosen]
        played = []
        for decision, size in chosen:
            count = 0
            for world in self.worlds(decision, size):
                late = deadline is not None and time.monotonic() >= deadline
                if late and decision.worlds + count >= 2:
                    break
                seed = [self.seed, decision.where, decision.worlds + count]
                for action in decision.live:
                    after = world.clone()
                    after.apply_action(action)
                    decision.values[action].append(self.play_out(after, decision.mover, seed))
                count += 1
            played.append(count)
        return played

    def play_out(self, state: State, seat: int, seed: list[int]) -> float:
        agent = make_agent(self.rollout, self.game, seed=[*seed, 1])
        chance = ChanceStreams(str(seed))
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance.draw(state))
            else:
                state.apply_action(agent.step(state))
        return share_of_win(state, seat)
