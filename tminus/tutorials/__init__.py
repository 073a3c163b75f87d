"""Learn to play: a short guided game per game, from a set position.

A lesson is a script (``data/<game>.json``, one per game): steps, each saying in a sentence
or two what a rule is, marking on the board where to act, and waiting for one move. Between
steps the script plays what is not the learner's (the dice, the deal, the other players),
and it may jump to a position of its own (the contract's ``with_position``) to reach a
rule quickly. A wrong move is answered with the reason in the rule's words: the engine's
``why_not`` for a move the rules forbid, the step's own words for one that is allowed but
not what this step teaches. The learner then tries again.

The Python API (what the server and the tests use): ``load_lesson(game)``, ``Lesson.steps``,
``Lesson.scene(number)`` (the position a step waits in, with the moves played since the
step before) and ``Lesson.judge(number, action)`` (a try judged).
"""

from tminus.tutorials.lesson import Lesson, Scene, Step, Verdict, lesson_games, load_lesson

__all__ = ["Lesson", "Scene", "Step", "Verdict", "lesson_games", "load_lesson"]
