"""The HTTP API and the WebSocket protocol: every bad input answered clearly, nothing changed."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tminus.core.registry import register_game, unregister_game
from tminus.server.app import create_app
from tminus.server.limits import Limits

from .helpers import receive_json
from .troubled_game import TroubledGame

PERSON = {"kind": "person"}


def app_client(path, bot_delay=0.0, **limits):
    """The app on a fresh file; moves as fast as a test makes them unless told otherwise."""
    limits = {"messages_per_second": 0, **limits}
    return TestClient(create_app(f"sqlite:///{path}", bot_delay, limits=Limits(**limits)))


@pytest.fixture
def client(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        yield client


def create(client, seats, game="four_way", **params):
    response = client.post("/api/games", json={"game": game, "params": params, "seats": seats})
    assert response.status_code == 201, response.text
    return response.json()


def service(client):
    return client.app.state.service


def call(client, function, *args):
    """Run a coroutine of the app on the app's own event loop."""
    return client.portal.call(function, *args)


def stored_ids(client) -> list[str]:
    """Every game in the store (the public list shows only the listed ones in play)."""
    return call(client, service(client).store.ids)


def history(client, game_id):
    table = call(client, service(client).get, game_id)
    stored = call(client, service(client).store.load, game_id)
    return table.status, table.state.history(), stored.actions


def test_catalog_rules_and_listing(client):
    catalog = client.get("/api/catalog").json()
    assert "four_way" in [g["name"] for g in catalog]
    rules = client.get("/api/rules/four_way")
    assert rules.status_code == 200 and "T-minus rulings" in rules.text
    assert client.get("/api/rules/nope").json()["message"].startswith("unknown game 'nope'")
    page = client.get("/rules/chess")  # (a page that says so, but not found all the same)
    assert page.status_code == 404 and "unknown game &#x27;chess&#x27;" in page.text
    assert client.get("/rules/sputnik").status_code == 200
    game = create(client, [PERSON, {"kind": "bot", "bot": "greedy"}])
    assert client.get("/api/games").json() == []  # unlisted (the default), and waiting
    mine = client.get(f"/api/games?ids={game['id']},nope").json()
    assert [g["id"] for g in mine] == [game["id"]] and mine[0]["listed"] is False
    assert client.get(f"/api/games/{game['id']}").json()["commitment"] == game["commitment"]


def test_creation_answers_invites_with_tokens_and_a_spectator_link(client):
    game = create(client, [PERSON, PERSON, {"kind": "bot", "bot": "random"}], players=3)
    assert game["status"] == "waiting" and game["seed"] is None
    assert [i["seat"] for i in game["invites"]] == [0, 1]
    assert all(i["url"] == f"/game/{game['id']}#seat={i['seat']}&token={i['token']}"
               for i in game["invites"])  # fmt: skip
    assert game["spectate"] == f"/game/{game['id']}"


def test_a_bot_may_be_asked_for_by_its_level_as_on_the_command_line(client):
    game = create(client, [PERSON, {"kind": "bot", "bot": "hard"}])
    seat = client.get(f"/api/games/{game['id']}").json()["seats"][1]
    assert seat["bot"] == "mcts:simulations=800" and seat["name"] == "Search (hard)"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "seats": [PERSON]}, "unknown game 'chess'"),
        ({"game": "four_way", "params": {"players": 9}, "seats": [PERSON]}, "must be one of"),
        ({"game": "four_way", "seats": [PERSON]}, "has 2 seats; 1 were given"),
        ({"game": "four_way", "seats": [PERSON, {"kind": "alien"}]}, "malformed"),
        ({"game": "four_way", "seats": [PERSON, {"kind": "bot", "bot": "x"}]}, "no bot 'x'"),
        ({"game": "four_way"}, "malformed message: body.seats: Field required"),
        ({"game": "four_way", "seats": [PERSON, PERSON], "extra": 1}, "malformed"),
    ],
)
def test_bad_creation_is_a_clear_error_and_creates_nothing(client, body, words):
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert response.json()["type"] == "error" and words in response.json()["message"]
    assert stored_ids(client) == []


def test_unknown_game_over_http(client):
    for path in ("/api/games/nope", "/api/games/nope/export", "/api/games/nope/replay"):
        response = client.get(path)
        assert response.status_code == 404 and "no game 'nope'" in response.json()["message"]


def test_replay_waits_for_the_end(client):
    game = create(client, [PERSON, PERSON])
    response = client.get(f"/api/games/{game['id']}/replay")
    assert response.status_code == 409 and "once the game is over" in response.json()["message"]


def test_unknown_game_over_the_socket(client):
    with client.websocket_connect("/ws/games/nope") as ws:
        message = receive_json(ws, "the error naming the unknown game")
        assert message == {"type": "error", "code": "not_found", "message": "no game 'nope'"}
        with pytest.raises(WebSocketDisconnect) as info:
            receive_json(ws, "the socket's close after the error")
        assert info.value.code == 4404


@pytest.mark.parametrize(
    ("hello", "code", "words"),
    [
        (
            {"type": "hello", "seat": 0, "token": "guess"},
            "forbidden",
            "this invite link is not valid for Player 1's seat",
        ),
        ({"type": "hello", "seat": 0}, "forbidden", "not valid"),
        ({"type": "hello", "seat": 1, "token": "x"}, "forbidden", "Greedy (medium) is a bot"),
        (
            {"type": "hello", "seat": 5, "token": "x"},
            "unknown_seat",
            "names a seat the game does not have",
        ),
        ({"type": "hello", "seat": "0", "token": "x"}, "bad_request", "malformed"),
        ({"type": "move", "move_number": 0, "action": 0}, "bad_request", "must be a hello"),
    ],
)
def test_a_bad_hello_is_refused_and_closes_the_socket(client, hello, code, words):
    game = create(client, [PERSON, {"kind": "bot", "bot": "greedy"}])
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json(hello)
        message = receive_json(ws, "the refusal of the bad hello")
        assert message["type"] == "error" and message["code"] == code
        assert words in message["message"]
        with pytest.raises(WebSocketDisconnect):
            receive_json(ws, "the socket's close after the refusal")
    assert history(client, game["id"])[0] == "waiting"  # nobody joined


def seated(client, ws, game, seat):
    ws.send_json({"type": "hello", "seat": seat, "token": game["invites"][seat]["token"]})
    return receive_json(ws, f"the state after seat {seat}'s hello")


def assert_refused(ws, client, game_id, message, code, words):
    """The answer is one error, nothing changed, and no state message followed it."""
    before = history(client, game_id)
    ws.send_text(message if isinstance(message, str) else json.dumps(message))
    answer = receive_json(ws, f"the refusal ({code}) of {message!r:.80}")
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert words in answer["message"]
    ws.send_json({"type": "ping"})
    assert receive_json(ws, "the pong after the refusal") == {"type": "pong"}
    assert history(client, game_id) == before


def test_bad_moves_over_the_socket(client):
    game = create(client, [PERSON, PERSON])
    gid = game["id"]
    with (
        client.websocket_connect(f"/ws/games/{gid}") as ws0,
        client.websocket_connect(f"/ws/games/{gid}") as ws1,
    ):
        seated(client, ws0, game, 0)
        state = seated(client, ws1, game, 1)  # both joined: the game started
        assert state["status"] == "playing"
        state0 = receive_json(ws0, "seat 0's state once seat 1 joined")
        mover, other = (ws0, ws1) if state0["to_move"] == 0 else (ws1, ws0)
        number = state["move_number"]
        legal = [m["action"] for m in (state0 if mover is ws0 else state)["legal"]]
        illegal = next(a for a in range(31) if a not in legal)
        move = {"type": "move", "move_number": number, "action": legal[0]}
        assert_refused(other, client, gid, move, "not_your_turn", "not your turn")
        stale = {**move, "move_number": number - 1}
        assert_refused(mover, client, gid, stale, "stale", f"the game is at move {number}")
        bad = {**move, "action": illegal}
        assert_refused(mover, client, gid, bad, "illegal", "illegal move")
        assert_refused(mover, client, gid, {**move, "action": 99}, "illegal", "legal moves:")
        for malformed, words in [
            ("not json", "a message is a JSON object"),
            ("[1, 2]", "malformed"),
            ({"type": "move", "action": legal[0]}, "move_number: Field required"),
            ({**move, "action": "flip 3"}, "move.action"),
            ({**move, "action": 1.5}, "move.action"),
            ({**move, "move_number": True}, "move.move_number"),
            ({**move, "cheat": 1}, "Extra inputs are not permitted"),
            ({"type": "teleport"}, "malformed"),
            ({"type": "hello", "seat": 0, "token": "x"}, "already said hello"),
            ("x" * 5000, "longer than"),
        ]:
            assert_refused(mover, client, gid, malformed, "bad_request", words)
        # And a good move is accepted and reaches both seats.
        mover.send_json(move)
        for ws in (mover, other):
            after = receive_json(ws, "the state after the good move")
            assert after["move_number"] > number
            assert after["log"][0] == {"index": number, "actor": after["log"][0]["actor"],
                                       "text": after["log"][0]["text"]}  # fmt: skip


def test_a_seat_names_itself(client):
    game = create(client, [PERSON, PERSON])
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        seated(client, ws, game, 1)
        ws.send_json({"type": "name", "name": "Bea"})
        assert receive_json(ws, "the state after naming the seat")["seats"][1]["name"] == "Bea"
        assert_refused(ws, client, game["id"], {"type": "name", "name": ""}, "bad_request", "name")
        too_long = {"type": "name", "name": "x" * 41}
        assert_refused(ws, client, game["id"], too_long, "bad_request", "at most 40")
    assert call(client, service(client).store.load, game["id"]).seats[1].name == "Bea"


def test_spectators_cannot_play_or_start(client):
    game = create(client, [PERSON, PERSON])
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json({"type": "hello"})
        state = receive_json(ws, "the spectator's state")
        assert state["seat"] is None and state["legal"] == []
        for message in ({"type": "start"}, {"type": "resign"}, {"type": "name", "name": "x"},
                        {"type": "move", "move_number": 0, "action": 0}):  # fmt: skip
            assert_refused(ws, client, game["id"], message, "forbidden", "spectators watch")


def test_start_and_resign_over_the_socket(client):
    game = create(client, [PERSON, PERSON, PERSON], players=3)  # no bot: no moves meanwhile
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        assert seated(client, ws, game, 0)["status"] == "waiting"
        ws.send_json({"type": "start"})
        assert receive_json(ws, "the state after the start")["status"] == "playing"
        assert_refused(ws, client, game["id"], {"type": "start"}, "bad_state", "already started")
        ws.send_json({"type": "resign"})
        while (message := receive_json(ws, "the states after resigning"))["status"] != "finished":
            pass
        assert message["result"] == {
            "reason": "resigned",
            "resigned": 0,
            "winners": [1, 2],
            "placings": [3, 1, 1],
        }
        assert message["seed"] is not None and message["legal"] == []
    export = client.get(f"/api/games/{game['id']}/export").json()
    assert export["seed"] == message["seed"]
    assert client.get(f"/api/games/{game['id']}/verify").json()["ok"]


def test_a_person_plays_a_whole_game_against_bots(client):
    game = create(client, [PERSON, {"kind": "bot", "bot": "greedy"}], variant="junior")
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        message = seated(client, ws, game, 0)
        while message["status"] != "finished":
            if message["legal"]:
                ws.send_json({"type": "move", "move_number": message["move_number"],
                              "action": message["legal"][0]["action"]})  # fmt: skip
            message = receive_json(ws, "the next state of the game against bots")
    replay = client.get(f"/api/games/{game['id']}/replay").json()
    assert replay["frames"][-1]["public"]["winner"] in (0, 1)
    assert client.get(f"/api/games/{game['id']}/verify").json()["ok"]


def play_to_the_end(ws, game, seat=0, choice=0):
    message = seated(None, ws, game, seat)
    while message["status"] != "finished":
        if message["legal"]:
            ws.send_json({"type": "move", "move_number": message["move_number"],
                          "action": message["legal"][choice]["action"]})  # fmt: skip
        message = receive_json(ws, "the next state of the game played to the end")
    return message


SEARCH_BOT = {"kind": "bot", "bot": "ismcts:simulations=100"}  # (not instant: thinks in a worker)


@pytest.fixture
def troubled():
    register_game(TroubledGame)
    yield
    unregister_game(TroubledGame.name)


@pytest.mark.parametrize(
    ("trouble", "words"),
    [("crash", "failed"), ("spin", "ran out of time"), ("die", "failed")],
)
def test_a_bot_in_trouble_plays_a_random_move_and_the_log_says_so(
    tmp_path, troubled, trouble, words
):
    """A search bot thinks in a worker process: it crashes, spins past its CPU budget or
    kills its worker; the game goes on with a random legal move, and the next bots still
    play. (A random or greedy bot thinks in the server's process: ``test_bot_quick``.)"""
    with app_client(tmp_path / "games.db", bot_budget=0.3) as client:
        game = create(client, [PERSON, SEARCH_BOT], game="troubled",
                      trouble=trouble)  # fmt: skip
        with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            final = play_to_the_end(ws, game, choice=-1)  # pass: the bot gets its turns
        notes = [line for line in final_log(client, game["id"]) if "random move" in line]
        assert notes and all(
            line.startswith(f"Search (hard) {words} and played a random move.") for line in notes
        )
        fine = create(client, [PERSON, SEARCH_BOT], game="troubled",
                      trouble="none")  # fmt: skip
        with client.websocket_connect(f"/ws/games/{fine['id']}") as ws:
            play_to_the_end(ws, fine)
        assert not any("random move" in line for line in final_log(client, fine["id"]))
        assert final["status"] == "finished"


def final_log(client, game_id):
    return [entry["text"] for entry in client.get(f"/api/games/{game_id}/export").json()["actions"]]


def test_a_finished_game_leaves_memory_when_nobody_watches(tmp_path):
    with app_client(tmp_path / "games.db", cache_size=0) as client:
        game = create(client, [PERSON, {"kind": "bot", "bot": "random"}])
        with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            final = play_to_the_end(ws, game)
            assert game["id"] in service(client).tables  # pinned by its socket
        assert game["id"] not in service(client).tables
        summary = client.get(f"/api/games?ids={game['id']}").json()[0]
        assert summary["status"] == "finished" and summary["move_number"] == final["move_number"]
        assert client.get(f"/api/games/{game['id']}/verify").json()["ok"]


def test_a_replay_is_streamed_whole_or_served_by_the_page_and_kept(client):
    game = create(client, [PERSON, {"kind": "bot", "bot": "random"}])
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        final = play_to_the_end(ws, game)
    whole = client.get(f"/api/games/{game['id']}/replay").json()
    assert whole["total"] == final["move_number"] + 1 == len(whole["frames"])
    path = f"/api/games/{game['id']}/replay?start=3&count=4"
    page = client.get(path)
    assert page.json()["frames"] == whole["frames"][3:7] and page.json()["start"] == 3
    assert client.app.state.replay_pages.get((game["id"], 3, 4)) == page.content
    assert client.get(path).content == page.content
    last = client.get(f"/api/games/{game['id']}/replay?start={whole['total'] - 1}&count=9")
    assert last.json()["frames"] == whole["frames"][-1:]
    assert client.get(f"/api/games/{game['id']}/replay?count=0").status_code == 400


def test_the_layout_endpoint_serves_a_games_printed_board(client):
    """Count Down's track and cards for the browser's board; {} for a game without one."""
    from tminus.core.registry import load_game

    created = create(client, [PERSON, PERSON], game="count_down", players=2)
    layout = client.get(f"/api/games/{created['id']}/layout").json()
    board = load_game("count_down", players=2).board
    assert [square["kind"] for square in layout["track"]] == list(board.kinds)
    assert [card["name"] for card in layout["photo_cards"]] == list(board.photo_names)
    assert [c["centre"] for c in layout["control_cards"]] == [1, 2, 3, 4]
    assert "source" not in layout  # never a server path
    four_way = create(client, [PERSON, PERSON])
    assert client.get(f"/api/games/{four_way['id']}/layout").json() == {}
    missing = client.get("/api/games/nope/layout")
    assert missing.status_code == 404


def test_a_browser_gets_a_page_for_an_unknown_address_and_the_api_gets_json(client):
    page = client.get("/nonsense/page", headers={"accept": "text/html,*/*"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "Page not found" in page.text and 'href="/"' in page.text
    api = client.get("/api/nonsense", headers={"accept": "text/html,*/*"})
    assert api.status_code == 404 and api.json()["code"] == "not_found"
    assert client.get("/nonsense/page").json()["code"] == "not_found"  # (no browser)


def test_the_favicon_is_served_where_browsers_ask_for_it(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"


def test_a_review_of_a_game_that_does_not_exist_leads_back_to_the_lobby(client):
    page = client.get("/game/nosuchgame/review")
    assert page.status_code == 404 and "Back to the lobby" in page.text
    assert "Back to the game" not in page.text
