"""The OpenAPI schema says what the server answers: Schemathesis finds no difference.

Schemathesis generates requests from the schema (valid and invalid ones) against a real
server on loopback and checks every answer: no server error, a documented status code, a
documented content type and a body that fits the documented schema, invalid data refused.
One check is left out: that every schema-valid request succeeds. A game's rules say more
than a JSON schema can (a 3-player game has 3 seats; the bots offered depend on the game),
and such a request is refused with a documented 400.
"""

from __future__ import annotations

import os
import threading
import time

import pytest

schemathesis = pytest.importorskip("schemathesis")
uvicorn = pytest.importorskip("uvicorn")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from tminus.server.app import create_app  # noqa: E402
from tminus.server.limits import Limits  # noqa: E402

from .live import free_port  # noqa: E402


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    db = tmp_path_factory.mktemp("schema") / "games.db"
    port = free_port()
    app = create_app(f"sqlite:///{db}", bot_delay=0, limits=Limits(creates_per_minute=30))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield schemathesis.openapi.from_url(f"http://127.0.0.1:{port}/openapi.json")
    server.should_exit = True
    thread.join(timeout=10)


schema = schemathesis.pytest.from_fixture("api")


@schema.parametrize()
@settings(
    max_examples=int(os.environ.get("TMINUS_SCHEMA_EXAMPLES", 25)),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_server_answers_what_its_schema_says(case):
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
