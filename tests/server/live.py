"""A real `tminus serve` process on a free loopback port, and a small WebSocket client."""

from __future__ import annotations

import base64
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(
        self,
        db: Path | str,
        bot_delay: float = 0.0,
        port: int | None = None,
        options: tuple[str, ...] = (),
    ) -> None:
        self.db_url = db if isinstance(db, str) else f"sqlite:///{db}"  # a path or a URL
        self.bot_delay = bot_delay
        self.port = port or free_port()
        self.options = options  # more `tminus serve` options, e.g. limits
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        return self.launch().wait()

    def launch(self) -> LiveServer:
        """Start the process (``wait`` until it answers). The database URL goes in the
        environment, as the README says: a password on the command line is seen by all."""
        # (A test's server builds no solved tables: 900 MB and a minute or more each.)
        command = [
            sys.executable, "-m", "tminus.cli", "serve", "--port", str(self.port),
            "--bot-delay", str(self.bot_delay), "--no-build-tables", *self.options,
        ]  # fmt: skip
        environment = {**os.environ, "PYTHONPATH": str(ROOT), "TMINUS_DATABASE_URL": self.db_url}
        # The log goes to a file: a pipe nobody reads would fill, and block the server.
        self.log_file = tempfile.TemporaryFile()  # noqa: SIM115 (closed with the object)
        self.process = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=self.log_file, env=environment
        )
        return self

    def wait(self) -> LiveServer:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log()}")
            try:
                if httpx.get(f"{self.url}/api/catalog", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start within 30 s")

    def log(self) -> str:
        """What the process wrote to its log so far."""
        self.log_file.seek(0)
        return self.log_file.read().decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no flushing; what was committed is all there is."""
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def get(self, path: str):
        return httpx.get(self.url + path, timeout=10).json()

    def post(self, path: str, body: dict):
        return httpx.post(self.url + path, json=body, timeout=10)

    def socket(self, game_id: str, seat: int | None = None, token: str | None = None):
        return Client(self, game_id, seat, token)


def frame(text: str) -> bytes:
    """A masked WebSocket text frame, as a client sends it."""
    payload = text.encode()
    mask = os.urandom(4)
    n = len(payload)
    header = bytes([0x81])
    if n < 126:
        header += bytes([0x80 | n])
    else:
        header += bytes([0x80 | 126]) + n.to_bytes(2, "big")
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class RawSocket:
    """A WebSocket spoken by hand over TCP: for clients that misbehave on purpose."""

    def __init__(self, server: LiveServer, path: str, *, rcvbuf: int | None = None,
                 pipelined: str | None = None) -> None:  # fmt: skip
        self.sock = socket.socket()
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.connect(("127.0.0.1", server.port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        )
        # ``pipelined``: the first message goes in the same write as the upgrade request.
        self.sock.sendall(request.encode() + (frame(pipelined) if pipelined else b""))
        self.buffer = b""

    def send(self, text: str) -> None:
        self.sock.sendall(frame(text))

    def _fill(self, deadline: float) -> None:
        """Read what the server sent next into the buffer."""
        self.sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = self.sock.recv(65536)
        if not chunk:
            raise EOFError("the server closed the connection")
        self.buffer += chunk

    def _read(self, n: int, deadline: float) -> bytes:
        while len(self.buffer) < n:
            self._fill(deadline)
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def handshake(self, timeout: float = 10) -> str:
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.buffer:
            self._fill(deadline)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        return head.decode()

    def receive(self, timeout: float = 10) -> tuple[int, bytes]:
        """The next frame from the server: (opcode, payload)."""
        deadline = time.monotonic() + timeout
        first, second = self._read(2, deadline)
        n = second & 0x7F
        if n == 126:
            n = int.from_bytes(self._read(2, deadline), "big")
        elif n == 127:
            n = int.from_bytes(self._read(8, deadline), "big")
        return first & 0x0F, self._read(n, deadline)

    def until_closed(self, timeout: float) -> bool:
        """Read (and drop) everything until the server closes: a close frame or the end."""
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                opcode, _ = self.receive(deadline - time.monotonic())
                if opcode == 8:
                    return True
        except EOFError:
            return True
        except (TimeoutError, OSError):
            return False
        return False

    def close(self) -> None:
        self.sock.close()


class Client:
    """One seat's (or a spectator's) socket; keeps every message it received."""

    def __init__(self, server: LiveServer, game_id: str, seat: int | None, token: str | None):
        ws_url = server.url.replace("http", "ws") + f"/ws/games/{game_id}"
        self.ws = connect(ws_url, open_timeout=10).__enter__()
        self.messages: list[dict] = []
        self.ws.send(json.dumps({"type": "hello", "seat": seat, "token": token}))

    def receive(self, timeout: float = 10) -> dict:
        message = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(message)
        return message

    def until(self, predicate, timeout: float = 30) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            try:
                message = self.receive(max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                recent = [m for m in self.messages[-8:] if m.get("type") != "state"]
                raise AssertionError(f"not heard in {timeout} s; last others: {recent}") from None
            if predicate(message):
                return message

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def log(self) -> list[str]:
        """The log texts this socket was sent, in order."""
        texts = []
        for m in self.messages:
            if m.get("type") == "state":
                del texts[m["log_from"] :]
                texts.extend(e["text"] for e in m["log"])
        return texts

    def close(self) -> None:
        self.ws.close()


def create(server: LiveServer, seats: list[dict], game: str = "four_way", **params) -> dict:
    body = {"game": game, "params": params, "seats": seats}
    response = server.post("/api/games", body)
    assert response.status_code == 201, response.text
    return response.json()


def sit(server: LiveServer, game: dict, seat: int) -> Client:
    invite = next(i for i in game["invites"] if i["seat"] == seat)
    return server.socket(game["id"], invite["seat"], invite["token"])


def state_where(client: Client, predicate, timeout: float = 30) -> dict:
    """The socket's newest state if it meets ``predicate``, else the first one to come that
    does."""
    states = [m for m in client.messages if m.get("type") == "state"]
    if states and predicate(states[-1]):
        return states[-1]
    return client.until(lambda m: m.get("type") == "state" and predicate(m), timeout)
