"""Playing together (issue 14), over HTTP and the socket: my games and the public list, chat,
rematch, hot-seat, abandoned games, undo. Each refusal has the one error shape and changes
nothing; nothing a spectator sends changes a game."""

from __future__ import annotations

import pytest

from .helpers import receive_json
from .test_api import PERSON, app_client, call, create, seated, service

GREEDY = {"kind": "bot", "bot": "greedy"}


@pytest.fixture
def client(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        yield client


def start(client, game) -> None:
    table = call(client, service(client).get, game["id"])
    call(client, service(client).start, table, 0, game["invites"][0]["token"])


# -- my games and the public list -----------------------------------------------------------------
def test_the_public_list_holds_listed_games_in_play_and_ids_give_anyones_own(tmp_path):
    with app_client(tmp_path / "games.db", cache_size=0) as client:
        hidden = create(client, [PERSON, PERSON])
        shown = client.post(
            "/api/games", json={"game": "four_way", "seats": [PERSON, PERSON], "listed": True}
        ).json()
        waiting = client.post(
            "/api/games", json={"game": "four_way", "seats": [PERSON, PERSON], "listed": True}
        ).json()
        start(client, hidden)
        start(client, shown)
        public = client.get("/api/games").json()
        assert [g["id"] for g in public] == [shown["id"]]  # not the unlisted, not the waiting
        ids = ",".join(g["id"] for g in (hidden, shown, waiting))
        mine = {g["id"]: g for g in client.get(f"/api/games?ids={ids}").json()}
        assert set(mine) == {hidden["id"], shown["id"], waiting["id"]}
        assert mine[waiting["id"]]["to_move"] is None
        # Whose turn it is, as the store has it (the game has left memory: cache_size 0).
        table = call(client, service(client).get, hidden["id"])
        assert mine[hidden["id"]]["to_move"] == table.state.current_player() >= 0
        mover = mine[hidden["id"]]["to_move"]
        with client.websocket_connect(f"/ws/games/{hidden['id']}") as ws:
            state = seated(client, ws, hidden, mover)
            action = state["legal"][0]["action"]
            ws.send_json({"type": "move", "move_number": state["move_number"], "action": action})
            assert receive_json(ws, "the moved state")["move_number"] > state["move_number"]
        service(client).tables.clear()
        again = client.get(f"/api/games?ids={hidden['id']}").json()[0]
        table = call(client, service(client).get, hidden["id"])
        assert again["to_move"] == table.state.current_player()


def test_too_many_ids_are_refused(client):
    response = client.get("/api/games?ids=" + ",".join(f"g{i}" for i in range(51)))
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert client.get("/api/games?ids=").json() == []


# -- chat ---------------------------------------------------------------------------------------
def test_chat_reaches_everyone_present_is_stored_capped_and_refused_to_spectators(client):
    game = create(client, [PERSON, PERSON])
    path = f"/ws/games/{game['id']}"
    with (
        client.websocket_connect(path) as ada,
        client.websocket_connect(path) as bea,
        client.websocket_connect(path) as eve,
    ):
        seated(client, ada, game, 0)
        seated(client, bea, game, 1)
        receive_json(ada, "Ada's state once Bea arrived: the game started")
        eve.send_json({"type": "hello"})
        receive_json(eve, "the spectator's state")
        ada.send_json({"type": "chat", "text": "  <script>alert(1)</script>\n hi  "})
        for ws in (ada, bea, eve):
            line = receive_json(ws, "the chat line")
            assert line["type"] == "chat" and len(line["messages"]) == 1
            assert line["messages"][0] | {"at": None} == {
                "index": 1,
                "seat": 0,
                "text": "<script>alert(1)</script> hi",
                "at": None,
            }
        # A spectator reads; it does not talk. Bad lines are refused; nothing is stored.
        eve.send_json({"type": "chat", "text": "hello"})
        assert receive_json(eve, "the refusal of a spectator's chat")["code"] == "forbidden"
        for bad, code in [({"type": "chat", "text": "x" * 201}, "bad_request"),
                          ({"type": "chat", "text": ""}, "bad_request"),
                          ({"type": "chat", "text": "   "}, "bad_request"),
                          ({"type": "chat", "text": 5}, "bad_request")]:  # fmt: skip
            bea.send_json(bad)
            assert receive_json(bea, "the refusal of a bad chat line")["code"] == code
        # Five lines at once, then one every two seconds (a refused line costs nothing).
        for n in range(5):
            bea.send_json({"type": "chat", "text": f"line {n}"})
            assert receive_json(bea, "the chat line echoed")["messages"][0]["text"] == f"line {n}"
        bea.send_json({"type": "chat", "text": "too fast"})
        refused = receive_json(bea, "the refusal of a chat line too fast")
        assert refused["code"] == "rate_limited" and "nothing was done" in refused["message"]
    stored = call(client, service(client).store.chat, game["id"], 100)
    assert [line["text"] for line in stored][1:] == [f"line {n}" for n in range(5)]
    # A page opened later is given the talk so far.
    service(client).tables.clear()
    with client.websocket_connect(path) as late:
        late.send_json({"type": "hello"})
        receive_json(late, "the late spectator's state")
        history = receive_json(late, "the chat history")
        assert history["type"] == "chat" and history["history"] is True
        assert [line["index"] for line in history["messages"]] == [1, 2, 3, 4, 5, 6]


# -- rematch -----------------------------------------------------------------------------------
def test_a_rematch_keeps_seats_names_and_secrets_and_rotates_the_first_player(client):
    game = create(client, [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bea"}])
    path = f"/ws/games/{game['id']}"
    with client.websocket_connect(path) as ada, client.websocket_connect(path) as bea:
        seated(client, ada, game, 0)
        seated(client, bea, game, 1)
        receive_json(ada, "Ada's state once Bea arrived")
        bea.send_json({"type": "rematch"})
        refused = receive_json(bea, "the refusal of a rematch before the end")
        assert refused["code"] == "bad_state"  # not before the end
        ada.send_json({"type": "resign"})
        ended = receive_json(ada, "Ada's state after the resignation")
        assert ended["status"] == receive_json(bea, "Bea's state after it")["status"] == "finished"
        with client.websocket_connect(path) as eve:
            eve.send_json({"type": "hello"})
            receive_json(eve, "the spectator's state")
            eve.send_json({"type": "rematch"})
            refused = receive_json(eve, "the refusal of a spectator's rematch")
            assert refused["code"] == "forbidden"  # spectators ask for nothing
        bea.send_json({"type": "rematch"})
        offer = receive_json(ada, "Ada's rematch offer")["rematch"]
        assert receive_json(bea, "Bea's offer")["rematch"] == offer and offer["seats"] == [1, 0]
        bea.send_json({"type": "rematch"})  # asked twice: the same rematch
        assert receive_json(bea, "the same offer, asked twice")["rematch"] == offer
    again = client.get(f"/api/games/{offer['id']}").json()
    assert again["status"] == "waiting" and again["commitment"] != game["commitment"]
    assert [(s["name"], s["joined"]) for s in again["seats"]] == [("Bea", True), ("Ada", False)]
    assert client.get(f"/api/games/{game['id']}").json()["rematch"] == offer
    # Ada's secret opens her new seat (one place earlier: Bea, second before, starts).
    with client.websocket_connect(f"/ws/games/{offer['id']}") as ada:
        ada.send_json({"type": "hello", "seat": 1, "token": game["invites"][0]["token"]})
        started = receive_json(ada, "the state of the rematch")
        assert started["status"] == "playing" and started["seat"] == 1
        assert started["params"] == client.get(f"/api/games/{game['id']}").json()["params"]


def test_bots_accept_a_rematch_at_once(client):
    game = create(client, [PERSON, GREEDY])
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        seated(client, ws, game, 0)
        ws.send_json({"type": "resign"})
        while receive_json(ws, "the states after resigning").get("status") != "finished":
            pass
        ws.send_json({"type": "rematch"})
        offer = receive_json(ws, "the rematch offer")["rematch"]
    again = client.get(f"/api/games/{offer['id']}").json()
    assert again["status"] == "playing"
    assert [s["kind"] for s in again["seats"]] == ["bot", "person"]


def test_a_rematch_is_a_new_game_under_the_creation_limit(tmp_path):
    """Issue 40: a resign-and-rematch loop made 2,883 games in 45 s while creating answered
    429. A rematch makes a game, so it counts against the same per-address limit."""
    with app_client(tmp_path / "games.db", creates_per_minute=2) as client:
        game = create(client, [PERSON, GREEDY])
        game_id, seat, token = game["id"], 0, game["invites"][0]["token"]
        made = [game_id]
        for _ in range(2):
            with client.websocket_connect(f"/ws/games/{game_id}") as ws:
                ws.send_json({"type": "hello", "seat": seat, "token": token})
                ws.send_json({"type": "resign"})
                while receive_json(ws, "the end after resigning").get("status") != "finished":
                    pass
                ws.send_json({"type": "rematch"})
                answer = receive_json(ws, "the rematch or its refusal")
                while answer.get("type") != "error" and not answer.get("rematch"):
                    answer = receive_json(ws, "the rematch or its refusal")
            if answer.get("type") == "error":
                break
            game_id, seat = answer["rematch"]["id"], answer["rematch"]["seats"][seat]
            made.append(game_id)
        assert len(made) == 2  # the game and one rematch: the second rematch is refused
        assert answer["code"] == "rate_limited", answer
        assert "too many games created from your address" in answer["message"]


def test_renames_and_votes_draw_on_the_table_talks_allowance(tmp_path):
    """Issue 40: 100 renames made 100 full broadcasts, and repeated votes pushed real table
    talk out of its history. Whatever a seat does that the table hears of, besides moves,
    draws on one allowance: five at once, then one every two seconds; over it, nothing."""
    with app_client(tmp_path / "games.db") as client:
        game = create(client, [PERSON, PERSON, PERSON], players=3)
        with client.websocket_connect(f"/ws/games/{game['id']}") as bea:
            seated(client, bea, game, 1)
            refused = None
            for n in range(8):
                bea.send_json({"type": "name", "name": f"Bea {n}"})
                answer = receive_json(bea, "the state or refusal after the rename")
                while answer.get("type") not in ("state", "error"):
                    answer = receive_json(bea, "the state or refusal after the rename")
                if answer["type"] == "error":
                    refused = (n, answer)
                    break
            assert refused is not None and refused[0] == 5, refused  # five, then no more
            assert refused[1]["code"] == "rate_limited" and "renaming" in refused[1]["message"]
            seats = client.get(f"/api/games/{game['id']}").json()["seats"]
            assert seats[1]["name"] == "Bea 4"  # the refused name was not taken
            bea.send_json({"type": "bot", "seat": 0, "bot": "greedy"})  # the same allowance
            answer = receive_json(bea, "the refusal of asking for a bot")
            assert answer["code"] == "rate_limited" and "asking for bots" in answer["message"]
        assert table_talk(client, game) == []  # no vote reached the table


# -- abandoned games -----------------------------------------------------------------------------
def test_only_games_still_waiting_expire_and_an_expired_game_cannot_start(client):
    waiting = create(client, [PERSON, PERSON])
    playing = create(client, [PERSON, PERSON])
    start(client, playing)
    assert call(client, service(client).expire_waiting, 3600.0) == []  # too young
    assert call(client, service(client).expire_waiting, 0.0) == [waiting["id"]]
    assert client.get(f"/api/games/{playing['id']}").json()["status"] == "playing"
    with client.websocket_connect(f"/ws/games/{waiting['id']}") as ws:
        assert seated(client, ws, waiting, 0)["status"] == "expired"
        ws.send_json({"type": "start"})
        refused = receive_json(ws, "the refusal of starting an expired game")
        assert refused["code"] == "bad_state" and "expired" in refused["message"]
        # Nothing else happens at it either: no resignation, no new name, no table talk.
        before = client.get(f"/api/games/{waiting['id']}").json()
        for message in ({"type": "resign"}, {"type": "name", "name": "Zed"},
                        {"type": "chat", "text": "anyone?"}):  # fmt: skip
            ws.send_json(message)
            refused = receive_json(ws, "the refusal at an expired game")
            assert refused["code"] == "bad_state" and "expired" in refused["message"], message
        assert client.get(f"/api/games/{waiting['id']}").json() == before
        assert table_talk(client, waiting) == []


# -- a person who left: their seat given to a bot ------------------------------------------------
def seat_kinds(client, game) -> list[str]:
    return [s["kind"] for s in client.get(f"/api/games/{game['id']}").json()["seats"]]


def table_talk(client, game) -> list[str]:
    return [line["text"] for line in call(client, service(client).store.chat, game["id"], 100)]


def until(ws, done):
    """The messages a socket receives until one for which ``done`` holds (that one)."""
    while not done(message := receive_json(ws, "a message for which `done` holds")):
        pass
    return message


def test_the_others_vote_a_bot_into_the_seat_of_a_person_who_left(client):
    ada, bea, cy = ({"kind": "person", "name": n} for n in ("Ada", "Bea", "Cy"))
    game = create(client, [ada, bea, cy], players=3)
    start(client, game)  # Ada (who made it) started it and never came: she is away
    path = f"/ws/games/{game['id']}"
    with client.websocket_connect(path) as bea_ws, client.websocket_connect(path) as cy_ws:
        seated(client, bea_ws, game, 1)
        seated(client, cy_ws, game, 2)
        receive_json(bea_ws, "Bea's state once Cy arrived")
        # Bea asks: one of the two people present is not more than half.
        bea_ws.send_json({"type": "bot", "seat": 0, "bot": "greedy"})
        asked = until(bea_ws, lambda m: m["type"] == "chat")["messages"][0]
        assert asked["seat"] is None and "Bea asks that" in asked["text"]
        assert "(1 of 2 present asked" in asked["text"]
        assert seat_kinds(client, game) == ["person"] * 3
        # Cy asks too: the seat is the bot's, the table says so, everyone sees it.
        cy_ws.send_json({"type": "bot", "seat": 0, "bot": "greedy"})
        given = until(cy_ws, lambda m: m["type"] == "state" and m["seats"][0]["kind"] == "bot")
        assert given["seats"][0] == {
            "seat": 0, "kind": "bot", "bot": "greedy", "name": "Ada", "joined": True,
            "stand_in": None,
        }  # fmt: skip
        told = until(bea_ws, lambda m: m["type"] == "chat" and "left" in m["messages"][0]["text"])
        assert told["messages"][0]["text"].startswith("Ada left; ")
        assert told["messages"][0]["text"].endswith(" plays for them")
        # The bot plays Ada's turns from now on (a greedy bot thinks in microseconds: it may
        # have moved already, so the game is where it was told or further on).
        assert client.get(f"/api/games/{game['id']}").json()["move_number"] >= given["move_number"]
        if given["to_move"] == 0:
            until(cy_ws, lambda m: m["type"] == "state" and m["move_number"] > given["move_number"])
    assert seat_kinds(client, game) == ["bot", "person", "person"]
    assert table_talk(client, game)[-1].startswith("Ada left; ")
    # Ada's link no longer opens the seat (it is the bot's), in memory or read anew.
    service(client).tables.clear()
    with client.websocket_connect(path) as ada_ws:
        refused = seated(client, ada_ws, game, 0)
        assert refused["code"] == "forbidden" and "is a bot" in refused["message"]


def test_the_creator_gives_a_seat_to_a_bot_alone_and_refusals_change_nothing(client):
    game = create(client, [PERSON, PERSON, PERSON], players=3)
    start(client, game)
    path = f"/ws/games/{game['id']}"
    with client.websocket_connect(path) as ada, client.websocket_connect(path) as bea:
        seated(client, ada, game, 0)
        seated(client, bea, game, 1)
        receive_json(ada, "Ada's state once Bea arrived")
        with client.websocket_connect(path) as eve:
            eve.send_json({"type": "hello"})
            receive_json(eve, "the spectator's state")
            eve.send_json({"type": "bot", "seat": 2, "bot": "greedy"})
            refused = receive_json(eve, "the refusal of a spectator giving a seat to a bot")
            assert refused["code"] == "forbidden"  # a spectator gives nothing
        refusals = [
            ({"type": "bot", "seat": 1, "bot": "greedy"}, "bad_state", "still here"),
            ({"type": "bot", "seat": 0, "bot": "greedy"}, "forbidden", "your own seat"),
            ({"type": "bot", "seat": 2, "bot": "nonsense"}, "bad_request", "no bot"),
            ({"type": "bot", "seat": 9, "bot": "greedy"}, "bad_request", "no seat 9"),
            ({"type": "bot", "seat": "2", "bot": "greedy"}, "bad_request", "malformed"),
            ({"type": "bot", "seat": 2}, "bad_request", "malformed"),
            ({"type": "bot", "seat": 2, "bot": "greedy", "x": 1}, "bad_request", "malformed"),
        ]
        for message, code, words in refusals:
            ada.send_json(message)
            answer = receive_json(ada, "the refusal of giving a seat to a bot")
            assert answer["code"] == code and words in answer["message"], (message, answer)
        assert seat_kinds(client, game) == ["person"] * 3 and table_talk(client, game) == []
        ada.send_json({"type": "bot", "seat": 2, "bot": "greedy"})  # Ada made the game
        until(ada, lambda m: m["type"] == "state" and m["seats"][2]["kind"] == "bot")
        ada.send_json({"type": "bot", "seat": 2, "bot": "greedy"})
        assert until(ada, lambda m: m["type"] == "error")["code"] == "bad_request"  # a bot now
    assert seat_kinds(client, game) == ["person", "person", "bot"]


def test_a_seat_goes_to_a_bot_only_after_its_person_has_been_away_long_enough(tmp_path):
    with app_client(tmp_path / "games.db", away_after=3600) as client:
        game = create(client, [PERSON, PERSON, PERSON], players=3)
        path = f"/ws/games/{game['id']}"
        with client.websocket_connect(path) as cy:
            seated(client, cy, game, 2)  # Cy was here (and left): seen a moment ago
        with client.websocket_connect(path) as ada:
            seated(client, ada, game, 0)
            start(client, game)
            receive_json(ada, "Ada's state once the game started")
            ada.send_json({"type": "bot", "seat": 2, "bot": "greedy"})
            refused = until(ada, lambda m: m["type"] == "error")
            assert refused["code"] == "bad_state" and "3600 s" in refused["message"]
            ada.send_json({"type": "bot", "seat": 1, "bot": "greedy"})  # Bea never came
            until(ada, lambda m: m["type"] == "state" and m["seats"][1]["kind"] == "bot")


def test_a_person_with_a_socket_open_stays_here_however_long_it_is_open(tmp_path):
    with app_client(tmp_path / "games.db", away_after=60) as client:
        game = create(client, [PERSON, PERSON, PERSON], players=3)
        start(client, game)
        path = f"/ws/games/{game['id']}"
        with client.websocket_connect(path) as ada, client.websocket_connect(path) as bea:
            seated(client, ada, game, 0)
            seated(client, bea, game, 1)
            receive_json(ada, "Ada's state once Bea arrived")
            service(client).store.clock.advance(3600)  # an hour later:
            renew_presence(client)  # the presence chore's round marks Bea here again
            ada.send_json({"type": "bot", "seat": 1, "bot": "greedy"})
            refused = receive_json(ada, "the refusal: Bea is still here")
            assert refused["code"] == "bad_state" and "still here" in refused["message"]
            ada.send_json({"type": "bot", "seat": 2, "bot": "greedy"})  # Cy: away all along
            until(ada, lambda m: m["type"] == "state" and m["seats"][2]["kind"] == "bot")


def test_a_paused_game_goes_on_when_a_person_comes_for_the_first_time(tmp_path):
    """Their join marks them here (``renew_seen`` is not asked for a seat a join writes): the
    first state that shows them seated shows the game going on."""
    with app_client(tmp_path / "games.db") as client:
        game = create(client, [PERSON, PERSON, GREEDY], players=3)
        path = f"/ws/games/{game['id']}"
        with client.websocket_connect(path) as ada:
            seated(client, ada, game, 0)
            start(client, game)  # without Bea
        service(client).store.clock.advance(0.8)
        assert call(client, service(client).pause_abandoned, 0.5) == [game["id"]]
        assert client.get(f"/api/games/{game['id']}").json()["paused"] is True
        with client.websocket_connect(path) as bea:
            state = seated(client, bea, game, 1)
            if not state["seats"][1]["joined"]:  # (a state sent while her join was written)
                state = until(bea, lambda m: m["type"] == "state" and m["seats"][1]["joined"])
            assert state["paused"] is False
        assert client.get(f"/api/games/{game['id']}").json()["paused"] is False
        table = call(client, service(client).get, game["id"])
        assert table.record.seats[1].joined and not table.record.paused


def renew_presence(client) -> None:
    """What the chore "renewing who is here" does each round, done now."""
    call(client, service(client).renew_seen, client.app.state.hub.present())


def test_a_game_whose_people_all_left_is_paused_until_one_comes_back(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        paused_until_one_comes_back(client)


def paused_until_one_comes_back(client):
    game = create(client, [PERSON, GREEDY])
    present = create(client, [PERSON, GREEDY])
    waiting = create(client, [PERSON, PERSON])
    path = f"/ws/games/{game['id']}"
    with client.websocket_connect(path) as ada:
        seated(client, ada, game, 0)  # (bots-only and waiting games are never paused)
    store = service(client).store
    with client.websocket_connect(f"/ws/games/{present['id']}") as here:
        seated(client, here, present, 0)
        assert call(client, service(client).pause_abandoned, 3600.0) == []  # she just left
        store.clock.advance(0.8)
        renew_presence(client)  # (the person of ``present`` is here)
        assert call(client, service(client).pause_abandoned, 0.5) == [game["id"]]
    assert client.get(f"/api/games/{game['id']}").json()["paused"] is True
    assert client.get(f"/api/games/{waiting['id']}").json()["paused"] is False
    # Its bots wait: nobody takes the game's lease, and no bot is to move.
    assert game["id"] not in call(client, store.unleased, 10)
    table = call(client, service(client).get, game["id"])
    assert table.bot_to_move() is None
    with client.websocket_connect(f"/ws/games/{game['id']}") as eve:
        eve.send_json({"type": "hello"})  # a spectator does not wake it
        assert receive_json(eve, "the spectator's state of the paused game")["paused"] is True
        with client.websocket_connect(path) as ada:
            back = seated(client, ada, game, 0)
            assert back["paused"] is False
            until(eve, lambda m: m["type"] == "state" and m["paused"] is False)
    assert client.get(f"/api/games/{game['id']}").json()["paused"] is False
