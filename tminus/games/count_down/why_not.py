"""Why a move of Count Down is not possible: the rule that forbids it, in words.

"You have only 300 and a complete Saturn V costs 500", "Radar is on your control card and
Bob holds only one: a forced sale is of a card its holder does not need". A decision of
another part of the turn says when it is made and what is asked now: "A photo card is
bought on its own square, when you stop there; now accept or refuse the offer of Bob".

``CountDownState._why_not`` asks here about an action of the game that is not legal for
the player to move (``State.why_not`` has said what every game shares). A reason reads
only what that player sees: money, squares, photo cards and parts are public; of the
secret agent cards it reads only the player's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tminus.games.count_down import auction, phases, trading
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
    FIXED,
    FORWARD,
    ONCE_MORE,
    PASS,
    PAY_FINE,
    PAY_RANSOM,
    REFUSE,
    ROLL,
    SELL,
    SELL_PART,
    SELL_SATURN,
    SIT_OUT,
    SQUATS,
    START_COUNT,
    SWAP,
    WAIT,
)
from tminus.games.count_down.countdown import missing_photos, ready_for_countdown
from tminus.games.count_down.squares import complete_rocket_in_stock
from tminus.games.count_down.words import centre_players, deal_photo
from tminus.games.phrasing import count_word, join

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState

Reason = Callable[["CountDownState", int, Sequence[str]], "str | None"]

# The kind of each fixed action: which decision it belongs to.
FIXED_KINDS = {
    ROLL: "roll",
    COUNT_DOWN: "countdown",
    FORWARD: "direction",
    BACKWARD: "direction",
    DECLINE: "decline",
    SQUATS: "training",
    PAY_FINE: "training",
    ONCE_MORE: "once more",
    END_TURN: "once more",
    DONE: "done",
    ACCEPT: "answer",
    REFUSE: "answer",
    SIT_OUT: "arrested",
    PAY_RANSOM: "arrested",
    START_COUNT: "count choice",
    WAIT: "count choice",
    PASS: "pass",
    BUY_SATURN: "saturn",
}

# When each kind of decision is made, as the rulebook (and the rulings) say it.
WHEN = {
    "roll": (
        "Roll and move is a choice only at the start of the turn of a player ready for the "
        "COUNTDOWN (otherwise the ball is simply rolled)"
    ),
    "countdown": "The COUNTDOWN begins at the start of your turn, instead of rolling to move",
    "direction": "You choose forward or backward only when the ball stops on 10, 11 or 12",
    "decline": "Not buying is a choice when you stop on a photo square or the Saturn V square",
    "training": "Squats or the fine are for the Astronaut training square, when you stop there",
    "once more": "Playing once more or ending the turn is asked only when you may play once more",
    "done": "Done ends your say in a meeting",
    "answer": "Accept and Refuse answer an offer, a price or a counter-offer made to you",
    "arrested": "Only an arrested agent sits out or pays the ransom",
    "count choice": (
        "Counting from a roll or waiting is chosen during a COUNTDOWN, after each of its "
        "first rolls"
    ),
    "pass": "Pass is for an auction",
    "saturn": "A Saturn V or its stages are bought on the Saturn V square, when you stop there",
    "buy photo": (
        "A photo card is bought on its own square, when you stop there, at the price noted on it"
    ),
    "debt": (
        "Cards and rocket parts are sold back to the leader only to pay a debt you cannot pay "
        "in money"
    ),
    "mission": "A mission is carried out by a player who stops in an opponent's forbidden zone",
    "target": "What a mission hits is chosen once the mission has succeeded",
    "price": "A price is named in a forced sale (ask or counter) or in an auction (bid)",
    "offer": "Offers and claims are made in a meeting, by the player who has the say",
}


def reason(state: CountDownState, action: int, names: Sequence[str]) -> str:
    """The rule that forbids ``action``: the decision asked now, then when it is made."""
    kind = kind_of(state, action)
    if kind == "countdown" and not ready(state):
        return countdown_needs_everything(state)
    rule = PHASE_RULES.get(state._phase)
    found = rule(state, action, names) if rule else None
    return found or f"{WHEN[kind]}; {asked_now(state, names)}."


CHANCE_FIRST = {
    phases.ROLL_OFF: "Nobody moves yet: each player rolls the ball for money and order of play.",
    phases.ROLL: "The ball is rolled first: nobody moves before the roll.",
    phases.SURPRISE_DRAW: "A surprise card is drawn first.",
    phases.AGENT_DRAW: "An agent card is drawn first.",
    phases.ARREST_ROLL: "The owner of the centre rolls for an arrest first.",
    phases.COUNT_ROLL: "The ball is rolled for the COUNTDOWN first.",
}


def chance_first(state: CountDownState) -> str:
    return CHANCE_FIRST.get(state._phase, "Chance goes first: nobody moves now.")


def kind_of(state: CountDownState, action: int) -> str:
    """Which decision ``action`` belongs to (a key of ``WHEN``)."""
    space = state.game.space
    if action < FIXED:
        return FIXED_KINDS[action]
    blocks = (
        (space.buy_part, "buy photo"),
        (space.sell_photo, "saturn"),
        (space.mission, "debt"),
        (space.take_photo, "mission"),
        (space.money, "target"),
        (space.propose, "price"),
    )
    for end, kind in blocks:
        if action < end:
            return kind
    return "debt" if action == space.sell_saturn else "offer"


def asked_now(state: CountDownState, names: Sequence[str]) -> str:
    """What the player to move is asked now, as the second half of a reason."""
    board, meeting, phase = state.game.board, state.meeting, state._phase
    if phase == phases.TURN_START:
        return "now start the COUNTDOWN or roll and move"
    if phase == phases.DIRECTION:
        return f"now go forward or back {state.turn.roll}"
    if phase == phases.BUY_PHOTO:
        return f"now buy the {square_photo(state)} card or not"
    if phase == phases.SATURN:
        return "now buy at the Saturn V or leave it"
    if phase == phases.TRAINING:
        return f"now do ten squats or pay the {board.squat_fine} fine"
    if phase == phases.DEBT:
        return f"now sell something to the leader to pay the {state.debts[0][2]} you owe"
    if phase == phases.PLAY_AGAIN:
        return "now play once more or end the turn"
    if phase == phases.MEETING:
        return "now it is your say in the meeting: propose something, or say you are done"
    if phase == phases.REPLY:
        return f"now accept or refuse the offer of {names[meeting.deal[0]]}"
    if phase == phases.ASK:
        return f"now name your price for the {deal_photo(state)} (a forced sale)"
    if phase == phases.COUNTER:
        return f"now accept the {meeting.ask} asked or counter with a lower price"
    if phase == phases.COUNTER_REPLY:
        mid = trading.midpoint_price(state)
        return f"now accept {meeting.counter} or refuse it (the price then settles at {mid})"
    if phase == phases.TARGET:
        return "now choose what the mission hits"
    if phase == phases.ARRESTED:
        return "now sit out or pay the ransom"
    if phase == phases.COUNT_CHOICE:
        return f"now count from this {state.turn.roll} or wait"
    if phase == phases.BID:
        return f"now bid for the {board.photo_names[state.auction.lots[0]]} or pass"
    return "now something else is asked"


# -- the COUNTDOWN --------------------------------------------------------------------------
def ready(state: CountDownState) -> bool:
    return ready_for_countdown(state, own_centre(state))


def countdown_needs_everything(state: CountDownState) -> str:
    """ "A player who has fully built their rocket and fulfilled all the conditions
    required by their control card may begin the COUNTDOWN." """
    board, centre = state.game.board, own_centre(state)
    parts = state.holdings[centre].parts
    lacking = [f"a {board.part_names[p]}" for p in range(4) if not parts[p]]
    photos = missing_photos(state, centre)
    if len(photos) <= 3:
        lacking += [f"the {board.photo_names[p]} card" for p in photos]
    else:
        lacking.append(f"{count_word(len(photos))} of its photo cards")
    return (
        "You may begin the COUNTDOWN only with your rocket complete and all the photo cards "
        f"of your control card; you still lack {join(lacking)}."
    )


# -- the squares ----------------------------------------------------------------------------
def photo_square(state: CountDownState, action: int, names: Sequence[str]) -> str | None:
    """ "The player may buy the card at the price noted on it": this square's card only."""
    if kind_of(state, action) != "buy photo":
        return None
    photo = square_photo(state)
    price = state.game.board.photo_values[state.game.board.photo_names.index(photo)]
    return f"On this square you can buy only the {photo} card (for {price})."


def saturn_v(state: CountDownState, action: int, names: Sequence[str]) -> str | None:
    """ "Buy the complete rocket ... for the flat price of 500 million. If there is no
    complete rocket left in stock, they may buy the remaining stages at the fixed prices." """
    if kind_of(state, action) != "saturn":
        return None
    board = state.game.board
    money = own_money(state)
    whole = complete_rocket_in_stock(state)
    if action == BUY_SATURN:
        if not whole:
            return "No complete rocket is left in stock: buy the stages that remain, one by one."
        return short_of_money(money, f"a complete Saturn V costs {board.saturn_price}")
    part = action - state.game.space.buy_part
    name = board.part_names[part]
    if whole:
        return (
            f"A complete rocket is still in stock: it is sold whole, for {board.saturn_price}; "
            "single stages only when no complete rocket is left."
        )
    if not state.leader.parts[part]:
        return f"No {name} is left in stock."
    return short_of_money(money, f"a {name} costs {board.part_prices[part]}")


def debt_sale(state: CountDownState, action: int, names: Sequence[str]) -> str | None:
    """Ruling: a debtor sells photo cards and parts back to the leader at face value; a
    Saturn V bought complete goes back whole."""
    if kind_of(state, action) != "debt":
        return None
    board, space = state.game.board, state.game.space
    held = state.holdings[state.debts[0][0]]
    if action == space.sell_saturn:
        return "You hold no Saturn V bought complete: its parts go back one by one."
    if action < space.sell_part:
        return f"You hold no {board.photo_names[action - space.sell_photo]} card to sell."
    part = action - space.sell_part
    if not held.parts[part]:
        return f"You hold no {board.part_names[part]} to sell."
    return (
        f"Your {board.part_names[part]} belongs to the complete Saturn V you bought: "
        f"\u201crockets may be sold only at their original price\u201d, so it goes back whole, "
        f"for {board.saturn_price}."
    )


# -- meetings ---------------------------------------------------------------------------------
def meeting(state: CountDownState, action: int, names: Sequence[str]) -> str | None:
    kind = kind_of(state, action)
    if kind == "mission":
        return mission(state, action - state.game.space.mission)
    if kind == "offer":
        return proposal(state, action, names)
    return None


def mission(state: CountDownState, card: int) -> str:
    """ "If they hold an espionage or sabotage card, they carry out their mission" in the
    forbidden zone where they stop."""
    if state.current_player() != state.turn.mover:
        return "Only the player who stopped in the forbidden zone carries out a mission."
    if state.meeting.zone_owner < 0:
        return "A mission is carried out only in an opponent's forbidden zone, and this is not one."
    return f"You hold no {state.game.board.agent_names[card]} card."


def proposal(state: CountDownState, action: int, names: Sequence[str]) -> str | None:
    """Who may propose to whom in a meeting, how often, and what each offer needs."""
    seat, meeting, centres = state.current_player(), state.meeting, state.seating.centre
    target, t = state.game.space.split_proposal(action)
    if target == seat:
        return "You cannot make an offer to yourself."
    if centres[target] == centres[seat]:
        return f"{names[target]} is your partner: you share one purse and one set of holdings."
    if meeting.proposals_left <= 0:
        made = count_word(state.game.board.offers_per_meeting)
        return f"You have made your {made} proposals in this meeting: say you are done."
    mover = state.turn.mover
    if seat != mover and target != mover:
        return f"In a meeting the players met propose only to the one who arrived, {names[mover]}."
    if seat == mover and target not in meeting.partners:
        return not_met(state, target, names)
    return offer(state, target, state.game.space.templates[t], names)


def not_met(state: CountDownState, target: int, names: Sequence[str]) -> str:
    """ "The two players must be together on the same square, or one of the players must
    arrive in the forbidden zone of the player to whom they have a deal to propose." """
    met = state.meeting.partners
    centre = state.seating.centre[target]
    through = [p for p in met if state.seating.centre[p] == centre]
    if through:
        return f"{names[target]}'s team is met through {names[through[0]]}: propose to them."
    return (
        f"{names[target]} is not in this meeting: deals are made with players on the same "
        f"square or in their forbidden zone (you meet {join([names[p] for p in met])})."
    )


def offer(
    state: CountDownState, target: int, template: tuple[int, int, int], names: Sequence[str]
) -> str | None:
    """What a proposal needs: both hold what they give ("no money, no sale"); a forced sale
    is of a card the seller does not need, to a buyer who lacks it."""
    kind, x, y = template
    me, them = Party(state, own_centre(state)), Party(state, state.seating.centre[target])
    them.called(names[target])
    if kind == SELL:
        return me.lacks_photo(x) or them.short_of(y)
    if kind == BUY:
        return them.lacks_photo(x) or me.short_of(y)
    if kind == SWAP:
        return me.lacks_photo(x) or them.lacks_photo(y)
    if kind == SELL_PART:
        return me.lacks_single_part(x) or them.short_of(y)
    if kind == BUY_PART_FROM:
        return them.lacks_single_part(x) or me.short_of(y)
    if kind == SELL_SATURN:
        return me.lacks_whole_rocket() or them.short_of(y)
    if kind == BUY_SATURN_FROM:
        return them.lacks_whole_rocket() or me.short_of(y)
    if kind == ASK_FOR:
        return forced_sale(state, target, x, names)
    if kind == DEMAND:
        return spare_part(me, them, x)
    return None


class Party:
    """One side of an offer, said to the player to move: "You have" or "Bob has"."""

    def __init__(self, state: CountDownState, centre: int) -> None:
        self.state, self.centre = state, centre
        self.held = state.holdings[centre]
        self.has, self.holds, self.whose = "You have", "You hold", "your"

    def called(self, name: str) -> None:
        self.has, self.holds, self.whose = f"{name} has", f"{name} holds", f"{name}'s"

    def lacks_photo(self, photo: int) -> str | None:
        if self.held.photos[photo]:
            return None
        return f"{self.holds} no {self.state.game.board.photo_names[photo]} card."

    def short_of(self, price: int) -> str | None:
        """ "No money, no sale": the payer must have the money when the offer is made."""
        if self.held.money >= price:
            return None
        return f"{self.has} only {self.held.money}, and the price is {price}: no money, no sale."

    def lacks_single_part(self, part: int) -> str | None:
        """Parts are sold one by one, except those of a Saturn V bought complete."""
        board = self.state.game.board
        name = board.part_names[part]
        if not self.held.parts[part]:
            return f"{self.has} no {name}."
        if trading.single_parts(self.state, self.centre, part) > 0:
            return None
        return (
            f"The {name} is part of {self.whose} complete Saturn V: \u201crockets may be sold "
            f"only at their original price\u201d, so it goes only with the whole rocket, for "
            f"{board.saturn_price}."
        )

    def lacks_whole_rocket(self) -> str | None:
        if self.held.saturn_v:
            return None
        return f"{self.holds} no Saturn V bought complete: only such a rocket is sold whole."


def spare_part(me: Party, them: Party, part: int) -> str | None:
    """ "The owner of the duplicate must sell it at the fixed price" to whoever needs it."""
    name = me.state.game.board.part_names[part]
    if me.held.parts[part]:
        return f"You already have a {name}: a spare part is claimed only by a player who lacks it."
    if them.held.parts[part] < 2:
        return f"{them.has} no spare {name}: only a second copy must be sold."
    return them.lacks_single_part(part)


def forced_sale(state: CountDownState, target: int, photo: int, names: Sequence[str]) -> str:
    """ "If a player has a photo card they do not need, they are obliged to sell it to the
    player who lacks it." """
    board = state.game.board
    name, other = board.photo_names[photo], names[target]
    centre = own_centre(state)
    if photo not in state.game.control_sets[centre]:
        return f"The {name} is not on your control card: a forced sale is only of a card you need."
    if state.holdings[centre].photos[photo]:
        return f"You already hold the {name} card: a forced sale is only of a card you lack."
    if not state.holdings[state.seating.centre[target]].photos[photo]:
        return f"{other} holds no {name} card."
    return (
        f"{other} needs their only {name} card (it is on their control card): only a card "
        "its holder does not need must be sold."
    )


# -- forced sales -----------------------------------------------------------------------------
def ask(state: CountDownState, action: int, names: Sequence[str]) -> str | None:
    """ "The sale price is fixed by mutual agreement between the indicated value and double
    that value. Boycotting is forbidden." The ask is never above what the buyer has."""
    kind = kind_of(state, action)
    low, high = trading.ask_range(state)
    buyer = names[state.meeting.deal[0]]
    if kind == "answer":
        return (
            f"{buyer} claims a card you do not need: you are obliged to sell it "
            f"(\u201cBoycotting is forbidden\u201d); name a price from {low} to {high}."
        )
    if kind != "price":
        return None
    value = low
    return (
        f"The price asked is between the card's value ({value}) and double it "
        f"({2 * value}), and never more than {buyer} has ({party_money(state, 0)}): "
        f"ask {low} to {high}."
    )


def counter(state: CountDownState, action: int, names: Sequence[str]) -> str | None:
    """The buyer accepts the ask or counters lower, never below the card's value."""
    kind = kind_of(state, action)
    asked = state.meeting.ask
    if action == REFUSE:
        return (
            f"A forced sale cannot be refused (\u201cBoycotting is forbidden\u201d): accept the "
            f"{asked} asked or counter with a lower price."
        )
    if kind != "price":
        return None
    low, _ = trading.ask_range(state)
    if asked <= low:
        return f"{asked} is the card's value, the lowest price there is: accept it."
    return f"A counter-offer is lower than the {asked} asked and at least the card's value ({low})."


# -- missions ---------------------------------------------------------------------------------
def target(state: CountDownState, action: int, names: Sequence[str]) -> str | None:
    """Stolen plans take a copy of a photo card from the leader; burnt film sends a photo
    card back; a sabotaged stage sends a part back to stock."""
    if kind_of(state, action) != "target":
        return None
    board, space = state.game.board, state.game.space
    card, centre = state.meeting.mission
    agent, victim = board.agent_names[card], centre_players(state, centre, names)
    held = state.holdings[centre]
    hits = board.agent_kinds[card]
    if action >= space.take_part:
        part = board.part_names[action - space.take_part]
        if hits != "part":
            return f"A {agent} mission hits photo cards, not rocket parts."
        return f"{victim} {has_have(state, centre)} no {part}."
    photo = action - space.take_photo
    name = board.photo_names[photo]
    if hits != "photo":
        return f"A {agent} mission hits a rocket part, not photo cards."
    if not held.photos[photo]:
        return f"{victim} {has_have(state, centre)} no {name} card."
    return (
        f"The leader has no {name} card left: you may obtain it only \u201cas long as it is "
        "still available from the game leader\u201d."
    )


def arrested(state: CountDownState, action: int, names: Sequence[str]) -> str | None:
    """Ruling: the ransom is paid only with money in hand; otherwise the agent sits out."""
    if action != PAY_RANSOM:
        return None
    board = state.game.board
    return (
        f"You have only {own_money(state)} and the ransom is {board.ransom}: it is paid only "
        f"with money in hand, so you sit out {count_word(board.turns_out)} turns."
    )


# -- the auction ------------------------------------------------------------------------------
def bid(state: CountDownState, action: int, names: Sequence[str]) -> str | None:
    """Bids open at half the card's value, rise by 10, go up to double its value (ruling)
    and never beyond what the bidder has."""
    if kind_of(state, action) != "price":
        return None
    board, lot = state.game.board, state.auction
    price = state._money_of(action)
    low, high = auction.bid_range(state)
    value = board.photo_values[lot.lots[0]]
    if price < low:
        if lot.high < 0:
            return f"The bidding opens at half the card's value: bid {low} or more."
        more = f"at least {board.step} more than the last ({lot.price})"
        return f"Each bid is {more}: bid {low} or more."
    if price > 2 * value:
        return f"Bids go up to double the card's value: {2 * value} at most."
    if high < low:
        return f"You have only {own_money(state)}: you cannot bid {low}, so pass."
    return f"You have only {own_money(state)}: bid {high} at most."


# -- what the player to move sees ---------------------------------------------------------
def own_centre(state: CountDownState) -> int:
    return state.seating.centre[state.current_player()]


def own_money(state: CountDownState) -> int:
    return state.holdings[own_centre(state)].money


def party_money(state: CountDownState, party: int) -> int:
    """The money of a party to the deal under way (0 the proposer, 1 the other)."""
    return state.holdings[state.seating.centre[state.meeting.deal[party]]].money


def short_of_money(money: int, costs: str) -> str:
    return f"You have only {money} and {costs}."


def square_photo(state: CountDownState) -> str:
    board = state.game.board
    return board.photo_names[board.args[state.turn.pos[state.turn.mover]]]


def has_have(state: CountDownState, centre: int) -> str:
    """ "Bob has", "Bob and Erin have" (a team of 6 players)."""
    return "have" if len(state.seating.seats_of[centre]) > 1 else "has"


PHASE_RULES: dict[int, Reason] = {
    phases.BUY_PHOTO: photo_square,
    phases.SATURN: saturn_v,
    phases.DEBT: debt_sale,
    phases.MEETING: meeting,
    phases.ASK: ask,
    phases.COUNTER: counter,
    phases.TARGET: target,
    phases.ARRESTED: arrested,
    phases.BID: bid,
}
