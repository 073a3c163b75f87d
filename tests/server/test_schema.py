"""The OpenAPI schema says what the server answers: Schemathesis finds no difference.

Schemathesis generates requests from the schema (valid and invalid ones) against a real
server on loopback and checks every answer: no server error, a documented status code, a
documented content type and a body that fits the documented schema, invalid data refused.
One check is left out: that every schema-valid request succeeds. A game's rules say more
than a JSON schema can (a 3-player game has 3 seats; the bots offered depend on the game),
and such a request is refused with a documented 400.

The schema is read from the app itself when the module is collected (one test per
operation), not through Schemathesis's lazy fixture loader: that loader reads a private
attribute that pytest 9 removed.
"""

from __future__ import annotations

import os
import threading
import time

import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tminus.server.app import create_app
from tminus.server.limits import Limits

from .live import free_port


def served_app(db_url: str):
    return create_app(db_url, bot_delay=0, limits=Limits(creates_per_minute=30))


schema = schemathesis.openapi.from_dict(served_app("sqlite:///:memory:").openapi())


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    db = tmp_path_factory.mktemp("schema") / "games.db"
    port = free_port()
    app = served_app(f"sqlite:///{db}")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@schema.parametrize()
@settings(
    max_examples=int(os.environ.get("TMINUS_SCHEMA_EXAMPLES", 25)),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_server_answers_what_its_schema_says(case, base_url):
    case.call_and_validate(base_url=base_url, excluded_checks=[positive_data_acceptance])
