"""Count Down's greedy player for a whole batch at once: the same move as the reference's
(``tminus.agents.greedy.count_down.CountDownGreedy``) at every decision, each of its rules
written over a game's row (``count_down_rules``) and compiled by Numba.

The reference ranks moves by scores (floats) and keeps the first best in the order of the
legal moves (rising numbers); so does this player, whatever order it meets them in.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tminus.agents.solvers.count_down import solve_game_countdown
from tminus.batch.count_down import CountDownBatch
from tminus.batch.count_down_rules import (
    AGENTS,
    CENTRE,
    DEAL,
    ESPIONAGE_SQ,
    FORBIDDEN,
    FUNDING_SQ,
    HELD_PARTS,
    JUSTIFIED,
    LOTS,
    MAX_AGENTS,
    MAX_PHOTOS,
    MISSION,
    MONEY,
    MOVER,
    NLOTS,
    NSEATS,
    PART_SQ,
    PART_STOCK,
    PARTS,
    PHASE,
    PHOTO_SQ,
    PHOTOS,
    PLAYER,
    POS,
    ROLLED,
    SABOTAGE_SQ,
    SATURN_SQ,
    SATURN_V,
    STOCK,
    SURPRISE_SQ,
    T_AGENT_GREEN,
    T_BUY_PART,
    T_BUY_PHOTO,
    T_CONTROL_BITS,
    T_MISSION,
    T_MONEY,
    T_PART_PRICES,
    T_PHOTO_VALUES,
    T_PHOTOS,
    T_PLAYERS,
    T_PROPOSE,
    T_RANSOM,
    T_SATURN_PRICE,
    T_SELL_PART,
    T_SELL_PHOTO,
    T_SELL_SATURN,
    T_SQUARE_ARG,
    T_SQUARE_KIND,
    T_STEP,
    T_TAKE_PART,
    T_TAKE_PHOTO,
    T_TEMPLATE_A,
    T_TEMPLATE_B,
    T_TEMPLATE_KIND,
    T_TRACK_LEN,
    WAITS,
    ZONE,
    count_bits,
    legal_actions,
    photo_bits,
    rule,
    split_proposal,
)
from tminus.games.count_down import phases
from tminus.games.count_down.actions import (
    ACCEPT,
    ASK_FOR,
    BACKWARD,
    BUY,
    BUY_PART_FROM,
    BUY_SATURN,
    BUY_SATURN_FROM,
    COUNT_DOWN,
    DECLINE,
    DEMAND,
    DONE,
    FORWARD,
    ONCE_MORE,
    PASS,
    PAY_RANSOM,
    REFUSE,
    SELL,
    SELL_PART,
    SELL_SATURN,
    SIT_OUT,
    SQUATS,
    START_COUNT,
    SWAP,
    WAIT,
)

NO_MOVE = -1


# -- what a centre needs, as bits ----------------------------------------------------------
@rule
def needed_bits(s, k, c):
    """The photo cards of ``c``'s control card it lacks (``trading.needed_photos``)."""
    return k[T_CONTROL_BITS + c] & ~photo_bits(s, c)


@rule
def spare_bits(s, k, c):
    """The photo cards ``c`` holds and does not need (``trading.unneeded_photos``)."""
    spare = 0
    for p in range(k[T_PHOTOS]):
        held = s[PHOTOS + c * MAX_PHOTOS + p]
        if held >= 2 or (held == 1 and not (k[T_CONTROL_BITS + c] >> p) & 1):
            spare |= 1 << p
    return spare


@rule
def missing_bits(s, c):
    """The rocket parts ``c`` lacks."""
    bits = 0
    for part in range(PARTS):
        if not s[HELD_PARTS + c * PARTS + part]:
            bits |= 1 << part
    return bits


@rule
def duplicate_bits(s, c):
    bits = 0
    for part in range(PARTS):
        if s[HELD_PARTS + c * PARTS + part] >= 2:
            bits |= 1 << part
    return bits


@rule
def parts_worth(k, parts):
    """What the parts (bits) cost one by one at the fixed prices."""
    worth = 0
    for part in range(PARTS):
        if (parts >> part) & 1:
            worth += k[T_PART_PRICES + part]
    return worth


@rule
def reserve(s, k, c):
    """Money to keep for the photo cards still missing."""
    need = needed_bits(s, k, c)
    money = 0
    for p in range(k[T_PHOTOS]):
        if (need >> p) & 1:
            money += k[T_PHOTO_VALUES + p]
    return money


@rule
def progress(s, k, c):
    held = photo_bits(s, c) & k[T_CONTROL_BITS + c]
    return count_bits(held) + PARTS - count_bits(missing_bits(s, c))


@rule
def leader(s, k, me):
    """The other centre in play furthest on (the first of equals), -1 none."""
    best, best_progress = -1, -1
    for c in range(4):
        if s[NSEATS + c] and c != me:
            done = progress(s, k, c)
            if done > best_progress:
                best, best_progress = c, done
    return best


# -- squares -------------------------------------------------------------------------------
@rule
def can_force(s, k, me, other):
    """Does ``other`` hold a photo card ``me`` needs and they do not, or a duplicate part
    ``me`` lacks (not in a Saturn V they hold whole)?"""
    if other == me or other < 0:
        return False
    if needed_bits(s, k, me) & spare_bits(s, k, other):
        return True
    whole = s[SATURN_V + other]
    missing = missing_bits(s, me)
    for part in range(PARTS):
        theirs = s[HELD_PARTS + other * PARTS + part]
        if (missing >> part) & 1 and theirs >= 2 and theirs > whole:
            return True
    return False


@rule
def square_gain(s, k, me, seat, kind, arg):
    """What the square itself gives ``me``."""
    money = s[MONEY + me]
    if kind == PHOTO_SQ:
        wanted = (needed_bits(s, k, me) >> arg) & 1 and s[STOCK + arg]
        return 10.0 if wanted and money >= k[T_PHOTO_VALUES + arg] else 0.0
    if kind == PART_SQ:
        if not s[PART_STOCK + arg]:
            return 0.5
        return 9.0 if not s[HELD_PARTS + me * PARTS + arg] else 1.0
    if kind == SATURN_SQ:
        return 6.0 if count_bits(missing_bits(s, me)) >= 2 and money >= 500 else 0.0
    if kind == FUNDING_SQ:
        return arg / 40
    if kind == SURPRISE_SQ or kind == ESPIONAGE_SQ or kind == SABOTAGE_SQ:
        return 1.5
    if kind == FORBIDDEN and arg != me and s[NSEATS + arg]:
        holds_agent = False
        for t in range(MAX_AGENTS):
            if s[AGENTS + me * MAX_AGENTS + t]:
                holds_agent = True
        if holds_agent and arg == leader(s, k, me):
            return 7.0
        return -1.0
    return 0.0


@rule
def square_value(s, k, me, seat, square):
    """What stopping there is worth to ``me``; less where someone met would force ``me`` to
    sell them a card or part they lack."""
    kind, arg = k[T_SQUARE_KIND + square], k[T_SQUARE_ARG + square]
    others = 0  # centres met there, as bits
    for other_seat in range(k[T_PLAYERS]):
        c = s[CENTRE + other_seat]
        if s[POS + other_seat] == square and c != me and c != -1:
            others |= 1 << c
    if kind == FORBIDDEN and s[NSEATS + arg]:
        others |= 1 << arg
    for c in range(4):
        if (others >> c) & 1 and can_force(s, k, me, c):
            return 12.0
    forced = False
    for c in range(4):
        if (others >> c) & 1 and can_force(s, k, c, me):
            forced = True
    return square_gain(s, k, me, seat, kind, arg) - (2.0 if forced else 0.0)


# -- meetings ------------------------------------------------------------------------------
@rule
def proposal_score(k, mine, theirs, t):
    """The reference's ``proposal_score``: ``mine`` and ``theirs`` are ``wants``."""
    kind, x, y = k[T_TEMPLATE_KIND + t], k[T_TEMPLATE_A + t], k[T_TEMPLATE_B + t]
    money, needed, spare, missing, duplicates = mine
    _, their_needed, their_spare, their_missing, _ = theirs
    if kind == ASK_FOR:
        return 10.0 if money >= k[T_PHOTO_VALUES + x] else 0.0
    if kind == DEMAND:
        return 9.0 if money >= y else 0.0
    if kind == BUY and (needed >> x) & 1 and (their_spare >> x) & 1:
        return 8.0 - y / k[T_PHOTO_VALUES + x]
    if kind == SWAP and (needed >> y) & 1 and (spare >> x) & 1:
        return 7.0 if (their_needed >> x) & 1 else 3.0
    if kind == SELL and (spare >> x) & 1 and (their_needed >> x) & 1:
        return 2.0 + y / k[T_PHOTO_VALUES + x]
    if kind == BUY_PART_FROM and (missing >> x) & 1:
        return 6.0
    if kind == SELL_PART and (duplicates >> x) & 1:
        return 1.0 if (their_missing >> x) & 1 else 0.0
    if kind == BUY_SATURN_FROM:
        return 6.0 if parts_worth(k, missing) >= y else 0.0
    return 0.0


@rule
def wants(s, k, c):
    """What centre ``c`` has, needs and can spare, read once for a meeting's proposals (the
    reference's ``Wants``): money, then needed, spare, missing and duplicate bits."""
    return (
        s[MONEY + c],
        needed_bits(s, k, c),
        spare_bits(s, k, c),
        missing_bits(s, c),
        duplicate_bits(s, c),
    )


@rule
def meeting(s, k, me, moves, n):
    """Missions first, then the best proposal worth making (the first of equals), else
    done."""
    first_mission = NO_MOVE
    for i in range(n):
        a = moves[i]
        if k[T_MISSION] <= a < k[T_TAKE_PHOTO] and (first_mission < 0 or a < first_mission):
            first_mission = a
    if first_mission >= 0:
        return first_mission
    owner = s[ZONE]
    visiting = owner >= 0 and not s[JUSTIFIED] and s[PLAYER] == s[MOVER]
    mine = wants(s, k, me)
    them, theirs = -1, mine  # (a target's wants, read again only when the target changes)
    best, best_score = DONE, 0.0
    for i in range(n):
        a = moves[i]
        if a < k[T_PROPOSE]:
            continue
        seat, t = split_proposal(k, a)
        if s[CENTRE + seat] != them:
            them = s[CENTRE + seat]
            theirs = wants(s, k, them)
        score = proposal_score(k, mine, theirs, t)
        if visiting and k[T_TEMPLATE_KIND + t] == ASK_FOR and them == owner:
            score = max(score, 4.0)
        if score > best_score or (score == best_score and score > 0.0 and a < best):
            best, best_score = a, score
    return best


@rule
def good_offer_to_me(s, k, me):
    """Accept what gives us a card we need, or sells a spare at its value or more."""
    t = s[DEAL + 2]
    kind, x, y = k[T_TEMPLATE_KIND + t], k[T_TEMPLATE_A + t], k[T_TEMPLATE_B + t]
    if kind == SELL:
        return bool((needed_bits(s, k, me) >> x) & 1) and s[MONEY + me] - y >= 0
    if kind == BUY:
        return bool((spare_bits(s, k, me) >> x) & 1) and y >= k[T_PHOTO_VALUES + x]
    if kind == SWAP:
        return bool((needed_bits(s, k, me) >> x) & 1) and bool((spare_bits(s, k, me) >> y) & 1)
    if kind == SELL_PART:
        return bool((missing_bits(s, me) >> x) & 1)
    if kind == BUY_PART_FROM:
        return s[HELD_PARTS + me * PARTS + x] >= 2
    if kind == SELL_SATURN:
        return parts_worth(k, missing_bits(s, me)) >= y
    return False


# -- the other decisions -------------------------------------------------------------------
@rule
def keep_value(s, k, me, a):
    """How much we would rather keep what this sale to the leader gives up (low: first)."""
    if a == k[T_SELL_SATURN]:
        return 2000
    if a < k[T_SELL_PART]:
        p = a - k[T_SELL_PHOTO]
        needed = (k[T_CONTROL_BITS + me] >> p) & 1 and not (spare_bits(s, k, me) >> p) & 1
        return (1000 if needed else 0) + k[T_PHOTO_VALUES + p]
    part = a - k[T_SELL_PART]
    return (1000 if s[HELD_PARTS + me * PARTS + part] == 1 else 0) + k[T_PART_PRICES + part]


@rule
def hurt(s, k, victim, a):
    """What a red agent's hit costs its victim."""
    if a >= k[T_TAKE_PART]:
        return 20.0 if s[HELD_PARTS + victim * PARTS + a - k[T_TAKE_PART]] == 1 else 1.0
    p = a - k[T_TAKE_PHOTO]
    mine = (k[T_CONTROL_BITS + victim] >> p) & 1
    return (10.0 if mine else 0.0) + k[T_PHOTO_VALUES + p] / 100


@rule
def target(s, k, me, moves, n):
    """Espionage: the dearest card we need (else the dearest); sabotage: what hurts most."""
    card, victim = s[MISSION], s[MISSION + 1]
    best, best_value = NO_MOVE, -1.0
    if k[T_AGENT_GREEN + card]:
        need = needed_bits(s, k, me)
        wanted = False
        for i in range(n):
            wanted = wanted or bool((need >> (moves[i] - k[T_TAKE_PHOTO])) & 1)
        for i in range(n):
            a = moves[i]
            p = a - k[T_TAKE_PHOTO]
            if wanted and not (need >> p) & 1:
                continue
            value = float(k[T_PHOTO_VALUES + p])
            if value > best_value or (value == best_value and a < best):
                best, best_value = a, value
        return best
    for i in range(n):
        a = moves[i]
        value = hurt(s, k, victim, a)
        if value > best_value or (value == best_value and a < best):
            best, best_value = a, value
    return best


@rule
def smallest(moves, n):
    least = moves[0]
    for i in range(1, n):
        least = min(least, moves[i])
    return least


@rule
def greedy_move(s, k, countdown, moves):
    """``CountDownGreedy.step``: the reference greedy's move at this decision."""
    n = legal_actions(s, k, moves)
    if n == 1:
        return moves[0]
    me = s[CENTRE + s[PLAYER]]
    phase = s[PHASE]
    choice = choose(s, k, countdown, me, phase, moves, n)
    for i in range(n):
        if moves[i] == choice:
            return choice
    return smallest(moves, n)


@rule
def choose(s, k, countdown, me, phase, moves, n):
    if phase == phases.TURN_START:
        return COUNT_DOWN
    if phase == phases.COUNT_CHOICE:
        return START_COUNT if countdown[s[WAITS], s[ROLLED]] else WAIT
    if phase == phases.DIRECTION:
        seat = s[PLAYER]
        here, roll, length = s[POS + seat], s[ROLLED], k[T_TRACK_LEN]
        ahead = square_value(s, k, me, seat, (here + roll) % length)
        behind = square_value(s, k, me, seat, (here - roll + length) % length)
        return BACKWARD if behind > ahead else FORWARD
    if phase == phases.BUY_PHOTO:
        a = moves[1]  # (decline, buy)
        return a if (needed_bits(s, k, me) >> (a - k[T_BUY_PHOTO])) & 1 else DECLINE
    if phase == phases.SATURN:
        missing = missing_bits(s, me)
        for i in range(n):
            if moves[i] == BUY_SATURN:
                worth = parts_worth(k, missing)
                return BUY_SATURN if worth >= k[T_SATURN_PRICE] else DECLINE
        spare = s[MONEY + me] - reserve(s, k, me) // 2
        for i in range(n):
            part = moves[i] - k[T_BUY_PART]
            if moves[i] != DECLINE and (missing >> part) & 1 and k[T_PART_PRICES + part] <= spare:
                return moves[i]
        return DECLINE
    if phase == phases.TRAINING:
        return SQUATS
    if phase == phases.DEBT:
        best, least = moves[0], keep_value(s, k, me, moves[0])
        for i in range(1, n):
            value = keep_value(s, k, me, moves[i])
            if value < least:
                best, least = moves[i], value
        return best
    if phase == phases.PLAY_AGAIN:
        return ONCE_MORE
    if phase == phases.MEETING:
        return meeting(s, k, me, moves, n)
    if phase == phases.REPLY:
        return ACCEPT if good_offer_to_me(s, k, me) else REFUSE
    if phase == phases.ASK:
        return moves[n - 1]  # ask double: a counter then settles at the midpoint
    if phase == phases.COUNTER:
        return moves[1] if n > 1 else ACCEPT  # (accept, then the counters from the lowest)
    if phase == phases.COUNTER_REPLY:
        return REFUSE  # the midpoint beats the counter
    if phase == phases.TARGET:
        return target(s, k, me, moves, n)
    if phase == phases.ARRESTED:
        rich = s[MONEY + me] - k[T_RANSOM] >= reserve(s, k, me)
        return PAY_RANSOM if rich else SIT_OUT
    if phase == phases.BID:
        p = s[LOTS] if s[NLOTS] else -1
        if p < 0 or not (needed_bits(s, k, me) >> p) & 1:
            return PASS
        value = k[T_PHOTO_VALUES + p]
        if n > 1 and (moves[1] - k[T_MONEY]) * k[T_STEP] <= value:
            return moves[1]  # (pass, then the bids from the lowest)
        return PASS
    return smallest(moves, n)


@rule
def greedy_moves(S, k, player, countdown, out, moves):
    for g in range(S.shape[0]):
        out[g] = greedy_move(S[g], k, countdown, moves) if player[g] >= 0 else 0


class CountDownBatchGreedy:
    """The reference greedy player's move in every game of the batch."""

    name = "greedy"

    def __init__(self, env: CountDownBatch, seed: Any = None) -> None:
        self.env = env
        # START_COUNT after roll number w of an attempt on a roll of r: the solved rule.
        solution = solve_game_countdown(env.game)
        self.countdown = np.zeros((env.game.board.latest_start + 1, 13), dtype=np.int64)
        for waits in range(self.countdown.shape[0]):
            for roll in range(1, 13):
                if waits in solution.thresholds:
                    self.countdown[waits, roll] = solution.should_start(waits, roll)
        self.moves = np.zeros(env.num_distinct_actions, dtype=np.int64)

    def act(self) -> np.ndarray:
        env = self.env
        actions = np.zeros(env.batch_size, dtype=np.int64)
        greedy_moves(env.rows, env.K, env.player, self.countdown, actions, self.moves)
        return actions
