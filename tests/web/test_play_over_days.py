"""Play over days, end to end (issue 37's "done when"), in a real browser with a real SMTP
server on loopback: Ada signs up and makes a rated turn-based 4-Way game with her friend Bob;
Bob is reminded by e-mail when it is his move, signs in on another device, opens the link
of the e-mail and moves; Ada's time runs out (the test moves the server's clock) and the
bot she chose plays for her; the rated result moves both ratings and shows on the
leaderboard."""

from __future__ import annotations

import httpx
import pytest

from tests.server.mailbox import smtp_server
from tminus.server.app import act_on_timeouts, rate_finished
from tminus.server.reminders import Mail, send_reminders

from .conftest import DESKTOP, PHONE, live_app
from .test_accounts import PASSWORD, sign_in_in_browser, sign_up_in_browser

DAY = 86_400


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory):
    """The app, its reminders going to a local SMTP server: (address, inbox)."""
    with (
        smtp_server() as (inbox, port),
        live_app(tmp_path_factory.mktemp("days") / "games.db", sign_ins_per_minute=600) as url,
    ):
        url.app.state.mail = Mail(host="127.0.0.1", port=port, security="none", public_url=url)
        yield url, inbox


def allow_reminders(page, address: str) -> None:
    page.fill("#email", address)
    page.check("#reminders")
    page.click("#details-submit")
    page.wait_for_selector("#details-message.ok")


def to_move(server: str, game_id: str) -> int | None:
    return httpx.get(f"{server}/api/games/{game_id}").json()["to_move"]


def move_until_not_my_turn(page, server: str, game_id: str, seat: int) -> None:
    """Play the first legal move, as often as the turn lasts (a turn may be several)."""
    while to_move(server, game_id) == seat:
        page.wait_for_selector(".move:not([disabled])")
        logged = page.locator("#log li").count()
        page.locator(".move:not([disabled])").first.click()
        page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=logged)


def test_a_rated_turn_based_game_over_days(mail_server, new_page):
    server, inbox = mail_server
    # Ada signs up and makes the game: rated, turn-based, a day a move, Greedy if time is out.
    ada = new_page(DESKTOP)
    sign_up_in_browser(ada, server, "Ada")
    allow_reminders(ada, "ada@example.org")
    ada.goto(server + "/")
    ada.click(".game-card[data-game=four_way]")
    ada.select_option("[name=players]", "2")
    ada.select_option("[name=kind-1]", "person")
    ada.check("#rated")
    ada.check("input[name=pace][value=turn]")
    ada.select_option("#per-move", "86400")
    ada.select_option("#reserve", "0")
    ada.select_option("#on-timeout", "greedy")
    ada.click("#create-game")
    invite = ada.get_attribute("#invite-1", "value")
    game_id = invite.split("/game/")[1].split("#")[0]
    made = httpx.get(f"{server}/api/games/{game_id}").json()
    assert made["rated"] and made["clock"] == {
        "kind": "turn", "per_move": DAY, "reserve": 0, "on_timeout": "greedy"
    }  # fmt: skip
    ada.click("#take-seat")

    # Bob signs up on his phone, allows reminders, and opens his invite: the game starts.
    bob = new_page(PHONE)
    sign_up_in_browser(bob, server, "Bob")
    allow_reminders(bob, "bob@example.org")
    bob.goto(invite)
    bob.wait_for_selector("#clocks .clock.running")
    if to_move(server, game_id) == 0:  # (who starts is the dice's)
        ada.wait_for_selector("#clocks .clock.running[data-seat='0']")
        move_until_not_my_turn(ada, server, game_id, 0)
    assert to_move(server, game_id) == 1
    bob.close()

    # Bob's move waits: he is e-mailed, once, with the link to his seat.
    assert server.run(send_reminders, server.app.state.store, server.app.state.mail) == 1
    [email] = [m for m in inbox.messages if m["To"] == "bob@example.org"]
    assert email["Subject"] == "Your move in 4-Way CountDown"
    body = email.get_content()
    link = next(line.strip() for line in body.splitlines() if f"/game/{game_id}#seat=1" in line)
    assert "24 h left" in body and "/unsubscribe/" in body

    # On another device Bob signs in, follows the e-mail's link and moves.
    tablet = new_page(PHONE)
    sign_in_in_browser(tablet, server, "Bob")
    tablet.wait_for_selector("#account-name")
    tablet.goto(link)
    tablet.wait_for_selector("#seats .seat.me[data-seat='1']")
    move_until_not_my_turn(tablet, server, game_id, 1)
    assert to_move(server, game_id) == 0

    # Ada lets a day pass: Greedy plays for her, the table says so.
    server.app.state.store.clock.advance(DAY + 1)
    server.run(act_on_timeouts, server.app.state)
    stand_in = tablet.locator("#seats .stand-in")
    stand_in.wait_for()
    assert stand_in.inner_text().startswith("Greedy (medium) plays for Ada")
    tablet.wait_for_function(
        f"() => fetch('/api/games/{game_id}').then(r => r.json()).then(g => g.to_move === 1)",
        polling=200,
    )

    # Bob resigns: Ada (her bot standing in) wins the rated game; both ratings move.
    tablet.on("dialog", lambda dialog: dialog.accept())
    tablet.click("#resign")
    tablet.wait_for_selector("#banner:has-text('Bob resigned')")
    assert server.run(rate_finished, server.app.state.store) == 1
    board = new_page(PHONE)
    board.goto(server + "/leaderboard?game=four_way&players=2")
    rows = board.locator("#standings tbody tr")
    rows.nth(1).wait_for()
    first, second = (rows.nth(i).inner_text() for i in (0, 1))
    assert "Ada" in first and "Bob" in second
    ratings = {s["name"]: s["rating"] for s in httpx.get(
        f"{server}/api/leaderboard", params={"game": "four_way", "players": 2}
    ).json()}  # fmt: skip
    assert ratings["Ada"] > 1500 > ratings["Bob"]
    assert str(ratings["Ada"]) in first and str(ratings["Bob"]) in second
    assert PASSWORD not in body
