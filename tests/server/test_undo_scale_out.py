"""Undo on two real `tminus serve` processes sharing one PostgreSQL (skipped without a
test PostgreSQL, like test_scale_out.py): a take-back's last yes on one process and
the asker's next move on the other, sent at once, again and again. Exactly one of the two
succeeds each time, and both processes end with the same game, which verifies."""

from __future__ import annotations

from collections import Counter

from .test_scale_out import pytestmark, servers, sit, state_where  # noqa: F401

PERSON = {"kind": "person"}


def test_a_take_back_and_a_move_raced_on_two_processes_one_of_them_succeeds(servers):  # noqa: F811
    a, b = servers()
    response = a.post("/api/games", {"game": "sputnik", "seats": [PERSON, PERSON]})
    assert response.status_code == 201, response.text
    game = response.json()
    sockets = [[sit(a, game, seat), sit(b, game, seat)] for seat in (0, 1)]
    watcher = sockets[0][0]
    outcomes: Counter[str] = Counter()
    state = state_where(watcher, lambda m: m["status"] == "playing")
    while sum(outcomes.values()) < 16 and state["status"] == "playing":
        number = state["move_number"]
        asker = state["may_take_back"]
        if asker is None:  # play on until a move may be taken back
            mover = sockets[state["to_move"]][0]
            view = state_where(mover, lambda m, n=number: m["move_number"] >= n)
            mover.send({"type": "move", "move_number": number,
                        "action": view["legal"][0]["action"]})  # fmt: skip
            state = state_where(watcher, lambda m, n=number: m["move_number"] > n)
            continue
        # The one to move moves on a; the other person says yes on b.
        to_move = state["to_move"]
        moving, answering = sockets[to_move][0], sockets[1 - asker][1]
        sockets[asker][0].send({"type": "take_back", "move_number": number})
        for client in (sockets[asker][0], answering):  # (its handler is done once told)
            asked = client.until(lambda m: m.get("type") == "chat" and "asks" in str(m))
            assert asked["messages"][-1]["seat"] is None
        state_where(answering, lambda m, n=number: m["move_number"] == n and m["take_back"])
        view = state_where(moving, lambda m, n=number: m["move_number"] == n and m["take_back"])
        race = [
            (moving, {"type": "move", "move_number": number,
                      "action": view["legal"][0]["action"]}),
            (answering, {"type": "take_back_answer", "move_number": number, "accept": True}),
        ]  # fmt: skip
        if sum(outcomes.values()) % 2:
            race.reverse()  # each goes first in turn
        for client, message in race:
            client.send(message)
            client.send({"type": "ping"})  # answered after the message is
        refused = []
        for client, _ in race:
            seen = len(client.messages)
            client.until(lambda m: m.get("type") == "pong")
            refused += [m for m in client.messages[seen:] if m.get("type") == "error"]
        assert len(refused) == 1, refused  # never both, never neither
        assert refused[0]["code"] in ("stale", "bad_state"), refused
        state = state_where(watcher, lambda m, n=number: m["move_number"] > n)
        export = b.get(f"/api/games/{game['id']}/export")
        row = export["actions"][number]
        outcomes["taken back" if row.get("take_back") else "moved"] += 1
        assert row["actor"] == (asker if row.get("take_back") else to_move)
    # Which one wins is up to the two processes' timing (on a loaded machine one side can win
    # every race): each race above had exactly one winner, and the game played on.
    assert sum(outcomes.values()) >= 4, outcomes
    # Both processes have the same game as the store; it verifies once over.
    sockets[0][0].send({"type": "resign"})
    for client in (sockets[0][0], sockets[1][1]):
        state_where(client, lambda m: m["status"] == "finished")
    exports = [server.get(f"/api/games/{game['id']}/export") for server in (a, b)]
    assert exports[0]["actions"] == exports[1]["actions"]
    verified = a.get(f"/api/games/{game['id']}/verify")
    assert verified["ok"] and verified["taken_back"] == outcomes["taken back"], verified
    for pair in sockets:
        for client in pair:
            client.close()
