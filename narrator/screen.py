"""The screen: what the players whose eyes are open may see — the running call, its secrets, the prompt.

Secrets (the Seer's look, the Witch's victim, the pack...) are shown only while
their call runs and are cleared when it ends. ``RichScreen`` is full-screen in a
terminal; ``PlainScreen`` prints line by line (secrets only on a terminal, gone with their call).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TextIO

if TYPE_CHECKING:
    from rich.console import Group


class Screen(Protocol):
    """The screen's duties, whatever draws it."""

    def show_call(self, title: str, spoken: str) -> None:
        """Starts a new call: its title and the line said; clears the previous call's secrets."""

    def secret(self, text: str) -> None:
        """Shows a secret line to those awake, until the call ends."""

    def public(self, text: str) -> None:
        """Adds a line said aloud to the log."""

    def prompt(self, text: str) -> None:
        """Shows what the keypad expects now."""

    def entry(self, text: str) -> None:
        """Shows what has been typed, or the read-back to confirm."""

    def status(self, text: str) -> None:
        """Shows the public state (day or night, who is alive, the Sheriff)."""

    def clear(self) -> None:
        """Clears the call's secrets, prompt and entry (its call is over)."""

    def close(self) -> None:
        """Gives the terminal back."""


@dataclass
class ScreenState:
    """What is on the screen now."""

    title: str = ""
    spoken: str = ""
    secrets: list[str] = field(default_factory=list)
    prompt: str = ""
    entry: str = ""
    status: str = ""
    log: list[str] = field(default_factory=list)


NOT_A_TERMINAL = ("(the screen's secrets, prompts and read-backs are shown only on a terminal: "
                  "they are not written here)")
"""Said once by a PlainScreen that does not print to a terminal (a pipe, a log), in place of every secret."""


class PlainScreen:
    """Prints what changes, one line at a time; lines said aloud stay, as in a log.

    A call's secrets, prompt and read-back are for those awake only, and must not outlive it: on a terminal
    they are printed in its alternate screen, left when the call ends, so none stays on the screen or in the
    scrollback; the lines said meanwhile are printed again on the main screen. Anywhere else (a pipe, a log,
    which stay) they are never written.
    """

    def __init__(self, out: TextIO | None = None, terminal: bool | None = None) -> None:
        self.out = out or sys.stdout
        self.terminal = _isatty(self.out) if terminal is None else terminal
        self.state = ScreenState()
        self.said: list[str] = []  # the running call's lines said aloud
        self.held: list[str] = []  # those said while the alternate screen showed: for the main screen too
        self.private = False  # the alternate screen shows the running call
        self.told = False

    def _print(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _private(self, text: str) -> None:
        """Prints a line for those awake: in the alternate screen, opened with the call's title and lines."""
        if not self.terminal:
            if not self.told:
                self.told = True
                self._print(NOT_A_TERMINAL)
            return
        if not self.private:
            self.private = True
            self.out.write("\x1b[?1049h\x1b[H\x1b[2J")
            for line in ([f"[{self.state.title}]"] if self.state.title else []) + self.said:
                self._print(line)
        self._print(text)

    def _leave(self) -> None:
        """Back to the main screen: the call's private lines are gone with the alternate screen."""
        if self.private:
            self.private = False
            self.out.write("\x1b[?1049l")
            for line in self.held:
                self._print(line)
            self.held.clear()
            self.out.flush()

    def show_call(self, title: str, spoken: str) -> None:
        self._leave()
        self.said = []
        self.state = ScreenState(title=title, status=self.state.status, log=self.state.log)

    def secret(self, text: str) -> None:
        self.state.secrets.append(text)
        self._private(f"  [screen] {text}")

    def public(self, text: str) -> None:
        self.state.log.append(text)
        self.said.append(text)
        if self.private:
            self.held.append(text)
        self._print(text)

    def prompt(self, text: str) -> None:
        self.state.prompt = text
        if text:
            self._private(f"  > {text}")

    def entry(self, text: str) -> None:
        self.state.entry = text
        if text:
            self._private(f"  > {text}")

    def status(self, text: str) -> None:
        self.state.status = text

    def clear(self) -> None:
        self._leave()
        self.state.secrets.clear()
        self.state.prompt = self.state.entry = ""

    def close(self) -> None:
        self._leave()


def _isatty(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):  # no such method, or closed
        return False


class RichScreen:
    """A full-screen view with rich: the call, its secrets, the prompt and entry, the public state."""

    def __init__(self, keys_help: str) -> None:
        from rich.console import Console
        from rich.live import Live

        self.console = Console()
        self.state = ScreenState()
        self.keys_help = keys_help
        self.live = Live(self._render(), console=self.console, screen=True, auto_refresh=False,
                         redirect_stdout=False, redirect_stderr=False)
        self.live.start()

    def _render(self) -> "Group":
        from rich.console import Group
        from rich.panel import Panel
        from rich.text import Text

        s = self.state
        parts: list[Text] = [Text(s.spoken, style="bold")]
        if s.secrets:
            parts.append(Text(""))
            parts += [Text("  " + line, style="bold yellow") for line in s.secrets]
        if s.prompt:
            parts += [Text(""), Text(s.prompt, style="cyan")]
        if s.entry:
            parts.append(Text("> " + s.entry, style="bold green"))
        parts += [Text(""), Text(s.status, style="dim")]
        log = [Text(line, style="dim") for line in s.log[-6:]]
        return Group(Panel(Group(*parts), title=s.title or "werewolf-narrator", subtitle=self.keys_help),
                     *log)

    def _refresh(self) -> None:
        self.live.update(self._render(), refresh=True)

    def show_call(self, title: str, spoken: str) -> None:
        self.state = ScreenState(title=title, spoken=spoken, status=self.state.status, log=self.state.log)
        self._refresh()

    def secret(self, text: str) -> None:
        self.state.secrets.append(text)
        self._refresh()

    def public(self, text: str) -> None:
        self.state.log.append(text)
        if not self.state.spoken:
            self.state.spoken = text
        self._refresh()

    def prompt(self, text: str) -> None:
        self.state.prompt = text
        self._refresh()

    def entry(self, text: str) -> None:
        self.state.entry = text
        self._refresh()

    def status(self, text: str) -> None:
        self.state.status = text
        self._refresh()

    def clear(self) -> None:
        self.state.secrets.clear()
        self.state.prompt = self.state.entry = ""
        self._refresh()

    def close(self) -> None:
        self.live.stop()
