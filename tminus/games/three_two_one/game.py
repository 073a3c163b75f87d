"""3-2-1 Countdown as a T-minus game: the deal, turns of discard and draw, declarations, rounds.

The action ids are in ``actions.py``; the words people read in ``words.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tminus.core.game import CHANCE, TERMINAL, Game, GameType, TurnState
from tminus.core.params import Param
from tminus.core.positions import check_counts, check_each_in, check_in, check_length
from tminus.games.three_two_one import rules, why_not, words
from tminus.games.three_two_one.actions import (
    DECLARE_BLASTOFF,
    DECLARE_COUNTDOWN,
    DRAW_LEFT,
    DRAW_PILE,
    LEFT,
    MAX_SET,
    NUM_ACTIONS,
    PILE_NAMES,
    RIGHT,
    discard_action,
    discard_parts,
    move_to_string,
    move_to_struct,
)
from tminus.games.three_two_one.render import render
from tminus.games.three_two_one.rules import BLASTOFF, COUNTDOWN, DECK, VALUES

PHASES = ("deal", "turn up", "turn", "draw", "draw card", "over")
DEAL, TURN_UP, TURN, DRAW, DRAW_CARD, OVER = range(6)
NO_DECLARER = "nothing to draw"
EITHER, ONLY_LEFT, ONLY_RIGHT = 0, 1, 2  # where a discard may go (LEFT + 1, RIGHT + 1)


# DISCARD_RUNS[onto][value][k]: every discard of 1 to k cards of ``value``, in action order.
DISCARD_RUNS = [
    [
        [
            tuple(discard_action(value, count, pile) for count in range(1, k + 1) for pile in piles)
            for k in range(MAX_SET + 1)
        ]
        for value in VALUES
    ]
    for piles in ((LEFT, RIGHT), (LEFT,), (RIGHT,))
]


class ThreeTwoOneGame(Game):
    name = "three_two_one"
    title = "3-2-1 Countdown"
    game_type = GameType(information="imperfect", rounds=True)
    # 2: extra rounds rotate the start among the tied players; a Blastoff! has no total.
    rules_version = 2
    parameters = {
        "players": Param(
            4, "number of players", choices=tuple(range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1))
        ),
        "rounds": Param(
            5,
            "rounds before the highest score wins (4+ players; 3 suits large groups)",
            minimum=1,
            maximum=10,
        ),
        "max_turns": Param(
            20000, "turns after which an unfinished game is a draw", minimum=1, maximum=10**7
        ),
    }

    @classmethod
    def configurations(cls) -> list[dict[str, Any]]:
        # Whole games run to thousands of actions, too slow for adapter test suites: 2-3
        # players (first to three round wins) get a turn cap, larger tables one round.
        small = [{"players": n, "max_turns": 300} for n in (2, 3)]
        return small + [{"players": n, "rounds": 1} for n in range(4, rules.MAX_PLAYERS + 1)]

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        n = self.num_players = self.params["players"]
        self.rounds = self.params["rounds"]
        self.max_turns = self.params["max_turns"]
        self.first_to_three = rules.uses_first_to_three(n)
        self.num_distinct_actions = NUM_ACTIONS
        self.max_chance_outcomes = len(VALUES)
        # A turn is one declaration, or a discard, a draw and perhaps a drawn card: at most 3
        # actions. A round is its deal (cards dealt + 2 turned up) and at least one turn, and
        # the game ends at the latest when the turn cap is reached.
        longest_deal = max(rules.hand_size(m) * m for m in range(2, n + 1)) + 2
        most_rounds = self.max_turns
        if not self.first_to_three:
            most_rounds = min(most_rounds, self.rounds + rules.MAX_EXTRA_ROUNDS)
        self.max_game_length = 3 * self.max_turns + longest_deal * most_rounds
        self.max_utility = 1.0
        self.min_utility = -1.0 / (n - 1)
        self.next_seat = [(s + 1) % n for s in range(n)]

    def new_initial_state(self) -> ThreeTwoOneState:
        return ThreeTwoOneState(self)


class ThreeTwoOneState(TurnState[ThreeTwoOneGame]):
    __slots__ = (
        "_deal_to",
        "_dealt",
        "_discarded_on",
        "_draw",
        "_draw_size",
        "_extra",
        "_hands",
        "_history",
        "_known",
        "_last_round",
        "_mover",
        "_phase",
        "_pile_drawn",
        "_piles",
        "_player",
        "_playing",
        "_reshuffled",
        "_round",
        "_scores",
        "_sizes",
        "_starter",
        "_totals",
        "_turns",
        "_winners",
        "_wins",
        "game",
    )  # fmt: skip
    _starter: int  # the seat that started the round (set by the first deal)
    # Hands, what others saw of them and the draw pile are counts of each value (0-10);
    # the piles list card values, top last. Hand sizes and totals are remade from the hands.
    position_fields = (
        "scores", "wins", "round", "extra", "turns", "last_round", "winners", "playing",
        "starter", "deal_to", "dealt", "hands", "known", "pile_drawn", "reshuffled", "draw",
        "piles", "discarded_on", "mover", "phase", "player",
    )  # fmt: skip

    def __init__(self, game: ThreeTwoOneGame) -> None:
        self.game = game
        self._history: list[int] = []
        n = game.num_players
        self._scores = [0] * n
        self._wins = [0] * n  # rounds won (the 2-3 player rule)
        self._round = 0  # rounds started, extra rounds included
        self._extra = 0  # extra rounds started
        self._turns = 0
        self._last_round: dict[str, Any] | None = None
        self._winners: list[int] | None = None
        self._start_round(list(range(n)))

    # -- the deal ----------------------------------------------------------------------------
    def _start_round(self, playing: list[int]) -> None:
        """Shuffle, deal a hand to each player of the round, turn up the two discard piles."""
        game = self.game
        n = game.num_players
        self._round += 1
        self._playing = playing
        # "The youngest player starts the first round. The opportunity to play first rotates
        # clockwise each round": seat 0 first, then one seat on from the last round's
        # starter to the next seat that plays this round (among the tied, in extra rounds).
        starter = 0 if self._round == 1 else game.next_seat[self._starter]
        while starter not in playing:
            starter = game.next_seat[starter]
        self._starter = starter
        first = playing.index(starter)
        order = playing[first:] + playing[:first]
        self._deal_to = order * rules.hand_size(len(playing))
        self._dealt = 0
        self._hands = [[0] * len(VALUES) for _ in range(n)]
        self._sizes = [0] * n
        self._totals = [0] * n
        self._known = [[0] * len(VALUES) for _ in range(n)]
        self._pile_drawn = [[0] * len(VALUES) for _ in range(n)]
        self._reshuffled: list[int] | None = None
        self._draw = list(DECK)
        self._draw_size = rules.DECK_SIZE
        self._piles: list[list[int]] = [[], []]
        self._discarded_on = -1
        self._mover = starter
        self._phase = DEAL
        self._player = CHANCE

    # -- whose turn ----------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """A card from the unordered draw pile: each value weighted by the copies left."""
        if self._player != CHANCE:
            return []
        size = self._draw_size
        return [(v, c / size) for v, c in enumerate(self._draw) if c]

    def legal_actions(self) -> list[int]:
        phase = self._phase
        if phase == TURN:
            return self._turn_actions()
        if phase == DRAW:
            return self._draw_actions()
        return []

    def _turn_actions(self) -> list[int]:
        mover = self._mover
        hand = self._hands[mover]
        size = self._sizes[mover]
        if size == 1:
            # "With a single card left no discard is possible, so Blastoff is the only move."
            return [DECLARE_BLASTOFF]
        runs = DISCARD_RUNS[self._discard_onto()]
        actions: list[int] = []
        for value in VALUES:
            count = hand[value]
            if count:
                # "Multiple cards of the same number are discarded together" (any number of
                # them), but never the last card of the hand.
                actions += runs[value][count if count < size else size - 1]
        if rules.can_countdown(self._totals[mover]):
            actions.append(DECLARE_COUNTDOWN)
        if rules.can_blastoff(hand, size):
            actions.append(DECLARE_BLASTOFF)
        return actions

    def _discard_onto(self) -> int:
        """Where a discard may go: "If a discard pile is empty, they must discard there"."""
        piles = self._piles
        if not piles[LEFT]:
            return ONLY_LEFT
        return ONLY_RIGHT if not piles[RIGHT] else EITHER

    def _is_legal_turn(self, action: int) -> bool:
        mover = self._mover
        hand = self._hands[mover]
        size = self._sizes[mover]
        if action == DECLARE_BLASTOFF:
            return rules.can_blastoff(hand, size)
        if size == 1:
            return False
        if action == DECLARE_COUNTDOWN:
            return rules.can_countdown(self._totals[mover])
        if not 0 <= action < DRAW_LEFT:
            return False
        value, count, pile = discard_parts(action)
        onto = self._discard_onto()
        return count <= rules.largest_discard(hand[value], size) and onto in (EITHER, pile + 1)

    def _draw_actions(self) -> list[int]:
        """The draw: "from the other discard pile -or- risk drawing from ... the draw pile"."""
        other = 1 - self._discarded_on
        actions = [DRAW_LEFT + other] if self._piles[other] else []
        if self._draw_pile_available():
            actions.append(DRAW_PILE)
        return actions

    def _draw_pile_available(self) -> bool:
        return self._draw_size > 0 or self._reshufflable() > 0

    def _reshufflable(self) -> int:
        """Cards a reshuffle would give: both discard piles except their top cards."""
        return sum(max(0, len(pile) - 1) for pile in self._piles)

    def is_legal(self, action: int) -> bool:
        if self._player == CHANCE:
            return 0 <= action < len(VALUES) and self._draw[action] > 0
        if self._phase == TURN:
            return self._is_legal_turn(action)
        if self._phase == DRAW:
            if action == DRAW_PILE:
                return self._draw_pile_available()
            other = 1 - self._discarded_on
            return action == DRAW_LEFT + other and bool(self._piles[other])
        return False

    # -- rules, one per phase ------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        phase = self._phase
        if phase == TURN:
            if action == DECLARE_COUNTDOWN:
                self._declare(COUNTDOWN)
            elif action == DECLARE_BLASTOFF:
                self._declare(BLASTOFF)
            else:
                self._discard(*discard_parts(action))
        elif phase == DRAW:
            self._choose_draw(action)
        elif phase == DRAW_CARD:
            self._take_from_draw_pile(action)
        elif phase == DEAL:
            self._deal_card(action)
        else:
            self._turn_up(action)

    def _remove_from_draw_pile(self, value: int) -> None:
        self._draw[value] -= 1
        self._draw_size -= 1

    def _add_to_hand(self, seat: int, value: int) -> None:
        self._hands[seat][value] += 1
        self._sizes[seat] += 1
        self._totals[seat] += value

    def _deal_card(self, value: int) -> None:
        self._remove_from_draw_pile(value)
        self._add_to_hand(self._deal_to[self._dealt], value)
        self._dealt += 1
        if self._dealt == len(self._deal_to):
            self._phase = TURN_UP

    def _turn_up(self, value: int) -> None:
        """Start the discard piles: "Flip the top two cards face up, one on either side"."""
        self._remove_from_draw_pile(value)
        piles = self._piles
        piles[LEFT if not piles[LEFT] else RIGHT].append(value)
        if piles[RIGHT]:
            self._phase = TURN
            self._player = self._mover

    def _discard(self, value: int, count: int, pile: int) -> None:
        """The discard: "Discard at least one card onto either discard pile"."""
        mover = self._mover
        self._hands[mover][value] -= count
        self._sizes[mover] -= count
        self._totals[mover] -= value * count
        known = self._known[mover]
        known[value] = max(0, known[value] - count)
        self._piles[pile].extend([value] * count)
        self._discarded_on = pile
        if self._piles[1 - pile] or self._draw_pile_available():
            self._phase = DRAW
        else:
            # Nothing left to draw at all: the round ends with no declarer (RULINGS.md).
            self._turns += 1
            self._end_round(None, None)

    def _choose_draw(self, action: int) -> None:
        mover = self._mover
        if action == DRAW_PILE:
            if not self._draw_size:
                self._reshuffle()
            self._phase = DRAW_CARD
            self._player = CHANCE
            return
        value = self._piles[action - DRAW_LEFT].pop()
        self._add_to_hand(mover, value)
        self._known[mover][value] += 1  # everyone saw which card was taken
        self._end_turn()

    def _reshuffle(self) -> None:
        """Shuffle both discard piles, except their top cards, into a new draw pile."""
        draw = self._draw
        for pile in self._piles:
            for value in pile[:-1]:
                draw[value] += 1
            del pile[:-1]
        self._draw_size = sum(draw)
        self._reshuffled = draw.copy()
        self._pile_drawn = [[0] * len(VALUES) for _ in range(self.game.num_players)]

    def _take_from_draw_pile(self, value: int) -> None:
        mover = self._mover
        self._remove_from_draw_pile(value)
        self._add_to_hand(mover, value)
        if self._reshuffled is not None:
            self._pile_drawn[mover][value] += 1  # only the drawer knows which
        self._end_turn()

    def _end_turn(self) -> None:
        self._turns += 1
        if self._turns >= self.game.max_turns:
            self._end_in_draw()
            return
        playing = self._playing
        mover = self.game.next_seat[self._mover]
        while mover not in playing:
            mover = self.game.next_seat[mover]
        self._mover = mover
        self._phase = TURN
        self._player = mover
        self._discarded_on = -1

    def _declare(self, declaration: str) -> None:
        """Countdown! or Blastoff! at the start of a turn: "no further cards are played"."""
        self._turns += 1
        self._end_round(self._mover, declaration)

    def _end_in_draw(self) -> None:
        self._phase = OVER
        self._player = TERMINAL

    # -- ending a round and the game -----------------------------------------------------------
    def _end_round(self, declarer: int | None, declaration: str | None) -> None:
        """Score the round: "all players must reveal their cards and calculate the total"."""
        playing = self._playing
        totals = [self._totals[s] for s in playing]
        index = playing.index(declarer) if declarer is not None else None
        points = rules.score_round(totals, index, declaration)
        for seat, p in zip(playing, points, strict=True):
            self._scores[seat] += p
            if rules.won_round(p):
                self._wins[seat] += 1
        seats = range(self.game.num_players)
        hands = [self.hand(s) if s in playing else None for s in seats]
        shown_totals = [self._totals[s] if s in playing else None for s in seats]
        if declaration == BLASTOFF and declarer is not None:
            # "they can discard their entire hand": no hand left, so no total to show.
            hands[declarer], shown_totals[declarer] = [], None
        self._last_round = {
            "round": self._round,
            "declarer": declarer,
            "declaration": declaration or NO_DECLARER,
            "hands": hands,
            "totals": shown_totals,
            "points": [points[playing.index(s)] if s in playing else None for s in seats],
        }
        winners, next_playing = self._game_result()
        if winners is not None:
            self._winners = winners
            self._phase = OVER
            self._player = TERMINAL
        elif self._turns >= self.game.max_turns:
            self._end_in_draw()
        else:
            if self._round >= self.game.rounds and not self.game.first_to_three:
                self._extra += 1
            self._start_round(next_playing)

    def _game_result(self) -> tuple[list[int] | None, list[int]]:
        if self.game.first_to_three:
            winner = rules.first_to_three_winner(self._wins)
            return ([winner] if winner is not None else None), self._playing
        regular_left = self.game.rounds - self._round
        return rules.after_points_round(self._scores, self._playing, regular_left, self._extra)

    # -- names -----------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        phase = self._phase
        if phase == DEAL and 0 <= action < len(VALUES):
            return f"deal {action} to seat {self._deal_to[self._dealt]}"
        if phase == TURN_UP and 0 <= action < len(VALUES):
            return f"turn up {action} {'right' if self._piles[LEFT] else 'left'}"
        if phase == DRAW_CARD and 0 <= action < len(VALUES):
            return f"seat {self._mover} draws {action}"
        return move_to_string(action)

    def action_to_struct(self, action: int) -> dict[str, Any]:
        phase = self._phase
        if phase == DEAL and 0 <= action < len(VALUES):
            return {"kind": "deal", "value": action, "seat": self._deal_to[self._dealt]}
        if phase == TURN_UP and 0 <= action < len(VALUES):
            pile = "right" if self._piles[LEFT] else "left"
            return {"kind": "turn up", "value": action, "pile": pile}
        if phase == DRAW_CARD and 0 <= action < len(VALUES):
            return {"kind": "draw card", "value": action, "seat": self._mover}
        return move_to_struct(action)

    def action_to_string_for(self, seat: int | None, action: int) -> str:
        """Dealt and drawn cards show their value only to the seat that gets them."""
        if self._phase == DEAL and seat != self._deal_to[self._dealt]:
            return f"deal a card to seat {self._deal_to[self._dealt]}"
        if self._phase == DRAW_CARD and seat != self._mover:
            return f"seat {self._mover} draws a card"
        return self.action_to_string(action)

    # -- words for people (``words.py``) ---------------------------------------------------------
    def move_label(self, action: int, names: Sequence[str]) -> str:
        return words.move_label(self, action, names)

    def narrate(
        self,
        action: int,
        names: Sequence[str],
        viewer: int | None = None,
        *,
        reveal: bool = False,
    ) -> str:
        return words.narrate(self, action, names, viewer, reveal)

    # -- why a move is not possible (``why_not.py``) ----------------------------------------------
    def _why_not(self, action: int, names: Sequence[str]) -> str | None:
        return why_not.reason(self, action, names)

    def _chance_first(self) -> str:
        return why_not.chance_first(self)

    # -- results ---------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """Winners share a win: each of k winners gets (n/k - 1)/(n - 1), the others -1/(n - 1)."""
        if not self._winners:
            return [0.0] * self.game.num_players
        return _shared_win([s in self._winners for s in range(self.game.num_players)])

    def ended_by_turn_cap(self) -> bool:
        return self._phase == OVER and self._winners is None

    def placing_keys(self) -> list[tuple[bool, int]]:
        """The winners first, then what decides the game: rounds won with 2-3 players
        (first to three), points with 4-8 (the highest score wins)."""
        decides = self._wins if self.game.first_to_three else self._scores
        winners = self._winners or ()
        return [(seat in winners, decides[seat]) for seat in range(self.game.num_players)]

    def rounds_finished(self) -> int:
        return self._last_round["round"] if self._last_round else 0

    def round_returns(self) -> list[float]:
        """Won or lost, as for a game, where rounds are won (2-3 players); otherwise the
        round's points, a share of the most a round gives (4), on the same scale."""
        if self._last_round is None:
            raise ValueError("no round has been scored yet")
        n = self.game.num_players
        points = [p or 0 for p in self._last_round["points"]]
        if self.game.first_to_three:
            won = [rules.won_round(p) for p in points]
            return _shared_win(won) if any(won) else [0.0] * n
        low = -1.0 / (n - 1)
        best = rules.POINTS_BY_RANK[0] + rules.COUNTDOWN_BONUS
        return [low + (1.0 - low) * p / best for p in points]

    def mover(self) -> int:
        """The seat whose turn it is (also while its drawn card is being decided)."""
        return self._mover

    def hand(self, seat: int) -> list[int]:
        """``seat``'s hand as sorted values (for tests and the seat itself)."""
        return rules.hand_values(self._hands[seat])

    def draw_pile_counts(self) -> list[int]:
        return self._draw.copy()

    def phase(self) -> str:
        return PHASES[self._phase]

    def next_recipient(self) -> int | None:
        """The seat the next dealt card goes to (None when no card is being dealt)."""
        return self._deal_to[self._dealt] if self._phase == DEAL else None

    def discard_piles(self) -> tuple[list[int], list[int]]:
        """The left and right discard piles, top card last (public)."""
        return self._piles[LEFT].copy(), self._piles[RIGHT].copy()

    # -- views -------------------------------------------------------------------------------
    def public_observation(self) -> dict[str, Any]:
        game = self.game
        n = game.num_players
        return {
            "game": game.name,
            "players": n,
            "round": self._round,
            "extra_round": self._extra > 0,
            "rounds": game.rounds,
            "phase": PHASES[self._phase],
            "current_player": self._player,
            "mover": self._mover if self._phase in (TURN, DRAW, DRAW_CARD) else None,
            "starter": self._starter,
            "playing": list(self._playing),
            "hand_sizes": list(self._sizes),
            "known_cards": [rules.hand_values(k) for k in self._known],
            "discard_piles": [list(self._piles[LEFT]), list(self._piles[RIGHT])],
            "discarded_on": PILE_NAMES[self._discarded_on] if self._phase == DRAW else None,
            "draw_pile_size": self._draw_size,
            "reshuffled": rules.hand_values(self._reshuffled) if self._reshuffled else None,
            "scores": list(self._scores),
            "round_wins": list(self._wins),
            "last_round": _copy_round(self._last_round),
            "turn": self._turns,
            "max_turns": game.max_turns,
            # The rulebook's winners, a win shared by all included (``winners()``: nobody).
            "winners": list(self._winners) if self._winners is not None else None,
        }

    def observation(self, seat: int) -> dict[str, Any]:
        self.check_seat(seat)
        return {"seat": seat, "hand": self.hand(seat), **self.public_observation()}

    def observation_tensor(self, seat: int) -> np.ndarray:
        """Own hand, then per seat (observer first) size, known cards, score, round wins,
        playing, moving; both piles' contents and tops, the draw pile's size, the phase.
        float32, scaled to about 0-1."""
        self.check_seat(seat)
        n = self.game.num_players
        scale = 1 / MAX_SET
        values: list[float] = [c * scale for c in self._hands[seat]]
        moving = self._phase in (TURN, DRAW, DRAW_CARD)
        for offset in range(n):
            s = (seat + offset) % n
            values.append(self._sizes[s] * scale)
            values += [c * 0.25 for c in self._known[s]]
            values.append(self._scores[s] / 20)
            values.append(self._wins[s] / 3)
            values.append(float(s in self._playing))
            values.append(float(moving and s == self._mover))
        for pile in self._piles:
            contents = [0.0] * len(VALUES)
            for value in pile:
                contents[value] += scale
            values += contents
        for pile in self._piles:
            top = [0.0] * len(VALUES)
            if pile:
                top[pile[-1]] = 1.0
            values += top
        values.append(self._draw_size / rules.DECK_SIZE)
        phase = [0.0] * len(PHASES)
        phase[self._phase] = 1.0
        values += phase
        return np.array(values, dtype=np.float32)

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> ThreeTwoOneState:
        """A state ``seat`` cannot tell from this one: the cards it cannot see redealt.

        Kept: ``seat``'s hand, everything public (piles, sizes, scores, cards others were
        seen to pick up), and after a reshuffle the fact that the draw pile holds only
        reshuffled cards that ``seat`` did not draw itself. Redrawn at random: the other
        hands' unseen cards and the draw pile's contents.
        """
        self.check_seat(seat)
        copy = self.clone()
        if self._phase == OVER:
            return copy  # every hand is revealed; the draw pile is what is left of the deck
        others = [s for s in self._playing if s != seat]
        hidden = self._draw.copy()
        for s in others:
            for value in VALUES:
                hidden[value] += self._hands[s][value] - self._known[s][value]
        if self._reshuffled is None:
            new_draw = _sample(hidden, self._draw_size, rng)
            allowed: list[int] | None = None
        else:
            # The draw pile is what is left of the reshuffled cards, so it holds only cards
            # that were reshuffled and that ``seat`` did not draw itself.
            allowed = [r - d for r, d in zip(self._reshuffled, self._pile_drawn[seat], strict=True)]
            candidates = [min(a, h) for a, h in zip(allowed, hidden, strict=True)]
            new_draw = _sample(candidates, self._draw_size, rng)
        copy._draw = new_draw
        rest = [v for v in VALUES for _ in range(hidden[v] - new_draw[v])]
        rng.shuffle(rest)
        start = 0
        for s in others:
            unseen = self._sizes[s] - sum(self._known[s])
            hand = self._known[s].copy()
            for value in rest[start : start + unseen]:
                hand[value] += 1
            start += unseen
            copy._hands[s] = hand
            copy._totals[s] = rules.hand_total(hand)
        if allowed is not None:
            # Who drew which of the other reshuffled cards is redealt as well.
            drawn = [v for v in VALUES for _ in range(allowed[v] - new_draw[v])]
            rng.shuffle(drawn)
            start = 0
            for s in others:
                record = [0] * len(VALUES)
                for value in drawn[start : start + sum(self._pile_drawn[s])]:
                    record[value] += 1
                start += sum(self._pile_drawn[s])
                copy._pile_drawn[s] = record
        return copy

    def render(
        self, seat: int | None = None, names: Sequence[str] | None = None, width: int | None = None
    ) -> str:
        return render(self, seat, names, width)

    def _after_set_up(self) -> None:
        self._sizes = [sum(hand) for hand in self._hands]
        # A hand counts each value 0-10: the value is the index.
        self._totals = [sum(v * count for v, count in enumerate(hand)) for hand in self._hands]
        self._draw_size = sum(self._draw)

    def _check_position(self) -> None:
        n = self.game.num_players
        seats = range(n)
        check_in("phase", self._phase, range(len(PHASES)))
        check_each_in("playing", self._playing, seats)
        check_in("mover", self._mover, self._playing)
        check_in("starter", self._starter, self._playing)
        check_in("player", self._player, {OVER: [TERMINAL]}.get(self._phase, [CHANCE, *seats]))
        for name in ("scores", "wins", "hands", "known", "pile_drawn"):
            check_length(name, getattr(self, "_" + name), n)
        for name in ("hands", "known", "pile_drawn"):
            for counts in getattr(self, "_" + name):
                check_counts(name, counts, len(VALUES))
        check_counts("draw", self._draw, len(VALUES))
        check_length("piles", self._piles, 2)
        for pile in self._piles:
            check_each_in("piles", pile, VALUES)
        check_each_in("deal_to", self._deal_to, self._playing)
        check_in("dealt", self._dealt, range(len(self._deal_to) + 1))
        check_in("discarded_on", self._discarded_on, (-1, 0, 1))

    def clone(self) -> ThreeTwoOneState:
        copy = ThreeTwoOneState.__new__(ThreeTwoOneState)
        copy.game = self.game
        copy._history = self._history.copy()
        copy._dealt = self._dealt
        copy._deal_to = self._deal_to  # never changed in place
        copy._discarded_on = self._discarded_on
        copy._draw = self._draw.copy()
        copy._draw_size = self._draw_size
        copy._extra = self._extra
        copy._hands = [h.copy() for h in self._hands]
        copy._known = [k.copy() for k in self._known]
        copy._last_round = self._last_round  # replaced, never changed in place
        copy._mover = self._mover
        copy._phase = self._phase
        copy._pile_drawn = [d.copy() for d in self._pile_drawn]
        copy._piles = [self._piles[LEFT].copy(), self._piles[RIGHT].copy()]
        copy._player = self._player
        copy._playing = self._playing  # replaced, never changed in place
        copy._reshuffled = self._reshuffled  # replaced, never changed in place
        copy._round = self._round
        copy._scores = self._scores.copy()
        copy._sizes = self._sizes.copy()
        copy._starter = self._starter
        copy._totals = self._totals.copy()
        copy._turns = self._turns
        copy._winners = self._winners
        copy._wins = self._wins.copy()
        return copy

    def __str__(self) -> str:
        game = self.game
        lines = [
            f"3-2-1 Countdown ({game.num_players} players, {game.rounds} rounds), "
            f"round {self._round} (extra {self._extra}), {PHASES[self._phase]}, "
            f"turn {self._turns}/{game.max_turns}, starter {self._starter}, mover {self._mover}, "
            f"dealt {self._dealt}/{len(self._deal_to)}, discarded on {self._discarded_on}"
        ]
        for s in range(game.num_players):
            lines.append(
                f"seat {s}: hand {self.hand(s)} total {self._totals[s]} "
                f"known {rules.hand_values(self._known[s])} "
                f"drawn since reshuffle {rules.hand_values(self._pile_drawn[s])} "
                f"score {self._scores[s]} round wins {self._wins[s]}"
                f"{'' if s in self._playing else ' (not playing)'}"
            )
        lines.append(f"discard piles: {self._piles[LEFT]} | {self._piles[RIGHT]}")
        lines.append(f"draw pile: {self._draw_size} cards {self._draw}")
        lines.append(f"reshuffled: {self._reshuffled}")
        lines.append(f"last round: {self._last_round}")
        if self._phase == OVER:
            lines.append(
                f"winners: {self._winners}" if self._winners else "draw: the turn cap was reached"
            )
        return "\n".join(lines)


def _shared_win(won: list[bool]) -> list[float]:
    """Each of k winners gets (n/k - 1)/(n - 1), the others -1/(n - 1): the results add up to 0."""
    n = len(won)
    share = n / sum(won)
    return [((share if w else 0.0) - 1.0) / (n - 1) for w in won]


def _copy_round(last_round: dict[str, Any] | None) -> dict[str, Any] | None:
    if last_round is None:
        return None
    return {key: list(value) if isinstance(value, list) else value
            for key, value in last_round.items()}  # fmt: skip


def _sample(counts: list[int], size: int, rng: np.random.Generator) -> list[int]:
    """``size`` cards drawn at random, without replacement, from a multiset of counts."""
    cards = rules.hand_values(counts)
    chosen = [0] * len(VALUES)
    for index in rng.permutation(len(cards))[:size].tolist():
        chosen[cards[index]] += 1
    return chosen
