"""Save a state as JSON (game, parameters, rules version, history) and rebuild it by replay.

A save names the version of the rules it was played under (``Game.rules_version``). A save
from other rules is still loaded if its history replays under the rules installed now;
if it does not, the error says which versions differ.
"""

from __future__ import annotations

import json
from typing import Any

from tminus.core.game import Game, State
from tminus.core.registry import load_game

FORMAT = "tminus-state"
VERSION = 1


def state_to_dict(state: State[Game]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": state.game.name,
        "params": dict(state.game.params),
        "rules_version": state.game.rules_version,
        "history": state.history(),
    }


def state_from_dict(data: dict[str, Any]) -> State[Game]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a saved T-minus state (expected format {FORMAT!r})")
    if data.get("version") != VERSION:
        raise ValueError(f"unsupported saved-state version {data.get('version')!r}")
    for key, kind in (("game", str), ("params", dict), ("history", list)):
        if not isinstance(data.get(key), kind):
            raise ValueError(f"saved state: {key!r} must be a {kind.__name__}")
    game = load_game(data["game"], **data["params"])
    saved = data.get("rules_version", game.rules_version)
    state = game.new_initial_state()
    for index, action in enumerate(data["history"]):
        if isinstance(action, bool) or not isinstance(action, int):
            raise ValueError(f"saved state: history[{index}] is not an integer: {action!r}")
        try:
            state.apply_action(action)
        except ValueError as error:
            if saved == game.rules_version:
                raise
            raise ValueError(
                f"saved under rules version {saved} of {data['game']}, which are now version "
                f"{game.rules_version}: history[{index}] no longer replays ({error})"
            ) from None
    return state


def save_state(state: State[Game]) -> str:
    return json.dumps(state_to_dict(state))


def load_state(text: str) -> State[Game]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"saved state is not valid JSON: {error}") from None
    return state_from_dict(data)
