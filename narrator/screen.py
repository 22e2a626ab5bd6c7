"""The screen: what the players whose eyes are open may see — the running call, its secrets, the prompt.

Secrets (the Seer's look, the Witch's victim, the pack...) are shown only while
their call runs and are cleared when it ends. ``RichScreen`` is full-screen in a
terminal; ``PlainScreen`` prints line by line (secrets only on a terminal, gone with their call).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, Sequence, TextIO

from .circle import SeatView

if TYPE_CHECKING:
    from rich.console import Group, RenderableType
    from rich.text import Text


class Screen(Protocol):
    """The screen's duties, whatever draws it."""

    state: ScreenState
    """What is on the screen now: the host's menu shows the prompt and the entry again once it is gone."""

    def show_call(self, title: str, spoken: str) -> None:
        """Starts a new call: its title and the line said; clears the previous call's secrets."""

    def secret(self, text: str, instead: str = "") -> None:
        """Shows a secret line to those awake, until the call ends; with ``instead``, in the place of that line if it
        is shown, and never twice (what the Witch still holds, once she has given her heal)."""

    def refusal(self, text: str) -> None:
        """Shows why the answer typed was refused, on a line of its own in the call's panel: the next refusal replaces
        it, and "" (the next key pressed) takes it away, so that it never stands under a later question."""

    def public(self, text: str) -> None:
        """Adds a line said aloud to the log."""

    def prompt(self, text: str) -> None:
        """Shows what the keypad expects now."""

    def entry(self, text: str) -> None:
        """Shows what has been typed, or the read-back to confirm."""

    def status(self, text: str) -> None:
        """Shows the public state (day or night, who is alive, the Sheriff)."""

    def seating(self, seats: Sequence[SeatView]) -> None:
        """Shows the seating circle: every seat as the whole table may see it (narrator.circle)."""

    def eyes(self, open_: bool, text: str) -> None:
        """Shows whether the table's eyes are open, as the narrator last asked, in a large banner."""

    def paused(self, text: str) -> None:
        """Shows the pause banner (``text``) over the eyes banner; "" ends the pause."""

    def countdown(self, text: str, left: int) -> None:
        """Shows a running timer (the debate, last words), ``left`` seconds to go; "" takes it away."""

    def notice(self, text: str, flash: bool = False) -> None:
        """Shows a line for the host in the status line: a warning (it stays), or with ``flash`` a passing hint (a
        repeat, a key that does nothing here), shown over the warning until the call ends."""

    def keys(self, text: str) -> None:
        """Shows the keys that work now, in the footer."""

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
    refusal: str = ""  # why the answer typed last was refused, until the next key
    prompt: str = ""
    entry: str = ""
    status: str = ""
    log: list[str] = field(default_factory=list)
    keys: str = ""  # the keys that work now: the running call's (a call not awaiting any shows none)


@dataclass
class TableState:
    """What stays on the screen from call to call: the circle, the banners, the timer, the host's lines."""

    seats: tuple[SeatView, ...] = ()
    eyes_open: bool = True
    eyes: str = ""
    paused: str = ""
    countdown: str = ""
    notice: str = ""
    flash: str = ""


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
        self.seats_line = ""

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

    def secret(self, text: str, instead: str = "") -> None:
        if shown_instead(self.state.secrets, text, instead):
            self._private(f"  [screen] {text}")

    def refusal(self, text: str) -> None:
        self.state.refusal = text
        if text:
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

    def _tell(self, text: str) -> None:
        """Prints a public line for the host on a terminal only, so that a pipe or a log gets the lines said alone."""
        if not self.terminal:
            return
        if self.private:
            self.held.append(text)
        self._print(text)

    def seating(self, seats: Sequence[SeatView]) -> None:
        line = " · ".join(seat.label() for seat in seats)  # the circle as one line, printed when it changes
        if line != self.seats_line:
            self.seats_line = line
            self._tell(line)

    def eyes(self, open_: bool, text: str) -> None:
        pass  # the lines said already tell the eyes, one a line

    def paused(self, text: str) -> None:
        if text:
            self._tell(text)

    def countdown(self, text: str, left: int) -> None:
        if text and left % 30 == 0:  # every half minute: a log of every second would bury the lines said
            self._tell(text)

    def notice(self, text: str, flash: bool = False) -> None:
        if text and flash:
            # A hint to a key pressed (a key that does nothing, the call shown again) is for whoever is at the keypad:
            # left under a night call in the scrollback, it would tell that someone was awake there.
            self._private(f"  {text}")
        elif text:
            self._tell(text)

    def keys(self, text: str) -> None:
        pass  # the prompt says what to type

    def clear(self) -> None:
        self._leave()
        self.state.secrets.clear()
        self.state.prompt = self.state.entry = self.state.refusal = ""

    def close(self) -> None:
        self._leave()


def shown_instead(secrets: list[str], text: str, instead: str = "") -> bool:
    """Puts ``text`` among the ``secrets`` shown: last; with ``instead``, in its place if it is there, and never
    twice. Returns whether the secrets changed."""
    if instead and instead in secrets:
        secrets[secrets.index(instead)] = text
    elif not instead or text not in secrets:
        secrets.append(text)
    else:
        return False
    return True


def _isatty(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):  # no such method, or closed
        return False


STATUS_LINES = 3
"""The most lines the host's status line takes: two warnings at 80 columns (no sound, no model) with the model's
command whole; or a sentence and a command of 82 characters
(``.venv/bin/werewolf-narrator voices render en --config examples/starter-en.yaml``)."""

BANNER_STYLES = {"closed": "bold white on dark_blue", "open": "bold black on yellow", "paused": "bold white on red"}
"""The eyes banner's colours: closed, open, and the pause over either."""


def _seat_text(seat: SeatView, width: int) -> "Text":
    """A seat's label, shortened to ``width`` cells: dim when out, bold when it bears a mark or a card shown."""
    from rich.text import Text

    style = "dim" if not seat.alive else "bold yellow" if seat.marks or seat.card else ""
    text = Text(seat.label(), style=style)
    text.truncate(width, overflow="ellipsis")
    return text


def _labels_width(seats: Sequence[SeatView], cap: int) -> int:
    from rich.cells import cell_len

    return min(cap, max(cell_len(seat.label()) for seat in seats))


def draw_circle(seats: Sequence[SeatView], width: int, height: int) -> list["Text"]:
    """Draws the seats clockwise from seat 1 at the top, on an ellipse when ``width`` × ``height`` holds them without
    a label touching another, else in rows in seat order (labels shortened to fit); at most ``height`` lines."""
    if not seats or height <= 0 or width <= 0:
        return []
    widest = _labels_width(seats, width)
    for cap in (widest, 16, 12, 9):
        if cap <= widest:
            drawn = _ellipse(seats, width, height, cap)
            if drawn is not None:
                return drawn
    return _rows(seats, width, height, widest)


def _ellipse(seats: Sequence[SeatView], width: int, height: int, cap: int) -> list["Text"] | None:
    import math

    from rich.text import Text

    count = len(seats)
    # Tall enough to hold the seats (half on each side), rounder on a wide screen, never more than the room.
    rows = min(height, max(count // 2 + 3, min(width // 8, count + 3)))
    if rows < 5:
        return None
    radius_x, radius_y = (width - cap) / 2 - 1, (rows - 1) / 2
    placed: dict[int, list[tuple[int, Text]]] = {}
    for i, seat in enumerate(seats):
        angle = 2 * math.pi * i / count
        label = _seat_text(seat, cap)
        x = round(width / 2 + radius_x * math.sin(angle) - label.cell_len / 2)
        x = max(0, min(width - label.cell_len, x))
        # Rounded half up, with room for the float's error: seats facing each other share a line.
        placed.setdefault(math.floor(radius_y - radius_y * math.cos(angle) + 0.5 + 1e-9), []).append((x, label))
    lines = []
    for y in range(rows):
        line, end = Text(), -1
        for x, label in sorted(placed.get(y, []), key=lambda p: p[0]):
            if x <= end:
                return None  # two labels would touch: too many seats for this ellipse
            line.append(" " * (x - line.cell_len))
            line.append_text(label)
            end = x + label.cell_len
        lines.append(line)
    return lines


def _rows(seats: Sequence[SeatView], width: int, height: int, widest: int) -> list["Text"]:
    from rich.text import Text

    cell = max(4, widest)
    while cell > 4 and -(-len(seats) // max(1, (width + 2) // (cell + 2))) > height:
        cell -= 1  # shorter labels, more to a row, until the rows fit the height
    per_row = max(1, (width + 2) // (cell + 2))
    lines = []
    for start in range(0, len(seats), per_row):
        line = Text()
        for seat in seats[start:start + per_row]:
            label = _seat_text(seat, cell)
            line.append_text(label)
            line.append(" " * (cell + 2 - label.cell_len))
        lines.append(line)
    return lines[:height]


DARK_SECRET_ROWS = 2
"""The rows a call's panel keeps for its secrets while the table's eyes are closed: the most a night call shows (the
Witch's victim and potions, the Thief's cards, the Actor's), so that a glance at the screen cannot tell a live
call from one made for a character who is out or powerless (who has none)."""


class RichScreen:
    """A full-screen view with rich: the eyes banner, the call (its secrets, prompt, entry, timer), the seating
    circle, the lines said, the host's status line and the keys that work now, fitted to the terminal's size."""

    def __init__(self, title: str = "werewolf-narrator") -> None:
        from rich.console import Console
        from rich.live import Live

        self.title = title  # the panel's title before the first call's: the table's language's (screen.title)
        self.console = Console()
        self.state = ScreenState()
        self.table = TableState()
        self.live = Live(self._render(), console=self.console, screen=True, auto_refresh=False,
                         redirect_stdout=False, redirect_stderr=False)
        self.live.start()

    def _render(self) -> "Group":
        from rich.console import Group
        from rich.panel import Panel
        from rich.text import Text

        width, height = self.console.size
        s, t = self.state, self.table
        parts: list[Text] = [Text(s.spoken, style="bold")]
        parts += [Text("  " + line, style="bold yellow") for line in s.secrets]
        if not t.eyes_open:  # the same panel for a live call and one made for nobody, whose secrets are none
            parts += [Text("")] * (DARK_SECRET_ROWS - len(s.secrets))
        if s.refusal:
            parts.append(Text("  " + s.refusal, style="bold red"))
        if s.prompt:
            parts.append(Text(s.prompt, style="cyan"))
        if s.entry:
            parts.append(Text("> " + s.entry, style="bold green"))
        if t.countdown:
            parts.append(Text(t.countdown, style="bold magenta", justify="center"))
        if s.status and not t.seats:
            parts.append(Text(s.status, style="dim"))
        banner_text, kind = (t.paused, "paused") if t.paused else (t.eyes, "open" if t.eyes_open else "closed")
        tall = height >= 30  # room for a three-line banner and a line between the circle and the log
        shown: list[RenderableType] = []
        if banner_text:
            bar = Text(banner_text, style=BANNER_STYLES[kind])
            bar.align("center", width)
            pad = [Text(" " * width, style=BANNER_STYLES[kind])] if tall else []
            shown += [*pad, bar, *pad]
        # The title as text, never as rich's markup: a seat's name heads the deal's panel ("[/]" crashed the game).
        shown.append(Panel(Group(*parts), title=Text(s.title or self.title)))
        options = self.console.options.update(width=width)
        used = sum(len(self.console.render_lines(r, options, pad=False)) for r in shown)
        status = self._status_lines(t.flash or t.notice, width)
        room = height - used - 1 - len(status)  # the status line and the footer stay at the bottom
        gap = 1 if tall else 0
        circle = draw_circle(t.seats, width, room - gap)
        left = room - len(circle) - gap  # the rows the circle leaves show the lines said (~30 at 200×60)
        log = [Text(line, style="dim", overflow="ellipsis", no_wrap=True) for line in s.log[-left:]] if left > 0 else []
        body: list[RenderableType] = [*circle, *[Text("")] * max(0, room - len(circle) - len(log)), *log]
        footer = Text(s.keys, style="reverse", overflow="ellipsis", no_wrap=True)
        return Group(*shown, *body, *status, footer)

    def _status_lines(self, text: str, width: int) -> list["Text"]:
        """The host's status line, on up to STATUS_LINES lines when it is wider than the screen: a warning ends with
        what to do (the command that fetches a model, or renders the table's lines), which a line cut at 80 columns
        would hide. Each warning (they are joined by " · ") begins a line of its own, so that two of them (no sound,
        no model) still show the command at 80×24; beyond STATUS_LINES lines, cut short (the render command is said
        again after the recap)."""
        from rich.text import Text

        lines = [line for part in text.split(" · ") if part
                 for line in Text(part, style="bold yellow").wrap(self.console, width)]
        if len(lines) > STATUS_LINES:
            lines[STATUS_LINES - 1].truncate(width - 1)
            lines[STATUS_LINES - 1].append("…", style="bold yellow")
        return lines[:STATUS_LINES]

    def _refresh(self) -> None:
        self.live.update(self._render(), refresh=True)

    def redraw(self) -> None:
        """Draws the screen again at the terminal's size (it was resized)."""
        self._refresh()

    def show_call(self, title: str, spoken: str) -> None:
        self.state = ScreenState(title=title, spoken=spoken, status=self.state.status, log=self.state.log)
        self.table.flash = ""
        self._refresh()

    def secret(self, text: str, instead: str = "") -> None:
        if shown_instead(self.state.secrets, text, instead):
            self._refresh()

    def refusal(self, text: str) -> None:
        if text != self.state.refusal:  # every key pressed clears it: drawn again only when it changes
            self.state.refusal = text
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

    def seating(self, seats: Sequence[SeatView]) -> None:
        self.table.seats = tuple(seats)
        self._refresh()

    def eyes(self, open_: bool, text: str) -> None:
        self.table.eyes_open, self.table.eyes = open_, text
        self._refresh()

    def paused(self, text: str) -> None:
        self.table.paused = text
        self._refresh()

    def countdown(self, text: str, left: int) -> None:
        self.table.countdown = text
        self._refresh()

    def notice(self, text: str, flash: bool = False) -> None:
        if flash:
            self.table.flash = text
        else:
            self.table.notice = text
        self._refresh()

    def keys(self, text: str) -> None:
        self.state.keys = text
        self._refresh()

    def clear(self) -> None:
        self.state.secrets.clear()
        self.state.prompt = self.state.entry = self.state.keys = self.state.refusal = ""
        self.table.flash = ""
        self._refresh()

    def close(self) -> None:
        self.live.stop()
