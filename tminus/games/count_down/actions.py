"""Count Down action ids: fixed moves, then blocks whose size comes from the board data.

Every decision is an integer. Offers are a fixed menu of templates built from the board
(give photo card / part / money for photo card / part / money, at the prices the data
allows), one copy of the menu per seat the offer is made to, so that
``num_distinct_actions`` depends only on the board and the number of players.

The offers of a whole Saturn V (rules v3) came after the others: their actions follow the
last block of version 2 (``sell_saturn``), so that every action of version 2 keeps its
number (a game saved under version 2 replays, or is refused where it no longer can).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tminus.games.count_down.data import BoardData

# Fixed moves.
ROLL = 0  # move as usual (a player ready for the countdown chooses)
COUNT_DOWN = 1  # attempt the countdown instead of moving
FORWARD = 2
BACKWARD = 3
DECLINE = 4  # buy nothing here (photo square, Saturn V)
SQUATS = 5
PAY_FINE = 6
ONCE_MORE = 7
END_TURN = 8
DONE = 9  # end a meeting ("leave" in a forbidden zone with no deal)
ACCEPT = 10
REFUSE = 11
SIT_OUT = 12
PAY_RANSOM = 13
START_COUNT = 14
WAIT = 15
PASS = 16
BUY_SATURN = 17
FIXED = 18

FIXED_NAMES = {
    ROLL: "roll",
    COUNT_DOWN: "count down",
    FORWARD: "forward",
    BACKWARD: "backward",
    DECLINE: "decline",
    SQUATS: "squats",
    ONCE_MORE: "play once more",
    END_TURN: "end turn",
    DONE: "done",
    ACCEPT: "accept",
    REFUSE: "refuse",
    SIT_OUT: "sit out",
    START_COUNT: "start count",
    WAIT: "wait",
    PASS: "pass",
    BUY_SATURN: "buy Saturn V",
}

# Offer templates: (kind, a, b). Money amounts are fixed by the template.
SELL = 0  # give photo a for money b
BUY = 1  # give money b for photo a
SWAP = 2  # give photo a for photo b
SELL_PART = 3  # give part a for its fixed price
BUY_PART_FROM = 4  # give a part's fixed price for part a
ASK_FOR = 5  # forced sale: ask for photo a that the other does not need
DEMAND = 6  # forced sale of a duplicate part a at its fixed price
SELL_SATURN = 7  # give a Saturn V bought whole, whole, for its price b
BUY_SATURN_FROM = 8  # give a Saturn V's price b for the whole rocket the other bought whole
# The last templates of the menu: their actions have a block of their own (see the top).
WHOLE_ROCKET_OFFERS = 2
SATURN_V = "Saturn V"  # the rocket sold whole, as offers name it


def offer_templates(board: BoardData) -> list[tuple[int, int, int]]:
    templates: list[tuple[int, int, int]] = []
    photos = range(len(board.photo_names))
    for p in photos:
        for price in offer_prices(board, p):
            templates.append((SELL, p, price))
            templates.append((BUY, p, price))
    for p in photos:
        for q in photos:
            if p != q:
                templates.append((SWAP, p, q))
    for part in range(4):
        templates.append((SELL_PART, part, board.part_prices[part]))
        templates.append((BUY_PART_FROM, part, board.part_prices[part]))
    templates += [(ASK_FOR, p, 0) for p in photos]
    templates += [(DEMAND, part, board.part_prices[part]) for part in range(4)]
    # "Rockets may be sold only at their original price": a Saturn V bought whole, whole.
    templates.append((SELL_SATURN, 0, board.saturn_price))
    templates.append((BUY_SATURN_FROM, 0, board.saturn_price))
    return templates


def offer_prices(board: BoardData, photo: int) -> list[int]:
    """The prices a photo card may be offered at: value × each step, down to money_step."""
    value, step = board.photo_values[photo], board.step
    return sorted({int(value * m) // step * step for m in board.price_steps})


class ActionSpace:
    """Where each block of actions starts, for one board and number of seats."""

    def __init__(self, board: BoardData, seats: int) -> None:
        self.board = board
        photos, agents = len(board.photo_names), len(board.agent_names)
        self.buy_photo = FIXED
        self.buy_part = self.buy_photo + photos
        self.sell_photo = self.buy_part + 4
        self.sell_part = self.sell_photo + photos
        self.mission = self.sell_part + 4
        self.take_photo = self.mission + agents
        self.take_part = self.take_photo + photos
        self.money = self.take_part + 4  # ask / counter / bid k × money_step
        self.money_slots = 2 * board.max_value // board.step + 1
        self.propose = self.money + self.money_slots
        self.templates = offer_templates(board)
        # The templates numbered in each seat's block of proposals; the whole rockets'
        # offers are numbered after ``sell_saturn``, two a seat.
        self.menu = len(self.templates) - WHOLE_ROCKET_OFFERS
        self.seats = seats
        self.sell_saturn = self.propose + seats * self.menu  # whole, in a debt
        self.offer_saturn = self.sell_saturn + 1
        self.size = self.offer_saturn + seats * WHOLE_ROCKET_OFFERS
        # The offers by what they trade, so that a meeting lists them quickly: as template
        # indices, and as the proposal actions to each seat.
        self.offer_templates = OfferIds(board, self.templates, range(len(self.templates)))
        self.offers_to = tuple(
            OfferIds(
                board, self.templates, [self.proposal(seat, t) for t in range(len(self.templates))]
            )
            for seat in range(seats)
        )
        # Each proposal's (target seat, template), by proposal action: what
        # ``split_proposal`` computes, read from a table by players who weigh many offers.
        self.proposal_terms = {
            self.proposal(seat, t): (seat, template)
            for seat in range(seats)
            for t, template in enumerate(self.templates)
        }

    def proposal(self, seat: int, template: int) -> int:
        if template < self.menu:
            return self.propose + seat * self.menu + template
        return self.offer_saturn + seat * WHOLE_ROCKET_OFFERS + template - self.menu

    def split_proposal(self, action: int) -> tuple[int, int]:
        """(target seat, template index) of a proposal action."""
        if action >= self.offer_saturn:
            seat, k = divmod(action - self.offer_saturn, WHOLE_ROCKET_OFFERS)
            return seat, self.menu + k
        return divmod(action - self.propose, self.menu)

    def is_proposal(self, action: int) -> bool:
        return self.propose <= action < self.sell_saturn or self.offer_saturn <= action < self.size

    def name(self, action: int, money_verb: str = "bid") -> str:
        """The readable name of a player action (``money_verb``: ask, counter or bid)."""
        b = self.board
        if 0 <= action < FIXED:
            if action == PAY_FINE:
                return f"pay {b.squat_fine}"
            if action == PAY_RANSOM:
                return f"pay {b.ransom}"
            return FIXED_NAMES[action]
        if action < self.buy_part:
            return f"buy photo {b.photo_names[action - self.buy_photo]}"
        if action < self.sell_photo:
            return f"buy {b.part_names[action - self.buy_part]}"
        if action < self.sell_part:
            return f"sell photo {b.photo_names[action - self.sell_photo]}"
        if action < self.mission:
            return f"sell {b.part_names[action - self.sell_part]}"
        if action < self.take_photo:
            return f"mission {b.agent_names[action - self.mission]}"
        if action < self.take_part:
            return f"target photo {b.photo_names[action - self.take_photo]}"
        if action < self.money:
            return f"target {b.part_names[action - self.take_part]}"
        if action < self.propose:
            return f"{money_verb} {(action - self.money) * b.step}"
        if action == self.sell_saturn:
            return "sell Saturn V"
        if self.is_proposal(action):
            seat, t = self.split_proposal(action)
            return self.template_name(seat, self.templates[t])
        raise ValueError(f"no Count Down action {action}; actions are 0 to {self.size - 1}")

    def struct(self, action: int, money_verb: str = "bid") -> dict[str, Any]:
        """A player action as data (``name``'s fields): cards by name, seats as seats."""
        b = self.board
        if 0 <= action < FIXED:
            if action in (PAY_FINE, PAY_RANSOM):
                return {"kind": "pay", "amount": b.squat_fine if action == PAY_FINE else b.ransom}
            return {"kind": FIXED_NAMES[action]}
        blocks = (
            (self.buy_part, "buy photo", "photo", b.photo_names, self.buy_photo),
            (self.sell_photo, "buy part", "part", b.part_names, self.buy_part),
            (self.sell_part, "sell photo", "photo", b.photo_names, self.sell_photo),
            (self.mission, "sell part", "part", b.part_names, self.sell_part),
            (self.take_photo, "mission", "agent", b.agent_names, self.mission),
            (self.take_part, "target", "photo", b.photo_names, self.take_photo),
            (self.money, "target", "part", b.part_names, self.take_part),
        )
        for end, kind, field, names, start in blocks:
            if action < end:
                return {"kind": kind, field: names[action - start]}
        if action < self.propose:
            return {"kind": money_verb, "amount": (action - self.money) * b.step}
        if action == self.sell_saturn:
            return {"kind": "sell Saturn V"}
        if self.is_proposal(action):
            seat, t = self.split_proposal(action)
            return self.template_struct(seat, self.templates[t])
        raise ValueError(f"no Count Down action {action}; actions are 0 to {self.size - 1}")

    def template_struct(self, seat: int, template: tuple[int, int, int]) -> dict[str, Any]:
        """An offer as data: what the proposer gives and gets ({"photo"|"part"|"money": x},
        or {"rocket": "Saturn V"}: a Saturn V bought whole, sold whole)."""
        kind, a, c = template
        photos, parts = self.board.photo_names, self.board.part_names
        if kind == ASK_FOR:
            return {"kind": "ask for", "seat": seat, "photo": photos[a]}
        if kind == DEMAND:
            return {"kind": "demand", "seat": seat, "part": parts[a], "price": c}
        give: dict[str, str | int]
        get: dict[str, str | int]
        if kind == SWAP:
            give, get = {"photo": photos[a]}, {"photo": photos[c]}
        elif kind in (SELL_SATURN, BUY_SATURN_FROM):
            rocket: dict[str, str | int] = {"rocket": SATURN_V}
            paid: dict[str, str | int] = {"money": c}
            give, get = (rocket, paid) if kind == SELL_SATURN else (paid, rocket)
        else:
            thing: dict[str, str | int] = (
                {"photo": photos[a]} if kind in (SELL, BUY) else {"part": parts[a]}
            )
            money: dict[str, str | int] = {"money": c}
            give, get = (thing, money) if kind in (SELL, SELL_PART) else (money, thing)
        return {"kind": "offer", "seat": seat, "give": give, "get": get}

    def template_name(self, seat: int, template: tuple[int, int, int]) -> str:
        kind, a, c = template
        photos, parts = self.board.photo_names, self.board.part_names
        if kind == SELL:
            return f"offer seat {seat}: {photos[a]} for {c}"
        if kind == BUY:
            return f"offer seat {seat}: {c} for {photos[a]}"
        if kind == SWAP:
            return f"offer seat {seat}: {photos[a]} for {photos[c]}"
        if kind == SELL_PART:
            return f"offer seat {seat}: {parts[a]} for {c}"
        if kind == BUY_PART_FROM:
            return f"offer seat {seat}: {c} for {parts[a]}"
        if kind == ASK_FOR:
            return f"ask seat {seat} for {photos[a]}"
        if kind == SELL_SATURN:
            return f"offer seat {seat}: {SATURN_V} for {c}"
        if kind == BUY_SATURN_FROM:
            return f"offer seat {seat}: {c} for {SATURN_V}"
        return f"demand {parts[a]} from seat {seat}"


class OfferIds:
    """Offer ids (``ids[t]`` for template t) grouped by what the offer trades: ``sells[p]``
    and ``buys[p]`` by rising price (``sell_prices[p]``, ``buy_prices[p]``), ``swaps[p][q]``
    (photo p for photo q; -1 when p == q), per part or photo the one id of a kind, and the
    one id of each whole Saturn V offer (``saturn_sell``, ``saturn_buy``)."""

    def __init__(self, board: BoardData, templates: list[tuple[int, int, int]], ids: Sequence[int]):
        photos = range(len(board.photo_names))
        sells: list[list[tuple[int, int]]] = [[] for _ in photos]
        buys: list[list[tuple[int, int]]] = [[] for _ in photos]
        self.swaps = [[-1] * len(photos) for _ in photos]
        self.part_sells, self.part_buys, self.demands = [0] * 4, [0] * 4, [0] * 4
        self.asks = [0] * len(photos)
        self.saturn_sell = self.saturn_buy = 0
        for (kind, a, c), offer in zip(templates, ids, strict=True):
            if kind == SELL:
                sells[a].append((c, offer))
            elif kind == BUY:
                buys[a].append((c, offer))
            elif kind == SWAP:
                self.swaps[a][c] = offer
            elif kind == SELL_PART:
                self.part_sells[a] = offer
            elif kind == BUY_PART_FROM:
                self.part_buys[a] = offer
            elif kind == ASK_FOR:
                self.asks[a] = offer
            elif kind == DEMAND:
                self.demands[a] = offer
            elif kind == SELL_SATURN:
                self.saturn_sell = offer
            else:
                self.saturn_buy = offer
        self.sell_prices = [[c for c, _ in sorted(row)] for row in sells]
        self.sells = [[offer for _, offer in sorted(row)] for row in sells]
        self.buy_prices = [[c for c, _ in sorted(row)] for row in buys]
        self.buys = [[offer for _, offer in sorted(row)] for row in buys]
