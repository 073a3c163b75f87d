"""A newcomer's first hour: each game played whole against bots, on a phone and a desktop,
with every screen it passes checked as a player would look at it:
- no visible control without words (a button that looks broken), and no clear click layer
  painted over the words it lies on (3-2-1's blank green pills);
- no text cut off by its box, run out of the board, or past the box drawn behind it;
- the board marks what the last move changed (or, after one that changes nothing drawn
  there, a pass or a card not bought, what the last move that did changed);
- at the end, the placings shown are the engine's (`State.placings()`, each game's own
  ranking: Sputnik's order of elimination, 3-2-1's rounds won).
"""

from __future__ import annotations

import contextlib
import re
import time

import httpx
import pytest

from .conftest import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    create_game,
    played_first_move,
    replayed_export,
    screenshot,
)

# Each game at a size and count that shows its own ranking; caps keep random bots short.
GAMES = {
    "four_way": ({"players": 3}, ["person", "bot:greedy", "bot:random"]),
    "sputnik": ({"players": 3}, ["person", "bot:random", "bot:greedy"]),
    "three_two_one": ({"players": 3, "max_turns": 60}, ["person", "bot:random", "bot:random"]),
    "count_down": ({"players": 2, "max_turns": 40}, ["person", "bot:random"]),
}
# What a person picks on the board before a move (3-2-1: a card, which brings up the piles'
# offers), looked at before the move is played from the buttons.
PICKS = {"three_two_one": ".three-two-one .group .card.playable"}
# The marks of a last move (3-2-1: a declaration that just ended the round marks the round
# revealed, ``.last-round.last``: a bot may declare right after the person's move).
MARKS = ".last, .last-from, .last-to, .last-removed, .drawn-from, .just-discarded"

# The problems a player would see on the screen now, one line each.
SCREEN_PROBLEMS = """async () => {
  // (as a player sees it: after the board's words were fitted, a frame after drawing)
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const problems = [];
  const shown = (n) => {
    const r = n.getBoundingClientRect(), style = getComputedStyle(n);
    return r.width > 0 && r.height > 0 && style.visibility !== "hidden" &&
      !n.closest("[hidden], details:not([open]) > :not(summary)");
  };
  const what = (n) => (n.getAttribute("aria-label") || n.textContent || n.outerHTML)
    .trim().slice(0, 60);
  const controls = "button, [role=button], select, summary, a[href], input[type=button]";
  for (const n of document.querySelectorAll(controls)) {
    if (!shown(n)) continue;
    const words = (n.innerText || n.textContent || "").trim() ||
      n.getAttribute("aria-label") || n.getAttribute("title") || "";
    if (!words.trim()) problems.push(`a control without words: ${n.outerHTML.slice(0, 80)}`);
  }
  const clear = ["none", "transparent", "rgba(0, 0, 0, 0)"];
  for (const n of document.querySelectorAll(".press")) {
    const style = getComputedStyle(n);
    if (!clear.includes(style.fill) || !clear.includes(style.stroke))
      problems.push(`a click layer painted over its words (${style.fill}): ${what(n)}`);
  }
  for (const n of document.querySelectorAll("body *")) {
    if (n.closest("svg") || n.children.length || !n.textContent.trim() || !shown(n)) continue;
    const style = getComputedStyle(n);
    const hides = style.overflowX !== "visible" || style.textOverflow === "ellipsis";
    if (hides && !["auto", "scroll"].includes(style.overflowX) &&
        n.scrollWidth > n.clientWidth + 1)
      problems.push(`text cut off by its box: ${what(n)}`);
  }
  for (const t of document.querySelectorAll("svg text")) {
    if (!shown(t) || !t.textContent.trim()) continue;
    const r = t.getBoundingClientRect(), board = t.ownerSVGElement.getBoundingClientRect();
    if (r.left < board.left - 1 || r.right > board.right + 1)
      problems.push(`text runs out of the board: ${t.textContent}`);
    const box = t.parentNode.querySelector(":scope > rect:not(.press)");
    if (!box) continue;
    const b = box.getBoundingClientRect(), x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    const inside = b.left <= x && x <= b.right && b.top <= y && y <= b.bottom;
    if (inside && b.width > 0 && (r.left < b.left - 2 || r.right > b.right + 2))
      problems.push(`text runs past its box: ${t.textContent}`);
  }
  return problems;
}"""


def engine_placings(server: str, game_id: str) -> list[str]:
    """The engine's placings of the finished game, replayed from its export, as the page
    writes them ("1st", "=2nd", "" for a seat that takes no part)."""
    state = replayed_export(server, game_id)
    if not state.is_terminal():  # (ended by a resignation: not the rules' ranking)
        return []
    places = state.placings()
    shared = {p for p in places if places.count(p) > 1}
    ordinal = {1: "1st", 2: "2nd", 3: "3rd"}
    return ["" if p is None else ("=" if p in shared else "") + ordinal.get(p, f"{p}th")
            for p in places]  # fmt: skip


def played_by_the_person(page, logged: int) -> bool:
    """Whether the log shows a move of the person's (Player 1) after its first ``logged``
    lines (a roll is the dice's), one that changes the board (a pass does not); waits a
    moment for it."""
    try:
        page.wait_for_function(
            """n => [...document.querySelectorAll('#log li')].slice(n)
                 .some(li => /^Player 1 (?!rolls )/.test(li.innerText))""",
            arg=logged,
            timeout=3000,
        )
    except Exception:
        return False
    lines = page.eval_on_selector_all("#log li", "ls => ls.map(l => l.innerText)")[logged:]
    mine = [line for line in lines if re.match("Player 1 (?!rolls )", line)]
    return not any(" passes" in line for line in mine)


def play_checking_every_screen(
    page, pick: str | None, name: str, limit_seconds: float = 240
) -> tuple[list[str], float]:
    """Click the first move until the game ends; the problems seen on the screens passed
    (each once), and the share of the person's moves followed by a mark on the board.
    The screen after the person's sixth move is kept (artifacts/NAME.png) as a player saw
    it: docs/screenshots shows these."""
    problems: list[str] = []
    marked = moves = 0
    deadline = time.monotonic() + limit_seconds
    while not page.locator(".banner.over").count():
        assert time.monotonic() < deadline, "the game did not end in time"
        page.wait_for_selector(".move, .banner.over")
        problems += [p for p in page.evaluate(SCREEN_PROBLEMS) if p not in problems]
        if pick and page.locator(pick).count():
            with contextlib.suppress(Exception):  # (redrawn meanwhile: the next screen)
                page.locator(pick).last.click(timeout=2000)
                problems += [p for p in page.evaluate(SCREEN_PROBLEMS) if p not in problems]
        logged = page.locator("#log li").count()
        if not played_first_move(page):
            continue
        if not played_by_the_person(page, logged):
            continue  # (the buttons were redrawn under the click: the move was another's)
        with contextlib.suppress(Exception):  # (none in time: counted as unmarked)
            page.wait_for_selector(f"#board :is({MARKS})", timeout=2000)
        marked += page.locator(f"#board :is({MARKS})").count() > 0
        moves += 1
        if moves == 6:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    problems += [p for p in page.evaluate(SCREEN_PROBLEMS) if p not in problems]
    return problems, marked / moves


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_reads_well_on_every_screen(server, new_page, game, size):
    params, seats = GAMES[game]
    created = create_game(server, game, params, seats)
    page = new_page(PHONE if size == "phone" else DESKTOP)
    page.goto(server + created["invites"][0]["url"])
    page.wait_for_selector("#board > *")
    problems, marked = play_checking_every_screen(page, PICKS.get(game), f"{game}-{size}")
    screenshot(page, f"first_hour_{game}_{size}")
    assert problems == [], f"{game} on a {size}:\n" + "\n".join(problems)
    # After each of the person's moves the board shows a mark: of that move, or, where it
    # changed nothing drawn there (a card not bought), of the last move that did.
    assert marked == 1, f"{marked:.0%} of the person's moves left a mark on the board"
    shown = page.eval_on_selector_all(
        "#seats .seat", "rows => rows.map(r => r.querySelector('.result')?.textContent ?? '')"
    )
    assert shown == engine_placings(server, created["id"])


def test_six_players_on_a_phone_are_told_apart_by_name(server, new_page):
    """Five bots of one level are "Greedy (medium) 1" to "… 5": wherever a name must be
    shortened, its number stays (the phone showed five "Greedy (mediu…")."""
    created = create_game(server, "sputnik", {"players": 6}, ["person"] + ["bot:greedy"] * 5)
    page = new_page(PHONE)
    page.goto(server + created["invites"][0]["url"])
    page.wait_for_selector("#board svg")
    assert page.evaluate(SCREEN_PROBLEMS) == []
    names = page.eval_on_selector_all(
        "#board .player-name, #board svg text", "ns => ns.map(n => n.textContent.trim())"
    )
    bots = [s["name"] for s in httpx.get(f"{server}/api/games/{created['id']}").json()["seats"]]
    for name in bots[1:]:
        number = name.rsplit(" ", 1)[1]
        assert any(n.endswith(" " + number) and n[0] == name[0] for n in names), (name, names)


def test_a_player_left_offers_this_games_bots_only(server, new_page):
    made = create_game(server, "sputnik", {"players": 3}, ["person", "person", "bot:greedy"])
    page = new_page(DESKTOP)
    page.goto(server + made["invites"][0]["url"])
    page.click("#start")
    page.wait_for_selector(".give-to-bot")
    offered = page.eval_on_selector_all("#left-bot option", "os => os.map(o => o.value)")
    catalog = {g["name"]: g for g in httpx.get(server + "/api/catalog").json()}
    levels = catalog["sputnik"]["bots_by_players"]["3"]
    assert offered == [level["spec"] for level in levels]
    # The fairness panel speaks of this game's luck: Sputnik has no dice, only the lot.
    fairness = page.inner_text("#fairness")
    assert "the lot that picks who starts" in fairness and "roll" not in fairness
