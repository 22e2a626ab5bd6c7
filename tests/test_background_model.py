"""The speech model loads in the background, so the first line comes at once.

The listener factory here blocks until the test releases it, standing for a model that takes
seconds to load: the game must not wait for it, the keypad answers meanwhile, its failure reaches
the table at the next call, and closing the game while it loads returns. No timed tests: the
order of events is what is checked.
"""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path
from typing import Any, Sequence

import pytest

from keystrokes import Recorder, ScriptedKeys, plan_keys
from narrator.config import TableConfig
from narrator.errors import UserError
from narrator.hearing import BackgroundListener, start_listener
from narrator.listen.audio_in import ListenerUnavailable
from narrator.play import STARTER, NewGame, Timing, play
from narrator.table import TableIO
from narrator.screen import PlainScreen
from narrator.voices import load_voice

CONFIG = TableConfig("en", STARTER.table, pause=(0.0, 0.0))  # voice by day, as the starter table


class SlowListener:
    """Stands for a vosk listener: made by the factory, which blocks until ``release`` is set."""

    name = "slow"

    def __init__(self, knows: bool = True, heard: Sequence[str | None] = ()) -> None:
        self.knows = knows
        self.heard = list(heard)
        self.events: list[str] = []
        self.closed = threading.Event()

    def known(self, word: str) -> bool:
        return self.knows

    def loading(self) -> bool:
        return False

    def listen(self, phrases: Sequence[str], timeout: float) -> str | None:
        self.events.append("listen")
        return self.heard.pop(0) if self.heard else None

    def mute(self) -> None:
        self.events.append("mute")

    def unmute(self, after: float = 0.4) -> None:
        self.events.append("unmute")

    def close(self) -> None:
        self.events.append("close")
        self.closed.set()


class Factory:
    """A listener factory that blocks until released, then makes ``listener`` (or raises ``error``)."""

    def __init__(self, listener: SlowListener | None = None, error: Exception | None = None,
                 blocked: bool = True) -> None:
        self.listener = listener or SlowListener()
        self.error = error
        self.release = threading.Event()
        if not blocked:
            self.release.set()
        self.made: dict[str, Any] = {}

    def __call__(self, path: Path, **options: Any) -> SlowListener:
        self.release.wait()
        self.made = {"path": path, **options}
        if self.error is not None:
            raise self.error
        return self.listener


def model_folder(tmp_path: Path) -> Path:
    """A folder that looks like a vosk model to model_for (the factory never reads it)."""
    folder = tmp_path / "model"
    for part in ("am", "conf", "graph"):
        (folder / part).mkdir(parents=True)
    (folder / "am" / "final.mdl").write_bytes(b"")
    (folder / "conf" / "model.conf").write_text("")
    (folder / "graph" / "HCLG.fst").write_bytes(b"")
    return folder


def start(tmp_path: Path, factory: Factory) -> tuple[BackgroundListener, Any]:
    warnings: list[str] = []
    listener, vocabulary = start_listener("en", str(model_folder(tmp_path)), None, warnings.append, factory)
    assert listener is not None and vocabulary is not None and warnings == []
    return listener, vocabulary


class WatchingSpeaker(Recorder):
    """Notes, for every line said, whether the model was still loading."""

    def __init__(self, background: BackgroundListener) -> None:
        super().__init__()
        self.background = background
        self.loading: list[bool] = []

    def say(self, text: str) -> None:
        self.loading.append(self.background.loading())
        super().say(text)


def test_the_first_line_is_said_before_the_speech_model_has_loaded(tmp_path: Path) -> None:
    factory = Factory()
    background, vocabulary = start(tmp_path, factory)
    keys, ahead = plan_keys(CONFIG, 5)
    speaker = WatchingSpeaker(background)
    out = io.StringIO()
    game = play(CONFIG,
                TableIO(ScriptedKeys(keys), PlainScreen(out), speaker, listener=background, vocabulary=vocabulary),
                seed=5, start=NewGame(folder=tmp_path / "j"), timing=Timing(sleep=lambda s: None),
                out=io.StringIO())
    assert speaker.loading and speaker.loading[0] is True  # the deal began while the model loaded
    # The keypad answered every call while the model loaded: the same game as the same keys alone.
    assert game.outcome == ahead.outcome and game.eliminated == ahead.eliminated
    factory.release.set()
    assert background.wait()


def test_the_table_is_told_once_on_the_screen_that_the_model_still_loads(tmp_path: Path) -> None:
    factory = Factory()
    background, vocabulary = start(tmp_path, factory)
    keys, _ = plan_keys(CONFIG, 5)
    out = io.StringIO()
    speaker = Recorder()
    play(CONFIG, TableIO(ScriptedKeys(keys), PlainScreen(out), speaker, listener=background, vocabulary=vocabulary),
         seed=5, start=NewGame(folder=tmp_path / "j"), timing=Timing(sleep=lambda s: None), out=io.StringIO())
    notice = load_voice("en").text("voice.loading", {})
    assert out.getvalue().count(notice) == 1
    assert notice not in speaker.said  # on the screen only
    factory.release.set()


def test_closing_the_game_while_the_model_loads_returns_and_the_late_listener_is_closed(tmp_path: Path) -> None:
    factory = Factory()
    background, _ = start(tmp_path, factory)
    background.close()  # returns although the load is under way
    assert background.loading()
    factory.release.set()
    assert background.wait()
    assert factory.listener.closed.wait(30)  # the thread closes what it loaded for a closed game
    assert background.failure is None


def test_a_listen_waiting_for_the_model_ends_when_the_narrator_speaks(tmp_path: Path) -> None:
    factory = Factory()
    background, _ = start(tmp_path, factory)
    heard: list[str | None] = []
    waiting = threading.Thread(target=lambda: heard.append(background.listen(["five"], 8.0)))
    waiting.start()
    while waiting.is_alive():
        background.mute()  # as the narrator does before each line; the listen may not have begun yet
        waiting.join(0.01)
    assert heard == [None]
    factory.release.set()
    background.close()


def test_once_loaded_the_model_hears_the_answers_after_the_echo_dies_down(tmp_path: Path) -> None:
    listener = SlowListener(heard=["five"])
    factory = Factory(listener, blocked=False)
    background, _ = start(tmp_path, factory)
    assert background.wait()
    background.unmute(0.4)  # a line ended just before the model was ready
    assert background.listen(["five"], 8.0) == "five"
    # Muted as it was loaded (it may have started mid-line), unmuted before it listens.
    assert listener.events[:3] == ["mute", "unmute", "listen"]
    assert factory.made["path"].name == "model" and factory.made["language"] == "en"
    background.close()
    assert listener.events[-1] == "close"


def test_a_model_that_fails_to_load_leaves_the_game_to_the_keypad_with_the_warning(tmp_path: Path) -> None:
    factory = Factory(error=ListenerUnavailable("no microphone found"), blocked=False)
    background, vocabulary = start(tmp_path, factory)
    assert background.wait()
    keys, ahead = plan_keys(CONFIG, 7)
    out = io.StringIO()
    game = play(CONFIG,
                TableIO(ScriptedKeys(keys), PlainScreen(out), Recorder(), listener=background, vocabulary=vocabulary),
                seed=7, start=NewGame(folder=tmp_path / "j"), timing=Timing(sleep=lambda s: None),
                out=io.StringIO())
    assert out.getvalue().count("no microphone found; play goes on with the keypad") == 1
    assert game.outcome == ahead.outcome


def test_a_crash_while_loading_is_a_warning_never_a_traceback(tmp_path: Path) -> None:
    factory = Factory(error=RuntimeError("kaldi fell over"), blocked=False)
    background, _ = start(tmp_path, factory)
    assert background.wait()
    failure = background.failure
    assert failure is not None and not failure.fatal
    assert "kaldi fell over" in str(failure) and "keypad" in str(failure)
    with pytest.raises(UserError, match="kaldi fell over"):
        background.listen(["five"], 8.0)


def test_a_vocabulary_the_model_cannot_hear_stops_the_game_loudly_with_its_journal_kept(tmp_path: Path) -> None:
    factory = Factory(SlowListener(knows=False), blocked=False)
    background, vocabulary = start(tmp_path, factory)
    assert background.wait()
    assert factory.listener.closed.is_set()  # the check failed: the listener it checked is let go
    keys, _ = plan_keys(CONFIG, 7)
    with pytest.raises(UserError, match="cannot hear") as stopped:
        play(CONFIG, TableIO(ScriptedKeys(keys), PlainScreen(io.StringIO()), Recorder(), listener=background,
                             vocabulary=vocabulary),
             seed=7, start=NewGame(folder=tmp_path / "j"), timing=Timing(sleep=lambda s: None), out=io.StringIO())
    journals = list((tmp_path / "j").glob("*.jsonl"))
    assert len(journals) == 1 and f"werewolf-narrator resume {journals[0]}" in str(stopped.value)
    assert json.loads(journals[0].read_text().splitlines()[0])["kind"] == "play"


def test_an_announcement_is_not_listened_for_as_the_keypad_asks_nothing_for_it() -> None:
    """Dawn asks the keypad nothing: the voice must not wait for a "done" there either."""
    from engine import Game, Rules, Table, deal_cards
    from narrator.hearing import PushbackKeys, VoiceAnswers
    from narrator.listen.understand import load_vocabulary

    table = Table(6, ("werewolf", "werewolf", "seer", "villager", "villager", "villager"), Rules(sheriff=False))
    game = Game(table, deal_cards(table, 1))
    while game.call is not None and game.call.id != "dawn":
        game.answer(game.legal()[0] if game.call.needs_answer else None)
    assert game.call is not None and game.call.live
    voice = load_voice("en")
    answers = VoiceAnswers(SlowListener(), load_vocabulary("en"), PushbackKeys(ScriptedKeys([])),
                           say=lambda key, values: None, repeat=lambda: None, seat_words=voice.seat,
                           word=lambda w: w)
    assert answers.allowed(game.call) is None
