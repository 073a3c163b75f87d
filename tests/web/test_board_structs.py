"""The boards read each legal move's struct, never its words: with every move's text and
label replaced by nonsense, each board offers the same moves as with the server's words, and
a click plays the move the struct describes."""

from __future__ import annotations

import pytest

from .test_count_down_board import playout as count_down_playout
from .test_count_down_board import position_page
from .test_table import board_page, draw, playout

NAMES = ["Ada", "Bea", "Cy", "Dee"]


def as_sent(state, disguise: bool) -> list[dict]:
    """The legal moves as the server sends them; disguised, their words mean nothing."""
    names = NAMES[: state.game.num_players]
    return [
        {
            "action": a,
            "text": f"zz{a}" if disguise else state.action_to_string(a),
            "label": f"zz{a}" if disguise else state.move_label(a, names),
            "struct": state.action_to_struct(a),
        }
        for a in state.legal_actions()
    ]


def offered(page, legal) -> list[int]:
    """The actions of the moves the board offers (each playable thing names its move)."""
    action = {m["text"]: m["action"] for m in legal}
    shown = page.eval_on_selector_all("#board [data-move]", "ns => ns.map(n => n.dataset.move)")
    return sorted(action[text] for text in shown)


def has(*kinds):
    """Whether a state's legal moves include one of these kinds."""
    return lambda s: any(s.action_to_struct(a)["kind"] in kinds for a in s.legal_actions())


POSITIONS = {
    "four_way": (has("attack"), {"players": 4}),
    "sputnik": (has("move", "help"), {"players": 3}),
    "three_two_one": (has("discard"), {"players": 3}),
}


@pytest.mark.parametrize("game", sorted(POSITIONS))
def test_a_board_offers_and_plays_moves_whose_words_mean_nothing(server, new_page, game):
    until, params = POSITIONS[game]
    state = playout(game, until, **params)
    seat = state.current_player()
    page = board_page(server, new_page, game, params["players"])
    seen = {}
    for disguise in (False, True):
        legal = as_sent(state, disguise)
        draw(page, game, state.observation(seat), seat=seat, names=NAMES, legal=legal)
        picked = page.locator("#board .card.lifted").count()  # a pick outlives a redraw
        if game == "three_two_one" and not picked:  # a discard goes on a pile once picked
            page.locator("#board .group .card.playable").last.click()
        seen[disguise] = offered(page, legal)
    assert seen[True] and seen[True] == seen[False]
    target = page.locator("#board [data-move]").first
    played = int(target.get_attribute("data-move").removeprefix("zz"))
    target.click()
    assert page.evaluate("window.clicked") == [played]


def draw_count_down(page, state, seat, legal):
    page.evaluate(
        """async ([obs, legal, seats]) => {
            const { boardFor } = await import('/static/js/boards/index.js');
            window.clicked = [];
            const ctx = { seat: obs.seat, seats, legal, toMove: null, replay: false,
                          ended: false, onMove: (action) => window.clicked.push(action) };
            document.getElementById('board').replaceChildren(
                boardFor('count_down').render(obs, ctx));
        }""",
        [state.observation(seat), legal, [{"seat": s, "name": n} for s, n in enumerate(NAMES)]],
    )


def test_count_down_offers_read_what_they_trade_from_the_struct(server, new_page):
    """In a meeting, a card picked on the board lists its offers, told apart by what their
    struct gives and gets ("sell for 150", "swap for Radar"), whatever their text says."""
    state, seat = count_down_playout(lambda s, obs: obs["phase"] == "meeting" and has("offer")(s))
    page = position_page(server, new_page)
    said = {}
    for disguise in (False, True):
        legal = as_sent(state, disguise)
        draw_count_down(page, state, seat, legal)
        assert offered(page, legal)  # the board's own moves: done, a card to ask for, …
        card = page.locator(".count-down .selectable").first
        if not page.locator(".count-down .selected").count():  # the pick outlives a redraw
            card.click()
        action = {m["text"]: m["action"] for m in legal}
        pills = page.eval_on_selector_all(
            ".count-down .pill",
            "ps => ps.map(p => [p.dataset.move, p.querySelector('text').textContent])",
        )
        offers = {m["action"] for m in legal if m["struct"]["kind"] == "offer"}
        said[disguise] = {action[move]: words for move, words in pills if action[move] in offers}
    assert said[True], "the offers about the card picked are in the tray"
    assert said[True].items() <= said[False].items()
    offer = next(iter(said[True]))
    page.click(f".count-down .pill[data-move='zz{offer}']")
    assert page.evaluate("window.clicked") == [offer]
