"""Count Down in words: the squares' names, the buttons of a turn and the lines of the log.

"Alice rolls 7 and moves to Radar", "Alice offers Bob 50 for the Launch tower", "Carol
rolls 2: Alice is arrested". An agent card drawn is named only to those who see the
centre's agent cards (its seats and the watching fifth seat): the others read "Alice
draws a green card".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tminus.core.game import CHANCE
from tminus.games.count_down import phases
from tminus.games.count_down.actions import (
    ASK_FOR,
    BUY,
    BUY_SATURN,
    BUY_SATURN_FROM,
    COUNT_DOWN,
    DECLINE,
    DEMAND,
    DONE,
    FORWARD,
    ONCE_MORE,
    PASS,
    REFUSE,
    SATURN_V,
    SELL,
    SELL_PART,
    SELL_SATURN,
    SIT_OUT,
    SQUATS,
    START_COUNT,
    SWAP,
)
from tminus.games.count_down.movement import CHOICE_OF_DIRECTION
from tminus.games.count_down.trading import ask_range, midpoint_price
from tminus.games.phrasing import (
    Said,
    applied,
    check_action,
    check_decision,
    check_names,
    check_viewer,
    count_word,
    ending,
    join,
)

if TYPE_CHECKING:
    from tminus.games.count_down.data import BoardData
    from tminus.games.count_down.game import CountDownState

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
MEETING_PHASES = frozenset(
    {phases.MEETING, phases.REPLY, phases.ASK, phases.COUNTER, phases.COUNTER_REPLY}
)


def ordinal(n: int) -> str:
    """ "fourth"; past the words (a board file may allow more tries), "9th"."""
    return ORDINALS[n - 1] if 1 <= n <= len(ORDINALS) else f"{n}th"


# -- the board --------------------------------------------------------------------------
def square_name(board: BoardData, square: int) -> str:
    """A square as printed on the board: "Radar", "Stage 1", "Funding 100", "Launch ramp 2"."""
    kind, arg = board.kinds[square], board.args[square]
    if kind == "photo":
        return board.photo_names[arg]
    if kind == "part":
        return capitalised(board.part_names[arg])
    if kind == "ramp":
        return f"Launch ramp {arg + 1}"
    if kind == "forbidden":
        return f"Forbidden zone {arg + 1}"
    if kind == "funding":
        return f"Funding {arg}"
    return {
        "saturn": "Saturn V",
        "surprise": "Surprise",
        "espionage": "Espionage",
        "sabotage": "Sabotage",
        "training": "Astronaut training",
    }[kind]


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def centre_players(state: CountDownState, centre: int, names: Sequence[str]) -> str:
    """Who plays a centre: "Bob", or a team "Bob and Erin"."""
    return join([names[s] for s in state.seating.seats_of[centre]])


# -- buttons and log lines -------------------------------------------------------------
def move_label(state: CountDownState, action: int, names: Sequence[str]) -> str:
    """A legal decision as its button says it: "Buy Radar for 50", "Offer Bob 50 for ..."."""
    check_names(state, names)
    check_decision(state, action)
    return said(state, action, names)[0]


def plain_name(state: CountDownState, action: int, names: Sequence[str]) -> str:
    """Any action named by what it is, whatever the decision at hand: the engine's name,
    seats called by their names ("Offer Bob: 50 for Radar", "Buy photo Radar")."""
    check_names(state, names)
    text = re.sub(r"\bseat (\d+)", lambda m: names[int(m.group(1))], state.action_to_string(action))
    return text[:1].upper() + text[1:]


# -- the log ----------------------------------------------------------------------------
def narrate(
    state: CountDownState,
    action: int,
    names: Sequence[str],
    viewer: int | None,
    reveal: bool,
) -> str:
    check_names(state, names)
    check_viewer(state, viewer)
    check_action(state, action)
    if state.current_player() == CHANCE:
        line = chance_line(state, action, names, viewer, reveal)
    else:
        line = said(state, action, names)[1]
    return "; ".join([line, *consequences(state, action, names)])


def chance_line(
    state: CountDownState,
    action: int,
    names: Sequence[str],
    viewer: int | None,
    reveal: bool,
) -> str:
    phase, face = state._phase, action + 1
    if phase == phases.ROLL_OFF:
        return roll_off(state, face, names)
    who = names[state.turn.mover]
    if phase == phases.ROLL:
        return ball(state, face, who)
    if phase == phases.SURPRISE_DRAW:
        card = state.game.board.surprises[action][0]
        effect = surprise_effect(state, action)
        # Some cards say what they do ("Good weather: play once more"): not twice.
        said = "" if effect.lower() in card.lower() else f": {effect}"
        return f"{who} draws a surprise card, {card}{said}"
    if phase == phases.AGENT_DRAW:
        return agent_card(state, action, who, viewer, reveal)
    if phase == phases.ARREST_ROLL:
        return arrest_roll(state, face, who, names)
    return countdown_roll(state, face, who)


def roll_off(state: CountDownState, face: int, names: Sequence[str]) -> str:
    """ "Each player rolls the ball once ... one hundred million multiplied by the number"."""
    rolls = state.roll_off
    unit = rolls.contenders[len(rolls.tie_rolls)]
    seats = state.game.units[unit]
    if rolls.first_round:
        seat = seats[len(rolls.capital_rolls[unit])]
        money = face * state.game.board.capital_per_pip
        team = " for the team" if len(seats) > 1 else ""
        return f"{names[seat]} rolls {face}: {money} million to start with{team}"
    return f"{names[seats[0]]} rolls {face} to break the tie for the order of play"


def ball(state: CountDownState, face: int, who: str) -> str:
    """The ball for a move: where the rocket goes, or its two ways on 10, 11 and 12."""
    if face >= CHOICE_OF_DIRECTION:
        forward, backward = reach(state, face), reach(state, -face)
        return f"{who} rolls {face}: forward to {forward} or back to {backward}"
    return f"{who} rolls {face} and moves to {reach(state, face)}"


def reach(state: CountDownState, steps: int) -> str:
    """The square ``steps`` away from the mover, and the surprise waiting there if known."""
    board = state.game.board
    square = (state.turn.pos[state.turn.mover] + steps) % board.track_len
    name = square_name(board, square)
    piles = state.piles
    if board.kinds[square] == "surprise" and not piles.surprises_unseen:
        # Every card has been seen, so the pile's order is known: say which card is on top.
        name += f" (the top surprise card is {board.surprises[piles.surprise_queue[0]][0]})"
    return name


def surprise_effect(state: CountDownState, card: int) -> str:
    board = state.game.board
    _, kind, amount, photo, part, square = board.surprises[card]
    if kind == "money":
        return f"the leader pays {amount}" if amount >= 0 else f"pay {-amount} to the leader"
    if kind == "collect_each":
        return f"each other centre pays {amount}"
    if kind == "pay_each":
        return f"pay {amount} to each other centre"
    if kind == "photo":
        photo_name = board.photo_names[photo]
        if state.leader.photos[photo]:
            return f"a free {photo_name} card"
        return f"a free {photo_name} card, but none is left"
    if kind == "part":
        if state.leader.parts[part]:
            return f"a free {board.part_names[part]}"
        return f"a free {board.part_names[part]}, but none is left"
    if kind == "move_to":
        return f"go to {square_name(board, square)}"
    if kind == "go_home":
        return f"back to {home(state)}"
    if kind == "play_again":
        return "play once more"
    return "the next turn is lost"


def agent_card(state: CountDownState, card: int, who: str, viewer: int | None, reveal: bool) -> str:
    """The card's name only for those who see the centre's agent cards."""
    board = state.game.board
    pile = "green (espionage)" if state.piles.draw_green else "red (sabotage)"
    if reveal or state.sees_agents(viewer, state.mover_centre()):
        return f"{who} draws a {pile} card: {board.agent_names[card]}"
    return f"{who} draws a {pile} card"


def arrest_roll(state: CountDownState, face: int, who: str, names: Sequence[str]) -> str:
    """The owner of the centre rolls: 1 to ``arrest_max`` arrests the agent."""
    owner = names[state.speaker(state.meeting.mission[1])]
    if face <= state.game.arrest_max:
        return f"{owner} rolls {face} for an arrest: {who} is arrested"
    return f"{owner} rolls {face} for an arrest: the mission of {who} goes ahead"


def countdown_roll(state: CountDownState, face: int, who: str) -> str:
    board = state.game.board
    count = state.countdown
    if count.rolls == 0:
        attempt = count.waits + 1
        if attempt >= board.latest_start:
            return (
                f"{who} rolls {face} for the COUNTDOWN on the {ordinal(attempt)} roll: "
                f"the count must start with it ({face} of {board.countdown_target})"
            )
        return f"{who} rolls {face} for the COUNTDOWN: count from it or wait"
    total, rolls = count.total + face, count.rolls + 1
    if rolls < board.countdown_rolls:
        return f"{who} rolls {face}: {total} after {count_word(rolls)} rolls"
    if total >= board.countdown_target:
        return f"{who} rolls {face}: {total} in {count_word(rolls)} rolls, lift-off"
    return (
        f"{who} rolls {face}: {total} in {count_word(rolls)} rolls, short of "
        f"{board.countdown_target}; the COUNTDOWN fails this turn"
    )


def said(state: CountDownState, action: int, names: Sequence[str]) -> Said:
    """A decision, both ways: its button and its log line."""
    who = names[state.current_player()]
    return DECISIONS[state._phase](state, action, names, who)


def turn_start(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    """A player ready for the COUNTDOWN may begin it instead of moving."""
    if action == COUNT_DOWN:
        return "Start the COUNTDOWN", f"{who} starts the COUNTDOWN"
    return "Roll and move", f"{who} rolls to move (not to count down)"


def direction_choice(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    """On 10, 11 or 12 "the player may choose to move their rocket forward or backward"."""
    forward = action == FORWARD
    way = "forward" if forward else "back"
    square = reach(state, state.turn.roll if forward else -state.turn.roll)
    return f"{capitalised(way)} to {square}", f"{who} moves {way} {state.turn.roll} to {square}"


def photo_square(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    """ "The player may buy the card at the price noted on it." """
    board = state.game.board
    photo = board.args[state.turn.pos[state.turn.mover]]
    name, price = board.photo_names[photo], board.photo_values[photo]
    if action == DECLINE:
        return "Don't buy", f"{who} does not buy the {name} card"
    return f"Buy {name} for {price}", f"{who} buys the {name} card for {price}"


def saturn_v(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    """The complete rocket for the flat price, or the parts left at their fixed prices."""
    board = state.game.board
    if action == DECLINE:
        return "Leave the Saturn V", f"{who} leaves the Saturn V"
    if action == BUY_SATURN:
        return (
            f"Buy a complete Saturn V for {board.saturn_price}",
            f"{who} buys a complete Saturn V rocket for {board.saturn_price}",
        )
    part = action - state.game.space.buy_part
    bought = f"a {board.part_names[part]} for {board.part_prices[part]}"
    return f"Buy {bought}", f"{who} buys {bought}"


def training(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    """Ten correct squats, or "pay 10 million, a fine for insufficient fitness"."""
    if action == SQUATS:
        return "Do ten squats", f"{who} does ten squats"
    fine = state.game.board.squat_fine
    return f"Pay the {fine} fine", f"{who} pays a {fine} fine instead of doing the squats"


def debt(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    """A payment short of money: sell holdings back to the leader at face value (a Saturn V
    bought complete, whole, at what it cost)."""
    board, space = state.game.board, state.game.space
    if action == space.sell_saturn:
        thing, price = "the complete Saturn V", board.saturn_price
    elif action < space.sell_part:
        photo = action - space.sell_photo
        thing, price = f"the {board.photo_names[photo]} card", board.photo_values[photo]
    else:
        part = action - space.sell_part
        thing, price = f"a {board.part_names[part]}", board.part_prices[part]
    return (
        f"Sell {thing} to the leader for {price}",
        f"{who} sells {thing} back to the leader for {price} to pay a debt",
    )


def play_again(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    if action == ONCE_MORE:
        return "Play once more", f"{who} plays once more"
    return "End the turn", f"{who} ends the turn"


def meeting(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    """A say in a meeting: offers, forced sales, a mission (in a forbidden zone), or done."""
    board, space = state.game.board, state.game.space
    if action == DONE:
        return done(state, names, who)
    if action < space.propose:
        card = board.agent_names[action - space.mission]
        target = centre_players(state, state.meeting.zone_owner, names)
        return f"Mission: {card}", f"{who} shows a {card} card: a mission against {target}"
    seat, template = space.split_proposal(action)
    kind, a, c = space.templates[template]
    to = names[seat]
    money = state.holdings[state.seating.centre[state.current_player()]].money
    if kind == ASK_FOR:
        photo, value = board.photo_names[a], board.photo_values[a]
        short = f", but cannot pay its value ({value}): no sale" if money < value else ""
        return (
            f"Claim the {photo} from {to} (forced sale)",
            f"{who} claims the {photo} from {to} in a forced sale{short}",
        )
    if kind == DEMAND:
        spare = f"the spare {board.part_names[a]} from {to} for {c}"
        short = ", but cannot pay: no sale" if money < c else ""
        return f"Claim {spare}", f"{who} claims {spare}{short}"
    offer = f"{to} {terms(state, (kind, a, c))}"
    return f"Offer {offer}", f"{who} offers {offer}"


def done(state: CountDownState, names: Sequence[str], who: str) -> Said:
    """The end of a say: the next player met has theirs, or the meeting ends."""
    label = "Done"
    if state.current_player() == state.turn.mover and sent_home_on_leaving(state):
        label = f"Leave (back to {home(state)})"
    after = applied(state, DONE)
    if after._phase == phases.MEETING and after.turn.mover == state.turn.mover:
        return label, f"{who} is done: {names[after.current_player()]} has the say"
    return label, f"{who} ends the meeting"


def reply(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    """ "Only the agreement of the parties is needed": accept or refuse an offer."""
    proposer, _, t = state.meeting.deal
    offer = f"{terms(state, state.game.space.templates[t])} from {names[proposer]}"
    if action != REFUSE:
        return "Accept", f"{who} accepts {offer}"
    return "Refuse", f"{who} refuses {offer}"


def ask(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    """The forced seller names a price between the card's value and double it."""
    price = state._money_of(action)
    return f"Ask {price}", f"{who} asks {price} for the {deal_photo(state)}"


def counter(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    if action < state.game.space.money:  # ACCEPT
        return (
            f"Accept {state.meeting.ask}",
            f"{who} pays the {state.meeting.ask} asked for the {deal_photo(state)}",
        )
    price = state._money_of(action)
    return f"Counter with {price}", f"{who} offers {price} instead"


def counter_reply(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    """The seller accepts the counter, or the price settles at the midpoint."""
    if action == REFUSE:
        price = midpoint_price(state)
        return "Refuse", f"{who} refuses {state.meeting.counter}: the price settles at {price}"
    return "Accept", f"{who} accepts {state.meeting.counter} for the {deal_photo(state)}"


def target(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    """What a successful mission takes: a copy of a photo card, a card burnt, a part."""
    board, space = state.game.board, state.game.space
    card, centre = state.meeting.mission
    victim = centre_players(state, centre, names)
    if action >= space.take_part:
        hit = f"send the {board.part_names[action - space.take_part]} of {victim} back to stock"
    elif board.agent_green[card]:
        photo = board.photo_names[action - space.take_photo]
        hit = f"take a copy of the {photo} of {victim} from the leader"
    else:
        photo = board.photo_names[action - space.take_photo]
        hit = f"send the {photo} of {victim} back to the leader"
    return capitalised(hit), f"{who} uses the mission to {hit}"


def arrested(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    """ "let three turns pass without playing, or pay a ransom of 300 million"."""
    board = state.game.board
    if action == SIT_OUT:
        turns = count_word(board.turns_out)
        return f"Sit out {turns} turns", f"{who} sits out the next {turns} turns"
    owner = centre_players(state, state.meeting.mission[1], names)
    return f"Pay the {board.ransom} ransom", f"{who} pays a ransom of {board.ransom} to {owner}"


def count_choice(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    """ "start counting only from the moment the ball stops on a high number"."""
    if action == START_COUNT:
        return f"Count from this {state.turn.roll}", f"{who} counts from this {state.turn.roll}"
    return "Wait", f"{who} waits for a higher roll"


def bid(state: CountDownState, action: int, names: Sequence[str], who: str) -> Said:
    lot = state.game.board.photo_names[state.auction.lots[0]]
    if action == PASS:
        return "Pass", f"{who} passes on the {lot}"
    price = state._money_of(action)
    return f"Bid {price}", f"{who} bids {price} for the {lot}"


DECISIONS = {
    phases.TURN_START: turn_start,
    phases.DIRECTION: direction_choice,
    phases.BUY_PHOTO: photo_square,
    phases.SATURN: saturn_v,
    phases.TRAINING: training,
    phases.DEBT: debt,
    phases.PLAY_AGAIN: play_again,
    phases.MEETING: meeting,
    phases.REPLY: reply,
    phases.ASK: ask,
    phases.COUNTER: counter,
    phases.COUNTER_REPLY: counter_reply,
    phases.TARGET: target,
    phases.ARRESTED: arrested,
    phases.COUNT_CHOICE: count_choice,
    phases.BID: bid,
}


def terms(state: CountDownState, template: tuple[int, int, int]) -> str:
    """What an offer gives for what: "the Radar for 150", "150 for stage 1"."""
    kind, a, c = template
    photos, parts = state.game.board.photo_names, state.game.board.part_names
    if kind == SELL:
        return f"the {photos[a]} for {c}"
    if kind == BUY:
        return f"{c} for the {photos[a]}"
    if kind == SWAP:
        return f"the {photos[a]} for the {photos[c]}"
    if kind == SELL_PART:
        return f"a {parts[a]} for {c}"
    if kind == SELL_SATURN:
        return f"the complete {SATURN_V} for {c}"
    if kind == BUY_SATURN_FROM:
        return f"{c} for the complete {SATURN_V}"
    return f"{c} for a {parts[a]}"  # BUY_PART_FROM


def deal_photo(state: CountDownState) -> str:
    """The photo card of the forced sale under way."""
    space = state.game.space
    return state.game.board.photo_names[space.templates[state.meeting.deal[2]][1]]


def deal_terms(state: CountDownState) -> str:
    """The deal under way, without names: "the Radar for 150", "the Radar (forced sale)"."""
    template = state.game.space.templates[state.meeting.deal[2]]
    if template[0] == ASK_FOR:
        return f"the {deal_photo(state)} (forced sale)"
    return terms(state, template)


# -- what a player is asked -------------------------------------------------------------
def prompt(state: CountDownState, labels: Sequence[str]) -> str | None:
    """The question a meeting puts to the player who must answer, in ``labels`` (names,
    or "you" for the one addressed): "Bob asks you to sell Radar (forced sale): ..."."""
    phase = state._phase
    if phase not in MEETING_PHASES:
        return None
    meeting = state.meeting
    if phase == phases.MEETING:
        speaker = state.current_player()
        say = possessive(labels[speaker], "say")
        if speaker == state.turn.mover:
            return f"Meeting with {join([labels[s] for s in meeting.partners])}: {say} first"
        where = "forbidden zone" if meeting.zone_owner >= 0 else "square"
        return f"{capitalised(labels[state.turn.mover])} came to the {where}: {say}"
    buyer, seller = labels[meeting.deal[0]], labels[meeting.deal[1]]
    if phase == phases.REPLY:
        return f"{verb(buyer, 'offer')} {seller} {deal_terms(state)}: accept or refuse"
    photo = deal_photo(state)
    if phase == phases.ASK:
        low, high = ask_range(state)
        price = f"{low}" if low == high else f"{low} to {high}"
        return f"{verb(buyer, 'ask')} {seller} to sell {photo} (forced sale): a price of {price}"
    if phase == phases.COUNTER:
        return f"{verb(seller, 'ask')} {meeting.ask} for the {photo}: accept or counter"
    return (
        f"{verb(buyer, 'counter')} with {meeting.counter} for the {photo}: accept, or the "
        f"price settles at {midpoint_price(state)}"
    )


def verb(subject: str, plain: str) -> str:
    """ "Bob asks", "you ask"."""
    return f"{subject} {plain if subject == 'you' else plain + 's'}"


def possessive(owner: str, thing: str) -> str:
    """ "Bob's say", "your say"."""
    return f"your {thing}" if owner == "you" else f"{owner}'s {thing}"


def home(state: CountDownState) -> str:
    """The mover's own launch ramp."""
    return square_name(state.game.board, state.game.board.ramp[state.mover_centre()])


def sent_home_on_leaving(state: CountDownState) -> bool:
    """In another centre's forbidden zone with no deal and no mission, leaving sends home."""
    return state.meeting.zone_owner >= 0 and not state.meeting.justified


def consequences(state: CountDownState, action: int, names: Sequence[str]) -> list[str]:
    """What follows at once and everyone sees: a visitor sent home, the order of play
    settled, a lot sold, an auction opened, the end of the game."""
    after = applied(state, action)
    said = []
    mover = state.turn.mover
    if state._phase in MEETING_PHASES and after.turn.pos[mover] != state.turn.pos[mover]:
        said.append(f"{names[mover]} is sent back to {home(state)}")
    if (
        state._phase == phases.ROLL_OFF
        and after.turn.number > state.turn.number
        and not after.is_terminal()
    ):
        said.append(order_settled(after, names))
    auction = after.auction
    if state._phase == phases.BID and len(auction.lots) < len(state.auction.lots):
        said.append(lot_sold(state, action, names))
    if auction.done and not state.auction.done and auction.lots:
        lots = ", ".join(state.game.board.photo_names[p] for p in auction.lots)
        count = count_word(len(auction.lots))
        said.append(f"the leader auctions {count} photo cards, one at a time: {lots}")
    if after.is_terminal():
        said.append(ending(after, names))
    return said


def order_settled(after: CountDownState, names: Sequence[str]) -> str:
    """After a round of the roll-off: the centres taken, or who rolls again."""
    if after._phase == phases.ROLL_OFF:
        tied = [names[after.game.units[u][0]] for u in after.roll_off.contenders]
        return f"{join(tied)} tie and roll again"
    taken = [
        f"{centre_players(after, c, names)} centre {c + 1}"
        for c in range(4)
        if after.seating.seats_of[c]
    ]
    return "the centres go to " + join(taken)


def lot_sold(state: CountDownState, action: int, names: Sequence[str]) -> str:
    """The lot that this bid or pass closed: to the last bidder standing, if any."""
    auction = state.auction
    lot = state.game.board.photo_names[auction.lots[0]]
    if action == PASS:
        buyer, price = auction.high, auction.price
    else:
        buyer, price = auction.bidders[auction.at], state._money_of(action)
    if buyer < 0:
        return f"nobody buys the {lot}"
    return f"{centre_players(state, buyer, names)} buys the {lot} for {price}"
