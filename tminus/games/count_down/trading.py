"""Purchases, sales and exchanges between players: meetings, offers and forced sales.

"For a transaction to take place, either the two players must be together on the same
square, or one of the players must arrive in the "forbidden zone" of the player to whom
they have a deal to propose." Offers come from a fixed menu (``actions.offer_templates``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tminus.games.count_down import missions, phases, turns
from tminus.games.count_down.actions import (
    ASK_FOR,
    BUY,
    BUY_PART_FROM,
    DEMAND,
    DONE,
    SELL,
    SELL_PART,
    SWAP,
    OfferIds,
)
from tminus.games.count_down.ledger import transfer

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState


def open_meeting(s: CountDownState) -> None:
    """The active player meets the players on their square, or the owner of the forbidden
    zone they stopped in (who must be given a reason for the visit)."""
    board = s.game.board
    seat, centre = s._mover, s.mover_centre()
    square = s._pos[seat]
    s._proposals_left = board.offers_per_meeting
    s._dealt = False
    s._fz_owner = -1
    owner = board.forbidden_zone_of[square]
    if owner >= 0 and s._in_service[owner] and owner != centre:
        s._fz_owner = owner
        s._partners = [s.speaker(owner)]
    elif s._pos.count(square) > 1:  # the mover is not alone there
        s._partners = [
            o for o, at in enumerate(s._pos) if at == square and s._centre[o] not in (centre, -1)
        ]
    else:
        s._partners = []
    continue_meeting(s)


def continue_meeting(s: CountDownState) -> None:
    """Back to the active player, unless there is nothing left to do but leave."""
    if s._partners:
        actions = meeting_actions(s)
        if actions != [DONE]:
            s._phase, s._player = phases.MEETING, s._mover
            s._legal = actions
            return
    close_meeting(s)


def close_meeting(s: CountDownState) -> None:
    """In a forbidden zone, a visitor with no deal and no mission is sent home."""
    if s._fz_owner >= 0 and not s._dealt:
        send_home(s)
    s._partners = []
    s._fz_owner = -1
    turns.end_move(s)


def send_home(s: CountDownState) -> None:
    """ "the player is sent back to their starting square" (their own launch ramp)."""
    s._pos[s._mover] = s.game.board.ramp[s.mover_centre()]


def meeting_actions(s: CountDownState) -> list[int]:
    """Every proposal the active player can make now, their missions, and ``done``."""
    space = s.game.space
    centre = s.mover_centre()
    actions = []
    if s._proposals_left > 0:
        for target in s._partners:
            actions += feasible_offers(s, centre, s._centre[target], space.offers_to[target])
    if s._fz_owner >= 0:
        actions += [space.mission + t for t, n in enumerate(s._agents[centre]) if n]
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
    mine, theirs = s._photos[a], s._photos[b]
    money_a, money_b = s._money[a], s._money[b]
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
    my_parts, their_parts = s._parts[a], s._parts[b]
    prices = board.part_prices
    for part in range(4):
        if my_parts[part] and money_b >= prices[part]:
            found.append(ids.part_sells[part])
        if their_parts[part] and money_a >= prices[part]:
            found.append(ids.part_buys[part])
        if not my_parts[part] and their_parts[part] >= 2 and money_a >= prices[part]:
            found.append(ids.demands[part])
    for p in board.control[a]:  # ask for p: a lacks it and b holds one it does not need
        if theirs[p] and not mine[p] and unneeded(s, b, p) and money_a >= board.photo_values[p]:
            found.append(ids.asks[p])
    return found


def unneeded(s: CountDownState, centre: int, photo: int) -> bool:
    """A photo card its holder does not need: not on their control card, or a second copy."""
    held = s._photos[centre][photo]
    return held >= 2 or (held == 1 and photo not in s.game.control_sets[centre])


def needs(s: CountDownState, centre: int, photo: int) -> bool:
    return photo in s.game.control_sets[centre] and not s._photos[centre][photo]


def feasible(s: CountDownState, a: int, b: int, template: tuple[int, int, int]) -> bool:
    """Can centre ``a`` propose this to centre ``b`` now? Both must hold what they give.

    "No money, no sale": the payer must have the money.
    """
    kind, x, y = template
    if kind == SELL:
        return s._photos[a][x] > 0 and s._money[b] >= y
    if kind == BUY:
        return s._photos[b][x] > 0 and s._money[a] >= y
    if kind == SWAP:
        return s._photos[a][x] > 0 and s._photos[b][y] > 0
    if kind == SELL_PART:
        return s._parts[a][x] > 0 and s._money[b] >= y
    if kind == BUY_PART_FROM:
        return s._parts[b][x] > 0 and s._money[a] >= y
    if kind == ASK_FOR:
        # "if a player has a photo card they do not need, they are obliged to sell it to
        # the player who lacks it"
        value = s.game.board.photo_values[x]
        return needs(s, a, x) and unneeded(s, b, x) and s._money[a] >= value
    # DEMAND: "the owner of the duplicate must sell it at the fixed price"
    return not s._parts[a][x] and s._parts[b][x] >= 2 and s._money[a] >= y


def propose(s: CountDownState, action: int, listed: Sequence[int]) -> None:
    """Make the offer ``action``, chosen from the meeting's ``listed`` actions."""
    target, t = s.game.space.split_proposal(action)
    kind, x, y = s.game.space.templates[t]
    s._proposals_left -= 1
    s._deal = [s._mover, target, t]
    if kind == DEMAND:
        a, b = s.mover_centre(), s._centre[target]
        s._parts[b][x] -= 1
        s._parts[a][x] += 1
        transfer(s, a, b, y)
        s._dealt = True
        continue_meeting(s)
    elif kind == ASK_FOR:
        s._phase, s._player = phases.ASK, target
    else:
        # "Exchanges between players are allowed; only the agreement of the parties is
        # needed."
        s._phase, s._player = phases.REPLY, target
        s._meeting_list = listed


def reply(s: CountDownState, accept: bool) -> None:
    proposer, target, t = s._deal
    listed, s._meeting_list = s._meeting_list, None
    if accept:
        exchange(s, s._centre[proposer], s._centre[target], s.game.space.templates[t])
        s._dealt = True
        continue_meeting(s)
    elif s._fz_owner >= 0:
        # "if the owner refuses to deal, the player is sent back to their starting square"
        close_meeting(s)
    elif s._proposals_left > 0 and listed is not None:
        # A refusal changes no holdings: the meeting goes on with the same list.
        s._phase, s._player = phases.MEETING, s._mover
        s._legal = listed
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
        s._parts[a][x] -= 1
        s._parts[b][x] += 1
        transfer(s, b, a, y)
    elif kind == BUY_PART_FROM:
        s._parts[b][x] -= 1
        s._parts[a][x] += 1
        transfer(s, a, b, y)


def move_photo(s: CountDownState, giver: int, taker: int, photo: int) -> None:
    s._photos[giver][photo] -= 1
    s._photos[taker][photo] += 1


# -- the forced sale: ask, counter, settle ------------------------------------------------
def ask_range(s: CountDownState) -> tuple[int, int]:
    """ "the sale price is fixed by mutual agreement between the indicated value and double
    that value": the range of prices in money steps."""
    photo = s.game.space.templates[s._deal[2]][1]
    value = s.game.board.photo_values[photo]
    return value, 2 * value


def ask(s: CountDownState, price: int) -> None:
    s._ask = price
    s._phase, s._player = phases.COUNTER, s._deal[0]


def counter_prices(s: CountDownState) -> list[int]:
    """The buyer may counter with a lower price in the range that they can pay."""
    low, _ = ask_range(s)
    money = s._money[s.mover_centre()]
    step = s.game.board.step
    return list(range(low, min(s._ask - step, money) + 1, step))


def counter(s: CountDownState, price: int) -> None:
    """Accept the ask (price -1) or counter with a lower price."""
    if price < 0:
        settle_forced_sale(s, s._ask)
    else:
        s._counter = price
        s._phase, s._player = phases.COUNTER_REPLY, s._deal[1]


def counter_reply(s: CountDownState, accept: bool) -> None:
    """The seller accepts the counter, or the price settles at the midpoint."""
    settle_forced_sale(s, s._counter if accept else midpoint_price(s))


def midpoint_price(s: CountDownState) -> int:
    """Between the ask and the counter, rounded down to the money step (10)."""
    step = s.game.board.step
    return (s._ask + s._counter) // 2 // step * step


def settle_forced_sale(s: CountDownState, price: int) -> None:
    buyer, seller, t = s._deal
    photo = s.game.space.templates[t][1]
    a, b = s._centre[buyer], s._centre[seller]
    if s._money[a] >= price:  # "No money, no sale."
        move_photo(s, b, a, photo)
        transfer(s, a, b, price)
        s._dealt = True
    s._ask = s._counter = 0
    continue_meeting(s)


def start_mission(s: CountDownState, action: int) -> None:
    missions.start_mission(s, action - s.game.space.mission)
