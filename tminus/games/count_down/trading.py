"""Purchases, sales and exchanges between players: meetings, offers and forced sales.

"For a transaction to take place, either the two players must be together on the same
square, or one of the players must arrive in the "forbidden zone" of the player to whom
they have a deal to propose." A meeting is a conversation (ruling): the mover has the say
first, then each player met in turn order, each with at most 3 proposals. Offers come from
a fixed menu (``actions.offer_templates``).

"In all circumstances, rockets may be sold only at their original price" (rules v3): parts
change hands only for their fixed price in money, never bartered for cards or other parts;
a Saturn V bought whole for its flat price is sold whole, at that price, and its parts are
not sold one by one while its owner holds it whole (``saturn_v`` of ``ledger.Holdings``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tminus.games.count_down import missions, phases, turns
from tminus.games.count_down.actions import (
    ASK_FOR,
    BUY,
    BUY_PART_FROM,
    BUY_SATURN_FROM,
    DEMAND,
    DONE,
    SELL,
    SELL_PART,
    SELL_SATURN,
    SWAP,
    OfferIds,
)
from tminus.games.count_down.ledger import lose_part, move_saturn_v, transfer

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState

NO_DEAL = (-1, -1, -1)


@dataclass(slots=True)
class Meeting:
    """The meeting on the mover's square.

    ``partners``: the seats met, in turn order after the mover; ``say``: who has the say
    (0 the mover, k the k-th partner, -1 no meeting), with ``proposals_left``;
    ``zone_owner``: the centre whose forbidden zone the mover visits (-1 none), the visit
    ``justified`` by a deal or a mission; ``deal``: (proposer, other seat, offer template)
    of the proposal under way, with a forced sale's ``ask`` and ``counter``; ``mission``:
    (agent card, target centre) of the mission under way. Deal and mission are replaced
    whole, never changed in place, so copies share them. ``listed``: the moves of the
    player with the say, listed when the say began (a refused offer changes nothing, so
    they stand again); None when they must be listed anew.
    """

    partners: list[int] = field(default_factory=list)
    say: int = -1
    proposals_left: int = 0
    zone_owner: int = -1
    justified: bool = False
    deal: tuple[int, ...] = NO_DEAL
    ask: int = 0
    counter: int = 0
    mission: tuple[int, ...] = missions.NO_MISSION
    listed: Sequence[int] | None = None  # never modified: shared by copies

    def copy(self) -> Meeting:
        return Meeting(
            self.partners.copy(),
            self.say,
            self.proposals_left,
            self.zone_owner,
            self.justified,
            self.deal,
            self.ask,
            self.counter,
            self.mission,
            self.listed,
        )


def open_meeting(s: CountDownState) -> None:
    """The mover meets everyone on their square; in another centre's forbidden zone, its
    owner too, who must be given a reason for the visit. The mover has the say first."""
    board = s.game.board
    meeting, pos, centres = s.meeting, s.turn.pos, s.seating.centre
    centre = s.mover_centre()
    square = pos[s.turn.mover]
    meeting.justified = False
    meeting.zone_owner = -1
    met = {}  # centre -> the seat that speaks for it
    owner = board.forbidden_zone_of[square]
    if owner >= 0 and s.seating.in_service[owner] and owner != centre:
        meeting.zone_owner = owner
        met[owner] = s.speaker(owner)
    for seat in in_turn_order(s):
        other = centres[seat]
        if pos[seat] == square and other not in (centre, -1) and other not in met:
            met[other] = seat
    meeting.partners = [seat for seat in in_turn_order(s) if seat in met.values()]
    meeting.say = 0
    meeting.proposals_left = board.offers_per_meeting
    continue_meeting(s)


def in_turn_order(s: CountDownState) -> list[int]:
    """The seats that play, in turn order from the one after the mover."""
    order = s.seating.order
    at = order.index(s.turn.mover)
    return order[at + 1 :] + order[:at]


def has_the_say(s: CountDownState) -> int:
    """The seat whose say it is: the mover, then each player met in turn order."""
    say = s.meeting.say
    return s.turn.mover if say == 0 else s.meeting.partners[say - 1]


def continue_meeting(s: CountDownState) -> None:
    """The player with the say decides; one with nothing to propose passes the say on.
    After the last player's say the meeting closes."""
    meeting = s.meeting
    while meeting.say <= len(meeting.partners):
        actions = meeting_actions(s)
        if actions != [DONE]:
            s._phase, s._player = phases.MEETING, has_the_say(s)
            meeting.listed = actions
            return
        pass_the_say(s)
    close_meeting(s)


def say_moves(s: CountDownState) -> Sequence[int]:
    """The moves of the player with the say, as listed when the say began."""
    meeting = s.meeting
    if meeting.listed is None:  # a position set up, or hidden cards redrawn
        meeting.listed = meeting_actions(s)
    return meeting.listed


def pass_the_say(s: CountDownState) -> None:
    """To the next player met, who may make proposals of their own."""
    meeting = s.meeting
    meeting.say += 1
    meeting.proposals_left = s.game.board.offers_per_meeting


def done(s: CountDownState) -> None:
    pass_the_say(s)
    continue_meeting(s)


def close_meeting(s: CountDownState) -> None:
    """In a forbidden zone, a visitor with no deal and no mission is sent home."""
    meeting = s.meeting
    if meeting.zone_owner >= 0 and not meeting.justified:
        send_home(s)
    meeting.partners = []
    meeting.zone_owner = -1
    meeting.say = -1
    turns.end_move(s)


def send_home(s: CountDownState) -> None:
    """ "the player is sent back to their starting square" (their own launch ramp)."""
    s.turn.pos[s.turn.mover] = s.game.board.ramp[s.mover_centre()]


def visit_to_the_owner(s: CountDownState, proposer: int, target: int) -> bool:
    """Is this a proposal of the visitor of a forbidden zone to its owner?"""
    owner = s.meeting.zone_owner
    return owner >= 0 and proposer == s.turn.mover and s.seating.centre[target] == owner


def justify(s: CountDownState, proposer: int, target: int) -> None:
    """ "if they come as a friend, they propose to the owner buying, selling or exchanging
    cards": a deal the visitor proposes to the owner justifies the visit."""
    if visit_to_the_owner(s, proposer, target):
        s.meeting.justified = True


def meeting_actions(s: CountDownState) -> list[int]:
    """What the player with the say can do now: proposals (the mover's to anyone met, the
    others' to the mover), missions (the mover, in a forbidden zone), and ``done``."""
    space = s.game.space
    meeting, mover, centres = s.meeting, s.turn.mover, s.seating.centre
    seat = has_the_say(s)
    centre = centres[seat]
    actions = []
    if meeting.proposals_left > 0:
        for target in meeting.partners if seat == mover else [mover]:
            actions += feasible_offers(s, centre, centres[target], space.offers_to[target])
    if seat == mover and meeting.zone_owner >= 0:
        actions += [space.mission + t for t, n in enumerate(s.holdings[centre].agents) if n]
    actions.append(DONE)
    actions.sort()
    return actions


def feasible_templates(s: CountDownState, a: int, b: int) -> list[int]:
    """The offer templates centre ``a`` can propose to centre ``b`` (see ``feasible``)."""
    return feasible_offers(s, a, b, s.game.space.offer_templates)


def feasible_offers(s: CountDownState, a: int, b: int, ids: OfferIds) -> list[int]:
    """The ``ids`` of the offers centre ``a`` can propose to centre ``b`` (``feasible``),
    in runs of rising ids."""
    board = s.game.board
    holder_a, holder_b = s.holdings[a], s.holdings[b]
    mine, theirs = holder_a.photos, holder_b.photos
    money_a, money_b = holder_a.money, holder_b.money
    held = [p for p, n in enumerate(mine) if n]
    others = [p for p, n in enumerate(theirs) if n]
    found = []
    for p in held:  # sell p: the prices b can pay, the lowest first
        found += ids.sells[p][: bisect_right(ids.sell_prices[p], money_b)]
    for p in others:  # buy p: the prices a can pay
        found += ids.buys[p][: bisect_right(ids.buy_prices[p], money_a)]
    for p in held:  # swap p for q
        row = ids.swaps[p]
        found += [row[q] for q in others if q != p]
    my_parts, their_parts = holder_a.parts, holder_b.parts
    my_sets, their_sets = holder_a.saturn_v, holder_b.saturn_v
    prices = board.part_prices
    for part in range(4):  # single parts: those not in a Saturn V held whole
        if my_parts[part] > my_sets and money_b >= prices[part]:
            found.append(ids.part_sells[part])
        if their_parts[part] > their_sets and money_a >= prices[part]:
            found.append(ids.part_buys[part])
        if not my_parts[part] and their_parts[part] >= 2 and their_parts[part] > their_sets:
            found.append(ids.demands[part])
    for p in board.control[a]:  # ask for p: a lacks it and b holds one it does not need
        if theirs[p] and not mine[p] and unneeded(s, b, p):
            found.append(ids.asks[p])
    if my_sets and money_b >= board.saturn_price:
        found.append(ids.saturn_sell)
    if their_sets and money_a >= board.saturn_price:
        found.append(ids.saturn_buy)
    return found


def single_parts(s: CountDownState, centre: int, part: int) -> int:
    """The copies of a part a centre may sell on their own: those not in a Saturn V it
    holds whole ("its parts are not sold one by one while the owner holds it whole")."""
    held = s.holdings[centre]
    return held.parts[part] - held.saturn_v


def unneeded(s: CountDownState, centre: int, photo: int) -> bool:
    """A photo card its holder does not need: not on their control card, or a second copy."""
    held = s.holdings[centre].photos[photo]
    return held >= 2 or (held == 1 and photo not in s.game.control_sets[centre])


def needs(s: CountDownState, centre: int, photo: int) -> bool:
    return photo in s.game.control_sets[centre] and not s.holdings[centre].photos[photo]


# The same two tests over every photo card at once, for players who weigh many offers.
def needed_photos(s: CountDownState, centre: int) -> frozenset[int]:
    """Every photo card ``centre`` ``needs``."""
    held = s.holdings[centre].photos
    return frozenset(p for p in s.game.control_sets[centre] if not held[p])


def unneeded_photos(s: CountDownState, centre: int) -> frozenset[int]:
    """Every photo card of ``centre``'s that is ``unneeded``."""
    held, control = s.holdings[centre].photos, s.game.control_sets[centre]
    return frozenset(p for p, n in enumerate(held) if n >= 2 or (n == 1 and p not in control))


def feasible(s: CountDownState, a: int, b: int, template: tuple[int, int, int]) -> bool:
    """Can centre ``a`` propose this to centre ``b`` now? Both must hold what they give.

    "No money, no sale": the payer must have the money.
    """
    kind, x, y = template
    giver, taker = s.holdings[a], s.holdings[b]
    if kind == SELL:
        return giver.photos[x] > 0 and taker.money >= y
    if kind == BUY:
        return taker.photos[x] > 0 and giver.money >= y
    if kind == SWAP:
        return giver.photos[x] > 0 and taker.photos[y] > 0
    if kind == SELL_PART:
        return single_parts(s, a, x) > 0 and taker.money >= y
    if kind == BUY_PART_FROM:
        return single_parts(s, b, x) > 0 and giver.money >= y
    if kind == ASK_FOR:
        # "if a player has a photo card they do not need, they are obliged to sell it to
        # the player who lacks it" (a buyer who cannot pay the value gets no sale)
        return needs(s, a, x) and unneeded(s, b, x)
    if kind == SELL_SATURN:
        return giver.saturn_v > 0 and taker.money >= y
    if kind == BUY_SATURN_FROM:
        return taker.saturn_v > 0 and giver.money >= y
    # DEMAND: "the owner of the duplicate must sell it at the fixed price" (a single part)
    return not giver.parts[x] and taker.parts[x] >= 2 and single_parts(s, b, x) > 0


def propose(s: CountDownState, action: int) -> None:
    """The player with the say makes the proposal ``action``."""
    target, t = s.game.space.split_proposal(action)
    kind, x, y = s.game.space.templates[t]
    proposer = has_the_say(s)
    s.meeting.proposals_left -= 1
    s.meeting.deal = (proposer, target, t)
    if kind == DEMAND:
        claim_spare_part(s, proposer, target, x, y)
    elif kind == ASK_FOR:
        claim_photo(s, proposer, target, x)
    else:
        # "Exchanges between players are allowed; only the agreement of the parties is
        # needed."
        s._phase, s._player = phases.REPLY, target


def claim_spare_part(s: CountDownState, buyer: int, seller: int, part: int, price: int) -> None:
    """ "the owner of the duplicate must sell it at the fixed price" to a buyer who can pay."""
    a, b = s.seating.centre[buyer], s.seating.centre[seller]
    if s.holdings[a].money >= price:
        lose_part(s, b, part)
        s.holdings[a].parts[part] += 1
        transfer(s, a, b, price)
    justify(s, buyer, seller)
    continue_meeting(s)


def claim_photo(s: CountDownState, buyer: int, seller: int, photo: int) -> None:
    """The forced sale of a photo card the seller does not need: they name a price. A buyer
    who cannot pay the value gets no sale (the claim still justifies a visit)."""
    justify(s, buyer, seller)
    if s.holdings[s.seating.centre[buyer]].money >= s.game.board.photo_values[photo]:
        s._phase, s._player = phases.ASK, seller
    else:
        continue_meeting(s)


def reply(s: CountDownState, accept: bool) -> None:
    proposer, target, t = s.meeting.deal
    if accept:
        exchange(s, s.seating.centre[proposer], s.seating.centre[target], s.game.space.templates[t])
        justify(s, proposer, target)
        continue_meeting(s)
    elif visit_to_the_owner(s, proposer, target):
        # "if the owner refuses to deal, the player is sent back to their starting square"
        # (when the meeting ends, unless an earlier deal justified the visit): the
        # visitor's say is over.
        done(s)
    elif s.meeting.proposals_left > 0:
        # A refusal changes no holdings: the say goes on with the moves listed.
        s._phase, s._player = phases.MEETING, proposer
    else:
        continue_meeting(s)


def exchange(s: CountDownState, a: int, b: int, template: tuple[int, int, int]) -> None:
    kind, x, y = template
    if kind == SELL:
        move_photo(s, a, b, x)
        transfer(s, b, a, y)
    elif kind == BUY:
        move_photo(s, b, a, x)
        transfer(s, a, b, y)
    elif kind == SWAP:
        move_photo(s, a, b, x)
        move_photo(s, b, a, y)
    elif kind == SELL_PART:
        lose_part(s, a, x)
        s.holdings[b].parts[x] += 1
        transfer(s, b, a, y)
    elif kind == BUY_PART_FROM:
        lose_part(s, b, x)
        s.holdings[a].parts[x] += 1
        transfer(s, a, b, y)
    elif kind == SELL_SATURN:
        move_saturn_v(s, a, b)
        transfer(s, b, a, y)
    elif kind == BUY_SATURN_FROM:
        move_saturn_v(s, b, a)
        transfer(s, a, b, y)


def move_photo(s: CountDownState, giver: int, taker: int, photo: int) -> None:
    s.holdings[giver].photos[photo] -= 1
    s.holdings[taker].photos[photo] += 1


# -- the forced sale: ask, counter, settle ------------------------------------------------
def ask_range(s: CountDownState) -> tuple[int, int]:
    """ "the sale price is fixed by mutual agreement between the indicated value and double
    that value", and never above what the buyer has: the range of prices asked."""
    buyer, _, t = s.meeting.deal
    photo = s.game.space.templates[t][1]
    value = s.game.board.photo_values[photo]
    return value, min(2 * value, s.holdings[s.seating.centre[buyer]].money)


def ask(s: CountDownState, price: int) -> None:
    s.meeting.ask = price
    s._phase, s._player = phases.COUNTER, s.meeting.deal[0]


def counter_prices(s: CountDownState) -> list[int]:
    """The buyer may counter with any lower price in the range."""
    low, _ = ask_range(s)
    step = s.game.board.step
    return list(range(low, s.meeting.ask - step + 1, step))


def counter(s: CountDownState, price: int) -> None:
    """Accept the ask (price -1) or counter with a lower price."""
    if price < 0:
        settle_forced_sale(s, s.meeting.ask)
    else:
        s.meeting.counter = price
        s._phase, s._player = phases.COUNTER_REPLY, s.meeting.deal[1]


def counter_reply(s: CountDownState, accept: bool) -> None:
    """The seller accepts the counter, or the price settles at the midpoint."""
    settle_forced_sale(s, s.meeting.counter if accept else midpoint_price(s))


def midpoint_price(s: CountDownState) -> int:
    """Between the ask and the counter, rounded down to the money step (10): never below
    the counter, so never below the value, and never above what the buyer has."""
    step = s.game.board.step
    return (s.meeting.ask + s.meeting.counter) // 2 // step * step


def settle_forced_sale(s: CountDownState, price: int) -> None:
    """ "Boycotting is forbidden": the sale happens at the price settled."""
    buyer, seller, t = s.meeting.deal
    photo = s.game.space.templates[t][1]
    a, b = s.seating.centre[buyer], s.seating.centre[seller]
    move_photo(s, b, a, photo)
    transfer(s, a, b, price)
    s.meeting.ask = s.meeting.counter = 0
    continue_meeting(s)


# -- missions (the visitor of a forbidden zone) --------------------------------------------
def start_mission(s: CountDownState, action: int) -> None:
    missions.start_mission(s, action - s.game.space.mission)


def mission_carried_out(s: CountDownState) -> None:
    """A mission ends the visitor's say; the others met still have theirs."""
    done(s)
