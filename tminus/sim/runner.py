"""The driver: play one game from a seed with a list of agents, and batches of games.

Chance outcomes are drawn with NumPy's seeded generator, and each agent gets a seed of
its own derived from the game's, so the same seed always gives the same game, whichever
process or machine plays it. A duplicate batch (as in duplicate bridge) deals the same
luck to every seating of a block of games instead: see ``Batch``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from tminus.agents.base import Agent
from tminus.agents.registry import make_agent
from tminus.core.game import Game
from tminus.core.playout import ChanceStreams, sample_chance
from tminus.core.registry import load_game
from tminus.sim.facts import game_facts


@dataclass(frozen=True)
class GameResult:
    seed: tuple[int, ...]  # of the luck: a duplicate batch's is its deal's, shared
    agents: tuple[str, ...]  # the agent spec in each seat
    returns: list[float]
    winners: list[int]  # State.winners(): empty when nobody won
    moves: int  # decisions taken by players (chance outcomes not counted)
    moves_by_seat: list[int]
    first_mover: int  # the seat that took the first decision (who started)
    turn_cap: bool
    history: list[int] | None = field(default=None, repr=False)
    facts: dict[str, Any] | None = field(default=None, repr=False)  # see tminus.sim.facts


def game_seed(seed: int, index: int) -> tuple[int, int]:
    """The seed of game ``index`` of a run seeded with ``seed`` (independent streams)."""
    return (seed, index)


def make_agents(names: Sequence[str], game: Game, seed: Sequence[int]) -> list[Agent]:
    return [make_agent(name, game, seed=[*seed, seat]) for seat, name in enumerate(names)]


def play_game(
    game: Game,
    agents: Sequence[Agent],
    seed: Sequence[int] | int,
    keep_history: bool = True,
    names: Sequence[str] | None = None,
    streams: bool = False,
) -> GameResult:
    """Play one game to the end: agents move for their seats, chance comes from ``seed``
    (with ``streams``, each of the game's streams of luck from its own part of it)."""
    if len(agents) != game.num_players:
        raise ValueError(f"{game.name} with {game.num_players} players needs that many agents")
    seed = (seed,) if isinstance(seed, int) else tuple(seed)
    rng = np.random.default_rng(list(seed))
    luck = ChanceStreams(repr(seed)) if streams else None
    state = game.new_initial_state()
    moves_by_seat = [0] * game.num_players
    first_mover = -1
    while not state.is_terminal():
        if state.is_chance_node():
            if luck is None:
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            else:
                state.apply_action(luck.draw(state))
        else:
            seat = state.current_player()
            if first_mover < 0:
                first_mover = seat
            state.apply_action(agents[seat].step(state))
            moves_by_seat[seat] += 1
    returns = state.returns()
    return GameResult(
        seed=seed,
        agents=tuple(names or [agent.name for agent in agents]),
        returns=returns,
        winners=state.winners(),
        moves=sum(moves_by_seat),
        moves_by_seat=moves_by_seat,
        first_mover=first_mover,
        turn_cap=state.ended_by_turn_cap(),
        history=state.history() if keep_history else None,
    )


@dataclass(frozen=True)
class Batch:
    """Games to play, described by plain data so that any process can play any of them.

    Game ``i`` seats ``lineups[i % len(lineups)]`` and is seeded by ``game_seed(seed, i)``.
    A ``duplicate`` batch plays its games in deals of one game per lineup: the games of deal
    ``k`` (``i // len(lineups) == k``) all meet the luck of ``game_seed(seed, k)``, drawn by
    the game's streams (``State.chance_stream``), so that each seat's rolls are the same
    in every lineup however the play differs. Agents keep seeds of their own game.
    """

    game: str
    params: dict[str, Any]
    lineups: tuple[tuple[str, ...], ...]
    seed: int
    keep_history: bool = False
    facts: bool = False  # also the facts the game's report figures need
    duplicate: bool = False  # every lineup of a deal meets the same luck

    def play(self, index: int, game: Game | None = None) -> GameResult:
        game = game or load_game(self.game, **self.params)
        lineup = self.lineups[index % len(self.lineups)]
        seeds = game_seed(self.seed, index)
        agents = make_agents(lineup, game, seeds)
        keep = self.keep_history or self.facts
        luck = game_seed(self.seed, index // len(self.lineups)) if self.duplicate else seeds
        result = play_game(
            game, agents, luck, keep_history=keep, names=lineup, streams=self.duplicate
        )
        if not self.facts or result.history is None:  # kept whenever facts are asked
            return result
        return replace(
            result,
            facts=game_facts(game, result.history),
            history=result.history if self.keep_history else None,
        )


def play_indices(batch: Batch, indices: Sequence[int]) -> list[GameResult]:
    """Play the batch's games with these indices (the unit of work of every backend)."""
    game = load_game(batch.game, **batch.params)
    return [batch.play(i, game) for i in indices]
