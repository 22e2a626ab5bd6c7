"""A new device plugs in without touching the game's loop: a stand-in for a player's phone that answers one kind of
call (the Seer's look) is handed to the game with the table's devices (TableIO.devices); the game asks it first for
the calls it takes, the keypad answers the others, and its answers are checked, journaled and replayed as the
keypad's are."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable

from engine import Answer, Call, Game, deal_cards
from helpers import play_keys
from keystrokes import after, keys_for
from narrator.asking import KEYPAD, QuietDevice
from narrator.config import TableConfig
from narrator.journal import read_journal
from narrator.play import STARTER, NewGame
from narrator.voices import load_voice

SEED = 11


class SeerPhone(QuietDevice):
    """The Seer's phone: takes her calls only, and names the first seat it may (or one the engine refuses, once)."""

    def __init__(self, refuse_first: bool = False) -> None:
        self.asked: list[int] = []
        self.opened_calls: list[str] = []  # every call as it opened, whoever answered it
        self.refuse_first = refuse_first

    def opened(self, call: Call, legal: Callable[[Answer], bool]) -> None:
        self.opened_calls.append(call.id)

    def takes(self, call: Call) -> bool:
        return call.id == "seer" and call.live

    def answer(self, call: Call, legal: Callable[[Answer], bool]) -> Answer | object:
        self.asked.append(call.number)
        if self.refuse_first and len(self.asked) == 1:
            return 99  # not a seat: handed to the engine unread, which refuses it; asked again
        return next(seat for seat in call.seats if legal(seat))


def keypad_keys(config: TableConfig, seed: int, phone: SeerPhone) -> tuple[list[str], Game]:
    """Every key the table presses when the phone answers the Seer: the same game planned ahead, the Seer's
    answers left out of the keys."""
    game = Game(config.table, deal_cards(config.table, seed))
    keys = ["enter"] * 3 * config.table.seats
    rng = random.Random(seed)
    while not game.over:
        call = game.call
        assert call is not None
        if phone.takes(call):
            value: Answer = next(seat for seat in call.seats if seat in game.legal())
        else:
            value = rng.choice(game.legal()) if call.needs_answer else None
            keys += keys_for(call, value)
        keys += after(game.answer(value))
    return keys, game


def test_a_device_that_answers_the_seers_calls_plugs_in_with_the_tables_devices(tmp_path: Path) -> None:
    config = STARTER
    planned, ahead = keypad_keys(config, SEED, SeerPhone())
    phone = SeerPhone()
    game = play_keys(config, planned, seed=SEED, start=NewGame(tmp_path), devices=(phone,))
    assert phone.asked and phone.asked == sorted(set(phone.asked))  # asked once a night while she lives
    # Told of every call as it opened, the ones the keypad answered too (each once: a refusal is no new call).
    assert phone.opened_calls == [call.id for call in game.calls], phone.opened_calls
    assert game.outcome == ahead.outcome and game.eliminated == ahead.eliminated
    _, entries = read_journal(str(next(tmp_path.glob("game-*.jsonl"))))
    seer = [e for e in entries if e.call == "seer"]
    assert [e.answer for e in seer if e.needs] == [answer for call, answer in zip(ahead.calls, ahead.journal)
                                                   if call.id == "seer" and call.live]


def test_an_answer_the_engine_refuses_is_asked_of_the_device_again(tmp_path: Path) -> None:
    planned, ahead = keypad_keys(STARTER, SEED, SeerPhone())
    phone = SeerPhone(refuse_first=True)
    game = play_keys(STARTER, planned, seed=SEED, start=NewGame(tmp_path), devices=(phone,))
    assert phone.asked[:2] == [1, 1] and game.outcome == ahead.outcome


def test_a_device_that_leaves_a_call_to_the_keypad_changes_nothing(tmp_path: Path) -> None:
    class Declining(SeerPhone):
        def answer(self, call: Call, legal: Callable[[Answer], bool]) -> Answer | object:
            self.asked.append(call.number)
            return KEYPAD

    config = TableConfig("en", STARTER.table)
    from keystrokes import plan_keys

    keys, ahead = plan_keys(config, SEED)
    declining = Declining()
    game = play_keys(config, keys, seed=SEED, start=NewGame(tmp_path), devices=(declining,))
    assert declining.asked and game.outcome == ahead.outcome and game.eliminated == ahead.eliminated


def test_a_night_call_a_device_holds_shows_the_keypads_question_on_the_host_screen(tmp_path: Path) -> None:
    """Fair play at a glance: while the Seer's phone holds her call, the host's screen shows the question and the
    keys line the keypad shows when it holds the call (or when she is out and her call is made for nobody), never
    an empty panel that would tell that she lives and holds a phone."""
    import io

    from narrator.screen import PlainScreen

    class Footed(PlainScreen):  # a plain screen prints no keys line: this one keeps it, as the full screen shows it
        def keys(self, text: str) -> None:
            self.state.keys = text

    screen = Footed(io.StringIO())
    seen: list[tuple[str, str]] = []

    class Watching(SeerPhone):
        def answer(self, call: Call, legal: Callable[[Answer], bool]) -> Answer | object:
            seen.append((screen.state.prompt, screen.state.keys))
            return super().answer(call, legal)

    planned, ahead = keypad_keys(STARTER, SEED, SeerPhone())
    play_keys(STARTER, planned, seed=SEED, start=NewGame(tmp_path), screen=screen, devices=(Watching(),))
    voice = load_voice("en")
    keypad = (voice.text("prompt.seat_or_none", {}), voice.text("screen.keys_number", {}))
    assert seen and all(shown == keypad for shown in seen), (seen, keypad)
