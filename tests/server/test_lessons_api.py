"""Learn to play over HTTP (issue 38): the lessons listed, a step's position as the table
draws it with the script's moves logged, a try judged (right; a move the rules forbid, with
the engine's reason; an allowed move that is not the step's, with the step's words); bad
input refused."""

from __future__ import annotations

import pytest

from tminus.tutorials import lesson_games, load_lesson

from .test_accounts import PASSWORD, app_client, call, second_device, sign_up


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with app_client(tmp_path_factory.mktemp("lessons") / "games.db") as client:
        yield client


def test_every_game_has_a_lesson_and_the_list_says_how_long(client):
    listed = {line["game"]: line for line in client.get("/api/lessons").json()}
    assert set(listed) == set(lesson_games()) == {"count_down", "four_way", "sputnik",
                                                    "three_two_one"}  # fmt: skip
    assert all(line["steps"] == len(load_lesson(g).steps) for g, line in listed.items())


def test_a_step_shows_its_position_for_the_learner_with_the_scripts_moves_logged(client):
    step = client.get("/api/lessons/four_way/2").json()
    lesson = load_lesson("four_way")
    assert step["say"] == lesson.steps[1].say and step["answer"] == lesson.scenes[1].answer
    state = step["state"]
    assert state["seat"] == state["to_move"] == lesson.seat
    assert step["answer"] in {m["action"] for m in state["legal"]}
    # The log tells what happened since the learner's last move: Bea's roll and key, the roll.
    assert [line["text"] for line in state["log"]][:2] == ["Bea rolls 2 and 4",
                                                           "Bea flips 6 (2 + 4)"]  # fmt: skip
    assert {m["label"] for m in step["moves"]} >= {m["label"] for m in state["legal"]}


def test_a_try_is_right_or_told_why_not(client):
    lesson = load_lesson("four_way")
    scene = lesson.scenes[1]  # dice 2 and 6, key 7 up
    right = client.post("/api/lessons/four_way/2/try", json={"action": scene.answer}).json()
    assert right == {"correct": True, "reason": "", "said": lesson.steps[1].then, "next": 3}
    seven = 6  # "flip 7": the dice 2 and 6 do not make 7, so the rules forbid it
    assert scene.state.action_to_string(seven) == "flip 7" and not scene.state.is_legal(seven)
    told = client.post("/api/lessons/four_way/2/try", json={"action": seven}).json()
    assert told["correct"] is False and told["reason"] == scene.state.why_not(seven, lesson.names)
    assert told["reason"].startswith("The dice show 2 and 6") and "not key 7" in told["reason"]
    other = next(a for a in scene.state.legal_actions() if a != scene.answer)  # allowed
    told = client.post("/api/lessons/four_way/2/try", json={"action": other}).json()
    assert told == {"correct": False, "reason": lesson.steps[1].instead, "said": None,
                    "next": 3}  # fmt: skip
    last = len(lesson.steps)
    done = client.post(f"/api/lessons/four_way/{last}/try",
                       json={"action": lesson.scenes[-1].answer}).json()  # fmt: skip
    assert done["correct"] is True and done["next"] is None


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [("/api/lessons/chess/1", None, 404, "no lesson for 'chess'"),
     ("/api/lessons/four_way/99", None, 404, "steps 1 to 5"),
     ("/api/lessons/four_way/0", None, 400, ""),
     ("/api/lessons/four_way/1/try", {"action": "flip"}, 400, "action"),
     ("/api/lessons/four_way/1/try", {"action": 10_000}, 400, "numbered 0 to"),
     ("/api/lessons/four_way/1/try", {"action": 1, "extra": 1}, 400, "extra")],
)  # fmt: skip
def test_bad_requests_are_refused_clearly(client, path, body, status, words):
    answer = client.get(path) if body is None else client.post(path, json=body)
    assert answer.status_code == status
    assert words in answer.text


def test_a_signed_in_persons_finished_lessons_follow_the_account(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        assert client.get("/api/account/lessons").status_code == 401
        csrf = sign_up(client)
        headers = {"X-CSRF-Token": csrf}
        forged = client.post("/api/account/lessons", json={"game": "sputnik"})
        assert forged.status_code == 403  # (no CSRF token: nothing kept)
        unknown = client.post("/api/account/lessons", json={"game": "chess"}, headers=headers)
        assert unknown.status_code == 404 and "no lesson for 'chess'" in unknown.text
        assert client.get("/api/account/lessons").json() == {"finished": []}
        store = client.app.state.store
        account_id = call(client, store.account_named, "ada").id
        for game in ("sputnik", "four_way", "sputnik"):  # (again: kept once)
            kept = client.post("/api/account/lessons", json={"game": game}, headers=headers)
        assert kept.json() == {"finished": ["sputnik", "four_way"]}
        other = second_device(client)
        other.post("/api/session", json={"name": "Ada", "password": PASSWORD})
        assert other.get("/api/account/lessons").json() == {"finished": ["sputnik", "four_way"]}
        exported = client.get("/api/account/export").json()
        assert exported["lessons_finished"] == ["sputnik", "four_way"]
        assert exported["puzzle_tries"] == []
        gone = client.request(
            "DELETE", "/api/account", json={"password": PASSWORD}, headers=headers
        )
        assert gone.status_code == 204
        assert client.get("/api/account/lessons").status_code == 401
        assert call(client, store.lessons_of, account_id) == []  # (its rows went with it)


@pytest.mark.parametrize("game", sorted(lesson_games()))
def test_every_move_a_step_can_name_has_a_name_of_its_own(client, game):
    # (What "Why can't I…?" lists: Count Down once named every move of another decision as
    # the one at hand: "Back to Surprise" thirty times over on a roll of 10.)
    for number in range(1, len(load_lesson(game).steps) + 1):
        moves = client.get(f"/api/lessons/{game}/{number}").json()["moves"]
        labels = [m["label"] for m in moves]
        assert len(set(labels)) == len(labels), (number, labels)
