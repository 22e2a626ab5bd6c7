"""Driving games in tests: a deal from a list of cards, answers fed in order, quiet calls confirmed."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, Iterable, Sequence, TextIO

import pytest

from engine import Answer, Call, Deal, Game, IllegalAnswer, Phase, Rules, Step, Table
from keystrokes import Recorder, ScriptedKeys
from narrator.asking import AnswerDevice
from narrator.config import TableConfig
from narrator.narration import Line, Narrator, run
from narrator.play import NewGame, Resumed, Timing, play
from narrator.table import TableIO
from narrator.screen import PlainScreen, Screen
from narrator.speak import Speaker
from narrator.voices import load_voice

STARTER_TABLE = """\
language: {language}
seats: 8
deck: [werewolf, werewolf, seer, witch, hunter, cupid, villager, villager]
deal: app
sheriff: true
speaker: console
pause: [0, 0]
call_floor: 0
"""
"""The built-in starter table as a config file (``.format(language=...)``), at the console, with no waits: the
tests that play it at a terminal or through ``play``."""


OLD_HEADER = Path(__file__).resolve().parent / "journals" / "headers" / "rich_table.jsonl"
"""A journal's header in the shape journals kept their table in until it was a table config's own (config_to_dict's,
commit 4cca2fd): tests/journals/headers/rich_table.yaml, seed 7, its deal."""


def old_header() -> dict[str, Any]:
    """Returns OLD_HEADER's header, to change as a test needs."""
    header: dict[str, Any] = json.loads(OLD_HEADER.read_text(encoding="utf-8"))
    return header


def new_game(roles: Sequence[str], centre: Sequence[str] = (), *, actor_cards: Sequence[str] = (),
             seance_cards: Sequence[Sequence[str]] = (), **rules: Any) -> Game:
    """Returns a game where seat i+1 holds roles[i]; rules default to the rulebook but with no Sheriff
    (tests that need one pass sheriff=True); the Actor's cards and the séance cards' texts if given."""
    rules.setdefault("sheriff", False)
    deck = tuple(roles) + tuple(centre)
    table = Table(len(roles), deck, Rules(**rules), actor_cards=tuple(actor_cards),
                  seance_cards=tuple(tuple(c) for c in seance_cards))
    return Game(table, Deal(tuple(roles), tuple(centre)))


def confirm_quiet(game: Game) -> None:
    """Confirms every call that needs no answer (quiet calls, and calls made for the dead)."""
    while not game.over and game.call is not None and not game.call.needs_answer:
        game.answer(None)


def drive(game: Game, *answers: tuple[str, Any]) -> list[Step]:
    """Answers the game's calls in order: each (call id, value) must match the next call that needs an
    answer; quiet calls in between are confirmed. Returns the steps of the given answers."""
    steps = []
    for call_id, value in answers:
        confirm_quiet(game)
        assert game.call is not None, f"the game is over ({game.outcome}); no call for {call_id!r}"
        assert game.call.id == call_id, (f"expected the call {call_id!r}, the engine made "
                                         f"{game.call.id!r} ({game.call.phase.value} {game.call.number})")
        steps.append(game.answer(value))
    confirm_quiet(game)
    return steps


def call_ids(game: Game, phase: str | None = None, number: int | None = None) -> list[str]:
    """Returns the ids of the calls made so far, optionally of one phase and number."""
    return [c.id for c in game.calls
            if (phase is None or c.phase.value == phase) and (number is None or c.number == number)]


def eliminated(game: Game) -> list[tuple[int, str]]:
    """Returns (seat, cause) of every elimination so far, in order."""
    return [(e.seat, e.cause) for e in game.eliminated]


def refused(game: Game, value: Any) -> IllegalAnswer:
    """Returns the refusal of ``value`` by the running call, checking the game is left untouched."""
    before = (game.call, list(game.journal), len(game.calls), list(game.eliminated))
    with pytest.raises(IllegalAnswer) as info:
        game.answer(value)
    assert (game.call, list(game.journal), len(game.calls), list(game.eliminated)) == before
    return info.value


def reach(game: Game, call_id: str) -> Call:
    """Confirms the quiet calls and returns the running call, checking it is ``call_id``."""
    drive(game)
    assert game.call is not None and game.call.id == call_id, game.call
    return game.call


def made(game: Game, call_id: str, number: int, phase: Phase = Phase.NIGHT) -> Call | None:
    """Returns the call ``call_id`` made in night (or day) ``number``, or None if it was not made."""
    found = [c for c in game.calls if c.id == call_id and c.phase is phase and c.number == number]
    assert len(found) <= 1
    return found[0] if found else None


def made_once(game: Game, call_id: str, number: int, phase: Phase = Phase.NIGHT) -> Call:
    """Returns the call ``call_id`` made in night (or day) ``number``; fails unless it was made once."""
    found = made(game, call_id, number, phase)
    assert found is not None, (call_id, phase, number)
    return found


HARMLESS: dict[str, Any] = {"infected_father": False, "wolf_hound": "village",
                            "witch": {"heal": False, "poison": None}}
"""Answers that change nothing, for the calls that cannot pass."""


def play_harmlessly(game: Game, nights: int | None = None, limit: int = 2000) -> None:
    """Answers every call harmlessly (pass when allowed, else the first legal answer) until the game is
    over, or night ``nights`` is."""
    for _ in range(limit):
        call = game.call
        if call is None or (nights is not None and call.phase is Phase.NIGHT and call.number > nights):
            return
        if not call.needs_answer:
            game.answer(None)
        elif call.id in HARMLESS:
            game.answer(HARMLESS[call.id])
        elif call.optional:
            game.answer(None)
        else:
            game.answer(game.legal()[0])
    raise AssertionError("the game did not end")


class Scripted:
    """Answers from a list of (call id, answer), in order; confirms what needs no answer."""

    def __init__(self, answers: list[tuple[str, Answer]]) -> None:
        self.answers = list(answers)

    def answer(self, call: Call, game: Game) -> Answer:
        if not call.needs_answer:
            return None
        call_id, value = self.answers.pop(0)
        assert call_id == call.id, f"expected an answer for {call.id}, the script has {call_id}"
        return value

    def refused(self, call: Call, value: Answer, error: IllegalAnswer) -> None:
        raise AssertionError(f"{call.id}: {value!r} refused: {error.reason}")


def narrate(game: Game, answers: list[tuple[str, Answer]], language: str = "en") -> list[Line]:
    """Plays ``game`` to its end through the narrator in ``language``, every answer used; returns every line."""
    lines: list[Line] = []
    source = Scripted(answers)
    run(game, Narrator(load_voice(language), lines.append), source)
    assert game.over and not source.answers
    return lines


def said(game: Game, key: str) -> list[dict[str, object]]:
    """Returns the values of every fact ``key`` passed on so far, at any step (replayed from the journal)."""
    found: list[dict[str, object]] = []
    replay = Game(game.table, game.deal)
    for call in list(replay.calls):
        found += [dict(f.values) for f in call.facts if f.key == key]
    for value in game.journal:
        step = replay.answer(value)
        found += [dict(f.values) for f in step.facts if f.key == key]
        if replay.call is not None:
            found += [dict(f.values) for f in replay.call.facts if f.key == key]
    return found


class Printed(PlainScreen):
    """A plain screen that prints every line it shows, secrets, prompts and read-backs too, in order: for the
    tests that read what the narrator showed (a real plain screen never writes those to a pipe or a file)."""

    def _private(self, text: str) -> None:
        self._print(text)


def play_keys(config: TableConfig, keys: Iterable[str], *, seed: int, start: NewGame | Resumed,
              screen: Screen | None = None, speaker: Speaker | None = None, out: TextIO | None = None,
              voice_log: TextIO | None = None, devices: tuple[AnswerDevice, ...] = ()) -> Game:
    """Plays ``config`` at a table whose keypad types ``keys`` in order (a `ScriptedKeys` is used as it is: a test
    that types stray keys) and whose calls never wait; the screen is plain and the speaker a `Recorder` unless
    given, the recap goes to ``out`` or nowhere; ``devices`` answer besides the keypad. Returns the game, as
    `narrator.play.play` does; EOFError if the keys run out."""
    scripted = keys if isinstance(keys, ScriptedKeys) else ScriptedKeys(keys)
    table = TableIO(scripted, PlainScreen(io.StringIO()) if screen is None else screen,
                    Recorder() if speaker is None else speaker, devices=devices)
    return play(config, table, seed=seed, start=start, timing=Timing(sleep=lambda s: None),
                out=io.StringIO() if out is None else out, voice_log=voice_log)


class Hears:
    """A listener that hears, in order, the words given (None: silence)."""

    name = "hears"

    def __init__(self, heard: list[str | None]) -> None:
        self.heard = list(heard)

    def listen(self, phrases: Sequence[str], timeout: float) -> str | None:
        return self.heard.pop(0) if self.heard else None

    def loading(self) -> bool:
        return False

    def mute(self) -> None:
        pass

    def unmute(self, after: float = 0.4) -> None:
        pass

    def close(self) -> None:
        pass
