"""Payments a player cannot make (ruling): the debtor sells holdings back to the leader at
face value until they can pay; what still cannot be paid is lost. Nobody is eliminated.
A Saturn V bought complete for its flat price goes back whole at that price."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tminus.games.count_down import phases, trading
from tminus.games.count_down.ledger import BANK, lose_part, transfer

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState


def has_holdings(s: CountDownState, centre: int) -> bool:
    return any(s.holdings[centre].photos) or any(s.holdings[centre].parts)


def settle_debts(s: CountDownState) -> None:
    """Pay the debts in order; a debtor short of money decides what to sell."""
    while s.debts:
        debtor, creditor, amount = s.debts[0]
        if s.holdings[debtor].money >= amount:
            transfer(s, debtor, creditor, amount)
        elif has_holdings(s, debtor):
            s._phase = phases.DEBT
            s._player = s.speaker(debtor)
            return
        else:
            transfer(s, debtor, creditor, s.holdings[debtor].money)  # the rest is lost
        s.debts.pop(0)
    trading.open_meeting(s)


def sell_photo_to_leader(s: CountDownState, photo: int) -> None:
    debtor = s.debts[0][0]
    s.holdings[debtor].photos[photo] -= 1
    s.leader.photos[photo] += 1
    transfer(s, BANK, debtor, s.game.board.photo_values[photo])
    settle_debts(s)


def debt_sales(s: CountDownState) -> list[int]:
    """What the debtor may sell back: each photo card, each part not in a Saturn V bought
    complete, and such a rocket whole."""
    space = s.game.space
    debtor = s.debts[0][0]
    sets = s.holdings[debtor].saturn_v
    sales = [space.sell_photo + p for p, n in enumerate(s.holdings[debtor].photos) if n]
    sales += [space.sell_part + p for p, n in enumerate(s.holdings[debtor].parts) if n > sets]
    return [*sales, space.sell_saturn] if sets else sales


def sell_part_to_leader(s: CountDownState, part: int) -> None:
    debtor = s.debts[0][0]
    lose_part(s, debtor, part)
    s.leader.parts[part] += 1
    transfer(s, BANK, debtor, s.game.board.part_prices[part])
    settle_debts(s)


def sell_saturn_to_leader(s: CountDownState) -> None:
    """A Saturn V bought complete goes back whole, at what it cost."""
    debtor = s.debts[0][0]
    for part in range(4):
        s.holdings[debtor].parts[part] -= 1
        s.leader.parts[part] += 1
    s.holdings[debtor].saturn_v -= 1
    transfer(s, BANK, debtor, s.game.board.saturn_price)
    settle_debts(s)
