"""A Count Down player that tries to win: buys what its control card needs, builds its
rocket, trades for what it lacks, sends agents against the leader and starts the
countdown count when the exact solution of the COUNTDOWN for the game's ball says so
(``tminus.agents.solvers.count_down``: with the uniform ball, at 10 or more on the first
roll, 9 on the second, 8 on the third).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from tminus.agents.solvers.count_down import solve_game_countdown
from tminus.games.count_down import phases, trading
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
    END_TURN,
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
from tminus.games.count_down.game import CountDownGame, CountDownState


@dataclass(frozen=True)
class Wants:
    """A centre's holdings as a trade sees them."""

    money: int
    needed: frozenset[int]  # photo cards of its control card it lacks
    spare: frozenset[int]  # photo cards it can give up (a second copy, or not its own)
    missing: frozenset[int]  # rocket parts it lacks
    duplicates: frozenset[int]  # rocket parts it holds twice or more


class CountDownGreedy:
    name = "greedy"
    instant = True  # a move in microseconds (scripts/bot_think_time.py)

    def __init__(self, game: CountDownGame, seed: int | list[int] | None = None) -> None:
        self.game = game
        self.board = game.board
        self.space = game.space
        self.countdown = solve_game_countdown(game)

    # -- what my centre needs ------------------------------------------------------------
    # The rules' own tests: a card of its control card it lacks; a card it does not need.
    def needs_photo(self, state: CountDownState, centre: int, photo: int) -> bool:
        return trading.needs(state, centre, photo)

    def spare_photo(self, state: CountDownState, centre: int, photo: int) -> bool:
        return trading.unneeded(state, centre, photo)

    def missing_parts(self, state: CountDownState, centre: int) -> list[int]:
        return [p for p, n in enumerate(state.part_counts(centre)) if not n]

    def progress(self, state: CountDownState, centre: int) -> int:
        held = state.photo_counts(centre)
        photos = sum(1 for p in self.board.control[centre] if held[p])
        return photos + sum(1 for n in state.part_counts(centre) if n)

    def reserve(self, state: CountDownState, centre: int) -> int:
        """Money to keep for the photo cards still missing."""
        held = state.photo_counts(centre)
        return sum(self.board.photo_values[p] for p in self.board.control[centre] if not held[p])

    def leader(self, state: CountDownState, me: int) -> int:
        others = [c for c in state.centres_in_play() if c != me]
        return max(others, key=lambda c: self.progress(state, c)) if others else -1

    # -- the decision --------------------------------------------------------------------
    def step(self, state: CountDownState) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        me = state.centre_of(seat)
        phase = phases.CODES[state.phase()]
        choice = self.choose(state, phase, me, legal)
        return choice if choice in legal else legal[0]

    def choose(self, state: CountDownState, phase: int, me: int, legal: list[int]) -> int:
        space = self.space
        if phase == phases.TURN_START:
            return COUNT_DOWN
        if phase == phases.COUNT_CHOICE:
            # After roll number k of the attempt (k = countdown_waits), the solved rule.
            start = self.countdown.should_start(state.countdown_waits(), state.last_roll())
            return START_COUNT if start else WAIT
        if phase == phases.DIRECTION:
            roll = state.last_roll()
            here = state.position(state.current_player())
            ahead = self.square_value(state, me, (here + roll) % self.board.track_len)
            behind = self.square_value(state, me, (here - roll) % self.board.track_len)
            return BACKWARD if behind > ahead else FORWARD
        if phase == phases.BUY_PHOTO:
            photo = legal[-1] - space.buy_photo
            return legal[-1] if self.needs_photo(state, me, photo) else DECLINE
        if phase == phases.SATURN:
            return self.saturn(state, me, legal)
        if phase == phases.TRAINING:
            return SQUATS
        if phase == phases.DEBT:
            return min(legal, key=lambda a: self.keep_value(state, me, a))
        if phase == phases.PLAY_AGAIN:
            return ONCE_MORE if ONCE_MORE in legal else END_TURN
        if phase == phases.MEETING:
            return self.meeting(state, me, legal)
        if phase == phases.REPLY:
            return ACCEPT if self.good_offer_to_me(state, me) else REFUSE
        if phase == phases.ASK:
            return legal[-1]  # ask double: a counter then settles at the midpoint
        if phase == phases.COUNTER:
            counters = [a for a in legal if a != ACCEPT]
            return counters[0] if counters else ACCEPT
        if phase == phases.COUNTER_REPLY:
            return REFUSE  # the midpoint beats the counter
        if phase == phases.TARGET:
            return self.target(state, me, legal)
        if phase == phases.ARRESTED:
            rich = state.money(me) - self.board.ransom >= self.reserve(state, me)
            return PAY_RANSOM if rich and PAY_RANSOM in legal else SIT_OUT
        if phase == phases.BID:
            return self.bid(state, me, legal)
        return legal[0]

    # -- squares -------------------------------------------------------------------------
    def can_force(self, state: CountDownState, me: int, other: int) -> bool:
        """Does ``other`` hold a photo card we need and they do not, or a duplicate part we
        lack? Then a meeting forces them to sell it to us."""
        if other == me or other < 0:
            return False
        photos = any(
            self.needs_photo(state, me, p) and self.spare_photo(state, other, p)
            for p in self.board.control[me]
        )
        # A duplicate part not in a Saturn V they hold whole (that one is sold only whole).
        theirs, whole = state.part_counts(other), state.saturn_v_bought(other)
        missing = self.missing_parts(state, me)
        return photos or any(theirs[p] >= 2 and theirs[p] > whole for p in missing)

    def square_value(self, state: CountDownState, me: int, square: int) -> float:
        """What stopping there is worth to us; less where a player met would force us to
        sell them a card or part they lack."""
        board = self.board
        kind, arg = board.kinds[square], board.args[square]
        others = {
            state.centre_of(s)
            for s in range(self.game.num_players)
            if state.position(s) == square and state.centre_of(s) not in (me, -1)
        }
        if kind == "forbidden" and arg in state.centres_in_play():
            others.add(arg)
        if any(self.can_force(state, me, c) for c in others):
            return 12.0
        forced = any(self.can_force(state, c, me) for c in others)
        return self.square_gain(state, me, kind, arg) - (2.0 if forced else 0.0)

    def square_gain(self, state: CountDownState, me: int, kind: str, arg: int) -> float:
        """What the square itself gives us."""
        board = self.board
        money = state.money(me)
        if kind == "photo":
            wanted = self.needs_photo(state, me, arg) and state.photo_stock()[arg]
            return 10.0 if wanted and money >= board.photo_values[arg] else 0.0
        if kind == "part":
            if not state.part_stock()[arg]:
                return 0.5
            return 9.0 if not state.part_counts(me)[arg] else 1.0
        if kind == "saturn":
            return 6.0 if len(self.missing_parts(state, me)) >= 2 and money >= 500 else 0.0
        if kind == "funding":
            return arg / 40
        if kind in ("surprise", "espionage", "sabotage"):
            return 1.5
        if kind == "forbidden" and arg != me and arg in state.centres_in_play():
            holds_agent = any(state.own_agent_cards(state.current_player()))
            if holds_agent and arg == self.leader(state, me):
                return 7.0
            return -1.0
        return 0.0

    def saturn(self, state: CountDownState, me: int, legal: list[int]) -> int:
        missing = self.missing_parts(state, me)
        if BUY_SATURN in legal:
            worth = self.parts_worth(missing)
            return BUY_SATURN if worth >= self.board.saturn_price else DECLINE
        spare = state.money(me) - self.reserve(state, me) // 2
        for action in legal:
            part = action - self.space.buy_part
            if action != DECLINE and part in missing and self.board.part_prices[part] <= spare:
                return action
        return DECLINE

    def keep_value(self, state: CountDownState, me: int, action: int) -> float:
        """How much we would rather keep what this sale gives up (low: sell first)."""
        space = self.space
        if action == space.sell_saturn:  # a whole rocket: the last resort
            return 2000.0
        if action < space.sell_part:
            photo = action - space.sell_photo
            needed = photo in self.game.control_sets[me] and not self.spare_photo(state, me, photo)
            return (1000 if needed else 0) + self.board.photo_values[photo]
        part = action - space.sell_part
        return (1000 if state.part_counts(me)[part] == 1 else 0) + self.board.part_prices[part]

    # -- meetings ------------------------------------------------------------------------
    def wants(self, state: CountDownState, centre: int) -> Wants:
        """What ``centre`` needs and can spare, read once for a whole meeting's proposals."""
        parts = state.part_counts(centre)
        return Wants(
            money=state.money(centre),
            needed=trading.needed_photos(state, centre),
            spare=trading.unneeded_photos(state, centre),
            missing=frozenset(p for p, n in enumerate(parts) if not n),
            duplicates=frozenset(p for p, n in enumerate(parts) if n >= 2),
        )

    def meeting(self, state: CountDownState, me: int, legal: list[int]) -> int:
        """Our say, as the mover or as a player met: missions first, then the best
        proposal worth making, else done."""
        space = self.space
        missions = [a for a in legal if space.mission <= a < space.take_photo]
        if missions:
            return missions[0]
        owner, justified = state.forbidden_zone_visit()
        visiting = owner >= 0 and not justified and state.current_player() == state.mover()
        mine = self.wants(state, me)
        theirs: dict[int, Wants] = {}  # by seat
        best, best_score = DONE, 0.0
        propose, terms = space.propose, space.proposal_terms
        for action in legal[bisect_left(legal, propose) :]:  # (legal actions are sorted)
            seat, template = terms[action]
            if seat not in theirs:
                theirs[seat] = self.wants(state, state.centre_of(seat))
            score = self.proposal_score(mine, theirs[seat], template)
            if visiting and template[0] == ASK_FOR and state.centre_of(seat) == owner:
                score = max(score, 4.0)  # a claim on the owner justifies the visit, paid or not
            if score > best_score:
                best, best_score = action, score
        return best

    def proposal_score(self, mine: Wants, theirs: Wants, template: tuple[int, int, int]) -> float:
        kind, x, y = template
        values = self.board.photo_values
        if kind == ASK_FOR:  # a forced sale: only worth it if we can pay the value
            return 10.0 if mine.money >= values[x] else 0.0
        if kind == DEMAND:
            return 9.0 if mine.money >= y else 0.0
        if kind == BUY and x in mine.needed and x in theirs.spare:
            return 8.0 - y / values[x]  # cheapest first
        if kind == SWAP and y in mine.needed and x in mine.spare:
            return 7.0 if x in theirs.needed else 3.0
        if kind == SELL and x in mine.spare and x in theirs.needed:
            return 2.0 + y / values[x]  # dearest first
        if kind == BUY_PART_FROM and x in mine.missing:
            return 6.0
        if kind == SELL_PART and x in mine.duplicates:
            return 1.0 if x in theirs.missing else 0.0
        if kind == BUY_SATURN_FROM:  # a whole rocket, whole: worth it if we lack enough
            return 6.0 if self.parts_worth(mine.missing) >= y else 0.0
        return 0.0  # (our own whole Saturn V we keep)

    def parts_worth(self, parts: frozenset[int] | list[int]) -> int:
        """What these parts cost one by one at the fixed prices."""
        return sum(self.board.part_prices[p] for p in parts)

    def good_offer_to_me(self, state: CountDownState, me: int) -> bool:
        """Accept what gives us a card we need, or sells a spare at its value or more."""
        _, _, (kind, x, y), _, _ = state.pending_deal()
        values = self.board.photo_values
        if kind == SELL:  # they give photo x for our money y
            return self.needs_photo(state, me, x) and state.money(me) - y >= 0
        if kind == BUY:  # they pay y for our photo x
            return self.spare_photo(state, me, x) and y >= values[x]
        if kind == SWAP:  # they give x, want our y
            gain = self.needs_photo(state, me, x)
            return gain and self.spare_photo(state, me, y)
        if kind == SELL_PART:  # they give part x
            return x in self.missing_parts(state, me)
        if kind == BUY_PART_FROM:  # they want our part x
            return state.part_counts(me)[x] >= 2
        if kind == SELL_SATURN:  # they give a whole Saturn V for our y
            return self.parts_worth(self.missing_parts(state, me)) >= y
        return False  # (our whole Saturn V we keep)

    # -- agents and auction --------------------------------------------------------------
    def target(self, state: CountDownState, me: int, legal: list[int]) -> int:
        space = self.space
        card, victim = state.mission()
        if self.board.agent_green[card]:
            needed = [a for a in legal if self.needs_photo(state, me, a - space.take_photo)]
            pool = needed or legal
            return max(pool, key=lambda a: self.board.photo_values[a - space.take_photo])

        def hurt(action: int) -> float:
            if action >= space.take_part:
                part = action - space.take_part
                return 20.0 if state.part_counts(victim)[part] == 1 else 1.0
            photo = action - space.take_photo
            mine = photo in self.game.control_sets[victim]
            return (10.0 if mine else 0.0) + self.board.photo_values[photo] / 100

        return max(legal, key=hurt)

    def bid(self, state: CountDownState, me: int, legal: list[int]) -> int:
        photo = state.current_lot()
        if photo < 0 or not self.needs_photo(state, me, photo):
            return PASS
        bids = [a for a in legal if a != PASS]
        value = self.board.photo_values[photo]
        affordable = [a for a in bids if (a - self.space.money) * self.board.step <= value]
        return affordable[0] if affordable else PASS
