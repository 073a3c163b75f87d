"""A small hidden-information game for the server's leak tests, with unmistakable secrets.

Each seat is dealt a secret word (a chance outcome). Then seats take turns to either guess
the next seat's word (by its number) or pass; a right guess wins. The words are long and
unique, so a leak anywhere in a message shows up as a plain substring.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tminus.core.game import CHANCE, TERMINAL, Game, State
from tminus.core.params import Param

WORDS = ["zephyr-quartz-41", "obsidian-lynx-77", "marigold-vortex-09", "tungsten-heron-58"]
PASS = len(WORDS)


class SecretGame(Game):
    name = "secret_words"
    title = "Secret words"
    information = "imperfect"
    parameters = {"players": Param(2, "number of players", choices=(2, 3))}

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.num_players = self.params["players"]
        self.num_distinct_actions = len(WORDS) + 1
        self.max_chance_outcomes = len(WORDS)
        self.max_game_length = self.num_players + 12
        self.min_utility, self.max_utility = -1.0, 1.0

    def new_initial_state(self) -> SecretState:
        return SecretState(self)


class SecretState(State):
    def __init__(self, game: SecretGame) -> None:
        self.game = game
        self._history: list[int] = []
        self.words: list[int] = []
        self.turn = 0
        self.moves = 0
        self.winner = -1

    def current_player(self) -> int:
        if self.winner >= 0 or self.moves >= 12:
            return TERMINAL
        return CHANCE if len(self.words) < self.game.num_players else self.turn

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player() != CHANCE:
            return []
        return [(w, 1 / len(WORDS)) for w in range(len(WORDS))]

    def legal_actions(self) -> list[int]:
        return list(range(len(WORDS) + 1)) if self.current_player() >= 0 else []

    def _apply(self, action: int) -> None:
        if self.current_player() == CHANCE:
            self.words.append(action)
            return
        target = (self.turn + 1) % self.game.num_players
        if action == self.words[target]:
            self.winner = self.turn
        self.moves += 1
        self.turn = target

    def action_to_string(self, action: int) -> str:
        if self.current_player() == CHANCE:
            return f"deal {WORDS[action]} to seat {len(self.words)}"
        return "pass" if action == PASS else f"guess word number {action}"

    def action_to_string_for(self, seat: int | None, action: int) -> str:
        if self.current_player() == CHANCE and seat != len(self.words):
            return f"a word to seat {len(self.words)}"
        return self.action_to_string(action)

    def returns(self) -> list[float]:
        n = self.game.num_players
        if self.winner < 0:
            return [0.0] * n
        return [1.0 if s == self.winner else -1.0 / (n - 1) for s in range(n)]

    def public_observation(self) -> dict[str, Any]:
        return {"dealt": len(self.words), "turn": self.turn, "winner": self.winner}

    def observation(self, seat: int) -> dict[str, Any]:
        self.check_seat(seat)
        mine = WORDS[self.words[seat]] if seat < len(self.words) else None
        return {"seat": seat, "word": mine, **self.public_observation()}

    def observation_tensor(self, seat: int) -> np.ndarray:
        return np.zeros(1, dtype=np.float32)

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> SecretState:
        copy = self.clone()
        for other in range(len(copy.words)):
            if other != seat:
                copy.words[other] = int(rng.integers(len(WORDS)))
        return copy

    def clone(self) -> SecretState:
        copy = SecretState(self.game)
        copy._history = list(self._history)
        copy.words = list(self.words)
        copy.turn, copy.moves, copy.winner = self.turn, self.moves, self.winner
        return copy

    def __str__(self) -> str:
        return f"words={self.words} turn={self.turn} winner={self.winner}"
