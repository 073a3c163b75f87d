"""A finished game's review from the server: made in a process of its own, then kept; the
same review as `tminus review` makes; refused during play, for unknown games and when too
many are asked for at once."""

from __future__ import annotations

import asyncio
import queue
import time

from tminus.agents.registry import make_agent
from tminus.core.registry import load_game
from tminus.review import Review, review_game
from tminus.review.report import html_report
from tminus.server.html import message_page
from tminus.server.reviews import Reviews
from tminus.sim.runner import play_game

from .test_api import PERSON, app_client, create, play_to_the_end

BOT = {"kind": "bot", "bot": "random"}


def recorded_history(game) -> list[int]:
    """The first 40 actions of a greedy game (a review test, not a benchmark)."""
    agents = [make_agent("greedy", game, seed=s) for s in range(game.num_players)]
    return play_game(game, agents, [4]).history[:40]


def finished_duel(client) -> dict:
    game = create(client, [{"kind": "person", "name": "<b>Ada</b>"}, BOT], players=2)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        play_to_the_end(ws, game)
    return game


async def finished(job) -> None:
    await asyncio.wait([job], timeout=120)


def wait_for_the_review(client, game_id: str) -> None:
    """Until the review being made for ``game_id`` is done (its job, on the app's loop)."""
    job = client.app.state.reviews.working.get(game_id)
    if job is not None:
        client.portal.call(finished, job)


def review_when_ready(client, game_id: str) -> dict:
    answer = client.get(f"/api/games/{game_id}/review")
    if answer.status_code == 202:  # being made: asked again once it is
        working = answer.json()
        assert working["status"] == "working" and answer.headers["Retry-After"] == "2"
        waiting = {"status", "waiting", "moves"}
        judging = {"status", "judged", "decisions", "seconds_left", "moves"}
        assert set(working) in (waiting, judging)
        wait_for_the_review(client, game_id)
        answer = client.get(f"/api/games/{game_id}/review")
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_finished_game_is_reviewed_as_the_review_command_does(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        game = finished_duel(client)
        review = review_when_ready(client, game["id"])
        table = client.portal.call(client.app.state.service.get, game["id"])
        names = [seat.name for seat in table.record.seats]
        expected = review_game(load_game("four_way", players=2), table.state.history(), names)
        assert review["status"] == "ready"
        assert review["moves"] == expected.to_dict()["moves"]  # exact: the solved duel
        assert review["moves"] and all(move["exact"] for move in review["moves"])
        assert review["names"] == ["<b>Ada</b>", "Random (easy)"]
        assert "After the end" in review["knowledge"]
        # Moves are named in words, with the players' names.
        assert all(move["played_text"][0].isupper() for move in review["moves"])
        # Kept: asked again, it is there at once, and the page shows it (names escaped).
        assert client.get(f"/api/games/{game['id']}/review").json() == review
        page = client.get(f"/game/{game['id']}/review")
        assert page.status_code == 200 and "<svg" in page.text
        assert "&lt;b&gt;Ada&lt;/b&gt;" in page.text and "<b>Ada</b>" not in page.text
        assert f'href="/game/{game["id"]}"' in page.text  # back to the game


def test_a_review_page_asks_again_by_itself_while_it_is_made(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        game = finished_duel(client)
        page = client.get(f"/game/{game['id']}/review")
        assert page.status_code == 200
        assert 'http-equiv="refresh"' in page.text and "being reviewed" in page.text
        review_when_ready(client, game["id"])
        assert 'http-equiv="refresh"' not in client.get(f"/game/{game['id']}/review").text


def test_no_review_during_play_for_unknown_games_or_past_the_limit(tmp_path):
    with app_client(tmp_path / "games.db", reviews_at_once=0) as client:
        playing = create(client, [PERSON, PERSON], players=2)
        answer = client.get(f"/api/games/{playing['id']}/review")
        assert answer.status_code == 409 and answer.json()["code"] == "bad_state"
        assert "once it is over" in answer.json()["message"]
        page = client.get(f"/game/{playing['id']}/review")
        assert page.status_code == 409 and "once it is over" in page.text
        missing = client.get("/api/games/nope/review")
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
        assert client.get("/game/nope/review").status_code == 404
        game = finished_duel(client)  # none may be made at once here: busy, retry later
        busy = client.get(f"/api/games/{game['id']}/review")
        assert busy.status_code == 429 and busy.json()["code"] == "busy"
        assert int(busy.headers["Retry-After"]) > 0


def test_a_review_process_that_died_is_replaced(tmp_path):
    """The review process is killed between two reviews (out of memory, say): the next
    review is made by a new one (at most one answer says it failed, and asking again
    works), not refused until the server restarts."""
    with app_client(tmp_path / "games.db") as client:
        first = finished_duel(client)
        review_when_ready(client, first["id"])
        reviews = client.app.state.reviews
        for process in list(reviews.pools["reviews"]._processes.values()):
            process.kill()
            process.join(timeout=10)
        second = finished_duel(client)
        answers = []
        for _ in range(4):  # asked, made (or failed once on the dead process), asked again
            answer = client.get(f"/api/games/{second['id']}/review")
            answers.append(answer.status_code)
            if answer.status_code == 200:
                break
            wait_for_the_review(client, second["id"])
        assert answers[-1] == 200 and answers.count(503) <= 1, answers
        assert set(answers) <= {200, 202, 503}
        assert answer.json()["status"] == "ready"


def test_the_review_being_made_tells_how_far_it_is_and_the_time_left():
    reviews = Reviews()
    reviews.jobs = {"first": 1, "second": 2}
    reviews.board[:] = [1, 10, 40, time.time() - 5.0]  # the review process's report
    told = reviews.progress("first")
    assert told["judged"] == 10 and told["decisions"] == 40
    assert 14 < told["seconds_left"] < 16  # 5 s for 10 decisions: 15 s for the other 30
    reviews.board[:] = [1, 2, 40, time.time() - 5.0]
    assert 49 < reviews.progress("first")["seconds_left"] <= 50  # not 95 s: the budget is 55 s
    assert reviews.progress("second") == {"waiting": 1}  # the first is ahead of it
    reviews.board[:] = [1, 0, 40, time.time()]
    assert reviews.progress("first")["seconds_left"] is None  # nothing judged: no guess
    page = message_page("Reviewing the game…", "10 of 40 decisions judged", meter=(10, 40))
    assert '<progress value="10" max="40"' in page


def test_the_review_page_fills_in_with_the_moves_judged_so_far():
    """The review process sends each move as it is judged; the page being made shows them,
    in the order of the game, with its progress, and asks again by itself."""
    game = load_game("three_two_one", players=2)
    history = recorded_history(game)
    judged = []
    whole = review_game(game, history, judged=judged.append)
    assert sorted(judged, key=lambda m: m.index) == whole.moves  # each one, once
    reviews = Reviews()
    reviews.jobs = {"mine": 7, "other": 8}
    # The process queue's own stand-in in this process: items are there once put.
    reviews.moves_queue = queue.Queue()
    for move in reversed(whole.moves[:5]):  # (not in the game's order)
        reviews.moves_queue.put((7, move))
    reviews.moves_queue.put((8, whole.moves[-1]))
    reviews.moves_queue.put((3, whole.moves[-1]))  # a review made already: dropped
    assert reviews.so_far("mine") == whole.moves[:5]
    assert reviews.so_far("other") == whole.moves[-1:] and 3 not in reviews.moves_so_far
    partial = Review(game.name, dict(game.params), whole.names, reviews.so_far("mine"), None)
    page = html_report(partial, back="/game/mine", waiting=("5 of 40 decisions judged", (5, 40)))
    assert 'http-equiv="refresh"' in page and '<progress value="5" max="40"' in page
    assert page.count("<tr") == 1 + 5  # the header and the five moves judged
