"""Fair randomness: chance outcomes drawn from a secret seed committed to in advance.

At creation the server draws a 32-byte seed and publishes ``commitment(seed)``, its SHA-256.
Chance outcome number ``index`` of the standing actions (the index counts every action that
stands, players' and chance's: a move taken back and its take-back do not count, see
``tminus.server.takeback``) is drawn from a uniform number u in [0, 1) made of the seed and
the index, falling on the outcomes in order (``sample_chance``). How u is made is the game's
draw rule, stored with the game and named in its export: rule 2 (games made now) hashes the
seed and the index with SHA-256, which any language can check and which costs a few
microseconds; rule 1 (older games) seeded NumPy's generator with them. When the game ends the
seed is revealed, and anyone can replay the log and check every chance outcome:
``verify_export``.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from tminus.core.game import Game, IllegalActionError
from tminus.core.playout import sample_chance
from tminus.core.registry import load_game
from tminus.server.takeback import without_last

SEED_BYTES = 32
EXPORT_FORMAT = "tminus-game-export"
EXPORT_VERSION = 2  # 2: an action may be a take-back ("take_back": true) of the last move
DRAW_RULES = {
    1: "seed: 32 bytes (hex); commitment: SHA-256 of those bytes (hex); the chance outcome with "
    "i standing actions before it (a move taken back and its take-back do not count): "
    "u = numpy.random.default_rng([int.from_bytes(seed, 'big'), i]).random(), "
    "the first outcome (sorted by action) whose cumulative probability exceeds u",
    2: "seed: 32 bytes (hex); commitment: SHA-256 of those bytes (hex); the chance outcome with "
    "i standing actions before it (a move taken back and its take-back do not count): "
    "x = the first 8 bytes, big-endian, of SHA-256(seed ‖ i as 8 bytes big-endian), "
    "u = (x >> 11) / 2**53, the first outcome (sorted by action) whose cumulative "
    "probability exceeds u",
}
DRAW_RULE = 2  # the rule of games made now


def new_seed() -> str:
    """A fresh secret seed, as hex."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed_hex: str) -> str:
    """The SHA-256 (hex) of the seed's bytes: published at creation, checked at the end."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def draw_chance(
    seed_hex: str, index: int, outcomes: list[tuple[int, float]], rule: int = DRAW_RULE
) -> int:
    """The chance outcome at log position ``index``: a pure function of seed and index."""
    return sample_chance(outcomes, uniform(seed_hex, index, rule))


def uniform(seed_hex: str, index: int, rule: int) -> float:
    """The number in [0, 1) that draw rule ``rule`` makes of the seed and a log index."""
    if rule == 2:
        digest = hashlib.sha256(bytes.fromhex(seed_hex) + index.to_bytes(8, "big")).digest()
        return (int.from_bytes(digest[:8], "big") >> 11) / 2**53
    if rule == 1:
        import numpy as np  # (only games made before rule 2 need it)

        return float(np.random.default_rng([int(seed_hex, 16), index]).random())
    raise ValueError(f"unknown draw rule {rule!r}; this T-minus knows {sorted(DRAW_RULES)}")


@dataclass
class Verification:
    ok: bool
    chance_checked: int = 0
    moves_checked: int = 0
    taken_back: int = 0  # moves taken back (by agreement) on the way
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # worth knowing, not a failure


def verify_export(export: dict[str, Any]) -> Verification:
    """Recompute the commitment and every chance outcome of an exported game."""
    result = Verification(ok=False)
    seed = revealed_seed(export, result)
    game = game_of(export, result) if seed is not None else None
    if seed is None or game is None:
        return result
    rule = export.get("draw_version", 1)  # (exports before rule 2 did not say: rule 1)
    if rule not in DRAW_RULES:
        result.problems.append(
            f"unknown draw rule {rule!r}; this T-minus knows {sorted(DRAW_RULES)}"
        )
        return result
    replay_actions(game, export.get("actions", []), seed, rule, result)
    if result.taken_back:
        result.notes.append(
            f"{result.taken_back} move(s) taken back by agreement; each chance outcome was "
            "checked at its place among the actions that stand"
        )
    result.ok = not result.problems
    return result


def revealed_seed(export: Any, result: Verification) -> str | None:
    """The export's seed, once it is shown to match the commitment (a problem noted
    otherwise; None where nothing more can be checked)."""
    if not isinstance(export, dict) or export.get("format") != EXPORT_FORMAT:
        result.problems.append(f"not a T-minus game export (format {EXPORT_FORMAT!r})")
        return None
    seed = export.get("seed")
    if not isinstance(seed, str):
        result.problems.append("the seed is not revealed yet: the game is not over")
        return None
    try:
        if commitment(seed) != export.get("commitment"):
            result.problems.append("the seed does not match the commitment published at creation")
    except ValueError:
        result.problems.append("the seed is not hexadecimal")
        return None
    return seed


def game_of(export: dict[str, Any], result: Verification) -> Game | None:
    """The exported game under the rules installed here (noted if it was played under
    others)."""
    try:
        game = load_game(export["game"], **export["params"])
    except (KeyError, TypeError, ValueError) as error:
        result.problems.append(f"cannot load the game: {error}")
        return None
    played = export.get("rules_version", game.rules_version)
    if played != game.rules_version:
        result.notes.append(
            f"played under rules version {played}; checked under version {game.rules_version}, "
            "the rules installed here"
        )
    return game


def replay_actions(
    game: Game, entries: list[Any], seed: str, rule: int, result: Verification
) -> None:
    """Replay the exported actions; each chance outcome must be the seed's, at its place
    among the actions that stand (take-backs undo the last decision)."""
    state = game.new_initial_state()
    actors: list[int] = []  # who made each standing action (-1: chance)
    for index, entry in enumerate(entries):
        # (Anything the export says: apply_action refuses what is not an integer.)
        action: Any = entry.get("action") if isinstance(entry, dict) else None
        if state.is_terminal():
            result.problems.append(f"action {index}: the game was already over")
            return
        if isinstance(entry, dict) and entry.get("take_back"):
            problem = take_back_problem(entry.get("actor"), actors)
            if problem:
                result.problems.append(f"action {index}: {problem}")
                return
            state = without_last(game, state)
            actors.pop()
            result.taken_back += 1
            continue
        actors.append(state.current_player())
        if state.is_chance_node():
            expected = draw_chance(seed, len(actors) - 1, state.chance_outcomes(), rule)
            if action != expected:
                result.problems.append(
                    f"action {index}: chance gave {action!r} but the seed gives {expected} "
                    f"({state.action_to_string(expected)})"
                )
                return
            result.chance_checked += 1
        else:
            result.moves_checked += 1
        try:
            state.apply_action(action)
        except IllegalActionError as error:
            result.problems.append(f"action {index}: {error}")
            return


def take_back_problem(actor: Any, actors: list[int]) -> str | None:
    """Why a take-back by ``actor`` cannot follow the standing actions made by ``actors``:
    only a player's own last decision is taken back, never a chance outcome."""
    if not actors:
        return "a take-back with nothing to take back"
    if actors[-1] < 0:
        return "a take-back of a chance outcome (only a player's own move is taken back)"
    if actor != actors[-1]:
        return f"a take-back by seat {actor!r} of seat {actors[-1]}'s move"
    return None
