"""The console: lines printed instead of said, and warnings to stderr."""

from __future__ import annotations

import sys
import time
from typing import Iterable, TextIO

from .audio import Heard


def print_to_stderr(message: str) -> None:
    """Writes a warning to stderr."""
    print(f"warning: {message}", file=sys.stderr, flush=True)


class ConsoleSpeaker:
    """Prints each line instead of saying it.

    >>> import io
    >>> out = io.StringIO()
    >>> ConsoleSpeaker(out).say("It is night.").voice
    'console'
    >>> out.getvalue()
    'It is night.\\n'
    """

    name = "console"
    renders_ahead = False
    not_ready_told = ""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream

    def say(self, text: str) -> Heard | None:
        """Prints ``text`` (an empty line is skipped)."""
        if not text.strip():
            return None
        heard = Heard("console", time.time())
        # Resolved per line, so a stdout redirected after start-up is followed.
        print(text, file=self._stream or sys.stdout, flush=True)
        return heard

    def prepare(self, texts: Iterable[str]) -> int:
        """Renders nothing: a line is printed as it comes."""
        return 0

    def close(self) -> None:
        """Releases nothing: the stream belongs to the caller."""
