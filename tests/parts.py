"""Where the tests find the parts they drive besides Python (scripts/test-parts.sh sets them up).

Each is found by an environment variable, or else where that script puts it. A test whose part
is missing is skipped with the reason, and on CI a skip fails (tests/conftest.py).
"""

from __future__ import annotations

import os
import socket

from sqlalchemy.engine import make_url

DEFAULT_DATABASE_URL = "postgresql://tminus:tminus@127.0.0.1:5432/tminus_test"
NO_DATABASE = (
    "no PostgreSQL for the tests: run scripts/test-parts.sh, or set TMINUS_TEST_DATABASE_URL"
)


def _reachable(url: str) -> bool:
    parsed = make_url(url)
    try:
        with socket.create_connection((parsed.host or "127.0.0.1", parsed.port or 5432), 2):
            return True
    except OSError:
        return False


def database_for_tests() -> str | None:
    """The PostgreSQL the tests may use (its tables are dropped and made anew), or None."""
    url = os.environ.get("TMINUS_TEST_DATABASE_URL", DEFAULT_DATABASE_URL)
    return url if _reachable(url) else None
