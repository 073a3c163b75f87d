"""The auction: "As soon as the game leader holds only ten photo cards, they may put five
of them up for auction. They then propose as the base price half of their real value ...
Astronaut cards cannot be sold at auction." """

from __future__ import annotations

from typing import TYPE_CHECKING

from tminus.games.count_down import phases
from tminus.games.count_down.ledger import BANK, transfer

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState


def should_start(s: CountDownState) -> bool:
    """The first time the leader's stock falls to the threshold (ruling: once a game)."""
    return not s._auction_done and sum(s._photo_stock) <= s.game.board.auction_threshold


def choose_lots(s: CountDownState) -> list[int]:
    """The leader picks the cards most needed by players in play, ties by value; never
    astronaut cards."""
    board = s.game.board
    centres = s.centres_in_play()
    need = [
        sum(1 for c in centres if p in s.game.control_sets[c] and not s._photos[c][p])
        for p in range(len(board.photo_names))
    ]
    left = list(s._photo_stock)
    lots: list[int] = []
    while len(lots) < board.auction_lots:
        candidates = [p for p, n in enumerate(left) if n and not board.astronaut[p]]
        if not candidates:
            break
        best = max(candidates, key=lambda p: (need[p], board.photo_values[p], -p))
        lots.append(best)
        left[best] -= 1
        need[best] -= 1
    return lots


def start_auction(s: CountDownState) -> None:
    s._auction_done = True
    s._lots = choose_lots(s)
    if s._lots:
        begin_lot(s)
    else:
        s.start_next_turn()  # the state's (turns.py starts auctions: no import)


def opening_price(s: CountDownState, photo: int) -> int:
    board = s.game.board
    return max(board.step, board.photo_values[photo] // 2 // board.step * board.step)


def begin_lot(s: CountDownState) -> None:
    """Centres bid in turn, starting with the centre whose turn just ended."""
    centres = s.centres_in_play()
    first = s.mover_centre()
    at = centres.index(first) if first in centres else 0
    s._bidders = centres[at:] + centres[:at]
    s._bid_at = 0
    s._lot_price = 0
    s._lot_high = -1
    next_bidder(s)


def bid_range(s: CountDownState) -> tuple[int, int]:
    """Lowest and highest bid now: opening at half value, +10 a bid, at most double value
    (ruling), and no more than the bidder has."""
    board = s.game.board
    photo = s._lots[0]
    low = opening_price(s, photo) if s._lot_high < 0 else s._lot_price + board.step
    high = min(2 * board.photo_values[photo], s._money[s._bidders[s._bid_at]])
    return low, high


def bid(s: CountDownState, price: int) -> None:
    s._lot_price = price
    s._lot_high = s._bidders[s._bid_at]
    s._bid_at += 1
    next_bidder(s)


def pass_bid(s: CountDownState) -> None:
    s._bidders.pop(s._bid_at)
    next_bidder(s)


def next_bidder(s: CountDownState) -> None:
    """Bidding goes round until all but one have passed."""
    bidders = s._bidders
    if not bidders or (s._lot_high >= 0 and bidders == [s._lot_high]):
        end_lot(s)
        return
    s._bid_at %= len(bidders)
    if bidders[s._bid_at] == s._lot_high:
        s._bid_at = (s._bid_at + 1) % len(bidders)
    s._phase, s._player = phases.BID, s.speaker(bidders[s._bid_at])


def end_lot(s: CountDownState) -> None:
    photo = s._lots.pop(0)
    if s._lot_high >= 0:
        s._photo_stock[photo] -= 1
        s._photos[s._lot_high][photo] += 1
        transfer(s, s._lot_high, BANK, s._lot_price)
    if s._lots:
        begin_lot(s)
    else:
        s.start_next_turn()
