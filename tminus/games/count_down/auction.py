"""The auction: "As soon as the game leader holds only ten photo cards, they may put five
of them up for auction. They then propose as the base price half of their real value ...
Astronaut cards cannot be sold at auction." """

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tminus.games.count_down import phases
from tminus.games.count_down.ledger import BANK, transfer

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState


@dataclass(slots=True)
class Auction:
    """The auction: held yet (once a game), the photo cards still to sell (the one up for
    sale first), the centres still bidding on it in bidding order, whose bid it is, and the
    highest bid with its centre (-1 before the first bid)."""

    done: bool = False
    lots: list[int] = field(default_factory=list)
    bidders: list[int] = field(default_factory=list)
    at: int = 0
    price: int = 0
    high: int = -1

    def copy(self) -> Auction:
        return Auction(
            self.done, self.lots.copy(), self.bidders.copy(), self.at, self.price, self.high
        )


def should_start(s: CountDownState) -> bool:
    """The first time the leader's stock falls to the threshold (ruling: once a game)."""
    return not s.auction.done and sum(s.leader.photos) <= s.game.board.auction_threshold


def choose_lots(s: CountDownState) -> list[int]:
    """The leader picks the cards most needed by players in play, ties by value; never
    astronaut cards."""
    board = s.game.board
    centres = s.centres_in_play()
    need = [
        sum(1 for c in centres if p in s.game.control_sets[c] and not s.holdings[c].photos[p])
        for p in range(len(board.photo_names))
    ]
    left = list(s.leader.photos)
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
    auction = s.auction = s.auction.copy()  # clones shared it until now (game.py)
    auction.done = True
    auction.lots = choose_lots(s)
    if auction.lots:
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
    auction = s.auction
    auction.bidders = centres[at:] + centres[:at]
    auction.at = 0
    auction.price = 0
    auction.high = -1
    next_bidder(s)


def bid_range(s: CountDownState) -> tuple[int, int]:
    """Lowest and highest bid now: opening at half value, +10 a bid, at most double value
    (ruling), and no more than the bidder has."""
    board = s.game.board
    auction = s.auction
    photo = auction.lots[0]
    low = opening_price(s, photo) if auction.high < 0 else auction.price + board.step
    high = min(2 * board.photo_values[photo], s.holdings[auction.bidders[auction.at]].money)
    return low, high


def bid(s: CountDownState, price: int) -> None:
    auction = s.auction
    auction.price = price
    auction.high = auction.bidders[auction.at]
    auction.at += 1
    next_bidder(s)


def pass_bid(s: CountDownState) -> None:
    s.auction.bidders.pop(s.auction.at)
    next_bidder(s)


def next_bidder(s: CountDownState) -> None:
    """Bidding goes round until all but one have passed."""
    auction = s.auction
    bidders = auction.bidders
    if not bidders or (auction.high >= 0 and bidders == [auction.high]):
        end_lot(s)
        return
    auction.at %= len(bidders)
    if bidders[auction.at] == auction.high:
        auction.at = (auction.at + 1) % len(bidders)
    s._phase, s._player = phases.BID, s.speaker(bidders[auction.at])


def end_lot(s: CountDownState) -> None:
    auction = s.auction
    photo = auction.lots.pop(0)
    if auction.high >= 0:
        s.leader.photos[photo] -= 1
        s.holdings[auction.high].photos[photo] += 1
        transfer(s, auction.high, BANK, auction.price)
    if auction.lots:
        begin_lot(s)
    else:
        s.start_next_turn()
