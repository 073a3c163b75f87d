"""Every shipped lesson (issue 38) replays under the rules installed, teaches every rule it
promises, waits for a move the learner may make at every step, and judges a try as the
rules do: right, a move the rules forbid with the engine's reason, a move allowed but not
the step's with the step's own words. A broken script is refused, naming its step."""

from __future__ import annotations

import copy
import json

import pytest

from tminus.tutorials import Lesson, lesson_games, load_lesson
from tminus.tutorials.lesson import lesson_path

# What a first game of each needs (issue 38), as the lessons tag their steps.
NEEDED = {
    "four_way": {"the dice make a key", "eleven: the attack", "double six: the reset"},
    "sputnik": {"move, then remove", "the launch pad's rescue"},
    "three_two_one": {"discarding", "the piles", "declaring"},
    "count_down": {"the ball and the track", "buying", "the control card",
                   "a meeting and a forced sale", "an agent mission", "the countdown"},
}  # fmt: skip


def test_every_game_has_a_lesson():
    assert set(lesson_games()) == set(NEEDED)


@pytest.mark.parametrize("game", sorted(NEEDED))
def test_a_lesson_teaches_what_a_first_game_needs(game):
    lesson = load_lesson(game)
    taught = {step.rule for step in lesson.steps}
    assert NEEDED[game] <= set(lesson.rules) <= taught


@pytest.mark.parametrize("game", sorted(NEEDED))
def test_every_step_waits_for_a_move_the_learner_may_make(game):
    lesson = load_lesson(game)
    for step, scene in zip(lesson.steps, lesson.scenes, strict=True):
        state = scene.state
        assert state.current_player() == lesson.seat and not state.is_terminal()
        assert state.is_legal(scene.answer)
        assert state.action_to_string(scene.answer) == step.do
        assert step.say and step.instead


@pytest.mark.parametrize("game", sorted(NEEDED))
def test_a_try_is_judged_as_the_rules_judge_it(game):
    lesson = load_lesson(game)
    forbidden_seen = allowed_seen = 0
    for number, scene in enumerate(lesson.scenes, 1):
        state = scene.state
        assert lesson.judge(number, scene.answer).correct
        for action in range(lesson.game.num_distinct_actions):
            if action == scene.answer:
                continue
            verdict = lesson.judge(number, action)
            assert not verdict.correct
            if state.is_legal(action):
                assert verdict.reason == lesson.steps[number - 1].instead
                allowed_seen += 1
            else:
                assert verdict.reason == state.why_not(action, lesson.names)
                forbidden_seen += 1
    assert forbidden_seen > 0  # (there is always a forbidden move to ask about)


@pytest.mark.parametrize("game", ["four_way", "sputnik"])
def test_the_lesson_ends_with_the_learner_winning(game):
    lesson = load_lesson(game)
    end = lesson.scenes[-1].state.clone()
    end.apply_action(lesson.scenes[-1].answer)
    assert end.is_terminal() and end.winners() == [lesson.seat]


def test_three_two_one_ends_with_countdown_winning_the_round():
    lesson = load_lesson("three_two_one")
    end = lesson.scenes[-1].state.clone()
    end.apply_action(lesson.scenes[-1].answer)  # Countdown!, strictly lowest: 3 + 1
    assert end.position_dict()["scores"] == [4, 2] and end.position_dict()["wins"] == [1, 0]


def script_of(game: str) -> dict:
    return json.loads(lesson_path(game).read_text(encoding="utf-8"))


def test_a_script_that_does_not_replay_is_refused_naming_its_step():
    script = script_of("four_way")
    broken = copy.deepcopy(script)
    broken["steps"][1]["do"] = "flip 9"  # the dice 2 and 6 do not make 9
    with pytest.raises(ValueError, match="step 2: 'flip 9' is not possible here"):
        Lesson(broken)
    broken = copy.deepcopy(script)
    broken["steps"][0]["auto"] = ["die 2", "die 5", "dice 3,4"]  # Bea starts: not the learner
    with pytest.raises(ValueError, match="step 1: the learner"):
        Lesson(broken)
    broken = copy.deepcopy(script)
    broken["names"] = ["You"]
    with pytest.raises(ValueError, match="1 names for 2 players"):
        Lesson(broken)
    broken = copy.deepcopy(script)
    del broken["steps"][0]["say"]
    with pytest.raises(ValueError, match="not a lesson"):
        Lesson(broken)
    with pytest.raises(ValueError, match="no lesson for 'chess'"):
        load_lesson("chess")
    with pytest.raises(ValueError, match="steps 1 to 5, not 6"):
        Lesson(script).scene(6)
