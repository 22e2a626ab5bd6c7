"""The phones brought to a table's devices (`play --phones`, ``phones: true``): the server started, its device and
its deal hook added to the table's, the keypad pushed back when it takes over from a phone; the host told by day
which seats' phones dropped; and, for a game going on (`resume`, the supervisor's after a crash), the same server
again: the same port and the same links, kept in the journal's header (`journaled`, `from_journal`)."""

from __future__ import annotations

import contextlib
import dataclasses
import html
import re
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from engine import Answer, Call, Phase

from ..asking import QuietDevice
from ..errors import GameStopped, UserError
from ..hearing import PushbackKeys
from ..screen import Screen
from ..table import TableIO
from ..voices import Voice, load_voice
from . import require, views
from .http import TOKEN
from .server import PhoneServer, write_private

SHEETS = (".html", ".htm")
"""A ``--phone-links`` file named so is a sheet of QR codes to print, one a seat (`write_sheet`)."""


@dataclasses.dataclass(frozen=True)
class PhoneOptions:
    """Where the phones' page listens (``bind``, ``port``: 0 for any free one), the address its links name
    (``host``: by default this machine's on the network), and where the seats' links are written (``links``)."""

    bind: str = "0.0.0.0"
    port: int = 0
    host: str | None = None
    links: Path | None = None


def open_phones(io: TableIO, language: str, seats: int, names: Sequence[str | None] = (),
                options: PhoneOptions = PhoneOptions(), tokens: Mapping[int, str] | None = None,
                cards: Mapping[int, str] | None = None) -> tuple[TableIO, PhoneServer]:
    """Starts the phones' server for the table and returns its devices with the phones among them, and the server
    (whose ``stop`` ends it and invalidates its links). A game going on gives its seats' ``tokens`` again (the same
    links) and the ``cards`` its phones held (each seat's role id, for the seats that saw theirs)."""
    require()
    from .device import PhoneAnswers

    voice = load_voice(language)
    texts = {key: text for key, text in voice.lines.items() if key.startswith("phone.")}
    server = PhoneServer(seats, texts, language, bind=options.bind, port=options.port, host=options.host,
                         tokens=tokens).start()
    try:
        if options.links is not None and options.links.suffix.lower() in SHEETS:
            write_sheet(server, options.links, voice, names)
        elif options.links is not None:
            server.write_links(options.links)
    except OSError as error:
        server.stop()
        raise UserError(f"{options.links}: cannot write the phones' links there ({error.strerror or error})") \
            from None
    for seat, role in (cards or {}).items():
        server.show_card(seat, voice.role(role))
    keys = PushbackKeys(io.keys)
    device = PhoneAnswers(server, keys, voice, names)
    watch = DroppedPhones(server, lambda seats: io.screen.notice(
        voice.text("screen.phones_dropped", {"seats": seats}, names) if seats else ""))

    def code_shown(seat: int) -> None:
        """The seat at the screen scans its QR code (alone: deal: cards, or new links once the host stopped)."""
        show_qr(io.screen, server.qr_text(seat))

    def card_shown(seat: int, role: str) -> None:
        """The seat at the screen scans its QR code beside its card; its phone holds its card from now on."""
        server.show_card(seat, voice.role(role))
        code_shown(seat)

    def cards_known(roles: Sequence[str]) -> None:
        """Every seat's card as the game has it (the players' own identified, the Thief's as taken): each phone
        holds its own; one it holds already changes nothing."""
        for seat, role in enumerate(roles, start=1):
            server.show_card(seat, voice.role(role))

    # A host who has the links written (--phone-links) hands them out: nobody is called to the screen to join.
    return dataclasses.replace(io, keys=keys, devices=(*io.devices, device, watch), card_shown=card_shown,
                               cards_known=cards_known, phones=True,
                               code_shown=code_shown if options.links is None else None), server


@contextlib.contextmanager
def phones_at(io: TableIO, language: str, seats: int, names: Sequence[str | None] = (),
              options: PhoneOptions = PhoneOptions(), tokens: Mapping[int, str] | None = None,
              cards: Mapping[int, str] | None = None) -> Iterator[tuple[TableIO, PhoneServer]]:
    """The table's devices with the phones among them, for one game (`open_phones`): the table's keys and speaker
    closed if the phones cannot start. A game played to its end tells every phone it is over; one the host stopped
    (Ctrl-C confirmed, the host menu) that its links ended: a game that goes on gives new ones. One stopped
    otherwise (a shutdown, the terminal gone, an error) tells that it stopped, and its page waits for the game to go
    on with the same links, as after a crash (kill -9), which tells nothing."""
    try:
        io, server = open_phones(io, language, seats, names, options, tokens, cards)
    except BaseException:
        io.keys.close()
        io.speaker.close()
        raise
    try:
        yield io, server
    except GameStopped as stopped:
        server.stop(views.ended() if stopped.by_host else views.stopped())
        raise
    except BaseException:
        server.stop(views.stopped())
        raise
    server.stop(views.over())


def cards_seen(deal: tuple[str, ...], progress: Sequence[Mapping[str, Any]] | None) -> dict[int, str]:
    """Returns the cards a resumed game's phones held: every seat's once the deal was over (the players' own cards
    identified, or the program's all seen), else those of the seats that had seen theirs (deal: app's
    ``progress``)."""
    seen = range(1, len(deal) + 1) if progress is None else [step["seen"] for step in progress if "seen" in step]
    return {seat: deal[seat - 1] for seat in seen if 0 < seat <= len(deal)}


class DroppedPhones(QuietDevice):
    """Tells the host by day which seats' phones dropped (``tell(seats)``, at each day's first call; ``[]`` once
    they are all back), never at night: a line for the host that changed while the table sleeps would tell who was
    awake with a phone in hand. An answer device that takes no call: the narrator waits for nobody."""

    def __init__(self, server: PhoneServer, tell: Callable[[list[int]], None]) -> None:
        self.server = server
        self.tell = tell
        self.day: int | None = None  # the day last told
        self.told: list[int] = []

    def opened(self, call: Call, legal: Callable[[Answer], bool]) -> None:
        if call.phase is not Phase.DAY or call.number == self.day:
            return
        self.day = call.number
        dropped = sorted(self.server.dropped())
        if dropped or self.told:
            self.tell(dropped)
        self.told = dropped



def journaled(server: PhoneServer) -> dict[str, Any]:
    """Returns what the journal's header keeps of the phones' server, for a game going on to serve the same links
    again: its address and port, and every seat's token. The journal holds the deal, so it is private (0600)
    already; nothing else ever shows a token."""
    return {"bind": server.bind, "port": server.port,
            "tokens": {str(seat): token for seat, token in sorted(server.tokens().items())}}


def from_journal(kept: object, seats: int, where: str) -> tuple[PhoneOptions, dict[int, str] | None]:
    """Returns the options and the seats' tokens a journal's header kept (`journaled`), None for tokens the host's
    stop ended; a damaged entry is a UserError at ``where``."""
    damaged = UserError(f"{where}: the journal's phones are damaged (their address, port and seats' links)")
    if not isinstance(kept, dict):
        raise damaged
    bind, port, tokens = kept.get("bind"), kept.get("port"), kept.get("tokens")
    if not (isinstance(bind, str) and type(port) is int and 0 < port < 65536
            and (tokens is None or isinstance(tokens, dict))):
        raise damaged
    if tokens is None:  # the host's stop ended them (journal.read_journal): new links, on the same port
        return PhoneOptions(bind=bind, port=port), None
    given = {int(seat): token for seat, token in tokens.items() if seat.isdigit()}
    if set(given) != set(range(1, seats + 1)) or len(given) != len(tokens) or not all(
            isinstance(token, str) and re.fullmatch(TOKEN, token) for token in given.values()):
        raise damaged  # at least 128 bits a token (22 characters of base64), as a link's path reads it
    return PhoneOptions(bind=bind, port=port), given


def write_sheet(server: PhoneServer, path: Path, voice: Voice, names: Sequence[str | None]) -> None:
    """Writes a page to print (``--phone-links FILE.html``), readable by its owner only (0600): every seat's QR code
    with its seat's number and name, to cut out and hand to each player before the game (a table without a screen:
    docs/phones.md). The links are never in words: a code is read by a phone's camera, not across the table."""
    def caption(seat: int) -> str:  # in digits, as the phones name seats: read, not said
        name = names[seat - 1] if seat <= len(names) else None
        said = voice.seat_named.format(name=name, number=seat) if name else voice.seat_word.format(number=seat)
        return html.escape(said)

    cells = "".join(f"<figure>{server.qr_svg(seat)}<figcaption>{caption(seat)}</figcaption></figure>\n"
                    for seat in range(1, server.seats + 1))
    title = html.escape(voice.text("phone.title", {}))
    write_private(path, f"""<!DOCTYPE html>
<html lang="{html.escape(voice.language)}"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;background:#fff;color:#000}}
main{{display:flex;flex-wrap:wrap;gap:12mm}}figure{{margin:0;text-align:center;break-inside:avoid}}
figure svg{{width:45mm;height:45mm}}</style></head>
<body><main>
{cells}</main></body></html>
""")


def show_qr(screen: Screen, qr: str) -> None:
    """Shows a seat's QR code under its card, until the card is hidden (never its link in words). On a line of its
    own: the screen indents a secret's first line, which would shift the code's first row off the others."""
    screen.secret("\n" + qr)
