"""The puzzles page on a phone: choose 4-Way, miss a puzzle and see the best move, solve the
next one and see the streak; the page fits the screen, passes axe-core, and is kept as
screenshots in docs/screenshots."""

from __future__ import annotations

from tminus.puzzles import model

from .conftest import DESKTOP, PHONE, serious_accessibility_problems
from .test_accounts import (
    fits_the_screen,
    keep_screenshot,
    sign_in_in_browser,
    sign_up_in_browser,
    unique,
)


def shown_puzzle(page, game: str = "four_way") -> model.Puzzle:
    """The puzzle the page shows, as shipped (its answer and every move's value)."""
    page.wait_for_selector("#puzzle:not([hidden]) #moves button.move:not([disabled])")
    shown = page.get_attribute("#puzzle", "data-puzzle")
    assert f"puzzle={shown}" in page.url
    return {p.id: p for p in model.load_set(game)}[shown]


def test_solving_puzzles_on_a_phone(server, new_page):
    page = new_page(PHONE)
    page.goto(server + "/puzzles")
    page.click("#games button[data-game=four_way]")
    assert page.get_attribute("#games button[data-game=four_way]", "aria-pressed") == "true"

    first = shown_puzzle(page)
    wrong = next(a for a in first.values if a != first.answer)
    page.click(f"#moves button[data-action='{wrong}']")
    page.wait_for_selector(".verdict")
    assert "Not this one: the best was" in page.inner_text("#answer")
    assert page.locator(".puzzle-values li").count() == len(first.values)
    assert "%" in page.inner_text(".puzzle-values")
    assert page.inner_text("#my-streak") == "0"
    assert page.evaluate("document.activeElement.id") == "next"

    page.keyboard.press("Enter")  # "Next puzzle", by keyboard
    page.wait_for_function(f"document.querySelector('#puzzle').dataset.puzzle !== '{first.id}'")
    second = shown_puzzle(page)
    page.click(f"#moves button[data-action='{second.answer}']")
    page.wait_for_selector(".verdict")
    assert page.inner_text(".verdict").startswith("Right!")
    assert page.inner_text("#my-streak") == "1"
    assert page.inner_text("#my-solved") == "1"

    assert fits_the_screen(page)
    assert serious_accessibility_problems(page) == []
    keep_screenshot(page, "puzzles-phone")

    # A new visit goes on from the progress kept here: neither puzzle again.
    page.goto(server + "/puzzles?game=four_way")
    third = shown_puzzle(page)
    assert third.id not in (first.id, second.id)
    assert page.inner_text("#my-streak") == "1"

    wide = new_page(DESKTOP)
    wide.goto(server + "/puzzles?game=four_way")
    shown = shown_puzzle(wide)
    wide.click(f"#moves button[data-action='{shown.answer}']")
    wide.wait_for_selector(".verdict")
    assert fits_the_screen(wide)
    assert serious_accessibility_problems(wide) == []
    keep_screenshot(wide, "puzzles-desktop")


def test_the_lobby_links_to_the_puzzles(server, new_page):
    page = new_page(PHONE)
    page.goto(server + "/")
    page.click(".site-nav a[href='/puzzles']")
    page.wait_for_selector("#games button[data-game=sputnik]")
    assert page.url.endswith("/puzzles")
    assert fits_the_screen(page)


def test_sputnik_and_count_down_puzzles_draw_and_answer(server, new_page):
    page = new_page(PHONE)
    for game, value in (("sputnik", " turn"), ("count_down", "%")):
        page.goto(server + f"/puzzles?game={game}")
        page.wait_for_selector("#puzzle:not([hidden]) #moves button.move:not([disabled])")
        assert page.locator("#board > *").count() == 1
        if game == "count_down":  # the printed board came with the puzzle: it is drawn
            page.wait_for_selector("#board [data-square]")
            assert "could not be loaded" not in page.inner_text("#board")
        page.click("#moves button.move >> nth=0")
        page.wait_for_selector(".verdict")
        assert value in page.inner_text(".puzzle-values")
        assert fits_the_screen(page)


def test_puzzles_solved_signed_in_count_on_another_device(server, new_page):
    name = unique("Pia")
    phone = new_page(PHONE)
    sign_up_in_browser(phone, server, name)
    phone.goto(server + "/puzzles?game=sputnik")
    solved = shown_puzzle(phone, "sputnik")
    phone.click(f"#moves button[data-action='{solved.answer}']")
    phone.wait_for_selector(".verdict.right")
    desktop = new_page(DESKTOP)  # another device: nothing kept in its browser
    sign_in_in_browser(desktop, server, name)
    desktop.wait_for_selector("#account-name")
    desktop.goto(server + "/puzzles?game=sputnik")
    shown = shown_puzzle(desktop, "sputnik")
    assert shown.id != solved.id  # the one solved on the phone is not served again
    assert desktop.inner_text("#my-solved") == "1"
    assert desktop.inner_text("#my-streak") == "1"
