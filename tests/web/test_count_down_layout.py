"""Count Down's board as a newcomer sees it, on a desktop (1280 x 800) and a phone (390 x
844): the squares' words and every other word big enough to read, none running past the box
drawn behind it, the board's room given to the centres in play, and the zoomed frame on the
squares to play."""

from __future__ import annotations

import pytest

from tests.count_down.helpers import place

from .conftest import DESKTOP, PHONE, screenshot
from .test_count_down_board import draw_position, playout, position_page
from .test_count_down_phone import IN_VIEW, draw_on_phone, zoomed_out

NAMES = ["Ada", "Greedy (medium) 2", "Cy", "Dee", "Eve", "Fay"]
READABLE = 9  # px: the least size a word is read at
TITLE = 10  # px: a square's title

# The words drawn on the board, each with its class, its size on the screen (px: its font
# size as drawn, after every scaling), and what is wrong with its place: past the box drawn
# behind it (the first shape of a group around it, if the word is inside that shape), or out
# of the board. A square's picture ("?" and "$") is not words.
WORDS = """() => [...document.querySelectorAll("svg.count-down text")]
  .filter((t) => !t.closest(".glyph") && t.textContent.trim() && t.getBBox().width)
  .map((t) => {
    const r = t.getBoundingClientRect(), m = t.getScreenCTM();
    const scale = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    const px = parseFloat(getComputedStyle(t).fontSize) * scale;
    const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    const outside = (b) => r.left < b.left - 1.5 || r.right > b.right + 1.5
      || r.top < b.top - 1.5 || r.bottom > b.bottom + 1.5;
    let problem = outside(t.ownerSVGElement.getBoundingClientRect()) ? "out of the board" : "";
    for (let g = t.parentNode; g && !problem; g = g.parentNode) {
      const shape = g.querySelector(":scope > rect:not(.hit):not(.press)");
      if (!shape) { if (g === t.ownerSVGElement) break; continue; }
      const b = shape.getBoundingClientRect();
      if (b.left <= x && x <= b.right && b.top <= y && y <= b.bottom) {
        if (outside(b)) problem = `past its box (${shape.getAttribute("class")})`;
        break;
      }
      if (g === t.ownerSVGElement) break;
    }
    return { text: t.textContent, cls: t.getAttribute("class"), px, problem };
  })"""


def words(page):
    return page.evaluate(WORDS)


def too_small(found, least=READABLE):
    return sorted({f"{w['cls']}: {w['text']} ({w['px']:.1f} px)" for w in found if w["px"] < least})


def misplaced(found):
    return sorted({f"{w['cls']}: {w['text']}: {w['problem']}" for w in found if w["problem"]})


# Positions a newcomer meets: (players, phase, seed of the greedy playout).
MOMENTS = [(2, "direction", 3), (4, "meeting", 0), (4, "count choice", 0), (3, "buy photo", 1)]


def test_the_squares_words_read_on_a_desktop(server, new_page):
    page = position_page(server, new_page, DESKTOP)
    for players in (2, 4):
        state, seat = playout(lambda s, obs: obs["phase"] == "direction", seed=3, players=players)
        draw_position(page, state, seat, NAMES[:players])
        found = words(page)
        titles = [w for w in found if "sq-title" in w["cls"]]
        assert len(titles) >= 64  # every square has its title
        assert too_small(titles, TITLE) == []
        assert too_small([w for w in found if "sq-sub" in w["cls"]]) == []
        assert misplaced(titles) == []
    screenshot(page, "count_down-desktop-1280x800")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_word_on_the_board_is_too_small_or_runs_past_its_box(server, new_page, size):
    """On a desktop the whole board; on a phone zoomed in once (the overview is a map, with
    nothing to read or play: the moves are the buttons under it)."""
    page = position_page(server, new_page, DESKTOP if size == "desktop" else PHONE)
    for players, phase, seed in MOMENTS:
        state, seat = playout(lambda s, obs, p=phase: obs["phase"] == p, seed=seed, players=players)
        if size == "phone":
            zoomed_out(page)  # (the zoom outlives a redraw)
            draw_on_phone(page, state, seat)
            page.click(".cd-zoom-in")
            page.wait_for_selector(".cd-frame.zoomed")
        else:
            draw_position(page, state, seat, NAMES[:players])
        found = words(page)
        moment = f"{players} players, {phase}"
        assert too_small(found) == [], moment
        assert misplaced(found) == [], moment
        # The turn, as a player counts it (the engine's turn cap is no rule of the game).
        turn = state.observation(seat)["turn"]
        assert page.text_content(".count-down .band-title") == f"Turn {turn}", moment


def test_a_two_player_game_gives_the_board_to_its_two_centres(server, new_page):
    page = position_page(server, new_page, DESKTOP)
    state, seat = playout(lambda s, obs: obs["phase"] == "direction", seed=3, players=2)
    draw_position(page, state, seat, NAMES[:2])
    share = page.evaluate(
        """() => {
            const board = document.querySelector(".count-down .board-bg").getBoundingClientRect();
            const area = (n) => { const r = n.getBoundingClientRect(); return r.width * r.height; };
            const centres = [...document.querySelectorAll(".count-down .centre")];
            const part = (inService) => centres
                .filter((c) => ["1", "2"].includes(c.dataset.centre) === inService)
                .reduce((sum, c) => sum + area(c), 0) / (board.width * board.height);
            return { inPlay: part(true), out: part(false) };
        }"""
    )
    assert share["out"] <= 0.01, share  # centres 3 and 4: a word on their launch ramps
    assert share["inPlay"] >= 0.3, share
    ramps = page.eval_on_selector_all(
        ".count-down .square.ramp.closed .sq-sub", "subs => subs.map(s => s.textContent)"
    )
    assert ramps == ["out of service", "out of service"]
    # Both players' own centres, in full: the control card, the rocket, the money.
    assert page.locator(".count-down .centre").count() == 2
    assert page.locator(".count-down .control-card .photo-row").count() == 18


def test_zoomed_in_the_frame_shows_the_square_to_play_whole(server, new_page):
    """Whatever the square a move lands on, at every zoom level the frame shows it whole."""
    state, seat = playout(lambda s, obs: obs["phase"] == "direction", seed=3)
    roll = state.observation(seat)["roll"]
    page = position_page(server, new_page, PHONE)
    page.emulate_media(reduced_motion="reduce")  # the frame jumps: no glide to wait for
    forward = ".count-down .square [data-move=forward]"
    for square in (0, 7, 20, 33, 40, 58):  # corner, top row, side columns, bottom row
        zoomed_out(page)
        draw_on_phone(page, place(state, seat, (square - roll) % 64), seat)
        for level in (1, 2, 3):
            page.click(".cd-zoom-in")
            page.wait_for_selector(f".cd-zoom-level:text('Zoom {level} of 3')")
            landing = page.get_attribute(
                ".count-down .square:has([data-move=forward])", "data-square"
            )
            assert landing == str(square)
            assert page.evaluate(IN_VIEW, forward), f"square {square} at zoom {level}"


def test_a_centres_cards_are_named_whole_in_a_four_player_panel(server, new_page):
    """The narrowest panel (four centres) names a long spare photo card in full; cards it has
    no room for are counted ("+2", the tooltip names them), never cut to a bare "…"."""
    from tests.count_down.helpers import give_photo, started

    page = position_page(server, new_page, DESKTOP)
    spare = ["Docking with the LEM", "Lunar take-off", "Radar"]  # none on centre 1's card
    state = started()
    for count, name in enumerate(spare, 1):
        state = give_photo(state, 1, name)
        draw_position(page, state, 0, NAMES[:4])
        mine = page.locator(".count-down .centre.mine")
        chips = mine.locator(".spare-chip").all_text_contents()
        assert set(chips) <= set(spare) and chips, chips  # each name whole
        if count == 1:
            assert chips == ["Docking with the LEM"]
        if len(chips) < count:
            assert mine.locator(".more text").text_content() == f"+{count - len(chips)}"
        assert "…" not in mine.text_content()
        found = words(page)
        assert too_small(found) == [] and misplaced(found) == []


# Whether the middle of a thing to tap (a photo card's row can be wider than the frame) is
# in the frame's visible part: where a thumb taps it.
MIDDLE_IN_VIEW = """(n) => {
    const r = n.getBoundingClientRect(), v = n.closest('.cd-viewport').getBoundingClientRect();
    const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    return v.left <= x && x <= v.right && v.top <= y && y <= v.bottom; }"""


@pytest.mark.parametrize(("seed", "phase"), [(1, "target"), (2, "training")])
def test_zoomed_in_the_frame_shows_what_there_is_to_tap_off_the_track(
    server, new_page, seed, phase
):
    """A decision made off the track (a photo card to sabotage on another's control card, a
    training's choice in the middle band): zoomed in, the frame shows something to tap,
    not the mover's rocket on the track."""
    state, seat = playout(lambda s, obs: obs["phase"] == phase, seed=seed)
    page = position_page(server, new_page, PHONE)
    page.emulate_media(reduced_motion="reduce")
    zoomed_out(page)
    draw_on_phone(page, state, seat)
    tapped = 0
    for level in (1, 2, 3):
        page.click(".cd-zoom-in")
        page.wait_for_selector(f".cd-zoom-level:text('Zoom {level} of 3')")
        taps = page.locator(".count-down .playable").element_handles()
        if not taps:
            continue  # (too small at this zoom for a thumb: the buttons below play)
        tapped += 1
        assert any(page.evaluate(MIDDLE_IN_VIEW, tap) for tap in taps), f"none in view at {level}"
    assert tapped
