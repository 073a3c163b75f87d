"""Make a puzzle set: play seeded bot games, try their decisions, keep those with one move
clearly best by exact value, each position once, rated.

Game ``i`` of a run with seed ``s`` plays the maker's configuration and pairing number
``i`` (each cycled), its bots seeded ``[s, i, seat]`` and its luck drawn from
``numpy.random.default_rng([s, i])``: the same command makes the same set, puzzle for
puzzle, on any machine.
"""

from __future__ import annotations

import importlib
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from tminus.core.game import Game, State
from tminus.core.playout import sample_chance
from tminus.core.progress import Step
from tminus.core.registry import list_games, load_game
from tminus.puzzles.base import Maker
from tminus.puzzles.model import Puzzle, puzzle_id

if TYPE_CHECKING:  # each game's module is a Maker: mypy checks it here
    from tminus.puzzles import count_down, four_way, sputnik

    _COUNT_DOWN: Maker = count_down
    _FOUR_WAY: Maker = four_way
    _SPUTNIK: Maker = sputnik

MAKERS = {"four_way": "four_way", "sputnik": "sputnik", "count_down": "count_down"}
WITHOUT = {
    "three_two_one": "3-2-1 Countdown hides each player's hand, so no move has an exact "
    "value that the mover could know (see tminus.puzzles)",
}


def maker_of(game: str) -> Maker:
    """The puzzle maker of ``game``; ValueError saying why a game has none."""
    if game in WITHOUT:
        raise ValueError(f"no puzzles for {game}: {WITHOUT[game]}")
    if game not in MAKERS:
        known = ", ".join(sorted(MAKERS))
        if game in list_games():
            raise ValueError(f"no puzzles for {game}; games with puzzles: {known}")
        raise ValueError(f"unknown game {game!r}; games with puzzles: {known}")
    module = importlib.import_module(f"tminus.puzzles.{MAKERS[game]}")
    return cast(Maker, module)


def default_max_games(count: int) -> int:
    return 50 * count + 500


def generate(
    game: str,
    count: int,
    seed: int = 0,
    progress: Step | None = None,
    max_games: int | None = None,
) -> list[Puzzle]:
    """Up to ``count`` puzzles of ``game`` from at most ``max_games`` bot games (by default
    ``50 * count + 500``), in the order found; ``progress`` is told the puzzles found out
    of ``count`` after each game. ValueError for a game without puzzles or a count it
    cannot reach."""
    maker = maker_of(game)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(
            f"the number of puzzles must be a whole number of 1 or more, not {count!r}"
        )
    if maker.most is not None and count > maker.most:
        raise ValueError(
            f"{game} has only {maker.most} distinct puzzles of its kind ({maker.kind}); "
            f"ask for {maker.most} or fewer"
        )
    limit = default_max_games(count) if max_games is None else max_games
    found: dict[Hashable, Puzzle] = {}
    for index in range(limit):
        for puzzle_key, puzzle in puzzles_of_game(maker, seed, index):
            if puzzle_key not in found:
                found[puzzle_key] = puzzle
                if len(found) >= count:
                    break
        if progress is not None:
            progress(len(found), count)
        if len(found) >= count:
            break
    return list(found.values())


def puzzles_of_game(maker: Maker, seed: int, index: int) -> list[tuple[Hashable, Puzzle]]:
    """Play game ``index`` of the run ``seed`` and return its puzzles, with their keys."""
    from tminus.agents.registry import make_agent

    params = dict(maker.configurations[index % len(maker.configurations)])
    the_game = load_game(maker.game, **params)
    pairing = maker.pairings[index % len(maker.pairings)]
    specs = [pairing[seat % len(pairing)] for seat in range(the_game.num_players)]
    agents = [make_agent(spec, the_game, seed=[seed, index, s]) for s, spec in enumerate(specs)]
    rng = np.random.default_rng([seed, index])
    state = the_game.new_initial_state()
    positions: list[State[Game]] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            continue
        if len(state.legal_actions()) > 1:
            positions.append(state.clone())
        state.apply_action(agents[state.current_player()].step(state))
    source = {"agents": specs, "seed": seed, "game": index}
    made = []
    for position, values in maker.decisions(positions):
        answer = maker.best(values)
        if answer is None:
            continue
        made.append(
            (maker.key(position), make_puzzle(maker, params, position, values, answer, source))
        )
    return made


def make_puzzle(
    maker: Maker,
    params: dict[str, Any],
    state: State[Game],
    values: dict[int, float],
    answer: int,
    source: dict[str, Any],
) -> Puzzle:
    history = state.history()
    moves_before = sum(1 for _ in _player_moves(state.game, history))
    return Puzzle(
        id=puzzle_id(maker.game, params, history),
        game=maker.game,
        params=params,
        history=tuple(history),
        seat=state.current_player(),
        kind=maker.kind,
        prompt=maker.prompt(state, values, answer),
        answer=answer,
        values=values,
        margin=maker.margin,
        source={**source, "move_number": moves_before + 1, "ply": len(history)},
        rating=maker.rating(state, values, answer),
        rules_version=state.game.rules_version,
        moves={a: state.action_to_string(a) for a in sorted(values)},
    )


def _player_moves(game: Game, history: list[int]) -> list[int]:
    """The actions of ``history`` made by players (not chance)."""
    state = game.new_initial_state()
    moves = []
    for action in history:
        if not state.is_chance_node():
            moves.append(action)
        state.apply_action(action)
    return moves
