"""Playing over days in the browser (issue 37): accounts, the seats they hold on every device,
rated games, the player's page and the leaderboard, and the clocks of the table.

Two people sign up in their own browsers and play a rated game; the second signs in on a
third device and finds the game there, in their seat. The account, player and leaderboard
pages fit a phone, pass axe-core, and are kept as screenshots in docs/screenshots.
"""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tminus.server.app import act_on_timeouts, rate_finished

from .conftest import (
    DESKTOP,
    PHONE,
    ROOT,
    horizontal_overflow,
    live_app,
    serious_accessibility_problems,
)

PASSWORD = "correct horse"
SCREENSHOTS = ROOT / "docs" / "screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app, with room for the many people these tests sign up and in from one address
    (a server allows 5 a minute from one address by default)."""
    with live_app(tmp_path_factory.mktemp("accounts") / "games.db", sign_ins_per_minute=600) as url:
        yield url


def unique(name: str) -> str:
    """A name no other test of this server took (the server lives for the module)."""
    return f"{name} {secrets.token_hex(2)}"


def fits_the_screen(page) -> bool:
    """No sideways scroll, and no zooming out either: a phone's browser widens its layout
    viewport to fit a page too wide (then innerWidth grows, and nothing seems to overflow)."""
    return (
        horizontal_overflow(page) <= 0
        and page.evaluate("innerWidth") == page.viewport_size["width"]
    )


def keep_screenshot(page, name: str) -> Path:
    """The page as a player sees it, kept where the README shows it (docs/screenshots)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def sign_up_in_browser(page, server: str, name: str) -> None:
    page.goto(server + "/account")
    page.fill("#sign-up-name", name)
    page.fill("#sign-up-password", PASSWORD)
    page.click("#sign-up-submit")
    page.wait_for_selector("#account-name")
    assert page.inner_text("#account-link") == name


def sign_in_in_browser(page, server: str, name: str, password: str = PASSWORD) -> None:
    page.goto(server + "/account")
    page.fill("#sign-in-name", name)
    page.fill("#sign-in-password", password)
    page.click("#sign-in-submit")


def account_games(page, server: str) -> list[dict]:
    """The games the account signed in on this page holds (its cookie, through the page)."""
    return page.request.get(server + "/api/account/games").json()


def wait_until_held(page, server: str, game_id: str, seat: int) -> None:
    page.wait_for_function(
        """async ([game, seat]) => {
            const games = await (await fetch('/api/account/games')).json();
            return games.some(g => g.id === game && g.held.some(h => h.seat === seat));
        }""",
        arg=[game_id, seat],
        polling=200,
    )


class Person:
    """Someone with an account, through the API (their own cookies)."""

    def __init__(self, server: str, name: str) -> None:
        self.name = name
        self.http = httpx.Client(base_url=server)
        answer = self.http.post("/api/account", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        self.csrf = answer.json()["csrf"]

    def hold(self, game_id: str, invite: dict) -> None:
        body = {"game": game_id, "seat": invite["seat"], "token": invite["token"]}
        answer = self.http.post(
            "/api/account/seats", json=body, headers={"X-CSRF-Token": self.csrf}
        )
        assert answer.status_code == 204, answer.text


def states_until(socket, done) -> dict:
    while True:
        message = json.loads(socket.recv(timeout=20))
        if message.get("type") == "state" and done(message):
            return message


def rated_game(server: str, game: str, winner: Person, loser: Person) -> str:
    """A rated game of two that ``loser`` resigns, rated at once: its id."""
    seats = [{"kind": "person", "name": winner.name}, {"kind": "person", "name": loser.name}]
    body = {"game": game, "params": {"players": 2}, "seats": seats, "rated": True}
    made = httpx.post(server + "/api/games", json=body).json()
    won, lost = made["invites"]
    winner.hold(made["id"], won)
    loser.hold(made["id"], lost)
    address = server.replace("http://", "ws://") + f"/ws/games/{made['id']}"
    with connect(address) as first, connect(address) as second:
        first.send(json.dumps({"type": "hello", "seat": 0, "token": won["token"]}))
        second.send(json.dumps({"type": "hello", "seat": 1, "token": lost["token"]}))
        states_until(second, lambda m: m["status"] == "playing")
        second.send(json.dumps({"type": "resign"}))
        states_until(second, lambda m: m["status"] == "finished")
    server.run(rate_finished, server.app.state.store)
    return made["id"]


@pytest.fixture(scope="module")
def rated_history(server):
    """Ada's rated games: three of 4-Way (two won) and two of Sputnik against Grace (names
    only this fixture takes, once for its server: they show in the screenshots)."""
    ada, bob = Person(server, "Ada Lovelace"), Person(server, "Grace Hopper")
    for game, winner in [("four_way", ada), ("four_way", bob), ("four_way", ada),
                         ("sputnik", ada), ("sputnik", ada)]:  # fmt: skip
        rated_game(server, game, winner, bob if winner is ada else ada)
    return ada, bob


# -- signing up and in ------------------------------------------------------------------------
def test_a_rated_game_with_a_friend_follows_each_to_their_other_devices(server, new_page):
    ada_name, bob_name = unique("Ada"), unique("Bob")
    ada = new_page(DESKTOP)
    sign_up_in_browser(ada, server, ada_name)
    ada.goto(server + "/")
    ada.click(".game-card[data-game=four_way]")
    ada.select_option("[name=players]", "2")
    ada.select_option("[name=kind-1]", "person")
    ada.wait_for_function(f"document.querySelector('#your-name').value === {ada_name!r}")
    # Rated: no take-backs, no hints (the ticks are off and cannot be set).
    ada.check("#rated")
    for tick in ("#undo", "#hints"):
        assert ada.is_disabled(tick) and not ada.is_checked(tick)
    ada.click("#create-game")
    invite = ada.get_attribute("#invite-1", "value")
    game_id = invite.split("/game/")[1].split("#")[0]
    made = httpx.get(f"{server}/api/games/{game_id}").json()
    assert made["rated"] and not made["undo"]  # (and no hints: the server refuses both)
    wait_until_held(ada, server, game_id, 0)  # the creator's seat follows the account
    ada.click("#take-seat")
    ada.wait_for_selector("#rated-badge:not([hidden])")

    # Bob signs up on his phone and opens his invite: the seat is his account's, and takes
    # his name ("Player 2" was only the invite's).
    bob = new_page(PHONE)
    sign_up_in_browser(bob, server, bob_name)
    bob.goto(invite)
    bob.wait_for_selector("#board > *")
    wait_until_held(bob, server, game_id, 1)
    ada.wait_for_function(f"document.querySelector('#seats').textContent.includes({bob_name!r})")
    assert fits_the_screen(bob)

    # On a third device Bob signs in: the game is in his games, and its link seats him.
    tablet = new_page(PHONE)
    sign_in_in_browser(tablet, server, bob_name.upper())  # (a name's case does not matter)
    tablet.wait_for_selector("#account-name")
    tablet.goto(server + "/")
    row = tablet.locator(f"#my-games li[data-game='{game_id}']")
    row.wait_for()
    assert f"you: {bob_name}" in row.inner_text()
    assert re.search(r"#seat=1&token=", row.locator("a").get_attribute("href"))
    row.locator("a").click()
    tablet.wait_for_selector("#seats .seat.me[data-seat='1']")
    assert "#" not in tablet.url  # (the seat's secret left the address bar)


def test_a_wrong_sign_in_or_sign_up_shows_the_servers_words(server, new_page):
    page = new_page(PHONE)
    sign_in_in_browser(page, server, unique("Nobody"), "wrong password")
    message = page.locator("#sign-in-message.error")
    message.wait_for()
    assert message.text_content() == "wrong name or password"
    assert page.inner_text("#account-link") == "Sign in"
    page.fill("#sign-up-name", unique("Eve"))
    page.fill("#sign-up-password", "short")
    page.click("#sign-up-submit")
    page.wait_for_selector("#sign-up-message.error")
    assert "8 to 128 characters" in page.text_content("#sign-up-message")
    assert page.locator("#account-name").count() == 0


def test_the_account_is_changed_exported_signed_out_and_deleted(server, new_page):
    name = unique("Cleo")
    page = new_page(PHONE)
    sign_up_in_browser(page, server, name)
    page.fill("#email", "cleo@example.org")
    page.check("#reminders")
    page.click("#details-submit")
    page.wait_for_selector("#details-message.ok")
    me = page.request.get(server + "/api/account").json()
    assert me["email"] == "cleo@example.org" and me["reminders"] is True
    exported = page.request.get(server + page.get_attribute("#export", "href")).json()
    assert exported["account"]["name"] == name
    page.click("#sign-out")
    page.wait_for_selector("#sign-in")
    assert page.inner_text("#account-link") == "Sign in"
    assert page.request.get(server + "/api/account").status == 401
    sign_in_in_browser(page, server, name)
    page.wait_for_selector("#account-name")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#delete-title")
    page.fill("#delete-password", "not the password")
    page.click("#delete-submit")
    page.wait_for_selector("#delete-message.error")
    assert page.text_content("#delete-message") == "the password is wrong"
    page.fill("#delete-password", PASSWORD)
    page.click("#delete-submit")
    page.wait_for_selector("#sign-in")
    assert page.inner_text("#account-notice") == "Your account is deleted."
    assert httpx.get(f"{server}/api/players/{name}").status_code == 404


def test_the_new_pages_work_under_the_security_policy(server, strict_page):
    """The account, leaderboard and player pages and the rules' links obey the server's CSP
    (the other tests bypass it: axe-core and Playwright's predicates are scripts it refuses)."""
    page, refused = strict_page
    page.goto(server + "/account")
    page.locator("#sign-up").wait_for()
    page.goto(server + "/leaderboard")
    page.locator("#standings > *").wait_for()
    page.goto(server + "/player/nobody")
    page.locator(".problem-panel").wait_for()
    page.goto(server + "/rules/four_way")
    page.locator("#account-link[href^='/account?next=']").wait_for()
    assert refused == []


# -- the pages: a phone and a desktop, axe-core, screenshots ----------------------------------
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_account_player_and_leaderboard_pages_fit_and_read_well(
    server, new_page, rated_history, size
):
    ada, bob = rated_history
    page = new_page(PHONE if size == "phone" else DESKTOP)
    page.goto(server + "/account")
    page.wait_for_selector("#sign-up")
    assert fits_the_screen(page)
    assert serious_accessibility_problems(page) == []
    keep_screenshot(page, f"sign-in-{size}")
    sign_in_in_browser(page, server, ada.name)
    page.wait_for_selector("#account-name")
    page.click("#delete-title")  # (its form open: checked too)
    assert fits_the_screen(page)
    assert serious_accessibility_problems(page) == []
    keep_screenshot(page, f"account-{size}")

    # Ada's page: her ratings, a line per game in the chart, her games with her places.
    page.goto(f"{server}/player/{ada.name}")
    page.wait_for_selector(".rating-chart")
    assert fits_the_screen(page)
    assert serious_accessibility_problems(page) == []
    ratings = page.eval_on_selector_all(
        "#ratings-title ~ * tbody tr", "rows => rows.map(r => r.innerText)"
    )
    assert len(ratings) == 2 and any("4-Way CountDown" in r for r in ratings)
    assert page.locator(".rating-chart path.rating-line").count() == 2
    assert page.locator(".rating-chart circle").count() == 5
    assert "4-Way CountDown, 2 players" in page.text_content(".rating-chart desc")
    places = page.eval_on_selector_all(".games-table td.place", "cs => cs.map(c => c.innerText)")
    assert sorted(places) == ["1st", "1st", "1st", "1st", "2nd"]
    keep_screenshot(page, f"player-{size}")

    # The leaderboard: chosen by game and players; its names lead to their pages.
    page.goto(f"{server}/leaderboard?game=four_way&players=2")
    page.wait_for_selector(".standings")
    names = page.eval_on_selector_all(".standings td.name", "cs => cs.map(c => c.innerText)")
    assert ada.name in names and bob.name in names
    assert names.index(ada.name) < names.index(bob.name)  # (two wins to one)
    assert fits_the_screen(page)
    assert serious_accessibility_problems(page) == []
    keep_screenshot(page, f"leaderboard-{size}")
    page.select_option("#game", "sputnik")
    page.wait_for_url(re.compile(r"game=sputnik&players=2"))
    page.locator(".standings td.name", has_text=ada.name).wait_for()
    page.click(f".standings a:text-is('{ada.name}')")
    page.wait_for_url(re.compile(r"/player/"))
    page.wait_for_selector(".rating-chart")


def test_a_player_nobody_is_gets_a_page_that_says_so(server, new_page):
    page = new_page(PHONE)
    page.goto(f"{server}/player/{unique('Nobody')}")
    page.wait_for_selector("h1:text('Player not found')")
    assert "nobody is called" in page.inner_text("#player")
    assert serious_accessibility_problems(page) == []


def test_the_lobby_makes_rated_and_clocked_games_readable_on_a_phone(server, new_page):
    page = new_page(PHONE)
    page.goto(server + "/")
    page.wait_for_selector(".game-card")
    page.check("input[name=pace][value=turn]")
    page.wait_for_selector("#turn-fields:not([hidden])")
    # When time runs out: the game's bot levels (the medium one first chosen), or resign.
    catalog = {g["name"]: g for g in httpx.get(server + "/api/catalog").json()}
    levels = catalog["four_way"]["bots_by_players"]["2"]
    offered = page.eval_on_selector_all("#on-timeout option", "os => os.map(o => o.value)")
    assert offered == [level["spec"] for level in levels] + ["resign"]
    assert page.input_value("#on-timeout") == levels[1]["spec"]
    page.check("#rated")
    assert page.is_disabled("#undo") and page.is_disabled("#hints")
    page.uncheck("#rated")
    assert not page.is_disabled("#undo") and not page.is_disabled("#hints")
    assert fits_the_screen(page)
    assert serious_accessibility_problems(page) == []
    page.check("input[name=pace][value=fischer]")
    page.wait_for_selector("#fischer-fields:not([hidden])")
    assert fits_the_screen(page)


# -- clocks (they need the server's clock API) --------------------------------------------------
def test_the_lobby_sends_the_clock_chosen(server, new_page):
    page = new_page(DESKTOP)
    page.goto(server + "/")
    page.click(".game-card[data-game=four_way]")
    page.select_option("[name=players]", "2")
    page.check("input[name=pace][value=turn]")
    page.select_option("#per-move", "3600")
    page.select_option("#reserve", "259200")
    page.select_option("#on-timeout", "resign")
    page.click("#create-game")
    spectate = page.get_attribute("#spectate-link", "href")
    made = httpx.get(server + "/api/games/" + spectate.split("/game/")[1]).json()
    assert made["clock"] == {
        "kind": "turn", "per_move": 3600, "reserve": 259200, "on_timeout": "resign"
    }  # fmt: skip
    page.goto(server + "/")
    page.click(".game-card[data-game=four_way]")
    page.check("input[name=pace][value=fischer]")
    page.fill("#minutes", "3")
    page.fill("#increment", "2")
    page.click("#create-game")
    spectate = page.get_attribute("#spectate-link", "href")
    made = httpx.get(server + "/api/games/" + spectate.split("/game/")[1]).json()
    assert made["clock"] == {
        "kind": "fischer", "minutes": 3, "increment": 2, "on_timeout": "greedy"
    }  # fmt: skip


def test_the_table_counts_down_the_clock_of_the_seat_to_move(server, new_page):
    clock = {"kind": "fischer", "minutes": 5, "increment": 0, "on_timeout": "resign"}
    seats = [{"kind": "person", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
    body = {"game": "four_way", "params": {"players": 2}, "seats": seats, "clock": clock}
    made = httpx.post(server + "/api/games", json=body).json()
    page = new_page(PHONE)
    page.goto(server + made["invites"][0]["url"])
    page.wait_for_selector("#clocks:not([hidden]) .clock.running")
    assert page.locator("#clocks .clock").count() == 2
    running = page.locator("#clocks .clock.running .clock-time")
    first = running.inner_text()
    assert re.fullmatch(r"\d:\d\d", first), first
    page.wait_for_function(
        "t => document.querySelector('#clocks .clock.running .clock-time')?.innerText !== t",
        arg=first,
    )
    assert "Live clock: 5 min + 0 s a move" in page.inner_text("#clock-words")
    assert fits_the_screen(page)
    assert serious_accessibility_problems(page) == []


def test_a_bot_standing_in_for_a_person_out_of_time_is_named(server, new_page):
    """Turn-based, an hour a move: the person to move lets it run out; the game's medium bot
    plays for them until they are back, and the table says so."""
    clock = {"kind": "turn", "per_move": 3600, "reserve": 0, "on_timeout": "greedy"}
    seats = [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bob"}]
    body = {"game": "four_way", "params": {"players": 2}, "seats": seats, "clock": clock}
    made = httpx.post(server + "/api/games", json=body).json()
    address = server.replace("http://", "ws://") + f"/ws/games/{made['id']}"
    with connect(address) as ada, connect(address) as bob:
        for socket, invite in ((ada, made["invites"][0]), (bob, made["invites"][1])):
            hello = {"type": "hello", "seat": invite["seat"], "token": invite["token"]}
            socket.send(json.dumps(hello))
        late = states_until(bob, lambda m: m["status"] == "playing" and m["to_move"] is not None)
    name = seats[late["to_move"]]["name"]
    page = new_page(PHONE)
    page.goto(server + made["spectate"])
    page.wait_for_selector(f"#clocks .clock.running[data-seat='{late['to_move']}']")
    server.app.state.store.clock.advance(2 * 3600)
    server.run(act_on_timeouts, server.app.state)
    stand_in = page.locator("#seats .stand-in")
    stand_in.wait_for()
    assert stand_in.inner_text() == f"Greedy (medium) plays for {name} until they are back"
    assert "away" in page.inner_text(f"#clocks .clock[data-seat='{late['to_move']}']")
