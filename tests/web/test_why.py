""" "Why can't I…?" on the table (issue 38): a player names a move that is not possible and
is told the rule that forbids it; a possible move is said to be possible. On a phone's
screen, by keyboard, with nothing serious for axe-core."""

from __future__ import annotations

from pathlib import Path

from .conftest import PHONE, create_game, horizontal_overflow, serious_accessibility_problems

ROOT = Path(__file__).resolve().parents[2]


def test_why_cant_i_on_a_phone(server, new_page):
    created = create_game(server, "four_way", {"players": 2}, ["person:Ada", "bot"])
    page = new_page(PHONE)
    page.goto(server + created["invites"][0]["url"])
    page.wait_for_selector("#moves .move:not([disabled])")  # Ada's turn
    legal = {
        int(a)
        for a in page.eval_on_selector_all("#moves .move", "ns => ns.map(n => n.dataset.action)")
    }

    why = page.locator("#why")
    assert why.is_visible()
    # By keyboard: the summary opens it; the names of the position's moves are fetched.
    page.locator("#why summary").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#why-moves option').length > 0")
    game_id = page.url.split("/game/")[1].split("?")[0].split("#")[0]
    named = page.request.get(f"{server}/api/games/{game_id}/moves").json()["moves"]
    options = page.eval_on_selector_all("#why-moves option", "ns => ns.map(n => n.value)")
    assert options == [m["label"] for m in named]
    impossible = next(m for m in named if m["action"] not in legal)
    possible = next(m for m in named if m["action"] in legal)

    # A move that is not possible: the rule that forbids it, in the live region.
    page.fill("#why-move", impossible["label"])
    page.keyboard.press("Enter")  # (in the field: asks)
    said = page.locator("#why-said")
    page.wait_for_function(
        "label => document.getElementById('why-said').textContent.startsWith(label + ': ')"
        " && !document.getElementById('why-said').textContent.includes('Asking')",
        arg=impossible["label"],
    )
    reason = said.inner_text().removeprefix(impossible["label"] + ": ")
    assert reason and "possible" not in reason
    assert said.get_attribute("aria-live") == "polite"
    (ROOT / "docs" / "screenshots").mkdir(parents=True, exist_ok=True)
    why.scroll_into_view_if_needed()
    page.screenshot(path=str(ROOT / "docs" / "screenshots" / "why-phone.png"))

    # The same question over a socket of the seat's own: the server's rule, word for word.
    invite = created["invites"][0]
    told = page.evaluate(
        """([id, seat, token, action]) => new Promise((resolve) => {
            const ws = new WebSocket(`ws://${location.host}/ws/games/${id}`);
            ws.onopen = () => {
                ws.send(JSON.stringify({type: 'hello', seat, token}));
                ws.send(JSON.stringify({type: 'why', action}));
            };
            ws.onmessage = (event) => {
                const message = JSON.parse(event.data);
                if (message.type === 'why') { ws.close(); resolve(message); }
            };
        })""",
        [game_id, invite["seat"], invite["token"], impossible["action"]],
    )
    assert told["reason"] == reason and told["label"] == impossible["label"]

    # A possible move: it says so; the "Ask" button asks too.
    page.fill("#why-move", possible["label"])
    page.click("#why button[type=submit]")
    page.wait_for_function("document.getElementById('why-said').textContent.includes('possible')")
    assert said.inner_text() == f"{possible['label']}: That move is possible: play it."

    # Nothing sideways on a phone, and nothing serious for axe-core.
    assert horizontal_overflow(page) == 0
    box = why.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert serious_accessibility_problems(page) == []
