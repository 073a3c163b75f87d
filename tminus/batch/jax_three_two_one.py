"""3-2-1 Countdown on JAX: the rules as pure functions of one game, ``jax.vmap``-ed over
the batch and ``jax.jit``-compiled. A discard pile is an array of its cards, bottom first.

A round that ends leaves its game waiting for the deal (phase ``DEAL``): the host then
deals to the waiting games only, in chunks of one size, as it starts new games; so the
costly shuffle runs for the games that need it, not for the whole batch at every move.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from typing import TypeAlias

import jax
import jax.numpy as jnp
import numpy as np

from tminus.batch.jax_base import (
    JaxBatch,
    JaxState,
    Move,
    Observe,
    Query,
    Sample,
    Started,
    StartGames,
)
from tminus.batch.three_two_one import (
    ACTION_COUNT,
    ACTION_PILE,
    ACTION_VALUE,
    DECK,
    DECK_CARDS,
    HAND_SHARE,
    PILE_SHARE,
    POINTS,
    V,
    shared_win,
)  # fmt: skip
from tminus.core.game import TERMINAL
from tminus.games.three_two_one import game as ref
from tminus.games.three_two_one import rules
from tminus.games.three_two_one.actions import (
    DECLARE_BLASTOFF,
    DECLARE_COUNTDOWN,
    DRAW_LEFT,
    DRAW_PILE,
    MAX_SET,
    NUM_ACTIONS,
)

DEAL, TURN, DRAW, OVER = ref.DEAL, ref.TURN, ref.DRAW, ref.OVER
CARDS = rules.DECK_SIZE
# (state of the games waiting for a deal, keys) -> their new round, as ``StartGames``
Deal: TypeAlias = Callable[[JaxState, jax.Array], Started]


class Table:
    """The game's constants as arrays."""

    def __init__(self, players: int, rounds: int, max_turns: int) -> None:
        self.n, self.rounds, self.max_turns = players, rounds, max_turns
        self.first_to_three = rules.uses_first_to_three(players)
        # The observation's shares, by count, as the reference computes them (in float64,
        # then float32): JAX's float32 arithmetic would round some of them differently.
        # A round takes a turn at least, so scores and round wins stay within the cap.
        self.score_share = jnp.asarray(np.arange(4 * max_turns + 5) / 20, jnp.float32)
        self.win_share = jnp.asarray(np.arange(max_turns + 2) / 3, jnp.float32)
        self.draw_share = jnp.asarray(np.arange(CARDS + 1) / CARDS, jnp.float32)


def dense_ranks(totals, among):
    """``rules.dense_ranks`` of the seats ``among`` (others get a rank too; ignore it)."""
    n = totals.shape[0]
    same = totals[:, None] == totals[None, :]
    earlier = jnp.tril(jnp.ones((n, n), bool), -1)
    opens = among & ~(same & earlier & among[None, :]).any(axis=1)
    lower = totals[None, :] < totals[:, None]
    return 1 + (lower & opens[None, :]).sum(axis=1)


def new_game(table: Table):
    n = table.n
    zeros = jnp.zeros(n, jnp.int32)
    return {
        "hands": jnp.zeros((n, V), jnp.int32), "known": jnp.zeros((n, V), jnp.int32),
        "sizes": zeros, "totals": zeros, "draw": jnp.zeros(V, jnp.int32),
        "draw_size": jnp.int32(0), "stack": jnp.zeros((2, CARDS), jnp.int32),
        "pile_size": jnp.zeros(2, jnp.int32), "pile": jnp.zeros((2, V), jnp.int32),
        "scores": zeros, "wins": zeros, "playing": jnp.ones(n, bool), "round": jnp.int32(0),
        "extra": jnp.int32(0), "turns": jnp.int32(0), "mover": jnp.int32(0),
        "starter": jnp.int32(n - 1),  # (so that the first round starts at seat 0)
        "phase": jnp.int32(DEAL), "discarded_on": jnp.int32(-1), "winners": jnp.zeros(n, bool),
    }  # fmt: skip


def deal(table: Table, state, key):
    """Shuffle, deal a hand to each player of the round, turn up the two discard piles."""
    n = table.n
    playing = state["playing"]
    rnd = state["round"] + 1
    # From the last round's starter on, to the next seat that plays this round.
    seats = (jnp.arange(n) + state["starter"] + 1) % n
    plays = playing[seats]
    order = seats[jnp.argsort(~plays, stable=True)]  # the starter first, then clockwise
    starter = order[0]
    players = playing.sum()
    dealt = players * jnp.where(players <= 6, rules.hand_size(6), rules.hand_size(8))
    cards = jnp.asarray(DECK_CARDS)[jax.random.permutation(key, CARDS)]
    position = jnp.arange(CARDS)
    to_seat = order[position % players]
    in_hand = position < dealt
    hands = jnp.zeros((n, V), jnp.int32).at[to_seat, cards].add(in_hand.astype(jnp.int32))
    left, right = cards[dealt], cards[dealt + 1]
    draw = jnp.asarray(DECK) - hands.sum(axis=0)
    draw = draw.at[left].add(-1).at[right].add(-1)
    stack = jnp.zeros((2, CARDS), jnp.int32).at[0, 0].set(left).at[1, 0].set(right)
    pile = jnp.zeros((2, V), jnp.int32).at[0, left].set(1).at[1, right].set(1)
    state = {
        **state,
        "hands": hands, "known": jnp.zeros((n, V), jnp.int32), "sizes": hands.sum(axis=1),
        "totals": (hands * jnp.arange(V)).sum(axis=1), "draw": draw,
        "draw_size": CARDS - dealt - 2, "stack": stack, "pile_size": jnp.ones(2, jnp.int32),
        "pile": pile, "round": rnd, "mover": starter, "starter": starter,
        "phase": jnp.int32(TURN),
        "discarded_on": jnp.int32(-1),
    }  # fmt: skip
    return state, cards, position < dealt + 2


def start_game(table: Table, key):
    return deal(table, new_game(table), key)


def end_round(table: Table, state, ending, declarer, action):
    """Score the round where ``ending``; then the game's end, or a wait for the deal."""
    n = table.n
    seats = jnp.arange(n)
    playing, totals = state["playing"], state["totals"]
    is_declarer = seats == declarer
    countdown, blastoff = action == DECLARE_COUNTDOWN, action == DECLARE_BLASTOFF
    ranked = playing & ~(blastoff & is_declarer)
    ranks = dense_ranks(totals, ranked)
    points = jnp.asarray(POINTS)[jnp.minimum(jnp.where(blastoff, ranks + 1, ranks), 4)]
    mine = jnp.where(is_declarer, totals, 0).sum()
    lower = (playing & (totals < mine)).any()
    alone = (playing & (totals == mine)).sum() == 1
    countdown_points = jnp.where(lower, 0, points + alone * rules.COUNTDOWN_BONUS)
    points = jnp.where(countdown & is_declarer, countdown_points, points)
    points = jnp.where(blastoff & is_declarer, rules.POINTS_BY_RANK[0], points)
    points = jnp.where(playing & ending, points, 0)
    scores = state["scores"] + points
    wins = state["wins"] + (playing & (points >= rules.ROUND_WIN_POINTS))
    if table.first_to_three:
        best = wins.max()
        leaders = wins == best
        winners = leaders & (best >= rules.ROUND_WINS_NEEDED) & (leaders.sum() == 1)
        next_playing = playing
    else:
        best = jnp.where(playing, scores, -1).max()
        leaders = playing & (scores == best)
        regular = state["round"] < table.rounds
        decided = (leaders.sum() == 1) | (state["extra"] >= rules.MAX_EXTRA_ROUNDS)
        winners = leaders & ~regular & decided
        next_playing = jnp.where(regular, playing, leaders)
    over = ending & winners.any()
    capped = ending & ~over & (state["turns"] >= table.max_turns)
    going_on = ending & ~over & ~capped
    extra = state["extra"]
    if not table.first_to_three:
        extra = extra + (going_on & (state["round"] >= table.rounds))
    return {
        **state,
        "scores": jnp.where(ending, scores, state["scores"]),
        "wins": jnp.where(ending, wins, state["wins"]),
        "winners": jnp.where(over, winners, state["winners"]),
        "playing": jnp.where(going_on, next_playing, playing),
        "extra": extra,
        "phase": jnp.where(over | capped, OVER, jnp.where(going_on, DEAL, state["phase"])),
    }


def next_playing_seat(table: Table, playing, seat):
    ahead = (seat + 1 + jnp.arange(table.n)) % table.n
    return ahead[jnp.argmax(playing[ahead])]


def move(table: Table, state, action, active, uniform):
    """One decision: a declaration, a discard or a draw (``uniform``: for a card from the
    draw pile). Returns the state and the card drawn (-1: none)."""
    mover = state["mover"]
    turn = active & (state["phase"] == TURN)
    declaring = turn & (action >= DECLARE_COUNTDOWN)
    discarding = turn & ~declaring
    drawing = active & (state["phase"] == DRAW)
    value = jnp.asarray(ACTION_VALUE)[jnp.minimum(action, NUM_ACTIONS - 1)]
    copies = jnp.asarray(ACTION_COUNT)[jnp.minimum(action, NUM_ACTIONS - 1)]
    pile = jnp.asarray(ACTION_PILE)[jnp.minimum(action, NUM_ACTIONS - 1)]
    # The discard.
    gone = jnp.where(discarding, copies, 0)
    hands = state["hands"].at[mover, value].add(-gone)
    known = state["known"].at[mover, value].set(jnp.maximum(state["known"][mover, value] - gone,
                                                            0))  # fmt: skip
    slots = jnp.arange(CARDS)
    top = state["pile_size"][pile]
    pushed = discarding & (slots >= top) & (slots < top + copies)
    stack = state["stack"].at[pile].set(jnp.where(pushed, value, state["stack"][pile]))
    pile_size = state["pile_size"].at[pile].add(gone)
    piles = state["pile"].at[pile, value].add(gone)
    sizes = state["sizes"].at[mover].add(-gone)
    totals = state["totals"].at[mover].add(-gone * value)
    discarded_on = jnp.where(discarding, pile, state["discarded_on"])
    other_has = pile_size[1 - pile] > 0
    reshufflable = (pile_size > 1).any()
    can_draw = other_has | (state["draw_size"] > 0) | reshufflable
    # The draw: from the other pile, or from the draw pile (reshuffled first when empty).
    from_pile = drawing & (action == DRAW_PILE)
    taking = (drawing & ~from_pile).astype(jnp.int32)
    source = jnp.clip(action - DRAW_LEFT, 0, 1)
    taken = stack[source, jnp.maximum(pile_size[source] - 1, 0)]
    pile_size = pile_size.at[source].add(-taking)
    piles = piles.at[source, taken].add(-taking)
    known = known.at[mover, taken].add(taking)
    draw, draw_size = state["draw"], state["draw_size"]
    refill = from_pile & (draw_size == 0)
    tops = stack[jnp.arange(2), jnp.maximum(pile_size - 1, 0)]
    kept = jax.nn.one_hot(tops, V, dtype=jnp.int32) * (pile_size > 0)[:, None]
    draw = jnp.where(refill, draw + (piles - kept).sum(axis=0), draw)
    piles = jnp.where(refill, kept, piles)
    stack = jnp.where(refill, stack.at[:, 0].set(tops), stack)
    pile_size = jnp.where(refill, jnp.minimum(pile_size, 1), pile_size)
    draw_size = jnp.where(refill, draw.sum(), draw_size)
    pick = (uniform * draw_size).astype(jnp.int32)
    drawn = (jnp.cumsum(draw) <= pick).sum()
    draw = draw.at[jnp.minimum(drawn, V - 1)].add(-from_pile.astype(jnp.int32))
    draw_size = draw_size - from_pile
    card = jnp.where(from_pile, drawn, taken)
    gained = drawing.astype(jnp.int32)
    hands = hands.at[mover, card].add(gained)
    sizes = sizes.at[mover].add(gained)
    totals = totals.at[mover].add(gained * card)
    state = {
        **state, "hands": hands, "known": known, "stack": stack, "pile_size": pile_size,
        "pile": piles, "sizes": sizes, "totals": totals, "discarded_on": discarded_on,
        "draw": draw, "draw_size": draw_size,
    }  # fmt: skip
    # The end of the turn, or of the round.
    stuck = discarding & ~can_draw  # nothing left to draw at all: the round ends
    ends_turn = drawing
    turns = state["turns"] + (ends_turn | declaring | stuck)
    capped = ends_turn & (turns >= table.max_turns)
    going_on = ends_turn & ~capped
    state = {
        **state, "turns": turns,
        "phase": jnp.where(discarding & can_draw, DRAW, jnp.where(capped, OVER, jnp.where(
            going_on, TURN, state["phase"]))),
        "mover": jnp.where(going_on, next_playing_seat(table, state["playing"], mover), mover),
    }  # fmt: skip
    state["discarded_on"] = jnp.where(going_on, -1, state["discarded_on"])
    ending = declaring | stuck
    state = end_round(table, state, ending, jnp.where(declaring, mover, -1),
                      jnp.where(declaring, action, -1))  # fmt: skip
    return state, jnp.where(from_pile, drawn, -1)


def legal(table: Table, state):
    mover = state["mover"]
    hand, size = state["hands"][mover], state["sizes"][mover]
    largest = hand - (hand == size)
    left, right = state["pile_size"] > 0
    onto = jnp.where(~left, ref.ONLY_LEFT, jnp.where(~right, ref.ONLY_RIGHT, ref.EITHER))
    copies = jnp.arange(1, MAX_SET + 1)
    allowed = copies[None, :] <= largest[:, None]
    piles = jnp.stack([onto != ref.ONLY_RIGHT, onto != ref.ONLY_LEFT])
    discards = (allowed[:, :, None] & piles[None, None, :]).ravel()
    turn = state["phase"] == TURN
    draw = state["phase"] == DRAW
    other = (1 - state["discarded_on"]) & 1
    from_other = state["pile_size"][other] > 0
    from_pile = (state["draw_size"] > 0) | (state["pile_size"] > 1).any()
    draws = jnp.zeros(3, bool).at[other].set(from_other).at[2].set(from_pile)
    declarations = jnp.stack([(state["totals"][mover] <= rules.COUNTDOWN_LIMIT) & (size > 1),
                              (hand == size).any()])  # fmt: skip
    return jnp.concatenate([discards & turn, draws & draw, declarations & turn])


def sample(table: Table, state, uniform):
    mask = legal(table, state)
    pick = (uniform * mask.sum()).astype(jnp.int32)
    return jnp.argmax(mask & (jnp.cumsum(mask) - 1 == pick))


def observe(table: Table, state, seat):
    n = table.n
    order = (seat + jnp.arange(n)) % n
    moving = (state["phase"] == TURN) | (state["phase"] == DRAW)
    per_seat = jnp.concatenate([
        jnp.asarray(HAND_SHARE)[state["sizes"][order]][:, None], state["known"][order] * 0.25,
        table.score_share[state["scores"][order]][:, None],
        table.win_share[state["wins"][order]][:, None],
        state["playing"][order][:, None], (moving & (order == state["mover"]))[:, None],
    ], axis=1)  # fmt: skip
    tops = state["stack"][jnp.arange(2), jnp.maximum(state["pile_size"] - 1, 0)]
    top = jax.nn.one_hot(tops, V) * (state["pile_size"] > 0)[:, None]
    parts = [
        jnp.asarray(HAND_SHARE)[state["hands"][seat]], per_seat.ravel(),
        jnp.asarray(PILE_SHARE)[state["pile"]].ravel(), top.ravel(),
        table.draw_share[state["draw_size"]][None],
        jax.nn.one_hot(state["phase"], len(ref.PHASES)),
    ]  # fmt: skip
    return jnp.concatenate(parts)


@cache
def compiled(
    players: int, rounds: int, max_turns: int
) -> tuple[StartGames, Deal, Move, Query, Sample, Observe]:
    """The jitted functions for one set of parameters, shared by every batch that has them."""
    table = Table(players, rounds, max_turns)
    rules_all = jax.vmap(partial(move, table))

    def move_all(state, actions, active, key):
        return rules_all(state, actions, active, jax.random.uniform(key, actions.shape))

    return (
        jax.jit(jax.vmap(partial(start_game, table))),
        jax.jit(jax.vmap(partial(deal, table))),
        jax.jit(move_all),
        jax.jit(jax.vmap(partial(legal, table))),
        jax.jit(jax.vmap(partial(sample, table))),
        jax.jit(jax.vmap(partial(observe, table), in_axes=(0, None))),
    )


class ThreeTwoOneJax(JaxBatch[ref.ThreeTwoOneGame]):
    """``tminus.batch.make("three_two_one", size, backend="jax")``."""

    name = "three_two_one"
    game_class = ref.ThreeTwoOneGame
    _deal: Deal

    def _allocate(self) -> None:
        game = self.game
        functions = compiled(game.num_players, game.rounds, game.max_turns)
        self._start_games, self._deal, self._move, self._legal_sets, self._sample, self._observe = (
            functions
        )
        self._setup_jax()

    def _apply(self, actions: np.ndarray, active: np.ndarray) -> None:
        super()._apply(actions, active)
        waiting = np.flatnonzero(self._host("phase") == DEAL)
        if len(waiting):  # a new round: deal to the games that wait for it
            self._in_chunks(waiting, lambda rows, keys: self._deal(self._rows(rows), keys))

    def current_player(self) -> np.ndarray:
        return np.where(self._host("phase") == OVER, TERMINAL, self._host("mover"))

    def terminal(self) -> np.ndarray:
        return self._host("phase") == OVER

    def returns(self) -> np.ndarray:
        return shared_win(self._host("winners"))

    def ended_by_turn_cap(self) -> np.ndarray:
        return self.terminal() & ~self._host("winners").any(axis=1)
