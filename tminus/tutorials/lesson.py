"""A lesson read from its script, replayed step by step, and a learner's try judged.

A script (``data/<game>.json``)::

    {"game": "four_way", "params": {"players": 2}, "seat": 0,
     "names": ["You", "Bea"], "title": "…", "intro": "…", "end": "…",
     "rules": ["dice make a key", …],            # what the lesson must teach (tested)
     "steps": [{"set_up": {…},                    # optional: jump to this position
                "auto": ["die 5", "die 2", …],    # played before the step: not the learner's
                "rule": "dice make a key",        # the rule this step teaches
                "say": "…",                       # the rule in a sentence or two
                "mark": "[data-key='7']",         # optional: where on the board to act
                "do": "flip 7",                   # the move the step waits for
                "instead": "…",                   # why another allowed move is not it
                "then": "…"}]}                    # optional: said once it is made

Moves and chance outcomes are named as the engine writes them (``action_to_string``), so a
script reads like a game record. A ``set_up`` changes only the fields it names, from the
position reached so far (``State.with_position``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from tminus.core.game import Game, State
from tminus.core.registry import load_game


@dataclass(frozen=True)
class Step:
    rule: str
    say: str
    do: str
    instead: str
    auto: tuple[str, ...] = ()
    set_up: Mapping[str, Any] | None = None
    mark: str | None = None
    then: str | None = None


@dataclass(frozen=True)
class Scene:
    """Where a step starts (``start``: after the step before, and its ``set_up``), the moves
    the script plays from there (``autos``) and the position the learner moves in."""

    start: State[Game]
    autos: tuple[int, ...]
    state: State[Game]
    answer: int


@dataclass(frozen=True)
class Verdict:
    correct: bool
    reason: str  # the rule that forbids the move, or why this step asks for another one
    said: str | None = None  # the step's closing words, when right


class Lesson:
    """One game's guided first game (see the module's docstring for the script)."""

    def __init__(self, script: Mapping[str, Any]) -> None:
        try:
            self.game_name = str(script["game"])
            self.params = dict(script.get("params", {}))
            self.seat = int(script.get("seat", 0))
            self.names = [str(n) for n in script["names"]]
            self.title, self.intro, self.end = script["title"], script["intro"], script["end"]
            self.rules = [str(r) for r in script["rules"]]
            self.steps = [step_of(s) for s in script["steps"]]
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a lesson: {error!r}") from None
        self.game = load_game(self.game_name, **self.params)
        if len(self.names) != self.game.num_players:
            raise ValueError(f"{self.game_name}: {len(self.names)} names for "
                             f"{self.game.num_players} players")  # fmt: skip
        self.scenes = self.replay()

    def replay(self) -> list[Scene]:
        """Every step's scene, in order; ValueError naming the first step that does not
        replay (a move not possible, the learner not to move, its move not allowed)."""
        state = self.game.new_initial_state()
        scenes = []
        for number, step in enumerate(self.steps, 1):
            try:
                if step.set_up is not None:
                    state = state.with_position(step.set_up)
                start = state.clone()
                autos = tuple(play(state, label) for label in step.auto)
                if state.is_terminal() or state.current_player() != self.seat:
                    raise ValueError(f"the learner (seat {self.seat}) is not to move")
                position = state.clone()
                answer = play(state, step.do)
            except ValueError as error:
                raise ValueError(f"{self.game_name} lesson, step {number}: {error}") from None
            scenes.append(Scene(start, autos, position, answer))
        return scenes

    def scene(self, number: int) -> Scene:
        """Step ``number``'s scene (steps count from 1); ValueError outside the lesson."""
        if not 1 <= number <= len(self.steps):
            raise ValueError(f"the lesson has steps 1 to {len(self.steps)}, not {number}")
        return self.scenes[number - 1]

    def judge(self, number: int, action: int) -> Verdict:
        """A try at step ``number``: right, or the reason it is not (the rule that forbids
        it, or the step's words for a move allowed but not this step's)."""
        scene, step = self.scene(number), self.steps[number - 1]
        if action == scene.answer:
            return Verdict(True, "", step.then)
        reason = scene.state.why_not(action, self.names)
        return Verdict(False, reason if reason is not None else step.instead)


def play(state: State[Game], label: str) -> int:
    """Apply the move or chance outcome the engine names ``label``; its action."""
    options = (
        [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    )
    for action in options:
        if state.action_to_string(action) == label:
            state.apply_action(action)
            return action
    named = ", ".join(state.action_to_string(a) for a in options[:40])
    raise ValueError(f"{label!r} is not possible here; possible: {named}")


def step_of(data: Mapping[str, Any]) -> Step:
    return Step(
        rule=str(data["rule"]),
        say=str(data["say"]),
        do=str(data["do"]),
        instead=str(data["instead"]),
        auto=tuple(str(a) for a in data.get("auto", ())),
        set_up=data.get("set_up"),
        mark=data.get("mark"),
        then=data.get("then"),
    )


def lesson_games() -> list[str]:
    """The games with a lesson."""
    folder = resources.files("tminus.tutorials").joinpath("data")
    return sorted(p.name[: -len(".json")] for p in folder.iterdir() if p.name.endswith(".json"))


def lesson_path(game: str) -> Traversable:
    """Where the shipped lesson of ``game`` is (it may not exist: see ``lesson_games``)."""
    return resources.files("tminus.tutorials").joinpath("data", f"{game}.json")


@cache
def load_lesson(game: str) -> Lesson:
    """The shipped lesson of ``game``; ValueError naming the games that have one."""
    if game not in lesson_games():
        raise ValueError(f"no lesson for {game!r}; lessons: {', '.join(lesson_games())}")
    return Lesson(json.loads(lesson_path(game).read_text(encoding="utf-8")))


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m tminus.tutorials.lesson SCRIPT``: replay a script being written, printing
    each step's position and its moves (or the first step that does not replay)."""
    import sys

    path = (argv if argv is not None else sys.argv[1:])[0]
    with open(path, encoding="utf-8") as file:
        script = json.load(file)
    try:
        lesson = Lesson(script)
    except ValueError as error:
        print(error)
        raise SystemExit(1) from None
    for number, (step, scene) in enumerate(zip(lesson.steps, lesson.scenes, strict=True), 1):
        moves = [scene.state.action_to_string(a) for a in scene.state.legal_actions()]
        print(f"-- step {number} ({step.rule}): do {step.do!r}; allowed: {', '.join(moves)}")
        print(scene.state)


if __name__ == "__main__":
    main()
