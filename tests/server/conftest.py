"""The server's coroutine tests run on asyncio (anyio's pytest plugin)."""

import pytest


@pytest.fixture
def anyio_backend():
    return "asyncio"
