"""Count Down rules v3 at the table, in a real browser: the lobby sets the ball's weights
(an online table rolls that ball), and with 6 players partners sit side by side, each
named "with" the other."""

from __future__ import annotations

import re

import httpx

from .conftest import PHONE, create_game, game_id_of, horizontal_overflow, screenshot

HEAVY = "0,0,0,0,0,0,0,0,0,1,1,2"  # 10, 11 and 12 only


def test_the_lobby_sets_the_balls_weights_of_an_online_table(server, new_page):
    page = new_page(PHONE)
    page.goto(server + "/")
    page.wait_for_selector(".game-card")
    page.click(".game-card[data-game=count_down]")
    field = page.locator("#params [name=ball_weights]")
    assert "Ball" in page.inner_text("#params") and field.get_attribute("placeholder") == "uniform"
    field.fill(HEAVY)
    page.select_option("[name=players]", "2")
    page.select_option("[name=kind-1]", "bot:random")
    page.click("#create-game")
    page.wait_for_selector("#take-seat")
    page.click("#take-seat")
    page.wait_for_selector(".count-down .centre")
    game_id = game_id_of(page)
    made = httpx.get(f"{server}/api/games/{game_id}").json()
    assert made["params"]["ball_weights"] == [int(w) for w in HEAVY.split(",")]
    # The table rolls that ball: every roll (the capital's first) is 10, 11 or 12. (The bot
    # may play on meanwhile: its card draws are chance too, but no roll of the ball.)
    page.wait_for_function("document.querySelectorAll('#log li[data-index]').length >= 2")
    export = httpx.get(f"{server}/api/games/{game_id}/export").json()
    said = [entry.get("text") for entry in export["actions"] if entry["actor"] == -1]
    rolled = [int(found[1]) for line in said if (found := re.search(r"rolls (\d+)", line))]
    assert len(rolled) >= 2 and all(face >= 10 for face in rolled), said
    assert horizontal_overflow(page) == 0


def test_the_lobby_refuses_malformed_weights_with_a_clear_message(server):
    body = {
        "game": "count_down",
        "params": {"players": 2, "ball_weights": "1,1,1"},
        "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}],
    }
    refused = httpx.post(server + "/api/games", json=body)
    assert refused.status_code == 400
    assert "parameter 'ball_weights' of count_down must be" in refused.text


def test_partners_sit_side_by_side_at_a_six_player_table(server, new_page):
    names = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
    created = create_game(server, "count_down", {"players": 6}, [f"person:{n}" for n in names])
    page = new_page(PHONE)
    page.goto(server + created["spectate"])
    page.wait_for_selector("#seats li")
    seats = page.locator("#seats li")
    order = [seats.nth(i).get_attribute("data-seat") for i in range(6)]
    assert order == ["0", "3", "1", "4", "2", "5"]
    texts = [seats.nth(i).inner_text() for i in range(6)]
    assert "with Dan" in texts[0] and "with Ann" in texts[1]
    assert "with Eve" in texts[2] and "with Fay" in texts[4]
    assert horizontal_overflow(page) == 0
    screenshot(page, "count_down_six_players_partners")


def test_a_four_player_table_names_no_partners(server, new_page):
    created = create_game(server, "count_down", {"players": 4}, ["person"] * 4)
    page = new_page()
    page.goto(server + created["spectate"])
    page.wait_for_selector("#seats li")
    assert "with" not in page.inner_text("#seats")
