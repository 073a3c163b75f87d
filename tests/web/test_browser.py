"""A person plays in a real browser: lobby, board clicks, invites, result, replay, fairness."""

from __future__ import annotations

import re
import time

import httpx
import pytest

from tests.server.secret_game import WORDS
from tminus.core.registry import list_games

from .conftest import played_first_move, screenshot

MOVE_OR_END = ".four-way .playable, .banner.over"


def create_in_lobby(page, server, players, seats=None):
    page.goto(server + "/")
    page.click(".game-card[data-game=four_way]")
    page.select_option("[name=players]", str(players))
    for seat, value in (seats or {}).items():
        page.select_option(f"[name=kind-{seat}]", value)
    page.fill("#your-name", "Ada")
    page.click("#create-game")
    page.wait_for_selector("#take-seat")


def play_by_clicking(page, limit_seconds=240):
    """Click a playable key, attack or dice on the board until the game is over."""
    deadline = time.monotonic() + limit_seconds
    moves = 0
    while time.monotonic() < deadline:
        page.wait_for_selector(MOVE_OR_END)
        if page.locator(".banner.over").count():
            return moves
        target = page.locator(".four-way .playable").first
        logged = page.locator("#log li").count()
        try:
            target.click(timeout=2000)
        except Exception:  # the board was redrawn under the mouse: look again
            continue
        moves += 1
        page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=logged)
    raise AssertionError("the game did not end in time")


def test_a_person_plays_four_way_to_the_end_against_bots(server, new_page):
    page = new_page()
    create_in_lobby(page, server, 3, {1: "bot:random", 2: "bot:greedy"})
    assert "committed to its secret seed" in page.inner_text("#created")
    page.click("#take-seat")
    page.wait_for_selector(".four-way")
    assert page.inner_text("#seats").count("bot") == 2
    moves = play_by_clicking(page)
    assert moves > 0
    banner = page.inner_text(".banner.over")
    assert re.search(r"You win|Winner: ", banner), banner
    seat_rows = page.locator(".four-way .side")
    assert seat_rows.count() == 3
    assert page.locator(".four-way .side.winner").count() == 1
    assert page.locator(".four-way .side.winner .key.up").count() == 10
    screenshot(page, "four_way_board")
    # Fairness: the seed is revealed and every roll checks out.
    assert len(page.inner_text("#seed")) == 64
    page.click("#verify")
    page.wait_for_selector("#verify-result.ok")
    assert "chance outcomes follow from it" in page.inner_text("#verify-result")
    # Replay: step through the game from the start.
    page.click("#replay-start")
    page.wait_for_selector("#replay-step")
    assert page.inner_text("#replay-step").startswith("step 0 of")
    assert page.locator(".four-way .key.up").count() == 0
    for _ in range(4):
        page.click("#replay-next")
    assert page.inner_text("#replay-step").startswith("step 4 of")
    assert page.locator("#log li.current").count() == 1
    screenshot(page, "four_way_replay")


def test_a_friend_joins_by_invite_and_both_see_the_moves(server, new_page):
    host = new_page()
    create_in_lobby(host, server, 3, {1: "person", 2: "bot:greedy"})
    invite = host.input_value(".invite-link[data-seat='1']")
    assert re.search(r"/game/\w+#seat=1&token=[\w-]{20,}$", invite)
    host.click("#take-seat")
    host.wait_for_selector(".status.waiting")
    assert "Waiting for Player 2" in host.inner_text(".banner")
    assert host.locator("#start").count() == 1
    friend = new_page()
    friend.goto(invite)
    friend.wait_for_selector(".four-way")
    host.wait_for_selector(".status.playing")
    friend.fill("#my-name", "Bea")
    friend.click("#save-name")
    host.wait_for_function("document.querySelector('#seats').textContent.includes('Bea')")

    def log(page):
        return page.eval_on_selector_all("#log li", "items => items.map(i => i.textContent)")

    # Each plays their turns by clicking, on the page of the seat to move; each flip reaches
    # the mover's log, and the logs of both pages stay the same.
    pages, flips = (host, friend), {"Ada": 0, "Bea": 0}
    settled = """seat => document.querySelector('.banner.over') ||
        document.querySelector('#seats .seat.to-move')?.dataset.seat !== String(seat) ||
        document.querySelector('.four-way .playable')"""
    bot_done = """seat => document.querySelector('.banner.over') ||
        document.querySelector('#seats .seat.to-move')?.dataset.seat !== String(seat)"""
    for _ in range(40):
        if min(flips.values()) >= 2 or host.locator(".banner.over").count():
            break
        seat = int(host.get_attribute("#seats .seat.to-move", "data-seat"))
        if seat >= len(pages):  # the bot's turn: wait for it to be played
            host.wait_for_function(bot_done, arg=seat)
            continue
        page = pages[seat]
        page.wait_for_function(settled, arg=seat)
        if not page.locator(".four-way .playable").count():
            continue  # no key to flip: the turn passed
        count = len(log(page))
        page.locator(".four-way .playable").first.click()
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {count}")
        name = ("Ada", "Bea")[seat]  # the bot's flips, logged meanwhile, are not theirs
        flips[name] += any(line.startswith(f"{name} flips") for line in log(page)[count:])
    assert min(flips.values()) >= 1, flips

    deadline = time.monotonic() + 10
    while log(host) != log(friend):
        assert time.monotonic() < deadline, "the two pages show different logs"
        time.sleep(0.2)
    said = log(friend)  # the friend sees the host's flips, the host the friend's
    assert any(line.startswith("Ada flips") for line in said)
    assert any(line.startswith("Bea flips") for line in said)
    # A spectator sees the same game; then the friend resigns and everyone sees it.
    spectator = new_page()
    spectator.goto(server + host.url.split("#")[0].removeprefix(server))
    spectator.wait_for_selector(".four-way")
    assert spectator.locator(".four-way .playable").count() == 0
    friend.once("dialog", lambda dialog: dialog.accept())
    friend.click("#resign")
    for page in (host, friend, spectator):
        page.wait_for_selector(".banner.over")
        assert "Bea resigned" in page.inner_text(".banner.over")
    screenshot(friend, "four_way_invite")


def test_a_game_without_its_own_board_gets_the_generic_one(server, new_page):
    created = httpx.post(
        server + "/api/games",
        json={"game": "secret_words", "params": {}, "seats": [{"kind": "person"},
              {"kind": "bot", "bot": "random"}]},
    ).json()  # fmt: skip
    page = new_page()
    page.goto(server + created["invites"][0]["url"])
    page.wait_for_selector(".generic-board")
    assert "What you can see" in page.inner_text(".generic-board")
    shown = page.inner_text(".generic-board")
    assert "Word" in shown and sum(word in shown for word in WORDS) == 1  # my word, only
    while not page.locator(".banner.over").count():
        page.wait_for_selector(".move, .banner.over")
        if page.locator(".move").count():
            page.keyboard.press("1")  # the keyboard plays the first move
        time.sleep(0.1)
    assert page.locator("#log li").count() >= 3
    screenshot(page, "generic")


def test_the_rules_are_one_click_away(server, new_page):
    page = new_page()
    page.goto(server + "/rules/four_way")
    page.wait_for_selector("#rules h1")
    assert page.inner_text("#rules h1") == "4-Way CountDown"
    assert "T-minus rulings" in page.inner_text("#rules")
    assert page.locator("#rules table").count() == 1


@pytest.mark.parametrize("game", list_games())
def test_every_game_is_played_to_the_end_in_the_browser(server, new_page, game):
    """Lobby, default rules, bots in the other seats, then the move buttons to the end."""
    page = new_page()
    page.goto(server + "/")
    page.click(f".game-card[data-game={game}]")
    if game in ("count_down", "three_two_one"):
        # Random bots and a person always taking the first button take thousands of turns.
        page.fill("[name=max_turns]", "60")
    if game == "three_two_one":
        page.fill("[name=rounds]", "1")  # one deal
    seats = page.locator("#seats select").count()
    for seat in range(1, seats):
        page.select_option(f"[name=kind-{seat}]", "bot:random")
    page.click("#create-game")
    page.click("#take-seat")
    page.wait_for_selector(".board > *")
    deadline = time.monotonic() + 300
    while not page.locator(".banner.over").count():
        assert time.monotonic() < deadline, "the game did not end in time"
        page.wait_for_selector(".move, .banner.over")
        played_first_move(page)
    assert page.locator("#seats .result").count() == seats or "resigned" in page.inner_text(
        ".banner"
    )
    screenshot(page, game)
