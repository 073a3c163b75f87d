"""Playing together (issue 14), over HTTP and the socket: my games and the public list, chat,
rematch, hot-seat, abandoned games, undo. Each refusal has the one error shape and changes
nothing; nothing a spectator sends changes a game."""

from __future__ import annotations

import pytest

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
            assert ws.receive_json()["move_number"] > state["move_number"]
        service(client).tables.clear()
        again = client.get(f"/api/games?ids={hidden['id']}").json()[0]
        table = call(client, service(client).get, hidden["id"])
        assert again["to_move"] == table.state.current_player()


def test_too_many_ids_are_refused(client):
    response = client.get("/api/games?ids=" + ",".join(f"g{i}" for i in range(51)))
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert client.get("/api/games?ids=").json() == []
