"""Learn to play at the server (``tminus.tutorials`` holds the lessons): a lesson's steps,
each with its position as the learner's seat sees it (the table's own view, so any board
draws it, with the script's moves since the step before in its log), and a try judged.

A lesson is the same for everyone: nothing of it is stored. Which lessons a person finished
is kept by their browser, and by their account when they are signed in
(``/api/account/lessons``).
"""

from __future__ import annotations

import logging
from typing import Any

from tminus.server.catalog import printed_board
from tminus.server.pipeline import apply
from tminus.server.storage import PERSON, PLAYING, Seat, StoredGame, now
from tminus.server.tables import Draft, GameError, Table, move_labels
from tminus.server.views import view
from tminus.tutorials import Lesson, Scene, lesson_games, load_lesson

log = logging.getLogger(__name__)


def lesson_of(game: str) -> Lesson:
    """The lesson of ``game`` (404 for a game without one). A shipped script that does not
    replay is the server's fault, not the asker's: it raises as it is (a 500, logged)."""
    if game not in lesson_games():
        raise GameError("not_found", f"no lesson for {game[:64]!r}; lessons: "
                        f"{', '.join(lesson_games())}")  # fmt: skip
    return load_lesson(game)


def scene_of(lesson: Lesson, number: int) -> Scene:
    """Step ``number``'s scene (404 outside the lesson, in the lesson's words)."""
    try:
        return lesson.scene(number)
    except ValueError as error:
        raise GameError("not_found", str(error)) from None


def listing() -> list[dict[str, Any]]:
    """Every lesson: its game, title, first words and length (a script that does not
    replay is left out, and logged: the others are still offered)."""
    lessons = []
    for game in lesson_games():  # (listed shortest first: the simplest games come first)
        try:
            lessons.append(about(load_lesson(game)))
        except ValueError:
            log.exception("the lesson of %s does not replay: left out", game)
    return sorted(lessons, key=lambda lesson: (lesson["steps"], lesson["game"]))


def about(lesson: Lesson) -> dict[str, Any]:
    return {"game": lesson.game_name, "title": lesson.title, "intro": lesson.intro,
            "end": lesson.end, "steps": len(lesson.steps), "rules": lesson.rules}  # fmt: skip


def show(game: str, number: int) -> dict[str, Any]:
    """Step ``number``: what it teaches, where to act, its position for the learner's seat
    and every move that position can name (for "Why can't I…?")."""
    lesson = lesson_of(game)
    scene, step = scene_of(lesson, number), lesson.steps[number - 1]
    table = scene_table(lesson, number, scene)
    return {
        **about(lesson), "number": number, "rule": step.rule, "say": step.say,
        "mark": step.mark, "answer": scene.answer,
        "state": view(table, lesson.seat), "moves": move_labels(table),
        "layout": printed_board(lesson.game),
    }  # fmt: skip


def judge(game: str, number: int, action: Any) -> dict[str, Any]:
    """A try: right (with the step's closing words), or the reason it is not."""
    lesson = lesson_of(game)
    scene_of(lesson, number)
    if isinstance(action, bool) or not isinstance(action, int):
        raise GameError("bad_request", f"action must be an integer, not {action!r}")
    if not 0 <= action < lesson.game.num_distinct_actions:
        raise GameError("bad_request", f"{lesson.title}'s moves are numbered 0 to "
                        f"{lesson.game.num_distinct_actions - 1}, not {action}")  # fmt: skip
    verdict = lesson.judge(number, action)
    return {"correct": verdict.correct, "reason": verdict.reason, "said": verdict.said,
            "next": number + 1 if number < len(lesson.steps) else None}  # fmt: skip


def scene_table(lesson: Lesson, number: int, scene: Scene) -> Table:
    """The step's position as a table: its start, then the script's moves, logged (so the
    table's log tells what the others did since the learner's last move)."""
    record = StoredGame(
        id=f"lesson-{lesson.game_name}-{number}", game=lesson.game_name,
        params=dict(lesson.game.params), rules_version=lesson.game.rules_version,
        commitment="", seed="", status=PLAYING,
        seats=[Seat(s, PERSON, None, None, name, True) for s, name in enumerate(lesson.names)],
        actions=[], result=None, created=now(), notes=[], estimates=[],
    )  # fmt: skip
    table = Table(record=record, game=lesson.game, state=scene.start.clone())
    draft = Draft(table.state, 0, PLAYING)
    for action in scene.autos:
        apply(table, draft, action)
    table.state, table.log = draft.state, draft.entries
    return table
