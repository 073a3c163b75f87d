"""Count Down's board as a newcomer sees it, on a desktop (1280 x 800) and a phone (390 x
844): the squares' words and every other word big enough to read, none running past the box
drawn behind it, the board's room given to the centres in play, and the zoomed frame on the
squares to play."""

from __future__ import annotations

from tests.count_down.helpers import place

from .conftest import PHONE
from .test_count_down_board import playout, position_page
from .test_count_down_phone import IN_VIEW, draw_on_phone, zoomed_out


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
