"""Dry runs: a practice script played through the narration loop, and the game report."""

from __future__ import annotations

import json
from typing import Any, Callable

from engine import Answer, Call, Game, IllegalAnswer
from engine.answers import shown

from .errors import RunFailed
from .narration import Line, Narrator, run
from .script import Script, ScriptAnswer
from .voices import load_voice


def _when(call: Call) -> str:
    return f"{call.phase.value} {call.number}"


def _shown(value: Answer) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return shown(value)


class ScriptAnswers:
    """Answers a game from a practice script, in order; stops the run at the first mismatch."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.next = 0
        self.last: ScriptAnswer | None = None

    def answer(self, call: Call, game: Game) -> Answer:
        if not call.needs_answer:
            return None  # calls that need no answer, and those made for the dead: confirmed by the runner
        if self.next >= len(self.script.answers):
            raise RunFailed(f"{self.script.path}: the answers ran out: the narrator made the call "
                            f"'{call.id}' ({_when(call)}) and the script has no answer left for it")
        item = self.script.answers[self.next]
        if item.call != call.id:
            raise RunFailed(f"{item.where}: answer {item.index} is for '{item.call}', but the narrator made the "
                            f"call '{call.id}' ({_when(call)}); expected an answer '- {call.id}: ...' here")
        self.next += 1
        self.last = item
        return item.value

    def refused(self, call: Call, value: Answer, error: IllegalAnswer) -> None:
        item = self.last
        where = f"{item.where}: answer {item.index}" if item else self.script.path
        raise RunFailed(f"{where} ('{call.id}: {_shown(value)}', {_when(call)}) is not allowed: {error.reason}")

    def leftover(self) -> None:
        """Stops the run if answers are left once the game is over."""
        if self.next < len(self.script.answers):
            item = self.script.answers[self.next]
            left = len(self.script.answers) - self.next
            raise RunFailed(f"{item.where}: the game is over, but {left} answer(s) are left, "
                            f"from answer {item.index} ('{item.call}')")


def report(game: Game, lines: list[Line], language: str) -> dict[str, Any]:
    """Returns the game report of spec/dry-run.md."""
    outcome = game.outcome
    assert outcome is not None
    return {
        "winner": outcome.winner,
        "winners": list(outcome.winners),
        "calls": game.report_calls(),
        "eliminated": [{"seat": e.seat, "role": e.role, "phase": e.phase.value, "number": e.number,
                        "cause": e.cause} for e in game.eliminated],
        "lines": [dict(line.as_dict(), language=language) for line in lines],
    }


def check_expectations(script: Script, game: Game) -> None:
    """Fails the run, naming the first difference, if the game ended otherwise than the script expects."""
    outcome = game.outcome
    assert outcome is not None
    if script.expect_winner is not None and outcome.winner != script.expect_winner:
        raise RunFailed(f"{script.path}: expected the winner {script.expect_winner!r}; "
                        f"the game ended with {outcome.winner!r}")
    if script.expect_eliminated is not None:
        got = tuple(e.seat for e in game.eliminated)
        want = script.expect_eliminated
        if got != want:
            i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            said = f"seat {want[i]}" if i < len(want) else "no more"
            found = f"seat {got[i]}" if i < len(got) else "no more"
            raise RunFailed(f"{script.path}: expected eliminated {list(want)}; got {list(got)} "
                            f"(elimination {i + 1}: expected {said}, got {found})")


def dry_run(script: Script, emit: Callable[[Line], None] | None = None) -> tuple[Game, list[Line]]:
    """Plays a practice script to its end; returns the game and every line, or raises RunFailed."""
    voice = load_voice(script.config.language)
    lines: list[Line] = []

    def keep(line: Line) -> None:
        lines.append(line)
        if emit is not None:
            emit(line)

    game = Game(script.config.table, script.deal)
    answers = ScriptAnswers(script)
    run(game, Narrator(voice, keep, script.config.names), answers)
    answers.leftover()
    check_expectations(script, game)
    return game, lines
