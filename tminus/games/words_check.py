"""A check of a game's words, run by each game's tests (like the core's conformance checker).

Random games, and at every step: every legal move has a button label of its own; the log
line of the move made names whoever made it, calls nobody "seat N", is one line; and it
says nothing a viewer may not know: it reads the same in every world that viewer cannot
tell apart (``resample_hidden``), and chance outcomes that leave the viewer's observation
alike read alike.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence

import numpy as np

from tminus.core.game import Game, State
from tminus.core.playout import sample_chance

# Names no code should touch: format fields, markup, a server mark, quotes, accents.
ODD_NAMES = ("Ann {0}", "[b]Bo[/b]", "Cy %s", "Dee's", "\x1f4\x1f", "Zoë\\1", "Éa }{", "Q 'q'")
SEAT_NUMBER = re.compile(r"\bseats? \d", re.IGNORECASE)
# Marks that stand for names until the names are put in (as the server does).
MARKS = tuple(f"\x1e{seat}\x1e" for seat in range(8))


class WordsError(AssertionError):
    """A game's words break a rule of the contract (the message says where and how)."""


def check_words(
    game: Game, seeds: Iterable[int], max_steps: int = 300, names: Sequence[str] = ODD_NAMES
) -> int:
    """Play a random game per seed (at most ``max_steps`` actions) checking every step;
    return how many steps were checked."""
    names = list(names[: game.num_players])
    hides = game.information != "perfect"
    steps = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        for step in range(max_steps):
            if state.is_terminal():
                break
            where = f"{game.name} seed {seed} step {step}"
            if state.is_chance_node():
                action = sample_chance(state.chance_outcomes(), rng.random())
                if hides:
                    check_chance_lines_hide_what_observations_hide(state, names, where)
            else:
                legal = state.legal_actions()
                check_labels(state, legal, names, where)
                action = legal[int(rng.integers(len(legal)))]
            check_line(state, action, names, where)
            if hides:
                check_line_hides(state, action, names, rng, where)
            state.apply_action(action)
            steps += 1
    return steps


def check_labels(state: State[Game], legal: list[int], names: Sequence[str], where: str) -> None:
    labels = [state.move_label(a, names) for a in legal]
    for action, label in zip(legal, labels, strict=True):
        plain(label, f"{where}: the label of {state.action_to_string(action)!r}")
    if len(set(labels)) != len(labels):
        twins = sorted({label for label in labels if labels.count(label) > 1})
        raise WordsError(f"{where}: two moves share a label: {twins}")


def check_line(state: State[Game], action: int, names: Sequence[str], where: str) -> None:
    what = f"{where}: the line of {state.action_to_string(action)!r}"
    actor = state.current_player()
    viewers = [None, *range(state.game.num_players)]
    for viewer, reveal in [(None, True), *((v, False) for v in viewers)]:
        line = state.narrate(action, names, viewer, reveal=reveal)
        plain(line, what)
        if actor >= 0 and names[actor] not in line:
            raise WordsError(f"{what} does not name who moved ({names[actor]!r}): {line!r}")
        marked = state.narrate(action, MARKS[: len(names)], viewer, reveal=reveal)
        if put_names(marked, names) != line:
            raise WordsError(f"{what} changes a name: {line!r}, with marks {marked!r}")


def put_names(text: str, names: Sequence[str]) -> str:
    for mark, name in zip(MARKS, names, strict=False):
        text = text.replace(mark, name)
    return text


def plain(text: str, what: str) -> None:
    if not isinstance(text, str) or not text.strip():
        raise WordsError(f"{what} is empty: {text!r}")
    if "\n" in text:
        raise WordsError(f"{what} is more than one line: {text!r}")
    if SEAT_NUMBER.search(text):
        raise WordsError(f"{what} numbers a seat instead of naming it: {text!r}")


def check_line_hides(
    state: State[Game], action: int, names: Sequence[str], rng: np.random.Generator, where: str
) -> None:
    """The line a seat reads is the same in a world where what it cannot see differs."""
    for viewer in range(state.game.num_players):
        other = state.resample_hidden(viewer, rng)
        if not other.is_legal(action):
            continue  # a move the other world does not allow (another hand's discard)
        mine, theirs = state.narrate(action, names, viewer), other.narrate(action, names, viewer)
        if mine != theirs:
            raise WordsError(
                f"{where}: seat {viewer} reads {mine!r} here and {theirs!r} in a world it "
                "cannot tell from this one"
            )


def check_chance_lines_hide_what_observations_hide(
    state: State[Game], names: Sequence[str], where: str
) -> None:
    """Outcomes that leave a viewer's observation the same read the same to it (unless they
    lead to the very same state), a spectator's as well."""
    after = {}
    for action, _ in state.chance_outcomes():
        child = state.clone()
        child.apply_action(action)
        after[action] = child
    for viewer in [None, *range(state.game.num_players)]:
        seen: dict[str, tuple[int, str]] = {}
        for action, child in after.items():
            view = child.public_observation() if viewer is None else child.observation(viewer)
            key = json.dumps(view, sort_keys=True)
            line = state.narrate(action, names, viewer)
            if key not in seen:
                seen[key] = (action, line)
                continue
            other, other_line = seen[key]
            if other_line != line and str(after[other]) != str(child):
                raise WordsError(
                    f"{where}: outcomes {other} and {action} look alike to viewer {viewer} "
                    f"but read {other_line!r} and {line!r}"
                )
