"""Money between the centres and the leader (the bank), and rocket parts leaving a centre.

The bank's balance starts at 0 and every transfer keeps the players' money plus the bank's
balance at 0."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState

BANK = -1


def transfer(s: CountDownState, payer: int, payee: int, amount: int) -> None:
    """Money from one centre (or the leader, -1) to another (or the leader)."""
    if payer == BANK:
        s._bank -= amount
    else:
        s._money[payer] -= amount
    if payee == BANK:
        s._bank += amount
    else:
        s._money[payee] += amount


def lose_part(s: CountDownState, centre: int, part: int) -> None:
    """A rocket part leaves a centre. A Saturn V bought complete that loses a part is no
    longer the rocket bought: its other parts count as single parts from then on."""
    s._parts[centre][part] -= 1
    if s._parts[centre][part] < s._saturn_sets[centre]:
        s._saturn_sets[centre] -= 1
