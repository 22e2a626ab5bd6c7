"""Spoken answers at the table, with a listener that hears what the test says (the vosk backend has
its own tests with a real model): read-back and confirmation, silence, the keypad taking over,
turn-taking, and a microphone lost mid-game."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Sequence

import pytest

from engine import Call, Game, Kind, Rules, Table, deal_cards
from keystrokes import Recorder, ScriptedKeys, plan_keys
from narrator.asking import KEYPAD
from narrator.config import TableConfig
from narrator.hearing import PushbackKeys, VoiceAnswers
from narrator.listen.errors import MicrophoneLost
from narrator.listen.understand import load_vocabulary
from narrator.play import STARTER, NewGame, Timing, play
from narrator.table import TableIO
from narrator.screen import PlainScreen
from narrator.voices import load_voice


class FakeListener:
    """Hears, in order, what the test gives it; None is silence. Records its grammars and muting."""

    name = "fake"

    def __init__(self, heard: Sequence[str | None | Exception]) -> None:
        self.heard = list(heard)
        self.grammars: list[list[str]] = []
        self.events: list[str] = []

    def listen(self, phrases: Sequence[str], timeout: float) -> str | None:
        self.grammars.append(list(phrases))
        self.events.append("listen")
        if not self.heard:
            return None
        item = self.heard.pop(0)
        if isinstance(item, Exception):
            raise item
        return item

    def loading(self) -> bool:
        return False

    def mute(self) -> None:
        self.events.append("mute")

    def unmute(self, after: float = 0.4) -> None:
        self.events.append(f"unmute {after}")

    def close(self) -> None:
        self.events.append("close")


def vote_call() -> tuple[Game, object]:
    table = Table(6, ("werewolf", "werewolf", "seer", "villager", "villager", "villager"), Rules(sheriff=False))
    game = Game(table, deal_cards(table, 1))
    while game.call is not None and game.call.id != "vote":
        game.answer(game.legal()[0] if game.call.needs_answer else None)
    return game, game.call


def voice_answers(heard: Sequence[str | None | Exception], keys: Sequence[str] = ()) -> tuple[VoiceAnswers, list[str]]:
    said: list[str] = []
    voice = load_voice("en")
    answers = VoiceAnswers(FakeListener(heard), load_vocabulary("en"), PushbackKeys(ScriptedKeys(keys)),
                           say=lambda key, values: said.append(voice.text(key, values)), repeat=lambda: None,
                           seat_words=lambda seat: voice.seat(seat), word=lambda w: voice.text(f"answer.{w}", {}),
                           card_words=lambda number: voice.text("answer.card", {"number": number}))
    return answers, said


def test_a_spoken_seat_is_read_back_and_confirmed_aloud() -> None:
    """Every heard answer is read back and confirmed: "seven" → "Seat number seven?" → "yes"."""
    _, call = vote_call()
    answers, said = voice_answers(["number five", "yes"])
    assert answers.answer(call) == 5  # type: ignore[arg-type]
    assert said == ["Seat number five?"]


@pytest.mark.parametrize(("kind", "optional", "heard", "expected", "read_back"), [
    (Kind.SEAT, False, ["five", "yes"], 5, ["Seat number five?"]),
    (Kind.SEAT, True, ["nobody", "yes"], None, ["Nobody?"]),
    (Kind.VOTE, False, ["six", "yes"], 6, ["Seat number six?"]),
    (Kind.ELECTION, False, ["two", "yes"], 2, ["Seat number two?"]),
    (Kind.NUMBER, True, ["twelve", "yes"], 12, ["Card twelve?"]),
    (Kind.NUMBER, True, ["nobody", "yes"], None, ["Nobody?"]),
    (Kind.YES_NO, False, ["yes", "yes"], True, ["Yes?"]),
    (Kind.YES_NO, False, ["no", "yes"], False, ["No?"]),
    (Kind.NONE, False, ["done"], None, []),
])
def test_each_kind_a_voice_answers_makes_its_answer_of_the_words_and_reads_it_back_its_way(
        kind: Kind, optional: bool, heard: list[str], expected: object, read_back: list[str]) -> None:
    """The call's shape says what the words heard answer: a seat read back as a seat, a card's number as a card
    (the Town Crier's), yes or no as the word, "nobody" as nobody; "done" is taken as said, nothing read back."""
    _, vote = vote_call()
    assert isinstance(vote, Call)
    call = vote._replace(kind=kind, optional=optional, picks=20 if kind is Kind.NUMBER else vote.picks)
    answers, said = voice_answers(heard)
    assert answers.answer(call) == expected and said == read_back


def test_the_grammar_holds_only_what_can_answer_the_running_call() -> None:
    """The grammar of a vote holds the living seats, nobody, undo and repeat — nothing else."""
    game, call = vote_call()
    answers, _ = voice_answers(["five", "yes"])
    answers.answer(call)  # type: ignore[arg-type]
    grammar = answers.listener.grammars[0]  # type: ignore[attr-defined]
    dead = [s for s in range(1, 7) if not game.alive(s)]
    assert "five" in grammar and "nobody" in grammar
    assert all(load_voice("en").numbers[s] not in grammar for s in dead)
    assert not any("forty" in p for p in grammar)


def test_no_at_the_read_back_asks_again() -> None:
    """A read-back answered "no" is asked again."""
    _, call = vote_call()
    answers, said = voice_answers(["five", "no", "six", "yes"])
    assert answers.answer(call) == 6  # type: ignore[arg-type]
    assert said == ["Seat number five?", "Seat number six?"]


def test_silence_asks_again_once_then_leaves_it_to_the_keypad() -> None:
    """Silence re-asks once, then falls back to the keypad."""
    _, call = vote_call()
    answers, said = voice_answers([None, None])
    assert answers.answer(call) is KEYPAD  # type: ignore[arg-type]
    assert said == [load_voice("en").text("voice.again", {}), load_voice("en").text("voice.keypad", {})]


def test_chatter_is_not_taken_for_an_answer() -> None:
    """A result with a distractor or [unk] is discarded and the answer asked again."""
    _, call = vote_call()
    answers, said = voice_answers(["um i think five", "[unk]", ])
    assert answers.answer(call) is KEYPAD  # type: ignore[arg-type]
    assert "Seat number five?" not in said


def test_a_key_pressed_while_listening_lets_the_keypad_answer() -> None:
    """Voice and keypad are live together; the first valid answer wins."""
    _, call = vote_call()

    class Slow(FakeListener):
        def listen(self, phrases: Sequence[str], timeout: float) -> str | None:
            import time
            time.sleep(0.3)
            return None

    voice = load_voice("en")
    keys = PushbackKeys(ScriptedKeys(["5"]))
    answers = VoiceAnswers(Slow([]), load_vocabulary("en"), keys, say=lambda k, v: None, repeat=lambda: None,
                           seat_words=voice.seat, word=lambda w: w)
    assert answers.answer(call) is KEYPAD  # type: ignore[arg-type]
    assert keys.read() == "5"  # the key that won is the keypad's first


def test_enter_confirms_a_spoken_answer() -> None:
    """A spoken seat may be confirmed on the keypad: Enter at the read-back."""
    _, call = vote_call()

    class ThenSilent(FakeListener):
        def listen(self, phrases: Sequence[str], timeout: float) -> str | None:
            if self.heard:
                return super().listen(phrases, timeout)
            import time
            time.sleep(0.3)
            return None

    voice = load_voice("en")
    keys = PushbackKeys(ScriptedKeys(["enter"]))
    answers = VoiceAnswers(ThenSilent(["five"]), load_vocabulary("en"), keys, say=lambda k, v: None,
                           repeat=lambda: None, seat_words=voice.seat, word=lambda w: w)
    assert answers.answer(call) == 5  # type: ignore[arg-type]


def test_the_microphone_is_muted_while_the_narrator_speaks(tmp_path: Path) -> None:
    """The microphone is ignored while the narrator speaks and 0.3–0.5 s after."""
    config = TableConfig("en", STARTER.table, pause=(0.0, 0.0))
    keys, ahead = plan_keys(config, 4)
    listener = FakeListener([])
    play(config, TableIO(ScriptedKeys(keys), PlainScreen(io.StringIO()), Recorder(), listener=listener,
                         vocabulary=load_vocabulary("en")),
         seed=4, start=NewGame(folder=tmp_path), timing=Timing(sleep=lambda s: None), out=io.StringIO())
    events = listener.events
    assert events.count("mute") == events.count("unmute 0.4") > 10
    for i, event in enumerate(events):
        if event == "mute":
            assert events[i + 1] == "unmute 0.4"  # never listening in between
    assert events[-1] == "close"


def test_a_microphone_lost_mid_game_leaves_the_game_to_the_keypad(tmp_path: Path) -> None:
    """A microphone lost mid-game falls back to the keypad with a spoken notice."""
    config = TableConfig("en", STARTER.table, pause=(0.0, 0.0))
    keys, ahead = plan_keys(config, 6)
    listener = FakeListener([MicrophoneLost("the microphone stopped")])
    speaker = Recorder()
    game = play(config, TableIO(ScriptedKeys(keys), PlainScreen(io.StringIO()), speaker, listener=listener,
                                vocabulary=load_vocabulary("en")),
                seed=6, start=NewGame(folder=tmp_path), timing=Timing(sleep=lambda s: None), out=io.StringIO())
    assert game.outcome == ahead.outcome
    assert load_voice("en").text("voice.mic_lost", {}) in speaker.said
    assert listener.events.count("listen") == 1
