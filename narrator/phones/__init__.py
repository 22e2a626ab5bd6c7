"""The players' phones as private screens and silent answer pads, over the table's own network (docs/phones.md).

The narrator serves a small page on the local network (`server.PhoneServer`); each seat joins it with a capability
link of its own, shown once as a QR code at the deal. A phone gets only its own seat's view, and at every change
every phone gets a frame of the same size at the same moment (`views`), so the Wi-Fi tells nobody who is awake.
`device.PhoneAnswers` takes the night calls of the seats whose phone is connected; the keypad answers the rest.

Optional: ``pip install -e '.[phones]'`` (scripts/setup.sh does). Nothing here is imported unless a table asks for
phones (``play --phones``), and `require` says what to install when the extra is missing.
"""

from __future__ import annotations

import importlib.util

from ..errors import UserError

EXTRA = "phones"
NEEDED = ("websockets", "segno")


def require() -> None:
    """Raises a UserError naming the extra to install when the phones' libraries are missing."""
    missing = [name for name in NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        raise UserError(f"the players' phones need {' and '.join(missing)}: install the [{EXTRA}] extra "
                        f"(.venv/bin/pip install -e '.[{EXTRA}]', or run scripts/setup.sh again)")
