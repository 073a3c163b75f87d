"""The server compresses (permessage-deflate) only the messages too long for one TCP segment:
the small ones go as they are, and the client's inflater, which keeps its window across
messages, still reads every compressed one after them."""

from __future__ import annotations

import asyncio
import json

from websockets.asyncio.client import connect
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import TEXT, Frame

from tests.server.live import LiveServer
from tminus.server.serving import COMPRESS_FROM, DeflateTheLargeOnes, SmallMessagesPlain


def negotiated() -> tuple[SmallMessagesPlain, object]:
    """The server's extension and the client's, as a browser's offer would make them."""
    client_factory = ClientPerMessageDeflateFactory(client_max_window_bits=True)
    server_factory = DeflateTheLargeOnes(server_max_window_bits=12, client_max_window_bits=12)
    response, server = server_factory.process_request_params(
        client_factory.get_request_params(), []
    )
    client = client_factory.process_response_params(response, [])
    assert isinstance(server, SmallMessagesPlain)
    return server, client


def test_small_messages_go_plain_and_large_ones_compressed_in_one_stream():
    server, client = negotiated()
    state = {"type": "state", "log": [{"text": "Ann rolled 7."}] * 200}
    large = json.dumps(state).encode()
    small = json.dumps({"type": "state", "move_number": 4}).encode()
    assert len(small) < COMPRESS_FROM <= len(large)
    for data in (large, small, large, small, large):
        sent = server.encode(Frame(TEXT, data))
        if len(data) < COMPRESS_FROM:
            assert not sent.rsv1 and sent.data == data  # as it is
        else:
            assert sent.rsv1 and len(sent.data) < len(data) // 4  # compressed
        assert client.decode(sent).data == data  # (the client's window stays in step)


def test_a_live_servers_states_reach_a_compressing_client_whole(tmp_path):
    """``tminus serve`` and the websockets client, compression negotiated: 4-Way's states
    (about 1.1 KB, sent as they are) and Count Down's (4 KB and more, compressed) are read
    whole, move after move."""
    server = LiveServer(tmp_path / "games.db").start()
    try:
        for game, players in (("four_way", 2), ("count_down", 2)):
            sizes, negotiated, frames = asyncio.run(play_a_few_moves(server, game, players))
            assert negotiated == ["permessage-deflate"]
            assert len(sizes) >= 4, (game, sizes)
            if game == "four_way":
                assert min(sizes) < COMPRESS_FROM, sizes
            else:
                assert min(sizes) >= COMPRESS_FROM, sizes
            # Each frame as it came: compressed exactly when its message was long.
            for compressed, size in frames:
                assert compressed == (size >= COMPRESS_FROM), (game, frames)
    finally:
        server.stop()


async def play_a_few_moves(server: LiveServer, game: str, players: int):
    """This test plays its seat's first legal move each turn, a greedy bot the other: the
    sizes of the states read, and the extensions the socket agreed on."""
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}]
    body = {"game": game, "params": {"players": players}, "seats": seats}
    created = server.post("/api/games", body).json()
    url = server.url.replace("http", "ws", 1) + f"/ws/games/{created['id']}"
    sizes: list[int] = []
    async with connect(url, compression="deflate", max_size=2**24) as ws:
        negotiated = [extension.name for extension in ws.protocol.extensions]
        assert negotiated, "the server agreed to no compression"
        frames: list[tuple[bool, int]] = []  # (compressed, size once inflated)
        inflater = ws.protocol.extensions[0]
        inflate = inflater.decode

        def seen(frame: Frame, *, max_size: int | None = None) -> Frame:
            whole = inflate(frame, max_size=max_size)
            frames.append((frame.rsv1, len(whole.data)))
            return whole

        inflater.decode = seen  # type: ignore[method-assign]
        (invite,) = created["invites"]
        await ws.send(
            json.dumps({"type": "hello", "seat": invite["seat"], "token": invite["token"]})
        )
        while len(sizes) < 6:
            text = await asyncio.wait_for(ws.recv(), 10)
            message = json.loads(text)
            if message.get("type") != "state":
                continue
            sizes.append(len(text))
            if message["status"] == "finished":
                break
            if message["legal"]:
                action = message["legal"][0]["action"]
                move = {"type": "move", "move_number": message["move_number"], "action": action}
                await ws.send(json.dumps(move))
    return sizes, negotiated, frames
