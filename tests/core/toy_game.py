"""A tiny hidden-information dice game with switches that plant one contract bug each.

Each of two seats is dealt a secret card 1-3; then seats take turns to roll a die and
either add it to their score or stop. The first to reach 6 wins; a stop ends the game
and the higher score plus card wins. Small, but it has every kind of node.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import numpy as np

from tminus.core.game import CHANCE, TERMINAL, Game, GameType, State
from tminus.core.params import Param

BUGS = (
    "none", "clone_shares_list", "history_drops_action", "hidden_param", "chance_sum",
    "unsorted_legal", "duplicate_legal", "accepts_illegal", "illegal_mutates",
    "observation_leaks", "public_leaks", "returns_out_of_bounds", "too_long",
    "returns_not_zero_sum", "nondeterministic_apply", "log_leaks", "rule_in_apply_action",
    "rounds_skip", "round_returns_out_of_bounds", "structs_collide", "rounds_undeclared",
    "position_drops_field", "unnamed_chance_stream", "why_not_disagrees", "why_not_silent",
    "why_not_leaks",
)  # fmt: skip

ADD, STOP = 0, 1


class ToyGame(Game):
    name = "toy"
    title = "Toy"
    game_type = GameType(information="imperfect")
    parameters = {"bug": Param("none", choices=BUGS)}

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.bug = self.params["bug"]
        self.num_players = 2
        self.num_distinct_actions = 2
        self.max_chance_outcomes = 6
        self.max_game_length = 3 if self.bug == "too_long" else 40
        self.min_utility, self.max_utility = -1.0, 1.0
        self.counter = 0
        if self.bug == "hidden_param":
            self.params = MappingProxyType({})  # forgets the parameter that shapes the game

    def new_initial_state(self) -> ToyState:
        return ToyState(self)


class ToyState(State):
    position_fields = ("cards", "scores", "turn", "rolled", "over", "stopped", "decisions")

    def __init__(self, game: ToyGame) -> None:
        self.game = game
        self._history: list[int] = []
        self._cards: list[int] = []
        self._scores = [1, 0] if game.bug == "hidden_param" else [0, 0]
        self._turn = 0
        self._rolled: int | None = None
        self._over = False
        self._stopped = False
        self._decisions = 0

    def current_player(self) -> int:
        if self._over:
            return TERMINAL
        if len(self._cards) < 2 or self._rolled is None:
            return CHANCE
        return self._turn

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player() != CHANCE:
            return []
        if len(self._cards) < 2:
            p = 0.3 if self.game.bug == "chance_sum" else 1 / 3
            return [(a, p) for a in range(3)]
        return [(a, 1 / 6) for a in range(6)]

    def chance_stream(self) -> Any:
        # The bug: a stream named by an object, whose repr differs in every copy.
        return object() if self.game.bug == "unnamed_chance_stream" else None

    def legal_actions(self) -> list[int]:
        if self.current_player() < 0:
            return []
        if self.game.bug == "unsorted_legal":
            return [STOP, ADD]
        if self.game.bug == "duplicate_legal":
            return [ADD, ADD, STOP]
        return [ADD, STOP]

    def is_legal(self, action: int) -> bool:
        if self.game.bug == "accepts_illegal" and not self._over:
            return True
        return super().is_legal(action)

    def why_not(self, action: int, names: Any = None) -> str | None:
        bug = self.game.bug
        if bug == "why_not_disagrees" and action == STOP and self.current_player() >= 0:
            return "Stopping is not allowed."  # a reason for a legal action
        reason = super().why_not(action, names)
        if bug == "why_not_silent" and self._over:
            return None  # no reason for a move after the end
        if bug == "why_not_leaks" and reason is not None:
            return f"{reason} (the cards are {self._cards})"
        return reason

    def apply_action(self, action: int) -> None:
        if self.game.bug == "illegal_mutates" and not self.is_legal(action):
            self._scores[0] += 1
        super().apply_action(action)
        if self.game.bug == "rule_in_apply_action" and not self._over:
            self._scores[1] += 1  # a rule outside _apply: apply_legal_action skips it
        if self.game.bug == "history_drops_action" and len(self._history) == 3:
            self._history.pop()

    def _apply(self, action: int) -> None:
        if len(self._cards) < 2:
            self._cards.append(action % 3 + 1)
            return
        if self._rolled is None:
            self._rolled = action % 6 + 1
            return
        if self.game.bug == "nondeterministic_apply":
            self.game.counter += 1
            self._scores[self._turn] += self.game.counter % 2
        self._decisions += 1
        if action == STOP:
            self._over = self._stopped = True
        else:
            self._scores[self._turn] += self._rolled
            if self._scores[self._turn] >= 6:
                self._over = True
        self._rolled = None
        self._turn = 1 - self._turn

    def returns(self) -> list[float]:
        if not self._over:
            return [0.0, 0.0]
        totals = [self._scores[s] + (self._cards[s] if self._stopped else 0) for s in range(2)]
        if totals[0] == totals[1]:
            return [0.0, 0.0]
        win = 2.0 if self.game.bug == "returns_out_of_bounds" else 1.0
        lose = 0.0 if self.game.bug == "returns_not_zero_sum" else -1.0
        return [win, lose] if totals[0] > totals[1] else [lose, win]

    def action_to_string(self, action: int) -> str:
        if self.current_player() == CHANCE:
            return f"outcome {action}"
        return ("add", "stop")[action]

    def action_to_struct(self, action: int) -> dict[str, Any]:
        if self.current_player() == CHANCE:
            return {"kind": "outcome", "value": action}
        if self.game.bug == "structs_collide":
            return {"kind": "decide"}
        return {"kind": ("add", "stop")[action]}

    def action_to_string_for(self, seat: int | None, action: int) -> str:
        dealing_to = len(self._cards)
        if dealing_to < 2 and seat != dealing_to and self.game.bug != "log_leaks":
            return f"a card to seat {dealing_to}"
        return self.action_to_string(action)

    def observation(self, seat: int) -> dict[str, Any]:
        self.check_seat(seat)
        mine = self._cards[seat] if seat < len(self._cards) else None
        obs = {"seat": seat, "card": mine, **self.public_observation()}
        if self.game.bug == "observation_leaks":
            obs["cards"] = list(self._cards)
        return obs

    def public_observation(self) -> dict[str, Any]:
        obs = {"scores": list(self._scores), "rolled": self._rolled, "over": self._over}
        if self.game.bug == "public_leaks" and self._over is False and len(self._cards) == 2:
            obs["card_sum"] = sum(self._cards)
        return obs

    def observation_tensor(self, seat: int) -> np.ndarray:
        obs = self.observation(seat)
        return np.array([*obs["scores"], obs["rolled"] or 0, obs["card"] or 0], dtype=np.float32)

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> ToyState:
        copy = self.clone()
        for other in range(len(self._cards)):
            if other != seat:
                copy._cards[other] = int(rng.integers(1, 4))
        return copy

    def position_dict(self) -> dict[str, Any]:
        position = super().position_dict()
        if self.game.bug == "position_drops_field":
            del position["scores"]
        return position

    def _check_position(self) -> None:
        if len(self._cards) > 2 or any(card < 0 for card in self._cards):
            raise ValueError(f"position field cards: {self._cards!r} are not two cards")

    def clone(self) -> ToyState:
        copy = type(self)(self.game)
        copy._history = list(self._history)
        shares = self.game.bug == "clone_shares_list"
        copy._cards = self._cards if shares else list(self._cards)
        copy._scores = self._scores if shares else list(self._scores)
        copy._turn, copy._rolled = self._turn, self._rolled
        copy._over, copy._stopped = self._over, self._stopped
        copy._decisions = self._decisions
        return copy

    def __str__(self) -> str:
        return f"cards={self._cards} scores={self._scores} turn={self._turn} rolled={self._rolled}"


class RoundsToyGame(ToyGame):
    """The toy game told as a game of rounds, to test the contract's rounds."""

    name = "toy_rounds"
    game_type = GameType(information="imperfect", rounds=True)

    def new_initial_state(self) -> RoundsToyState:
        return RoundsToyState(self)


class UndeclaredRoundsToyGame(RoundsToyGame):
    """Scores rounds without saying so in its game type."""

    name = "toy_rounds_undeclared"
    game_type = GameType(information="imperfect")


class RoundsToyState(ToyState):
    # Each add-or-stop is a "round", won by whoever leads after it.
    def rounds_finished(self) -> int:
        decisions = self._decisions
        return decisions * 2 if self.game.bug == "rounds_skip" and decisions >= 3 else decisions

    def round_returns(self) -> list[float]:
        lead = 2.0 if self.game.bug == "round_returns_out_of_bounds" else 1.0
        if self._scores[0] == self._scores[1]:
            return [0.0, 0.0]
        return [lead, -1.0] if self._scores[0] > self._scores[1] else [-1.0, lead]
