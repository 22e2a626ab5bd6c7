"""The command a hint shows: one the user can type where they are, to go on with a game.

`werewolf-narrator` is often not on the PATH (it lives in a virtual environment's bin/): a hint naming it would not
work. The command is chosen once, in the process the user started, and handed to the game's supervised process
(which runs as ``python -m narrator``) in the environment. Loads neither the engine nor rich (the supervisor uses it).
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import sys
import unicodedata
from pathlib import Path
from typing import Any, Callable, Mapping

COMMAND = "WEREWOLF_NARRATOR_COMMAND"
"""The command as the first process chose it, for its children (the supervised game) to show the same."""

NAME = "werewolf-narrator"

VOICES = Path(__file__).resolve().parent.parent / "voices"
"""The voice files (narrator.voices.VOICES_DIR, named here so that the supervisor need not import the engine)."""


def command(environ: Mapping[str, str] | None = None, argv0: str | None = None, executable: str | None = None,
            which: Callable[[str], str | None] = shutil.which, cwd: str | None = None) -> str:
    """Returns the command that runs this program where the user is: ``werewolf-narrator`` when it is on the PATH;
    else the script that is running (or ``PYTHON -m narrator``), by its relative path when that is shorter."""
    environ = os.environ if environ is None else environ
    if environ.get(COMMAND):
        return environ[COMMAND]
    if which(NAME):
        return NAME
    argv0 = sys.argv[0] if argv0 is None else argv0
    if Path(argv0).name == NAME:
        return shlex.quote(_shortest(argv0, cwd))
    return f"{shlex.quote(_shortest(executable or sys.executable, cwd))} -m narrator"


def _shortest(path: str, cwd: str | None) -> str:
    """The path as the user may type it from ``cwd``: relative when shorter (``.venv/bin/werewolf-narrator``)."""
    full = os.path.abspath(os.path.join(cwd or os.getcwd(), path))
    try:
        relative = os.path.relpath(full, cwd or os.getcwd())
    except ValueError:  # another drive
        return full
    if relative.startswith(".."):
        return full  # a path that climbs out of the working folder is read more easily whole
    relative = os.path.join(".", relative) if os.sep not in relative else relative
    return relative if len(relative) < len(full) else full


def resume_hint(journal: str | os.PathLike[str], fd: int = 2) -> str:
    """Returns the command that goes on with the game of ``journal``, to show indented on a line of its own.

    The journal is named as the user may type it (``~/...``, or relative when shorter). Too wide for the terminal on
    ``fd``, the command is cut after a word or a slash with a backslash that ends the line (the shell joins the lines
    again, so it still works pasted): the terminal never cuts it mid-word.
    """
    path = typed_path(str(journal))
    line = f"{command()} resume {path}"
    width = _columns(fd)
    if width is None or len(line) + 2 <= width or shlex.quote(path) != path and not path.startswith("~/"):
        return line  # a quoted path cannot be cut: a backslash inside quotes is kept
    folded = [f"{command()} resume \\"]
    parts = path.split("/")
    piece = ""
    for part in [p + "/" for p in parts[:-1]] + parts[-1:]:
        if piece and len(piece) + len(part) + 1 > width:  # the backslash too must fit
            folded.append(piece + "\\")
            piece = ""
        piece += part
    return "\n".join([*folded, piece])


def render_hint(language: str, table: str = "") -> str:
    """Returns the command that renders a table's lines ahead into the voice cache: ``voices render LANG --config
    TABLE``, the table named as the user may type it; ``voices render LANG`` for a table of no file (the built-in
    one, whose source is a description in parentheses, which `voices render` without a config covers)."""
    line = f"{command()} voices render {language}"
    if table and not table.startswith("("):
        line += f" --config {typed_path(table)}"
    return line


def typed_path(path: str) -> str:
    """Returns ``path`` as the shell takes it: quoted if need be, and the shortest of itself, ``~/...`` and relative
    to the working folder when it lies inside it."""
    full = os.path.abspath(path)
    home = os.path.expanduser("~").rstrip("/")
    forms = [shlex.quote(full)]
    relative = os.path.relpath(full)
    if not relative.startswith(".."):  # "../../tmp/game.jsonl" says less than "/tmp/game.jsonl", and depends on cwd
        forms.append(shlex.quote(relative))
    if home and full.startswith(home + "/"):
        forms.append("~/" + shlex.quote(full[len(home) + 1:]))
    return min(forms, key=len)


def _columns(fd: int) -> int | None:
    """The width of the terminal on ``fd``; None when it is not a terminal (a log, a pipe: nothing is cut)."""
    try:
        return os.get_terminal_size(fd).columns if os.isatty(fd) else None
    except OSError:
        return None


def pinned() -> dict[str, str]:
    """The environment a child process gets so that its hints show the command the user started with."""
    return {COMMAND: command()}


def printable(text: str) -> str:
    """Returns ``text`` with every character a terminal would act on (an escape, a line break, a bidi override)
    written as its code, ``\\x1b``: a journal's header is a file anyone may have edited, shown on the table's
    terminal."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def table_text(language: str, key: str, **values: object) -> str:
    """Returns the screen line ``key`` of ``language``'s voice file with its ``values``: the hints shown around a
    game (the supervisor's, the resume list's) speak the table's language, as its screen did. The line is read
    with yaml alone, when it is needed (after the game's process has ended, or before it begins), never the
    engine. A language without a voice file, or a line it lacks, falls back to English."""
    template = _lines(language).get(key) or _lines("en")[key]
    return template.format_map({name: str(value) for name, value in values.items()})


@functools.lru_cache(maxsize=None)
def _lines(language: str) -> dict[str, str]:
    """The ``lines`` of ``voices/<language>.yaml`` (empty when there is no such file, or it cannot be read)."""
    import yaml

    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    path = VOICES / f"{language}.yaml"
    if not (language.isalnum() and language.isascii()):
        return {}
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader) if path.is_file() else None
    except (OSError, UnicodeError, yaml.YAMLError):
        return {}
    lines = data.get("lines") if isinstance(data, dict) else None
    return {str(k): str(v) for k, v in lines.items()} if isinstance(lines, dict) else {}


def fold(text: str, width: int | None) -> str:
    """Returns ``text`` cut between words into lines of at most ``width`` cells (a wide character, as Chinese, takes
    two), as the terminal would not: it cuts mid-word. A word wider than the line stays whole (a path, a command;
    Chinese, without spaces, the terminal may cut anywhere). Without a width (not a terminal), unchanged."""
    if not width or width < 20:
        return text
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line, used = "", 0
        for word in paragraph.split(" "):
            cells = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in word)
            if line and used + 1 + cells > width:
                lines.append(line)
                line, used = word, cells
            else:
                line, used = (f"{line} {word}", used + 1 + cells) if line else (word, cells)
        lines.append(line)
    return "\n".join(lines)


def columns(fd: int) -> int | None:
    """The width of the terminal on ``fd`` (None when it is not one): what `fold` cuts to, less one column."""
    width = _columns(fd)
    return None if width is None else width - 1
