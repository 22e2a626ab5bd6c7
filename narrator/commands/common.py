"""What the commands share: the checks of their arguments' values (argparse types), the usage error argparse
cannot see, the warning printed before a game's screen opens, and the test telling a practice script from a table
config.

Kept apart from narrator.cli so that the commands' modules can use them without importing the command line,
which imports them: no circle."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Callable


def _warn(message: str, language: str = "") -> None:
    """Prints a warning, cut between words at the terminal's width: printed before the full screen opens, it is
    what the host finds again once it closes, and the terminal would cut it mid-word. With a ``language``, the
    warning is about the table and labelled in its language, as its text is."""
    from ..hint import columns, fold
    from ..voices import load_voice

    labelled = (load_voice(language).text("screen.check_warning", {"text": message}, fragment=True) if language
                else f"warning: {message}")
    print(fold(labelled, columns(2)), file=sys.stderr, flush=True)


def _language(value: str) -> str:
    """An argparse type: a language the narrator speaks, by its name (never a path to a voice file)."""
    from ..voices import languages

    if value not in languages():
        raise argparse.ArgumentTypeError(f"{value!r} is not a language of the narrator's: {', '.join(languages())}")
    return value


def _file_name(value: str) -> str:
    """An argparse type: a file or folder name, never empty (an empty one would be silently ignored), without a
    NUL character (no system takes one)."""
    if not value:
        raise argparse.ArgumentTypeError("an empty name (give the file or folder meant)")
    if "\0" in value:
        raise argparse.ArgumentTypeError(f"{value!r} is not a file or folder name (a NUL character)")
    return value


def _address(value: str) -> str:
    """An argparse type: a network address or host name to listen on, never empty, without spaces or NUL."""
    if not value or any(c.isspace() or c == "\0" for c in value):
        raise argparse.ArgumentTypeError(f"{value!r} is not an address (e.g. 0.0.0.0, 127.0.0.1, 192.168.1.20)")
    return value


class UsageError(Exception):
    """A mistake on the command line that argparse cannot see: exit status 2."""


def _size(text: str) -> int:
    """A size in bytes, as --size and --max-size give it: a positive whole number."""
    if not text.isdigit() or len(text) > 18 or int(text) == 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size in bytes (a positive whole number)")
    return int(text)


def _sha256(text: str) -> str:
    """A SHA-256 checksum, as --sha256 gives it: 64 hexadecimal digits (else a download would be checked against
    what no file can match, and deleted once whole)."""
    if len(text) != 64 or not all(c in "0123456789abcdefABCDEF" for c in text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a SHA-256 checksum (64 hexadecimal digits)")
    return text.lower()


def _whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, or a message saying so."""

    def whole(text: str) -> int:
        digits = text.strip().removeprefix("-")
        if not digits.isascii() or not digits.isdigit() or len(digits) > 19 or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from {low:,} to {high:,}")
        return int(text)

    return whole


def _seconds(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds from ``low`` to ``high`` (no nan, no inf), or a message saying so."""

    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not low <= value <= high:  # nan compares false
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds from {low:g} to {high:g}")
        return value

    return seconds


PACE = _seconds(0, 60)
SEED = _whole(0, 2**63 - 1)
PHONE_BIND = "0.0.0.0"
"""Where the phones' page listens unless told: every interface."""
PHONE_PORT = 8086
"""The port the phones' page listens on unless told."""


def _is_script(data: object) -> bool:
    """Returns whether a YAML file's data is a practice script rather than a table config."""
    # A table config has a `deal` mode (app or cards); a script's `deal` is a map of seats.
    return isinstance(data, dict) and (any(k in data for k in ("answers", "table", "config"))
                                       or isinstance(data.get("deal"), dict))
