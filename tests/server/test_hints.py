"""Hints over the socket: in a game whose creator allowed them, the seat to move asks for the
best move; it alone is told the move and its chance to win, and the table is told that a
hint was asked for. Refused (nothing changed) when hints are off, out of turn, from
spectators and when malformed."""

from __future__ import annotations

import multiprocessing

from tminus.core.registry import load_game
from tminus.review import review_position

from .helpers import receive_json
from .test_api import app_client, assert_refused, seated

ADA = {"kind": "person", "name": "Ada"}
BEA = {"kind": "person", "name": "Bea"}


def create(client, seats, hints, game="four_way", **params):
    body = {"game": game, "params": params, "seats": seats, "hints": hints}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def until(ws, kind):
    """Messages until one of ``kind``: (it, the ones before it)."""
    before = []
    while (message := receive_json(ws, f"a message of type {kind!r}"))["type"] != kind:
        before.append(message)
    return message, before


def my_turn(ws, message, seat):
    while not (message["type"] == "state" and message["to_move"] == seat and message["legal"]):
        message = receive_json(ws, f"a state with seat {seat} to move")
    return message


def test_the_seat_to_move_is_told_the_best_move_and_the_table_that_it_asked(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        game = create(client, [ADA, {"kind": "bot", "bot": "greedy"}], True, players=2)
        with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            state = my_turn(ws, seated(client, ws, game, 0), 0)
            assert state["hints"] is True
            ws.send_json({"type": "hint", "move_number": state["move_number"]})
            hint, before = until(ws, "hint")
        said = [line["text"] for m in before if m["type"] == "chat" for line in m["messages"]]
        assert said == ["Ada asks for a hint"]
        # The best move of the exact duel, from the same position.
        table = client.portal.call(client.app.state.service.get, game["id"])
        position = load_game("four_way", players=2).new_initial_state()
        for action in table.state.history()[: state["move_number"]]:
            position.apply_action(action)
        values = review_position(position, 0)
        best = max(values, key=lambda a: (values[a].mean, -a))
        assert hint["action"] == best and hint["chance"] == values[best].mean
        assert hint["error"] == 0.0  # exact
        assert hint["seat"] == 0 and hint["move_number"] == state["move_number"]
        assert hint["label"] == position.move_label(best, ["Ada", "Greedy (medium)"])
        assert hint["action"] in [m["action"] for m in state["legal"]]
        # Asked again for the same position: the same hint, and the table is not told again.
        with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            again = my_turn(ws, seated(client, ws, game, 0), 0)
            assert again["move_number"] == state["move_number"]
            ws.send_json({"type": "hint", "move_number": state["move_number"]})
            repeated, before = until(ws, "hint")
        assert repeated == hint
        assert not [m for m in before if m["type"] == "chat" and not m.get("history")]


def test_hints_are_refused_when_off_out_of_turn_from_spectators_and_malformed(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        off = create(client, [ADA, BEA], False, players=2)
        on = create(client, [ADA, BEA], True, players=2)
        with (
            client.websocket_connect(f"/ws/games/{off['id']}") as a,
            client.websocket_connect(f"/ws/games/{off['id']}") as b,
        ):
            seated(client, a, off, 0)
            state = seated(client, b, off, 1)
            receive_json(a, "seat 0's state once Bea took her seat")
            mover = state["to_move"]
            ws = (a, b)[mover]
            number = state["move_number"]
            hint = {"type": "hint", "move_number": number}
            assert_refused(ws, client, off["id"], hint, "bad_state", "hints are off")
        with (
            client.websocket_connect(f"/ws/games/{on['id']}") as a,
            client.websocket_connect(f"/ws/games/{on['id']}") as b,
            client.websocket_connect(f"/ws/games/{on['id']}") as eve,
        ):
            seated(client, a, on, 0)
            state = seated(client, b, on, 1)
            receive_json(a, "seat 0's state once Bea took her seat")
            eve.send_json({"type": "hello"})
            receive_json(eve, "the spectator's state")
            mover, number = state["to_move"], state["move_number"]
            waiting = (a, b)[1 - mover]
            hint = {"type": "hint", "move_number": number}
            assert_refused(waiting, client, on["id"], hint, "not_your_turn", "not your turn")
            assert_refused(eve, client, on["id"], hint, "forbidden", "spectators")
            stale = {"type": "hint", "move_number": number - 1}
            assert_refused((a, b)[mover], client, on["id"], stale, "stale", "stale")
            bad = {"type": "hint", "move_number": "now"}
            assert_refused((a, b)[mover], client, on["id"], bad, "bad_request", "move_number")


def test_a_sputnik_hint_says_when_the_endgame_table_is_not_built_and_not_once_it_is(
    monkeypatch, tmp_path
):
    """A fresh server answers a hint at once by search, and says the table is missing; once
    the build ends (a small table in its place), the next hint reads it and says nothing."""
    from tests.review.helpers import recorded
    from tminus.agents.solvers import sputnik_endgame
    from tminus.server.outbound import HintMessage
    from tminus.server.reviews import hint_of

    monkeypatch.setenv("TMINUS_CACHE", str(tmp_path))  # nothing built here
    sputnik_endgame.forget_loaded_tables()
    game, history = recorded("sputnik", ["random", "random"])
    history = history[:9]
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    seat = state.current_player()
    try:
        before = hint_of(type(game), dict(game.params), history, seat, 4, budget=0.05)
        assert "endgame table is not built on this server" in before["note"]
        assert "`" not in before["note"]  # (plain words on the page: no report's code marks)
        message = HintMessage(type="hint", seat=seat, move_number=9, label="x", labels=[], **before)
        assert message.note == before["note"]  # (told to the socket with the hint)
        sputnik_endgame.build(radius=3, max_galaxies=2).save(sputnik_endgame.cache_path())
        after = hint_of(type(game), dict(game.params), history, seat, 4, budget=0.05)
        assert after["note"] is None and after["action"] in state.legal_actions()
    finally:
        sputnik_endgame.forget_loaded_tables()


def test_a_sputnik_hint_over_the_socket_notes_the_missing_table_until_one_is_there(
    monkeypatch, tmp_path
):
    """The way a player asks: on a fresh server (no endgame table in its cache) a Sputnik
    hint is answered at once, by search, and its message says the table is missing; once a
    (small) table is in the cache, the next hint, asked the same way, reads it: no note."""
    from tminus.agents.solvers import sputnik_endgame
    from tminus.server import reviews
    from tminus.server.outbound import server_message

    monkeypatch.setenv("TMINUS_CACHE", str(tmp_path / "cache"))  # nothing built here
    # The hints process must read this cache: spawned afresh with this environment, not
    # forked from a fork server that an earlier test started with the environment it had.
    monkeypatch.setattr(reviews, "worker_context", lambda: multiprocessing.get_context("spawn"))
    with app_client(tmp_path / "games.db", hint_budget=0.05, hint_worlds=64) as client:
        game = create(client, [ADA, BEA], True, game="sputnik")
        path = f"/ws/games/{game['id']}"
        with client.websocket_connect(path) as a, client.websocket_connect(path) as b:
            sockets = (a, b)
            for seat, ws in enumerate(sockets):
                token = game["invites"][seat]["token"]
                ws.send_json({"type": "hello", "seat": seat, "token": token})

            def views_from(number: int) -> list[dict]:
                """Each seat's view of the first position in play from ``number`` on."""
                views = []
                for ws in sockets:
                    state = until(ws, "state")[0]
                    while state["status"] != "playing" or state["move_number"] < number:
                        state = until(ws, "state")[0]
                    views.append(state)
                return views

            def hint_for_the_mover(views: list[dict]) -> dict:
                """The hint the seat to move asks for, over its socket."""
                mover = views[0]["to_move"]
                state = views[mover]
                sockets[mover].send_json({"type": "hint", "move_number": state["move_number"]})
                hint = until(sockets[mover], "hint")[0]
                server_message.validate_python(hint)  # (note: part of the published message)
                assert hint["seat"] == mover and hint["move_number"] == state["move_number"]
                assert hint["action"] in [m["action"] for m in state["legal"]]
                return hint

            views = views_from(0)
            before = hint_for_the_mover(views)
            assert "endgame table is not built on this server" in (before["note"] or "")
            sputnik_endgame.build(radius=3, max_galaxies=2).save(sputnik_endgame.cache_path())
            mover, number = views[0]["to_move"], views[0]["move_number"]
            move = {"type": "move", "move_number": number, "action": before["action"]}
            sockets[mover].send_json(move)
            after = hint_for_the_mover(views_from(number + 1))
            assert after["note"] is None  # the table is found: nothing is missing
