"""What one curious or clumsy player's client can do to the phones' server (issue 34), on 127.0.0.1: a ping flood
that never reads, a phone that stops reading, a page of another site, a path read twice, a socket asked without
its upgrade, HEAD. No phone waits for another, one that does not keep up is dropped and told by day, and every
request that is not a page, a socket from the seat's own page or an asset gets the same refusal, byte for byte."""

from __future__ import annotations

import asyncio
import socket
import time
import tracemalloc
from typing import Iterator

import pytest

pytest.importorskip("websockets", reason="the [phones] extra (scripts/setup.sh installs it)")

from rawphones import Honest, flood_elsewhere, handshake, serving, vanish  # noqa: E402
from test_phones import wait_until  # noqa: E402

from narrator.phones.server import PhoneServer  # noqa: E402

TICK = 0.25
"""The clock of these tests: four frames a second (the table's is one), so that a phone that stops reading fills
its buffers within seconds, and a gap of 2 s is eight ticks whatever the load."""

GAP = 2.0
"""The longest an honest phone may wait between two frames while another misbehaves (issue 34: one a second)."""


@pytest.fixture
def server() -> Iterator[PhoneServer]:
    with serving(5, TICK) as phones:
        yield phones


def honest_phones(server: PhoneServer, seats: range) -> list[Honest]:
    return [Honest(server.link(seat)) for seat in seats]


def test_a_ping_flood_that_never_reads_delays_no_other_phone_is_dropped_and_costs_no_memory(
        server: PhoneServer) -> None:
    """Seat 4's client (a process of its own, a player's laptop) floods its socket with pings and never reads: once
    its pongs filled every buffer, no phone got a frame (99 s frozen, issue 34) and the server's memory grew by a
    pong a ping. Now it is cut off at once, every time it comes back, while the other phones get every frame; the
    host is told by day it dropped."""
    honest = honest_phones(server, range(1, 4))

    async def table() -> tuple[int, int, float | None]:
        reading = [asyncio.create_task(phone.run(7.5)) for phone in honest]
        await asyncio.sleep(0.5)  # the honest phones' first frames came
        flood = await asyncio.to_thread(flood_elsewhere, server.link(4), 1_000_000, 6)
        await asyncio.gather(*reading)
        return flood

    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        written, connections, first_drop = asyncio.run(table())
        grown = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert all(phone.worst_gap() <= GAP for phone in honest), [phone.worst_gap() for phone in honest]
    assert grown < 4_000_000, f"{grown:,} bytes for {written:,} pings"  # their pongs alone: 127 bytes each
    assert first_drop is not None and connections >= 2, (written, connections, first_drop)
    wait_until(lambda: 4 in server.dropped())


def test_a_phone_that_stops_reading_delays_no_other_phone_and_is_dropped(server: PhoneServer) -> None:
    """A browser suspended with its TCP still up: once its buffers are full, a frame to it cannot leave. It used to
    hold every phone's frame (10 s and more); now it is dropped within a few ticks and the others wait for nobody."""
    honest = honest_phones(server, range(1, 4))

    async def table() -> frozenset[int]:
        gone = asyncio.Event()
        reading = [asyncio.create_task(phone.run(5)) for phone in honest]
        asleep = asyncio.create_task(vanish(server.link(5), gone))
        end = time.monotonic() + 4.5
        while 5 not in server.dropped() and time.monotonic() < end:
            await asyncio.sleep(0.02)
        dropped = server.dropped()
        await asyncio.gather(*reading)
        gone.set()
        await asleep
        return dropped

    dropped = asyncio.run(table())
    assert all(phone.worst_gap() <= GAP for phone in honest), [phone.worst_gap() for phone in honest]
    assert all(len(phone.times) >= 5 / TICK - 3 for phone in honest), [len(phone.times) for phone in honest]
    assert dropped == {5}  # cut off while the others read on: it alone is told by day


def raw(server: PhoneServer, request: str) -> bytes:
    """Returns the whole answer, headers and body as sent, to one raw HTTP request."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sent:
        sent.sendall(request.encode())
        answer = b""
        while chunk := sent.recv(65536):
            answer += chunk
    return answer


def request(method: str, path: str, server: PhoneServer, *headers: str) -> str:
    return "\r\n".join([f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{server.port}", *headers, "", ""])


UPGRADE = ("Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
           "Sec-WebSocket-Version: 13")


def path(server: PhoneServer, seat: int, where: str = "p") -> str:
    return f"/{where}/{server.tokens()[seat]}"


def test_every_request_that_is_not_a_page_a_socket_or_an_asset_gets_the_same_refusal_byte_for_byte(
        server: PhoneServer) -> None:
    """A wrong token, a path with a query or a slash too many, another method, a seat's socket without its upgrade
    (it got websockets' 426) or without its key: the same status, headers and body, so that nothing tells a valid
    token from any other string."""
    token, other = server.tokens()[1], server.tokens()[2]
    refusals = {raw(server, text) for text in (
        request("GET", "/p/" + "A" * len(token), server),
        request("GET", "/nothing", server),
        request("GET", f"/p/{token}?x=1", server),
        request("GET", f"/p/{token}/", server),
        request("GET", f"/phone.js?{token}", server),
        request("POST", f"/p/{token}", server),
        request("GET", f"/ws/{token}", server),  # a valid socket's path without Upgrade
        request("GET", f"/ws/{token}", server, *UPGRADE[:2], UPGRADE[3]),  # no key
        request("GET", f"/ws/{token}?/{other}", server, *UPGRADE))}
    assert len(refusals) == 1, refusals
    refusal = refusals.pop()
    assert refusal.startswith(b"HTTP/1.1 404 Not Found\r\n") and refusal.endswith(b"\r\n\r\nThis link opens nothing.\n")


def test_a_socket_path_with_a_query_binds_no_seat(server: PhoneServer) -> None:
    """``/ws/TOKEN_A?/TOKEN_B`` passed the check with A's token and bound seat B: the path is read once, exactly."""
    async def opened() -> None:
        with pytest.raises(ConnectionRefusedError, match="404"):
            await handshake(f"http://127.0.0.1:{server.port}/ws/{server.tokens()[1]}?/{server.tokens()[2]}")
    asyncio.run(opened())
    assert server.connected() == frozenset()


@pytest.mark.parametrize("origin, opens", [(None, True), ("http://127.0.0.1:{port}", True),
                                            ("http://evil.example", False), ("http://127.0.0.1:{port}.evil", False),
                                            ("null", False), ("http://localhost:{port}", False)])
def test_a_seats_socket_opens_only_from_its_own_page_or_a_client_without_one(
        server: PhoneServer, origin: str | None, opens: bool) -> None:
    """A page of another site that holds a seat's token (a link passed on, a frame) cannot read that seat's card:
    its browser names the site as the socket's Origin, refused as a wrong token is."""
    headers = () if origin is None else (("Origin", origin.format(port=server.port)),)

    async def opened() -> bool:
        try:
            _, writer = await handshake(server.link(3), headers=headers)
        except ConnectionRefusedError as refused:
            assert str(refused) == "HTTP/1.1 404 Not Found"
            return False
        writer.transport.abort()
        return True

    assert asyncio.run(opened()) is opens


def test_a_socket_whose_host_is_not_its_links_is_refused(server: PhoneServer) -> None:
    answer = raw(server, request("GET", path(server, 1, "ws"), server, *UPGRADE).replace(
        f"Host: 127.0.0.1:{server.port}", "Host: evil.example"))
    assert answer == raw(server, request("GET", "/nothing", server))


def test_every_response_forbids_other_sites_to_frame_it(server: PhoneServer) -> None:
    """A page that framed a seat's link could overlay it and have its owner tap: every response says none may."""
    for text in (request("GET", path(server, 1), server), request("GET", "/phone.js", server),
                 request("GET", "/nothing", server)):
        head = raw(server, text).split(b"\r\n\r\n", 1)[0]
        assert b"Content-Security-Policy: " in head and b"frame-ancestors 'none'" in head, head
        assert b"\r\nX-Frame-Options: DENY" in head, head
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sent:
        sent.sendall(request("GET", path(server, 2, "ws"), server, *UPGRADE).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += sent.recv(4096)
    assert head.startswith(b"HTTP/1.1 101") and b"frame-ancestors 'none'" in head and b"X-Frame-Options: DENY" in head


def test_head_gets_the_headers_of_get_without_a_body(server: PhoneServer) -> None:
    for target in (path(server, 1), "/phone.css", "/nothing"):
        got, head = raw(server, request("GET", target, server)), raw(server, request("HEAD", target, server))
        assert head == got.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n" and len(got) > len(head)
    assert raw(server, request("HEAD", path(server, 1, "ws"), server, *UPGRADE)) == \
        raw(server, request("HEAD", "/nothing", server))
