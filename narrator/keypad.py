"""The keypad: any keyboard or USB numeric keypad, read key by key in a real terminal.

Keys are read as names: the digits, ``enter``, ``back`` (change), ``undo``, ``repeat``, ``tie``, ``rollcall`` (V: the
vote counted voter by voter), ``menu`` (the host menu), ``interrupt`` (Ctrl-C) and ``other`` (any other printable
key: it does nothing, the narrator says which work). A numeric keypad has every one of them but the roll call: Enter,
the digits, ``-`` to change, ``/`` to undo, ``.`` to repeat, ``+`` for a tie and ``*`` for the menu. SIGTERM and
SIGHUP (a shutdown, the terminal window closed, the supervisor gone) stop the game at the next key read, as the host's
confirmed Ctrl-C does, or within a second wherever it is (a call's floor, a line being said). Ctrl-\\ is Ctrl-C;
Ctrl-Z does nothing: a game suspended would leave its screen, a secret on it, and the keyboard to the shell.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import signal
import sys
import time
from typing import Any, Callable, Protocol

from .hint import command

KEYMAP = {
    "\r": "enter", "\n": "enter",
    "\x7f": "back", "\x08": "back", "-": "back",
    "u": "undo", "U": "undo", "/": "undo",
    "r": "repeat", "R": "repeat", ".": "repeat",
    "t": "tie", "T": "tie", "+": "tie",
    "v": "rollcall", "V": "rollcall",
    "*": "menu", "m": "menu", "M": "menu",
    "y": "1", "Y": "1", "n": "0", "N": "0",
}
# What a numeric keypad sends in "application" mode (ESC O x), and arrows we ignore.
ESCAPES = {"OM": "enter", "Ok": "tie", "Om": "back", "Oj": "menu", "Oo": "undo", "On": "repeat",
           **{f"O{chr(ord('p') + d)}": str(d) for d in range(10)}}


class HostStop(KeyboardInterrupt):
    """The host ended the game (the host menu, or Ctrl-C confirmed); the journal lets it go on later. The host's
    own decision: the players' phones' links end with it (docs/phones.md)."""


class TableGone(HostStop):
    """The terminal went away or was told to stop (SIGTERM, SIGHUP: a shutdown, a window closed, an SSH session
    dropped): the game stops as the host's stop does, but nobody chose it, so it is taken as a crash is: the phones'
    links are kept for `resume`. Raised by the keypad, whose signals say so."""


class Keys(Protocol):
    """A source of key names."""

    def read(self, timeout: float | None = None) -> str | None:
        """Returns the next key's name, or None when ``timeout`` seconds pass without one."""

    def meanwhile(self, seconds: float) -> str | None:
        """Returns the next key's name pressed within ``seconds`` while a call made for nobody waits (read as its
        living call reads its keys), or None once they have passed. Keys typed ahead (TYPE_AHEAD) are left for the
        calls they answer."""

    def drain(self) -> None:
        """Forgets the keys typed and not read yet: a night call opens, and nothing typed before it is its answer."""

    def close(self) -> None:
        """Gives the terminal back as it was."""


TYPE_AHEAD = "WEREWOLF_NARRATOR_TYPE_AHEAD"
"""Set (to anything but ""), a terminal's keys typed before a night call opens are kept for it: the tests that type a
whole game into a terminal at once set it. A table never does: at night nobody types ahead of their call."""


STOPS = (signal.SIGTERM, signal.SIGHUP)
"""The signals that end the game as the host's confirmed Ctrl-C does: its journal kept, the terminal given back."""

STOP_GRACE = 1.0
"""Seconds a stopping signal waits for the game to reach a key read, where it stops between two steps; past them
it stops where it is (a journal line is whole or torn, and a torn last line is ignored): a shutdown, or a
supervisor gone, never waits out a call's floor."""

IGNORED = (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU)
"""Ctrl-Z, and what the terminal does to a game left in the background (its supervisor killed): never suspended."""


class TerminalKeys:
    """Reads single keys from a terminal in cbreak mode (no Enter needed, no echo); Ctrl-C still interrupts;
    SIGTERM and SIGHUP stop the game (HostStop) where it waits for a key."""

    def __init__(self, fd: int | None = None, on_resize: Callable[[], None] = lambda: None) -> None:
        import termios
        import tty

        self.fd = sys.stdin.fileno() if fd is None else fd
        if not os.isatty(self.fd):
            raise OSError(f"the keypad needs a terminal: run {command()} {' '.join(sys.argv[1:2]) or 'play'} in a "
                          "terminal window")  # the command run: `play`, or `resume`
        self._saved: list[Any] | None = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        # Ctrl-C becomes the key "interrupt", read like any other, so that the narrator can ask the host
        # whether to stop rather than die wherever it was (a pipe wakes the waiting select).
        self._wake_r, self._wake_w = os.pipe()
        self._old_sigint = signal.signal(signal.SIGINT, self._interrupt)
        self._old_others = {signal.SIGQUIT: signal.signal(signal.SIGQUIT, self._interrupt),  # Ctrl-\: as Ctrl-C
                            **{s: signal.signal(s, signal.SIG_IGN) for s in IGNORED}}
        # SIGTERM and SIGHUP wake it the same way, and stop the game at once: raised where a key is awaited,
        # never in the middle of a journal line or a screen being drawn, unless that takes longer than STOP_GRACE.
        self._old_stops = {s: signal.signal(s, self._stop) for s in STOPS}
        self._old_stops[signal.SIGALRM] = signal.signal(signal.SIGALRM, self._stop_now)
        # A terminal resized: the screen is drawn again (``on_resize``) while a key is awaited, not in the handler (it
        # may come in the middle of a screen being drawn), and without a key: the key pressed to see the screen again
        # was an answer (Enter showed the next seat's card).
        self.on_resize = on_resize
        self._old_winch = signal.signal(signal.SIGWINCH, lambda signum, frame: os.write(self._wake_w, b"W")) \
            if hasattr(signal, "SIGWINCH") else None

    def _interrupt(self, signum: int, frame: Any) -> None:
        os.write(self._wake_w, b"!")

    def _stop(self, signum: int, frame: Any) -> None:
        os.write(self._wake_w, b"S")
        if not signal.getitimer(signal.ITIMER_REAL)[0]:
            signal.setitimer(signal.ITIMER_REAL, STOP_GRACE)

    def _stop_now(self, signum: int, frame: Any) -> None:
        raise TableGone()

    def _char(self, timeout: float | None) -> str | None:
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            ready, _, _ = select.select([self.fd, self._wake_r], [], [],
                                        None if end is None else max(0.0, end - time.monotonic()))
            if not ready:
                return None
            if self._wake_r not in ready:
                break
            woken = os.read(self._wake_r, 64)
            if b"S" in woken:
                signal.setitimer(signal.ITIMER_REAL, 0)  # stopped here, between two steps: no need to force it
                raise TableGone()
            if b"W" in woken:
                self.on_resize()
            if b"!" in woken:
                return "\x03"
        try:
            data = os.read(self.fd, 1)
        except OSError as exc:
            if exc.errno != errno.EIO:
                raise
            data = b""  # the terminal taken away: closed, or given to the shell (the supervisor killed or stopped)
        if not data:
            raise TableGone()  # as a closed window's SIGHUP: the game stops, its journal kept
        return data.decode("latin-1")

    def read(self, timeout: float | None = None) -> str | None:
        while True:
            char = self._char(timeout)
            if char is None:
                return None
            if char == "\x03":
                return "interrupt"
            if char == "\x1b":
                seq = ""
                while len(seq) < 2:
                    nxt = self._char(0.05)
                    if nxt is None:
                        break
                    seq += nxt
                if seq in ESCAPES:
                    return ESCAPES[seq]
                continue  # arrows and other escapes mean nothing here
            if char.isdigit():
                return char
            if char in KEYMAP:
                return KEYMAP[char]
            if char.isprintable():
                return "other"  # a key with no use at the table: the narrator hints at the keys that work

    def meanwhile(self, seconds: float) -> str | None:
        if os.environ.get(TYPE_AHEAD):  # a whole game typed at once (the tests): nothing of it is this call's
            time.sleep(max(0.0, seconds))
            return None
        return self.read(max(0.0, seconds))

    def drain(self) -> None:
        """Flushes what the terminal holds typed and unread (a stray key at night): Ctrl-C and the stopping signals
        come by the wake pipe, never lost."""
        import termios

        if not os.environ.get(TYPE_AHEAD) and self._saved is not None:
            with contextlib.suppress(OSError, termios.error):  # a terminal gone: the next read stops the game
                termios.tcflush(self.fd, termios.TCIFLUSH)

    def close(self) -> None:
        import termios

        if self._saved is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            # Keys typed for the game and not read are dropped: given to the shell, they would run as its commands.
            with contextlib.suppress(OSError, termios.error):  # a terminal gone has nothing to give back
                termios.tcsetattr(self.fd, termios.TCSAFLUSH, self._saved)
            self._saved = None
            signal.signal(signal.SIGINT, self._old_sigint)
            for number, handler in {**self._old_others, **self._old_stops}.items():
                signal.signal(number, handler)
            if self._old_winch is not None:
                signal.signal(signal.SIGWINCH, self._old_winch)
            os.close(self._wake_r)
            os.close(self._wake_w)
