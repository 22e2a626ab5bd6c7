"""Dry runs: a practice script played through the narration loop, and the game report."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from engine import Answer, Call, Game, IllegalAnswer, Rules
from engine.answers import shown

from .errors import RunFailed
from .journal import Entry, Journal
from .narration import Answers, Line, Narrator, run
from .replay import Replay
from .script import Script, ScriptAnswer
from .voices import Voice, load_voice


def _written(item: ScriptAnswer) -> str:
    """Returns an answer as the script writes it (``seer: 2``): the place in the file is said by its line."""
    return f"{item.call}: {_shown(item.value)}"


def _shown(value: Answer) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, default=str)  # a date YAML read is shown as written
    except (TypeError, ValueError):
        return shown(value)


def failed(voice: Voice, key: str, values: dict[str, object]) -> RunFailed:
    """Returns the run's failure ``screen.script_<key>``, worded in the script's language, and its heading."""
    return RunFailed(voice.text(f"screen.script_{key}", values, fragment=True),
                     voice.text("screen.script_stopped", {"text": ""}, fragment=True))


class ScriptAnswers:
    """Answers a game from a practice script, in order; stops the run at the first mismatch, saying so in the
    script's language (``voice``)."""

    def __init__(self, script: Script, voice: Voice) -> None:
        self.script = script
        self.voice = voice
        self.next = 0
        self.last: ScriptAnswer | None = None

    def _when(self, call: Call) -> str:
        return self.voice.text(f"summary.{call.phase.value}", {"number": call.number}, fragment=True)

    def _failed(self, key: str, **values: object) -> RunFailed:
        return failed(self.voice, key, values)

    def answer(self, call: Call, game: Game) -> Answer:
        if not call.needs_answer:
            return None  # calls that need no answer, and those made for the dead: confirmed by the runner
        if self.next >= len(self.script.answers):
            raise self._failed("ran_out", where=self.script.path, call=call.id, when=self._when(call))
        item = self.script.answers[self.next]
        if item.call != call.id:
            raise self._failed("wrong_call", where=item.where, answer=_written(item), given=item.call, call=call.id,
                               when=self._when(call))
        self.next += 1
        self.last = item
        return item.value

    def refused(self, call: Call, value: Answer, error: IllegalAnswer) -> None:
        item = self.last
        # The rules' reason in the script's language: the engine's own words in English (they say the most), else
        # the line the table would see where the voice file has one.
        reason = error.reason if self.voice.language == "en" or error.key not in self.voice.lines \
            else self.voice.text(error.key, error.values, fragment=True)
        raise self._failed("refused", where=item.where if item else self.script.path,
                           answer=f"{call.id}: {_shown(value)}", when=self._when(call), reason=reason)

    def leftover(self) -> None:
        """Stops the run if answers are left once the game is over."""
        if self.next < len(self.script.answers):
            item = self.script.answers[self.next]
            raise self._failed("left_over", where=item.where, count=len(self.script.answers) - self.next,
                               answer=_written(item))


def report(game: Game, lines: list[Line], language: str) -> dict[str, Any]:
    """Returns the game report (its fields: docs/practice-scripts.md)."""
    outcome = game.outcome
    assert outcome is not None
    return {
        "winner": outcome.winner,
        **({"reason": outcome.reason} if outcome.reason else {}),
        "winners": list(outcome.winners),
        "calls": game.report_calls(),
        "eliminated": [{"seat": e.seat, "role": e.role, "phase": e.phase.value, "number": e.number,
                        "cause": e.cause} for e in game.eliminated],
        "lines": [dict(line.as_dict(), language=language) for line in lines],
    }


def check_expectations(script: Script, game: Game, voice: Voice) -> None:
    """Fails the run, naming the first difference, if the game ended otherwise than the script expects."""
    outcome = game.outcome
    assert outcome is not None

    def fail(key: str, **values: object) -> RunFailed:
        return failed(voice, key, {"path": script.path, **values})

    if script.expect_winner is not None and outcome.winner != script.expect_winner:
        raise fail("winner", expected=script.expect_winner, got=outcome.winner)
    if script.expect_reason is not None and outcome.reason != script.expect_reason:
        raise fail("reason", expected=script.expect_reason, got=outcome.reason or outcome.winner)
    if script.expect_eliminated is not None:
        got = tuple(e.seat for e in game.eliminated)
        want = script.expect_eliminated
        if got != want:
            i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            none = voice.text("screen.script_no_more", fragment=True)
            raise fail("eliminated", expected=str(list(want)), got=str(list(got)), number=str(i + 1),
                         want=str(want[i]) if i < len(want) else none, found=str(got[i]) if i < len(got) else none)


def script_fingerprint(script: Script) -> str:
    """Returns the SHA-256 of the script's file, so that a journal resumes only the script it began with."""
    try:
        return hashlib.sha256(Path(script.path).read_bytes()).hexdigest()
    except OSError as exc:
        raise RunFailed(f"{script.path}: cannot be read ({exc.strerror or exc})") from None


def journal_header(script: Script) -> dict[str, Any]:
    """Returns what a dry run's journal says of its game: the script (by path and content)."""
    return {"kind": "dry-run", "script": str(Path(script.path).resolve()), "sha256": script_fingerprint(script)}


class PracticeNarrator(Narrator):
    """The narrator of a dry run; remembers where the running call's lines begin (to show them on resuming)."""

    def __init__(self, voice: Voice, emit: Callable[[Line], None], names: Sequence[str | None],
                 lines: list[Line], rules: Rules) -> None:
        super().__init__(voice, emit, names, rules)
        self.lines = lines
        self.call_start = 0

    def begin(self, call: Call) -> None:
        self.call_start = len(self.lines)
        super().begin(call)


def dry_run(script: Script, emit: Callable[[Line], None] | None = None, *, journal: Journal | None = None,
            replay: Sequence[Entry] = (), replay_from: str = "", pace: float = 0.0,
            sleep: Callable[[float], None] = time.sleep) -> tuple[Game, list[Line]]:
    """Plays a practice script to its end; returns the game and every line, or raises RunFailed.

    With a ``journal``, every answer is written ahead. With ``replay`` (a journal's answers), the game
    goes on from where that journal stopped: the replayed part is narrated silently, so the lines
    and the report are those of an uninterrupted run. ``pace`` waits after each line said.
    """
    voice = load_voice(script.config.language)
    lines: list[Line] = []
    live = [not replay]

    def keep(line: Line) -> None:
        lines.append(line)
        if live[0] and emit is not None:
            emit(line)
            if pace:
                sleep(pace)

    game = Game(script.config.table, script.deal)
    answers = ScriptAnswers(script, voice)
    narrator = PracticeNarrator(voice, keep, script.config.names, lines, script.config.table.rules)

    def skip(call: Call, entry: Entry) -> None:
        if entry.needs:
            expected = answers.answer(call, game)
            if expected != entry.answer:
                raise RunFailed(f"{replay_from}:{entry.line}: the journal's answer to '{call.id}' is not the "
                                "script's: the script was changed since; start the dry run again")

    def go_live(call: Call) -> None:
        live[0] = True
        if emit is not None:
            for line in lines[narrator.call_start:]:
                emit(line)

    source: Answers = Replay(replay_from, list(replay), answers, skip, go_live) if replay else answers
    record = None if journal is None else (lambda call, value: None if isinstance(source, Replay) and
                                           source.replaying else journal.record(call, value))
    run(game, narrator, source, record=record)
    answers.leftover()
    check_expectations(script, game, voice)
    return game, lines
