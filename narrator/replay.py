"""Going on with a journaled game: the journal's answers are given again, silently, then the table's."""

from __future__ import annotations

from typing import Callable

from engine import Answer, Call, Game, IllegalAnswer

from .errors import UserError
from .journal import Entry
from .narration import Answers


class Replay:
    """Answers from a journal first (checking each is for the call the game makes), then from ``live``.

    ``skip(call, entry)`` lets the live source know an answer it would have given was replayed
    (a practice script moves past it); ``on_live()`` runs once, when the journal is used up.
    """

    def __init__(self, path: str, entries: list[Entry], live: Answers,
                 skip: Callable[[Call, Entry], None] = lambda call, entry: None,
                 on_live: Callable[[Call], None] = lambda call: None) -> None:
        self.path = path
        self.entries = list(entries)
        self.live = live
        self.skip = skip
        self.on_live = on_live
        self.replaying = bool(self.entries)
        self._current: Entry | None = None

    def answer(self, call: Call, game: Game) -> Answer:
        if self.entries:
            entry = self.entries.pop(0)
            if entry.call != call.id or entry.number != call.number:
                raise UserError(f"{self.path}:{entry.line}: the journal answers '{entry.call}' ({entry.phase} "
                                f"{entry.number}), but the game calls '{call.id}' ({call.phase.value} "
                                f"{call.number}): this journal is not this game's")
            self._current = entry
            self.skip(call, entry)
            return entry.answer
        if self.replaying:
            self.replaying = False
            self.on_live(call)
        return self.live.answer(call, game)

    def refused(self, call: Call, value: Answer, error: IllegalAnswer) -> None:
        if self._current is not None and self.replaying:
            raise UserError(f"{self.path}:{self._current.line}: the journal's answer to '{call.id}' is refused "
                            f"by the rules ({error.reason}): the journal is damaged")
        self.live.refused(call, value, error)
