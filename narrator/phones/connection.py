"""One phone's connection: its own outbox and sender, so that no phone ever waits for another, and the bounds that
keep any client, honest or not, from costing the table more than its own seat.

The clock hands each connection its newest frame (`hand`) and awaits nothing; the connection's own sender writes it
when the phone has taken the one before. A frame is a whole view, so a frame not yet sent is simply replaced: a
phone that falls behind skips to the newest. A phone that does not take its frame in time (`late`: a browser
suspended with its TCP still up, a phone walked off the Wi-Fi, a client that never reads) is dropped: its connection
is cut at once, without a closing handshake that would wait on the same full buffer. The phones' page sends one
message a second and never pings, so a client that sends much more (a ping flood, whose pongs would pile up unread
in our write buffer) is no page of ours and is dropped as soon as it passes `BURST` and `RATE` (websockets answers
the pings of one read before they are counted: a read's worth of pongs at most, a few hundred KiB). Websockets'
own keepalive runs in a task of the connection's own: a ping to a phone whose buffer is full waits alone, and that
phone is dropped by its late frame meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.frames import Frame
from websockets.protocol import Event

BURST = 64
"""Frames a phone may send at once (of any kind: messages, pings, pongs) beyond its rate."""

RATE = 4.0
"""Frames a second a phone may send on average: four times the page's one message a second."""

KERNEL_BUFFER = 8192
"""Bytes the system may hold for a phone beyond our own write buffer (it doubles them): a frame or two, where its
own tuning would keep megabytes for a phone that reads nothing, and find it late only minutes after."""


class PhoneConnection(ServerConnection):
    """A seat's socket (``seat``, bound once its handshake's checks passed), with its outbox of one frame, its
    sender (`send_frames`) and its budget of frames received."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat: int | None = None
        self.late = 3.0  # seconds a frame may take to leave: the server sets it from its clock
        self.newest: str | None = None  # the frame to send next, replaced by a newer one until it is sent
        self.closing: int | None = None  # a close code: the newest frame is the last, then the phone is closed
        self.handed = asyncio.Event()
        self.idle = asyncio.Event()  # nothing left to send (or the phone is gone)
        self.idle.set()
        self.gone = False  # the sender stopped: nothing handed is ever sent
        self.budget = float(BURST)
        self.counted = self.loop.time()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        raw = transport.get_extra_info("socket")
        if raw is not None:
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, KERNEL_BUFFER)

    def send_data(self) -> None:
        """Writes what the protocol has for the phone, and nothing once its connection is cut or gone: asyncio
        would warn on the host's terminal at every write after the first that failed (a client that reset its
        connection amid its flood's pongs)."""
        for data in self.protocol.data_to_send():
            if self.transport.is_closing():
                return
            if data:
                self.transport.write(data)
            elif self.transport.can_write_eof():  # the end of the stream: half-closed, as websockets does
                with contextlib.suppress(OSError):
                    self.transport.write_eof()
            else:
                self.transport.close()

    def hand(self, frame: str) -> None:
        """Gives the phone its newest frame, sent once the frame before it has left (a frame not sent yet is
        replaced: each is a whole view). Never waits."""
        if self.gone:
            return
        self.newest = frame
        self.idle.clear()
        self.handed.set()

    def finish(self, frame: str, code: int) -> None:
        """Gives the phone its last frame, then closes it with ``code`` (a seat taken over, the game stopped)."""
        self.closing = code
        self.hand(frame)

    def drop(self) -> None:
        """Cuts the connection at once: no closing handshake, no wait on a buffer the phone does not empty. Its
        handler sees it gone, as any phone that left."""
        self.transport.abort()

    async def send_frames(self) -> None:
        """The phone's sender: each newest frame in turn, each within ``late`` seconds or the phone is dropped."""
        try:
            while True:
                await self.handed.wait()
                self.handed.clear()
                frame, self.newest = self.newest, None
                if frame is not None:
                    await asyncio.wait_for(self.send(frame), self.late)
                if self.closing is not None and self.newest is None:
                    await asyncio.wait_for(self.close(self.closing), self.late)
                    return
                if self.newest is None:
                    self.idle.set()
        except asyncio.TimeoutError:  # the phone does not take its frames: dropped, never waited for
            self.drop()
        except Exception:  # gone: its handler forgets it
            pass
        finally:
            self.gone = True
            self.idle.set()

    def process_event(self, event: Event) -> None:
        """Counts every frame the phone sends against its budget; a client past it is dropped, its frames unread."""
        if isinstance(event, Frame):
            now = self.loop.time()
            self.budget = min(float(BURST), self.budget + (now - self.counted) * RATE) - 1
            self.counted = now
            if self.budget < 0:
                self.drop()
                return
        super().process_event(event)
