"""The unfinished games in the journal folder, for `resume` with no journal (or `resume --last`).

Read from the journals alone, without the engine (the process that lists them goes on to supervise the game): a
game is over once its journal's last line says so ({"over": ...}); how far it went is its last answer's night or day.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TextIO

from .errors import UserError
from .hint import columns, command, fold, printable, table_text, typed_path
from .journal import in_use, read_journal, table_language


@dataclass(frozen=True)
class Unfinished:
    """A game that can go on: its journal, when it was last played, and its table and how far it went in the
    table's language (the ``details`` its players would read)."""

    path: Path
    when: float
    details: str
    language: str
    playing: bool = False  # open in another narrator right now: `resume` would be refused


def unfinished_games(folder: Path) -> list[Unfinished]:
    """Returns the games at the table left unfinished in ``folder``, the most recently played first; journals that
    cannot be read (damaged, a dry run's, another program's) are left out: `resume FILE` names their fault."""
    games = []
    for path in folder.glob("*.jsonl") if folder.is_dir() else ():
        try:
            header, entries = read_journal(str(path))
            when = path.stat().st_mtime
        except (UserError, OSError):
            continue
        if header.get("kind") != "play" or "over" in header:
            continue
        config = header["config"] if isinstance(header.get("config"), dict) else {}
        language = table_language(path)
        say = functools.partial(table_text, language)
        source = str(header.get("source", config.get("source")) or "")  # inside the config in a journal's old shape
        table = printable(Path(source).name) if source and not source.startswith("(") else say("screen.starter_table")
        if "progress" in header:
            where = say("screen.at_deal")
        elif not entries:
            where = say("screen.at_start")
        elif entries[-1].phase == "day" and entries[-1].number == 0:
            where = say("screen.day_zero")
        else:
            where = say(f"summary.{entries[-1].phase}", number=entries[-1].number)
        seats = config.get("seats")  # a number, or the players' names
        count = len(seats) if isinstance(seats, list) else seats if type(seats) is int else "?"
        details = say("screen.unfinished", table=table, count=count, where=where)
        games.append(Unfinished(path, when, details, language, in_use(path)))
    return sorted(games, key=lambda game: (game.when, game.path.name), reverse=True)


def listed(games: list[Unfinished]) -> str:
    """The games, numbered from 1: date, the table's language, the table and how far in that language, journal.

    The list's own words (its title, its question) stay in English: it may hold the games of several tables, in
    several languages, and is read before any of them is chosen; each game's details are its own table's words."""
    return "\n".join(f"{i:>3}. {time.strftime('%Y-%m-%d %H:%M', time.localtime(game.when))}  [{game.language}]  "
                     f"{game.details}{PLAYING if game.playing else ''}\n       {typed_path(str(game.path))}"
                     for i, game in enumerate(games, start=1))


PLAYING = "  (being played now, in another werewolf-narrator)"
"""Said of a game whose journal another narrator holds: choosing it would be refused, and --last passes it by."""


def choose(folder: Path, last: bool, out: TextIO | None = None, ask: Callable[[str], str] = input,
           interactive: bool | None = None) -> Path | None:
    """Returns the journal of the game to go on with: the newest unfinished one with ``last``, else the one the
    user picks by its number; None when nothing is chosen (no terminal to ask, or no answer)."""
    out = out or sys.stdout
    games = unfinished_games(folder)
    if not games:
        raise UserError(f"no unfinished game in {folder}: `{command()} play` starts one; "
                        f"`{command()} resume FILE` goes on with a journal kept elsewhere")
    if last:  # the most recent game nobody is playing now (if all are, the refusal will say why)
        return next((game.path for game in games if not game.playing), games[0].path)
    try:
        width = columns(out.fileno())
    except (OSError, ValueError, AttributeError):  # an in-memory stream: nothing to fold to
        width = None
    # Folded between words: at 80 columns the terminal cut "the" of the title, and the journals' folder mid-name.
    print(fold(f"Unfinished games in {typed_path(str(folder))}, the most recent first:", width), file=out)
    print(listed(games), file=out)
    if interactive is None:
        interactive = os.isatty(0)
    if not interactive:
        print(f"To go on with one: {command()} resume FILE (the most recent: {command()} resume --last)", file=out)
        return None
    while True:
        try:
            answer = ask(f"Which game? (1-{len(games)}, Enter for 1, q to quit) ").strip()
        except EOFError:
            return None
        if answer.lower() in ("q", "quit"):
            return None
        if not answer:
            return games[0].path
        if answer.isdigit() and 1 <= int(answer) <= len(games):
            return games[int(answer) - 1].path
        print(f"Type a number from 1 to {len(games)}.", file=out)
