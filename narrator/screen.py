"""The screen: what the players whose eyes are open may see — the running call, its secrets, the prompt.

Secrets (the Seer's look, the Witch's victim, the pack...) are shown only while
their call runs and are cleared when it ends. ``RichScreen`` is full-screen in a
terminal; ``PlainScreen`` prints (for pipes and logs).
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


class PlainScreen:
    """Prints what changes, one line at a time; secrets are marked [screen]."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.state = ScreenState()

    def _print(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def show_call(self, title: str, spoken: str) -> None:
        self.state = ScreenState(title=title, status=self.state.status, log=self.state.log)

    def secret(self, text: str) -> None:
        self.state.secrets.append(text)
        self._print(f"  [screen] {text}")

    def public(self, text: str) -> None:
        self.state.log.append(text)
        self._print(text)

    def prompt(self, text: str) -> None:
        self.state.prompt = text
        self._print(f"  > {text}")

    def entry(self, text: str) -> None:
        self.state.entry = text
        if text:
            self._print(f"  > {text}")

    def status(self, text: str) -> None:
        self.state.status = text

    def clear(self) -> None:
        self.state.secrets.clear()
        self.state.prompt = self.state.entry = ""

    def close(self) -> None:
        pass


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
