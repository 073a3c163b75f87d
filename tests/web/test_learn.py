"""Learn to play (issue 38), in Chromium at 390 px: each game's guided first game from the
lobby's link to its end, with one wrong move on the way and its explanation in the rule's
words (the engine's reason, as the server gave it); the step's mark found on the board;
the keyboard walks a lesson; the page fits the phone and passes axe-core; screenshots at
both sizes."""

from __future__ import annotations

import pytest

from tminus.tutorials import lesson_games, load_lesson

from .conftest import DESKTOP, PHONE, serious_accessibility_problems
from .test_accounts import (
    fits_the_screen,
    keep_screenshot,
    sign_in_in_browser,
    sign_up_in_browser,
    unique,
)


def wait_for_step(page, number: int) -> None:
    page.wait_for_selector(f"#lesson[data-step='{number}'] #moves button.move:not([disabled])")


def try_a_forbidden_move(page, lesson, number: int) -> str:
    """The first move the rules forbid at this step, tried from "Why can't I…?": the words
    the page shows (checked to be the engine's reason)."""
    scene = lesson.scene(number)
    action = int(page.locator("#why-move option").first.get_attribute("value"))
    assert not scene.state.is_legal(action)
    page.select_option("#why-move", str(action))
    page.click("#why button[type=submit]")
    page.wait_for_selector("#told .lesson-reason")
    shown = page.inner_text("#told .lesson-reason")
    assert shown == scene.state.why_not(action, lesson.names)  # the rule, in its words
    assert "Try again" in page.inner_text("#told")
    return shown


@pytest.mark.parametrize("game", lesson_games())
def test_each_lesson_is_played_to_its_end_on_a_phone(server, new_page, game):
    lesson = load_lesson(game)
    page = new_page(PHONE)
    page.goto(server + "/")
    page.click(".learn-strip a[href='/learn']")
    page.click(f"#games button[data-game={game}]")
    for number, (step, scene) in enumerate(zip(lesson.steps, lesson.scenes, strict=True), 1):
        wait_for_step(page, number)
        assert page.inner_text("#lesson-say") == step.say
        if step.mark:
            assert page.locator(f"#board {step.mark}.lesson-mark").count() >= 1, step.mark
        assert "lesson-move" in page.get_attribute(
            f"#moves button[data-action='{scene.answer}']", "class"
        )
        if number == 1:
            try_a_forbidden_move(page, lesson, number)
            assert fits_the_screen(page)
            assert serious_accessibility_problems(page) == []
            wait_for_step(page, number)  # the step still waits: try again
        page.click(f"#moves button[data-action='{scene.answer}']")
        page.wait_for_selector("#told .verdict.right")
        if number < len(lesson.steps):
            assert page.evaluate("document.activeElement.id") == "next"
            page.keyboard.press("Enter")  # "Next step", by keyboard
    assert page.inner_text("#told .lesson-end") == lesson.end
    assert game in page.evaluate("JSON.parse(localStorage.getItem('tminus.lessons')).finished")
    assert "✓" in page.inner_text(f"#games button[data-game={game}]")
    assert fits_the_screen(page)
    if game == "four_way":
        keep_screenshot(page, "learn-phone")


def test_a_move_allowed_but_not_the_steps_is_explained_and_the_keyboard_plays(server, new_page):
    lesson = load_lesson("four_way")
    page = new_page(DESKTOP)
    page.goto(server + "/learn?game=four_way")
    wait_for_step(page, 1)
    scene = lesson.scene(1)
    other = next(a for a in scene.state.legal_actions() if a != scene.answer)
    assert not page.is_visible(f"#moves button[data-action='{other}']")  # (folded away)
    page.focus("#moves details.lesson-others summary")
    page.keyboard.press("Enter")  # unfolds the other moves allowed
    page.focus(f"#moves button[data-action='{other}']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#told .lesson-reason")
    assert page.inner_text("#told .lesson-reason") == lesson.steps[0].instead
    page.focus(f"#moves button[data-action='{scene.answer}']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#told .verdict.right")
    page.keyboard.press("Enter")
    wait_for_step(page, 2)
    assert fits_the_screen(page)
    assert serious_accessibility_problems(page) == []
    keep_screenshot(page, "learn-desktop")


def test_a_lesson_finished_signed_in_is_finished_on_every_device(server, new_page):
    lesson = load_lesson("four_way")
    name = unique("Lea")
    phone = new_page(PHONE)
    sign_up_in_browser(phone, server, name)
    phone.goto(server + "/learn?game=four_way")
    for number, scene in enumerate(lesson.scenes, 1):
        wait_for_step(phone, number)
        phone.click(f"#moves button[data-action='{scene.answer}']")
        phone.wait_for_selector("#told .verdict.right")
        if number < len(lesson.steps):
            phone.click("#next")
    phone.wait_for_selector("#games button[data-game=four_way] .lesson-done")
    desktop = new_page(DESKTOP)  # another device: nothing kept in its browser
    sign_in_in_browser(desktop, server, name)
    desktop.wait_for_selector("#account-name")
    desktop.goto(server + "/learn")
    desktop.wait_for_selector("#games button[data-game=four_way] .lesson-done")
    assert desktop.locator("#games .lesson-done").count() == 1  # (only the one finished)
