"""Accounts (issue 37): signing up and in, sessions that are HttpOnly cookies, CSRF, the
seats an account holds on every device, renaming, export and deletion; and every bad input
refused with a clear message and nothing changed."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tminus.server.app import create_app
from tminus.server.limits import Limits
from tminus.server.store_accounts import FORMER

PASSWORD = "correct horse"


def app_client(path, **limits):
    limits = {"messages_per_second": 0, **limits}
    return TestClient(create_app(f"sqlite:///{path}", 0.0, limits=Limits(**limits)))


@pytest.fixture
def client(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        yield client


def sign_up(client, name="Ada", password=PASSWORD, **more):
    response = client.post("/api/account", json={"name": name, "password": password, **more})
    assert response.status_code == 201, response.text
    return response.json()["csrf"]


def second_device(client) -> TestClient:
    """Another browser on the same server: no cookies of the first."""
    other = TestClient(client.app)
    other.portal = client.portal  # (the app's own event loop)
    return other


def call(client, function, *args):
    return client.portal.call(function, *args)


def new_game(client, **extra):
    seats = [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bob"}]
    body = {"game": "four_way", "params": {"players": 2}, "seats": seats, **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def accounts_stored(client) -> int:
    from sqlalchemy import func, select

    from tminus.server.store_rows import AccountRow

    store = client.app.state.store

    async def count():
        async with store.engine.connect() as connection:
            return await connection.scalar(select(func.count()).select_from(AccountRow))

    return call(client, count)


def test_sign_up_signs_in_with_an_http_only_same_site_cookie_and_a_hashed_password(client):
    response = client.post("/api/account", json={"name": "Ada", "password": PASSWORD})
    assert response.status_code == 201
    cookie = response.headers["set-cookie"]
    assert "tminus_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # (plain HTTP here: a browser would drop a Secure cookie)
    me = client.get("/api/account").json()
    assert me["name"] == "Ada" and me["csrf"] == response.json()["csrf"]
    account = call(client, client.app.state.store.account_named, "ada")
    assert account.password_hash.startswith("$argon2id$") and PASSWORD not in account.password_hash


def test_a_session_cookie_is_secure_over_https(tmp_path):
    with app_client(tmp_path / "games.db") as plain:
        secure = TestClient(plain.app, base_url="https://testserver")
        secure.portal = plain.portal
        response = secure.post("/api/account", json={"name": "Ada", "password": PASSWORD})
        assert response.status_code == 201
        assert "Secure" in response.headers["set-cookie"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"name": "x" * 25, "password": PASSWORD}, "at most 24 characters"),
        ({"name": "ß" * 24, "password": PASSWORD}, "at most 24 characters"),  # ("ss" each)
        ({"name": "", "password": PASSWORD}, "cannot be empty"),
        ({"name": "<script>", "password": PASSWORD}, "letters and digits"),
        ({"name": "Ada", "password": "short"}, "8 to 128 characters"),
        ({"name": "Ada", "password": PASSWORD, "email": "not-an-address"}, "e-mail"),
        ({"name": "Ada", "password": PASSWORD, "admin": True}, "malformed"),
    ],
)
def test_a_bad_sign_up_is_refused_clearly_and_makes_nothing(client, body, words):
    response = client.post("/api/account", json=body)
    assert response.status_code == 400
    assert words in response.json()["message"]
    assert accounts_stored(client) == 0
    assert "set-cookie" not in response.headers


def test_a_name_taken_whatever_its_case_is_refused(client):
    sign_up(client, "Ada Lovelace")
    other = second_device(client)
    response = other.post("/api/account", json={"name": "ada  LOVELACE", "password": PASSWORD})
    assert response.status_code == 409
    assert "taken" in response.json()["message"]
    assert accounts_stored(client) == 1


def test_sign_in_on_another_device_and_a_wrong_password_is_refused(client):
    sign_up(client)
    other = second_device(client)
    wrong = other.post("/api/session", json={"name": "Ada", "password": "wrong password"})
    unknown = other.post("/api/session", json={"name": "Nobody", "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json()["message"] == unknown.json()["message"] == "wrong name or password"
    assert other.get("/api/account").status_code == 401
    right = other.post("/api/session", json={"name": "ADA", "password": PASSWORD})
    assert right.status_code == 200 and other.get("/api/account").json()["name"] == "Ada"


def test_sign_in_attempts_are_rate_limited(tmp_path):
    with app_client(tmp_path / "games.db", sign_ins_per_minute=3) as client:
        sign_up(client)
        other = second_device(client)
        answers = [
            other.post("/api/session", json={"name": "Ada", "password": "wrong password"})
            for _ in range(4)
        ]
        assert [a.status_code for a in answers] == [401, 401, 401, 429]
        assert int(answers[-1].headers["Retry-After"]) >= 1
        # The right password waits too: guessing is as slow as the limit.
        late = other.post("/api/session", json={"name": "Ada", "password": PASSWORD})
        assert late.status_code == 429 and other.get("/api/account").status_code == 401


def test_sign_ups_from_one_address_are_rate_limited(tmp_path):
    with app_client(tmp_path / "games.db", sign_ins_per_minute=3) as client:
        answers = [
            second_device(client).post(
                "/api/account", json={"name": f"Person {n}", "password": PASSWORD}
            )
            for n in range(4)
        ]
        assert [a.status_code for a in answers] == [201, 201, 201, 429]
        assert accounts_stored(client) == 3


def test_forged_and_expired_sessions_are_refused(client):
    sign_up(client)
    forged = second_device(client)
    forged.cookies.set("tminus_session", "forged-cookie-value")
    assert forged.get("/api/account").status_code == 401
    assert forged.get("/api/account").json()["message"].startswith("you are not signed in")
    client.app.state.store.clock.advance(31 * 86_400)  # (sessions last 30 days)
    assert client.get("/api/account").status_code == 401


def test_a_change_without_the_csrf_token_is_refused_and_changes_nothing(client):
    csrf = sign_up(client)
    response = client.patch("/api/account", json={"name": "Eve"})
    assert response.status_code == 403 and "CSRF" in response.json()["message"]
    forged = client.patch("/api/account", json={"name": "Eve"}, headers={"X-CSRF-Token": "x"})
    assert forged.status_code == 403
    assert client.get("/api/account").json()["name"] == "Ada"
    renamed = client.patch("/api/account", json={"name": "Ada K"}, headers={"X-CSRF-Token": csrf})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Ada K"
    assert client.delete("/api/session").status_code == 403  # (signing out needs it too)


def test_renaming_to_a_taken_or_over_long_name_is_refused(client):
    sign_up(second_device(client), "Bob")
    csrf = sign_up(client)
    for name, status in (("BOB", 409), ("y" * 30, 400)):
        response = client.patch("/api/account", json={"name": name}, headers={"X-CSRF-Token": csrf})
        assert response.status_code == status
    assert client.get("/api/account").json()["name"] == "Ada"


def test_a_new_password_needs_the_current_one_and_signs_other_devices_out(client):
    csrf = sign_up(client)
    other = second_device(client)
    other.post("/api/session", json={"name": "Ada", "password": PASSWORD})
    headers = {"X-CSRF-Token": csrf}
    wrong = client.patch(
        "/api/account", json={"password": "guess guess", "new_password": "new secret"},
        headers=headers,
    )  # fmt: skip
    assert wrong.status_code == 401 and other.get("/api/account").status_code == 200
    right = client.patch(
        "/api/account", json={"password": PASSWORD, "new_password": "new secret"}, headers=headers
    )
    assert right.status_code == 200
    assert other.get("/api/account").status_code == 401
    assert client.get("/api/account").status_code == 200  # (this device stays in)
    again = second_device(client)
    assert again.post("/api/session", json={"name": "Ada", "password": "new secret"}).is_success


def test_a_held_seat_follows_the_account_to_another_device(client):
    csrf = sign_up(client)
    game = new_game(client)
    ada = game["invites"][0]
    wrong = client.post(
        "/api/account/seats", json={"game": game["id"], "seat": 0, "token": "not-the-token"},
        headers={"X-CSRF-Token": csrf},
    )  # fmt: skip
    assert wrong.status_code == 403
    held = client.post(
        "/api/account/seats", json={"game": game["id"], "seat": 0, "token": ada["token"]},
        headers={"X-CSRF-Token": csrf},
    )  # fmt: skip
    assert held.status_code == 204
    phone = second_device(client)
    assert phone.get("/api/account/games").status_code == 401
    phone.post("/api/session", json={"name": "Ada", "password": PASSWORD})
    [mine] = phone.get("/api/account/games").json()
    assert mine["id"] == game["id"]
    assert mine["held"] == [{"seat": 0, "url": ada["url"]}]


def test_a_seat_another_account_holds_cannot_be_taken(client):
    game = new_game(client)
    ada = game["invites"][0]
    body = {"game": game["id"], "seat": 0, "token": ada["token"]}
    csrf = sign_up(client)
    assert client.post("/api/account/seats", json=body, headers={"X-CSRF-Token": csrf}).is_success
    eve = second_device(client)
    eve_csrf = sign_up(eve, "Eve")
    taken = eve.post("/api/account/seats", json=body, headers={"X-CSRF-Token": eve_csrf})
    assert taken.status_code == 403 and "another account" in taken.json()["message"]
    assert eve.get("/api/account/games").json() == []


def test_export_and_deletion(client):
    csrf = sign_up(client, email="ada@example.org")
    game = new_game(client)
    ada = game["invites"][0]
    client.post(
        "/api/account/seats", json={"game": game["id"], "seat": 0, "token": ada["token"]},
        headers={"X-CSRF-Token": csrf},
    )  # fmt: skip
    exported = client.get("/api/account/export").json()
    assert exported["account"]["email"] == "ada@example.org"
    assert [g["id"] for g in exported["games"]] == [game["id"]]
    headers = {"X-CSRF-Token": csrf}
    wrong = client.request("DELETE", "/api/account", json={"password": "nope"}, headers=headers)
    assert wrong.status_code == 401 and accounts_stored(client) == 1
    gone = client.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=headers)
    assert gone.status_code == 204 and accounts_stored(client) == 0
    seats = client.get(f"/api/games/{game['id']}").json()["seats"]
    assert seats[0]["name"] == FORMER and seats[1]["name"] == "Bob"
    assert client.get("/api/account").status_code == 401
    again = client.post("/api/session", json={"name": "Ada", "password": PASSWORD})
    assert again.status_code == 401
    assert client.get("/api/players/Ada").status_code == 404


def test_the_unsubscribe_link_asks_first_and_the_button_unsubscribes(client):
    sign_up(client, email="ada@example.org", reminders=True)
    account = call(client, client.app.state.store.account_named, "ada")
    token = call(client, unsubscribe_token, client, account.id)
    page = client.get(f"/unsubscribe/{token}")
    assert page.status_code == 200 and 'method="post"' in page.text
    assert client.get("/api/account").json()["reminders"] is True  # (opening changed nothing)
    done = client.post(f"/unsubscribe/{token}")
    assert done.status_code == 200 and "no more e-mails" in done.text
    assert client.get("/api/account").json()["reminders"] is False
    assert client.post("/unsubscribe/not-a-link").status_code == 404


async def unsubscribe_token(client, account_id: str) -> str:
    from sqlalchemy import select

    from tminus.server.store_rows import AccountRow

    async with client.app.state.store.engine.connect() as connection:
        return await connection.scalar(
            select(AccountRow.unsubscribe).where(AccountRow.id == account_id)
        )


def test_in_a_rated_game_an_account_holds_one_seat(client):
    csrf = sign_up(client)
    game = new_game(client, rated=True)
    headers = {"X-CSRF-Token": csrf}
    first, second = ({"game": game["id"], "seat": i["seat"], "token": i["token"]}
                     for i in game["invites"])  # fmt: skip
    assert client.post("/api/account/seats", json=first, headers=headers).status_code == 204
    refused = client.post("/api/account/seats", json=second, headers=headers)
    assert refused.status_code == 403 and "one seat" in refused.json()["message"]
