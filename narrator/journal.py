"""The game's journal on disk: a header (what the game is), the deal as it goes, then one line per answer.

Each line is written and flushed to the disk (fsync) before the narrator says
anything more, so a crash, a pulled plug or Ctrl-C loses nothing confirmed. A
last line torn by a crash (no newline, or not whole JSON) is ignored on reading:
the game resumes from the last whole line. One JSON object a line:

- The header: ``{"werewolf-narrator": 1, "kind": "play" or "dry-run", ...}``. A game at the table ("play") has
  its "config", "seed" and "buildings", then either its whole "deal" (the cards seat by seat) and "centre" (the
  deal was over when the journal began, as in every journal written before the deal was journaled), or
  ``"dealing": true``: the journal began before the first card was shown, and the deal follows line by line:

  - ``{"seen": 5}`` (deal: app): seat 5 has seen its card and hidden it again. The cards are the header's
    "deal" and "centre", drawn from the seed before the first card was shown.
  - ``{"identified": "werewolf", "seats": [3, 7]}`` (deal: cards): a character has typed its seats (``[]`` when
    its cards lie in the centre); the Thief's line also has "centre", the two centre cards he typed.
  - ``{"again": 1}`` (deal: cards): the seats typed did not fit the deck; the lines since the last "again" (or the
    header) are void, the characters identify themselves again.
  - ``{"deal": [...], "centre": [...]}``: the deal is over; its cards, seat by seat, and the centre's.

- Then the answers: ``{"call": "seer", "phase": "night", "number": 1, "needs": true, "answer": 4}``, and
  ``{"undo": 1}`` when the host took back the last one.
- Last, once the game is over: ``{"over": "village"}`` (the winner), so that `resume` lists only unfinished games.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .errors import UserError

if TYPE_CHECKING:  # the supervisor names a game's journal without loading the engine
    from engine import Answer, Call, Deal

VERSION = 1


def default_folder() -> Path:
    """Returns the folder where games are journaled (XDG data home)."""
    from .folders import data_home

    return data_home() / "werewolf-narrator" / "games"


def journal_name(seed: int) -> str:
    """Returns the file name of a new game's journal: the date and time it began, and its seed."""
    return f"game-{time.strftime('%Y%m%d-%H%M%S')}-{seed}.jsonl"


@dataclass(frozen=True)
class Entry:
    """One journaled answer: the call it answered, whether it needed an answer, and the answer."""

    call: str
    phase: str
    number: int
    needs: bool
    answer: Answer
    line: int


class Journal:
    """An append-only file of JSON lines, each on the disk before the next line of the game is said."""

    def __init__(self, path: Path, header: dict[str, Any] | None = None,
                 fsync: Callable[[int], None] = os.fsync) -> None:
        """Starts a new journal with ``header``; with no header, opens an existing one to go on writing."""
        self.path = path
        self.fsync = fsync
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.file = open(path, "x" if header is not None else "r+", encoding="utf-8")
        except FileExistsError:
            raise UserError(f"{path}: a journal is already there; give another file") from None
        except OSError as exc:
            raise UserError(f"{path}: cannot write the game's journal ({exc.strerror or exc})") from None
        if header is not None:
            self._write({"werewolf-narrator": VERSION, **header})
        else:
            self._cut_torn_end()

    def _cut_torn_end(self) -> None:
        """Drops a last line left unfinished by a crash, so that new answers start on a line of their own."""
        text = self.file.read()
        whole = text if text.endswith("\n") else text[: text.rfind("\n") + 1]
        last = whole[whole.rfind("\n", 0, len(whole) - 1) + 1:]
        if last and last != whole:  # never the header
            try:
                json.loads(last)
            except ValueError:  # whole bytes but no whole entry: as torn as a line without its newline
                whole = whole[: len(whole) - len(last)]
        self.file.seek(len(whole.encode("utf-8")))
        self.file.truncate()

    def _write(self, entry: dict[str, Any]) -> None:
        try:
            self.file.write(json.dumps(entry, ensure_ascii=False) + "\n")
            self.file.flush()
            self.fsync(self.file.fileno())
        except OSError as exc:
            from .hint import resume_hint

            raise UserError(f"{self.path}: the journal could not be written ({exc.strerror or exc}): the game "
                            f"stops here; every answer before this one is saved; to go on:\n  "
                            f"{resume_hint(self.path)}") from None

    def record(self, call: Call, value: Answer) -> None:
        """Appends a confirmed answer; returns once it is on the disk."""
        self._write({"call": call.id, "phase": call.phase.value, "number": call.number,
                     "needs": call.needs_answer, "answer": value if call.needs_answer else None})

    def record_deal(self, step: dict[str, Any]) -> None:
        """Appends a step of the deal (a card seen, a character identified, "again"); returns once it is on the disk."""
        self._write(step)

    def record_dealt(self, deal: Deal) -> None:
        """Appends the end of the deal: its cards, seat by seat, and the centre's."""
        self._write({"deal": list(deal.roles), "centre": list(deal.centre)})

    def record_over(self, winner: str) -> None:
        """Appends the end of the game: its winner."""
        self._write({"over": winner})

    def record_undo(self) -> None:
        """Appends the host's undo of the last answer."""
        self._write({"undo": 1})

    def close(self) -> None:
        """Closes the file."""
        self.file.close()


def read_journal(path: str) -> tuple[dict[str, Any], list[Entry]]:
    """Reads a journal: its header and its answers (undos applied); a torn last line is ignored.

    The header comes back with the deal's last line merged in ("deal" and "centre"); while the deal is not
    over, with "progress" too: its lines so far ("seen", "identified", "again"), in order; once the game is over,
    with "over", its winner.
    """
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise UserError(f"{path}: no such journal") from None
    except (OSError, ValueError) as exc:
        raise UserError(f"{path}: cannot read the journal ({exc})") from None
    text = raw.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif lines:
        lines.pop()  # no newline at the end: the crash tore the last entry; it was never confirmed
    if not lines:
        raise UserError(f"{path}: an empty journal: the game had not started")
    try:
        header = json.loads(lines[0])
    except ValueError:  # not JSON (JSONDecodeError), or a number too long to read
        raise UserError(f"{path}:1: not a werewolf-narrator journal") from None
    if not isinstance(header, dict) or header.get("werewolf-narrator") != VERSION:
        raise UserError(f"{path}:1: not a werewolf-narrator journal (version {VERSION})")
    header.pop("over", None)  # only the game's last line says it is over
    entries: list[Entry] = []
    progress: list[dict[str, Any]] | None = [] if header.get("dealing") is True else None
    for number, line in enumerate(lines[1:], start=2):
        where = f"{path}:{number}"
        try:
            data = json.loads(line)
        except ValueError:  # not JSON (JSONDecodeError), or a number too long to read
            if number == len(lines):
                break  # a torn last line
            raise UserError(f"{where}: damaged journal line (not JSON); the game can resume only up to "
                            f"line {number - 1}: keep a copy, then delete from this line on") from None
        if progress is not None:
            if not _deal_step(data):
                raise UserError(f"{where}: damaged journal line (expected a step of the deal)")
            if "deal" in data:
                header.update(deal=data["deal"], centre=data["centre"])
                progress = None
            else:
                progress.append(data)
            continue
        if isinstance(data, dict) and data.get("undo"):
            _undo(entries)
            continue
        if isinstance(data, dict) and isinstance(data.get("over"), str):
            header["over"] = data["over"]
            continue
        if (not isinstance(data, dict) or not isinstance(data.get("call"), str)
                or not isinstance(data.get("needs"), bool) or not isinstance(data.get("number"), int)):
            raise UserError(f"{where}: damaged journal line (expected a call and its answer)")
        entries.append(Entry(data["call"], str(data.get("phase")), data["number"], data["needs"],
                             data.get("answer"), number))
    header.pop("progress", None)  # where the deal stands is read from its lines, never taken from the header
    if progress is not None:
        header["progress"] = progress
    return header, entries


def _deal_step(data: object) -> bool:
    """Returns whether a line is one of the deal's: a card seen, a character identified, "again", the deal."""
    if not isinstance(data, dict):
        return False
    if "seen" in data:
        return type(data["seen"]) is int
    if "identified" in data:
        return isinstance(data["identified"], str) and isinstance(data.get("seats"), list)
    if "deal" in data:
        return isinstance(data["deal"], list) and isinstance(data.get("centre"), list)
    return data.get("again") == 1


def _undo(entries: list[Entry]) -> None:
    """Takes back the last answer, and the confirmations after it, as Game.undo does."""
    while entries and not entries[-1].needs:
        entries.pop()
    if entries:
        entries.pop()
