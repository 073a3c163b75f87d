"""The pages work under the server's own Content-Security-Policy (the other browser tests
bypass it, because Playwright's string predicates and axe-core are scripts it refuses)."""

from __future__ import annotations

import pytest

from tminus.core.registry import list_games

from .conftest import create_game

TWO_SEATS = ["person:Ada", "bot:random"]


def test_the_lobby_works_under_its_security_policy(server, strict_page):
    page, refused = strict_page
    response = page.goto(server + "/")
    assert "script-src" in response.headers["content-security-policy"]
    page.locator(".game-card").first.wait_for()
    page.click("#create-game")
    page.locator("#take-seat").wait_for()
    assert refused == []


@pytest.mark.parametrize("game", [g for g in list_games() if g != "secret_words"])
def test_each_game_page_draws_and_plays_under_its_security_policy(server, strict_page, game):
    page, refused = strict_page
    created = create_game(server, game, {"players": 2}, TWO_SEATS)
    page.goto(server + created["invites"][0]["url"])
    page.locator(".move").first.wait_for()
    logged = page.locator("#log li").count()
    page.locator(".move").first.click()
    page.locator("#log li").nth(logged).wait_for()  # the move was played and shown
    assert refused == []
