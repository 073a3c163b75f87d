"""Browser tests: a real server in a thread, the system Chromium driven by Playwright."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from tests.server.live import free_port
from tests.server.secret_game import SecretGame
from tminus.core.registry import register_game, unregister_game

playwright = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

CHROMIUM = os.environ.get("TMINUS_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

if not shutil.which(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app on a free loopback port, with a hidden-information test game registered."""
    from tminus.server.app import create_app

    register_game(SecretGame)  # a game without a board of its own: the generic board
    db = tmp_path_factory.mktemp("web") / "games.db"
    port = free_port()
    config = uvicorn.Config(
        create_app(f"sqlite:///{db}", bot_delay=0.02), host="127.0.0.1", port=port,
        log_level="warning",
    )  # fmt: skip
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    instance.should_exit = True
    thread.join(timeout=10)
    unregister_game(SecretGame.name)


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser):
    """Pages in fresh browser contexts (separate people); page errors fail the test."""
    contexts, errors = [], []

    def make():
        context = browser.new_context(viewport={"width": 1300, "height": 950})
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
