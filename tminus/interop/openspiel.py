"""Every T-minus game as a Python OpenSpiel game: ``pyspiel.load_game("tminus_four_way", ...)``.

Importing this module registers ``tminus_<name>`` for each game. The adapter is thin:
the T-minus state does the work, this class only speaks pyspiel's language (game type
and info, observers, per-seat information states).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from tminus.core.game import Game, State
from tminus.core.registry import game_class, list_games, load_game

PREFIX = "tminus_"

_UTILITY = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
    "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
}


def _players_range(cls: type[Game]) -> tuple[int, int]:
    players = cls.parameters.get("players")
    if players is None:
        count = cls(**{}).num_players
        return count, count
    if players.choices is not None:
        return min(players.choices), max(players.choices)
    return players.minimum or 1, players.maximum or players.default


def game_type(name: str) -> pyspiel.GameType:
    cls = game_class(name)
    low, high = _players_range(cls)
    imperfect = cls.game_type.information == "imperfect"
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"T-minus {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if imperfect
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=_UTILITY[cls.game_type.utility],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={k: p.default for k, p in cls.parameters.items()},
    )


class OpenSpielGame(pyspiel.Game):
    """A T-minus game seen through pyspiel."""

    tminus_name: str  # set on the subclass made for each game by register_all

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.tminus_name
        given = dict(params or {})
        self.tminus: Game = load_game(name, **given)
        tm = self.tminus
        info = pyspiel.GameInfo(
            num_distinct_actions=tm.num_distinct_actions,
            max_chance_outcomes=tm.max_chance_outcomes,
            num_players=tm.num_players,
            min_utility=float(tm.min_utility),
            max_utility=float(tm.max_utility),
            utility_sum=0.0 if tm.game_type.utility == "zero_sum" else None,
            max_game_length=tm.max_game_length,
        )
        super().__init__(game_type(name), info, dict(tm.params))

    def new_initial_state(self) -> OpenSpielState:
        return OpenSpielState(self, self.tminus.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return Observer(self.tminus, iig_obs_type)


class OpenSpielState(pyspiel.State):
    def __init__(self, game: OpenSpielGame, state: State) -> None:
        super().__init__(game)
        # pyspiel clones a Python state by deep-copying its attributes: a T-minus state
        # deep-copies as its clone(), sharing the (unchanging) game.
        self.tminus = state
        # What each seat has seen of every action so far: its information state.
        self.seen = SeenActions(game.tminus.num_players)

    def current_player(self) -> int:
        player = self.tminus.current_player()
        if player >= 0:
            return player
        return (
            pyspiel.PlayerId.CHANCE if self.tminus.is_chance_node() else pyspiel.PlayerId.TERMINAL
        )

    def _legal_actions(self, player: int) -> list[int]:
        return self.tminus.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.tminus.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        for seat, seen in enumerate(self.seen.by_seat):
            seen.append(self.tminus.action_to_string_for(seat, action))
        self.tminus.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.tminus.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.tminus.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self.tminus.returns()]

    def information_state(self, seat: int) -> str:
        return f"seat {seat}\n" + "\n".join(self.seen.by_seat[seat])

    def __str__(self) -> str:
        return str(self.tminus)


class SeenActions:
    """Each seat's view of every action so far. pyspiel clones a state by deep-copying its
    attributes; copying these lists of strings shallowly is the same and far faster."""

    def __init__(self, players: int) -> None:
        self.by_seat: list[list[str]] = [[] for _ in range(players)]

    def __deepcopy__(self, memo: dict) -> SeenActions:
        copy = SeenActions(0)
        copy.by_seat = [list(seen) for seen in self.by_seat]
        return copy


class Observer:
    """Observation (string and tensor) or perfect-recall information state (string)."""

    def __init__(self, game: Game, iig_obs_type) -> None:
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        self.public_only = bool(
            iig_obs_type and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        )
        size = 0 if self.perfect_recall else int(np.prod(game.observation_tensor_shape()))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        if not self.perfect_recall:
            self.tensor[:] = state.tminus.observation_tensor(player).ravel()

    def string_from(self, state: OpenSpielState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state(player)
        view = state.tminus.public_observation() if self.public_only else None
        view = view if view is not None else state.tminus.observation(player)
        return json.dumps(view, sort_keys=True)


def register_all() -> list[str]:
    """Register every T-minus game with pyspiel (idempotent); return the short names."""
    known = set(pyspiel.registered_names())
    names = []
    for name in list_games():
        short = PREFIX + name
        if short not in known:
            cls = type(f"OpenSpiel_{name}", (OpenSpielGame,), {"tminus_name": name})
            pyspiel.register_game(game_type(name), cls)
        names.append(short)
    return names


register_all()
