"""Playing together (issue 14) in a real browser, two or three people each in their own
browser context: my games, turn alerts, chat, rematch, hot-seat, abandoned games, undo."""

from __future__ import annotations

import json
import time

import httpx

from .conftest import (
    DESKTOP,
    PHONE,
    create_game,
    horizontal_overflow,
    live_app,
    screenshot,
    serious_accessibility_problems,
)


def seat_page(server, new_page, invite, viewport=None):
    """A person's page, opened by their invite link (their browser holds the seat then)."""
    page = new_page(viewport)
    page.goto(server + invite["url"])
    page.wait_for_selector("#seats .seat.me")
    return page


# -- my games ------------------------------------------------------------------------------------
def test_my_games_lists_the_games_this_browser_holds_seats_in_and_marks_my_turn(server, new_page):
    game = create_game(server, "four_way", {"players": 2}, ["person:Ada", "person:Bea"])
    listed = create_game(server, "four_way", {"players": 2}, ["bot:random", "bot:random"])
    ada = seat_page(server, new_page, game["invites"][0])
    bea = seat_page(server, new_page, game["invites"][1])
    ada.wait_for_selector("#status.playing")  # both joined: it started
    first = ada.locator("#seats .to-move .seat-name").inner_text().removesuffix(" (you)")
    turns = {}
    for page in (ada, bea):
        page.goto(server + "/")
        row = page.locator(f"#my-games li[data-game='{game['id']}']")
        row.wait_for()
        turns[page] = row.get_attribute("class") == "your-turn"
        assert "playing" in row.inner_text().lower()
        if not turns[page]:
            assert f"{first} to play" in row.inner_text()
    assert sorted(turns.values()) == [False, True]  # exactly one of them is to play
    yours = ada if turns[ada] else bea
    assert "● your turn" in yours.locator("#my-games .your-turn").inner_text()
    # Someone else's browser holds no seat there: not in its games; and an unlisted game is
    # not in the public list (a bots-only game made through the API is unlisted too).
    other = new_page(PHONE)
    other.goto(server + "/")
    other.wait_for_selector("#my-games li.muted")
    other.wait_for_selector("#public-games li")
    ids = other.eval_on_selector_all("#public-games li", "ls => ls.map(l => l.dataset.game)")
    assert game["id"] not in ids and listed["id"] not in ids
    assert horizontal_overflow(other) <= 0
    screenshot(yours, "lobby-my-games")


def test_a_listed_game_in_play_is_in_the_public_list(server, new_page):
    page = new_page()
    page.goto(server + "/")
    page.click(".game-card[data-game=four_way]")
    page.select_option("[name=players]", "2")
    page.check("#listed")
    page.click("#create-game")
    page.click("#take-seat")  # against the lobby's bot: it starts at once
    page.wait_for_selector("#status.playing")
    game_id = page.url.split("/")[-1]
    watcher = new_page()
    watcher.goto(server + "/")
    watcher.wait_for_selector(f"#public-games li[data-game='{game_id}']")


# -- turn alerts -----------------------------------------------------------------------------------
HIDDEN_AND_NOTIFYING = """
Object.defineProperty(Document.prototype, 'hidden', { get: () => true });
window.notified = [];
window.Notification = class { static permission = 'granted';
  constructor(title, options) { window.notified.push([title, options.body]); } };
"""


def two_players(server, new_page, game_name="four_way", params=None, init_script=None):
    """Ada and Bea, each on their page, the game started: (pages by seat, the seat to move)."""
    game = create_game(server, game_name, params or {"players": 2}, ["person:Ada", "person:Bea"])
    pages = []
    for invite in game["invites"]:
        page = new_page()
        if init_script:
            page.add_init_script(init_script)
        page.goto(server + invite["url"])
        pages.append(page)
    to_move = pages[0].locator("#seats .seat.to-move")
    to_move.wait_for()
    return game, pages, int(to_move.get_attribute("data-seat"))


def test_the_title_sounds_and_notifications_say_when_it_becomes_your_turn(server, new_page):
    _, pages, mover = two_players(server, new_page, init_script=HIDDEN_AND_NOTIFYING)
    waiter = pages[1 - mover]
    pages[mover].wait_for_function("document.title === '● Your turn — T-minus'")
    assert waiter.title() == "4-Way CountDown · T-minus"
    # The sound is off until switched on, and the switch is remembered.
    assert not waiter.is_checked("#sound")
    waiter.check("#sound")
    waiter.reload()
    waiter.wait_for_selector("#sound:checked")
    pages[mover].locator(".move").first.click()
    waiter.wait_for_function("document.title === '● Your turn — T-minus'")
    pages[mover].wait_for_function("document.title === '4-Way CountDown · T-minus'")
    assert waiter.evaluate("window.tminusChimes") == 1
    assert pages[mover].evaluate("window.tminusChimes || 0") == 0  # its sound is off
    assert waiter.evaluate("window.notified") == [
        ["● Your turn — T-minus", "4-Way CountDown: it is your turn."]
    ]


# -- chat ----------------------------------------------------------------------------------------
def test_chat_goes_both_ways_to_spectators_too_escaped_and_mutable(server, new_page):
    game, (ada, bea), _ = two_players(server, new_page)
    eve = new_page(PHONE)
    eve.goto(server + game["spectate"])
    eve.wait_for_selector("#mute-chat")
    assert eve.locator("#chat-input").count() == 0  # spectators read only
    attack = "<script>window.pwned = 1</script><img src=x onerror=window.pwned=1>"
    ada.fill("#chat-input", attack)
    ada.press("#chat-input", "Enter")
    for page in (ada, bea, eve):
        line = page.locator("#chat li").last
        line.wait_for()
        assert line.inner_text() == f"Ada: {attack}"  # shown as text, never as HTML
        assert page.locator("#chat script, #chat img").count() == 0
        assert page.evaluate("window.pwned") is None
    bea.click(".reaction:text('Well played')")
    for page in (ada, bea, eve):
        page.wait_for_selector("#chat li:nth-child(2):has-text('Bea: Well played')")
    # Muted for one viewer (remembered there), still said to the others.
    eve.check("#mute-chat")
    assert eve.locator("#chat").is_hidden() and eve.locator("#chat-muted").is_visible()
    eve.reload()
    eve.wait_for_selector("#chat-muted")
    ada.fill("#chat-input", "third")
    ada.press("#chat-input", "Enter")
    bea.wait_for_selector("#chat li:nth-child(3):has-text('Ada: third')")
    assert eve.locator("#chat").is_hidden()
    assert horizontal_overflow(eve) <= 0
    eve.uncheck("#mute-chat")
    eve.wait_for_selector("#chat li:nth-child(3):has-text('Ada: third')")
    screenshot(eve, "chat-phone-390x844")


# -- rematch -------------------------------------------------------------------------------------
def test_play_again_moves_each_person_to_the_rematch_once_they_accept(server, new_page):
    game, (ada, bea), _ = two_players(server, new_page)
    ada.once("dialog", lambda dialog: dialog.accept())
    ada.click("#resign")
    bea.click("#play-again")
    bea.wait_for_url(lambda url: game["id"] not in url)
    rematch_id = bea.url.split("/")[-1]
    bea.wait_for_selector("#status.waiting")
    # Bea sat second: she sits first now, and starts.
    assert bea.locator("#seats .seat.me").get_attribute("data-seat") == "0"
    ada.click("#accept-rematch")
    ada.wait_for_url(f"**/game/{rematch_id}")
    for page in (ada, bea):
        page.wait_for_selector("#status.playing")
    assert ada.locator("#seats .seat.me .seat-name").inner_text() == "Ada (you)"
    assert ada.locator("#seats .seat.me").get_attribute("data-seat") == "1"
    assert "token" not in ada.url


# -- hot-seat ------------------------------------------------------------------------------------
def test_hot_seat_in_three_two_one_passes_the_device_and_never_shows_the_other_hand(
    server, new_page
):
    page = new_page(PHONE)
    frames = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: frames.append(frame)))
    page.goto(server + "/")
    page.click(".game-card[data-game=three_two_one]")
    page.select_option("[name=players]", "2")
    page.select_option("[name=kind-1]", "here")
    page.fill("#your-name", "Ada")
    page.click("#create-game")
    assert page.locator(".invite-link").count() == 0  # nobody to invite: both play here
    page.click("#take-seat")
    passes = 0
    for _ in range(6):
        page.wait_for_selector("#take-device, .move:not([disabled])")
        if page.locator("#take-device").is_visible():
            passes += 1
            assert page.locator("#table").is_hidden()
            assert page.locator("#board > *, #log > *, .move").count() == 0
            assert "Pass the device to" in page.inner_text("#pass")
            screenshot(page, "hot-seat-pass-phone-390x844")
            page.click("#take-device")
            page.wait_for_selector(".move:not([disabled])")
        me = page.locator("#seats .seat.me").get_attribute("data-seat")
        assert me == page.locator("#seats .seat.to-move").get_attribute("data-seat")
        page.locator(".move:not([disabled])").first.click()
    assert passes >= 2
    # Each view the device was sent was one of its two seats', and only that seat's hand.
    states = [m for m in map(json.loads, frames) if m.get("type") == "state"]
    assert {m["seat"] for m in states} == {0, 1}
    for m in states:
        if m["status"] == "playing":
            assert m["observation"]["seat"] == m["seat"]
            assert len(m["observation"]["hand"]) == m["observation"]["hand_sizes"][m["seat"]]


def open_seat_that_waits(server, new_page, game_name, init_script=""):
    """A phone holding both seats of a game whose lots are drawn (both joined elsewhere
    first), to be opened on the seat that is *not* to move. Returns the page, that seat's
    invite address and who starts."""
    game = create_game(server, game_name, {"players": 2}, ["person:Ada", "person:Bea"])
    for invite in game["invites"]:
        joined = new_page()
        joined.goto(server + invite["url"])
    joined.wait_for_selector("#status.playing")
    starts = int(joined.locator("#seats .seat.to-move").get_attribute("data-seat"))
    to_move, waiting = sorted(game["invites"], key=lambda invite: invite["seat"] != starts)
    page = new_page(PHONE)
    page.add_init_script(
        f"localStorage.setItem('tminus:hotseat:{game['id']}', "
        f"JSON.stringify([{{seat: {to_move['seat']}, token: '{to_move['token']}'}}]));"
        + init_script
    )
    return page, waiting["url"], starts


def test_a_hot_seat_board_game_knows_the_catalog_before_it_connects(server, new_page):
    """The catalog says which games hide cards. The page once opened its socket before
    reading it and, when the state came first, asked to pass the device in a board game
    (Sputnik) and stayed on that screen (CI caught it). It now reads the catalog once,
    and only then connects."""
    page, url, starts = open_seat_that_waits(
        server,
        new_page,
        "sputnik",
        "new MutationObserver(() => {"
        "  const pass = document.getElementById('pass');"
        "  if (pass && !pass.hidden) window.passShown = true;"
        "}).observe(document, {subtree: true, childList: true, attributes: true});",
    )
    events = []  # in the order the browser reports them
    page.on("response", lambda r: events.append("catalog") if "/api/catalog" in r.url else None)
    page.on("websocket", lambda ws: events.append("socket"))
    page.goto(server + url)
    page.wait_for_selector("#status.playing")
    page.wait_for_selector(f"#seats .seat.to-move[data-seat='{starts}'] :text('(you)')")
    assert page.locator(".move:not([disabled])").count() > 0
    assert page.evaluate("window.passShown") is None
    assert events == ["catalog", "socket"]
    screenshot(page, "hot-seat-sputnik-waiting-seat-opened-phone-390x844")


def test_the_players_panel_shows_every_name_whole_beside_a_score(server, new_page):
    """At 1280 px the side panel is narrow: "Bea (you)" beside "1 rocket flying" was cut to
    "Bea (y…"."""
    page, url, _ = open_seat_that_waits(server, new_page, "sputnik")
    page.set_viewport_size(DESKTOP)
    page.goto(server + url)
    page.wait_for_selector("#seats .seat.me .score")
    cut = page.eval_on_selector_all(
        "#seats .seat-name", "ns => ns.filter(n => n.scrollWidth > n.clientWidth).length"
    )
    assert cut == 0
    assert page.inner_text("#seats .seat.me .seat-name").endswith(" (you)")
    screenshot(page, "players-panel-desktop-1280x800")


def test_a_hot_seat_page_opened_on_the_pass_screen_names_its_game(server, new_page):
    page, url, _ = open_seat_that_waits(server, new_page, "three_two_one")
    page.goto(server + url)
    page.wait_for_selector("#take-device")
    assert page.inner_text("#title") == "3-2-1 Countdown"
    assert page.locator("#status.playing").is_visible()
    assert page.get_attribute("#rules-link", "href") == "/rules/three_two_one"
    screenshot(page, "hot-seat-pass-on-opening-phone-390x844")


# -- abandoned games -----------------------------------------------------------------------------
def test_a_game_nobody_started_expires_and_its_page_says_so(tmp_path, new_page):
    with live_app(tmp_path / "games.db", waiting_expiry=1.0) as url:
        game = create_game(url, "four_way", {"players": 2}, ["person:Ada", "person:Bea"])
        ada = new_page()
        ada.goto(url + game["invites"][0]["url"])
        ada.wait_for_selector("#status.expired")  # (within a second or so)
        assert "expired" in ada.inner_text("#banner")
        assert ada.locator("#start").count() == 0
        bea = new_page()
        bea.goto(url + game["invites"][1]["url"])
        bea.wait_for_selector("#status.expired")  # joining it later starts nothing
        assert httpx.get(f"{url}/api/games/{game['id']}").json()["status"] == "expired"


def test_the_others_let_a_bot_play_for_a_person_who_left(tmp_path, new_page):
    with live_app(tmp_path / "games.db", away_after=1.0) as url:
        people = ["person:Ada", "person:Bea", "person:Cy"]
        game = create_game(url, "four_way", {"players": 3}, people)
        ada, bea = (seat_page(url, new_page, invite) for invite in game["invites"][:2])
        ada.click("#start")  # Cy never came
        bea.wait_for_selector("#status.playing")
        # Bea asks alone: one of the two people here is not enough; the table says so.
        bea.click(".give-to-bot summary")
        bea.select_option("#left-seat", label="Cy")
        bea.select_option("#left-bot", index=1)
        bea.click("#give-to-bot")
        for page in (ada, bea):
            page.wait_for_selector("#chat li:has-text('Bea asks that')")
        assert "invited" in bea.inner_text("#seats .seat[data-seat='2'] .seat-kind")
        assert serious_accessibility_problems(bea) == []  # (the form open)
        # Ada made the game: she decides alone.
        ada.click(".give-to-bot summary")
        ada.select_option("#left-seat", label="Cy")
        ada.click("#give-to-bot")
        for page in (ada, bea):
            page.wait_for_selector("#chat li:has-text('Cy left;')")
            page.wait_for_selector("#seats .seat[data-seat='2'] .seat-kind:has-text('bot')")
        assert httpx.get(f"{url}/api/games/{game['id']}").json()["seats"][2]["kind"] == "bot"
        # It plays Cy's turns: the people play theirs until the bot has moved for Cy.
        export = f"{url}/api/games/{game['id']}/export"
        deadline = time.monotonic() + 30
        while not any(a["actor"] == 2 for a in httpx.get(export).json()["actions"]):
            assert time.monotonic() < deadline, "the bot never played for Cy"
            summary = httpx.get(f"{url}/api/games/{game['id']}").json()
            page = {0: ada, 1: bea}.get(summary["to_move"])
            if page is not None:
                page.locator(".move:not([disabled])").first.click()
                while (
                    httpx.get(f"{url}/api/games/{game['id']}").json()["move_number"]
                    == (summary["move_number"])
                ):
                    assert time.monotonic() < deadline, "the move was not made"
                    time.sleep(0.05)
            time.sleep(0.1)


def test_a_game_whose_people_all_left_pauses_and_goes_on_when_one_is_back(tmp_path, new_page):
    with live_app(tmp_path / "games.db", pause_after=600) as url:
        service, hub = url.app.state.service, url.app.state.hub
        game = create_game(url, "four_way", {"players": 2}, ["person:Ada", "bot:greedy"])
        summary = f"{url}/api/games/{game['id']}"
        ada = seat_page(url, new_page, game["invites"][0])
        ada.wait_for_selector("#status.playing")
        # Longer than --pause-after, with Ada's page open: the chores' rounds, made now (the
        # presence renewed, the abandoned games paused), pause nothing.
        service.store.clock.advance(900)
        url.run(lambda: service.renew_seen(hub.present()))
        assert url.run(service.pause_abandoned, 600) == []
        assert httpx.get(summary).json()["paused"] is False
        eve = new_page()
        eve.goto(url + game["spectate"])
        ada.close()

        async def here() -> list:
            return hub.present()

        deadline = time.monotonic() + 10
        while (game["id"], 0) in url.run(here):  # (until the server has seen her go)
            assert time.monotonic() < deadline, "Ada's socket is still open"
            time.sleep(0.02)
        service.store.clock.advance(900)
        assert url.run(service.pause_abandoned, 600) == [game["id"]]
        eve.wait_for_selector("#banner.paused")
        assert "Paused" in eve.inner_text("#banner")
        assert serious_accessibility_problems(eve) == []
        assert httpx.get(summary).json()["paused"] is True
        ada = seat_page(url, new_page, game["invites"][0])
        ada.wait_for_selector("#status.playing")
        for page in (ada, eve):
            page.wait_for_selector("#banner:not(.paused)")
        assert httpx.get(summary).json()["paused"] is False
