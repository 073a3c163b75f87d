"""3-2-1 Countdown and Sputnik in a real browser: played to the end by clicking on the board."""

from __future__ import annotations

import re
import time

from .conftest import game_id_of, replayed_export, screenshot


def create_in_lobby(page, server, game, params, bots):
    """A game made in the lobby: ``params`` chosen in the form, seat 0 for me, then bots."""
    page.goto(server + "/")
    page.click(f".game-card[data-game={game}]")
    for name, value in params.items():
        field = page.locator(f"#params [name={name}]")
        if field.evaluate("f => f.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    for seat, bot in enumerate(bots, start=1):
        page.select_option(f"[name=kind-{seat}]", bot)
    page.fill("#your-name", "Ada")
    page.click("#create-game")
    page.click("#take-seat")


def moves_on(page, selector) -> list[str]:
    """The move strings of the elements ``selector`` finds (board targets or buttons)."""
    return page.eval_on_selector_all(selector, "nodes => nodes.map(n => n.dataset.move)")


def try_click(target) -> bool:
    """Click; False when the board was redrawn under the mouse (then look again)."""
    try:
        target.click(timeout=2000)
    except Exception:
        return False
    return True


def play_until_over(page, playable, turn, counts, limit_seconds):
    """Call ``turn(counts)`` whenever something on the board is playable, until the game ends."""
    deadline = time.monotonic() + limit_seconds
    while time.monotonic() < deadline:
        page.wait_for_selector(f"{playable}, .banner.over")
        if page.locator(".banner.over").count():
            return counts
        turn(counts)
    raise AssertionError("the game did not end in time")


def click_and_wait_for_log(page, target) -> bool:
    """Click a move on the board; True once the move is in the log (False: redrawn under us)."""
    logged = page.locator("#log li").count()
    if not try_click(target):
        return False
    page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=logged)
    return True


# -- 3-2-1 Countdown --------------------------------------------------------------------------
TTT = ".three-two-one"


def play_three_two_one(page, limit_seconds=600):
    """My turns on the board: declare when open; else pick my highest cards and click a pile
    (every third discard through the offered buttons); then draw from the draw pile.
    Returns the counts of moves and discards."""

    def turn(counts):
        declare = page.locator(f"{TTT} .declare.playable")
        piles = page.locator(f"{TTT} .pile.playable")
        cards = page.locator(f"{TTT} .group .card.playable")
        if declare.count():
            counts["moves"] += click_and_wait_for_log(page, declare.first)
        elif piles.count():
            offers = page.locator(f"{TTT} .offer.playable")
            picked = offers.count() > 0
            target = offers.last if picked and counts["discards"] % 3 == 2 else piles.first
            if picked:
                text = target.get_attribute("data-move") or ""
                assert re.fullmatch(r"discard \d+(,\d+)* (left|right)", text), text
            if click_and_wait_for_log(page, target):
                counts["moves"] += 1
                counts["discards"] += picked
        elif cards.count():
            try_click(cards.last)  # the highest number, as many as may go
        else:
            time.sleep(0.05)

    return play_until_over(
        page, f"{TTT} .playable", turn, {"moves": 0, "discards": 0}, limit_seconds
    )


def test_a_person_plays_three_two_one_on_the_table_to_the_end(server, new_page):
    page = new_page()
    # Four players and one round: the whole game is one deal (quick to play to the end).
    bots = ["bot:greedy", "bot:random", "bot:random"]
    create_in_lobby(page, server, "three_two_one", {"players": 4, "rounds": 1}, bots)
    page.wait_for_selector(f"{TTT} .hand-panel.mine")
    # The table: three opponents' hands as backs, both discard piles and the draw pile.
    assert page.locator(f"{TTT} .hand-panel.opponent").count() == 3
    assert page.locator(f"{TTT} .discard-pile").count() == 2
    page.wait_for_selector(f"{TTT} .group .card.playable")
    hand = page.locator(f"{TTT} .hand-panel.mine .card").count()
    assert hand == 12
    assert page.locator(f"{TTT} .opponent .card.back").count() == 36
    # A pick lifts the cards and offers exactly the legal discards of that number.
    first = page.locator(f"{TTT} .group .card.playable").first
    first.get_by_role("button").focus()  # (the clear shape over the card is its button)
    page.keyboard.press("Enter")  # the keyboard picks too
    page.wait_for_selector(f"{TTT} .card.lifted")
    offered = sorted(moves_on(page, f"{TTT} .offer"))
    value = page.locator(f"{TTT} .card.lifted").first.get_attribute("data-value")
    listed = sorted(moves_on(page, ".move"))
    assert offered == [m for m in listed if re.fullmatch(rf"discard {value}(,{value})* \w+", m)]
    # The discard goes onto a pile by a click on it, then the draw is a click on a pile.
    pile = page.locator(f"{TTT} .discard-pile.playable").first
    assert pile.get_attribute("data-move") == f"discard {value} left"
    assert click_and_wait_for_log(page, pile)
    page.wait_for_selector(f"{TTT} .draw-pile.playable")
    assert page.locator(f"{TTT} .draw-pile").get_attribute("data-move") == "draw pile"
    counts = play_three_two_one(page)
    assert counts["moves"] > 0 and counts["discards"] > 0
    banner = page.inner_text(".banner.over")
    assert re.search(r"You win|Winner: ", banner), banner
    # The end: every hand of the last round revealed (a tie's play-off round has only the
    # tied players), and the winner marked.
    assert page.locator(f"{TTT} .last-round .reveal").count() == hands_in_last_round(server, page)
    assert re.search(r"wins? the game|share the win", page.inner_text("#board"))
    assert page.locator(f"{TTT} .hand-panel.winner").count() >= 1
    assert page.locator("#seats .result").count() == 4
    screenshot(page, "three_two_one_board")
    # A spectator sees the table with every hand as backs, and no hand of its own.
    spectator = new_page()
    spectator.goto(page.url.split("#")[0])
    spectator.wait_for_selector(f"{TTT} .hand-panel.opponent")
    assert spectator.locator(f"{TTT} .hand-panel.opponent").count() == 4
    assert spectator.locator(f"{TTT} .hand-panel.mine").count() == 0
    assert spectator.locator(f"{TTT} .playable").count() == 0


def test_after_a_blastoff_the_round_summary_says_blastoff_not_a_total(server, new_page):
    """The declarer discarded the whole hand: "Blastoff!" in its row, wide and narrow."""
    from tests.three_two_one.helpers import BLASTOFF_HAND, deal, new_game, play

    from .test_table import board_page, draw

    state = deal(new_game(2), {0: BLASTOFF_HAND, 1: [2] * 8 + [3] * 4}, left=9, right=10)
    play(state, "blastoff")
    page = board_page(server, new_page, "three_two_one", 2)
    for narrow in (False, True):
        draw(page, "three_two_one", state.observation(1), seat=1, names=["Ada", "Bea"],
             narrow=narrow)  # fmt: skip
        declarer = page.locator(f"{TTT} .last-round .reveal.declarer")
        assert "Blastoff!" in declarer.text_content()
        assert "total" not in declarer.text_content() and declarer.locator(".card").count() == 0
        other = page.locator(f"{TTT} .last-round .reveal:not(.declarer)").text_content()
        assert "total 28" in other


# -- Sputnik ------------------------------------------------------------------------------------
SP = ".sputnik"


def play_sputnik(page, limit_seconds=240, switch_rockets=False):
    """Fly to a glowing cell, remove a galaxy marked ✕; with ``switch_rockets`` first choose
    the other rocket whenever there is one to choose. Returns the counts of moves and switches."""

    def turn(counts):
        other = page.locator(f"{SP} .cell.choosable:not(.chosen)")
        targets = page.locator(f"{SP} .cell.target, {SP} .cell.removable")
        if switch_rockets and other.count() and counts["switches"] <= counts["moves"] // 2:
            counts["switches"] += try_click(other.first)
        elif targets.count():
            counts["moves"] += click_and_wait_for_log(page, targets.last)
        else:
            time.sleep(0.05)

    counts = {"moves": 0, "switches": 0}
    return play_until_over(page, f"{SP} .cell.playable", turn, counts, limit_seconds)


def test_a_person_plays_sputnik_on_the_hex_board_to_the_end(server, new_page):
    page = new_page()
    create_in_lobby(page, server, "sputnik", {"players": 3}, ["bot:greedy", "bot:random"])
    page.wait_for_selector(f"{SP} .cell")
    assert page.locator(f"{SP} .cell").count() == 37
    assert page.locator(f"{SP} .cell.base").count() == 3
    assert page.locator(f"{SP} .rocket").count() >= 3
    page.wait_for_selector(f"{SP} .cell.target, .banner.over")
    if page.locator(f"{SP} .cell.target").count():  # my first move: the cells are the moves
        shown = moves_on(page, f"{SP} .cell.target")
        assert sorted(shown) == sorted(moves_on(page, ".move"))  # the buttons list the same
        assert all(re.fullmatch(r"(move|help) [a-g][1-7]", m) for m in shown)
        assert page.locator(f"{SP} .cell.galaxy.protected").count() > 0  # by my unmoved base
    assert play_sputnik(page)["moves"] > 0
    banner = page.inner_text(".banner.over")
    assert re.search(r"You win|Winner: |Draw", banner), banner
    if "Draw" not in banner:
        assert page.locator(f"{SP} .player.out").count() == 2
        assert re.search(r"wins?!", page.inner_text("#board"))
    assert page.locator(f"{SP} .cell.empty").count() > 0
    screenshot(page, "sputnik_board")
    # The replay starts from the full board of galaxies, nothing playable.
    page.click("#replay-start")
    page.wait_for_selector("#replay-step")
    assert page.locator(f"{SP} .cell.empty").count() == 0
    assert page.locator(f"{SP} .cell.galaxy").count() == 37 - 3
    assert page.locator(f"{SP} .playable").count() == 0


def test_with_two_rockets_a_click_chooses_which_one_flies(server, new_page):
    page = new_page()
    create_in_lobby(
        page, server, "sputnik", {"players": 2, "rockets_per_player": 2}, ["bot:greedy"]
    )
    page.wait_for_selector(f"{SP} .cell")
    assert page.locator(f"{SP} .cell.base").count() == 4
    page.wait_for_selector(f"{SP} .cell.choosable, .banner.over")
    if page.locator(f"{SP} .cell.choosable").count() == 2:
        chosen = page.locator(f"{SP} .cell.choosable.chosen").get_attribute("data-cell")
        targets = moves_on(page, f"{SP} .cell.target")
        assert targets
        assert all(re.fullmatch(rf"(move|help) {chosen}-[a-g][1-7]", m) for m in targets)
        page.locator(f"{SP} .cell.choosable:not(.chosen)").click()
        other = page.locator(f"{SP} .cell.choosable.chosen").get_attribute("data-cell")
        assert other != chosen
        targets = moves_on(page, f"{SP} .cell.target")
        assert all(m.split(" ")[1].startswith(f"{other}-") for m in targets)
    counts = play_sputnik(page, switch_rockets=True)
    assert counts["moves"] > 0 and counts["switches"] > 0
    page.wait_for_selector(".banner.over")
    screenshot(page, "sputnik_two_rockets")


def hands_in_last_round(server, page) -> int:
    """How many hands the engine reveals at the end of the finished game on ``page``."""
    state = replayed_export(server, game_id_of(page))
    assert state.is_terminal()
    return sum(hand is not None for hand in state.public_observation()["last_round"]["hands"])
