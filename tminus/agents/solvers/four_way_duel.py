"""4-Way CountDown for two players, solved: the chance to win of the player about to roll.

With keys ``m`` up for the player to roll and ``o`` for the opponent,
    V[m, o] = sum over the 21 rolls r of p(r) * (the chosen option's chance to win), where
    a flip to m' that puts all ten keys up wins at once:   1
    any other flip to m' (the reset: m' = 0):              1 - V[o, m']
    the attack on eleven (the opponent's keys go down):    1 - V[0, m]
    a roll that offers nothing (the turn passes):          1 - V[o, m]
The chosen option is the best one for a perfect player, or the one a bot's fixed policy
picks, so the same equations give a bot's exact chance to win against either.

Solving: flips only add keys, so positions are swept by the number of keys up on both
sides, most first (Gauss-Seidel). A pass leads to the mirror position (o, m) with as many
keys: the two equations are solved together exactly. Only resets and attacks lead back to
positions swept later, so a few dozen sweeps converge where plain value iteration needs
hundreds.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from tminus.agents.solvers import cache_root
from tminus.agents.solvers.four_way import MASKS, ROLL_PROBABILITIES, option_masks, solo_moves
from tminus.core.progress import Step, Steps, step_of
from tminus.games.four_way.actions import ATTACK
from tminus.games.four_way.game import ELEVEN_ROLL, FourWayGame, moves_for_roll
from tminus.games.four_way.rules import ALL_KEYS_UP

ROLLS = len(ROLL_PROBABILITIES)
KEYS_UP_COUNT = np.array([bin(m).count("1") for m in range(MASKS)])


@dataclass(frozen=True)
class Level:
    """The positions (m, o) with the same number of keys up in all, neither side finished,
    and what each roll's options lead to from them."""

    mine: np.ndarray
    theirs: np.ndarray
    here: np.ndarray  # the position as the flat index m * MASKS + o
    mirror: np.ndarray  # index in this level of (o, m)
    # targets[r][k, i]: option k of roll r at position i leaves the opponent about to roll
    # at (o, m'), written as the flat index m' * MASKS + o of the transposed values; on
    # eleven the last row is the attack (m' = m, and the opponent's keys o go down: 0).
    targets: list[np.ndarray]
    passing: np.ndarray  # the chance that the roll offers nothing (the turn passes)
    eleven_without_flip: np.ndarray  # eleven's only option is the attack


@dataclass(frozen=True)
class Options:
    """``after[r, m, k]``: the mover's keys after option k of roll r (padded by repeating);
    on eleven the attack is one more option, index ``attack``."""

    after: np.ndarray
    levels: list[Level]

    @property
    def attack(self) -> int:
        return self.after.shape[2]


@cache
def options(junior: bool) -> Options:
    after = option_masks(junior)
    passes = (after == np.arange(MASKS)[None, :, None]).all(axis=2)
    passes[ELEVEN_ROLL] = False  # eleven always offers the attack
    passing = ROLL_PROBABILITIES @ passes
    without_flip = np.array([moves_for_roll(junior, ELEVEN_ROLL, m) == () for m in range(MASKS)])
    by_option = after.transpose(0, 2, 1)  # [r, k, m]

    playing = np.arange(MASKS - 1)  # every key set but all ten up
    mine, theirs = (a.ravel() for a in np.meshgrid(playing, playing, indexing="ij"))
    total = KEYS_UP_COUNT[mine] + KEYS_UP_COUNT[theirs]
    levels = []
    for keys in range(total.max(), -1, -1):  # most keys up first
        at = np.flatnonzero(total == keys)
        m, o = mine[at], theirs[at]
        here = m * MASKS + o
        where = np.full(MASKS * MASKS, -1)
        where[here] = np.arange(len(at))
        targets = [(by_option[r][:, m] * MASKS + o).astype(np.int32) for r in range(ROLLS)]
        targets[ELEVEN_ROLL] = np.vstack([targets[ELEVEN_ROLL], (m * MASKS).astype(np.int32)])
        levels.append(Level(m, o, here, where[o * MASKS + m], targets, passing[m], without_flip[m]))
    return Options(after, levels)


@dataclass(frozen=True)
class Policy:
    """How a side picks an option: ``choice is None`` plays perfectly (the best option),
    else ``choice[r, m * MASKS + o]`` is the option index it takes on roll r; a
    ``uniform`` policy takes each of its legal moves with the same chance (``random``)."""

    name: str
    choice: np.ndarray | None = None
    uniform: bool = False

    def fixed_choice(self) -> np.ndarray:
        """The option index taken on each roll and position, for a fixed policy."""
        if self.choice is None:
            raise ValueError(f"the {self.name} policy plays perfectly: it has no fixed choice")
        return self.choice

    def chosen_targets(self, level: Level) -> list[np.ndarray]:
        """For a fixed policy: per roll, the one target it moves to from each position."""
        choice = self.fixed_choice()
        return [np.choose(choice[r].take(level.here), level.targets[r]) for r in range(ROLLS)]


PERFECT = Policy("perfect")
RANDOM = Policy("random", uniform=True)


@cache
def flip_counts(junior: bool) -> np.ndarray:
    """counts[r, m]: how many flips (or the reset) roll r offers keys m (0: none)."""
    return np.array(
        [[len(moves_for_roll(junior, r, m)) for m in range(MASKS)] for r in range(ROLLS)]
    )


def uniform_value(level: Level, roll: int, theirs_t: np.ndarray, junior: bool) -> np.ndarray:
    """The mover's chance to win on ``roll`` when it takes each legal move alike: the
    flips, and on eleven the attack too; with no flip, the pass (or eleven's attack)."""
    values = 1.0 - theirs_t.take(level.targets[roll])  # [option, position]
    flips = flip_counts(junior)[roll].take(level.mine)
    taken = np.arange(len(values))[:, None] < flips[None, :]
    if roll == ELEVEN_ROLL:
        taken[-1] = True  # the attack is always there
    else:
        taken[0] |= flips == 0  # the pass
    return (values * taken).sum(axis=0) / taken.sum(axis=0)


def plan(policy: Policy, level: Level, junior: bool):
    """What ``_sweep_level`` needs of a policy: None to play perfectly, the rules' variant
    for a uniform one, else its chosen targets on the level."""
    if policy.uniform:
        return junior
    return None if policy.choice is None else policy.chosen_targets(level)


def option_values(level: Level, roll: int, theirs_t: np.ndarray) -> np.ndarray:
    """values[k, i]: the mover's chance to win after option k at position i, where
    ``theirs_t[m', o]`` is the opponent's chance when about to roll (keys o) against m'.

    ``theirs_t[ALL_KEYS_UP, :]`` is 0, so a flip that puts all ten keys up is worth 1.
    """
    values = 1.0 - theirs_t.take(level.targets[roll])
    if roll == ELEVEN_ROLL:
        values[:-1, level.eleven_without_flip] = -np.inf  # no flip: the attack it is
    return values


def _sweep_level(level: Level, plans, transposed) -> float:
    """Update both sides' values on one level; return the largest change.

    ``transposed[side][m, o]`` is that side's chance when about to roll with keys o against
    keys m (stored transposed: the options' targets then sit close together); ``plans``
    gives each side's chosen targets per roll, None to play perfectly, or (a uniform
    policy) whether the rules are junior.
    """
    symmetric = transposed[0] is transposed[1]  # one policy against itself: one side
    settled = []  # per side: the chance to win from the rolls that do not pass
    for side in (0,) if symmetric else (0, 1):
        theirs_t = transposed[1 - side]
        plan = plans[side]
        total = np.zeros(len(level.mine))
        for roll, p in enumerate(ROLL_PROBABILITIES):
            if plan is None:
                total += p * option_values(level, roll, theirs_t).max(axis=0)
            elif isinstance(plan, bool):  # uniform: ``plan`` says whether the rules are junior
                total += p * uniform_value(level, roll, theirs_t, plan)
            else:
                total += p * (1.0 - theirs_t.take(plan[roll]))
        # The passing rolls were counted at 1 - W[o, m] (W: the mirror's current value);
        # take them out to solve the pair of equations exactly below.
        settled.append(total - level.passing * (1.0 - theirs_t.take(level.here)))
    if symmetric:
        settled.append(settled[0])
    change = 0.0
    q = level.passing
    r = q[level.mirror]
    for side in (0,) if symmetric else (0, 1):
        a, b = settled[side], settled[1 - side][level.mirror]
        # V = a + q (1 - W) and W = b + r (1 - V) for the mirror W, solved together.
        new = (a + q * (1.0 - b - r)) / (1.0 - q * r)
        stored = transposed[side]
        change = max(change, float(np.abs(new - stored[level.theirs, level.mine]).max()))
        stored[level.theirs, level.mine] = new
    return change


def duel_values(
    junior: bool,
    first: Policy,
    second: Policy,
    tolerance: float = 1e-11,
    progress: Step | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Each side's chance to win when about to roll (its keys m, the other's keys o), the
    two playing ``first`` and ``second`` against each other: V[m, o] per side.

    ``progress`` is told after each sweep the digits settled out of those wanted: the
    largest change shrinks by about the same factor a sweep, so the digits come at a
    steady pace (the number of sweeps is not known in advance)."""
    opts = options(junior)
    transposed = [np.full((MASKS, MASKS), 0.5) for _ in range(1 if first is second else 2)]
    for t in transposed:
        t[ALL_KEYS_UP, :] = 0.0  # against all ten keys up: already lost
    if first is second:
        transposed.append(transposed[0])  # the same policy on both sides: the same values
    plans = [[plan(policy, level, junior) for level in opts.levels] for policy in (first, second)]
    while True:
        change = max(
            _sweep_level(level, (plans[0][i], plans[1][i]), transposed)
            for i, level in enumerate(opts.levels)
        )
        if progress is not None:
            progress(settled_digits(max(change, tolerance)), settled_digits(tolerance))
        if change < tolerance:
            return transposed[0].T.copy(), transposed[1].T.copy()


def settled_digits(change: float) -> float:
    """The decimal digits that a sweep's largest change leaves unmoved (1e-6: six)."""
    return -math.log10(change)


def solved_path(junior: bool) -> Path:
    """Where the solved duel is kept (``cache_root``), per rules version."""
    variant = "junior" if junior else "adult"
    return cache_root() / f"four_way_duel_{variant}_rules{FourWayGame.rules_version}.npy"


@cache
def solve(junior: bool) -> np.ndarray:
    """V for two perfect players: V[m, o], the chance to win of the player about to roll.

    Solved once (about 6 s of CPU) and kept on disk (8 MB): every process after that (a
    bot's, a hint's) reads it in milliseconds."""
    path = solved_path(junior)
    with contextlib.suppress(OSError, ValueError):
        values = np.load(path)
        if values.shape == (MASKS, MASKS) and values.dtype == np.float64:
            return values
    values = duel_values(junior, PERFECT, PERFECT)[0]
    with contextlib.suppress(OSError):  # (no room, or read-only: solve again next time)
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f"{path.name}.{os.getpid()}.part")
        try:
            with open(part, "wb") as handle:
                np.save(handle, values)
            os.replace(part, path)  # whole or not at all, whoever else writes it meanwhile
        finally:
            part.unlink(missing_ok=True)
    return values


def perfect_policy(junior: bool) -> Policy:
    """The arg-max of the solved values (ties: the first option in the engine's order)."""
    opts, transposed = options(junior), solve(junior).T.copy()
    choice = np.zeros((ROLLS, MASKS * MASKS), dtype=np.int8)
    for level in opts.levels:
        for roll in range(ROLLS):
            choice[roll, level.here] = option_values(level, roll, transposed).argmax(axis=0)
    return Policy("solver", choice)


def greedy_policy(game: FourWayGame) -> Policy:
    """The greedy bot's moves as a table: its best flip, and on eleven the attack when the
    opponent has more keys up than the flip would put up (see ``FourWayGreedy``)."""
    from tminus.agents.greedy.four_way import FourWayGreedy

    greedy = FourWayGreedy(game)
    attack = options(game.junior).attack
    choice = np.zeros((ROLLS, MASKS, MASKS), dtype=np.int8)  # [r, m, o]
    for roll in range(ROLLS):
        for m in range(MASKS):
            moves = solo_moves(game.junior, roll, m)
            best = greedy.best_flip([a for a in moves if a < ATTACK])
            choice[roll, m, :] = 0 if best is None else moves.index(best)
            if roll == ELEVEN_ROLL:
                won = 0 if best is None else len(greedy.keys_flipped(best))
                # With nothing to flip, eleven's attack is its only move.
                choice[roll, m, (won < KEYS_UP_COUNT) | (best is None)] = attack
    return Policy("greedy", choice.reshape(ROLLS, MASKS * MASKS))


def simulate_duel(junior: bool, first: Policy, second: Policy, games: int, seed: int):
    """Play ``games`` duels of two fixed policies from all keys down, ``first`` rolling
    first (vectorised over games); True where ``first`` won."""
    opts = options(junior)
    rng = np.random.default_rng(seed)
    keys = np.zeros((2, games), dtype=np.int64)  # [side, game]
    winner = np.full(games, -1)
    choices = (first.fixed_choice(), second.fixed_choice())
    mover = 0
    playing = np.arange(games)
    while len(playing):
        mine, theirs = keys[mover, playing], keys[1 - mover, playing]
        rolls = rng.choice(ROLLS, size=len(playing), p=ROLL_PROBABILITIES)
        taken = choices[mover][rolls, mine * MASKS + theirs].astype(np.int64)
        attack = taken == opts.attack
        flipped = opts.after[rolls, mine, np.minimum(taken, opts.attack - 1)]
        keys[mover, playing] = np.where(attack, mine, flipped)
        keys[1 - mover, playing] = np.where(attack, 0, theirs)
        won = keys[mover, playing] == ALL_KEYS_UP
        winner[playing[won]] = mover
        playing = playing[~won]
        mover = 1 - mover
    return winner == 0


def duel_table(progress: Steps | None = None) -> dict[str, dict[str, float]]:
    """Chances to win of two-player duels, each side starting half the time."""
    return {variant: duel_row(variant, progress) for variant in ("adult", "junior")}


def duel_row(variant: str, progress: Steps | None = None) -> dict[str, float]:
    """One variant's duels, each step told to ``progress`` (most of the time goes to the
    best reply against greedy). Worked out once for greedy as it plays now, and kept on
    disk beside the solved duel (``cache_root``): ``tminus solve`` then answers at once."""
    junior = variant == "junior"

    def step(doing: str) -> Step:
        return step_of(progress, f"4-Way duel, {variant}: {doing}")

    step("greedy's moves")(0, None)
    greedy = greedy_policy(FourWayGame(players=2, variant=variant))
    path = duel_row_path(variant, greedy)
    with contextlib.suppress(OSError, ValueError, KeyError):
        kept = json.loads(path.read_text())
        return {key: float(kept[key]) for key in ROW_KEYS}
    step("both perfect")(0, None)  # (solved once, then read from disk)
    first_perfect = float(solve(junior)[0, 0])
    both_greedy = duel_values(junior, greedy, greedy, TABLE_TOLERANCE, step("both greedy"))
    best_reply = step("best reply vs greedy")
    row = {
        "first_perfect": first_perfect,
        "first_greedy": float(both_greedy[0][0, 0]),
        "best_vs_greedy": either_starts(junior, PERFECT, greedy, TABLE_TOLERANCE, best_reply),
    }
    with contextlib.suppress(OSError):  # (no room, or read-only: work it out next time)
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f"{path.name}.{os.getpid()}.part")
        part.write_text(json.dumps(row))
        os.replace(part, path)
    return row


ROW_KEYS = ("first_perfect", "first_greedy", "best_vs_greedy")


def duel_row_path(variant: str, greedy: Policy) -> Path:
    """Where a variant's duel row is kept: per rules version and per greedy's moves (a
    change to greedy is a new file, never a stale answer)."""
    moves = hashlib.sha256(greedy.fixed_choice().tobytes()).hexdigest()[:16]
    name = f"four_way_duel_row_{variant}_rules{FourWayGame.rules_version}_greedy{moves}.json"
    return cache_root() / name


TABLE_TOLERANCE = 1e-9  # plenty for four decimals, and a third fewer sweeps


def either_starts(
    junior: bool, a: Policy, b: Policy, tolerance: float = 1e-11, progress: Step | None = None
) -> float:
    """``a``'s chance to win against ``b`` when the roll-off makes either start (1/2 each)."""
    a_first, b_first = duel_values(junior, a, b, tolerance, progress)
    return 0.5 * float(a_first[0, 0]) + 0.5 * (1.0 - float(b_first[0, 0]))


def report(progress: Steps | None = None) -> str:
    table = duel_table(progress)
    lines = [
        "# 4-Way CountDown, two players",
        "",
        "Chances to win, solved exactly over the 1,024 x 1,024 pairs of key sets",
        "(the `solver` agent plays the perfect policy).",
        "",
        "| variant | first to roll, both perfect | first to roll, both greedy "
        "| best reply vs greedy |",
        "|---|---|---|---|",
    ]
    for variant, row in table.items():
        lines.append(
            f"| {variant} | {row['first_perfect']:.4f} | {row['first_greedy']:.4f} "
            f"| {row['best_vs_greedy']:.4f} |"
        )
    lines += [
        "",
        "Best reply vs greedy: the most that any way of playing can win against the greedy",
        "bot, each side rolling first half the time (as the roll-off decides).",
    ]
    return "\n".join(lines)
