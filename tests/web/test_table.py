"""The online table's bugs from a first game (issue 13), each checked in a real browser:
names and never 0-based seats, the seat kept on any tab, no "null" in the lobby, nothing
overflowing, clear pages for bad links, the outage shown and no move lost, icons that need
no font; and what players expect: the last move marked, chance lines folded, placings, a
lobby in words."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from tminus.agents.registry import make_agent
from tminus.core.registry import load_game

from .conftest import (
    DESKTOP,
    PHONE,
    create_game,
    horizontal_overflow,
    screenshot,
    serious_accessibility_problems,
    small_targets,
)

NAMES = ["Ada", "Bea", "Cy", "Dee"]
LONG = "Maximilian Longname-Smith"  # 25 characters


# -- drawing a position on a page -------------------------------------------------------------
def playout(game_name, until, seed=0, **params):
    """A greedy game from a fixed seed, stopped before the first move where ``until(state)``."""
    game = load_game(game_name, **params)
    rng = random.Random(seed)
    bots = [make_agent("greedy", game, seed=seed * 10 + k) for k in range(game.num_players)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
            continue
        if until(state):
            return state
        state.apply_action(bots[state.current_player()].step(state))
    raise AssertionError("the playout ended first")


def moves_with_labels(state, names):
    return [
        {
            "action": a,
            "text": state.action_to_string(a),
            "label": f"[{state.move_label(a, names)}]",
            "struct": state.action_to_struct(a),
        }
        for a in state.legal_actions()
    ]


def board_page(server, new_page, game, players, viewport=None):
    """A page of a game that never starts (every seat a person nobody opened): nothing on it
    redraws the board but the test."""
    created = create_game(server, game, {"players": players}, ["person"] * players)
    page = new_page(viewport)
    page.goto(server + created["spectate"])
    page.wait_for_selector("#board > *")
    # Count Down's board fetches its printed board first: a draw before then would come later.
    page.wait_for_function("!document.querySelector('#board .loading')")
    return page


def draw(page, game, obs, *, seat, names, legal=(), before=None, narrow=False):
    """Draw ``obs`` with the page's board for ``game``; moves clicked go to window.clicked."""
    seats = [{"seat": s, "name": name, "kind": "person"} for s, name in enumerate(names)]
    page.evaluate(
        """async ([game, obs, legal, seats, seat, before, narrow]) => {
            const { boardFor } = await import('/static/js/boards/index.js');
            window.clicked = [];
            const ctx = { seat, seats, legal, toMove: null, replay: false, ended: false, before,
                          narrow, onMove: (action) => window.clicked.push(action) };
            document.getElementById('board').replaceChildren(boardFor(game).render(obs, ctx));
        }""",
        [game, obs, list(legal), seats, seat, before, narrow],
    )


def labels_on_board(page) -> list[str]:
    return page.eval_on_selector_all(
        "#board .playable", "ps => ps.map(p => p.getAttribute('aria-label'))"
    )


# -- bug 1: names everywhere, never a 0-based seat ----------------------------------------------
def test_moves_on_the_board_are_named_in_the_servers_words(server, new_page):
    """The attack on an eleven is labelled as the server says it (with names), and the page
    itself writes no seat number: dots carry initials."""
    state = playout(
        "four_way",
        lambda s: any(s.action_to_string(a).startswith("attack") for a in s.legal_actions()),
        players=4,
    )
    seat = state.current_player()
    legal = moves_with_labels(state, NAMES)
    page = board_page(server, new_page, "four_way", 4)
    draw(page, "four_way", state.observation(seat), seat=seat, names=NAMES, legal=legal)
    shown = labels_on_board(page)
    assert shown and all("[" in label and label.endswith("]") for label in shown), shown
    attacks = page.locator("#board .attack")
    assert attacks.count() >= 1
    dots = page.eval_on_selector_all(".four-way .seat-number", "ns => ns.map(n => n.textContent)")
    assert sorted(dots) == ["A", "B", "C", "D"]


@pytest.mark.parametrize("narrow", [False, True])
def test_an_attack_button_is_named_by_what_it_shows(server, new_page, narrow):
    """The attack on an eleven shows short words; its accessible name begins with those words
    (axe-core's label-content-name-mismatch) and then says whom, in the server's words."""
    state = playout(
        "four_way",
        lambda s: any(s.action_to_struct(a)["kind"] == "attack" for a in s.legal_actions()),
        players=4,
    )
    seat = state.current_player()
    legal = moves_with_labels(state, NAMES)
    page = board_page(server, new_page, "four_way", 4, PHONE if narrow else None)
    draw(
        page,
        "four_way",
        state.observation(seat),
        seat=seat,
        names=NAMES,
        legal=legal,
        narrow=narrow,
    )
    attack = page.locator("#board .attack").first
    shown = attack.locator("text").text_content().removeprefix("⚔ ")
    label = attack.get_attribute("aria-label")
    assert label.startswith(shown) and "[Attack " in label, (shown, label)
    assert serious_accessibility_problems(page) == []
    if narrow:  # on the narrowest phone we fit, every attack is still a 44-px target
        page.set_viewport_size({"width": 360, "height": 740})
        assert small_targets(page, "#board .attack") == []


def test_a_refusal_names_the_player_not_a_seat_number(server, new_page):
    """The server's "not your turn: it is seat 2's turn" reads "It is Cy's turn" on the page."""
    created = create_game(
        server, "four_way", {"players": 3}, ["person:Ada", "person:Bea", "person:Cy"]
    )
    page = new_page()
    sockets = []

    def route(ws):
        sockets.append(ws)
        ws.connect_to_server()

    page.route_web_socket(re.compile(r".*/ws/games/.*"), route)
    page.goto(server + created["invites"][0]["url"])
    page.click("#start")  # without waiting for Bea and Cy
    to_move = page.locator("#seats .to-move .seat-name")
    to_move.wait_for()
    name = to_move.inner_text().removesuffix(" (you)")
    refusal = {"type": "error", "code": "not_your_turn", "message": "it is seat 2's turn"}
    sockets[-1].send(json.dumps(refusal))
    page.wait_for_selector("#toast.shown")
    text = page.inner_text("#toast")
    assert name in text and "seat" not in text, text


# -- bug 2: the seat is kept on any tab; another seat's invite switches seat ---------------------
def test_the_seat_comes_back_on_a_new_tab_and_an_invite_switches_seat(server, new_page):
    page = new_page()
    page.goto(server + "/")
    page.click(".game-card[data-game=four_way]")
    page.select_option("[name=players]", "2")
    page.select_option("[name=kind-1]", "person")
    page.fill("#your-name", "Ada")
    page.click("#create-game")
    invite = page.input_value(".invite-link[data-seat='1']")
    page.click("#take-seat")
    page.wait_for_selector("#seats .seat.me[data-seat='0']")
    assert "token" not in page.url  # the secret is not left in the address bar
    game_url = page.url.split("#")[0]
    # A new tab of the same browser, from "My games": the same seat, not a spectator.
    tab = page.context.new_page()
    tab.goto(server + "/")
    tab.click(f"#my-games a[href$='{game_url.rsplit('/', 1)[1]}']")
    tab.wait_for_selector("#seats .seat.me[data-seat='0']")
    assert tab.locator("#my-name").input_value() == "Ada"
    # The friend's invite pasted into this tab: the friend's seat, without a reload.
    tab.evaluate("window.sameDocument = true")
    tab.goto(invite)
    tab.wait_for_selector("#seats .seat.me[data-seat='1']")
    assert tab.evaluate("window.sameDocument") is True
    tab.close()


# -- bug 3: no "null" in the lobby ----------------------------------------------------------------
def test_a_game_without_friends_shows_no_null_in_the_lobby(server, new_page):
    page = new_page()
    page.goto(server + "/")
    page.click(".game-card[data-game=sputnik]")
    page.click("#create-game")
    page.wait_for_selector("#take-seat")
    assert "null" not in page.inner_text("#created")
    assert page.locator("#created .invites").count() == 0


# -- bug 4: nothing overflows --------------------------------------------------------------------
def boxes(page, selector):
    return page.eval_on_selector_all(
        selector, "ns => ns.map(n => n.getBoundingClientRect().toJSON())"
    )


def overlaps(a, b) -> bool:
    return not (
        a["right"] <= b["left"]
        or b["right"] <= a["left"]
        or a["bottom"] <= b["top"]
        or b["bottom"] <= a["top"]
    )


def test_long_names_stay_clear_of_the_keys_and_the_count_down_result(server, new_page):
    state = playout("four_way", lambda s: True, players=4)
    names = [LONG, LONG + " II", "Cy", "Dee"]
    page = board_page(server, new_page, "four_way", 4)
    draw(page, "four_way", state.observation(0), seat=0, names=names)
    for row in range(4):
        name = boxes(page, f".four-way .side[data-seat='{row}'] .name")[0]
        key = boxes(page, f".four-way .side[data-seat='{row}'] .key[data-key='1']")[0]
        assert name["right"] <= key["left"], (row, name, key)
    # Count Down's winner line, clear of the COUNTDOWN and GAME LEADER boxes.
    state = playout("count_down", lambda s: s.observation(0)["countdown"]["sum"] > 0)
    obs = state.observation(0)
    obs["phase"], obs["winner"] = "over", [1]
    page = board_page(server, new_page, "count_down", 4)
    draw(page, "count_down", obs, seat=0, names=[LONG, LONG + " II", "Cy", "Dee"])
    lines = boxes(page, ".count-down .result-text")
    walls = boxes(page, ".count-down .countdown-bg, .count-down .leader-bg")
    assert lines and len(walls) == 2
    assert not any(overlaps(line, wall) for line in lines for wall in walls)
    screenshot(page, "count_down_result_long_names")


def test_the_sputnik_panel_says_who_starts_in_full(server, new_page):
    game = load_game("sputnik", players=3)
    state = game.new_initial_state()
    page = board_page(server, new_page, "sputnik", 3)
    draw(page, "sputnik", state.public_observation(), seat=None, names=[LONG, "Bea", "Cy"])
    caption = page.locator(".sputnik-panel .caption")
    assert "Drawing lots" in caption.inner_text()
    assert caption.evaluate("c => c.scrollWidth <= c.clientWidth")
    assert page.evaluate("document.querySelector('.sputnik-panel').scrollWidth") <= page.evaluate(
        "document.querySelector('.sputnik-panel').clientWidth"
    )


def test_the_sputnik_panel_counts_turns_from_one(server, new_page):
    """The first turn is turn 1 (the state counts the turns finished, 0 then), and a
    finished game says how many turns were played."""
    state = playout("sputnik", lambda s: s.observation(0)["phase"] == "move")
    assert state.observation(0)["turn"] == 0
    seat = state.current_player()
    page = board_page(server, new_page, "sputnik", 2)
    draw(page, "sputnik", state.observation(seat), seat=seat, names=NAMES[:2])
    assert page.locator(".sputnik-panel > p.small").inner_text().endswith("turn 1")
    over = state.observation(seat)
    over["phase"], over["winners"], over["turn"] = "over", [seat], 7
    draw(page, "sputnik", over, seat=seat, names=NAMES[:2])
    assert page.locator(".sputnik-panel > p.small").inner_text().endswith("7 turns played")


# -- bug 5: clear pages for bad links -------------------------------------------------------------
def test_a_game_that_does_not_exist_gets_a_clear_page(server, new_page):
    page = new_page()
    page.goto(server + "/game/no-such-game")
    page.wait_for_selector("[data-problem=not_found]")
    assert "Game not found" in page.inner_text("#problem")
    assert page.get_attribute("#to-lobby", "href") == "/"
    assert page.locator("#table").is_hidden()


def test_a_wrong_invite_offers_to_watch_instead(server, new_page):
    created = create_game(server, "four_way", {"players": 2}, ["person:Ada", "bot:greedy"])
    page = new_page()
    page.goto(server + f"/game/{created['id']}#seat=0&token=not-the-token")
    page.wait_for_selector("[data-problem=bad_invite]")
    assert "This invite link is not valid" in page.inner_text("#problem")
    page.click("#watch")
    page.wait_for_selector(".four-way")
    assert page.locator("#problem").is_hidden()
    assert page.locator("#seats .seat.me").count() == 0  # a spectator
    assert page.locator("#my-name").count() == 0


# -- bug 6: the outage shown plainly, and no move lost --------------------------------------------
class Line:
    """The page's WebSocket through Playwright: cut it, hold the page's messages, restore."""

    def __init__(self, page):
        self.up, self.hold, self.held, self.sockets = True, False, [], []
        page.route_web_socket(re.compile(r".*/ws/games/.*"), self.route)

    def route(self, ws):
        if not self.up:
            ws.close(code=1011, reason="offline")
            return
        server = ws.connect_to_server()
        self.sockets.append(ws)
        ws.on_message(lambda m: self.held.append(m) if self.hold else server.send(m))

    def cut(self):
        self.up = False
        for ws in self.sockets:
            ws.close(code=1011, reason="offline")
        self.sockets.clear()


def test_an_outage_pauses_the_moves_and_a_held_move_is_sent_on_return(server, new_page):
    created = create_game(server, "four_way", {"players": 2}, ["person:Ada", "bot:greedy"])
    page = new_page()
    line = Line(page)
    page.goto(server + created["invites"][0]["url"])
    page.wait_for_selector(".banner.yours")
    line.cut()
    page.wait_for_selector(".banner.offline")
    banner = page.locator(".banner")
    assert "yours" not in banner.get_attribute("class")
    assert "Connection lost" in banner.inner_text()
    assert page.locator("#board .playable").count() == 0
    assert page.locator(".move").count() > 0
    assert page.locator(".move:not([disabled])").count() == 0
    screenshot(page, "four_way_offline")
    line.up = True
    page.wait_for_selector(".banner.yours", timeout=15_000)  # reconnected, my turn again
    # A move the line swallows (the connection died silently): it is not dropped. When the
    # socket comes back at the same position, it is sent, and the player is told.
    logged = page.locator("#log li").count()
    line.hold = True
    page.locator(".move").first.click()
    page.wait_for_function("document.querySelector('.banner').textContent.includes('Sending')")
    assert line.held  # the move left the page and went nowhere
    line.hold = False
    line.cut()
    line.up = True
    page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=logged)
    assert "was sent" in page.inner_text("#toast")


# -- bug 7 and a finished game: icons, placings, folded chance lines -----------------------------
@pytest.fixture(scope="module")
def finished_game(server):
    """A bots-only 3-2-1 game (2 players, first to 3 rounds) that has ended."""
    return create_game(server, "three_two_one", {"players": 2}, ["bot:greedy", "bot:random"])


def test_a_finished_game_shows_placings_folds_and_replay_icons(server, new_page, finished_game):
    page = new_page()
    page.goto(server + finished_game["spectate"])
    page.wait_for_selector(".banner.over", timeout=60_000)
    places = page.eval_on_selector_all("#seats .result", "rs => rs.map(r => r.textContent)")
    assert sorted(places) in (["1st", "2nd"], ["=1st", "=1st"]), places
    # The deals fold into one line per run, which opens on a click.
    folds = page.locator("#log details.fold")
    assert folds.count() >= 1
    summary = folds.first.locator("summary").inner_text()
    assert re.search(r"\(\d+ lines\)$", summary), summary
    folds.first.locator("summary").click()
    assert folds.first.locator(".fold-lines li").first.is_visible()
    # The replay's buttons draw their icons in SVG, not with glyphs a font may lack.
    page.click("#replay-start")
    page.wait_for_selector("#replay-step")
    for button in ("#replay-first", "#replay-back", "#replay-next", "#replay-last"):
        assert page.locator(f"{button} svg.icon path").count() == 1
        assert page.inner_text(button).strip() == ""
    assert not re.search("[⏮⏭◀▶]", page.inner_text("#replay"))
    page.click("#replay-next")
    assert page.inner_text("#replay-step").startswith("step 1 of")
    # The lobby's games give placings, never a return like -0.33 (in "My games" of the
    # browser that made the game).
    lobby = new_page()
    lobby.goto(server + "/")
    lobby.evaluate(f"localStorage.setItem('tminus:invites:{finished_game['id']}', '[]')")
    lobby.reload()
    row = lobby.locator(f"#my-games li[data-game='{finished_game['id']}']")
    row.wait_for()
    assert re.search(r"1st", row.inner_text()), row.inner_text()
    assert not re.search(r"-?\d\.\d", row.inner_text())


def test_a_finished_game_is_reviewed_from_its_page_on_a_phone(server, new_page):
    """'Review the game' opens the review: a page that waits for it, then the win-chance
    curve and each move judged; it fits a phone and reads well."""
    # (4-Way's duel: exact values, a review in seconds; Sputnik's playouts take their time)
    game = create_game(server, "four_way", {"players": 2}, ["bot:greedy", "bot:random"])
    page = new_page(PHONE)
    page.goto(server + game["spectate"])
    page.wait_for_selector(".banner.over", timeout=60_000)
    assert small_targets(page, "#review") == []
    page.click("#review")
    page.wait_for_selector("svg.curve", timeout=60_000)  # (its page reloads until ready)
    assert page.locator("tbody tr").count() >= 1
    assert "Nothing is hidden in this game" in page.inner_text("body")  # (4-Way)
    assert horizontal_overflow(page) <= 0
    assert serious_accessibility_problems(page) == []
    screenshot(page, "review-phone-390x844")
    page.click("text=Back to the game")
    page.wait_for_selector(".banner.over")


# -- the last move is marked, with motion only for those who want it ------------------------------
def test_the_last_move_is_marked_and_animated_unless_less_motion_is_asked(server, browser):
    state = playout("sputnik", lambda s: s.observation(0)["phase"] == "remove", players=2)
    before = state.public_observation()
    state.apply_action(state.legal_actions()[0])  # a galaxy removed
    middle = state.public_observation()
    actions = state.legal_actions()
    state.apply_action(next(a for a in actions if state.action_to_string(a).startswith("move")))
    after = state.public_observation()
    for motion, animation in (("no-preference", "flight"), ("reduce", "none")):
        context = browser.new_context(reduced_motion=motion)
        page = context.new_page()
        created = create_game(server, "sputnik", {"players": 2}, ["person", "person"])
        page.goto(server + created["spectate"])
        page.wait_for_selector("#board > *")
        draw(page, "sputnik", middle, seat=None, names=NAMES[:2], before=before)
        assert page.locator(".sputnik .cell.last-removed").count() == 1
        draw(page, "sputnik", after, seat=None, names=NAMES[:2], before=middle)
        assert page.locator(".sputnik .cell.last-from").count() == 1
        assert page.locator(".sputnik .cell.last-to").count() == 1
        name = page.eval_on_selector(".sputnik .flight", "f => getComputedStyle(f).animationName")
        assert name == animation
        context.close()


@pytest.mark.parametrize("narrow", [False, True])
def test_a_declaration_that_ended_the_round_is_marked_as_the_last_move(server, new_page, narrow):
    """A bot may declare right after your move: the board then shows the round revealed,
    picked out as the last move; later in the round it is shown plainly."""
    state = playout("three_two_one", lambda s: s.observation(0)["round"] == 2, players=2)
    obs = state.observation(0)
    assert obs["last_round"] is not None
    page = board_page(server, new_page, "three_two_one", 2, PHONE if narrow else None)
    ended = dict(obs, round=1, last_round=None)  # before the declaration: round 1, no reveal
    draw(page, "three_two_one", obs, seat=0, names=NAMES[:2], before=ended, narrow=narrow)
    assert page.locator("#board .last-round.last").count() == 1
    draw(page, "three_two_one", obs, seat=0, names=NAMES[:2], before=obs, narrow=narrow)
    assert page.locator("#board .last-round").count() == 1
    assert page.locator("#board .last-round.last").count() == 0
    # A turn cap ends the game with an old reveal on show: not the last move's mark.
    capped = dict(obs, phase="over")
    draw(page, "three_two_one", capped, seat=0, names=NAMES[:2], before=obs, narrow=narrow)
    assert page.locator("#board .last-round.last").count() == 0


# -- the lobby in words ---------------------------------------------------------------------------
def test_the_lobby_speaks_words_and_remembers_my_name(server, new_page):
    page = new_page()
    page.goto(server + "/")
    page.wait_for_selector(".game-card")
    for game in ("four_way", "three_two_one", "sputnik", "count_down"):
        assert len(page.inner_text(f".game-card[data-game={game}] .game-description")) > 30
    page.click(".game-card[data-game=count_down]")
    labels = page.inner_text("#params")
    assert "Turn limit" in labels and "Max turns" not in labels
    assert page.locator("#params [name=board]").count() == 0  # no file path to type
    page.fill("#your-name", "Ada Lovelace")
    page.select_option("[name=players]", "2")
    page.select_option("[name=kind-1]", "bot:random")
    page.click("#create-game")
    page.wait_for_selector("#take-seat")
    page.reload()
    page.wait_for_selector(".game-card")
    assert page.input_value("#your-name") == "Ada Lovelace"


def test_a_sputnik_player_who_is_out_keeps_readable_words(server, new_page):
    """An eliminated player's line is struck through, not faded: axe finds no contrast
    problem (the whole line at 45 % opacity failed it)."""

    def someone_is_out(s) -> bool:
        rockets = s.observation(0)["rockets"]
        return any(all(r["cell"] is None for r in rockets if r["seat"] == p) for p in range(3))

    state = playout("sputnik", someone_is_out, players=3)
    seat = state.current_player()
    page = board_page(server, new_page, "sputnik", 3)
    draw(page, "sputnik", state.observation(seat), seat=seat, names=NAMES[:3],
         legal=moves_with_labels(state, NAMES[:3]))  # fmt: skip
    assert page.locator(".sputnik-panel .player.out").count() == 1
    assert serious_accessibility_problems(page) == []


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_three_two_one_discard_buttons_wrap_into_rows_when_many(server, new_page, size):
    """Many equal cards picked make many discard buttons (one card or more, on either pile):
    they wrap into rows on the board, seven across on a desktop (a row of ten ran out of the
    board on both sides) and three on a phone, none cut off at its edges, and the page never
    scrolls sideways."""

    def discards_by_value(s) -> Counter:
        structs = (s.action_to_struct(a) for a in s.legal_actions())
        return Counter(st["value"] for st in structs if st["kind"] == "discard")

    def many_alike(s) -> bool:  # (more buttons than one row of the desktop holds: 7)
        return s.current_player() >= 0 and max(discards_by_value(s).values(), default=0) >= 8

    state = playout("three_two_one", many_alike, players=3)
    seat = state.current_player()
    value = discards_by_value(state).most_common(1)[0][0]
    phone = size == "phone"
    page = board_page(server, new_page, "three_two_one", 3, PHONE if phone else DESKTOP)
    draw(page, "three_two_one", state.observation(seat), seat=seat, names=NAMES[:3],
         legal=moves_with_labels(state, NAMES[:3]), narrow=phone)  # fmt: skip
    # (a phone stacks equal cards under one target; a desktop spreads them, each playable)
    if phone:
        page.locator(f"#board .value-target[data-value='{value}']").click()
    else:
        page.locator(f"#board .group[data-value='{value}'] .card.playable").last.click()
    buttons = page.locator("#board .offers .offer")
    count = buttons.count()
    assert count > 7, count  # more than one row holds
    outside = page.evaluate(
        """() => {
            const board = document.querySelector('#board svg').getBoundingClientRect();
            return [...document.querySelectorAll('#board .offers .offer')]
                .map(o => o.getBoundingClientRect())
                .filter(r => r.left < board.left - 1 || r.right > board.right + 1).length;
        }"""
    )
    assert outside == 0 and horizontal_overflow(page) == 0
    rows = {round(b["y"]) for b in (buttons.nth(i).bounding_box() for i in range(count))}
    assert len(rows) == -(-count // (3 if phone else 7))
    screenshot(page, f"three_two_one_many_discards_{size}")
