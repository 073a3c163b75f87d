"""A fingerprint of every game's behaviour: one hash per configuration and a total.

Seeded random games of every configuration (``Game.configurations()``) are played out,
and at every step the hash takes in the full state text, whose turn it is, the legal
moves (or chance outcomes), the name and log line of the move taken, every seat's
observation and tensor, the public observation, the returns and the rounds. A
refactoring that changes none of the games' behaviour leaves every figure unchanged; a
different figure names the configuration that moved.

    PYTHONPATH=$PWD python scripts/fingerprint.py [--seeds 4]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random

import numpy as np

from tminus.core.playout import sample_chance
from tminus.core.registry import game_class, list_games, load_game

NAMES = [f"P{seat}" for seat in range(8)]


def _feed(digest, value) -> None:
    digest.update(json.dumps(value, sort_keys=True, default=str).encode())


def _feed_state(digest, state, players: int) -> None:
    _feed(digest, str(state))
    _feed(digest, state.current_player())
    _feed(digest, state.legal_actions())
    _feed(digest, state.chance_outcomes())
    _feed(digest, state.public_observation())
    for seat in range(players):
        _feed(digest, state.observation(seat))
        tensor = np.ascontiguousarray(state.observation_tensor(seat), dtype=np.float64)
        digest.update(tensor.tobytes())
    _feed(digest, state.returns())
    _feed(digest, state.rounds_finished())
    if state.rounds_finished():
        _feed(digest, state.round_returns())


def fingerprint(name: str, params: dict, seeds: int) -> str:
    """The hash of ``seeds`` random games of one configuration."""
    game = load_game(name, **params)
    digest = hashlib.sha256()
    for seed in range(seeds):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while True:
            _feed_state(digest, state, game.num_players)
            if state.is_terminal():
                break
            if state.is_chance_node():
                action = sample_chance(state.chance_outcomes(), rng.random())
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            _feed(digest, [action, state.action_to_string(action), state.narrate(action, NAMES)])
            state.apply_action(action)
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4, help="games per configuration")
    args = parser.parse_args()
    total = hashlib.sha256()
    for name in list_games():
        for params in game_class(name).configurations():
            figure = fingerprint(name, params, args.seeds)
            total.update(figure.encode())
            print(f"{name} {json.dumps(params, sort_keys=True)} {figure}", flush=True)
    print(f"total {total.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
