"""The game contract every T-minus game implements (close to OpenSpiel's).

A game is exactly reproduced by its parameters and its action history: every random
event is an explicit chance node, and a state holds no random generator.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Generic, Self, TypeVar

import numpy as np

from tminus.core.params import Param, validate_params

CHANCE = -1
TERMINAL = -4


class IllegalActionError(ValueError):
    """An action that is not legal in the state it was applied to (the state is unchanged)."""


# What ``State.why_not`` says when a game has no more specific reason.
NOT_POSSIBLE_NOW = "That move is not possible now."


INFORMATION = ("perfect", "imperfect")
UTILITY = ("zero_sum", "constant_sum", "general_sum")


@dataclass(frozen=True)
class GameType:
    """What a game is and what it can do beyond the contract, declared once on its class
    (as OpenSpiel's ``GameType``): programs read this record, never probe for methods."""

    # "perfect" or "imperfect": whether observations can hide anything from a seat.
    information: str = "perfect"
    # "zero_sum", "constant_sum" or "general_sum", as OpenSpiel names them.
    utility: str = "zero_sum"
    # Played in rounds: ``State.round_returns()`` tells how the last scored round went.
    rounds: bool = False
    # ``Game.layout()`` gives the printed board (cards, prices) for a client to draw.
    layout: bool = False
    # Seats may win together: ``Game.allies(seat)`` names a seat's partners.
    teams: bool = False
    # ``State.state_key()`` gives a hashable key of the position (transposition tables).
    position_keys: bool = False

    def __post_init__(self) -> None:
        if self.information not in INFORMATION:
            raise ValueError(f"information is one of {INFORMATION}, not {self.information!r}")
        if self.utility not in UTILITY:
            raise ValueError(f"utility is one of {UTILITY}, not {self.utility!r}")


class Game:
    """A game with fixed, validated parameters. Subclasses fill in the class attributes."""

    name: ClassVar[str]
    title: ClassVar[str]
    parameters: ClassVar[Mapping[str, Param]]
    game_type: ClassVar[GameType] = GameType()
    # Mirrors of ``game_type`` for readers that have not moved to it yet: not declarations.
    information: ClassVar[str] = "perfect"
    utility: ClassVar[str] = "zero_sum"
    # Raised whenever a rule or ruling changes what a history means: stored games, saves
    # and exports carry it, so a game recorded under other rules is known as such.
    rules_version: ClassVar[int] = 1

    num_players: int
    num_distinct_actions: int
    max_chance_outcomes: int
    max_game_length: int
    min_utility: float
    max_utility: float

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # A class that still declares ``information``/``utility`` loose (a game written
        # before the record) has them folded into its record; either way they mirror it.
        loose = {k: cls.__dict__[k] for k in ("information", "utility") if k in cls.__dict__}
        if loose:
            cls.game_type = replace(cls.game_type, **loose)
        cls.information = cls.game_type.information
        cls.utility = cls.game_type.utility

    def __init__(self, **params: Any) -> None:
        self.params = validate_params(self.name, self.parameters, params)

    def new_initial_state(self) -> State[Game]:
        raise NotImplementedError

    def set_up(self, position: Mapping[str, Any]) -> State[Game]:
        """A state at ``position`` (a dict of the state's ``position_fields``; the fields left
        out are those of the initial state): for tests, puzzles and analysis. A bad field:
        ValueError naming it."""
        return self.new_initial_state().with_position(position)

    def allies(self, seat: int) -> list[int]:
        """The seats that win together with ``seat``: itself alone unless ``game_type.teams``."""
        return [seat]

    def layout(self) -> dict[str, Any]:
        """The printed board for a client to draw, where ``game_type.layout``."""
        raise NotImplementedError(f"{self.name} has no layout (see game_type.layout)")

    # Bounds of every entry of observation_tensor (for the spaces of RL adapters).
    observation_bounds: ClassVar[tuple[float, float]] = (-float("inf"), float("inf"))

    @classmethod
    def configurations(cls) -> list[dict[str, Any]]:
        """Parameter sets that together cover every player count and variant (for tests)."""
        players = cls.parameters.get("players")
        if players is None or players.choices is None:
            return [{}]
        return [{"players": n} for n in players.choices]

    def observation_tensor_shape(self) -> tuple[int, ...]:
        return self.new_initial_state().observation_tensor(0).shape

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self  # a game never changes once made; its states share it

    def __reduce__(
        self,
    ) -> tuple[Callable[[str, dict[str, Any]], Game], tuple[str, dict[str, Any]]]:
        # Pickled as its name and parameters: rebuilt through the registry.
        from tminus.core.registry import load_game_from

        return (load_game_from, (self.name, dict(self.params)))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"load_game({self.name!r}, {args})"


# The game a state belongs to: a game's state class names its game class
# (``class SputnikState(TurnState[SputnikGame])``) so that ``state.game`` has that type.
# Covariant, so that a Sputnik state is a ``State[Game]``: what code for every game takes
# (a state never gets another game once made).
G = TypeVar("G", bound=Game, covariant=True)


class State(Generic[G]):
    """A position of a game. Subclasses implement the underscored hooks."""

    # Empty, so that a subclass declaring its own slots carries no __dict__.
    __slots__ = ()
    game: G
    _history: list[int]

    # -- whose turn -----------------------------------------------------------------------
    def current_player(self) -> int:
        raise NotImplementedError

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    # -- moves ----------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """[(action, probability)] at a chance node, sorted by action; [] elsewhere."""
        return []

    def legal_actions(self) -> list[int]:
        """Sorted legal actions of the player to move; [] at chance and terminal nodes."""
        raise NotImplementedError

    def is_legal(self, action: int) -> bool:
        if self.is_terminal():
            return False
        if self.is_chance_node():
            return any(a == action for a, _ in self.chance_outcomes())
        return action in self.legal_actions()

    def apply_action(self, action: int) -> None:
        """Apply a player's move or a chance outcome. Illegal: IllegalActionError, no change."""
        if type(action) is not int:  # a plain int (the hot path of replays) needs no index()
            try:
                action = operator.index(action)
            except TypeError:
                raise IllegalActionError(f"an action is an integer, not {action!r}") from None
        if not self.is_legal(action):
            raise IllegalActionError(self._illegal_message(action))
        self._apply(action)
        self._history.append(action)

    def apply_legal_action(self, action: int) -> None:
        """Apply an action just taken from this state's ``legal_actions()`` or
        ``chance_outcomes()`` without checking it again: for searches and playouts, where
        the check would cost as much as the move. Anything else: ``apply_action``."""
        self._apply(action)
        self._history.append(action)

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def _illegal_message(self, action: int) -> str:
        if self.is_terminal():
            return f"illegal action {action}: the game is over"
        if self.is_chance_node():
            legal = [a for a, _ in self.chance_outcomes()]
            who = "chance"
        else:
            legal = self.legal_actions()
            who = f"seat {self.current_player()}"
        listed = ", ".join(f"{a} ({self.action_to_string(a)})" for a in legal)
        return f"illegal action {action} for {who}; legal: {listed}"

    def action_to_string(self, action: int) -> str:
        """A stable, readable name for an action at this node (chance or player)."""
        raise NotImplementedError

    def string_to_action(self, text: str) -> int:
        """The legal action (or chance outcome) named ``text`` here; ValueError if none."""
        candidates = self._possible_now()
        for action in candidates:
            if self.action_to_string(action) == text:
                return action
        names = ", ".join(self.action_to_string(a) for a in candidates) or "none (game over)"
        raise IllegalActionError(f"{text!r} is not possible now; possible: {names}")

    def action_to_struct(self, action: int) -> dict[str, Any]:
        """The legal action (or chance outcome) ``action`` here as data for programs and the
        browser: JSON-safe fields, ``"kind"`` first, seats as seats, cards and squares by
        name. Read its fields, never the text; like ``action_to_string`` it tells the
        whole truth (hide a chance outcome from a seat with ``action_to_string_for``).
        A game that does not describe its moves yet gives its action id and name."""
        return {"kind": "action", "action": action, "name": self.action_to_string(action)}

    def struct_to_action(self, struct: Mapping[str, Any]) -> int:
        """The legal action (or chance outcome) whose struct is ``struct``; IllegalActionError
        if none is possible now."""
        for action in self._possible_now():
            if self.action_to_struct(action) == struct:
                return action
        raise IllegalActionError(f"{dict(struct)!r} is not possible now")

    def _possible_now(self) -> list[int]:
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        return self.legal_actions()

    def action_to_string_for(self, seat: int | None, action: int) -> str:
        """How ``action``, about to be applied here, looks to ``seat`` (None: a spectator).

        Games with hidden information override this so that a log never shows a seat what
        it may not know (a card dealt to someone else reads "a card to seat 2").
        """
        return self.action_to_string(action)

    # -- words for people -----------------------------------------------------------------
    # Programs read ``action_to_string`` (seats are 0-based numbers); people read these,
    # where each seat is called by its name, ``names[seat]``. Games override them to speak
    # in words ("Alice rolls 7 and moves to Radar"); the defaults fall back on the strings.
    # A name is opaque text: use it whole, never change or parse it.
    def move_label(self, action: int, names: Sequence[str]) -> str:
        """A legal move of the player to move, as its button says it: "Attack Bob"."""
        return self.action_to_string(action)

    def move_name(self, action: int, names: Sequence[str]) -> str:
        """Any move of the game, allowed now or not, named for people: what "Why can't I…?"
        lists. Its button's words by default; a game whose buttons speak only of the decision
        at hand (they would misname a move of another) names the others otherwise. Raises
        when this position cannot name ``action`` at all."""
        return self.move_label(action, names)

    def narrate(
        self,
        action: int,
        names: Sequence[str],
        viewer: int | None = None,
        *,
        reveal: bool = False,
    ) -> str:
        """The log line of ``action``, about to be applied here: one sentence naming who did it.

        It says only what ``viewer`` (None: a spectator) may know, unless ``reveal`` (after
        the end, the whole truth).
        """
        actor = self.current_player()
        text = (
            self.action_to_string(action) if reveal else self.action_to_string_for(viewer, action)
        )
        return text if actor < 0 else f"{names[actor]}: {text}"

    # -- why a move is not possible ("Why can't I?") --------------------------------------
    def why_not(self, action: int, names: Sequence[str] | None = None) -> str | None:
        """Why ``action`` cannot be played now, said to the player to move: None when it is
        one of ``legal_actions()``, otherwise one or two sentences naming the rule that
        forbids it (in the rulebook's words where possible). A reason tells only what the
        player to move may see. Seats are called ``names[seat]`` ("Player 1", … without).

        Every game shares the reasons here: not a number, not an action of this game, the
        game is over, chance's turn (a chance outcome is not a move: at a chance node every
        action gets that reason). The rest, the rules of the game, is ``_why_not``'s; a
        game without a reason of its own says ``NOT_POSSIBLE_NOW``."""
        if type(action) is not int:
            try:
                action = operator.index(action)
            except TypeError:
                return f"A move is a whole number (the move's id), not {_short(action)}."
        size = self.game.num_distinct_actions
        if not 0 <= action < size:
            return (
                f"There is no move {action} in {self.game.title}: "
                f"moves are numbered 0 to {size - 1}."
            )
        if self.is_terminal():
            return "The game is over: no more moves can be made."
        if self.is_chance_node():
            return self._chance_first()
        if self.is_legal(action):
            return None
        return self._why_not(action, self._people(names)) or NOT_POSSIBLE_NOW

    def _why_not(self, action: int, names: Sequence[str]) -> str | None:
        """The rule of this game that forbids ``action`` (an action id of the game, illegal
        for the player to move), said to them: games override this. None: no reason
        more specific than ``NOT_POSSIBLE_NOW``."""
        return None

    def _chance_first(self) -> str:
        """Why nobody may move at this chance node, said to people (games name their dice)."""
        return "Nobody can move now: chance goes first (a roll or a card to draw)."

    def _people(self, names: Sequence[str] | None) -> list[str]:
        """What reasons call each seat: ``names``, or "Player 1", "Player 2", …."""
        n = self.game.num_players
        if names is None:
            return [f"Player {seat + 1}" for seat in range(n)]
        if isinstance(names, str) or len(names) < n:
            raise ValueError(f"name every seat: {n} names are needed, got {names!r}")
        return list(names)

    def history(self) -> list[int]:
        return list(self._history)

    def history_strings(self) -> list[str]:
        """The history as readable strings, by replaying it from the start."""
        state = self.game.new_initial_state()
        names = []
        for action in self._history:
            names.append(state.action_to_string(action))
            state.apply_action(action)
        return names

    # -- results --------------------------------------------------------------------------
    def returns(self) -> list[float]:
        raise NotImplementedError

    def phase(self) -> str:
        """The name of the stage of play (as the game's observations spell it); games with
        phases override this. One type for every game: a readable string."""
        return "over" if self.is_terminal() else "play"

    def winners(self) -> list[int]:
        """The seats that won: those with the best return once the game is over, in seat
        order (one seat, or a team). Empty while the game goes on and when every seat's
        return is the same: everyone equal means nobody won (a draw, a turn cap, a win
        shared by all). Every caller asks here, so that rule is decided once."""
        if not self.is_terminal():
            return []
        returns = self.returns()
        best = max(returns)
        if best == min(returns):
            return []
        return [seat for seat, value in enumerate(returns) if value == best]

    def placings(self) -> list[int | None]:
        """Each seat's place once the game is over, 1 the best; seats tied share a place
        and the next place skips (1, 1, 3). None for a seat that takes no part (Count
        Down's watcher). Empty while the game goes on. By default the returns rank the
        seats; a game whose rules rank the losers too (who was knocked out last, who won
        more rounds) overrides ``placing_keys``. A game nobody won (every return the
        same) places every seat first, whatever the keys."""
        if not self.is_terminal():
            return []
        keys = self.placing_keys()
        if not self.winners():  # a draw (a turn cap, a win shared by all): nobody is ahead
            keys = [None if key is None else 0 for key in keys]
        return places_by(keys)

    def placing_keys(self) -> list[Any]:
        """What ranks the seats at the end, one comparable key a seat (the higher the
        better; None: takes no part): by default each seat's return."""
        return list(self.returns())

    def ended_by_turn_cap(self) -> bool:
        """True when the game ended as a draw because the turn cap was reached."""
        return False

    def chance_stream(self) -> Hashable:
        """Which stream of luck this chance node draws from: the same for every chance
        node unless a game says otherwise. A search that compares moves on common random
        numbers gives each stream its own numbers (``tminus.core.playout.ChanceStreams``),
        so that a move which draws one card more does not shift every later roll."""
        return None

    # A game played in rounds (3-2-1 Countdown) can tell a search how the last round went,
    # so a simulation may stop there instead of playing the whole match out.
    def rounds_finished(self) -> int:
        """How many rounds have been scored so far; 0 in a game without rounds."""
        return 0

    def round_returns(self) -> list[float]:
        """Each seat's result in the last scored round, on the scale of ``returns``
        (where ``game_type.rounds``)."""
        raise NotImplementedError(f"{self.game.name} is not played in rounds")

    def state_key(self) -> Any:
        """A hashable key of the position, not of its history (where
        ``game_type.position_keys``): equal keys, equal futures."""
        raise NotImplementedError(f"{self.game.name} has no position keys")

    def prompt(self, seat: int, names: Sequence[str]) -> str | None:
        """A question the position puts to ``seat``, said to them in words (Count Down's
        meetings: "Bob asks you to sell Radar (forced sale): ..."); None: nothing to ask."""
        return None

    # -- positions --------------------------------------------------------------------------
    # The fields that decide a state's future, by name (each kept in the slot ``_name``),
    # in the engine's own terms (seats, card and cell indexes, phase numbers). Fields
    # derived from them (caches, masks, sums) are not listed: ``_after_set_up`` remakes them.
    position_fields: ClassVar[tuple[str, ...]] = ()

    def position_dict(self) -> dict[str, Any]:
        """This position as JSON-safe data: ``game.set_up(state.position_dict())`` is a state
        with the same future. Its history is not part of it."""
        if not self.position_fields:
            raise NotImplementedError(f"{self.game.name} has no position fields")
        return {name: _json_copy(getattr(self, "_" + name)) for name in self.position_fields}

    def with_position(self, changes: Mapping[str, Any]) -> Self:
        """A copy of this state with the named fields of its position replaced, validated
        (unknown field, wrong type or an impossible position: ValueError, this state
        unchanged). Its history starts there: it holds the moves made since the set-up, so
        save it as its position (a save file or a pickle replays a history from the start)."""
        unknown = sorted(set(changes) - set(self.position_fields))
        if unknown:
            fields = ", ".join(self.position_fields) or "none"
            raise ValueError(f"no position field {', '.join(unknown)}; fields: {fields}")
        copy = self.clone()
        for name, value in changes.items():
            old = getattr(self, "_" + name)
            value = _json_copy(value)
            if not _same_shape(old, value):
                raise ValueError(f"position field {name}: {value!r} is not shaped like {old!r}")
            setattr(copy, "_" + name, value)
        copy._history.clear()  # a clone owns its history list
        copy._check_position()
        copy._after_set_up()
        return copy

    def _after_set_up(self) -> None:
        """Remake what is derived from the position fields (caches, masks, sums)."""

    def _check_position(self) -> None:
        """ValueError naming the first field that makes the position impossible."""

    # -- views ----------------------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        """JSON-safe view of what ``seat`` may know."""
        raise NotImplementedError

    def public_observation(self) -> dict[str, Any]:
        """JSON-safe view of what a spectator may know."""
        raise NotImplementedError

    def observation_tensor(self, seat: int) -> np.ndarray:
        raise NotImplementedError

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> Self:
        """A state consistent with all that ``seat`` has observed, hidden parts redrawn.

        Perfect-information games hide nothing, so this is a clone.
        """
        return self.clone()

    def check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise ValueError(f"a seat is an integer, not {seat!r}")
        if not 0 <= seat < self.game.num_players:
            raise ValueError(
                f"seat {seat} does not exist: seats are 0 to {self.game.num_players - 1}"
            )

    def render(
        self, seat: int | None = None, names: Sequence[str] | None = None, width: int | None = None
    ) -> str:
        """The position drawn for a terminal (Rich markup allowed), as ``seat`` sees it, each
        seat called by ``names[seat]`` when names are given, its lines within ``width``
        columns where the game can (None: as wide as it likes)."""
        return str(self)

    def clone(self) -> Self:
        raise NotImplementedError

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.clone()

    def __reduce__(self) -> tuple[Callable[[dict[str, Any]], State[Game]], tuple[dict[str, Any]]]:
        # Pickled as the save file (game, parameters, history) and rebuilt by replay.
        from tminus.core.serialize import state_from_dict, state_to_dict

        return (state_from_dict, (state_to_dict(self),))

    def __str__(self) -> str:
        raise NotImplementedError


def _short(value: object) -> str:
    """A value as a reason quotes it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _json_copy(value: Any) -> Any:
    """A deep copy as JSON would carry it (tuples become lists); TypeError if not JSON-safe."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as error:
        raise ValueError(f"a position is JSON data, not {value!r}") from error


def _same_shape(old: Any, new: Any) -> bool:
    """Whether ``new`` can stand where ``old`` stood: the same JSON type (None stands for any
    value of an optional field; an int for a float). What the values mean, each game's
    ``_check_position`` checks."""
    if old is None or new is None:
        return True
    if isinstance(old, bool) or isinstance(new, bool):
        return type(old) is type(new)
    if isinstance(old, (int, float)):
        return isinstance(new, (int, float)) and (isinstance(new, int) or isinstance(old, float))
    if isinstance(old, (list, tuple)):
        return isinstance(new, list)
    return isinstance(new, type(old))


class TurnState(State[G]):
    """A state that keeps whose turn it is in ``_player`` (a seat, CHANCE or TERMINAL).

    The three questions about the turn are then one attribute read each: they sit on
    every game's hot path.
    """

    __slots__ = ()
    _player: int

    def current_player(self) -> int:
        return self._player

    def is_chance_node(self) -> bool:
        return self._player == CHANCE

    def is_terminal(self) -> bool:
        return self._player == TERMINAL


def places_by(keys: Sequence[Any]) -> list[int | None]:
    """Places from keys, the higher the better: 1 + how many seats did strictly better;
    equal keys share a place; a None key has no place."""
    ranked = [key for key in keys if key is not None]
    return [None if key is None else 1 + sum(other > key for other in ranked) for key in keys]
