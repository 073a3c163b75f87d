"""The deck and the deal, from ``deck.json``: the copies of each card value 0 to 10 (110
cards in the published game) and the cards dealt to each hand by the number of players in
the round ("2-6 players: 12 cards each; 7-8 players: 10 cards each")."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from tminus.games.data_files import DataModel, read_json

VALUES = range(11)
FEWEST_PLAYERS = 2


class DeckFile(DataModel):
    cards: dict[int, Annotated[int, Field(ge=0)]]  # card value -> copies in the deck
    hand_size: dict[int, Annotated[int, Field(ge=1)]]  # players in the round -> cards each

    @model_validator(mode="after")
    def _playable(self) -> DeckFile:
        if sorted(self.cards) != list(VALUES):
            raise ValueError("cards: one entry for each card value 0 to 10")
        counts = sorted(self.hand_size)
        if not counts or counts != list(range(FEWEST_PLAYERS, counts[-1] + 1)):
            raise ValueError("hand_size: one entry for each player count from 2 up")
        deck = sum(self.cards.values())
        for players, size in self.hand_size.items():
            if players * size >= deck:  # a draw pile is left after the deal
                raise ValueError(f"hand_size.{players}: {players} hands of {size} take all {deck}")
        return self


def load_deck() -> tuple[tuple[int, ...], dict[int, int]]:
    """The copies of each card value in value order, and the hand size by players."""
    deck = read_json(__package__, "deck.json", DeckFile, "3-2-1 Countdown deck")
    return tuple(deck.cards[v] for v in VALUES), dict(sorted(deck.hand_size.items()))
