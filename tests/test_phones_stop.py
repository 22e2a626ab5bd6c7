"""A game with the players' phones that stops and goes on (issue 26): the host's own stop ends the phones' links
(a game that goes on gives new ones, scanned at the screen), a crash or a signal keeps them; and the deal with the
players' own cards (deal: cards), which shows no card on the screen, has the phones join at the screen first.
Real servers on 127.0.0.1; the game's table without a terminal (`resume_play` with the table a test's)."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets", reason="the [phones] extra (scripts/setup.sh installs it)")

from websockets.sync.client import connect  # noqa: E402

from engine import Rules, Table, deal_cards  # noqa: E402
from keystrokes import Recorder, ScriptedKeys  # noqa: E402
from narrator import play as play_module  # noqa: E402
from narrator.config import TableConfig  # noqa: E402
from narrator.errors import GameStopped  # noqa: E402
from narrator.journal import read_journal  # noqa: E402
from narrator.keypad import TableGone  # noqa: E402
from narrator.phones import views  # noqa: E402
from narrator.phones.table import PhoneOptions, journaled, phones_at  # noqa: E402
from narrator.play import NewGame, ResumeOptions, Timing, play, resume_play  # noqa: E402
from narrator.screen import PlainScreen  # noqa: E402
from narrator.table import TableIO  # noqa: E402
from narrator.voices import load_voice  # noqa: E402

VOICE = load_voice("en")
SEED = 7
APP = TableConfig("en", Table(6, ("werewolf", "seer", "witch", "villager", "villager", "villager"), Rules()),
                  call_floor=0.0, pause=(0.0, 0.0))
CARDS = dataclasses.replace(APP, deal="cards", table=dataclasses.replace(APP.table, rules=Rules(sheriff=False)))


class StopAt(ScriptedKeys):
    """The host's keys, then ``last`` (a signal's stop, or the keys running out) once they run out; ``check`` runs
    at the key read number ``at`` (from 0; the game's server is up then)."""

    def __init__(self, keys: list[str], last: BaseException = EOFError("no more keys"),
                 check: Any = lambda: None, at: int = 0) -> None:
        super().__init__(keys)
        self.last = last
        self.check = check
        self.at = at
        self.reads = 0

    def read(self, timeout: float | None = None) -> str | None:
        if self.reads == self.at:
            self.check()
        self.reads += 1
        if not self.keys and not self.buffered:
            raise self.last
        return super().read(timeout)


def opens(link: str) -> int:
    """Returns the HTTP status a link's page answers with."""
    try:
        with urllib.request.urlopen(link, timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def started(config: TableConfig, folder: Path, keys: StopAt, speaker: Recorder,
            last_view: list[dict[str, object]], screen: PlainScreen | None = None) -> tuple[Path, dict[int, str]]:
    """Plays a new game with the phones (as `play --phones` does) until its keys stop it; returns its journal and
    the links it served. A phone on seat 1 keeps the last view it was sent."""
    folder.mkdir()
    table = TableIO(keys, screen or PlainScreen(io.StringIO()), speaker)
    links: dict[int, str] = {}
    with contextlib.ExitStack() as stack:
        with pytest.raises((GameStopped, EOFError)):
            with phones_at(table, "en", config.table.seats, (), PhoneOptions(bind="127.0.0.1")) as (table, server):
                links.update({seat: server.link(seat) for seat in range(1, config.table.seats + 1)})
                socket = stack.enter_context(connect(links[1].replace("http:", "ws:").replace("/p/", "/ws/")))

                def follow() -> None:
                    for frame in socket:
                        last_view[:] = [json.loads(frame)["view"]]
                following = threading.Thread(target=follow, daemon=True)
                following.start()
                play(config, table, seed=SEED, start=NewGame(folder, phones=journaled(server)),
                     timing=Timing(sleep=lambda s: None), out=io.StringIO())
        following.join(timeout=10)  # the server closed the phone once its last frame was sent
    journals = list(folder.glob("*.jsonl"))
    assert len(journals) == 1
    return journals[0], links


def table_of(monkeypatch: pytest.MonkeyPatch, keys: StopAt, speaker: Recorder, screen: PlainScreen) -> None:
    """`resume` plays at this table instead of opening the terminal's."""
    monkeypatch.setattr(play_module, "open_table", lambda *args, **kwargs: TableIO(keys, screen, speaker))


def resumed(monkeypatch: pytest.MonkeyPatch, journal: Path, keys: StopAt, speaker: Recorder,
            screen: PlainScreen) -> None:
    """Goes on with the game as `werewolf-narrator resume` does, until the keys run out."""
    header, entries = read_journal(str(journal))
    table_of(monkeypatch, keys, speaker, screen)
    with pytest.raises(EOFError):
        resume_play(ResumeOptions(str(journal)), header, entries, warn=lambda message: None)


def dealt(seats: int) -> list[str]:
    """The keys of the program's deal for ``seats`` seats: show, hide, next."""
    return ["enter"] * 3 * seats


def said(key: str, **values: object) -> str:
    return VOICE.spoken(VOICE.text(key, values))


def test_the_hosts_stop_ends_the_phones_links_and_the_game_going_on_gives_new_ones_scanned_at_the_screen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three seats have seen their cards (and joined with their QR codes) when the host stops the game (Ctrl-C,
    Enter): every phone is told its link ended, and the journal says the host stopped it. Resumed, the old links
    open nothing; the same three seats scan new codes at the screen, each alone, before the deal goes on at seat 4
    with the new links."""
    view: list[dict[str, object]] = []
    asked: list[str] = []
    keys = StopAt(dealt(3) + ["interrupt", "enter"], check=lambda: asked.append(screen.state.prompt),
                  at=3 * 3 + 1)
    screen = PlainScreen(io.StringIO())
    journal, old = started(APP, tmp_path / "game", keys, Recorder(), view, screen)
    assert asked == [VOICE.text("menu.stop_confirm_phones", {})]  # the host is told, before confirming
    assert view == [{"kind": "ended"}]
    lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    assert lines[-1] == {"stopped": "host"}
    assert "tokens" not in read_journal(str(journal))[0]["phones"]

    checked: dict[str, int] = {}

    def check_links() -> None:
        header = read_journal(str(journal))[0]
        new = header["phones"]["tokens"]
        checked.update(old=opens(old[1]), new=opens(old[1].rsplit("/", 1)[0] + "/" + new["1"]))
    speaker, screen = Recorder(), PlainScreen(io.StringIO(), terminal=True)
    # Checked at seat 4's turn: once the three seats scanned their codes (two keys each).
    resumed(monkeypatch, journal, StopAt(["enter"] * 2 * 3 + dealt(1), check=check_links, at=6), speaker, screen)
    assert checked == {"old": 404, "new": 200}
    assert speaker.said[:5] == [said("deal.phones_again"), said("deal.phones_turn", seat=1),
                                said("deal.phones_turn", seat=2), said("deal.phones_turn", seat=3),
                                said("notice.resumed")]
    assert speaker.said[5] == said("deal.app_turn", seat=4)
    out = screen.out.getvalue()  # type: ignore[attr-defined]
    assert out.count(VOICE.text("screen.phone_code", {})) == 3 and out.count("▀") > 3 * 20  # and their QR codes
    header = read_journal(str(journal))[0]
    assert set(header["phones"]["tokens"].values()).isdisjoint(link.rsplit("/", 1)[1] for link in old.values())
    after = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()][len(lines):]
    assert after[0] == {"phones": header["phones"]}  # on the disk once scanned, before the game goes on


def test_a_game_that_stops_while_the_phones_join_again_calls_every_seat_again_with_new_links(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The new links are journaled once every seat has scanned its code: stopped (or crashed) while the second seat
    scans, the game has none journaled, and going on it makes new ones again and calls the first seat too, whose
    link would otherwise open nothing."""
    journal, _ = started(APP, tmp_path / "game", StopAt(dealt(3) + ["interrupt", "enter"]), Recorder(), [])
    resumed(monkeypatch, journal, StopAt(["enter"] * 3), Recorder(), PlainScreen(io.StringIO()))
    assert "tokens" not in read_journal(str(journal))[0]["phones"]
    speaker = Recorder()
    resumed(monkeypatch, journal, StopAt(["enter"] * 2 * 3 + dealt(1)), speaker, PlainScreen(io.StringIO()))
    assert speaker.said[:2] == [said("deal.phones_again"), said("deal.phones_turn", seat=1)]
    assert "tokens" in read_journal(str(journal))[0]["phones"]



def test_a_stop_by_a_signal_keeps_the_phones_links_as_a_crash_does(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM or SIGHUP (a shutdown, an SSH session gone) stops the game as the host's stop does, but nobody chose
    it: every phone is told the game stopped and keeps looking for it, and `resume` serves the same links, with no
    seat called to the screen to scan a code."""
    view: list[dict[str, object]] = []
    journal, old = started(APP, tmp_path / "game", StopAt(dealt(3), last=TableGone()), Recorder(), view)
    assert view == [{"kind": "stopped"}]
    assert "stopped" not in journal.read_text(encoding="utf-8")
    checked: dict[int, int] = {}
    speaker = Recorder()
    resumed(monkeypatch, journal, StopAt(dealt(1), check=lambda: checked.update({1: opens(old[1])})), speaker,
            PlainScreen(io.StringIO()))
    assert checked == {1: 200}
    assert speaker.said[:2] == [said("notice.resumed"), said("deal.app_turn", seat=4)]
    assert said("deal.phones_again") not in speaker.said


def test_with_the_players_own_cards_every_seat_scans_its_phones_code_at_the_screen_before_the_deal(
        tmp_path: Path) -> None:
    """deal: cards shows no card on the screen, which the QR code would go with: before the cards are dealt, every
    seat in turn is called to the screen alone to scan its code (every seat, phone or not: who has one is nobody's
    business), then the deal goes on as without phones. Once the characters have identified their seats, each
    phone holds its own card."""
    speaker = Recorder()
    view: list[dict[str, object]] = []
    held: list[object] = []

    def card_held(card: bool) -> None:
        """The phone's view, once it is there (with ``card``, once it holds one past the deal: the first call)."""
        end = time.monotonic() + 10
        while not (view and (view[0].get("card") and "deal" not in view[0] or not card)) and time.monotonic() < end:
            time.sleep(0.02)
        held.extend(view)
    joined = ["enter"] * 2 * 6
    identified = ["enter", "2", "enter", "enter", "3", "enter", "enter", "4", "enter", "enter"]  # seat 1: a villager
    started(CARDS, tmp_path / "game", StopAt(joined + identified, check=lambda: card_held(False), at=len(joined) + 1), speaker,
            view)
    assert speaker.said[:7] == [said("deal.phones_intro"), *(said("deal.phones_turn", seat=s) for s in range(1, 7))]
    assert speaker.said[7] == said("deal.cards_intro")
    assert held == [views.dealing()]  # no card known yet at the first character
    held.clear()
    started(CARDS, tmp_path / "again", StopAt(joined + identified, check=lambda: card_held(True), at=len(joined + identified)),
            Recorder(), view)
    assert held == [{"kind": "sleep", "card": VOICE.role("villager")}]


def test_a_host_who_has_the_links_written_hands_them_out_and_nobody_is_called_to_the_screen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--phone-links FILE` (a table without a screen): with the players' own cards nobody is called to scan a code;
    after the host's stop, `resume --phone-links FILE` writes the new links there, and the game goes on at once."""
    links = tmp_path / "links.txt"
    folder = tmp_path / "game"
    folder.mkdir()
    speaker = Recorder()
    table = TableIO(StopAt(["enter", "interrupt", "enter"]), PlainScreen(io.StringIO()), speaker)
    with pytest.raises(GameStopped):
        with phones_at(table, "en", 6, (), PhoneOptions(bind="127.0.0.1", links=links)) as (table, server):
            play(CARDS, table, seed=SEED, start=NewGame(folder, phones=journaled(server)),
                 timing=Timing(sleep=lambda s: None), out=io.StringIO())
    assert speaker.said[0] == said("deal.cards_intro")
    old = links.read_text(encoding="utf-8")
    journal, = folder.glob("*.jsonl")
    header, entries = read_journal(str(journal))
    speaker = Recorder()
    table_of(monkeypatch, StopAt([]), speaker, PlainScreen(io.StringIO()))
    with pytest.raises(EOFError):
        resume_play(ResumeOptions(str(journal), phone_links=str(links)), header, entries, warn=lambda message: None)
    new = links.read_text(encoding="utf-8")
    assert new != old and len(new.splitlines()) == 6 and oct(links.stat().st_mode & 0o777) == "0o600"
    assert said("deal.phones_again") not in speaker.said


def test_a_game_going_on_gives_the_thiefs_phone_the_card_he_took_not_the_one_dealt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Thief took a centre card; the game stops before its next call. Going on, his phone holds the card he
    took, as the game has it now (the journal's deal says Thief)."""
    table = Table(6, ("thief", "werewolf", "seer", "villager", "villager", "villager", "villager", "werewolf"),
                  Rules(sheriff=False))
    config = dataclasses.replace(APP, table=table)
    seed = next(s for s in range(100) if deal_cards(table, s).roles[0] == "thief"
                and deal_cards(table, s).centre[0] == "villager")  # asleep at the next call: his dark page
    deal = deal_cards(table, seed)
    folder = tmp_path / "game"
    folder.mkdir()
    links: dict[int, str] = {}
    keys = StopAt(dealt(6) + ["1", "enter", "enter"])
    with pytest.raises(EOFError):
        with phones_at(TableIO(keys, PlainScreen(io.StringIO()), Recorder()), "en", 6, (),
                       PhoneOptions(bind="127.0.0.1")) as (table_io, server):
            links.update({seat: server.link(seat) for seat in range(1, 7)})
            play(config, table_io, seed=seed, start=NewGame(folder, phones=journaled(server)),
                 timing=Timing(sleep=lambda s: None), out=io.StringIO())
    journal, = folder.glob("*.jsonl")
    held: list[object] = []

    def thiefs_card() -> None:
        with connect(links[1].replace("http:", "ws:").replace("/p/", "/ws/"), open_timeout=5) as socket:
            held.append(json.loads(socket.recv(timeout=5))["view"].get("card"))
    resumed(monkeypatch, journal, StopAt([], check=thiefs_card), Recorder(), PlainScreen(io.StringIO()))
    assert held == [VOICE.role(deal.centre[0])]


def test_while_the_seats_scan_new_codes_the_circle_shows_the_game_as_it_stands(monkeypatch: pytest.MonkeyPatch) -> None:
    """After the host's stop, a game going on calls its seats to scan new codes before it replays its journal: the
    seating circle meanwhile showed every seat alive, as dealt; it shows the dead (public) as the journal left them."""
    import types

    from engine import Game, deal_cards
    from helpers import drive
    from narrator.circle import SeatView, seating
    from narrator.journal import Entry

    config = dataclasses.replace(APP, table=dataclasses.replace(APP.table, rules=Rules(sheriff=False)))
    deal = deal_cards(config.table, SEED)
    played = Game(config.table, deal)
    victim = next(seat for seat, role in enumerate(deal.roles, 1) if role == "villager")
    while not played.eliminated:  # night 1, the pack's victim a villager; every other call passes
        call = played.call
        assert call is not None
        answer = victim if call.id == "werewolves" else {"heal": False, "poison": None} if call.id == "witch" \
            else None
        drive(played, (call.id, answer)) if call.needs_answer else played.answer(None)
    entries = [Entry(call.id, call.phase.value, call.number, call.needs_answer, answer, n)
               for n, (call, answer) in enumerate(zip(played.calls, played.journal), start=1)]
    circles: list[list[SeatView]] = []
    narrator = types.SimpleNamespace(game=None, voice=VOICE, seats=config.table.seats, names=())
    narrator.show_table = lambda: circles.append(seating(VOICE, 6, (), narrator.game))
    session = types.SimpleNamespace(config=config, table=types.SimpleNamespace(code_shown=lambda seat: None),
                                    narrator=narrator, answers=None)
    scanned: list[tuple[int, ...]] = []
    monkeypatch.setattr(play_module, "join_on_screen", lambda narrator, answers, seats, intro, shown:
                        scanned.append(tuple(seats)))
    journal = types.SimpleNamespace(record_phones=lambda links: None)
    resumed = play_module.Resumed(journal=journal, deal=deal, replay=entries,  # type: ignore[arg-type]
                                  new_links={"tokens": {}})
    play_module.join_phones(session, resumed, SEED)  # type: ignore[arg-type]
    assert scanned == [tuple(range(1, 7))]
    (circle,) = circles
    assert [seat.number for seat in circle if not seat.alive] == [victim]
