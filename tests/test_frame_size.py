"""The phones' frames are of one size for a table, chosen before its game from its seats and language
(narrator/phones/sizes.py) for names as long as MAX_NAME allows: every view the phones are shown in many games of
every example table and of the largest tables, every name of 24 of the widest characters, fits it; a view that
would not is an internal error, never a bigger frame. Names longer than MAX_NAME are refused with their line."""

from __future__ import annotations

import json
import queue
import random
import subprocess
import sys
from pathlib import Path
from typing import Callable, Sequence

import pytest

from engine import MAX_SEATS, Game, Rules, Table, deal_cards, votes
from keystrokes import ScriptedKeys, legal_in
from narrator.config import TableConfig, config_from_journal, journal_table, load_config
from narrator.errors import UserError
from narrator.hearing import PushbackKeys
from narrator.names import MAX_NAME
from narrator.phones import views
from narrator.phones.device import BALLOTS, PhoneAnswers
from narrator.phones.sizes import WIDEST, frame_size
from narrator.script import load_script
from narrator.voices import load_voice
from test_supervise import refused_by_check_and_play

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.yaml"))

LARGEST_DECK = ("thief", "werewolf", "werewolf", "werewolf", "werewolf", "werewolf", "white_werewolf", "big_bad_wolf",
                "infected_father", "seer", "witch", "cupid", "guard", "fox", "piper", "sister", "sister", "brother",
                "brother", "brother", "hunter", "little_girl", "elder", "idiot", "scapegoat", "wild_child",
                "wolf_hound", "raven", "bear_tamer", "knight", "stuttering_judge", "devoted_servant",
                "villager_villager", "angel", *["villager"] * 15)
"""A table of MAX_SEATS with most characters (the Thief's two centre cards on top): the pack, the sisters, the
brothers and the charmed are shown lists of seats; the Witch and Cupid are asked every seat in steps."""


class Recorded:
    """The phones' server as the device sees it, every phone connected: keeps every view it is told to show (made
    with the largest call number), and casts every ballot asked (nobody)."""

    def __init__(self, seats: int) -> None:
        self.seats = frozenset(range(1, seats + 1))
        self.answers: queue.Queue[tuple[int, object]] = queue.Queue()
        self.shown: list[dict[str, object]] = []

    def connected(self) -> frozenset[int]:
        return self.seats

    def reachable(self) -> frozenset[int]:
        return self.seats

    def wake(self, seats: Sequence[int], prompt: str, choices: Sequence[tuple[object, str]],
             shown: Sequence[str] = ()) -> dict[int, int]:
        raise AssertionError("the device asks with ask")

    def ask(self, asked: dict[int, tuple[Callable[[int], dict[str, object]], Sequence[object]]]) -> dict[int, int]:
        for seat, (make, values) in asked.items():
            self.shown.append(make(views.LARGEST))
            self.answers.put((seat, None if None in values else values[0]))  # a ballot: nobody, or the first
        return {seat: views.LARGEST for seat in asked}

    def result(self, seats: Sequence[int], title: str, text: str = "", shown: Sequence[str] = (),
               ok: bool = False) -> dict[int, int]:
        self.shown.append(views.told(title, text, shown, views.LARGEST if ok else 0))
        return {seat: views.LARGEST for seat in seats}

    def sleep(self) -> None:
        pass


def widest_names(seats: int) -> list[str]:
    """Names as long as allowed, in the widest characters (four bytes each), each its own."""
    return [WIDEST * (MAX_NAME - 2) + chr(0x1F600 + seat // 40) + chr(0x1F600 + seat % 40) for seat in range(seats)]


def every_view(table: Table, language: str, seed: int) -> list[dict[str, object]]:
    """Plays a game of ``table`` with random legal answers; returns every view its phones were shown: each call's
    question (and asked again after a refusal), what it shows the awake, the keypad taking it over, its result, the
    ballots; and each seat's dark page with its card."""
    voice = load_voice(language)
    names = widest_names(table.seats)
    phones = Recorded(table.seats)
    device = PhoneAnswers(phones, PushbackKeys(ScriptedKeys([])), voice, names)
    game = Game(table, deal_cards(table, seed))
    rng = random.Random(seed)
    legal = legal_in(game)
    while not game.over:
        call = game.call
        assert call is not None
        device.opened(call, legal)
        if device.form is not None:
            device.refused = True  # the question asked again, after the engine refused an answer typed
            phones.shown.append(device.form.view(views.LARGEST, device.prompt(call), device.secret(call.facts)))
            phones.shown.append(views.told(device.prompt(call), device.text("phone.keypad"),
                                           device.secret(call.facts)))
            device.refused = False
        if call.live and call.kind in BALLOTS:
            device.ballots(call, votes.voters(game), legal)
        value = rng.choice(game.legal()) if call.needs_answer else None
        device.answered(call, game.answer(value))
    phones.shown += [views.sleeping(voice.role(role)) for role in set(table.deck)]
    return phones.shown


def largest(table: Table, language: str, seeds: range) -> tuple[int, set[str]]:
    """Returns the bytes of the longest view of games of ``table`` (with the largest version), and the kinds of
    view seen."""
    shown = [view for seed in seeds for view in every_view(table, language, seed)]
    kinds = {f"{view['kind']}{'+steps' if 'steps' in view else ''}" for view in shown}
    return max(len(views.encode(view, views.LARGEST).encode()) for view in shown), kinds


@pytest.mark.parametrize("example", EXAMPLES, ids=[path.stem for path in EXAMPLES])
def test_every_view_of_games_at_every_example_table_fits_its_frames(example: Path) -> None:
    config = load_script(str(example))[0].config if example.stem.startswith("practice") else \
        load_config(str(example))[0]
    size = frame_size(config.table.seats, load_voice(config.language))
    longest, kinds = largest(config.table, config.language, range(3))
    assert longest <= size, (example.name, longest, size)
    print(f"{example.stem}: {config.table.seats} seats, frames of {size} bytes, the longest view built {longest}")
    assert {"ask", "told"} <= kinds


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_every_view_of_games_at_the_largest_table_fits_its_frames(language: str) -> None:
    """MAX_SEATS players with names of MAX_NAME four-byte characters: the Witch's every seat to poison, Cupid's
    every seat twice, the pack's list of itself, the sisters' and the brothers', the charmed's."""
    table = Table(MAX_SEATS, LARGEST_DECK, Rules())
    size = frame_size(MAX_SEATS, load_voice(language))
    longest, kinds = largest(table, language, range(4))
    assert longest <= size, (longest, size)
    assert {"ask", "ask+steps", "told"} <= kinds
    assert longest > size // 4  # the bound is the largest view's, not a size picked at random
    print(f"{language}: {MAX_SEATS} seats, frames of {size} bytes, the longest view built {longest}")


def test_a_frame_is_the_tables_size_whatever_its_game_and_a_view_too_long_for_it_is_an_internal_error() -> None:
    """The size comes from the seats and the language alone (the names' bound, not the names), and a view that
    does not fit is refused in the game's thread (views.TooLong), never sent in a bigger frame."""
    pytest.importorskip("websockets", reason="the [phones] extra (scripts/setup.sh installs it)")
    from narrator.phones.server import PhoneServer

    voice = load_voice("en")
    texts = {key: text for key, text in voice.lines.items() if key.startswith("phone.")}
    server = PhoneServer(8, texts, bind="127.0.0.1").start()
    try:
        assert server.frame == frame_size(8, voice) < frame_size(9, voice)
        server.wake([1], "Choose", [(2, "Seat 2")])
        with pytest.raises(views.TooLong):
            server.wake([1], "x" * server.frame, [(2, "Seat 2")])
    finally:
        server.stop()
    assert views.frames({1: views.sleeping()}, {1: 1}, 512)[1].encode().__len__() == 512
    with pytest.raises(views.TooLong):
        views.frames({1: views.sleeping("x" * 600)}, {1: 1}, 512)


TABLE = "language: en\nseats:\n{names}deck: [werewolf, seer, witch, villager, villager, villager]\n"


def table_with(name: str) -> str:
    """A table whose fourth seat (line 6) has ``name``."""
    names = ["Ann", "Bob", "Cy", name, "Eve", "Fay"]
    return TABLE.format(names="".join(f"  - {json.dumps(n, ensure_ascii=False)}\n" for n in names))


@pytest.mark.parametrize("name", ["Marie-Christine-Éléonore!", "李" * 25, "😀" * 25, "x" * 10_000])
def test_a_player_name_longer_than_max_name_is_refused_by_check_and_play_with_its_line(
        tmp_path: Path, name: str) -> None:
    """25 characters or more, in any script: `check` and `play` name the file, the line, the seat and the bound."""
    assert len(name) > MAX_NAME == 24
    (tmp_path / "table.yaml").write_text(table_with(name), encoding="utf-8")
    for refusal in refused_by_check_and_play(tmp_path):
        assert "table.yaml:6: seats: seat 4's name " in refusal
        assert f"is {len(name)} characters long; a name holds at most 24" in refusal
        assert len(refusal) < 1000  # the name is cut short


def test_a_name_of_max_name_characters_is_a_name_like_any_other(tmp_path: Path) -> None:
    (tmp_path / "table.yaml").write_text(table_with("Marie-Christine-Éléonore"), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "narrator", "check", "--no-simulate", "table.yaml"],
                            capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 0, result.stderr


def test_a_resumed_journals_table_with_a_name_too_long_is_refused_as_damaged() -> None:
    """A journal is a file like any other: its table goes through the same reader, the bound included."""
    config = TableConfig("en", Table(6, ("werewolf", "seer", "witch", "villager", "villager", "villager")),
                         names=("Ann", "Bob", "Cy", "Dee", "Eve", "Fay"))
    header = journal_table(config)
    assert config_from_journal(header, "game.jsonl").names == config.names
    header["config"]["seats"][3] = "D" * 25
    with pytest.raises(UserError, match=r"(?s)damaged.*seat 4's name .* is 25 characters long; a name holds at most 24"):
        config_from_journal(header, "game.jsonl")
