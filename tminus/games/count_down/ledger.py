"""What each centre and the leader hold; money between them (the leader is the bank), and
rocket parts leaving a centre.

The bank's balance starts at 0 and every transfer keeps the players' money plus the bank's
balance at 0."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tminus.games.count_down.game import CountDownState

BANK = -1


@dataclass(slots=True)
class Holdings:
    """What one centre holds: ``money``, photo cards and rocket parts (a count per kind),
    agent cards (a count per type, secret), and the Saturn Vs bought complete and still
    whole (``saturn_v``: they go back whole, at what they cost)."""

    money: int
    photos: list[int]
    parts: list[int]
    agents: list[int]
    saturn_v: int = 0

    @classmethod
    def empty(cls, photos: int, agents: int) -> Holdings:
        return cls(0, [0] * photos, [0] * 4, [0] * agents)

    def copy(self) -> Holdings:
        return Holdings(
            self.money, self.photos.copy(), self.parts.copy(), self.agents.copy(), self.saturn_v
        )


@dataclass(slots=True)
class Leader:
    """The game leader's side: the ``bank``'s balance, and the photo cards and rocket parts
    in stock (a count per kind)."""

    bank: int
    photos: list[int]
    parts: list[int]

    def copy(self) -> Leader:
        return Leader(self.bank, self.photos.copy(), self.parts.copy())


def transfer(s: CountDownState, payer: int, payee: int, amount: int) -> None:
    """Money from one centre (or the leader, -1) to another (or the leader)."""
    if payer == BANK:
        s.leader.bank -= amount
    else:
        s.holdings[payer].money -= amount
    if payee == BANK:
        s.leader.bank += amount
    else:
        s.holdings[payee].money += amount


def move_saturn_v(s: CountDownState, giver: int, taker: int) -> None:
    """A Saturn V bought whole changes hands whole (rules v3): one of each part, and the
    taker holds it as a rocket bought whole, to be sold whole again."""
    held, gets = s.holdings[giver], s.holdings[taker]
    for part in range(4):
        held.parts[part] -= 1
        gets.parts[part] += 1
    held.saturn_v -= 1
    gets.saturn_v += 1


def lose_part(s: CountDownState, centre: int, part: int) -> None:
    """A rocket part leaves a centre. A Saturn V bought complete that loses a part is no
    longer the rocket bought: its other parts count as single parts from then on."""
    held = s.holdings[centre]
    held.parts[part] -= 1
    if held.parts[part] < held.saturn_v:
        held.saturn_v -= 1
