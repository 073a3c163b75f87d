"""Meaning of the squares: photo cards, rocket parts, Saturn V, surprise, funding, agents,
astronaut training, launch ramps and forbidden zones."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tminus.core.game import CHANCE
from tminus.games.count_down import payments, phases, trading
from tminus.games.count_down.ledger import BANK, transfer

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState


@dataclass(slots=True)
class Piles:
    """The leader's piles of cards drawn on the squares: the agent cards (a count per
    type, green and red), which of the two piles is being drawn from (``draw_green``),
    the surprise cards never drawn (in an order nobody knows), the known order of those
    drawn and put back under the pile (``surprise_queue``, top first), and the last
    surprise card drawn (-1 none)."""

    agents: list[int]
    surprises_unseen: list[int]
    surprise_queue: list[int] = field(default_factory=list)
    last_surprise: int = -1
    draw_green: bool = True

    def copy(self) -> Piles:
        return Piles(
            self.agents.copy(),
            self.surprises_unseen.copy(),
            self.surprise_queue.copy(),
            self.last_surprise,
            self.draw_green,
        )


def land(s: CountDownState) -> None:
    """Do what the square the mover stopped on says, then meet whoever is there."""
    board = s.game.board
    square = s.turn.pos[s.turn.mover]
    kind, arg = board.kinds[square], board.args[square]
    if kind == "photo":
        photo_square(s, arg)
    elif kind == "part":
        rocket_part_square(s, arg)
    elif kind == "saturn":
        saturn_v_square(s)
    elif kind == "surprise":
        surprise_square(s)
    elif kind == "funding":
        funding_square(s, arg)
    elif kind in ("espionage", "sabotage"):
        agent_square(s, kind == "espionage")
    elif kind == "training":
        s._phase, s._player = phases.TRAINING, s.turn.mover
    else:  # launch ramps and forbidden zones do nothing by themselves
        after_square(s)


def after_square(s: CountDownState) -> None:
    """Settle any debts the square made, then the meeting (if any)."""
    if s.debts:
        payments.settle_debts(s)
    else:
        trading.open_meeting(s)


def exhausted(s: CountDownState) -> None:
    """ "When a player lands on a square whose cards or rocket parts are exhausted, they may
    play once more." """
    s.turn.again = True
    after_square(s)


def photo_square(s: CountDownState, photo: int) -> None:
    """ "The player may buy the card at the price noted on it." """
    if not s.leader.photos[photo]:
        exhausted(s)
    elif s.holdings[s.mover_centre()].money >= s.game.board.photo_values[photo]:
        s._phase, s._player = phases.BUY_PHOTO, s.turn.mover
    else:
        after_square(s)


def buy_photo(s: CountDownState, photo: int) -> None:
    centre = s.mover_centre()
    transfer(s, centre, BANK, s.game.board.photo_values[photo])
    receive_photo(s, centre, photo)
    after_square(s)


def receive_photo(s: CountDownState, centre: int, photo: int) -> None:
    """A photo card from the leader; with 2, 3 or 6 players, one that nobody needs lets the
    player play once more."""
    s.leader.photos[photo] -= 1
    s.holdings[centre].photos[photo] += 1
    if s.game.once_more_for_unneeded and not s.game.needed_in_play[photo]:
        s.turn.again = True


def rocket_part_square(s: CountDownState, part: int) -> None:
    """ "receives free, until the stock runs out, the part of the rocket" (duplicates too)."""
    if not s.leader.parts[part]:
        exhausted(s)
        return
    s.leader.parts[part] -= 1
    s.holdings[s.mover_centre()].parts[part] += 1
    after_square(s)


def saturn_v_square(s: CountDownState) -> None:
    if not any(s.leader.parts):
        exhausted(s)
    elif saturn_v_purchases(s):
        s._phase, s._player = phases.SATURN, s.turn.mover
    else:
        after_square(s)


def complete_rocket_in_stock(s: CountDownState) -> bool:
    return all(s.leader.parts)


def saturn_v_purchases(s: CountDownState) -> list[int]:
    """The complete rocket for the flat price; "If there is no complete rocket left in
    stock, they may buy the remaining stages at the fixed prices." Part ids, -1 = all."""
    board = s.game.board
    money = s.holdings[s.mover_centre()].money
    if complete_rocket_in_stock(s):
        return [-1] if money >= board.saturn_price else []
    return [p for p in range(4) if s.leader.parts[p] and money >= board.part_prices[p]]


def buy_saturn(s: CountDownState, part: int) -> None:
    """Buy the complete rocket (part -1) and stop, or one part and perhaps another."""
    board = s.game.board
    centre = s.mover_centre()
    if part < 0:
        price = board.saturn_price
        for p in range(4):
            s.leader.parts[p] -= 1
            s.holdings[centre].parts[p] += 1
        s.holdings[centre].saturn_v += 1  # resold whole, at what it cost (payments)
    else:
        price = board.part_prices[part]
        s.leader.parts[part] -= 1
        s.holdings[centre].parts[part] += 1
    transfer(s, centre, BANK, price)
    if part < 0 or not saturn_v_purchases(s):
        after_square(s)


def funding_square(s: CountDownState, amount: int) -> None:
    """ "receives from the game leader a subsidy equal to the sum shown on the square." """
    transfer(s, BANK, s.mover_centre(), amount)
    after_square(s)


def astronaut_training(s: CountDownState, squats: bool) -> None:
    """Ten correct squats, or "pay 10 million, a fine for insufficient fitness"."""
    if not squats:
        s.debts.append((s.mover_centre(), BANK, s.game.board.squat_fine))
    after_square(s)


# -- surprise cards -----------------------------------------------------------------------
def surprise_square(s: CountDownState) -> None:
    """ "The player takes the first surprise card from the pile; once they have followed its
    instructions, they put it back under the pile." Cards never drawn yet are in an order
    nobody knows (a chance node); after that the pile's order is known to all."""
    if s.piles.surprises_unseen:
        s._phase, s._player = phases.SURPRISE_DRAW, CHANCE
    else:
        card = s.piles.surprise_queue.pop(0)
        follow_surprise(s, card)


def follow_surprise(s: CountDownState, card: int) -> None:
    piles = s.piles
    if card in piles.surprises_unseen:
        piles.surprises_unseen.remove(card)
    piles.surprise_queue.append(card)  # back under the pile
    piles.last_surprise = card
    board = s.game.board
    _, kind, amount, photo, part, square = board.surprises[card]
    centre = s.mover_centre()
    if kind == "money":
        if amount >= 0:
            transfer(s, BANK, centre, amount)
        else:
            s.debts.append((centre, BANK, -amount))
    elif kind == "collect_each":
        s.debts += [(c, centre, amount) for c in s.centres_in_play() if c != centre]
    elif kind == "pay_each":
        s.debts += [(centre, c, amount) for c in s.centres_in_play() if c != centre]
    elif kind == "photo":
        # "If one of these cards entitles you to a photo card, you may obtain it as long as
        # it is still available from the game leader. Otherwise there is no compensation."
        if s.leader.photos[photo]:
            receive_photo(s, centre, photo)
    elif kind == "part":
        if s.leader.parts[part]:
            s.leader.parts[part] -= 1
            s.holdings[centre].parts[part] += 1
    elif kind == "move_to":
        s.turn.pos[s.turn.mover] = square
        land(s)
        return
    elif kind == "go_home":
        s.turn.pos[s.turn.mover] = board.ramp[centre]
    elif kind == "play_again":
        s.turn.again = True
    elif kind == "lose_turn":
        # "Strike at your centre": each player of the centre loses their next turn, as
        # the Strike agent card does to its target (missions).
        for seat in s.seating.seats_of[centre]:
            s.turn.skip[seat] += 1
    after_square(s)


# -- agent squares ------------------------------------------------------------------------
def agent_square(s: CountDownState, green: bool) -> None:
    """ "If a player stops on an "espionage" or "sabotage" square, they take a corresponding
    card." Green = espionage; red = sabotage. An empty pile is exhausted stock."""
    board = s.game.board
    if not any(n for t, n in enumerate(s.piles.agents) if board.agent_green[t] == green):
        exhausted(s)
        return
    s.piles.draw_green = green
    s._phase, s._player = phases.AGENT_DRAW, CHANCE


def agent_draw_outcomes(s: CountDownState) -> list[tuple[int, float]]:
    board = s.game.board
    green = s.piles.draw_green
    cards = [(t, n) for t, n in enumerate(s.piles.agents) if n and board.agent_green[t] == green]
    total = sum(n for _, n in cards)
    return [(t, n / total) for t, n in cards]


def can_draw_agent_card(s: CountDownState, card: int) -> bool:
    """Is ``card`` one of ``agent_draw_outcomes``? (In the pile drawn from, with copies.)"""
    pile = s.piles.agents
    green = s.piles.draw_green
    return 0 <= card < len(pile) and pile[card] > 0 and s.game.board.agent_green[card] == green


def draw_agent_card(s: CountDownState, card: int) -> None:
    s.piles.agents[card] -= 1
    s.holdings[s.mover_centre()].agents[card] += 1
    after_square(s)
