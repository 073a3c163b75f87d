"""Count Down as a T-minus game: the state, the dispatch of each phase to its rule, views.

The rules live in one module per phase (setup, turns, movement, squares, payments, trading,
missions, auction, countdown); the board, cards and prices in ``board.toml``. The state
keeps its fields in small records, each defined by the module of its phase and read and
written there through the state (``s.meeting.partners``, ``s.holdings[centre].money``):
``setup.RollOff`` and ``setup.Seating``, ``turns.Turn``, ``ledger.Holdings`` (one per
centre) and ``ledger.Leader``, ``squares.Piles``, ``trading.Meeting``, ``auction.Auction``,
``countdown.Countdown``; the state itself keeps the node (phase and player), the winner,
the debts, the history and the legal moves listed, which ``apply_action`` alone drops.
Action ids: see ``actions.py``. Chance outcome ids: a ball roll of n is n-1; a surprise
draw is the card's index; an agent draw is the agent card type's index.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tminus.core.game import CHANCE, TERMINAL, Game, GameType, TurnState
from tminus.core.params import Param
from tminus.core.positions import check_each_in, check_in, check_length
from tminus.games.count_down import (
    auction,
    ball,
    countdown,
    ledger,
    missions,
    movement,
    payments,
    phases,
    setup,
    squares,
    trading,
    turns,
    why_not,
    words,
)
from tminus.games.count_down.actions import (
    ACCEPT,
    BACKWARD,
    BUY_SATURN,
    COUNT_DOWN,
    DECLINE,
    DONE,
    END_TURN,
    FORWARD,
    ONCE_MORE,
    PASS,
    PAY_FINE,
    PAY_RANSOM,
    REFUSE,
    ROLL,
    SIT_OUT,
    SQUATS,
    START_COUNT,
    WAIT,
    ActionSpace,
)
from tminus.games.count_down.data import DEFAULT_BOARD, load_board
from tminus.games.count_down.fields import (
    CentreField,
    RecordField,
    StateField,
    lead_to_records,
)
from tminus.games.count_down.views import board_layout, observe, render_state, state_text, tensor
from tminus.games.phrasing import check_names


@dataclass(frozen=True)
class BoardParam(Param):
    """The board file: "default" (the reconstruction shipped with T-minus) or a TOML path."""

    def allowed(self) -> str:
        return "'default' or the path of a board TOML file"

    def validate(self, game: str, name: str, value: Any) -> Any:
        if not isinstance(value, str) or not value:
            raise ValueError(
                f"parameter {name!r} of {game} must be {self.allowed()}; got {value!r}"
            )
        return value


# The decisions of the phases whose choices never change (shared: never modified).
FIXED_DECISIONS: dict[int, tuple[int, ...]] = {
    phases.TURN_START: (ROLL, COUNT_DOWN),
    phases.DIRECTION: (FORWARD, BACKWARD),
    phases.TRAINING: (SQUATS, PAY_FINE),
    phases.PLAY_AGAIN: (ONCE_MORE, END_TURN),
    phases.REPLY: (ACCEPT, REFUSE),
    phases.COUNTER_REPLY: (ACCEPT, REFUSE),
    phases.COUNT_CHOICE: (START_COUNT, WAIT),
}

# Records that change only in phases of their own, shared by a state and its clones outside
# them; the rule that enters such a phase gives the state a fresh record: the roll-off and
# the seating it settles (the game starts there), a COUNTDOWN (``begin_countdown``), the
# auction (``start_auction``).
ROLLING_OFF = frozenset({phases.ROLL_OFF})
COUNTING = frozenset({phases.COUNT_ROLL, phases.COUNT_CHOICE})
BIDDING = frozenset({phases.BID})
SHARED_OUTSIDE = {
    "roll_off": ROLLING_OFF,
    "seating": ROLLING_OFF,
    "countdown": COUNTING,
    "auction": BIDDING,
}  # record -> its phases

# Generous bounds on decisions and chance nodes in one turn (moves, a square, debts sold,
# a mission, a countdown), in a meeting and in the one auction of a game: they bound
# max_game_length.
ACTIONS_PER_TURN = 50  # besides the meeting
MEETING_SEATS = 4  # the mover and at most one player for each other centre
ACTIONS_PER_PROPOSAL = 4  # the proposal, and a forced sale's ask, counter and answer
AUCTION_ACTIONS_PER_LOT = 8


# Where each position field is kept (``fields.py``); the phase, the player and the
# winner are the state's own.
RECORD_FIELDS: dict[str, RecordField | StateField | CentreField] = {
    "auction_done": RecordField("auction", "done"),
    "bid_at": RecordField("auction", "at"),
    "bidders": RecordField("auction", "bidders"),
    "lot_high": RecordField("auction", "high"),
    "lot_price": RecordField("auction", "price"),
    "lots": RecordField("auction", "lots"),
    "ask": RecordField("meeting", "ask"),
    "counter": RecordField("meeting", "counter"),
    "deal": RecordField("meeting", "deal", tuple),
    "dealt": RecordField("meeting", "justified"),
    "fz_owner": RecordField("meeting", "zone_owner"),
    "mission": RecordField("meeting", "mission", tuple),
    "partners": RecordField("meeting", "partners"),
    "proposals_left": RecordField("meeting", "proposals_left"),
    "say": RecordField("meeting", "say"),
    "capital_rolls": RecordField("roll_off", "capital_rolls"),
    "contenders": RecordField("roll_off", "contenders"),
    "first_round": RecordField("roll_off", "first_round"),
    "groups": RecordField("roll_off", "groups"),
    "tie_rolls": RecordField("roll_off", "tie_rolls"),
    "centre": RecordField("seating", "centre"),
    "in_service": RecordField("seating", "in_service"),
    "order": RecordField("seating", "order"),
    "seats_of": RecordField("seating", "seats_of"),
    "again": RecordField("turn", "again"),
    "mover": RecordField("turn", "mover"),
    "pos": RecordField("turn", "pos"),
    "roll": RecordField("turn", "roll"),
    "skip": RecordField("turn", "skip"),
    "turn_at": RecordField("turn", "at"),
    "turns": RecordField("turn", "number"),
    "agents": CentreField("agents", "agents"),
    "money": CentreField("money", "money"),
    "parts": CentreField("parts", "parts"),
    "photos": CentreField("photos", "photos"),
    "saturn_sets": CentreField("saturn_sets", "saturn_v"),
    "bank": RecordField("leader", "bank"),
    "part_stock": RecordField("leader", "parts"),
    "photo_stock": RecordField("leader", "photos"),
    "debts": StateField("debts", lambda debts: [tuple(debt) for debt in debts]),
    "draw_green": RecordField("piles", "draw_green"),
    "last_surprise": RecordField("piles", "last_surprise"),
    "pile": RecordField("piles", "agents"),
    "surprise_queue": RecordField("piles", "surprise_queue"),
    "surprise_unseen": RecordField("piles", "surprises_unseen"),
    "count_rolls": RecordField("countdown", "rolls"),
    "count_sum": RecordField("countdown", "total"),
    "count_waits": RecordField("countdown", "waits"),
}


class CountDownGame(Game):
    name = "count_down"
    title = "Count Down"
    # With 6 players partners are a team (``allies``).
    game_type = GameType(information="imperfect", layout=True, teams=True)
    # 2: everyone met has a say in a meeting; forced sales cannot be blocked; third players
    # in a forbidden zone meet the visitor; a Saturn V bought whole resells at its price;
    # "Strike at your centre" hits each partner of a team.
    # 3: a Saturn V bought whole is sold whole, at its price, to a player as to the leader
    # (its parts not one by one); partners are a declared team; the ball's weights are a
    # parameter. Every action of version 2 keeps its number (see ``actions``): a game of
    # version 2 replays unless it sold a part of a whole Saturn V, and is then refused.
    rules_version = 3
    parameters = {
        "players": Param(4, "number of players", choices=(2, 3, 4, 5, 6)),
        "board": BoardParam(
            DEFAULT_BOARD, "board, cards and prices (a TOML file)", local_only=True
        ),
        "arrest_max": Param(
            3, "the owner's roll at or below which an agent is arrested", minimum=0, maximum=12
        ),
        "ball_weights": ball.BallWeightsParam(
            ball.BOARD, "the ball's weights for 1 to 12 (uniform on the default board)"
        ),
        "max_turns": Param(
            2000, "turns after which an unfinished game is a draw", minimum=1, maximum=10**6
        ),
    }

    @classmethod
    def configurations(cls) -> list[dict[str, Any]]:
        # Whole games run to hundreds of turns; a cap of 60 turns keeps adapter test suites
        # quick while every mechanic still comes up across their many random games.
        return [{"players": n, "max_turns": 60} for n in (2, 3, 4, 5, 6)]

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.board = board = load_board(self.params["board"])
        self.num_players = n = self.params["players"]
        self.arrest_max = self.params["arrest_max"]
        self.max_turns = self.params["max_turns"]
        self.space = ActionSpace(board, n)
        self.num_distinct_actions = self.space.size
        self.max_chance_outcomes = max(12, len(board.surprises), len(board.agent_names))
        # Every roll of the ball (capital, moves, arrests, the countdown) rolls this ball.
        self.ball_weights = ball.weights_of(self.params["ball_weights"], board)
        self.ball = ball.chance_outcomes(self.ball_weights)
        self.ball_outcomes = frozenset(face for face, _ in self.ball)  # faces - 1
        self.units = tuple(setup.units_for(n))  # shared by every state: never modified
        self.in_service = setup.centres_in_service(n)
        self.control_sets = tuple(frozenset(c) for c in board.control)
        in_play = [c for c in range(4) if self.in_service[c]]
        self.needed_in_play = tuple(
            any(p in self.control_sets[c] for c in in_play) for p in range(len(board.photo_names))
        )
        # "When playing with two, three or six players, a player who receives a photo card
        # that nobody needs may play once more."
        self.once_more_for_unneeded = n in (2, 3, 6)
        holdings = sum(board.photo_copies) + 16
        meeting = MEETING_SEATS * (board.offers_per_meeting * ACTIONS_PER_PROPOSAL + 1)
        per_turn = ACTIONS_PER_TURN + meeting + 2 * holdings
        auction_len = board.auction_lots * (
            AUCTION_ACTIONS_PER_LOT + 2 * board.max_value // board.step
        )
        self.max_game_length = self.max_turns * per_turn + auction_len + 12 * n
        winners = 2 if n == 6 else 1
        losers = 4 if n == 6 else min(n, 4) - 1
        self.max_utility = 1.0
        self.min_utility = -winners / losers

    def new_initial_state(self) -> CountDownState:
        return CountDownState(self)

    def allies(self, seat: int) -> list[int]:
        """The seats that win together with ``seat``: with 6 players its partner and itself
        ("Two players are associated on each of the other three centres"), else itself."""
        for unit in self.units:
            if seat in unit:
                return sorted(unit)
        return [seat]  # the watching fifth seat plays with nobody

    def layout(self) -> dict[str, Any]:
        """The printed board, cards and prices: public, the same for every seat all game
        (the browser draws the track from it)."""
        return board_layout(self.board)


class CountDownState(TurnState[CountDownGame]):
    """A Count Down position: the node (``_phase``: what for, ``_player``: who acts), the
    winning centre (-1 none yet) and the records of the rules modules."""

    __slots__ = (
        "_history",
        "_legal",
        "_phase",
        "_player",
        "_winner",
        "auction",
        "countdown",
        "debts",
        "game",
        "holdings",
        "leader",
        "meeting",
        "piles",
        "roll_off",
        "seating",
        "turn",
    )  # fmt: skip
    # Every field of the rules modules (seats, centres 0-3, card and square indexes, phase
    # codes of ``phases``), by name; the legal moves listed are remade.
    position_fields = tuple(sorted(("phase", "player", "winner", *RECORD_FIELDS)))

    def __init__(self, game: CountDownGame) -> None:
        board = game.board
        n = game.num_players
        self.game = game
        self._history: list[int] = []
        self._legal: Sequence[int] | None = None  # never modified: shared by clones
        self._player = CHANCE
        self._winner = -1
        self.seating = setup.Seating(
            centre=[-1] * n,
            seats_of=[[] for _ in range(4)],
            order=[],
            in_service=list(game.in_service),
        )
        self.turn = turns.Turn(pos=[-1] * n, skip=[0] * n)
        photos, agents = len(board.photo_names), len(board.agent_names)
        self.holdings = [ledger.Holdings.empty(photos, agents) for _ in range(4)]
        self.leader = ledger.Leader(0, *setup.initial_stock(board, game.in_service))
        self.piles = squares.Piles(list(board.agent_copies), list(range(len(board.surprises))))
        # Payments owed (debtor, creditor, amount; -1 the leader), settled in order.
        self.debts: list[tuple[int, int, int]] = []
        self.meeting = trading.Meeting()
        self.auction = auction.Auction()
        self.countdown = countdown.Countdown()
        self.roll_off = setup.RollOff(capital_rolls=[[] for _ in game.units])
        setup.start_roll_off(self)

    # -- helpers the rule modules share ---------------------------------------------------
    def mover_centre(self) -> int:
        return self.seating.centre[self.turn.mover]

    def centres_in_play(self) -> list[int]:
        """Centres in service, in centre order."""
        return [c for c in range(4) if self.seating.seats_of[c]]

    def speaker(self, centre: int) -> int:
        """The seat that decides for a centre: the mover if theirs, else its first seat."""
        mover, seating = self.turn.mover, self.seating
        if mover >= 0 and seating.centre[mover] == centre:
            return mover
        return seating.seats_of[centre][0]

    def start_next_turn(self) -> None:
        turns.start_next_turn(self)

    def end_turn(self) -> None:
        turns.end_turn(self)

    def after_mission(self) -> None:
        trading.mission_carried_out(self)

    def end_in_draw(self) -> None:
        self._phase = phases.OVER
        self._player = TERMINAL

    def end_in_win(self, centre: int) -> None:
        self._winner = centre
        self._phase = phases.OVER
        self._player = TERMINAL

    # -- whose turn ----------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self._phase
        if self._player != CHANCE:
            return []
        if phase == phases.SURPRISE_DRAW:
            unseen = self.piles.surprises_unseen
            return [(card, 1 / len(unseen)) for card in unseen]
        if phase == phases.AGENT_DRAW:
            return squares.agent_draw_outcomes(self)
        return list(self.game.ball)

    def chance_stream(self) -> tuple[int, int]:
        """Each seat's rolls of the ball for each purpose are a stream of their own, and
        the surprise pile and the green and red agent piles one each: so a search comparing
        two moves on common random numbers meets the same rolls in both, even after one
        move drew a card."""
        phase = self._phase
        if phase == phases.SURPRISE_DRAW:
            return phase, -1
        if phase == phases.AGENT_DRAW:
            return phase, int(self.piles.draw_green)
        return phase, self.turn.mover

    def legal_actions(self) -> list[int]:
        if self._player < 0:
            return []
        if self._legal is None:
            self._legal = self._decisions()
        return list(self._legal)

    def is_legal(self, action: int) -> bool:
        player = self._player
        if player >= 0:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._decisions()
            return action in legal
        if player == TERMINAL:
            return False
        # A chance outcome, checked without listing the outcomes (see chance_outcomes).
        phase = self._phase
        if phase == phases.SURPRISE_DRAW:
            return action in self.piles.surprises_unseen
        if phase == phases.AGENT_DRAW:
            return squares.can_draw_agent_card(self, action)
        return action in self.game.ball_outcomes

    def _decisions(self) -> Sequence[int]:
        phase, s, space = self._phase, self, self.game.space
        if phase == phases.MEETING:  # the commonest: listed when the say began
            return trading.say_moves(s)
        fixed = FIXED_DECISIONS.get(phase)
        if fixed is not None:
            return fixed
        if phase == phases.BUY_PHOTO:
            photo = self.game.board.args[self.turn.pos[self.turn.mover]]
            return [DECLINE, space.buy_photo + photo]
        if phase == phases.SATURN:
            buys = squares.saturn_v_purchases(s)
            return (
                [DECLINE, BUY_SATURN]
                if buys == [-1]
                else [DECLINE] + [space.buy_part + p for p in buys]
            )
        if phase == phases.DEBT:
            return payments.debt_sales(s)
        if phase == phases.ASK:
            low, high = trading.ask_range(s)
            return self._money_actions(low, high)
        if phase == phases.COUNTER:
            step = self.game.board.step
            return [ACCEPT] + [space.money + p // step for p in trading.counter_prices(s)]
        if phase == phases.TARGET:
            return missions.mission_targets(s)
        if phase == phases.ARRESTED:
            pay = self.holdings[self.mover_centre()].money >= self.game.board.ransom
            return [SIT_OUT, PAY_RANSOM] if pay else [SIT_OUT]
        if phase == phases.BID:
            low, high = auction.bid_range(s)
            return [PASS, *self._money_actions(low, high)]
        raise AssertionError(f"no decisions in phase {phases.NAMES[phase]}")

    def _money_actions(self, low: int, high: int) -> list[int]:
        step = self.game.board.step
        base = self.game.space.money
        return [base + k for k in range(low // step, high // step + 1)]

    # -- rules, one per phase ------------------------------------------------------------
    def _apply(self, action: int) -> None:
        self._legal = None  # the one place the legal-move list is dropped
        phase = self._phase
        if self._player == CHANCE:
            face = action + 1
            if phase == phases.ROLL:
                movement.ball_roll(self, face)
            elif phase == phases.SURPRISE_DRAW:
                squares.follow_surprise(self, action)
            elif phase == phases.AGENT_DRAW:
                squares.draw_agent_card(self, action)
            elif phase == phases.ARREST_ROLL:
                missions.arrest_roll(self, face)
            elif phase == phases.COUNT_ROLL:
                countdown.countdown_roll(self, face)
            else:
                setup.roll_off(self, face)
            return
        space = self.game.space
        if phase == phases.TURN_START:
            if action == COUNT_DOWN:
                countdown.begin_countdown(self)
            else:
                self._phase, self._player = phases.ROLL, CHANCE
        elif phase == phases.DIRECTION:
            movement.move(self, self.turn.roll if action == FORWARD else -self.turn.roll)
        elif phase == phases.BUY_PHOTO:
            if action == DECLINE:
                squares.after_square(self)
            else:
                squares.buy_photo(self, action - space.buy_photo)
        elif phase == phases.SATURN:
            if action == DECLINE:
                squares.after_square(self)
            else:
                squares.buy_saturn(self, -1 if action == BUY_SATURN else action - space.buy_part)
        elif phase == phases.TRAINING:
            squares.astronaut_training(self, action == SQUATS)
        elif phase == phases.DEBT:
            if action == space.sell_saturn:
                payments.sell_saturn_to_leader(self)
            elif action < space.sell_part:
                payments.sell_photo_to_leader(self, action - space.sell_photo)
            else:
                payments.sell_part_to_leader(self, action - space.sell_part)
        elif phase == phases.PLAY_AGAIN:
            turns.play_once_more(self, action == ONCE_MORE)
        elif phase == phases.MEETING:
            if action == DONE:
                trading.done(self)
            elif action < space.propose:
                trading.start_mission(self, action)
            else:
                trading.propose(self, action)
        elif phase == phases.REPLY:
            trading.reply(self, action == ACCEPT)
        elif phase == phases.ASK:
            trading.ask(self, self._money_of(action))
        elif phase == phases.COUNTER:
            trading.counter(self, -1 if action == ACCEPT else self._money_of(action))
        elif phase == phases.COUNTER_REPLY:
            trading.counter_reply(self, action == ACCEPT)
        elif phase == phases.TARGET:
            missions.hit_target(self, action)
        elif phase == phases.ARRESTED:
            missions.arrested(self, action == PAY_RANSOM)
        elif phase == phases.COUNT_CHOICE:
            countdown.count_choice(self, action == START_COUNT)
        elif phase == phases.BID:
            if action == PASS:
                auction.pass_bid(self)
            else:
                auction.bid(self, self._money_of(action))

    def _money_of(self, action: int) -> int:
        return (action - self.game.space.money) * self.game.board.step

    # -- names ---------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        board = self.game.board
        if self._player == CHANCE:
            phase = self._phase
            if phase == phases.SURPRISE_DRAW and 0 <= action < len(board.surprises):
                return f"surprise: {board.surprises[action][0]}"
            if phase == phases.AGENT_DRAW and 0 <= action < len(board.agent_names):
                colour = "green" if board.agent_green[action] else "red"
                return f"{colour} card: {board.agent_names[action]}"
            return f"ball {action + 1}"
        verb = {phases.ASK: "ask", phases.COUNTER: "counter"}.get(self._phase, "bid")
        return self.game.space.name(action, verb)

    def action_to_struct(self, action: int) -> dict[str, Any]:
        board = self.game.board
        if self._player == CHANCE:
            phase = self._phase
            if phase == phases.SURPRISE_DRAW and 0 <= action < len(board.surprises):
                return {"kind": "surprise", "card": board.surprises[action][0]}
            if phase == phases.AGENT_DRAW and 0 <= action < len(board.agent_names):
                colour = "green" if board.agent_green[action] else "red"
                return {"kind": "agent card", "colour": colour, "card": board.agent_names[action]}
            return {"kind": "ball", "value": action + 1}
        verb = {phases.ASK: "ask", phases.COUNTER: "counter"}.get(self._phase, "bid")
        return self.game.space.struct(action, verb)

    def action_to_string_for(self, seat: int | None, action: int) -> str:
        """An agent card drawn reads "a green card" to everyone but its holder."""
        if (
            self._player == CHANCE
            and self._phase == phases.AGENT_DRAW
            and not self.sees_agents(seat, self.mover_centre())
        ):
            board = self.game.board
            if 0 <= action < len(board.agent_names):
                return f"a {'green' if board.agent_green[action] else 'red'} card"
        return self.action_to_string(action)

    # -- words for people (``words.py``) --------------------------------------------------
    def move_label(self, action: int, names: Sequence[str]) -> str:
        return words.move_label(self, action, names)

    def move_name(self, action: int, names: Sequence[str]) -> str:
        # (a button's words belong to the decision at hand: "Back to Surprise" would name
        # every move of another decision on a roll of 10)
        if self.is_legal(action):
            return self.move_label(action, names)
        return words.plain_name(self, action, names)

    def narrate(
        self,
        action: int,
        names: Sequence[str],
        viewer: int | None = None,
        *,
        reveal: bool = False,
    ) -> str:
        return words.narrate(self, action, names, viewer, reveal)

    # -- why a move is not possible (``why_not.py``) --------------------------------------
    def _why_not(self, action: int, names: Sequence[str]) -> str | None:
        return why_not.reason(self, action, names)

    def _chance_first(self) -> str:
        return why_not.chance_first(self)

    def prompt(self, seat: int, names: Sequence[str]) -> str | None:
        """What a meeting asks of ``seat``, said to them: "Bob asks you to sell Radar
        (forced sale): a price of 50 to 100" (None outside a meeting)."""
        check_names(self, names)
        return words.prompt(self, ["you" if s == seat else n for s, n in enumerate(names)])

    def sees_agents(self, seat: int | None, centre: int) -> bool:
        """A centre's agent cards are seen by its seats and by the watching fifth seat."""
        if seat is None:
            return False
        return self.seating.centre[seat] == centre or (self.game.num_players == 5 and seat == 4)

    # -- results -------------------------------------------------------------------------
    def returns(self) -> list[float]:
        n = self.game.num_players
        if self._winner < 0:
            return [0.0] * n
        winners = self.seating.seats_of[self._winner]
        players = [s for s in range(n) if self.seating.centre[s] >= 0]
        loss = -len(winners) / (len(players) - len(winners))
        return [
            1.0 if s in winners else (loss if self.seating.centre[s] >= 0 else 0.0)
            for s in range(n)
        ]

    def placing_keys(self) -> list[float | None]:
        """The returns rank the players (partners share a place); the fifth seat's
        watcher takes no part and has no place."""
        returns = self.returns()
        return [r if self.seating.centre[s] >= 0 else None for s, r in enumerate(returns)]

    def ended_by_turn_cap(self) -> bool:
        return self._phase == phases.OVER and self._winner < 0

    # -- read-only helpers for agents (public information, and a seat's own cards) -------
    def centre_of(self, seat: int) -> int:
        """The centre (0-3) a seat plays, -1 for the watching fifth seat."""
        return self.seating.centre[seat]

    def money(self, centre: int) -> int:
        return self.holdings[centre].money

    def photo_counts(self, centre: int) -> list[int]:
        return self.holdings[centre].photos.copy()

    def part_counts(self, centre: int) -> list[int]:
        return self.holdings[centre].parts.copy()

    def photo_stock(self) -> list[int]:
        return self.leader.photos.copy()

    def part_stock(self) -> list[int]:
        return self.leader.parts.copy()

    def own_agent_cards(self, seat: int) -> list[int]:
        """The agent cards (count per type) of ``seat``'s centre: secret to that seat."""
        return self.holdings[self.seating.centre[seat]].agents.copy()

    def agent_card_counts(self, centre: int) -> tuple[int, int]:
        """How many green and red cards a centre holds (public)."""
        green = self.game.board.agent_green
        cards = self.holdings[centre].agents
        return (
            sum(n for t, n in enumerate(cards) if green[t]),
            sum(n for t, n in enumerate(cards) if not green[t]),
        )

    def position(self, seat: int) -> int:
        return self.turn.pos[seat]

    def phase(self) -> str:
        return phases.NAMES[self._phase]

    def last_roll(self) -> int:
        return self.turn.roll

    def countdown_waits(self) -> int:
        """Rolls of the current countdown attempt made before the count started."""
        return self.countdown.waits

    def pending_deal(self) -> tuple[int, int, tuple[int, int, int], int, int]:
        """(proposer seat, other seat, offer template, ask, counter) of the open deal."""
        meeting = self.meeting
        proposer, target, t = meeting.deal
        return proposer, target, self.game.space.templates[t], meeting.ask, meeting.counter

    def mover(self) -> int:
        """The seat whose turn it is (also while others answer or have their say)."""
        return self.turn.mover

    def forbidden_zone_visit(self) -> tuple[int, bool]:
        """(the centre whose forbidden zone the mover visits, -1 if none; whether the
        visit is justified yet)."""
        return self.meeting.zone_owner, self.meeting.justified

    def saturn_v_bought(self, centre: int) -> int:
        """Saturn Vs a centre bought complete and still holds whole."""
        return self.holdings[centre].saturn_v

    def mission(self) -> tuple[int, int]:
        """(agent card type, target centre) of the mission being carried out."""
        card, target = self.meeting.mission
        return card, target

    def current_lot(self) -> int:
        """The photo card up for auction, -1 when there is none."""
        lots = self.auction.lots
        return lots[0] if lots else -1

    # -- views ---------------------------------------------------------------------------
    def public_observation(self) -> dict[str, Any]:
        return observe(self, None)

    def observation(self, seat: int) -> dict[str, Any]:
        self.check_seat(seat)
        return observe(self, seat)

    def observation_tensor(self, seat: int) -> np.ndarray:
        self.check_seat(seat)
        return tensor(self, seat)

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> CountDownState:
        """Redraw the agent cards ``seat`` cannot see: other centres' hands and the piles
        (each hand keeps its number of green and red cards).

        The cards are dealt uniformly among those places. This ignores the little a seat
        may infer from a card it saw go back to a pile (an approximation of its belief).
        """
        self.check_seat(seat)
        copy = self.clone()
        # The mover's missions depend on the cards redrawn: no list kept may be reused.
        copy._legal = copy.meeting.listed = None
        board = self.game.board
        # The hidden hands, then the piles: each a count of cards per type, redrawn in place.
        hidden = [copy.holdings[c].agents for c in range(4) if not self.sees_agents(seat, c)]
        pile = copy.piles.agents
        for green in (True, False):
            types = [t for t in range(len(board.agent_names)) if board.agent_green[t] == green]
            pool = [t for t in types for hand in hidden for _ in range(hand[t])]
            pool += [t for t in types for _ in range(pile[t])]
            cards = [pool[i] for i in rng.permutation(len(pool))]
            for hand in hidden:
                size = sum(hand[t] for t in types)
                for t in types:
                    hand[t] = 0
                for t in cards[:size]:
                    hand[t] += 1
                cards = cards[size:]
            for t in types:
                pile[t] = 0
            for t in cards:
                pile[t] += 1
        return copy

    def render(
        self, seat: int | None = None, names: Sequence[str] | None = None, width: int | None = None
    ) -> str:
        return render_state(self, seat, names, width)

    def _after_set_up(self) -> None:
        self._legal = self.meeting.listed = None
        self._own_shared_records()

    def _check_position(self) -> None:
        n = self.game.num_players
        seats = range(n)
        check_in("phase", self._phase, range(len(phases.NAMES)))
        check_in("player", self._player, [CHANCE, TERMINAL, *seats])
        check_in("mover", self.turn.mover, range(-1, n))
        check_length("centre", self.seating.centre, n)
        check_length("pos", self.turn.pos, n)
        check_length("skip", self.turn.skip, n)
        check_each_in("centre", self.seating.centre, range(-1, 4))
        check_each_in("pos", self.turn.pos, range(-1, self.game.board.track_len))
        check_length("seats_of", self.seating.seats_of, 4)
        check_each_in("order", self.seating.order, seats)

    def clone(self) -> CountDownState:
        """A copy sharing nothing that either may change: each record copied, except those
        that change only in phases of their own, shared outside them (``SHARED_OUTSIDE``)."""
        c = CountDownState.__new__(CountDownState)
        c.game = self.game
        c._history = self._history.copy()
        c._legal = self._legal  # never modified
        c._phase = phase = self._phase
        c._player = self._player
        c._winner = self._winner
        c.turn = self.turn.copy()
        c.holdings = [held.copy() for held in self.holdings]
        c.leader = self.leader.copy()
        c.piles = self.piles.copy()
        c.debts = self.debts.copy()  # each debt a tuple
        c.meeting = self.meeting.copy()
        if phase in ROLLING_OFF:
            c.roll_off, c.seating = self.roll_off.copy(), self.seating.copy()
        else:
            c.roll_off, c.seating = self.roll_off, self.seating
        c.countdown = self.countdown.copy() if phase in COUNTING else self.countdown
        c.auction = self.auction.copy() if phase in BIDDING else self.auction
        return c

    def _own_shared_records(self) -> None:
        """Copies of the records a clone may share: a position set up may be in any phase."""
        self.roll_off, self.seating = self.roll_off.copy(), self.seating.copy()
        self.countdown, self.auction = self.countdown.copy(), self.auction.copy()

    def __str__(self) -> str:
        return state_text(self)


lead_to_records(CountDownState, RECORD_FIELDS)
