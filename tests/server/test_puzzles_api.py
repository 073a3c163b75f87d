"""Puzzles over HTTP (issue 38): the shipped sets listed, a puzzle's position as the table
draws it, a try answered with the exact values, the puzzle's rating moved by each try (and
the solver's), a signed-in person's progress; bad input refused with nothing changed."""

from __future__ import annotations

import pytest

from tminus.puzzles import load_set

from .test_accounts import PASSWORD, app_client


@pytest.fixture
def client(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        yield client


def test_a_games_puzzles_are_listed_easiest_first(client):
    listed = client.get("/api/puzzles", params={"game": "four_way"}).json()
    assert len(listed) == len(load_set("four_way")) >= 200
    ratings = [p["rating"] for p in listed]
    assert ratings == sorted(ratings) and all("answer" not in p for p in listed)
    refused = client.get("/api/puzzles", params={"game": "chess"})
    assert refused.status_code == 400 and "games with puzzles" in refused.json()["message"]


def test_a_puzzle_shows_its_position_for_its_seat_and_not_its_answer(client):
    puzzle = load_set("sputnik")[0]
    shown = client.get(f"/api/puzzles/{puzzle.id}").json()
    assert shown["prompt"] == puzzle.prompt and "answer" not in shown
    state = shown["state"]
    assert state["seat"] == puzzle.seat == state["to_move"]
    assert {m["action"] for m in state["legal"]} == set(puzzle.values)
    assert client.get("/api/puzzles/nope").status_code == 404


def test_a_try_is_answered_with_every_value_and_moves_both_ratings(client):
    puzzle = load_set("four_way")[0]
    wrong = next(a for a in puzzle.values if a != puzzle.answer)
    missed = client.post(f"/api/puzzles/{puzzle.id}/try", json={"action": wrong}).json()
    assert missed["correct"] is False and missed["answer"] == puzzle.answer
    assert missed["values"][0]["action"] == puzzle.answer  # best first
    assert {v["action"]: v["value"] for v in missed["values"]} == dict(puzzle.values)
    assert missed["rating"] > puzzle.rating and missed["your_rating"] < 1500
    solved = client.post(
        f"/api/puzzles/{puzzle.id}/try", json={"action": puzzle.answer, "rating": 1400}
    ).json()
    assert solved["correct"] is True and solved["rating"] < missed["rating"]
    assert solved["your_rating"] > 1400
    [line] = [p for p in client.get("/api/puzzles", params={"game": "four_way"}).json()
              if p["id"] == puzzle.id]  # fmt: skip
    assert (line["tries"], line["solved"], line["rating"]) == (2, 1, solved["rating"])


@pytest.mark.parametrize(
    ("body", "words"),
    [({"action": 9999}, "is not a move of this position"), ({"action": "flip"}, "malformed"),
     ({"action": 0, "rating": 10**6}, "a solver's rating")],
)  # fmt: skip
def test_a_bad_try_is_refused_and_moves_nothing(client, body, words):
    puzzle = load_set("four_way")[1]
    if body.get("action") == 0 and 0 not in puzzle.values:
        body = {**body, "action": puzzle.answer}
    refused = client.post(f"/api/puzzles/{puzzle.id}/try", json=body)
    assert refused.status_code == 400 and words in refused.json()["message"]
    [line] = [p for p in client.get("/api/puzzles", params={"game": "four_way"}).json()
              if p["id"] == puzzle.id]  # fmt: skip
    assert line["tries"] == 0


def test_a_signed_in_persons_first_tries_are_their_progress(client):
    assert client.get("/api/account/puzzles").status_code == 401
    client.post("/api/account", json={"name": "Ada", "password": PASSWORD})
    first, second = load_set("sputnik")[:2]
    wrong = next(a for a in first.values if a != first.answer)
    client.post(f"/api/puzzles/{first.id}/try", json={"action": wrong})
    client.post(f"/api/puzzles/{first.id}/try", json={"action": first.answer})  # (not first)
    client.post(f"/api/puzzles/{second.id}/try", json={"action": second.answer})
    progress = client.get("/api/account/puzzles").json()
    assert progress["tries"] == [
        {"puzzle": first.id, "solved": False}, {"puzzle": second.id, "solved": True}
    ]  # fmt: skip
    assert (progress["solved"], progress["streak"]) == (1, 1)


def test_a_sputnik_try_lists_the_fastest_win_first(client):
    # (A slower win is a larger number: a puzzle where another move wins too, later.)
    puzzle = next(
        p for p in load_set("sputnik") if any(v > p.values[p.answer] for v in p.values.values())
    )
    tried = client.post(f"/api/puzzles/{puzzle.id}/try", json={"action": puzzle.answer}).json()
    assert tried["values"][0]["action"] == puzzle.answer and tried["values"][0]["said"]
