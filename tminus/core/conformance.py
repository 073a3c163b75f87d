"""The conformance checker: random playouts that check every promise of the game contract.

Cheap checks run at every step. The costly ones (clone independence, replay, save and
load, illegal actions, observations) run at a sample of steps and at the end, so that a
thousand long games stay quick to check.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from tminus.core.game import CHANCE, TERMINAL, Game, GameType, IllegalActionError, State
from tminus.core.playout import sample_chance
from tminus.core.serialize import load_state, save_state


class ConformanceError(AssertionError):
    """A game broke its contract; the message names the seed, the step and the check."""


@dataclass
class ConformanceReport:
    games: int = 0
    steps: int = 0
    deep_checks: int = 0
    max_length: int = 0


def check_conformance(
    game: Game,
    seeds: Iterable[int] = range(100),
    deep_checks_per_game: int = 8,
) -> ConformanceReport:
    """Play one random game per seed, checking the contract; raise ConformanceError."""
    report = ConformanceReport()
    check_game_info(game)
    for seed in seeds:
        _check_one_game(game, seed, deep_checks_per_game, report)
        report.games += 1
    return report


def check_game_info(game: Game) -> None:
    for field in ("num_players", "num_distinct_actions", "max_chance_outcomes", "max_game_length"):
        value = getattr(game, field)
        if not isinstance(value, int) or value < 0:
            raise ConformanceError(f"game.{field} must be a non-negative int, got {value!r}")
    if game.num_players < 1 or game.num_distinct_actions < 1:
        raise ConformanceError("a game needs at least one player and one action")
    if not game.min_utility <= game.max_utility:
        raise ConformanceError("game.min_utility must not exceed game.max_utility")
    if not isinstance(game.game_type, GameType):
        raise ConformanceError(f"game.game_type must be a GameType, got {game.game_type!r}")
    json.dumps(dict(game.params))


def _check_one_game(game: Game, seed: int, deep_checks: int, report: ConformanceReport) -> None:
    rng = random.Random(seed)
    np_rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    # Deep checks at the first steps, then with a probability that spreads them out.
    deep_rate = deep_checks / max(1, min(game.max_game_length, 200))
    tensor_shape = state.observation_tensor(0).shape
    step = 0
    while True:
        where = f"{game!r}, seed {seed}, step {step}"
        _check_node(game, state, where)
        if step < 2 or state.is_terminal() or rng.random() < deep_rate:
            _deep_check(game, state, where, rng, np_rng, tensor_shape)
            report.deep_checks += 1
        if state.is_terminal():
            break
        if step >= game.max_game_length:
            raise ConformanceError(
                f"{where}: not over after max_game_length={game.max_game_length}"
            )
        if state.is_chance_node():
            action = sample_chance(state.chance_outcomes(), rng.random())
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        rounds = state.rounds_finished()
        state.apply_action(action)
        _check_rounds(game, state, rounds, where)
        step += 1
    report.steps += step
    report.max_length = max(report.max_length, step)


def _check_node(game: Game, state: State[Game], where: str) -> None:
    player = state.current_player()
    if not (player in (CHANCE, TERMINAL) or 0 <= player < game.num_players):
        raise ConformanceError(f"{where}: current_player() is {player!r}")
    if state.is_chance_node() != (player == CHANCE) or state.is_terminal() != (player == TERMINAL):
        raise ConformanceError(f"{where}: is_chance_node/is_terminal disagree with current_player")
    if not isinstance(state.phase(), str):
        raise ConformanceError(f"{where}: phase() is {state.phase()!r}, not a name")
    legal = state.legal_actions()
    outcomes = state.chance_outcomes()
    if player == TERMINAL:
        if legal or outcomes:
            raise ConformanceError(f"{where}: a terminal state offers actions")
        _check_returns(game, state, where, terminal=True)
        return
    if player == CHANCE:
        if legal:
            raise ConformanceError(f"{where}: a chance node offers player actions {legal}")
        _check_chance_outcomes(game, outcomes, where)
        _check_chance_stream(state, where)
        return
    if outcomes:
        raise ConformanceError(f"{where}: a decision node offers chance outcomes")
    if not legal:
        raise ConformanceError(f"{where}: seat {player} to move has no legal action")
    if any(not isinstance(a, int) for a in legal):
        raise ConformanceError(f"{where}: legal actions must be ints: {legal}")
    if legal != sorted(set(legal)):
        raise ConformanceError(f"{where}: legal actions not sorted and unique: {legal}")
    if legal[0] < 0 or legal[-1] >= game.num_distinct_actions:
        raise ConformanceError(f"{where}: legal actions outside [0, num_distinct_actions): {legal}")


def _check_chance_stream(state: State[Game], where: str) -> None:
    """A stream of luck is named by plain values (its ``repr`` seeds the stream's numbers,
    so it must read the same in every process: no objects, no sets), the same in a clone."""
    stream = state.chance_stream()
    if not _plain(stream):
        raise ConformanceError(
            f"{where}: chance_stream() is {stream!r}: name it by plain values "
            "(None, bools, ints, strings and tuples of them)"
        )
    if stream != state.clone().chance_stream():
        raise ConformanceError(f"{where}: chance_stream() differs in a clone")


def _plain(value: object) -> bool:
    if value is None or isinstance(value, bool | int | str):
        return True
    return isinstance(value, tuple) and all(_plain(item) for item in value)


def _check_chance_outcomes(game: Game, outcomes: list[tuple[int, float]], where: str) -> None:
    if not outcomes:
        raise ConformanceError(f"{where}: a chance node with no outcomes")
    actions = [a for a, _ in outcomes]
    if actions != sorted(set(actions)):
        raise ConformanceError(f"{where}: chance outcomes not sorted and unique: {actions}")
    if actions[0] < 0 or actions[-1] >= game.max_chance_outcomes:
        raise ConformanceError(f"{where}: chance outcome outside [0, max_chance_outcomes)")
    probabilities = [p for _, p in outcomes]
    if any(not p > 0 for p in probabilities):
        raise ConformanceError(f"{where}: a chance outcome has probability <= 0")
    total = math.fsum(probabilities)
    if not math.isclose(total, 1.0, abs_tol=1e-9):
        raise ConformanceError(f"{where}: chance probabilities sum to {total}, not 1")


def _check_returns(game: Game, state: State[Game], where: str, terminal: bool) -> None:
    returns = state.returns()
    if len(returns) != game.num_players:
        raise ConformanceError(f"{where}: returns() has {len(returns)} entries")
    for value in returns:
        if not game.min_utility - 1e-9 <= value <= game.max_utility + 1e-9:
            raise ConformanceError(
                f"{where}: return {value} outside [{game.min_utility}, {game.max_utility}]"
            )
    winners = state.winners()
    if winners != sorted(set(winners)) or not set(winners) <= set(range(game.num_players)):
        raise ConformanceError(f"{where}: winners() {winners} are not sorted distinct seats")
    if winners and not terminal:
        raise ConformanceError(f"{where}: winners() {winners} before the end")
    _check_placings(game, state, where, terminal, winners)
    zero_sum = game.game_type.utility == "zero_sum"
    if terminal and zero_sum and not math.isclose(sum(returns), 0, abs_tol=1e-9):
        raise ConformanceError(f"{where}: a zero-sum game's returns sum to {sum(returns)}")


def _check_placings(
    game: Game, state: State[Game], where: str, terminal: bool, winners: list[int]
) -> None:
    """At the end every seat that takes part has a place and the winners are exactly the
    seats placed first (the end screen shows these places); before it, none."""
    places = state.placings()
    if not terminal:
        if places:
            raise ConformanceError(f"{where}: placings() {places} before the end")
        return
    if len(places) != game.num_players:
        raise ConformanceError(f"{where}: placings() has {len(places)} entries")
    ranked = [p for p in places if p is not None]
    if not ranked or min(ranked) != 1 or max(ranked) > len(ranked):
        raise ConformanceError(f"{where}: placings() {places} are not places 1..{len(ranked)}")
    firsts = [seat for seat, place in enumerate(places) if place == 1]
    if winners and firsts != winners:
        raise ConformanceError(f"{where}: winners() {winners} but placed first: {firsts}")
    if not winners and len(firsts) != len(ranked):  # a draw says "=1st" for everyone
        raise ConformanceError(f"{where}: nobody won, yet placings() are {places}")


def _check_rounds(game: Game, state: State[Game], before: int, where: str) -> None:
    """Rounds are scored one at a time, and a scored round's results fit the game's scale."""
    rounds = state.rounds_finished()
    if rounds and not game.game_type.rounds:
        raise ConformanceError(f"{where}: rounds scored but game_type.rounds is not set")
    if rounds not in (before, before + 1):
        raise ConformanceError(f"{where}: rounds_finished() went from {before} to {rounds}")
    if rounds == before + 1:
        returns = state.round_returns()
        if len(returns) != game.num_players or not all(
            game.min_utility - 1e-9 <= r <= game.max_utility + 1e-9 for r in returns
        ):
            raise ConformanceError(f"{where}: round_returns() {returns} do not fit the game")


def _snapshot(state: State[Game]) -> tuple[str, list[int], int, list[int]]:
    return (str(state), state.history(), state.current_player(), state.legal_actions())


def _deep_check(
    game: Game,
    state: State[Game],
    where: str,
    rng: random.Random,
    np_rng: np.random.Generator,
    tensor_shape: tuple[int, ...],
) -> None:
    _check_returns(game, state, where, terminal=state.is_terminal())
    _check_illegal_actions_rejected(game, state, where)
    _check_clone_independence(state, where, rng)
    _check_replay(game, state, where)
    _check_observations(game, state, where, np_rng, tensor_shape)
    _check_action_structs(state, where)
    if state.position_fields:  # positions are optional for a game from outside T-minus
        _check_position_round_trip(game, state, where, rng)
    if game.game_type.information == "imperfect" and state.is_chance_node():
        _check_chance_strings_hide_what_observations_hide(game, state, where)
    _check_why_not(game, state, where)


# Action ids asked about at a deep check: all of them in games with few, else every legal
# one and this many others.
WHY_NOT_SAMPLE = 300


def _check_why_not(game: Game, state: State[Game], where: str) -> None:
    """``why_not`` is None exactly for the legal actions and a reason (a non-empty string)
    for every other action, out of range too; it changes nothing; and it tells the player
    to move nothing they cannot see: a state they cannot tell from this one (the hidden
    parts redrawn) gives the same reasons. Its own random numbers: the games played stay
    those of the seeds."""
    size = game.num_distinct_actions
    legal = set(state.legal_actions())
    local = random.Random(len(state.history()))
    actions = list(range(size))
    if size > WHY_NOT_SAMPLE:
        others = [a for a in actions if a not in legal]
        actions = sorted(legal | set(local.sample(others, min(WHY_NOT_SAMPLE, len(others)))))
    before = _snapshot(state)
    reasons: dict[int, str | None] = {}
    for action in [-1, size, *actions]:
        reason = state.why_not(action)
        if (reason is None) != (action in legal):
            said = "a legal" if action in legal else "an illegal"
            raise ConformanceError(f"{where}: why_not({action}) is {reason!r} for {said} action")
        if reason is not None and (not isinstance(reason, str) or not reason.strip()):
            raise ConformanceError(f"{where}: why_not({action}) is {reason!r}, not a reason")
        reasons[action] = reason
    if _snapshot(state) != before:
        raise ConformanceError(f"{where}: why_not changed the state")
    if game.game_type.information != "imperfect":
        return
    seat = max(state.current_player(), 0)  # at chance and the end, reasons are for all
    other = state.resample_hidden(seat, np.random.default_rng(len(state.history())))
    for action, reason in reasons.items():
        if other.why_not(action) != reason:
            raise ConformanceError(
                f"{where}: why_not({action}) changes with what seat {seat} cannot see: "
                f"{reason!r}, then {other.why_not(action)!r}"
            )


def _view(game: Game, state: State[Game]) -> tuple[object, ...]:
    """All that a seat, a spectator or a program can ask of a state, history aside."""
    seats = range(game.num_players)
    return (
        str(state),
        state.current_player(),
        state.legal_actions(),
        state.chance_outcomes(),
        [state.observation(seat) for seat in seats],
        [state.observation_tensor(seat).tolist() for seat in seats],
        state.public_observation(),
        state.returns(),
    )


def _check_position_round_trip(
    game: Game, state: State[Game], where: str, rng: random.Random
) -> None:
    """``game.set_up(state.position_dict())`` is the same position with the same future (one
    move on, both agree), its position reads back the same, and a bad field is refused."""
    before = _snapshot(state)
    try:
        position = json.loads(json.dumps(state.position_dict()))
    except (TypeError, ValueError) as error:
        raise ConformanceError(f"{where}: position_dict() is not JSON data: {error}") from error
    try:
        set_up = game.set_up(position)
    except ValueError as error:
        raise ConformanceError(f"{where}: set_up refused its own position: {error}") from error
    if _view(game, set_up) != _view(game, state):
        raise ConformanceError(f"{where}: set_up(position_dict()) is another position")
    if set_up.position_dict() != position:
        raise ConformanceError(f"{where}: a set-up position reads back differently")
    if not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state.chance_outcomes(), rng.random())
        else:
            action = rng.choice(state.legal_actions())
        after, copy = state.clone(), set_up.clone()
        after.apply_action(action)
        copy.apply_action(action)
        if _view(game, copy) != _view(game, after):
            raise ConformanceError(f"{where}: a set-up position has another future")
    try:
        state.with_position({"no such field": 0})
    except ValueError:
        pass
    else:
        raise ConformanceError(f"{where}: with_position accepted an unknown field")
    if _snapshot(state) != before:
        raise ConformanceError(f"{where}: setting up a position changed the state it came from")


def _check_action_structs(state: State[Game], where: str) -> None:
    """Every possible action has a JSON-safe struct of its own that maps back to it."""
    possible = [a for a, _ in state.chance_outcomes()] or state.legal_actions()
    seen: dict[str, int] = {}
    for action in possible:
        struct = state.action_to_struct(action)
        if not isinstance(struct, dict) or not isinstance(struct.get("kind"), str):
            raise ConformanceError(f"{where}: action_to_struct({action}) has no kind: {struct!r}")
        try:
            key = json.dumps(struct, sort_keys=True)
        except (TypeError, ValueError) as error:
            raise ConformanceError(f"{where}: action_to_struct({action}): {error}") from error
        if key in seen:
            raise ConformanceError(
                f"{where}: actions {seen[key]} and {action} have the same struct {key}"
            )
        seen[key] = action
    # Distinct structs have an inverse; that the contract's finds it, on a few of them.
    for key, action in list(seen.items())[:: max(1, len(seen) // 3)]:
        if state.struct_to_action(json.loads(key)) != action:
            raise ConformanceError(f"{where}: struct_to_action does not give back {action}")


def _check_illegal_actions_rejected(game: Game, state: State[Game], where: str) -> None:
    if state.is_chance_node():
        legal = {a for a, _ in state.chance_outcomes()}
        space = game.max_chance_outcomes
    else:
        legal = set(state.legal_actions())
        space = game.num_distinct_actions
    candidates = [-1, space]
    candidates += [a for a in range(space) if a not in legal][:3]
    before = _snapshot(state)
    for action in candidates:
        try:
            state.apply_action(action)
        except IllegalActionError:
            pass
        else:
            raise ConformanceError(f"{where}: illegal action {action} was accepted")
        if _snapshot(state) != before:
            raise ConformanceError(f"{where}: rejecting illegal action {action} changed the state")


def _check_clone_independence(state: State[Game], where: str, rng: random.Random) -> None:
    if state.is_terminal():
        return
    before = _snapshot(state)
    copy = state.clone()
    if _snapshot(copy) != before:
        raise ConformanceError(f"{where}: a clone differs from its original")
    if state.is_chance_node():
        action = sample_chance(state.chance_outcomes(), rng.random())
    else:
        action = rng.choice(state.legal_actions())
    copy.apply_action(action)
    if _snapshot(state) != before:
        raise ConformanceError(f"{where}: applying an action to a clone changed the original")
    original = state.clone()
    original.apply_action(action)
    if str(original) != str(copy):
        raise ConformanceError(f"{where}: the same action on two clones gave different states")
    unchecked = state.clone()
    unchecked.apply_legal_action(action)
    if _snapshot(unchecked) != _snapshot(copy):
        raise ConformanceError(f"{where}: apply_legal_action and apply_action disagree")


def _check_replay(game: Game, state: State[Game], where: str) -> None:
    replayed = game.new_initial_state()
    for action in state.history():
        replayed.apply_action(action)
    if str(replayed) != str(state) or replayed.history() != state.history():
        raise ConformanceError(f"{where}: replaying the history does not reproduce the state")
    try:
        loaded = load_state(save_state(state))
    except (ValueError, TypeError) as error:
        raise ConformanceError(f"{where}: save/load failed: {error}") from error
    if str(loaded) != str(state) or loaded.history() != state.history():
        raise ConformanceError(f"{where}: save then load does not reproduce the state")


def _check_observations(
    game: Game,
    state: State[Game],
    where: str,
    np_rng: np.random.Generator,
    tensor_shape: tuple[int, ...],
) -> None:
    public = state.public_observation()
    try:
        json.dumps(public)
        for seat in range(game.num_players):
            json.dumps(state.observation(seat))
    except (TypeError, ValueError) as error:
        raise ConformanceError(f"{where}: an observation is not JSON-safe: {error}") from error
    for seat in range(game.num_players):
        tensor = state.observation_tensor(seat)
        if tensor.shape != tensor_shape:
            raise ConformanceError(
                f"{where}: observation_tensor shape {tensor.shape} != {tensor_shape}"
            )
        # What a seat may not see must not show in what it is shown: redraw it and compare.
        for _ in range(2):
            other = state.resample_hidden(seat, np_rng)
            if other.public_observation() != public:
                raise ConformanceError(f"{where}: public_observation() shows hidden information")
            if other.observation(seat) != state.observation(seat):
                raise ConformanceError(
                    f"{where}: observation({seat}) changes with cards seat {seat} cannot see"
                )
            if not np.array_equal(other.observation_tensor(seat), state.observation_tensor(seat)):
                raise ConformanceError(
                    f"{where}: observation_tensor({seat}) changes with what seat {seat} cannot see"
                )
            if other.current_player() != state.current_player():
                raise ConformanceError(f"{where}: resample_hidden changed whose turn it is")


def _check_chance_strings_hide_what_observations_hide(
    game: Game, state: State[Game], where: str
) -> None:
    """A log must not tell a seat which outcome happened when its observation cannot.

    Two chance outcomes that lead to different states but leave a seat's observation the
    same must read the same to it in ``action_to_string_for`` (a card dealt to someone
    else: "a card to seat 2"). Outcomes that lead to the very same state hide nothing.
    """
    outcomes = [a for a, _ in state.chance_outcomes()]
    after = {}
    for action in outcomes:
        child = state.clone()
        child.apply_action(action)
        after[action] = child
    for seat in range(game.num_players):
        seen: dict[str, list[tuple[int, str]]] = {}
        for action in outcomes:
            key = json.dumps(after[action].observation(seat), sort_keys=True)
            text = state.action_to_string_for(seat, action)
            for other, other_text in seen.get(key, []):
                if other_text != text and str(after[other]) != str(after[action]):
                    raise ConformanceError(
                        f"{where}: chance outcomes {other} and {action} look alike to seat "
                        f"{seat} but its log reads {other_text!r} and {text!r}"
                    )
            seen.setdefault(key, []).append((action, text))
