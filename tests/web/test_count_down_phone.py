"""Count Down's board on a phone (390 x 844, touch): the whole board fits the width; zoomed
in, it pans inside its own frame (never the page sideways), follows the move, and what is
big enough for a thumb plays on the board."""

from __future__ import annotations

from .conftest import (
    PHONE,
    create_game,
    horizontal_overflow,
    screenshot,
    serious_accessibility_problems,
    small_targets,
)
from .test_count_down_board import NAMES, playout, position_page

VIEWPORT = ".cd-viewport"
BOARD = ".cd-viewport > svg.count-down"


def draw_on_phone(page, state, seat):
    """Draw ``state`` as ``seat`` sees it in the page's board box, laid out for a phone
    (narrow) as the game page would; clicks are recorded in ``window.clicked``."""
    obs = state.observation(seat)
    legal = [
        {"action": a, "text": state.action_to_string(a), "struct": state.action_to_struct(a)}
        for a in state.legal_actions()
    ]
    seats = [{"seat": s, "name": name, "kind": "person"} for s, name in enumerate(NAMES)]
    page.evaluate(
        """async ([obs, legal, seats]) => {
            const { boardFor } = await import('/static/js/boards/index.js');
            window.clicked = [];
            const ctx = { seat: obs.seat ?? null, seats, legal, toMove: null, replay: false,
                          ended: false, narrow: true,
                          onMove: (action) => window.clicked.push(action) };
            document.getElementById('board').replaceChildren(
                boardFor('count_down').render(obs, ctx));
        }""",
        [obs, legal, seats],
    )
    page.wait_for_selector(BOARD)
    return legal


def frame(page) -> dict:
    """The frame's and the board's sizes, and how far the frame can scroll."""
    return page.eval_on_selector(
        VIEWPORT,
        """v => ({ width: v.clientWidth, scrollWidth: v.scrollWidth,
                   scrollHeight: v.scrollHeight, height: v.clientHeight,
                   board: v.querySelector('svg.count-down').getBoundingClientRect().width })""",
    )


# Whether the element is wholly inside the frame's visible part (to a pixel's rounding).
IN_VIEW = """(selector) => {
    const n = document.querySelector(selector), r = n.getBoundingClientRect();
    const v = n.closest('.cd-viewport').getBoundingClientRect();
    return r.left >= v.left - 1 && r.right <= v.right + 1
        && r.top >= v.top - 1 && r.bottom <= v.bottom + 1; }"""


def zoomed_out(page):
    while page.locator(".cd-zoom-out:not([disabled])").count():
        page.click(".cd-zoom-out")


def test_zoomed_in_a_square_is_thumb_sized_and_a_tap_on_it_plays(server, new_page):
    state, seat = playout(lambda s, obs: obs["phase"] == "direction", seed=3)
    page = position_page(server, new_page, PHONE)
    legal = draw_on_phone(page, state, seat)
    # The whole board across the width: an overview with nothing to tap (the moves are the
    # buttons below), but the squares a move lands on are marked.
    size = frame(page)
    assert abs(size["board"] - size["width"]) <= 1 and size["scrollWidth"] <= size["width"]
    assert page.locator(".count-down .playable").count() == 0
    assert page.locator(".count-down .square.target").count() == 2
    assert page.locator(".cd-zoom-out").is_disabled()
    # Zoom in: the frame scrolls, the page does not, and the frame went to the squares.
    page.tap(".cd-zoom-in")
    page.wait_for_selector(".cd-frame.zoomed .count-down .square .playable")
    size = frame(page)
    assert size["scrollWidth"] > size["width"] and size["scrollHeight"] > size["height"]
    assert horizontal_overflow(page) <= 0
    forward = ".count-down .square [data-move=forward]"
    page.wait_for_function(IN_VIEW, arg=forward)  # the frame glides there
    assert small_targets(page) == []
    box = page.locator(forward).bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    page.tap(forward)
    move = next(m["action"] for m in legal if m["text"] == "forward")
    assert page.evaluate("window.clicked") == [move]
    screenshot(page, "count_down-phone-zoomed-390x844")
    # Zoom out again: the whole board fits the width.
    zoomed_out(page)
    size = frame(page)
    assert abs(size["board"] - size["width"]) <= 1 and size["scrollWidth"] <= size["width"]
    assert page.locator(".count-down .playable").count() == 0


def test_a_game_on_a_phone_zooms_by_keyboard_and_is_played_on_the_board(server, new_page):
    """Me against bots on a phone: zoomed in with the keyboard, the board's moves are big
    enough, one tapped is played, and the zoom stays through the redraws that follow."""
    created = create_game(server, "count_down", {"players": 4}, ["person:Ada", *["bot"] * 3])
    page = new_page(PHONE)
    page.goto(server + created["invites"][0]["url"])
    page.wait_for_selector("#board[data-layout=narrow] .count-down .centre")
    page.wait_for_selector(".move")
    assert page.locator("#board .playable").count() == 0  # the overview: the buttons play
    page.focus(".cd-zoom-in")
    page.keyboard.press("Enter")
    page.wait_for_selector(".cd-frame.zoomed")
    assert page.inner_text(".cd-zoom-level") == "Zoom 1 of 3"
    assert horizontal_overflow(page) <= 0
    assert small_targets(page) == []
    on_board = page.eval_on_selector_all("#board .playable", "ps => ps.map(p => p.dataset.move)")
    offered = page.eval_on_selector_all(".move", "ms => ms.map(m => m.dataset.move)")
    assert on_board and set(on_board) <= set(offered)
    assert serious_accessibility_problems(page) == []
    screenshot(page, "count_down-phone-game-zoomed-390x844")
    logged = page.locator("#log li").count()
    page.tap("#board .playable >> nth=0")
    page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=logged)
    page.wait_for_selector(".cd-frame.zoomed")  # redrawn, still zoomed in
    assert horizontal_overflow(page) <= 0


def test_double_tap_and_pinch_zoom_and_a_still_screen_does_not_glide(server, new_page):
    state, seat = playout(lambda s, obs: obs["phase"] == "direction", seed=3)
    page = position_page(server, new_page, PHONE)
    draw_on_phone(page, state, seat)
    # A double-tap on the board (not on a move) zooms in where it was, another zooms out.
    frame_box = page.locator(VIEWPORT).bounding_box()
    x, y = frame_box["x"] + frame_box["width"] * 0.3, frame_box["y"] + frame_box["height"] * 0.3
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)
    page.wait_for_selector(".cd-frame.zoomed")
    size = frame(page)
    assert size["board"] == 1320  # zoom 1: 1.2 px a board unit (1100 units wide)
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)
    page.wait_for_selector(".cd-frame:not(.zoomed)")
    # Two fingers spread apart zoom in a step; pinched together, out.
    cdp = page.context.new_cdp_session(page)

    def pinch(apart_from, apart_to):
        cx, cy = frame_box["x"] + frame_box["width"] / 2, frame_box["y"] + 100
        for kind, apart in (("touchStart", apart_from), ("touchMove", apart_to)):
            points = [{"x": cx - apart / 2, "y": cy}, {"x": cx + apart / 2, "y": cy}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    pinch(40, 160)
    page.wait_for_selector(".cd-frame.zoomed")
    pinch(160, 40)
    page.wait_for_selector(".cd-frame:not(.zoomed)")
    # With less motion asked for, zooming in jumps straight to the squares to play.
    page.emulate_media(reduced_motion="reduce")
    jumped = page.evaluate(
        """([inView, selector]) => {
            document.querySelector('.cd-zoom-in').click();
            return eval(inView)(selector);
        }""",
        [IN_VIEW, ".count-down .square [data-move=forward]"],
    )
    assert jumped
