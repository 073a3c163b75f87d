"""Browser tests: a real server in a thread, the system Chromium driven by Playwright."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live import free_port
from tests.server.secret_game import SecretGame
from tminus.core.registry import load_game, register_game, unregister_game

playwright = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

CHROMIUM = os.environ.get("TMINUS_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
# axe-core, from the npm registry (.ci/run: npm install axe-core), injected into pages.
AXE = Path(os.environ.get("TMINUS_AXE", ROOT / "node_modules" / "axe-core" / "axe.min.js"))
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
WIDE_DESKTOP = {"width": 1920, "height": 1080}

if not shutil.which(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


class LiveApp(str):
    """A live app's address, with the app: ``run`` awaits a coroutine on its loop (a chore's
    round made now), ``app.state.service.store.clock`` is the time it reads."""

    app: Any
    loop: asyncio.AbstractEventLoop

    def run(self, work: Any, *args: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(work(*args), self.loop).result(timeout=30)


@contextlib.contextmanager
def live_app(db, **limits):
    """The app on a free loopback port (``limits``: its Limits), yielding its address."""
    from tminus.server.app import create_app
    from tminus.server.limits import Limits
    from tminus.server.serving import PipelinedMessages

    port = free_port()
    app = create_app(f"sqlite:///{db}", bot_delay=0.02, limits=Limits(**limits))
    # (the sockets of `tminus serve`: Chromium reads the small messages sent uncompressed)
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", ws=PipelinedMessages
    )
    instance = uvicorn.Server(config)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(instance.serve(),))
    thread.daemon = True
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    live = LiveApp(f"http://127.0.0.1:{port}")
    live.app, live.loop = app, loop
    try:
        yield live
    finally:
        instance.should_exit = True
        thread.join(timeout=10)
        loop.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app on a free loopback port, with a hidden-information test game registered."""
    register_game(SecretGame)  # a game without a board of its own: the generic board
    try:
        with live_app(tmp_path_factory.mktemp("web") / "games.db") as url:
            yield url
    finally:
        unregister_game(SecretGame.name)


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def strict_page(browser):
    """A page that obeys the CSP and records every violation the browser reports."""
    context = browser.new_context(bypass_csp=False)
    page = context.new_page()
    page.set_default_timeout(20_000)
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    page.on("pageerror", lambda error: refused.append(str(error)))
    yield page, refused
    context.close()


@pytest.fixture
def new_page(browser):
    """Pages in fresh browser contexts (separate people); page errors fail the test.
    ``new_page(PHONE)`` is a touch phone's screen."""
    contexts, errors = [], []

    def make(viewport=None):
        phone = viewport is not None and viewport["width"] < 600
        context = browser.new_context(
            viewport=viewport or {"width": 1300, "height": 950},
            has_touch=phone,
            is_mobile=phone,
            # Playwright's string predicates and axe-core are scripts the CSP refuses.
            bypass_csp=True,
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert errors == []


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def played_first_move(page) -> bool:
    """Press the first of the move buttons and wait until the log has the move; False when
    the board was redrawn under the mouse (look again)."""
    logged = page.locator("#log li").count()
    try:
        page.locator(".move").first.click(timeout=2000)
    except Exception:  # redrawn under the mouse
        return False
    page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=logged)
    return True


def create_game(server, game, params, seats):
    """A game made through the API; ``seats``: "person", "person:Name", "bot" or
    "bot:spec:Name". Returns the API's answer (invites, spectate link)."""
    made = []
    for seat in seats:
        kind, _, rest = seat.partition(":")
        if kind == "person":
            made.append({"kind": "person", "name": rest or None})
        else:
            spec, _, name = rest.partition(":")
            made.append({"kind": "bot", "bot": spec or "greedy", "name": name or None})
    body = {"game": game, "params": params, "seats": made}
    response = httpx.post(server + "/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def replayed_export(server: str, game_id: str):
    """The game's state replayed by the engine from the server's export (the moves taken
    back left out): what the page should show of a finished game."""
    export = httpx.get(f"{server}/api/games/{game_id}/export").json()
    state = load_game(export["game"], **export["params"]).new_initial_state()
    for entry in export["actions"]:
        if "action" in entry and not entry.get("taken_back"):
            state.apply_action(entry["action"])
    return state


def game_id_of(page) -> str:
    """The id of the game a page shows (``/game/ID``)."""
    return page.url.split("/game/")[1].split("?")[0].split("#")[0]


def horizontal_overflow(page) -> int:
    """How many pixels the page is wider than the screen (0: no sideways scroll)."""
    return page.evaluate(
        "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - innerWidth"
    )


def small_targets(page, selector=".move:not([disabled]), #board .playable") -> list[str]:
    """The clickable moves smaller than 44 x 44 CSS pixels, as "move: width x height"."""
    return page.eval_on_selector_all(
        selector,
        """nodes => nodes.map(n => [n, n.getBoundingClientRect()])
            .filter(([, r]) => r.width < 44 || r.height < 44)
            .map(([n, r]) => `${n.dataset.move || n.getAttribute('aria-label')}: `
                             + `${r.width.toFixed(0)} x ${r.height.toFixed(0)}`)""",
    )


def serious_accessibility_problems(page) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each."""
    if not AXE.exists():
        pytest.skip(f"axe-core is not installed at {AXE} (npm install axe-core)")
    if not page.evaluate("!!window.axe"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes'][:3]]}"
        for v in found["violations"]
        if v["impact"] in ("serious", "critical")
    ]
