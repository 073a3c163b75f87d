"""Issue 40: plain TCP connections are held to limits too. A silent connection, or one that
sends its request a byte at a time (slowloris), is closed after `--request-timeout`; an
address may hold `--connections-per-address` connections at once, the rest are closed at
once; a trusted proxy is not capped. A real `tminus serve` on loopback."""

from __future__ import annotations

import socket
import time

import httpx

from .live import LiveServer

TIMEOUT = 1.0  # seconds a request may take to arrive, in these tests


def connect(server: LiveServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


def closed_after(sock: socket.socket, sending: bytes = b"", every: float = 0.2) -> float:
    """Seconds until the server closes ``sock`` (sending ``sending`` a byte at a time)."""
    start = time.monotonic()
    sock.settimeout(every)
    for byte in sending:
        try:
            sock.send(bytes([byte]))
            if sock.recv(1024) == b"":
                return time.monotonic() - start
        except TimeoutError:
            continue
        except OSError:  # reset: closed
            return time.monotonic() - start
    sock.settimeout(10)
    try:
        while sock.recv(1024):
            pass
    except OSError:
        pass
    return time.monotonic() - start


def answered_again(server: LiveServer, within: float = 5) -> bool:
    """Whether a request is answered within ``within`` seconds (once the server has seen
    the closed connections go)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if httpx.get(server.url + "/api/catalog", timeout=1).status_code == 200:
                return True
        except httpx.HTTPError:
            continue
    return False


def test_silent_and_slow_connections_are_closed_and_an_address_is_capped(tmp_path):
    options = ("--request-timeout", str(TIMEOUT), "--connections-per-address", "4")
    server = LiveServer(tmp_path / "games.db", options=options).start()
    try:
        silent = connect(server)
        assert TIMEOUT - 0.2 < closed_after(silent) < TIMEOUT + 3
        slow = connect(server)  # a head that never ends, a byte every 0.2 s
        head = b"GET /api/catalog HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200
        assert closed_after(slow, head) < TIMEOUT + 3
        held = [connect(server) for _ in range(4)]  # (accepted in order: before the fifth)
        extra = connect(server)  # a fifth from the same address: closed at once
        assert closed_after(extra) < 0.5 * TIMEOUT
        for sock in held:
            sock.close()
        assert answered_again(server)  # room again
    finally:
        server.stop()


def test_a_trusted_proxy_is_not_capped(tmp_path):
    options = ("--request-timeout", "5", "--connections-per-address", "2",
               "--trusted-proxies", "127.0.0.1")  # fmt: skip
    server = LiveServer(tmp_path / "games.db", options=options).start()
    try:
        held = [connect(server) for _ in range(4)]
        assert httpx.get(server.url + "/api/catalog").status_code == 200  # a fifth, and more
        for sock in held:
            sock.close()
    finally:
        server.stop()
