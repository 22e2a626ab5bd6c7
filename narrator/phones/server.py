"""The phones' server: the page and each seat's socket, on the local network, in a thread of its own.

A seat's link carries a capability token of 192 random bits (`secrets`); a token is compared with every seat's in
constant time (`hmac.compare_digest`), and a wrong one, whatever it is, gets the same plain refusal as any unknown
address (narrator.phones.http: one reading of a path, the same refusal for everything that is not a page, a socket
from the seat's own page, or an asset). No token is ever logged (websockets' logger is silenced) or printed: the
links go to a QR code once, at the deal, and to ``--phone-links`` (mode 0600). A second device opening a seat's link
takes the seat over; the first is told so and closed. `stop` ends serving every link.

The game's thread calls the typed methods (`show_card`, `wake`, `ask`, `result`, `sleep`); each changes seats'
views, and every connected phone is sent its own view on the clock (`views.TICK`), all in frames of one size at
once (narrator.phones.views): a change waits for the next tick, so no frame's moment follows the game. The clock
hands each phone its frame and waits for none: each connection sends its own (narrator.phones.connection), and one
that does not keep up is dropped, as a phone that left. The phones'
answers come back on `answers`, a thread-safe queue of ``(seat, value)``: a phone sends a choice's index for the
call it was asked, and only an index of the running call's choices for its own seat is taken; a phone's OK to a
result that waits for it comes as ``(seat, OK)``. A call's number on a phone counts that seat's own questions and
results (`_shown`), never another seat's: a number shared by the table would tell a seat how many calls the others
were woken for (a Witch's potions spent, a Fortune Teller dead, a call the keypad took over).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import queue
import secrets
import socket
import threading
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..errors import UserError
from ..voices import load_voice
from . import http, views
from .sizes import frame_size
from .views import UP_FRAME, View

TOKEN_BYTES = 24
"""Random bytes of a seat's token: 192 bits (at least 128 are needed), 32 characters in the link."""

LATE = 3
"""Ticks a phone's frame may take to leave before the phone is dropped (`connection.PhoneConnection`): a phone
that does not take its frames is cut off and told by day as any phone that left, and no other phone waits for it."""

LATE_FLOOR = 1.0
"""Seconds a frame may take to leave at the least, whatever the clock (the tests' runs ten times faster)."""

Asked = tuple[Callable[[int], View], Sequence[object]]
"""What a seat is asked: its view, made for the call's number, and the values its choices answer with."""

OK = object()
"""What `answers` carries for a phone's OK to the result it was shown (the keypad's Enter, given on the phone)."""

SILENT = logging.getLogger("narrator.phones.silent")
SILENT.disabled = True  # websockets would log the paths it refuses, tokens included
SILENT.propagate = False


def lan_address() -> str:
    """Returns this machine's address on the local network (127.0.0.1 when it has none). A UDP socket connected to
    a documentation address (RFC 5737) picks the outgoing interface without sending a packet."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def write_private(path: Path, text: str) -> None:
    """Writes ``text`` to ``path``, readable by its owner only (0600), whatever the file's mode was."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    os.fchmod(fd, 0o600)  # a file that was there keeps its mode otherwise
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


def page_asset(name: str) -> bytes:
    """Returns one of the page's files (narrator/phones/page)."""
    return (resources.files("narrator.phones") / "page" / name).read_bytes()


class PhoneServer:
    """The page and the seats' sockets for ``seats`` seats, texts from the table's ``language`` (its ``phone.*``
    lines, ``texts``). It listens on ``bind`` (every interface by default; the tests use 127.0.0.1) and ``port`` (0:
    any free one); the links name ``host`` (by default the bound address, or this machine's on the network).
    ``tokens`` gives the seats' tokens again (a game resumed keeps its links); else each seat draws its own. Every
    frame holds ``frame`` bytes, by default the table's (narrator.phones.sizes: its seats and its language), for
    the whole game."""

    def __init__(self, seats: int, texts: Mapping[str, str], language: str = "en", *, bind: str = "0.0.0.0",
                 port: int = 0, host: str | None = None, tokens: Mapping[int, str] | None = None,
                 tick: float = views.TICK, frame: int | None = None) -> None:
        self.seats = seats
        self.frame = frame if frame is not None else frame_size(seats, load_voice(language))
        self.texts = dict(texts)
        self.bind, self.port = bind, port
        self.host = host or (lan_address() if bind in ("", "0.0.0.0", "::") else bind)
        self._tokens = dict(tokens) if tokens else \
            {seat: secrets.token_urlsafe(TOKEN_BYTES) for seat in range(1, seats + 1)}
        self._cards: dict[int, str] = {}
        self._views: dict[int, View] = {seat: views.dealing() for seat in range(1, seats + 1)}  # till the first call
        self._choices: dict[int, tuple[int, list[object]]] = {}  # seat → (its call asked, its choices' values)
        self._ok: dict[int, int] = {}  # seat → its call whose result waits for its OK
        self._versions: dict[int, int] = {seat: 0 for seat in range(1, seats + 1)}  # each seat's view's version
        self._shown: dict[int, int] = {seat: 0 for seat in range(1, seats + 1)}  # its questions and results shown
        self.tick = tick
        self._lock = threading.Lock()
        self._online: set[int] = set()
        self._joined: set[int] = set()  # the seats whose phone was ever connected (one gone since has dropped)
        self._awaited = set(self._tokens) if tokens else set()  # a game going on: its phones are on their way back
        self._sockets: dict[int, Any] = {}  # the loop's own: read and changed in its thread only
        self.answers: queue.Queue[tuple[int, object]] = queue.Queue()
        body = json.dumps(self.texts, ensure_ascii=False).replace("</", "<\\/")
        self._page = page_asset("index.html").decode().replace("{{LANG}}", language).replace("{{TEXTS}}", body) \
            .replace("{{TITLE}}", self.texts.get("phone.title", "")).encode()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    # -- running ---------------------------------------------------------

    def start(self) -> PhoneServer:
        """Starts serving in a thread of its own, with its own asyncio loop; returns once it listens."""
        ready = threading.Event()
        failed: list[OSError] = []
        self._thread = threading.Thread(target=self._run, args=(ready, failed), name="phones", daemon=True)
        self._thread.start()
        ready.wait()
        if failed:
            self._thread.join()
            raise UserError(f"the phones' page cannot listen on {self.bind}:{self.port}: {failed[0].strerror}")
        return self

    def _run(self, ready: threading.Event, failed: list[OSError]) -> None:
        asyncio.run(self._serve(ready, failed))  # its end ends every phone's sender too

    async def _serve(self, ready: threading.Event, failed: list[OSError]) -> None:
        from websockets.asyncio.server import serve

        from .connection import PhoneConnection

        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        try:
            # No compression: a compressed frame's size would tell what it holds. What one connection may hold is
            # bounded: a message it sends (max_size), those not read yet (max_queue), what waits to be written
            # to it (write_limit: two frames; its sender waits beyond, and the phone is dropped if it stays late).
            server = await serve(self._talk, self.bind, self.port, process_request=self._http,
                                 process_response=self._upgraded, create_connection=PhoneConnection,
                                 compression=None, max_size=UP_FRAME * 2, max_queue=4, write_limit=2 * self.frame,
                                 server_header=None, logger=SILENT)
        except OSError as error:
            failed.append(error)
            ready.set()
            return
        self.port = int(server.sockets[0].getsockname()[1]) if not self.port else self.port
        sender = asyncio.create_task(self._send_all())
        ready.set()
        await self._stopping.wait()
        sender.cancel()
        self._send_now()  # the last frames (the game stopped) reach the phones before they are closed
        await asyncio.gather(*(socket_.idle.wait() for socket_ in self._sockets.values()))
        server.close()
        await server.wait_closed()

    def stop(self, last: views.View | None = None) -> None:
        """Shows every phone its ``last`` view (by default: the game stopped), closes them, and stops serving its
        links. The page of a game stopped keeps looking for it, which a `resume` serves with the same links; the
        page of a game over (`views.over`), or whose links the host's stop ended (`views.ended`), does not."""
        with self._lock:
            for seat in self._views:
                self._set(seat, views.stopped() if last is None else last)
        self._tokens = {}
        loop, stopping, thread = self._loop, self._stopping, self._thread
        if loop is not None and stopping is not None and thread is not None and thread.is_alive():
            loop.call_soon_threadsafe(stopping.set)
            thread.join(timeout=10)

    # -- links -------------------------------------------------------------

    def link(self, seat: int) -> str:
        """Returns ``seat``'s link (its capability: whoever opens it plays that seat's phone)."""
        return f"http://{self.host}:{self.port}/p/{self._tokens[seat]}"

    def tokens(self) -> dict[int, str]:
        """Returns the seats' tokens, to serve the same links again when the game goes on (resume)."""
        return dict(self._tokens)

    def write_links(self, path: Path) -> None:
        """Writes every seat's link to ``path`` ("seat: link" lines, YAML), readable by its owner only (0600)."""
        write_private(path, "".join(f"{seat}: {self.link(seat)}\n" for seat in sorted(self._tokens)))

    def qr_svg(self, seat: int) -> str:
        """Returns ``seat``'s link as a QR code in SVG, dark on light, drawn to whatever size the page gives it: a
        viewBox and no size of its own (with a size, a page that set another cropped the code: none scanned)."""
        import segno

        return str(segno.make(self.link(seat), error="m").svg_inline(border=4, omitsize=True))

    def qr_text(self, seat: int) -> str:
        """Returns ``seat``'s link as a QR code in text, two rows of modules a line (half blocks), light modules as
        blocks: on a terminal's dark background, dark modules on light with the quiet zone around them."""
        import segno

        rows = [[not dark for dark in row] for row in segno.make(self.link(seat), error="m").matrix_iter(border=2)]
        if len(rows) % 2:
            rows.append([False] * len(rows[0]))
        glyphs = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
        return "\n".join("".join(glyphs[top, bottom] for top, bottom in zip(rows[i], rows[i + 1]))
                         for i in range(0, len(rows), 2))

    # -- what the phones show (the game's thread) -------------------------

    def connected(self) -> frozenset[int]:
        """Returns the seats whose phone is connected now."""
        with self._lock:
            return frozenset(self._online)

    def reachable(self) -> frozenset[int]:
        """Returns the seats whose phone is connected, or was and may come back mid-call (dropped, or on its way
        back to a game resumed): a call is shown on their page, which shows it once it is back; the keypad stays
        live meanwhile, and a key answers for the seat as before."""
        with self._lock:
            return frozenset(self._online | self._joined | self._awaited)

    def dropped(self) -> frozenset[int]:
        """Returns the seats whose phone was connected and is not now (locked, out of the Wi-Fi, closed)."""
        with self._lock:
            return frozenset(self._joined - self._online)

    def show_card(self, seat: int, name: str) -> None:
        """Gives ``seat``'s phone its card, ``name`` in the table's language: kept, shown while its owner holds it;
        until the first call its page says the card came (views.dealing), the deal going on. A card the game
        changed (the Thief's as taken) replaces the one held: on the dark page at once, else when it is dark
        again. Nothing changes for a card the phone holds already."""
        with self._lock:
            if self._cards.get(seat) == name:
                return
            self._cards[seat] = name
            shown = self._views.get(seat, {})
            if shown.get("kind") == "sleep":  # the dark page, the deal's or the night's (awake: once it is dark)
                self._set(seat, views.dealing(name) if shown.get("deal") else views.sleeping(name))

    def wake(self, seats: Sequence[int], prompt: str, choices: Sequence[tuple[object, str]],
             shown: Sequence[str] = ()) -> dict[int, int]:
        """Asks the awake ``seats`` the ``prompt`` with ``choices`` (each a value and its name), under what the call
        ``shown`` them; every other seat sleeps. Returns the call's number on each awake seat's phone (an answer to
        an older one is not taken)."""
        form: Asked = (lambda call: views.asking(call, prompt, [name for _, name in choices], shown),
                       [value for value, _ in choices])
        return self.ask({seat: form for seat in seats})

    def ask(self, asked: Mapping[int, Asked]) -> dict[int, int]:
        """Asks each seat of ``asked`` its view (made for the call's number on its phone), a choice's index
        answering with its value among the values given with it (a voter's ballot, the Witch's potions); every other
        seat sleeps. Returns the call's number on each asked seat's phone (an answer to an older one is not
        taken)."""
        with self._lock:
            self._ok.clear()
            numbers: dict[int, int] = {}
            for seat in self._views:
                if seat in asked:
                    view, values = asked[seat]
                    numbers[seat] = self._next(seat)
                    self._set(seat, view(numbers[seat]))
                    self._choices[seat] = (numbers[seat], list(values))
                else:
                    self._set(seat, views.sleeping(self._cards.get(seat, "")))
                    self._choices.pop(seat, None)
            return numbers

    def result(self, seats: Sequence[int], title: str, text: str = "", shown: Sequence[str] = (),
               ok: bool = False) -> dict[int, int]:
        """Shows the awake ``seats`` ``title`` (and ``text``, and the lines ``shown``): their answer confirmed,
        what it told them; every other seat sleeps. With ``ok`` their phones ask for an OK, which comes on
        `answers` (see OK). Returns the call's number on each awake seat's phone."""
        with self._lock:
            self._ok.clear()
            self._choices.clear()
            numbers: dict[int, int] = {}
            for seat in self._views:
                if seat in seats:
                    numbers[seat] = self._next(seat)
                    self._set(seat, views.told(title, text, shown, numbers[seat] if ok else 0))
                    if ok:
                        self._ok[seat] = numbers[seat]
                else:
                    self._set(seat, views.sleeping(self._cards.get(seat, "")))
            return numbers

    def sleep(self) -> None:
        """Every seat's phone back to its dark page: the call ended."""
        with self._lock:
            self._choices.clear()
            self._ok.clear()
            for seat in self._views:
                self._set(seat, views.sleeping(self._cards.get(seat, "")))

    def _next(self, seat: int) -> int:
        """Returns the number of ``seat``'s next question or result (under the lock): its own count, which no other
        seat's call moves."""
        self._shown[seat] = self._shown.get(seat, 0) + 1
        return self._shown[seat]

    def _set(self, seat: int, view: View) -> None:
        """Gives ``seat`` its new ``view`` (under the lock), sent with the next tick; its version counts the
        changes of its own view only, so a sleeping phone's frames do not count the others' changes. A view
        longer than the table's frames is a fault of the program (views.TooLong), raised in the game's thread."""
        if self._views.get(seat) != view:
            version = self._versions.get(seat, 0) + 1
            views.fitted(view, version, self.frame)
            self._views[seat] = view
            self._versions[seat] = version


    # -- the loop's side ---------------------------------------------------

    def _seat(self, token: str) -> int | None:
        """Returns the seat whose token is ``token``, comparing it with every seat's in constant time."""
        given = token.encode("utf-8", "surrogateescape")
        found = None
        for seat, mine in self._tokens.items():
            if hmac.compare_digest(given, mine.encode()):
                found = seat
        return found

    def _http(self, connection: Any, request: Any) -> Any:
        """Serves the page and its assets; lets a seat's socket through, bound to the seat its path names, when it
        comes from the seat's own page; refuses anything else the same way (`http`)."""
        head = request.method == "HEAD"
        found = http.route(request.method, request.path)
        if found is not None and found.where == "asset":
            name, kind = http.ASSETS[found.name]
            return http.respond(200, "OK", kind, page_asset(name), head)
        seat = self._seat(found.name) if found is not None else None
        if seat is None or found is None:
            return self._refused(head)
        if found.where == "p":
            return http.respond(200, "OK", "text/html; charset=utf-8", self._page, head)
        if head or not http.same_origin(request.headers, self.host, self.port):
            return self._refused(head)
        connection.seat = seat  # the one reading of the path: the seat checked is the seat bound
        return None  # the seat's socket: the handshake goes on

    def _upgraded(self, connection: Any, request: Any, response: Any) -> Any:
        """Gives a seat's socket's handshake every response's headers; a seat's socket asked without a valid upgrade
        (no Upgrade header, no key) gets the same refusal as a wrong token, not websockets' own answer."""
        if response.status_code == 101:
            return http.upgraded(response)
        return self._refused(False) if connection.seat is not None else None

    def _refused(self, head: bool) -> Any:
        """Returns the one refusal, the same for every request that is not a page, a socket or an asset."""
        refused = self.texts.get("phone.refused", "This link opens nothing.") + "\n"
        return http.respond(404, "Not Found", "text/plain; charset=utf-8", refused.encode(), head)

    async def _talk(self, socket_: Any) -> None:
        """One phone: the seat's view now, then its ticks (answers or nothing) until it goes, or is dropped. Its
        frames go through its own sender (`connection.PhoneConnection`), so it never waits for another phone."""
        seat = socket_.seat
        if seat is None or seat not in self._tokens:  # the game stopped between the handshake and now
            await socket_.close(1008)
            return
        socket_.late = max(LATE * self.tick, LATE_FLOOR)
        sender = asyncio.create_task(socket_.send_frames())
        before = self._sockets.get(seat)
        self._sockets[seat] = socket_
        with self._lock:
            self._online.add(seat)
            self._joined.add(seat)
            now = views.frames(self._views, self._versions, self.frame)[seat]
            taken = views.frames({seat: views.taken()}, self._versions, self.frame)[seat]
        if before is not None:
            before.finish(taken, 4001)
        socket_.hand(now)
        try:
            async for message in socket_:
                self._heard(seat, message)
        except Exception:  # a phone gone mid-message: it reconnects, or not; the game goes on
            pass
        finally:
            sender.cancel()
            await asyncio.wait([sender])  # ended here: a sender left pending with its connection is lost with it
            if self._sockets.get(seat) is socket_:
                del self._sockets[seat]
                with self._lock:
                    self._online.discard(seat)

    def _heard(self, seat: int, message: object) -> None:
        """Takes a phone's answer: a tick of UP_FRAME bytes naming one of its running call's choices."""
        if not isinstance(message, str) or len(message.encode()) != UP_FRAME:
            return
        try:
            said = json.loads(message)
        except ValueError:
            return
        if not isinstance(said, dict) or type(said.get("call")) is not int:
            return  # a tick with nothing to say
        if said.get("ok") == 1:
            with self._lock:
                if self._ok.get(seat) != said["call"]:
                    return  # no result of this call waits for this seat's OK
                self._ok.clear()  # one OK a result: the pack's first
            self.answers.put((seat, OK))
            return
        if type(said.get("choice")) is not int:
            return
        with self._lock:
            asked = self._choices.get(seat)
            if asked is None or asked[0] != said["call"] or not 0 <= said["choice"] < len(asked[1]):
                return  # an older call's answer (a replay), or no choice of this one
            del self._choices[seat]  # one answer a call asked: the same tick sent twice counts once
        self.answers.put((seat, asked[1][said["choice"]]))

    async def _send_all(self) -> None:
        """On the clock, whatever changed: every connected phone its own frame, all of one size, at once."""
        loop = asyncio.get_running_loop()
        next_tick = loop.time()
        while True:
            next_tick += self.tick
            await asyncio.sleep(max(0.0, next_tick - loop.time()))
            self._send_now()

    def _send_now(self) -> None:
        """Hands every connected phone its frame, awaiting none: each phone's sender writes its own."""
        with self._lock:
            sized = views.frames(self._views, self._versions, self.frame)
        for seat, socket_ in self._sockets.items():
            socket_.hand(sized[seat])
