"""Every game's page on a phone (390 x 844) and on desktops (1280 x 800, 1920 x 1080): no
sideways scroll, every move big enough for a thumb, no serious accessibility problem (axe-core),
and a screenshot of each written to artifacts/."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tminus.core.registry import list_games

from .conftest import (
    DESKTOP,
    PHONE,
    WIDE_DESKTOP,
    create_game,
    horizontal_overflow,
    played_first_move,
    screenshot,
    serious_accessibility_problems,
    small_targets,
)

LONG_NAME = "Alexandrina Longname"  # 15+ characters: a name must not run into the board
SEARCH_BOT = "Bot 2 (mcts:simulations=100)"  # a long bot name (as search bots were once named)
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


def the_moves_end_in_the_window(page) -> bool:
    """Beside the board, the moves' box, full, would end inside the window (the page at its
    top): the newest move is in sight without scrolling the page."""
    page.evaluate("scrollTo(0, 0)")
    try:  # (a resize is looked at once it has settled: until then the box is as it was)
        page.wait_for_function(
            """() => {
                const log = document.getElementById('log');
                const full = parseFloat(getComputedStyle(log).maxHeight);
                return log.getBoundingClientRect().top + full <= innerHeight;
            }""",
            timeout=3000,
        )
    except PlaywrightTimeout:
        return False
    return True


def names_broken_mid_word(page) -> list[str]:
    """The words of the players panel's names (and their kinds) too wide for their box,
    which the browser then breaks inside ("Alexandr / ina" beside a score)."""
    return page.evaluate(
        """() => {
            const ctx = document.createElement('canvas').getContext('2d');
            return [...document.querySelectorAll('#seats .seat-name, #seats .seat-kind')]
              .flatMap(n => {
                const style = getComputedStyle(n);
                ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
                return n.textContent.split(/\\s+/)
                  .filter(w => ctx.measureText(w).width > n.clientWidth + 0.5);
              });
        }"""
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
    for size in ({"width": 360, "height": 740}, {"width": 430, "height": 932}):  # the range
        page.set_viewport_size(size)
        page.wait_for_selector("#board[data-layout=narrow]")
        assert horizontal_overflow(page) <= 0, size
        assert small_targets(page) == [], size
    screenshot(page, f"{game}-phone-430x932")
    for size in (DESKTOP, WIDE_DESKTOP):
        page.set_viewport_size(size)
        page.wait_for_selector("#board[data-layout=wide]")
        assert horizontal_overflow(page) <= 0
        assert the_side_panel_is_on_screen(page), "a long name pushed the players panel away"
        assert names_broken_mid_word(page) == [], size
        assert the_moves_end_in_the_window(page), size
        screenshot(page, f"{game}-desktop-{size['width']}x{size['height']}")
    # On a large screen the board takes the room there is: most of the width beside the
    # side panel, or the screen's height.
    box = page.eval_on_selector("#board > *", "b => b.getBoundingClientRect().toJSON()")
    assert box["width"] >= 1100 or box["height"] >= 800, box


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_reading_older_moves_survives_a_window_that_changes_height(server, new_page, viewport):
    """A phone's keyboard or address bar coming and going resizes the window: the moves
    someone scrolled back to stay where they are (a desktop's box, resized to fit the
    window, goes back to the newest move)."""
    created = create_game(server, "four_way", {"players": 4}, ["person", *["bot:random"] * 3])
    page = new_page(viewport)
    page.goto(server + created["invites"][0]["url"])
    overflows = "l => l.scrollHeight > l.clientHeight + 40"
    while not page.eval_on_selector("#log", overflows):
        page.wait_for_selector(".move, .banner.over")
        assert not page.locator(".banner.over").count(), "the game ended before its log filled"
        played_first_move(page)
    page.wait_for_selector(".banner.yours")  # (the bots have moved: nothing moves until I do)
    page.eval_on_selector("#log", "l => { l.scrollTop = 0; }")
    room = "l => l.style.getPropertyValue('--log-room')"
    before = page.eval_on_selector("#log", room)
    page.set_viewport_size({"width": viewport["width"], "height": viewport["height"] - 60})
    page.wait_for_function(  # (the resize looked at, once it has settled)
        f"before => ({room})(document.getElementById('log')) !== before", arg=before
    )
    scrolled = page.eval_on_selector("#log", "l => l.scrollTop")
    assert (scrolled > 0) == (viewport is DESKTOP), scrolled


@pytest.mark.parametrize("game", list_games())
def test_each_rules_page_fits_the_smallest_phone(server, new_page, game):
    page = new_page({"width": 360, "height": 740})
    page.goto(f"{server}/rules/{game}")
    page.wait_for_selector("#rules h1, #rules h2")
    assert horizontal_overflow(page) <= 0
    assert serious_accessibility_problems(page) == []


def test_the_lobby_fits_a_phone_and_reads_well(server, new_page):
    page = new_page(PHONE)
    page.goto(server + "/")
    page.wait_for_selector(".game-card")
    assert horizontal_overflow(page) <= 0
    assert serious_accessibility_problems(page) == []
    screenshot(page, "lobby-phone-390x844")


# -- boards through a whole game: what the screens above meet only by chance ------------------
def positions_through_a_game(game: str, players: int, count: int, seed: int = 0) -> list:
    """``count`` positions spread through a random game (seeded): early, middle and late
    decisions, so attacks, draws from piles, players out and the end game are met."""
    import random

    from tminus.agents.registry import make_agent
    from tminus.core.registry import load_game

    played = load_game(game, players=players)
    rng = random.Random(seed)
    bots = [make_agent("random", played, seed=seed + k) for k in range(players)]
    state = played.new_initial_state()
    decisions = []  # the log's length at each decision
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
            continue
        decisions.append(len(state.history()))
        state.apply_action(bots[state.current_player()].step(state))
    step = max(1, len(decisions) // count)
    history = state.history()
    return [replay(played, history[:at]) for at in decisions[step // 2 :: step][:count]]


def replay(game, actions):
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


@pytest.mark.parametrize("narrow", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("game", list_games())
def test_each_board_passes_axe_at_positions_through_a_game(server, new_page, game, narrow):
    """Found by such a sweep: the 4-Way attack button and 3-2-1's cards and piles named in
    words that did not contain the words they show; a faded Sputnik player out."""
    from .test_table import board_page, draw

    players = TABLES[game]["players"]
    names = [LONG_NAME, "Greedy (medium) 2", "Bea", "Cy"][:players]
    page = board_page(server, new_page, game, players, PHONE if narrow else None)
    problems = set()
    for state in positions_through_a_game(game, players, count=4):
        seat = state.current_player()
        legal = [
            {"action": a, "text": state.action_to_string(a), "label": state.move_label(a, names),
             "struct": state.action_to_struct(a)}
            for a in state.legal_actions()
        ]  # fmt: skip
        draw(page, game, state.observation(seat), seat=seat, names=names, legal=legal,
             narrow=narrow)  # fmt: skip
        problems.update(serious_accessibility_problems(page))
    assert sorted(problems) == []
