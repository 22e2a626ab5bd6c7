"""The pieces of a game at the table, one at a time (issue 15): the narrator as its constructor builds it, the
session that wires it to the keypad, the journal begun, the deal gone on with, the replay, the recap."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Sequence

import pytest

from engine import Deal, Rules, deal_cards
from engine.strategy import play as simulated
from keystrokes import Recorder, ScriptedKeys
from narrator.config import TableConfig
from narrator.errors import UserError
from narrator.hearing import BackgroundListener, PushbackKeys, VocabularyUnheard
from narrator.journal import Entry, Journal, journal_name, read_journal
from narrator.listen import Listener
from narrator.listen.understand import load_vocabulary
from narrator.narration import VOICE
from narrator.pacing import Pacing
from narrator.play import STARTER, NewGame, Resumed, TableSession, Timing, begin_journal, deal_at_table, play, replayed, show_recap
from narrator.table import QuietAmbience, QuietSpeaker, TableIO
from narrator.table_narrator import TableHooks, TableNarrator, TableSettings
from narrator.recap import build_recap, markdown
from narrator.replay import Replay
from narrator.screen import PlainScreen
from narrator.voices import load_voice

EN = load_voice("en")
APP = TableConfig("en", STARTER.table, pause=(0.0, 0.0))  # deal: app, voice by day, no last words
CARDS = TableConfig("en", STARTER.table, pause=(0.0, 0.0), deal="cards")
SEED = 4


class Events:
    """An ambience and a listener at once: notes what the narrator asks of them."""

    name = "events"

    def __init__(self) -> None:
        self.events: list[str] = []

    def start(self) -> None:
        self.events.append("start")

    def stop(self) -> None:
        self.events.append("stop")

    def duck(self) -> None:
        self.events.append("duck")

    def unduck(self) -> None:
        self.events.append("unduck")

    def mute(self) -> None:
        self.events.append("mute")

    def unmute(self, after: float = 0.4) -> None:
        self.events.append("unmute")

    def listen(self, phrases: Sequence[str], timeout: float) -> str | None:
        return None

    def known(self, word: str) -> bool:
        return True

    def loading(self) -> bool:
        return False

    def close(self) -> None:
        self.events.append("close")


def session(config: TableConfig = APP, keys: Sequence[str] = (), listener: Listener | None = None,
            out: io.StringIO | None = None, speaker: Recorder | None = None, terminal: bool = False) -> TableSession:
    vocabulary = load_vocabulary("en") if listener is not None else None
    screen = PlainScreen(out or io.StringIO(), terminal=terminal)
    table = TableIO(ScriptedKeys(list(keys)), screen, speaker or Recorder(), listener=listener, vocabulary=vocabulary)
    return TableSession(config, table, SEED)


def test_the_table_narrator_is_whole_once_built() -> None:
    """What play used to attach after construction is the constructor's: the rules, the table's size, the voice
    log, the ambience, the pacing, the listener and the keypad's hooks."""
    log, devices, pacing, rules = io.StringIO(), Events(), Pacing(), Rules(sheriff=False)
    acknowledged: list[str] = []
    narrator = TableNarrator(EN, PlainScreen(io.StringIO()), Recorder(), ("Ann", "Bob"),
                             TableSettings(rules=rules, seats=9, voice_log=log, ambience=devices, pacing=pacing,
                                           listener=devices),
                             TableHooks(acknowledge=lambda: acknowledged.append("enter")))
    assert (narrator.rules, narrator.seats, narrator.pacing) == (rules, 9, pacing)
    narrator.line("notice.close_eyes", VOICE)
    assert devices.events == ["start", "duck", "mute", "unmute", "unduck"]  # under the line, the microphone deaf
    assert json.loads(log.getvalue())["key"] == "notice.close_eyes"
    assert narrator.acknowledge is not None and narrator.last_words is None
    narrator.acknowledge()
    assert acknowledged == ["enter"]


def test_a_table_narrator_built_with_nothing_more_is_quiet_and_as_large_as_its_names() -> None:
    narrator = TableNarrator(EN, PlainScreen(io.StringIO()), Recorder(), ("Ann", "Bob", None))
    assert narrator.seats == 3 and narrator.listener is None and narrator.voice_log is None
    assert isinstance(narrator.ambience, QuietAmbience) and narrator.acknowledge is None
    assert narrator.rules == Rules()


def test_the_session_shares_the_pacing_and_gives_last_words_only_to_a_table_that_wants_them() -> None:
    table = session()
    assert table.narrator.pacing is table.answers.pacing
    assert table.narrator.seats == APP.table.seats and table.narrator.last_words is None
    assert not isinstance(table.keys, PushbackKeys) and table.narrator.listener is None
    assert table.spoken is None and table.answers.devices == ()
    assert session(TableConfig("en", STARTER.table, last_words=30)).narrator.last_words is not None


def test_with_a_microphone_the_session_hears_the_phases_given_voice_and_the_keypad_stays_live() -> None:
    listener = Events()
    table = session(listener=listener)
    assert isinstance(table.keys, PushbackKeys) and table.narrator.listener is listener
    assert table.spoken is not None and table.answers.devices == (table.spoken,)
    assert table.spoken.voice is not None and table.spoken.phases == frozenset({"day"})
    keypad_only = (("day", ("keypad",)), ("night", ("keypad",)))
    silent = session(TableConfig("en", STARTER.table, inputs=keypad_only), listener=Events())
    assert silent.narrator.listener is None and silent.spoken is None and silent.answers.devices == ()


def test_the_host_menu_shows_a_card_only_once_one_is_known() -> None:
    """Before the deal, no card to show; while the program deals, the card drawn (before the game, as it has it)."""
    out = io.StringIO()
    table = session(keys=["enter", "enter"], out=out, terminal=True)  # a terminal: the secrets shown
    assert table.card_again(1) is False
    assert table.public_state() == "" and table.last_answered() is None  # no game yet
    table.deal = deal_cards(APP.table, SEED)
    assert table.card_again(9) is False  # no such seat
    assert table.card_again(2) is True
    assert EN.text("deal.app_show", {"role": table.deal.roles[1]}) in out.getvalue()


def failed(error: Exception) -> BackgroundListener:
    def load() -> Listener:
        raise error

    background = BackgroundListener(load)
    assert background.wait(5)
    return background


def test_a_model_that_failed_is_told_once_and_leaves_the_game_to_the_keypad() -> None:
    out = io.StringIO()
    table = session(listener=failed(UserError("no microphone found")), out=out)
    assert table.spoken is not None and table.spoken.voice is not None
    table.settle()
    table.settle()
    assert out.getvalue().count("no microphone found; play goes on with the keypad") == 1
    assert table.narrator.listener is None and table.spoken.voice is None  # the keypad answers the rest


def test_a_model_that_cannot_hear_stops_the_game_and_says_how_to_go_on(tmp_path: Path) -> None:
    table = session(listener=failed(VocabularyUnheard("the model cannot hear 'five'")))
    table.journal = Journal(tmp_path / "game.jsonl", {"kind": "play"})
    try:
        with pytest.raises(UserError, match="(?s)cannot hear 'five'.*every answer so far is saved") as stopped:
            table.settle()
    finally:
        table.journal.close()
    assert f"werewolf-narrator resume {tmp_path / 'game.jsonl'}" in str(stopped.value)


def header(path: Path) -> dict[str, object]:
    first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert isinstance(first, dict)
    return first


def test_a_new_game_s_journal_is_begun_with_the_cards_to_deal(tmp_path: Path) -> None:
    buildings = ((1, "farm"),)
    begun = begin_journal(APP, SEED, NewGame(folder=tmp_path), buildings)
    begun.journal.close()
    assert begun.journal.path.parent == tmp_path and str(SEED) not in begun.journal.path.name.split("-")
    assert begun.progress == [] and begun.replay == ()
    assert begun.deal is not None and begun.deal.roles == deal_cards(APP.table, SEED).roles
    assert begun.deal.buildings == buildings
    written = header(begun.journal.path)
    assert written["dealing"] is True and written["deal"] == list(begun.deal.roles) and written["seed"] == SEED


def test_a_journal_is_named_by_its_date_and_a_random_token_never_by_the_seed_that_deals_every_card() -> None:
    """The name shows (the hints to go on, `resume`'s list, ps): the seed and the public deck would give every card."""
    names = {journal_name() for _ in range(50)}
    assert len(names) == 50
    assert all(re.fullmatch(r"game-\d{8}-\d{6}-[0-9a-f]{8}\.jsonl", name) for name in names)


def test_a_game_without_a_seed_draws_one_from_the_system_s_randomness_beyond_a_guessable_range(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """63 bits from the operating system: no seed to find by trying the 2**31 a card or two would narrow."""
    drawn: list[int] = []
    monkeypatch.setattr("random.SystemRandom.randrange", lambda self, n: drawn.append(n) or n - 1)
    keys = ScriptedKeys([])
    with pytest.raises(EOFError):
        play(APP, TableIO(keys, PlainScreen(io.StringIO()), QuietSpeaker()), start=NewGame(folder=tmp_path),
             timing=Timing(sleep=lambda s: None), out=io.StringIO())
    assert drawn == [2**63]
    journal = next(tmp_path.glob("game-*.jsonl"))
    assert header(journal)["seed"] == 2**63 - 1 and str(2**63 - 1) not in journal.name


def test_a_new_game_dealt_real_cards_journals_no_card_before_they_are_identified(tmp_path: Path) -> None:
    begun = begin_journal(CARDS, SEED, NewGame(path=tmp_path / "mine.jsonl"), ())
    begun.journal.close()
    assert begun.journal.path == tmp_path / "mine.jsonl" and begun.progress == []
    assert begun.deal is not None and begun.deal.roles == ()
    assert "deal" not in header(begun.journal.path)


def test_a_new_game_given_its_cards_deals_nothing(tmp_path: Path) -> None:
    given = Deal(APP.table.deck)
    begun = begin_journal(APP, SEED, NewGame(folder=tmp_path, deal=given), ())
    begun.journal.close()
    assert begun.deal == given and begun.progress is None
    written = header(begun.journal.path)
    assert "dealing" not in written and written["deal"] == list(APP.table.deck)


def test_a_deal_stopped_part_way_goes_on_at_the_next_seat(tmp_path: Path) -> None:
    """Two seats had seen their cards: the deal goes on at seat 3, says so first, and journals the whole deal."""
    seats = APP.table.seats
    speaker = Recorder()
    table = session(keys=["enter"] * 3 * (seats - 2), speaker=speaker)
    begun = begin_journal(APP, SEED, NewGame(folder=tmp_path), ())
    try:
        begun.journal.record_deal({"seen": 1})
        begun.journal.record_deal({"seen": 2})
        resumed = Resumed(begun.journal, begun.deal, progress=[{"seen": 1}, {"seen": 2}])
        deal = deal_at_table(table, resumed, SEED, ((2, "mill"),))
    finally:
        begun.journal.close()
    turns = [EN.spoken(EN.text("deal.app_turn", {"seat": seat})) for seat in range(1, seats + 1)]
    assert speaker.said[0] == EN.spoken(EN.text("notice.resumed"))
    assert [line for line in speaker.said if line in turns] == turns[2:]
    assert begun.deal is not None and deal.roles == begun.deal.roles and deal.buildings == ((2, "mill"),)
    journaled, _ = read_journal(str(begun.journal.path))
    assert journaled["deal"] == list(deal.roles) and "progress" not in journaled


def test_a_journaled_game_is_replayed_silently_and_a_new_one_answered_live(tmp_path: Path) -> None:
    table = session()
    journal = Journal(tmp_path / "game.jsonl", {"kind": "play"})
    try:
        assert replayed(table, Resumed(journal)) is table.answers and not table.narrator.replaying
        entry = Entry("nightfall", "night", 1, False, None, 2)
        source = replayed(table, Resumed(journal, replay=[entry], replay_from="game.jsonl"))
    finally:
        journal.close()
    assert isinstance(source, Replay) and source.replaying and source.path == "game.jsonl"
    assert table.narrator.replaying


def test_the_recap_ends_with_the_winner_and_where_the_game_is_kept(tmp_path: Path) -> None:
    game = simulated(APP.table, SEED)
    assert game.outcome is not None
    out = io.StringIO()
    show_recap(game, EN, (), tmp_path / "game.jsonl", out)
    result = build_recap(game, EN, ()).result
    assert result and out.getvalue().splitlines()[-len(result) - 2:] == [
        *result, f"(recap: {tmp_path / 'game.md'})", f"(journal: {tmp_path / 'game.jsonl'})"]
    assert (tmp_path / "game.md").read_text(encoding="utf-8") == markdown(build_recap(game, EN, ()))


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_the_host_menu_names_the_answer_it_takes_back_in_the_tables_language(language: str) -> None:
    """"Take back the last answer, to sheriff_successor?": the take-back named the call by its id. In random games it
    names every call it offers as the recap does ("The vote", "Sheriff", "Hunter"), in the table's language."""
    import dataclasses
    import random

    from engine import Game
    from narrator.play import takeback

    config = dataclasses.replace(APP, language=language)
    table = session(config)
    voice = load_voice(language)
    named: set[str] = set()
    for seed in range(40):
        rng = random.Random(seed)
        table.narrator.game = game = Game(config.table, deal_cards(config.table, seed))
        while game.call is not None:
            offered = takeback(game)
            if offered is not None:
                name = table.last_answered()
                assert name and "_" not in name and name != offered.id, (offered.id, name)
                named.add(offered.id)
            game.answer(rng.choice(game.legal()) if game.call.needs_answer else None)
    assert {"sheriff_successor", "vote"} <= named
    assert voice.role("sheriff") in voice.text("menu.undo_confirm", {"call": voice.role("sheriff")})


def test_the_recap_names_its_files_as_the_host_types_them_under_home(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A journal folder's full path (/home/NAME/.local/share/werewolf-narrator/games/game-….md) is wider than 80
    columns, and the terminal cut it mid-word: under the home folder the files are named ~/…, as the supervisor does."""
    monkeypatch.setenv("HOME", str(tmp_path))
    games = tmp_path / ".local" / "share" / "werewolf-narrator" / "games"
    games.mkdir(parents=True)
    game = simulated(APP.table, SEED)
    out = io.StringIO()
    show_recap(game, EN, (), games / "game.jsonl", out)
    assert out.getvalue().splitlines()[-2:] == ["(recap: ~/.local/share/werewolf-narrator/games/game.md)",
                                                "(journal: ~/.local/share/werewolf-narrator/games/game.jsonl)"]
