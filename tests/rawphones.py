"""Phones that misbehave, on raw sockets, and honest phones that time their frames: what a curious player's ten
lines of client do to the phones' server (tests/test_phones_hostile.py, scripts/bench_phones_flood.py). Everything
on 127.0.0.1, bounded in count and time.

A raw phone does the websocket handshake by hand with its seat's link, then stops reading from its socket for good
(its transport paused): the server's frames and pongs stay in the buffers between the two.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import multiprocessing
import os
import socket
import time
from typing import Any, Iterator

@contextlib.contextmanager
def serving(seats: int, tick: float) -> Iterator[Any]:
    """A phones' server for ``seats`` seats on 127.0.0.1 at the clock ``tick``, in English; stopped at the end."""
    from narrator.phones.server import PhoneServer
    from narrator.voices import load_voice

    texts = {key: text for key, text in load_voice("en").lines.items() if key.startswith("phone.")}
    phones = PhoneServer(seats, texts, bind="127.0.0.1", tick=tick).start()
    try:
        yield phones
    finally:
        phones.stop()


PING = b"\x89\xfd" + b"\0" * 4 + b"p" * 125
"""A client's ping frame with the longest payload (125 bytes), masked with a zero key: each makes a 127-byte pong."""

BLOB = PING * 512
"""What the flood writes at once (66 KiB)."""


def socket_url(link: str) -> str:
    """Returns the socket's address of a seat's page link, as the page opens it."""
    return link.replace("http://", "ws://").replace("/p/", "/ws/")


async def handshake(link: str, receive_buffer: int | None = None,
                    headers: tuple[tuple[str, str], ...] = ()) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Opens ``link``'s socket by hand (its receive buffer set to ``receive_buffer`` bytes, a phone's small one)
    and returns its streams once the server accepted it; the handshake's request carries ``headers`` too."""
    host_port, path = link.removeprefix("http://").split("/", 1)
    host, port = host_port.rsplit(":", 1)
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    raw.setblocking(False)
    await asyncio.get_running_loop().sock_connect(raw, (host, int(port)))
    reader, writer = await asyncio.open_connection(sock=raw)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET /{path.replace('p/', 'ws/', 1)} HTTP/1.1", f"Host: {host_port}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
             *(f"{name}: {value}" for name, value in headers)]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    if not answer.startswith(b"HTTP/1.1 101"):
        writer.close()
        raise ConnectionRefusedError(answer.split(b"\r\n", 1)[0].decode())
    return reader, writer


def stop_reading(writer: asyncio.StreamWriter) -> None:
    """Reads nothing more from the socket, ever: what the server sends stays in the kernel's buffers, then in its
    own."""
    transport = writer.transport
    assert isinstance(transport, asyncio.Transport)
    transport.pause_reading()


@dataclasses.dataclass
class Flood:
    """A client that never reads and floods its seat's socket with pings, connecting again each time it is
    dropped, until it wrote ``pings`` or ``seconds`` passed. It counts the pings written, its connections, and the
    seconds from its first ping to the server cutting it off (``first_drop``)."""

    link: str
    pings: int
    seconds: float
    written: int = 0
    connections: int = 0
    first_drop: float | None = None

    async def run(self) -> None:
        end = time.monotonic() + self.seconds
        while self.written < self.pings and time.monotonic() < end:
            try:
                _, writer = await handshake(self.link, receive_buffer=4096)
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
                await asyncio.sleep(0.05)
                continue
            self.connections += 1
            stop_reading(writer)
            started = time.monotonic()
            try:
                while self.written < self.pings and time.monotonic() < end:
                    writer.write(BLOB)
                    await asyncio.wait_for(writer.drain(), max(0.01, end - time.monotonic()))
                    self.written += len(BLOB) // len(PING)
            except (OSError, asyncio.TimeoutError):
                pass
            if self.first_drop is None and writer.transport.is_closing():
                self.first_drop = time.monotonic() - started
            writer.transport.abort()


def flood_elsewhere(link: str, pings: int, seconds: float) -> tuple[int, int, float | None]:
    """Runs a `Flood` in a process of its own, as a player's laptop would (not sharing the server's interpreter),
    and returns its pings written, its connections and its first drop's seconds."""
    context = multiprocessing.get_context("spawn")
    report: Any = context.Queue()
    flooder = context.Process(target=_flood, args=(link, pings, seconds, report))
    flooder.start()
    flooder.join(seconds + 30)
    if flooder.is_alive():
        flooder.kill()
    assert flooder.exitcode == 0, f"the flooder's process ended with {flooder.exitcode}"
    done: tuple[int, int, float | None] = report.get(timeout=5)
    return done


def _flood(link: str, pings: int, seconds: float, report: Any) -> None:
    done = Flood(link, pings, seconds)
    asyncio.run(done.run())
    report.put((done.written, done.connections, done.first_drop))


@dataclasses.dataclass
class Honest:
    """An honest phone: reads every frame its seat's socket sends, noting when each came (``times``), from its
    connection (``started``) to the end of its run (``ended``)."""

    link: str
    times: list[float] = dataclasses.field(default_factory=list)
    started: float = 0.0
    ended: float = 0.0

    async def run(self, seconds: float) -> None:
        from websockets.asyncio.client import connect

        async with connect(socket_url(self.link), open_timeout=5, max_size=None) as phone:
            self.started = time.monotonic()
            end = self.started + seconds
            while time.monotonic() < end:
                try:
                    await asyncio.wait_for(phone.recv(), max(0.01, end - time.monotonic()))
                except asyncio.TimeoutError:
                    break
                self.times.append(time.monotonic())
            self.ended = time.monotonic()

    def worst_gap(self, since: float | None = None, until: float | None = None) -> float:
        """Returns the longest wait for a frame from ``since`` to ``until`` (by default the whole run): a phone
        frozen till the end waited from its last frame to the end."""
        since = self.started if since is None else since
        until = self.ended if until is None else min(until, self.ended)
        points = [since, *(at for at in self.times if since < at < until), until]
        return max(b - a for a, b in zip(points, points[1:]))


async def vanish(link: str, gone: asyncio.Event, frames: int = 1) -> Any:
    """An honest phone that stops reading (a browser suspended with its TCP up): it reads ``frames`` frames, then
    nothing, its connection left open (a small receive buffer, as a phone's) until ``gone`` is set."""
    reader, writer = await handshake(link, receive_buffer=4096)
    for _ in range(frames):
        head = await reader.readexactly(4)  # a frame of 8 KiB: 126, then its length in two bytes
        await reader.readexactly(int.from_bytes(head[2:4], "big"))
    stop_reading(writer)
    try:
        await gone.wait()
    finally:
        writer.transport.abort()
