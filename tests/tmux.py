"""A real terminal for the tests: a tmux server of a test's own, its panes started, typed into and read."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Callable

from keystrokes import TMUX_KEYS

PATIENCE = 120.0
"""How long a terminal test waits for what it expects before it fails: on a loaded 2-core machine (two CPU hogs
and the suite's own parallel trials) starting and resuming a game took over 30 s; on a quiet one, a second."""


class Tmux:
    """A tmux server of its own (``tmux -L name``); its first pane is named ``name`` too.

    ``joined`` reads a pane with its wrapped lines joined (a long line is then found whole).
    """

    def __init__(self, name: str, joined: bool = False) -> None:
        # The server's socket is named after the process too: two test runs at once (pytest's temporary folders
        # have the same names in each) must not share a server.
        self.base = ["tmux", "-L", f"{name}-{os.getpid()}"]
        self.target = name
        self.joined = joined

    def run(self, *args: str) -> str:
        return subprocess.run([*self.base, *args], check=True, capture_output=True, text=True).stdout

    def start(self, command: str, width: int = 100, height: int = 30, target: str | None = None) -> None:
        """Starts a pane (a session of its own) running ``command``."""
        self.run("new-session", "-d", "-s", target or self.target, "-x", str(width), "-y", str(height), command)

    def respawn(self, command: str) -> None:
        """Runs ``command`` in the first pane instead of what runs there."""
        self.run("respawn-pane", "-k", "-t", self.target, command)

    def screen(self, target: str | None = None) -> str:
        """Returns what a pane shows now."""
        return self.run("capture-pane", "-p", *(["-J"] if self.joined else []), "-t", target or self.target)

    def everything(self) -> str:
        """The first pane's screen and its whole scrollback, wrapped lines joined."""
        return self.run("capture-pane", "-p", "-J", "-S", "-", "-t", self.target)

    def send(self, keys: list[str], target: str | None = None) -> None:
        """Types the keypad's ``keys`` (names such as "enter") into a pane."""
        for i in range(0, len(keys), 40):
            self.run("send-keys", "-t", target or self.target, *[TMUX_KEYS.get(k, k) for k in keys[i:i + 40]])

    def wait_for(self, found: Callable[[str], bool] | str, seconds: float = PATIENCE) -> str:
        """Returns the first pane's screen once it shows ``found`` (a text, or a test of the screen), within
        ``seconds``: a bound for a hang, not a pace (a busy machine's resume took over 30 s)."""
        test = (lambda shown: found in shown) if isinstance(found, str) else found
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            shown = self.screen()
            if test(shown):
                return shown
            time.sleep(0.05)
        raise AssertionError(f"{found!r} never appeared; the screen shows:\n{self.screen()}")

    def game_process(self) -> int:
        """Returns the game's own process: the child of the supervisor, itself the child of the pane's shell."""
        pane = int(self.run("display-message", "-p", "-t", self.target, "#{pane_pid}"))
        end = time.monotonic() + 10
        while time.monotonic() < end:
            games = [c for s in children(pane) for c in children(s)]
            if games:
                return games[0]
            time.sleep(0.05)
        raise AssertionError("the game's process never started")

    def close(self) -> None:
        """Ends the server and everything running in it."""
        subprocess.run([*self.base, "kill-server"], capture_output=True)


def children(pid: int) -> list[int]:
    """Returns the child processes of ``pid`` (none once it is gone)."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []
