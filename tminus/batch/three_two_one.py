"""3-2-1 Countdown, a batch of games at once (NumPy).

A hand is 11 counts (copies of each value 0-10), as in the reference engine. A discard pile
is a stack of runs, one byte each (value << 4 | copies - 1): a discard pushes one run,
a draw from the pile takes one card off the top run. The deal shuffles a whole deck for
every game that starts a round and deals its top cards in turn: the same cards, with the
same chances, as the reference engine's one chance node a card.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from tminus.batch.base import BatchEnv
from tminus.core.game import TERMINAL
from tminus.games.three_two_one import game as ref
from tminus.games.three_two_one import rules
from tminus.games.three_two_one.actions import (
    DECLARE_BLASTOFF,
    DECLARE_COUNTDOWN,
    DRAW_LEFT,
    DRAW_PILE,
    LEFT,
    MAX_SET,
    NUM_ACTIONS,
    RIGHT,
    discard_parts,
)

V = len(rules.VALUES)
DECK = np.array(rules.DECK, dtype=np.int64)
DECK_CARDS = np.repeat(np.arange(V), rules.DECK)  # the 110 cards by value
TURN, DRAW, OVER = ref.TURN, ref.DRAW, ref.OVER
MAX_RUNS = rules.DECK_SIZE  # a pile never holds more runs than there are cards
POINTS = np.array([0, *rules.POINTS_BY_RANK, 0], dtype=np.int64)  # by dense rank, capped
# What a discard action is: value, copies and pile, by action id (0 beyond the discards).
_DISCARDS = [discard_parts(a) for a in range(DRAW_LEFT)]
ACTION_VALUE = np.array([v for v, _, _ in _DISCARDS] + [0] * 5, dtype=np.int64)
ACTION_COUNT = np.array([k for _, k, _ in _DISCARDS] + [0] * 5, dtype=np.int64)
ACTION_PILE = np.array([p for _, _, p in _DISCARDS] + [0] * 5, dtype=np.int64)
SCALE = 1 / MAX_SET
# The observation's pile contents add ``SCALE`` once a card (the reference's sum, exactly).
_sums = [0.0]
for _ in range(rules.DECK_SIZE):
    _sums.append(_sums[-1] + SCALE)
PILE_SHARE = np.array(_sums)
HAND_SHARE = np.array([c * SCALE for c in range(rules.DECK_SIZE + 1)])


class ThreeTwoOneBatch(BatchEnv[ref.ThreeTwoOneGame]):
    name = "three_two_one"
    game_class = ref.ThreeTwoOneGame

    def _allocate(self) -> None:
        b, n = self.batch_size, self.num_players
        game = self.game
        self.max_turns = game.max_turns
        self.rounds = game.rounds
        self.first_to_three = game.first_to_three
        self.hands = np.zeros((b, n, V), dtype=np.uint8)
        self.known = np.zeros((b, n, V), dtype=np.uint8)  # cards others saw it pick up
        self.sizes = np.zeros((b, n), dtype=np.int64)
        self.totals = np.zeros((b, n), dtype=np.int64)
        self.draw = np.zeros((b, V), dtype=np.uint8)
        self.draw_size = np.zeros(b, dtype=np.int64)
        self.runs = np.zeros((b, 2, MAX_RUNS), dtype=np.uint8)
        self.run_count = np.zeros((b, 2), dtype=np.int64)
        self.pile = np.zeros((b, 2, V), dtype=np.uint8)  # each pile's cards by value
        self.pile_size = np.zeros((b, 2), dtype=np.int64)
        self.scores = np.zeros((b, n), dtype=np.int16)
        self.wins = np.zeros((b, n), dtype=np.uint8)
        self.playing = np.zeros(b, dtype=np.int64)  # bit s: seat s plays this round
        self.round = np.zeros(b, dtype=np.int64)
        self.extra = np.zeros(b, dtype=np.int64)
        self.turns = np.zeros(b, dtype=np.int64)
        self.mover = np.zeros(b, dtype=np.int64)
        self.starter = np.zeros(b, dtype=np.uint8)  # the seat that started this round
        self.phase = np.zeros(b, dtype=np.int64)
        self.discarded_on = np.zeros(b, dtype=np.int64)
        self.winners = np.zeros(b, dtype=np.int64)  # bit s: seat s won
        # By ``playing << 3 | seat``: the first playing seat from ``seat`` on, clockwise,
        # and the next one after ``seat``.
        first, following = [], []
        for playing in range(1 << n):
            for seat in range(8):
                seats = [(seat + i) % n for i in range(n)]
                ahead = [s for s in seats if playing >> s & 1]
                first.append(ahead[0] if ahead and seat < n else 0)
                after = [s for s in seats[1:] if playing >> s & 1]
                following.append(after[0] if after and seat < n else 0)
        self._first_playing = np.array(first, dtype=np.int64)
        self._next_playing = np.array(following, dtype=np.int64)
        self._seat_bits = 1 << np.arange(n, dtype=np.int64)
        # By ``playing << 3 | starter``: the seats from the starter on, clockwise, those who
        # play first (the others after them, unused).
        order = []
        for playing in range(1 << n):
            for starter in range(8):
                seats = [(starter + i) % n for i in range(n)]
                plays = [s for s in seats if playing >> s & 1]
                order.append(plays + [s for s in seats if not playing >> s & 1])
        self._dealing_order = np.array(order, dtype=np.int64)

    def state_arrays(self) -> dict[str, np.ndarray]:
        return {
            name: getattr(self, name)
            for name in (
                "hands", "known", "sizes", "totals", "draw", "draw_size", "runs", "run_count",
                "pile", "pile_size", "scores", "wins", "playing", "round", "extra", "turns",
                "mover", "starter", "phase", "discarded_on", "winners",
            )
        }  # fmt: skip

    # -- starting a game and a round -------------------------------------------------------
    def _start(self, games: np.ndarray) -> None:
        n = self.num_players
        self.scores[games] = 0
        self.wins[games] = 0
        self.round[games] = 0
        self.extra[games] = 0
        self.turns[games] = 0
        self.winners[games] = 0
        self.starter[games] = n - 1  # (so that the first round starts at seat 0)
        self._start_round(games, np.full(len(games), (1 << n) - 1))

    def _start_round(self, games: np.ndarray, playing: np.ndarray) -> None:
        """Shuffle, deal a hand to each player of the round, turn up the two discard piles.

        "The youngest player starts the first round. The opportunity to play first rotates
        clockwise each round": seat 0 first, then from the last round's starter on to the next
        seat that plays this round (in extra rounds: among the tied players)."""
        n, count = self.num_players, len(games)
        self.round[games] += 1
        self.playing[games] = playing
        after_last = (self.starter[games].astype(np.int64) + 1) % n
        starter = self._first_playing.take(playing << 3 | after_last)
        self.starter[games] = starter
        players = np.zeros(count, dtype=np.int64)
        for seat in range(n):
            players += playing >> seat & 1
        hand_size = np.where(players <= 6, rules.hand_size(6), rules.hand_size(8))
        dealt = players * hand_size
        # The seats in dealing order: the starter, then clockwise among those who play.
        order = self._dealing_order[playing << 3 | starter]
        # A shuffled deck for each game: its first cards are dealt one by one, in turn, then
        # two are turned up, left then right.
        cards = DECK_CARDS[np.argsort(self.uniforms(games, rules.DECK_SIZE), axis=1)]
        position = np.arange(rules.DECK_SIZE)
        to_seat = order[np.arange(count)[:, None], position % players[:, None]]
        in_hand = position < dealt[:, None]
        self._record_ragged(games, cards, position < (dealt + 2)[:, None])
        slot = np.where(in_hand, to_seat * V + cards, n * V)
        slot += (np.arange(count) * (n * V + 1))[:, None]
        counts = np.bincount(slot.ravel(), minlength=count * (n * V + 1))
        hands = counts.reshape(count, n * V + 1)[:, : n * V].reshape(count, n, V)
        self.hands[games] = hands
        self.sizes[games] = hands.sum(axis=2)
        self.totals[games] = (hands * np.arange(V)).sum(axis=2)
        self.known[games] = 0
        rows = np.arange(count)
        left, right = cards[rows, dealt], cards[rows, dealt + 1]
        self.draw[games] = (
            DECK
            - hands.sum(axis=1)
            - np.eye(V, dtype=np.int64)[left]
            - np.eye(V, dtype=np.int64)[right]
        )
        self.draw_size[games] = rules.DECK_SIZE - dealt - 2
        self.runs[games, LEFT, 0] = left << 4
        self.runs[games, RIGHT, 0] = right << 4
        self.run_count[games] = 1
        self.pile[games] = 0
        self.pile[games, LEFT, left] = 1
        self.pile[games, RIGHT, right] = 1
        self.pile_size[games] = 1
        self.mover[games] = starter
        self.phase[games] = TURN
        self.discarded_on[games] = -1

    def _load(self, games: np.ndarray, states: list) -> None:
        """Reference states into rows. A pile's consecutive equal cards become runs of at
        most 16 (a draw takes the top card either way)."""
        n = self.num_players
        for game, state in zip(games.tolist(), states, strict=True):
            self.hands[game] = state._hands
            self.known[game] = state._known
            self.sizes[game] = state._sizes
            self.totals[game] = state._totals
            self.draw[game] = state._draw
            self.draw_size[game] = state._draw_size
            self.runs[game] = 0
            for side, cards in enumerate(state._piles):
                runs = pile_runs(cards)
                self.runs[game, side, : len(runs)] = runs
                self.run_count[game, side] = len(runs)
                self.pile[game, side] = np.bincount(np.asarray(cards, dtype=np.int64), minlength=V)
                self.pile_size[game, side] = len(cards)
            self.scores[game] = state._scores
            self.wins[game] = state._wins
            self.playing[game] = sum(1 << s for s in state._playing)
            self.round[game] = state._round
            self.extra[game] = state._extra
            self.turns[game] = state._turns
            self.mover[game] = state._mover
            self.starter[game] = state._starter
            self.phase[game] = state._phase
            self.discarded_on[game] = state._discarded_on
            winners = state._winners or []
            self.winners[game] = sum(1 << s for s in winners if 0 <= s < n)

    # -- queries about the position --------------------------------------------------------
    def _mover_rows(self, games: np.ndarray) -> np.ndarray:
        return games * self.num_players + self.mover.take(games)

    def mover_hand(self, games: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """(11, games): the mover's hand in each of ``games``, one row a value (so that
        sums over values run along the batch, fast). ``rows``: ``_mover_rows(games)``."""
        rows = self._mover_rows(games) if rows is None else rows
        return np.ascontiguousarray(self.hands.reshape(-1, V).take(rows, axis=0).T)

    def _discard_onto(self, games: np.ndarray) -> np.ndarray:
        """Where a discard may go: "If a discard pile is empty, they must discard there"
        (ONLY_LEFT, ONLY_RIGHT or EITHER, as the reference engine numbers them)."""
        sizes = self.pile_size.ravel()
        left, right = sizes.take(games * 2) > 0, sizes.take(games * 2 + 1) > 0
        # (arithmetic, not np.where: that is slow on masks that vary from game to game)
        return ~left * ref.ONLY_LEFT + (left & ~right) * ref.ONLY_RIGHT  # (EITHER is 0)

    def _turn_options(self, games: np.ndarray):
        """For each of ``games``: (largest discard of each value as (11, games), cards that
        can go, piles allowed, countdown open, blastoff open)."""
        rows = self._mover_rows(games)
        hand = self.mover_hand(games, rows)
        size, total = self.sizes.ravel().take(rows), self.totals.ravel().take(rows)
        # All of a number may go, but never the last card: only a hand of one number
        # ("Blastoff!" open) holds a number as many times as it has cards.
        full = hand == np.minimum(size, 255).astype(np.uint8)  # (as bytes: faster)
        largest = hand - full
        blastoff = full.any(axis=0)
        single = size == 1  # "a single card left": Blastoff is the only move
        countdown = (total <= rules.COUNTDOWN_LIMIT) & ~single
        return largest, size - blastoff, self._discard_onto(games), countdown, blastoff

    def _draw_options(self, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each of ``games``: (the other pile can be drawn from, the draw pile can be)."""
        other = (1 - self.discarded_on[games]) & 1  # (any pile while no discard is made)
        sizes = self.pile_size.ravel()
        from_other = sizes.take(games * 2 + other) > 0
        # A reshuffle gives both discard piles but their top cards.
        reshufflable = (sizes.take(games * 2) > 1) | (sizes.take(games * 2 + 1) > 1)
        return from_other, (self.draw_size.take(games) > 0) | reshufflable

    def _legal_mask(self) -> np.ndarray:
        b, games = self.batch_size, self._all
        mask = np.zeros((b, NUM_ACTIONS), dtype=bool)
        turn = self.phase == TURN
        largest, _, onto, countdown, blastoff = self._turn_options(games)
        copies = np.arange(1, MAX_SET + 1)
        allowed = copies[None, None, :] <= largest.T[:, :, None]  # (b, value, copies)
        piles = np.stack([onto != ref.ONLY_RIGHT, onto != ref.ONLY_LEFT], axis=1)
        discards = allowed[:, :, :, None] & piles[:, None, None, :]
        mask[:, :DRAW_LEFT] = discards.reshape(b, -1) & turn[:, None]
        mask[:, DECLARE_COUNTDOWN] = countdown & turn
        mask[:, DECLARE_BLASTOFF] = blastoff & turn
        draw = self.phase == DRAW
        from_other, from_pile = self._draw_options(games)
        mask[games, DRAW_LEFT + (1 - self.discarded_on) % 2] = draw & from_other
        mask[:, DRAW_PILE] = draw & from_pile
        return mask

    def sample_legal(self, uniform: np.ndarray) -> np.ndarray:
        actions = np.zeros(self.batch_size, dtype=np.int64)
        turn = np.flatnonzero(self.phase == TURN)
        if len(turn):
            actions[turn] = self._sample_turn(turn, uniform[turn])
        draw = np.flatnonzero(self.phase == DRAW)
        if len(draw):
            actions[draw] = self._sample_draw(draw, uniform[draw])
        return actions

    def _sample_turn(self, games: np.ndarray, uniform: np.ndarray) -> np.ndarray:
        largest, cards, onto, countdown, blastoff = self._turn_options(games)
        either = (onto == ref.EITHER).astype(np.int64)
        discards = cards << either  # every legal (value, copies) once per pile allowed
        pick = (uniform * (discards + countdown + blastoff)).astype(np.int64)
        # A discard: (value, copies) pairs in order are the discardable cards in order;
        # the pick's card gives the value, its place among that value's cards the copies.
        card = pick >> either
        after = running_totals(largest)
        value = count_rows_at_most(after, card)
        column = np.arange(len(games))
        before = (after - largest).ravel().take(np.minimum(value, V - 1) * len(games) + column)
        copies = card - before + 1
        # (choices by arithmetic: np.where is slow on masks that vary from game to game)
        pile = (pick & either) + (onto == ref.ONLY_RIGHT) * RIGHT  # (LEFT is 0)
        discard = (value * MAX_SET + copies - 1) * 2 + pile
        countdown_now = (pick == discards) & countdown
        declare = DECLARE_BLASTOFF + (DECLARE_COUNTDOWN - DECLARE_BLASTOFF) * countdown_now
        return declare + (discard - declare) * (pick < discards)

    def _sample_draw(self, games: np.ndarray, uniform: np.ndarray) -> np.ndarray:
        from_other, from_pile = self._draw_options(games)
        pick = (uniform * (from_other.astype(np.int64) + from_pile)).astype(np.int64)
        other = DRAW_LEFT + 1 - self.discarded_on.take(games)
        return DRAW_PILE + (other - DRAW_PILE) * ((pick == 0) & from_other)

    # -- a decision, for every game at once ------------------------------------------------
    def _apply(self, actions: np.ndarray, active: np.ndarray) -> None:
        self._record_where(active, actions)
        turn = active & (self.phase == TURN)
        declaring = turn & (actions >= DECLARE_COUNTDOWN)
        discarding = turn & ~declaring
        drawing = active & (self.phase == DRAW)
        if declaring.any():
            games = np.flatnonzero(declaring)
            self.turns[games] += 1
            self._end_rounds(games, self.mover[games], actions[games])
        if discarding.any():
            self._discard(np.flatnonzero(discarding), actions)
        if drawing.any():
            self._draw(np.flatnonzero(drawing), actions)

    def _discard(self, games: np.ndarray, actions: np.ndarray) -> None:
        """ "Discard at least one card onto either discard pile"; then the draw, unless
        there is nothing left to draw at all: the round ends with no declarer (RULINGS.md)."""
        a = actions[games]
        value, copies, pile = ACTION_VALUE.take(a), ACTION_COUNT.take(a), ACTION_PILE.take(a)
        row = self._mover_rows(games)
        cell = row * V + value
        self.hands.ravel()[cell] -= copies.astype(np.uint8)
        self.sizes.ravel()[row] -= copies
        self.totals.ravel()[row] -= value * copies
        known = self.known.ravel()
        known[cell] = np.maximum(known[cell].astype(np.int64) - copies, 0)
        stack = games * 2 + pile
        runs = self.run_count.ravel()
        self.runs.ravel()[stack * MAX_RUNS + runs[stack]] = value << 4 | (copies - 1)
        runs[stack] += 1
        self.pile.ravel()[stack * V + value] += copies.astype(np.uint8)
        self.pile_size.ravel()[stack] += copies
        self.discarded_on[games] = pile
        other = self.pile_size.ravel().take(games * 2 + 1 - pile) > 0
        sizes = self.pile_size.ravel()
        reshufflable = (sizes.take(games * 2) > 1) | (sizes.take(games * 2 + 1) > 1)
        can_draw = other | (self.draw_size.take(games) > 0) | reshufflable
        self.phase[games[can_draw]] = DRAW
        stuck = games[~can_draw]
        if len(stuck):
            self.turns[stuck] += 1
            self._end_rounds(stuck, np.full(len(stuck), -1), np.full(len(stuck), -1))

    def _draw(self, games: np.ndarray, actions: np.ndarray) -> None:
        """ "Draw a card from the other discard pile -or- risk drawing from ... the draw pile"."""
        a = actions[games]
        rows = self._mover_rows(games)
        from_pile = a == DRAW_PILE
        value = np.zeros(len(games), dtype=np.int64)
        taking = np.flatnonzero(~from_pile)
        if len(taking):
            stack = games[taking] * 2 + a[taking] - DRAW_LEFT
            runs = self.run_count.ravel()
            top = stack * MAX_RUNS + runs[stack] - 1
            run = self.runs.ravel()[top].astype(np.int64)
            taken = run >> 4
            last = (run & 15) == 0
            self.runs.ravel()[top] = (run - 1) * ~last
            runs[stack] -= last
            self.pile.ravel()[stack * V + taken] -= 1
            self.pile_size.ravel()[stack] -= 1
            cell = rows[taking] * V + taken
            self.known.ravel()[cell] += 1  # everyone saw which card was taken
            value[taking] = taken
        drawing = np.flatnonzero(from_pile)
        if len(drawing):
            from_draw = games[drawing]
            empty = from_draw[self.draw_size[from_draw] == 0]
            if len(empty):
                self._reshuffle(empty)
            drawn = self._draw_cards(from_draw)
            self._record(from_draw, drawn)
            value[drawing] = drawn
        self._add_to_hand(rows, value)
        self._end_turns(games)

    def _reshuffle(self, games: np.ndarray) -> None:
        """Shuffle both discard piles, except their top cards, into a new draw pile."""
        for pile in (LEFT, RIGHT):
            runs = self.run_count[games, pile]
            has = runs > 0
            top = self.runs[games, pile, np.maximum(runs - 1, 0)].astype(np.int64) >> 4
            kept = np.zeros((len(games), V), dtype=np.int64)
            kept[np.flatnonzero(has), top[has]] = 1
            self.draw[games] = self.draw[games] + self.pile[games, pile] - kept
            self.pile[games, pile] = kept
            self.pile_size[games, pile] = has
            self.runs[games, pile, 0] = np.where(has, top << 4, 0)
            self.run_count[games, pile] = has
        self.draw_size[games] = self.draw[games].sum(axis=1)

    def _draw_cards(self, games: np.ndarray) -> np.ndarray:
        """A card from the (unordered) draw pile of each game: value v with probability
        (copies of v left) / (cards left); it leaves the draw pile."""
        draw = self.draw.ravel().take(games[None, :] * V + np.arange(V)[:, None])
        pick = (self.uniforms(games) * self.draw_size[games]).astype(np.int64)
        value = count_rows_at_most(running_totals(draw), pick)
        self.draw.ravel()[games * V + value] -= 1
        self.draw_size[games] -= 1
        return value

    def _add_to_hand(self, row: np.ndarray, value: np.ndarray) -> None:
        """``value`` into the hand of each of ``row`` (``_mover_rows``)."""
        self.hands.ravel()[row * V + value] += 1
        self.sizes.ravel()[row] += 1
        self.totals.ravel()[row] += value

    def _end_turns(self, games: np.ndarray) -> None:
        self.turns[games] += 1
        capped = self.turns[games] >= self.max_turns
        self.phase[games[capped]] = OVER
        going_on = games[~capped]
        self.mover[going_on] = self._next_playing.take(
            self.playing[going_on] << 3 | self.mover[going_on]
        )
        self.phase[going_on] = TURN
        self.discarded_on[going_on] = -1

    # -- the end of a round and of the game ------------------------------------------------
    def _end_rounds(self, games: np.ndarray, declarer: np.ndarray, action: np.ndarray) -> None:
        """Score the round: "all players must reveal their cards and calculate the total"."""
        points = self._round_points(games, declarer, action)
        playing = (self.playing[games][:, None] >> np.arange(self.num_players) & 1).astype(bool)
        self.scores[games] = self.scores[games] + points
        self.wins[games] = self.wins[games] + (playing & (points >= rules.ROUND_WIN_POINTS))
        winners, next_playing = self._game_result(games, playing)
        over = winners > 0
        self.winners[games[over]] = winners[over]
        self.phase[games[over]] = OVER
        capped = ~over & (self.turns[games] >= self.max_turns)
        self.phase[games[capped]] = OVER
        going_on = ~over & ~capped
        more = games[going_on]
        if len(more):
            if not self.first_to_three:
                self.extra[more] += self.round[more] >= self.rounds
            self._start_round(more, next_playing[going_on])

    def _round_points(self, games: np.ndarray, declarer: np.ndarray, action: np.ndarray):
        """Each seat's points in the round (0 for those not playing): ``rules.score_round``."""
        n = self.num_players
        seats = np.arange(n)
        playing = (self.playing[games][:, None] >> seats & 1).astype(bool)
        totals = self.totals[games]
        is_declarer = seats[None, :] == declarer[:, None]
        countdown = (action == DECLARE_COUNTDOWN)[:, None]
        blastoff = (action == DECLARE_BLASTOFF)[:, None]
        # Blastoff: "the others are ranked among themselves".
        ranked = playing & ~(blastoff & is_declarer)
        ranks = dense_ranks(totals, ranked)
        points = POINTS[np.minimum(ranks, len(POINTS) - 1)]
        points = np.where(blastoff, POINTS[np.minimum(ranks + 1, 4)], points)
        mine = np.where(is_declarer, totals, 0).sum(axis=1)[:, None]
        lower = (playing & (totals < mine)).any(axis=1)[:, None]
        alone = (playing & (totals == mine)).sum(axis=1)[:, None] == 1
        # "If any player's hand total is lower than the 'Countdown!' declarer, the declarer
        # gets 0"; strictly lowest: "3 points + 1 bonus"; tied for lowest: 3, no bonus.
        countdown_points = np.where(lower, 0, points + alone * rules.COUNTDOWN_BONUS)
        points = np.where(countdown & is_declarer, countdown_points, points)
        points = np.where(blastoff & is_declarer, rules.POINTS_BY_RANK[0], points)
        return np.where(playing, points, 0)

    def _game_result(self, games: np.ndarray, playing: np.ndarray):
        """(winners as seat bits, 0 if none yet; who plays the next round, as seat bits)."""
        bits = self._seat_bits
        if self.first_to_three:
            # "The first player to win 3 rounds wins"; several: only one with more wins.
            wins = self.wins[games]
            best = wins.max(axis=1)
            leaders = wins == best[:, None]
            single = (best >= rules.ROUND_WINS_NEEDED) & (leaders.sum(axis=1) == 1)
            winners = np.where(single, (leaders * bits).sum(axis=1), 0)
            return winners, self.playing[games]
        scores = np.where(playing, self.scores[games], -1)
        leaders = playing & (scores == scores.max(axis=1)[:, None])
        leader_bits = (leaders * bits).sum(axis=1)
        regular = self.round[games] < self.rounds
        decided = (leaders.sum(axis=1) == 1) | (self.extra[games] >= rules.MAX_EXTRA_ROUNDS)
        winners = np.where(~regular & decided, leader_bits, 0)
        return winners, np.where(regular, self.playing[games], leader_bits)

    # -- the batch API ---------------------------------------------------------------------
    def current_player(self) -> np.ndarray:
        return np.where(self.phase == OVER, TERMINAL, self.mover)

    def terminal(self) -> np.ndarray:
        return self.phase == OVER

    def ended_by_turn_cap(self) -> np.ndarray:
        return (self.phase == OVER) & (self.winners == 0)

    def returns(self) -> np.ndarray:
        won = (self.winners[:, None] >> np.arange(self.num_players) & 1).astype(bool)
        return shared_win(won)

    def observation_tensor(self, seat: int) -> np.ndarray:
        """Own hand, then per seat (observer first) size, known cards, score, round wins,
        playing, moving; both piles' contents and tops, the draw pile's size, the phase."""
        self.check_seat(seat)
        b, n = self.batch_size, self.num_players
        parts = [HAND_SHARE[self.hands[:, seat]]]
        moving = (self.phase == TURN) | (self.phase == DRAW)
        for offset in range(n):
            s = (seat + offset) % n
            parts += [
                (self.sizes[:, s] * SCALE)[:, None],
                self.known[:, s] * 0.25,
                (self.scores[:, s] / 20)[:, None],
                (self.wins[:, s] / 3)[:, None],
                (self.playing >> s & 1).astype(np.float64)[:, None],
                (moving & (self.mover == s)).astype(np.float64)[:, None],
            ]
        parts += [PILE_SHARE[self.pile[:, LEFT]], PILE_SHARE[self.pile[:, RIGHT]]]
        for pile in (LEFT, RIGHT):
            top = np.zeros((b, V))
            runs = self.run_count[:, pile]
            has = np.flatnonzero(runs > 0)
            value = self.runs[has, pile, runs[has] - 1] >> 4
            top[has, value] = 1.0
            parts.append(top)
        phase = np.zeros((b, len(ref.PHASES)))
        phase[self._all, self.phase] = 1.0
        parts += [(self.draw_size / rules.DECK_SIZE)[:, None], phase]
        return np.concatenate(parts, axis=1).astype(np.float32)


def shared_win(won: np.ndarray) -> np.ndarray:
    """Returns from who won, (games, players) bools: each of k winners gets
    (n/k - 1)/(n - 1), the others -1/(n - 1) (the reference's arithmetic, in the same
    order); zeros where nobody won."""
    n = won.shape[1]
    k = won.sum(axis=1)
    share = n / np.maximum(k, 1)
    out = (np.where(won, share[:, None], 0.0) - 1.0) / (n - 1)
    return np.where((k > 0)[:, None], out, 0.0)


def pile_runs(cards: list[int]) -> list[int]:
    """A pile (values, top last) as run bytes: value << 4 | copies - 1, runs of at most 16."""
    runs: list[int] = []
    for value in cards:
        if runs and runs[-1] >> 4 == value and runs[-1] & 15 < 15:
            runs[-1] += 1
        else:
            runs.append(value << 4)
    return runs


def running_totals(rows: np.ndarray) -> np.ndarray:
    """``np.cumsum(rows, axis=0)`` for a few rows of many games, as int16: a loop over the
    rows is some 50 times faster than NumPy's cumsum along the first axis."""
    out = np.empty(rows.shape, dtype=np.int16)
    running = np.zeros(rows.shape[1], dtype=np.int16)
    for i, row in enumerate(rows):
        running += row
        out[i] = running
    return out


def count_rows_at_most(rows: np.ndarray, limit: np.ndarray) -> np.ndarray:
    """``(rows <= limit).sum(axis=0)`` for int16 rows (at most 255 of them): compared as
    int16 and summed as bytes, some ten times faster than with int64s."""
    at_most = rows <= limit.astype(np.int16)
    return at_most.view(np.uint8).sum(axis=0, dtype=np.uint8).astype(np.int64)


@cache
def _earlier(n: int) -> np.ndarray:
    return np.tril(np.ones((n, n), dtype=bool), -1)


def dense_ranks(totals: np.ndarray, among: np.ndarray) -> np.ndarray:
    """``rules.dense_ranks`` for each game: rank 1 for the lowest total of the seats
    ``among``, equal totals sharing a rank (seats not among them get a rank too; ignore it)."""
    n = totals.shape[1]
    same = totals[:, :, None] == totals[:, None, :]  # [g, i, j]: seats i and j tie
    earlier = _earlier(n)  # [i, j]: j before i
    # A seat "opens" its total when no seat before it among them has the same total.
    opens = among & ~(same & earlier[None] & among[:, None, :]).any(axis=2)
    lower = totals[:, None, :] < totals[:, :, None]  # [g, i, j]: j's total below i's
    return 1 + (lower & opens[:, None, :]).sum(axis=2)
