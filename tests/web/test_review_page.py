"""A review's page as a player reads it: at a desktop's width every column of the moves
judged is in view, even with Count Down's long moves (names and moves wrap)."""

from tminus.review.judges import Estimate
from tminus.review.report import html_report
from tminus.review.review import MoveReview, Review

from .conftest import DESKTOP, PHONE, horizontal_overflow


def a_review_with_long_moves(rows=12):
    names = ["Greedy (medium) 1", "Greedy (medium) 2"]
    value = Estimate(0.583, 0.012, 400)
    moves = [
        MoveReview(
            index=10 + i, seat=i % 2, played=100 + i,
            played_text="Offer Greedy (medium) 2 200 for a stage 1", best=200 + i,
            best_text="Offer Greedy (medium) 2 a capsule for 300", before=value,
            after=Estimate(0.531, 0.012, 400), loss=Estimate(0.052, 0.011, 400),
            exact=False, grade="inaccuracy" if i % 3 == 0 else None,
        )
        for i in range(rows)
    ]  # fmt: skip
    return Review("count_down", {"players": 2}, names, moves, None, ["playouts"])


def test_every_column_of_a_count_down_review_is_in_view_on_a_desktop(new_page):
    page = new_page(DESKTOP)
    page.set_content(html_report(a_review_with_long_moves()))
    box = page.locator(".moves")
    hidden = box.evaluate("e => e.scrollWidth - e.clientWidth")
    assert hidden <= 0, f"{hidden} px of the moves table scroll out of view"
    assert horizontal_overflow(page) <= 0
    phone = new_page(PHONE)  # (on a phone the table scrolls in its own box, not the page)
    phone.set_content(html_report(a_review_with_long_moves()))
    assert horizontal_overflow(phone) <= 0
