"""The phones brought to a table's devices (`play --phones`, ``phones: true``): the server started, its device and
its deal hook added to the table's, the keypad pushed back when it takes over from a phone."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Mapping, Sequence

from ..hearing import PushbackKeys
from ..screen import Screen
from ..table import TableIO
from ..voices import load_voice
from . import require
from .server import PhoneServer


@dataclasses.dataclass(frozen=True)
class PhoneOptions:
    """Where the phones' page listens (``bind``, ``port``: 0 for any free one), the address its links name
    (``host``: by default this machine's on the network), and where the seats' links are written (``links``)."""

    bind: str = "0.0.0.0"
    port: int = 0
    host: str | None = None
    links: Path | None = None


def open_phones(io: TableIO, language: str, seats: int, names: Sequence[str | None] = (),
                options: PhoneOptions = PhoneOptions(), tokens: Mapping[int, str] | None = None) -> tuple[TableIO, PhoneServer]:
    """Starts the phones' server for the table and returns its devices with the phones among them, and the server
    (whose ``stop`` ends it and invalidates its links)."""
    require()
    from .device import PhoneAnswers

    voice = load_voice(language)
    texts = {key: text for key, text in voice.lines.items() if key.startswith("phone.")}
    server = PhoneServer(seats, texts, language, bind=options.bind, port=options.port, host=options.host,
                         tokens=tokens).start()
    if options.links is not None:
        server.write_links(options.links)
    keys = PushbackKeys(io.keys)
    device = PhoneAnswers(server, keys, voice, names)

    def card_shown(seat: int, role: str) -> None:
        """The seat at the screen scans its QR code; its phone holds its card from now on."""
        server.show_card(seat, voice.role(role))
        show_qr(io.screen, server.qr_text(seat))

    return dataclasses.replace(io, keys=keys, devices=(*io.devices, device), card_shown=card_shown), server


def show_qr(screen: Screen, qr: str) -> None:
    """Shows a seat's QR code under its card, until the card is hidden (never its link in words). On a line of its
    own: the screen indents a secret's first line, which would shift the code's first row off the others."""
    screen.secret("\n" + qr)
