"""The game's journal on disk: a header (the table, the seed, the deal), then one line per answer.

Each answer is written and flushed to the disk (fsync) before the narrator says
anything more, so a crash, a pulled plug or Ctrl-C loses nothing confirmed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from engine import Answer, Call

from .errors import UserError


def default_folder() -> Path:
    """Returns the folder where games are journaled (XDG data home)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "werewolf-narrator" / "games"


class Journal:
    """An append-only file of JSON lines."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.file = open(path, "x", encoding="utf-8")
        except OSError as exc:
            raise UserError(f"{path}: cannot write the game's journal ({exc.strerror or exc})") from None
        self._write({"werewolf-narrator": 1, **header})

    def _write(self, entry: dict[str, Any]) -> None:
        try:
            self.file.write(json.dumps(entry, ensure_ascii=False) + "\n")
            self.file.flush()
            os.fsync(self.file.fileno())
        except OSError as exc:
            raise UserError(f"{self.path}: the journal could not be written ({exc.strerror or exc}); "
                            "every answer before this one is saved") from None

    def record(self, call: Call, value: Answer) -> None:
        """Appends a confirmed answer; returns once it is on the disk."""
        self._write({"call": call.id, "phase": call.phase.value, "number": call.number, "answer": value})

    def close(self) -> None:
        """Closes the file."""
        self.file.close()
