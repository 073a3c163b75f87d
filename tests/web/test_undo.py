"""Undo in a real browser (issue 14): Ada and Bea in their own browser contexts, Eve
watching. A take-back accepted (the board goes back, the log strikes the move through),
one refused (the move stands, and is not asked about again); a hot-seat device asks and
answers for both of its seats."""

from __future__ import annotations

from .conftest import (
    PHONE,
    create_game,
    horizontal_overflow,
    screenshot,
    serious_accessibility_problems,
    small_targets,
)


def log_lines(page) -> list[str]:
    return page.eval_on_selector_all("#log li[data-index]", "ls => ls.map(l => l.innerText)")


def move_until_take_back_offered(page) -> None:
    """The page's person plays its first moves until it may take one back."""
    for _ in range(6):
        if page.locator("#take-back").is_visible():
            return
        count = page.locator("#log li[data-index]").count()
        page.locator(".move:not([disabled])").first.click()
        page.wait_for_function(f"document.querySelectorAll('#log li[data-index]').length > {count}")
        page.wait_for_selector("#take-back, .move:not([disabled])")
    raise AssertionError("no take-back was offered")


def test_undo_accepted_and_refused_between_two_browsers(server, new_page):
    game = create_game(server, "sputnik", {"players": 2}, ["person:Ada", "person:Bea"])
    pages = []
    for invite, viewport in zip(game["invites"], (None, PHONE), strict=True):
        page = new_page(viewport)
        page.goto(server + invite["url"])
        pages.append(page)
    eve = new_page()
    eve.goto(server + game["spectate"])
    to_move = pages[0].locator("#seats .seat.to-move")
    to_move.wait_for()
    mover = int(to_move.get_attribute("data-seat"))
    mine, theirs = pages[mover], pages[1 - mover]
    name, other = ("Ada", "Bea")[mover], ("Ada", "Bea")[1 - mover]
    eve.wait_for_selector("#status.playing")
    before = mine.inner_html("#board")

    # Accepted: the move is struck through in the log, the board is as before it.
    move_until_take_back_offered(mine)
    moved = mine.inner_html("#board")
    assert moved != before
    assert theirs.locator("#take-back").count() == 0  # (only its player may ask)
    assert eve.locator("#take-back").count() == 0
    lines = len(log_lines(mine))
    mine.click("#take-back")
    theirs.wait_for_selector("#accept-take-back")
    question = theirs.inner_text("#take-back-question")
    assert question.startswith(f"{name} asks to take back their move “") and "”" in question
    mine.wait_for_selector(f"#take-back-asked:has-text('waiting for {other}')")
    eve.wait_for_selector(f"#take-back-asked:has-text('{name} asks to take back')")
    assert eve.locator("#accept-take-back, #refuse-take-back").count() == 0  # it only reads
    eve.wait_for_selector(f"#chat li:has-text('{name} asks to take back their move')")
    assert small_targets(theirs, "#take-back-box button") == []
    assert horizontal_overflow(theirs) <= 0
    assert serious_accessibility_problems(theirs) == []
    screenshot(theirs, "take-back-question-phone-390x844")
    theirs.click("#accept-take-back")
    for page in (mine, theirs, eve):
        page.wait_for_selector("#log li.taken-back")
        page.wait_for_selector(f"#chat li:has-text('{other} accepts: the move is taken back')")
        assert log_lines(page)[-1].startswith("Taken back: ")
        assert page.locator("#take-back-box").is_hidden()
    assert len(log_lines(mine)) == lines + 1
    mine.wait_for_function(f"document.querySelector('#board').innerHTML !== {moved!r}")
    assert mine.locator(".move:not([disabled])").count() > 0  # to play again
    assert serious_accessibility_problems(mine) == []

    # Refused: the move stands, and it is not asked about again.
    move_until_take_back_offered(mine)
    mine.click("#take-back")
    theirs.click("#refuse-take-back")
    for page in (mine, theirs, eve):
        page.wait_for_selector(f"#chat li:has-text('{other} refuses: the move stands')")
        page.wait_for_selector("#take-back-box", state="hidden")
    assert mine.locator("#take-back").count() == 0
    assert mine.locator("#log li.taken-back").count() == 1


def test_a_hot_seat_device_takes_a_move_back_for_one_of_its_people(server, new_page):
    game = create_game(server, "sputnik", {"players": 2}, ["person:Ada", "person:Bea"])
    seat, token = game["invites"][1]["seat"], game["invites"][1]["token"]
    page = new_page(PHONE)
    page.add_init_script(
        f"localStorage.setItem('tminus:hotseat:{game['id']}', "
        f"JSON.stringify([{{seat: {seat}, token: '{token}'}}]))"
    )
    page.goto(server + game["invites"][0]["url"])
    page.wait_for_selector("#status.playing")  # (both seats joined from this device)
    move_until_take_back_offered(page)
    mover = page.locator("#seats .seat.to-move .seat-name").inner_text().removesuffix(" (you)")
    other = {"Ada": "Bea", "Bea": "Ada"}[mover]
    assert page.inner_text("#take-back") == f"Take back {mover}'s move"
    page.click("#take-back")
    page.wait_for_selector(f"#accept-take-back:has-text('Accept ({other})')")
    page.click("#accept-take-back")
    page.wait_for_selector("#log li.taken-back")
    page.wait_for_selector(f"#chat li:has-text('{other} accepts: the move is taken back')")


def test_the_lobby_turns_take_backs_on_for_friends_and_lets_the_creator_choose(server, new_page):
    """Take-backs follow the seats until the creator chooses: on for a game of people, off
    with a bot; ticked by the creator, a game with a bot allows them (its bots accept)."""
    import httpx

    page = new_page()
    page.goto(server + "/")
    page.click(".game-card[data-game=sputnik]")
    page.select_option("[name=players]", "2")
    undo = page.locator("#undo")
    assert not undo.is_checked()  # seat 2 is the lobby's bot
    page.select_option("[name=kind-1]", "person")
    assert undo.is_checked()  # a game of friends
    page.select_option("[name=kind-1]", index=2)  # a bot again
    assert not undo.is_checked()
    undo.check()  # the creator's choice stands whatever the seats become
    page.select_option("[name=kind-1]", "person")
    page.select_option("[name=kind-1]", index=2)
    assert undo.is_checked()
    page.click("#create-game")
    page.click("#take-seat")
    page.wait_for_selector("#status.playing")
    game_id = page.url.split("/")[-1].split("#")[0]
    assert httpx.get(f"{server}/api/games/{game_id}").json()["undo"] is True

    # Left alone, a game with a bot is made without take-backs.
    page.goto(server + "/")
    page.click(".game-card[data-game=sputnik]")
    page.select_option("[name=players]", "2")
    page.click("#create-game")
    page.click("#take-seat")
    page.wait_for_selector("#status.playing")
    game_id = page.url.split("/")[-1].split("#")[0]
    assert httpx.get(f"{server}/api/games/{game_id}").json()["undo"] is False


def ask_for_a_hint(server, new_page, game: str):
    """Ada, against a greedy bot in a two-player ``game`` whose creator allowed hints, asks
    for one on a phone at her turn: her page and the hint's words."""
    import httpx

    seats = [{"kind": "person", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}]
    body = {"game": game, "params": {"players": 2}, "hints": True, "seats": seats}
    made = httpx.post(server + "/api/games", json=body).json()
    page = new_page(PHONE)
    page.goto(server + made["invites"][0]["url"])
    page.wait_for_selector("#hint")  # at Ada's turn
    page.click("#hint")
    said = page.locator("#hint-said")
    said.wait_for(timeout=90_000)  # (on a fresh machine the first duel hint solves the duel)
    return page, said


def test_a_hint_marks_the_best_move_on_the_board_and_the_table_is_told(server, new_page):
    """In a game whose creator allowed hints, the player to move asks for one on a phone:
    the move is named with its chance to win and marked on the board and in the list."""
    page, said = ask_for_a_hint(server, new_page, "four_way")
    assert said.inner_text().startswith("Hint: ") and "chance to win" in said.inner_text()
    # One best move, or (the best not ahead by two standard errors; exact ties too) the
    # moves about equal to it, each named and marked.
    hinted = page.locator("#moves .move.hinted")
    equal = "about equal" in said.inner_text()
    assert hinted.count() > 1 if equal else hinted.count() == 1
    for index in range(hinted.count()):
        move = hinted.nth(index)
        assert move.inner_text().split("\n")[-1] in said.inner_text()
        action = move.get_attribute("data-action")
        assert page.locator(f'#board .hinted[data-action="{action}"]').count() >= 1
    page.wait_for_function("document.body.innerText.includes('Ada asks for a hint')")
    assert small_targets(page, "#hint-box button") == []
    assert serious_accessibility_problems(page) == []
    screenshot(page, "hint-phone-390x844")
    # Without the creator's switch there is no hint to ask for.
    game = create_game(server, "four_way", {"players": 2}, ["person:Ada", "bot:greedy"])
    other = new_page(PHONE)
    other.goto(server + game["invites"][0]["url"])
    other.wait_for_selector(".move:not([disabled])")
    assert other.locator("#hint").count() == 0


def test_a_player_who_turns_it_on_reads_what_the_bot_thought(server, new_page):
    """ "Why a bot moved": the solver's line in the log says its exact chance to win, for
    the player who turns it on (remembered on reload); off, the log is as before."""
    game = create_game(server, "four_way", {"players": 2}, ["person:Ada", "bot:solver"])
    page = new_page(PHONE)
    page.goto(server + game["invites"][0]["url"])
    switch = page.locator("#thoughts-field")
    for _ in range(12):  # Ada moves until the bot has moved once
        if switch.is_visible():
            break
        page.wait_for_selector(".move:not([disabled]), #thoughts-field:not([hidden])")
        if switch.is_visible():
            break
        count = page.locator("#log li[data-index]").count()
        page.locator(".move:not([disabled])").first.click()
        page.wait_for_function(f"document.querySelectorAll('#log li[data-index]').length > {count}")
    assert switch.is_visible(), "the bot never said what it thinks"
    assert page.locator("#log .thought").count() == 0  # off until turned on
    page.click("#thoughts")
    thought = page.locator("#log .thought").first
    assert "thinks its chance to win is" in thought.inner_text()
    assert thought.inner_text().rstrip().endswith("%")
    page.reload()
    page.wait_for_selector("#log .thought")  # remembered
    assert page.locator("#thoughts").is_checked()
    assert small_targets(page, "#thoughts-field") == []  # (the label is the switch)
    assert serious_accessibility_problems(page) == []
    assert horizontal_overflow(page) == 0
    screenshot(page, "bot-thoughts-phone-390x844")
    page.set_viewport_size({"width": 1280, "height": 800})
    assert horizontal_overflow(page) == 0
    screenshot(page, "bot-thoughts-desktop-1280x800")


def test_a_sputnik_hint_says_plainly_when_the_endgame_table_is_missing_on_a_phone(server, new_page):
    """Sputnik for two near its end is exact with the solved table; without it (not built
    on this server) the hint is estimated and says so in plain words, and the phone's page
    still fits its width."""
    from tminus.agents.solvers import sputnik_endgame

    page, said = ask_for_a_hint(server, new_page, "sputnik")
    words = said.inner_text()
    assert words.startswith("Hint: ") and "`" not in words
    missing = sputnik_endgame.cached_table() is None  # (the server's cache is this one)
    assert ("endgame table is not built on this server" in words) is missing, words
    assert horizontal_overflow(page) == 0
    screenshot(page, "hint-sputnik-note-phone-390x844")
