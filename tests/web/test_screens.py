"""Every game's page on a phone (390 x 844) and on desktops (1280 x 800, 1920 x 1080): no
sideways scroll, every move big enough for a thumb, no serious accessibility problem (axe-core),
and a screenshot of each written to artifacts/."""

from __future__ import annotations

import pytest

from tminus.core.registry import list_games

from .conftest import (
    DESKTOP,
    PHONE,
    WIDE_DESKTOP,
    create_game,
    horizontal_overflow,
    screenshot,
    serious_accessibility_problems,
    small_targets,
)

LONG_NAME = "Alexandrina Longname"  # 15+ characters: a name must not run into the board
SEARCH_BOT = "Bot 2 (mcts:simulations=100)"  # how the server names search bots today
# Each game at a size that fills its table: the most players the board is drawn for.
TABLES = {
    "four_way": {"players": 4},
    "three_two_one": {"players": 4},
    "sputnik": {"players": 4},
    "count_down": {"players": 4},
}


def open_my_turn(server, new_page, game, viewport):
    """A game with me (a long name) and greedy bots; the page once my moves are offered."""
    params = TABLES[game]
    bots = [f"bot:greedy:{SEARCH_BOT}"] + ["bot:greedy"] * (params["players"] - 2)
    created = create_game(server, game, params, [f"person:{LONG_NAME}", *bots])
    page = new_page(viewport)
    page.goto(server + created["invites"][0]["url"])
    page.wait_for_selector(".move")
    return page


def the_side_panel_is_on_screen(page) -> bool:
    return page.evaluate(
        "[...document.querySelectorAll('.side .panel')]"
        ".every(p => p.getBoundingClientRect().right <= innerWidth)"
    )


@pytest.mark.parametrize("game", list_games())
def test_each_game_fits_a_phone_and_a_desktop(server, new_page, game):
    page = open_my_turn(server, new_page, game, PHONE)
    page.wait_for_selector("#board[data-layout=narrow]")
    assert horizontal_overflow(page) <= 0
    assert small_targets(page) == []
    assert page.locator(".move:not([disabled])").count() > 0
    assert serious_accessibility_problems(page) == []
    screenshot(page, f"{game}-phone-390x844")
    for size in (DESKTOP, WIDE_DESKTOP):
        page.set_viewport_size(size)
        page.wait_for_selector("#board[data-layout=wide]")
        assert horizontal_overflow(page) <= 0
        assert the_side_panel_is_on_screen(page), "a long name pushed the players panel away"
        screenshot(page, f"{game}-desktop-{size['width']}x{size['height']}")
    # On a large screen the board takes the room there is: most of the width beside the
    # side panel, or the screen's height.
    box = page.eval_on_selector("#board > *", "b => b.getBoundingClientRect().toJSON()")
    assert box["width"] >= 1100 or box["height"] >= 800, box


def test_the_lobby_fits_a_phone_and_reads_well(server, new_page):
    page = new_page(PHONE)
    page.goto(server + "/")
    page.wait_for_selector(".game-card")
    assert horizontal_overflow(page) <= 0
    assert serious_accessibility_problems(page) == []
    screenshot(page, "lobby-phone-390x844")
