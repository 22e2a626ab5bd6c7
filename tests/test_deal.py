"""The deal is journaled before the first card is shown, goes on after a stop at the same seat with the
same cards, answers Ctrl-C and the host menu; real cards are identified eyes closed, and nobody learns whose a
seat is."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
from test_resume import keys_of, plan

from engine import Game, Rules, Table, deal_cards
from helpers import STARTER_TABLE, Printed, play_keys
from keystrokes import Recorder, ScriptedKeys, plan_keys
from narrator.config import TableConfig, config_from_journal, journal_table, load_config
from narrator.errors import GameStopped, UserError
from narrator.journal import Journal, read_journal
from narrator.play import STARTER, NewGame, Resumed, Timing, journaled_deal, play
from narrator.table import TableIO
from narrator.screen import PlainScreen
from narrator.supervise import SUPERVISED
from narrator.voices import load_voice

VOICE = load_voice("en")
APP = TableConfig("en", STARTER.table, pause=(0.0, 0.0))
SEED = 3
SEATS = APP.table.seats
CARDS = deal_cards(APP.table, SEED)


class Shown(Printed):
    """A screen that prints every line it shows, also remembers its titles, and can run a check whenever a
    secret is shown."""

    def __init__(self) -> None:
        super().__init__(io.StringIO())
        self.titles: list[str] = []
        self.on_secret: Callable[[str], None] = lambda text: None

    def show_call(self, title: str, spoken: str) -> None:
        self.titles.append(title)
        super().show_call(title, spoken)

    def secret(self, text: str, instead: str = "") -> None:
        self.on_secret(text)
        super().secret(text, instead)

    @property
    def text(self) -> str:
        out = self.out
        assert isinstance(out, io.StringIO)
        return out.getvalue()


def game_keys() -> tuple[list[str], Game]:
    """The keys of the whole app game (the deal's first: three Enters a seat), and the game they make."""
    return plan_keys(APP, SEED)


def a_game(config: TableConfig, keys: list[str], folder: Path, screen: PlainScreen | None = None,
           speaker: Recorder | None = None) -> Game:
    folder.mkdir(exist_ok=True)
    return play_keys(config, keys, seed=SEED, start=NewGame(folder=folder), screen=screen or PlainScreen(io.StringIO()),
                     speaker=speaker or Recorder())


def the_journal(folder: Path) -> Path:
    journals = list(folder.glob("*.jsonl"))
    assert len(journals) == 1, journals
    return journals[0]


def resumed(journal: Path, keys: list[str], screen: PlainScreen | None = None,
            speaker: Recorder | None = None) -> Game:
    """Goes on with a journaled game as `werewolf-narrator resume` does (resume_play, without a terminal)."""
    header, entries = read_journal(str(journal))
    config = config_from_journal(header, f"{journal}:1")
    deal, progress = journaled_deal(config, header)
    return play_keys(config, keys, seed=header["seed"],
                     start=Resumed(Journal(journal), deal=deal, replay=entries, replay_from=str(journal),
                                   progress=progress),
                     screen=screen, speaker=speaker)


def lines(journal: Path) -> list[dict[str, Any]]:
    """The journal's lines, the calls' lengths (narrator.pacing's samples) aside."""
    return [entry for line in journal.read_text(encoding="utf-8").splitlines()
            if "pace" not in (entry := json.loads(line))]


def card(role: str) -> str:
    return VOICE.text("deal.app_show", {"role": role})


def turn(seat: int) -> str:
    return VOICE.text("deal.app_turn", {"seat": seat})


# -- deal: app ------------------------------------------------------------------------------------

def test_the_app_deal_is_journaled_before_the_first_card_is_shown(tmp_path: Path) -> None:
    """When a card is shown, the journal on the disk already holds the whole deal (drawn from the seed) and
    every card seen before it."""
    keys, ahead = game_keys()
    screen = Shown()
    checked: list[int] = []

    def on_secret(text: str) -> None:
        if "Remember it." not in text:  # a card shown (deal.app_show)
            return
        journal = lines(the_journal(tmp_path / "game"))
        assert journal[0]["dealing"] is True
        assert journal[0]["deal"] == list(CARDS.roles) and journal[0]["centre"] == list(CARDS.centre)
        assert journal[1:] == [{"seen": seat} for seat in range(1, len(checked) + 1)]
        checked.append(len(checked) + 1)

    screen.on_secret = on_secret
    game = a_game(APP, keys, tmp_path / "game", screen=screen)
    assert checked == list(range(1, SEATS + 1))
    assert game.deal.roles == ahead.deal.roles and game.outcome == ahead.outcome
    journal = lines(the_journal(tmp_path / "game"))
    assert journal[SEATS + 1] == {"deal": list(CARDS.roles), "centre": list(CARDS.centre)}
    assert [line["answer"] for line in journal[SEATS + 2:-1]] == ahead.journal
    assert ahead.outcome is not None and journal[-1] == {"over": ahead.outcome.winner}  # resume lists it no more


@pytest.mark.parametrize("stop, going_on", [(0, 1), (1, 1), (13, 5), (14, 6), (15, 6), (3 * SEATS - 1, None)])
def test_a_game_stopped_mid_deal_resumes_at_the_same_seat_with_the_same_cards(tmp_path: Path, stop: int,
                                                                             going_on: int | None) -> None:
    """deal: app, stopped after ``stop`` keys (the card of seat 5 shown, hidden, ...): the game goes on at the seat
    that had not yet hidden its card, which sees the same card, and ends as the game never stopped."""
    keys, ahead = game_keys()
    with pytest.raises(EOFError):
        a_game(APP, keys[:stop], tmp_path / "game")
    journal = the_journal(tmp_path / "game")
    screen, speaker = Shown(), Recorder()
    left = keys[3 * (going_on - 1):] if going_on else keys[3 * SEATS:]
    game = resumed(journal, left, screen, speaker)
    assert game.outcome == ahead.outcome and game.eliminated == ahead.eliminated
    assert game.deal.roles == CARDS.roles
    turns = [said for said in speaker.said if "come and see your card" in said]
    if going_on:
        assert turns == [turn(seat) for seat in range(going_on, SEATS + 1)]
        shown = [line for line in screen.text.splitlines() if "[screen] You are " in line]
        assert shown[0] == f"  [screen] {card(CARDS.roles[going_on - 1])}"
        assert (VOICE.text("notice.resumed", {}) in speaker.said) == (going_on > 1)
    else:
        assert turns == []  # every card seen: the game begins
    assert [line["answer"] for line in lines(journal) if "answer" in line] == ahead.journal


def test_an_unwritable_journal_folder_is_reported_before_any_card_is_shown(tmp_path: Path) -> None:
    """A journal that cannot be written stops the game before anything is said or shown."""
    (tmp_path / "a file").write_text("not a folder")
    keys, _ = game_keys()
    screen, speaker = Shown(), Recorder()
    with pytest.raises(UserError) as error:
        play_keys(APP, keys, seed=SEED, start=NewGame(folder=tmp_path / "a file" / "games"), screen=screen,
                  speaker=speaker)
    assert "cannot write the game's journal" in str(error.value)
    assert speaker.said == [] and screen.text == ""


@pytest.mark.parametrize("stop", [["interrupt", "enter"], ["menu", "5", "enter"]])
def test_ctrl_c_during_the_deal_stops_with_the_journal_kept(tmp_path: Path, stop: list[str]) -> None:
    """Ctrl-C confirmed (or the host menu's end) while seat 3 looks at its card: the game stops, saying how to go
    on; resumed, seat 3 sees the same card again and the game ends as the game never stopped."""
    keys, ahead = game_keys()
    with pytest.raises(GameStopped) as stopped:
        a_game(APP, keys[:7] + stop, tmp_path / "game")
    journal = the_journal(tmp_path / "game")
    assert f"werewolf-narrator resume {journal}" in str(stopped.value)
    speaker = Recorder()
    game = resumed(journal, keys[6:], speaker=speaker)
    assert [said for said in speaker.said if "come and see" in said][0] == turn(3)
    assert game.outcome == ahead.outcome and game.eliminated == ahead.eliminated


def test_ctrl_c_then_another_key_goes_on_with_the_deal(tmp_path: Path) -> None:
    """Ctrl-C asks first: any key but Enter goes on with the deal where it was."""
    keys, ahead = game_keys()
    game = a_game(APP, keys[:4] + ["interrupt", "back"] + keys[4:], tmp_path / "game")
    assert game.outcome == ahead.outcome


def test_the_host_menu_pauses_the_deal(tmp_path: Path) -> None:
    """The host menu during the deal: pause (said, then the deal goes on after Enter), repeat the seat's call."""
    keys, ahead = game_keys()
    speaker = Recorder()
    keys = keys[:3] + ["menu", "3", "enter"] + ["menu", "2"] + keys[3:]
    game = a_game(APP, keys, tmp_path / "game", speaker=speaker)
    assert game.outcome == ahead.outcome
    said = speaker.said
    paused = said.index(VOICE.text("notice.paused", {}))
    assert said[paused - 1] == turn(2)  # paused at seat 2's turn
    assert said[paused + 1:paused + 3] == [VOICE.text("notice.resumed", {}), turn(2)]  # then its call repeated
    assert said.count(turn(2)) == 2 and said.count(turn(3)) == 1


def test_a_journal_written_before_the_deal_was_journaled_still_resumes(tmp_path: Path) -> None:
    """Today's journals: a header with the whole deal, then the answers; resumed, the game goes on from the
    answers, the deal not shown again."""
    keys, ahead = game_keys()
    with pytest.raises(EOFError):
        a_game(APP, keys[:3 * SEATS + 20], tmp_path / "game")
    answers = [line for line in lines(the_journal(tmp_path / "game")) if "call" in line]
    assert answers
    old = tmp_path / "old.jsonl"
    header = {"werewolf-narrator": 1, "kind": "play", **journal_table(APP), "seed": SEED,
              "deal": list(CARDS.roles), "centre": list(CARDS.centre), "buildings": []}
    old.write_text("".join(json.dumps(line) + "\n" for line in [header, *answers]), encoding="utf-8")
    speaker = Recorder()
    steps, _ = plan(SEED)
    game = resumed(old, keys_of(steps[len(answers):]), speaker=speaker)
    assert game.outcome == ahead.outcome and game.eliminated == ahead.eliminated
    assert not any("come and see" in said for said in speaker.said)


# -- deal: cards ----------------------------------------------------------------------------------

REAL = TableConfig("en", Table(8, ("thief", "seer", "werewolf", "werewolf", "hunter", "villager", "villager",
                                   "villager", "villager", "villager"), Rules(sheriff=False)),
                   deal="cards", pause=(0.0, 0.0))
KINDS = sorted(set(REAL.table.deck))  # the Thief picks the centre cards from this numbered list
DEALT = ["enter"]  # every player has a card and has looked at it: the eyes close
THIEF = DEALT + ["1", "enter", "enter"]  # the Thief is seat 1; the centre: a villager and a werewolf
THIEF += [str(KINDS.index("villager") + 1), "enter", str(KINDS.index("werewolf") + 1), "enter", "enter"]
SEER = ["2", "enter", "enter"]
WEREWOLF = ["3", "enter", "enter"]  # one werewolf card; the other is in the centre
HUNTER = ["4", "enter", "enter"]
REAL_DEAL = ("thief", "seer", "werewolf", "hunter", "villager", "villager", "villager", "villager")


def identified(config: TableConfig, keys: list[str], folder: Path, screen: PlainScreen | None = None,
               speaker: Recorder | None = None) -> Path:
    """Identifies the cards with ``keys``; the game stops (the keys run out) at the first night."""
    with pytest.raises(EOFError):
        a_game(config, keys, folder, screen, speaker)
    return the_journal(folder)


def test_cards_identification_starts_with_eyes_closed(tmp_path: Path) -> None:
    """deal: cards: after the cards are dealt, everyone closes their eyes before the first character wakes. With the
    Thief's two cards in the deck, the deal says where the cards left over go (the centre), which a host dealing "one
    card to each player" was not told."""
    speaker = Recorder()
    identified(REAL, THIEF + SEER + WEREWOLF + HUNTER, tmp_path / "game", speaker=speaker)
    assert "centre" in VOICE.text("deal.cards_intro_centre", {}) and "centre" not in VOICE.text("deal.cards_intro", {})
    assert speaker.said[:3] == [VOICE.text("deal.cards_intro_centre", {}), VOICE.text("notice.close_eyes", {}),
                                VOICE.text("identify.wake", {"role": "thief"})]


def test_a_key_typed_during_an_identifications_wait_is_no_ones_seat(tmp_path: Path) -> None:
    """"7" pressed at every wait of the identification (a character's floor, a card in the centre called for nobody)
    would have been read as the next character's seat, and the last one's as the Sheriff's election: each call forgets
    it as it opens, and so does the end of the identification. The deal and the election are the ones typed."""
    keys = ScriptedKeys(THIEF + SEER + WEREWOLF + HUNTER + ["5", "enter", "enter"])
    config = dataclasses.replace(REAL, call_floor=1.0, pause=(1.0, 1.0),
                                 table=dataclasses.replace(REAL.table, rules=Rules(sheriff=True)))
    (tmp_path / "game").mkdir()
    with pytest.raises(EOFError):
        play(config, TableIO(keys, PlainScreen(io.StringIO()), Recorder()), seed=SEED,
             start=NewGame(folder=tmp_path / "game"), timing=Timing(sleep=lambda s: keys.stray("7")), out=io.StringIO())
    journal = the_journal(tmp_path / "game")
    assert read_journal(str(journal))[0]["deal"] == list(REAL_DEAL)
    assert [line["answer"] for line in lines(journal) if "answer" in line][0] == 5  # the election


def test_a_seat_beyond_the_table_is_refused_as_it_is_typed_at_the_identification(tmp_path: Path) -> None:
    """Cupid's "9" at an 8-seat table stayed typed, and the "8" after it made 98: refused as it is typed, as in
    every call, the "8" is the seat."""
    screen = PlainScreen(io.StringIO(), terminal=True)
    journal = identified(REAL, THIEF[:1] + ["9"] + THIEF[1:] + SEER + WEREWOLF + HUNTER, tmp_path / "game",
                         screen=screen)
    assert read_journal(str(journal))[0]["deal"] == list(REAL_DEAL)
    assert VOICE.text("refusal.no_such_seat", {"seat": 9}) in screen.out.getvalue()  # type: ignore[attr-defined]


def test_a_game_stopped_mid_identification_resumes_at_the_next_character(tmp_path: Path) -> None:
    """deal: cards, stopped once the Thief and the Seer are identified (the werewolf typing): the game goes on,
    eyes closed, at the werewolf, with the seats already entered; the deal is the one the table typed."""
    journal = identified(REAL, THIEF + SEER + ["3"], tmp_path / "game")
    assert [line.get("identified") for line in lines(journal)[1:]] == ["thief", "seer"]
    speaker = Recorder()
    with pytest.raises(EOFError):
        resumed(journal, WEREWOLF + HUNTER, speaker=speaker)
    assert speaker.said[:3] == [VOICE.text("notice.resumed", {}), VOICE.text("notice.close_eyes", {}),
                                VOICE.text("identify.wake", {"role": "werewolf"})]
    header, _ = read_journal(str(journal))
    assert header["deal"] == list(REAL_DEAL) and sorted(header["centre"]) == ["villager", "werewolf"]
    assert "progress" not in header


def test_ctrl_c_during_the_identification_stops_with_the_journal_kept(tmp_path: Path) -> None:
    """Ctrl-C confirmed while the Seer types her seat: the game stops, saying how to go on; resumed, it goes on at
    the Seer, with the Thief's seats and centre cards kept."""
    with pytest.raises(GameStopped) as stopped:
        a_game(REAL, THIEF + ["2", "interrupt", "enter"], tmp_path / "game")
    journal = the_journal(tmp_path / "game")
    assert f"werewolf-narrator resume {journal}" in str(stopped.value)
    speaker = Recorder()
    with pytest.raises(EOFError):
        resumed(journal, SEER + WEREWOLF + HUNTER, speaker=speaker)
    assert speaker.said[2] == VOICE.text("identify.wake", {"role": "seer"})
    assert read_journal(str(journal))[0]["deal"] == list(REAL_DEAL)


def test_the_cards_screens_say_what_they_ask_for(tmp_path: Path) -> None:
    """Each character's panel is titled with it; the prompt asks for your seat (the Thief's centre cards, listed
    with their numbers); read-backs name seats and cards; a seat out of range is refused on the screen as it is
    typed; the same seat twice in one answer before any read-back. Nothing of it is said aloud."""
    screen, speaker = Shown(), Recorder()
    werewolves = Table(8, ("seer", "werewolf", "werewolf") + ("villager",) * 5, Rules(sheriff=False))
    config = TableConfig("en", werewolves, deal="cards", pause=(0.0, 0.0))
    keys = DEALT + ["9", "9", "enter", "1", "enter", "enter"] + ["2", "enter", "2", "enter", "3", "enter", "enter"]
    identified(config, keys, tmp_path / "game", screen, speaker)
    text = screen.text
    assert screen.titles[:3] == ["The deal", "Fortune Teller", "Simple Werewolf"]
    assert "Type your seat number, then Enter." in text and "Type your 2 seat numbers" in text
    assert "There is no seat number nine at this table." in text  # refused as it is typed, as in every call
    assert "ninety-nine" not in text
    assert "[screen] The same player is named twice." in text
    assert "> Seat number one?" in text and "> Seat number two and seat number three?" in text
    assert speaker.said[:6] == [VOICE.text(key, values) for key, values in [
        ("deal.cards_intro", {}), ("notice.close_eyes", {}), ("identify.wake", {"role": "seer"}),
        ("identify.sleep", {"role": "seer"}), ("identify.wake", {"role": "werewolf"}),
        ("identify.sleep", {"role": "werewolf"})]]
    assert not any(said.endswith("?") or "no seat" in said or "twice" in said for said in speaker.said)

    thief = Shown()
    identified(REAL, THIEF + SEER + WEREWOLF + HUNTER, tmp_path / "thief", thief)
    assert "Type the numbers of the two centre cards" in thief.text
    assert f"{KINDS.index('werewolf') + 1}: Simple Werewolf" in thief.text
    assert "> Simple Villager and Simple Werewolf?" in thief.text


def test_a_seat_entered_twice_is_settled_without_telling_whose_it_is(tmp_path: Path) -> None:
    """The Seer types seat 1, the Thief's: nothing tells her (or anyone) that seat 1 was entered; the screen and
    the voice go on as for a free seat, and once the round is over the whole table identifies its cards again."""
    clash, clean = Shown(), Shown()
    clash_said, clean_said = Recorder(), Recorder()
    again = THIEF + SEER + WEREWOLF + HUNTER
    journal = identified(REAL, THIEF + ["1", "enter", "enter"] + WEREWOLF + HUNTER + again, tmp_path / "clash",
                         clash, clash_said)
    identified(REAL, THIEF + ["6", "enter", "enter"] + WEREWOLF + HUNTER, tmp_path / "clean", clean, clean_said)
    mismatch = VOICE.text("identify.mismatch", {})
    round_one = clash.text[:clash.text.index(mismatch)]
    as_if_free = clean.text[:len(round_one)].replace("Seat number six?", "Seat number one?")
    as_if_free = as_if_free.replace("  > 6\n", "  > 1\n")
    assert round_one == as_if_free
    said = clash_said.said.index(mismatch)
    assert clash_said.said[:said] == clean_said.said[:said]
    header, _ = read_journal(str(journal))
    assert header["deal"] == list(REAL_DEAL)
    assert {"again": 1} in lines(journal)


def test_characters_in_the_centre_are_still_called_with_the_same_words(tmp_path: Path) -> None:
    """Fair play: a character whose cards lie in the centre is called with the same words (and lasts as long as
    the others: tests/test_pacing.py)."""
    speaker = Recorder()
    config = TableConfig("en", REAL.table, deal="cards", pause=(0.0, 0.0), call_floor=0.0)
    centre = [str(KINDS.index("seer") + 1), "enter", str(KINDS.index("hunter") + 1), "enter", "enter"]
    with pytest.raises(EOFError):
        keys = DEALT + ["1", "enter", "enter"] + centre + ["2", "enter", "3", "enter", "enter"]
        play_keys(config, keys, seed=SEED, start=NewGame(folder=tmp_path), speaker=speaker)
    for role in ("seer", "hunter"):
        assert VOICE.text("identify.wake", {"role": role}) in speaker.said
        assert VOICE.text("identify.sleep", {"role": role}) in speaker.said


# -- a real terminal -------------------------------------------------------------------------------



@pytest.mark.terminal
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by scripts/setup.sh --test")
def test_a_game_killed_mid_deal_in_a_terminal_resumes_at_the_same_seat_with_the_same_card(tmp_path: Path) -> None:
    """In a real terminal: the game killed (SIGKILL) while seat 5 looks at its card; `resume` goes on at seat 5,
    which sees the same card, and the game plays to its end."""
    from tmux import Tmux

    config = tmp_path / "table.yaml"
    config.write_text(STARTER_TABLE.format(language="en"), encoding="utf-8")
    seed = 11
    keys, ahead = plan_keys(load_config(str(config))[0], seed)
    folder = tmp_path / "j"
    pid = tmp_path / "pid"
    tmux = Tmux(f"wn-deal-{tmp_path.name}")
    game = f"{sys.executable} -m narrator"
    # The game's own process, unsupervised (test_kill_trials.py kills it under its supervisor): resumed by hand.
    command = (f"sh -c 'echo $$ > {pid}; exec env {SUPERVISED}=1 {game} play {config} --seed {seed} "
               f"--journal-dir {folder}'; "
               f"stty sane; {game} resume {folder}/*.jsonl; echo exit=$?; sleep 60")
    tmux.run("new-session", "-d", "-s", tmux.target, "-x", "110", "-y", "45", command)
    try:
        tmux.wait_for(turn(1)[:30])
        tmux.send(keys[:12])  # seats 1 to 4 have seen their cards
        tmux.wait_for(turn(5)[:30])
        tmux.send(keys[12:13])
        fifth = card(ahead.deal.roles[4])
        tmux.wait_for(fifth[:25])
        os.kill(int(pid.read_text()), signal.SIGKILL)
        tmux.wait_for(VOICE.text("notice.resumed", {}))
        shown = tmux.wait_for(turn(5)[:30])
        assert turn(4)[:30] not in shown and fifth[:25] not in shown  # seat 5 comes again, its card hidden
        tmux.send(keys[12:13])
        tmux.wait_for(fifth[:25])  # the same card
        tmux.send(keys[13:])
        final = tmux.wait_for("exit=", seconds=180)
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True)
    assert "exit=0" in final, final
    outcome = ahead.outcome
    assert outcome is not None
    assert VOICE.text(f"end.{outcome.winner}", {})[:15] in final
    header, entries = read_journal(str(next(folder.glob("*.jsonl"))))
    assert header["deal"] == list(ahead.deal.roles)
    assert [e.answer for e in entries] == ahead.journal
    assert [line.get("seen") for line in lines(next(folder.glob("*.jsonl")))[1:SEATS + 1]] == list(range(1, 9))


# -- issue 13: see, then hide; the host menu shows a seat its card again ------------------------------

def test_the_deal_asks_enter_to_see_the_card_then_enter_to_hide_it(tmp_path: Path) -> None:
    keys, ahead = game_keys()
    screen = Shown()
    a_game(APP, keys, tmp_path / "game", screen=screen)
    text = screen.text
    see, hide = VOICE.text("prompt.see_card", {}), VOICE.text("prompt.hide_card", {})
    first = text.index(card(ahead.deal.roles[0]))
    assert text.index(turn(1)) < text.index(see) < first < text.index(hide) < text.index(turn(2))
    assert VOICE.text("prompt.done", {}) not in text[:first]
    assert text.count(see) == text.count(hide) == SEATS


def card_again(seat: int) -> list[str]:
    """The host menu's keys that show ``seat`` its card (menu, 6, the seat, Enter), then see it and hide it."""
    return ["menu", "6", *str(seat), "enter", "enter", "enter"]


def said_around(said: list[str], seat: int) -> list[str]:
    start = said.index(VOICE.text("card_again.call", {"seat": seat}))
    return said[start:said.index(VOICE.text("card_again.done", {"seat": seat})) + 3]


@pytest.mark.parametrize("at, was_open", [(4, True), (3 * SEATS, True)])
def test_the_host_menu_shows_a_seat_its_card_again_with_the_table_s_eyes_closed(tmp_path: Path, at: int,
                                                                               was_open: bool) -> None:
    """During the deal (eyes open, seat 2 at the screen) or the Sheriff's election: everyone is told to close their
    eyes and seat 3 to come; its card is shown only then, hidden on Enter; seat 3 goes back; the eyes are opened again;
    the running call is said again; the game and its journal are as without it."""
    keys, ahead = game_keys()
    plain = a_game(APP, keys, tmp_path / "plain")
    screen, speaker = Shown(), Recorder()
    said_before: list[str] = []
    screen.on_secret = lambda text: said_before.append(speaker.said[-1]) if text == card(CARDS.roles[2]) else None
    game = a_game(APP, keys[:at] + card_again(3) + keys[at:], tmp_path / "game", screen=screen, speaker=speaker)
    assert game.outcome == plain.outcome == ahead.outcome
    assert VOICE.text("card_again.call", {"seat": 3}) in said_before  # never shown before the narrator says whose
    around = said_around(speaker.said, 3)
    opened = VOICE.text("notice.open_eyes", {})
    assert (around[2] == opened) is was_open
    before = speaker.said[speaker.said.index(around[0]) - 1]
    assert before in around[2:]  # the running call's line again: those it had woken open their eyes again
    assert [line for line in lines(the_journal(tmp_path / "game"))[1:]] == \
        [line for line in lines(the_journal(tmp_path / "plain"))[1:]]  # nothing journaled


def test_the_deal_acts_only_on_keys_pressed_after_its_prompt(tmp_path: Path) -> None:
    """Enters typed while the deal's lines are said (the last player pressing four times, two during the
    announcement) are dropped as each screen asks: kept, they showed the next seat's card with nobody at the screen,
    or hid a card before its player saw it. The game goes as with no key typed ahead."""
    keys, _ = game_keys()
    plain_speaker = Recorder()
    plain = a_game(APP, keys, tmp_path / "plain", speaker=plain_speaker)
    scripted = ScriptedKeys(keys)
    dealing = {VOICE.text("deal.app_intro", {})} | {turn(seat) for seat in range(1, SEATS + 1)}

    class Typing(Recorder):
        def say(self, text: str) -> None:
            super().say(text)
            if text in dealing:
                scripted.stray("enter", "enter", "enter", "enter")

    speaker, screen = Typing(), Shown()
    shown_after: list[int] = []
    screen.on_secret = lambda text: shown_after.append(len(scripted.keys))
    (tmp_path / "game").mkdir()
    game = play(APP, TableIO(scripted, screen, speaker), seed=SEED, start=NewGame(folder=tmp_path / "game"),
                timing=Timing(sleep=lambda s: None), out=io.StringIO())
    assert game.outcome == plain.outcome
    assert speaker.said == plain_speaker.said
    # Each card shown once its own seat's first Enter is read: three planned keys a seat.
    assert shown_after[:SEATS] == [len(keys) - 3 * seat + 2 for seat in range(1, SEATS + 1)]
    assert lines(the_journal(tmp_path / "game"))[1:] == lines(the_journal(tmp_path / "plain"))[1:]


def test_at_night_the_host_menu_shows_no_card_and_says_nothing(tmp_path: Path) -> None:
    """At Cupid's call (eyes closed) 6 is refused on the screen, the seat never asked: "Everyone close your
    eyes, seat three come to the screen" said mid-call would tell that someone is awake at it. Nothing more is said
    than without it, no card is shown, the journal is the same."""
    keys, _ = game_keys()
    at = 3 * SEATS + 3
    plain_speaker = Recorder()
    a_game(APP, keys, tmp_path / "plain", speaker=plain_speaker)
    screen, speaker = Shown(), Recorder()
    a_game(APP, keys[:at] + ["menu", "6", "enter"] + keys[at:], tmp_path / "game", screen=screen, speaker=speaker)
    assert speaker.said == plain_speaker.said
    assert VOICE.text("menu.card_not_now", {}) in screen.text
    assert card(CARDS.roles[2]) not in screen.text[screen.text.index(VOICE.text("menu.card_not_now", {})):]
    assert lines(the_journal(tmp_path / "game"))[1:] == lines(the_journal(tmp_path / "plain"))[1:]


def test_the_card_shown_again_is_never_among_the_call_s_secrets_shown_again(tmp_path: Path) -> None:
    """Two seats shown their cards during seat 2's turn: neither card, nor seat 2's, comes back when the deal goes
    on (the table's eyes were open)."""
    keys, ahead = game_keys()
    screen = Shown()
    a_game(APP, keys[:4] + card_again(3) + card_again(5) + keys[4:], tmp_path / "game", screen=screen)
    text = screen.text
    assert text.count(card(CARDS.roles[1])) == 1  # seat 2's card: once, before the menu
    after = text[text.index(VOICE.text("card_again.done", {"seat": 5})):]
    assert card(CARDS.roles[2]) not in after[:after.index(turn(3))]


def test_the_host_menu_shows_no_card_before_real_cards_are_identified(tmp_path: Path) -> None:
    cards = TableConfig("en", STARTER.table, deal="cards", pause=(0.0, 0.0))
    screen = Shown()
    with pytest.raises(EOFError):
        a_game(cards, ["menu", "6", "3", "enter", "enter"], tmp_path / "game", screen=screen)
    assert VOICE.text("menu.no_card", {}) in screen.text
    assert "card_again" not in screen.text and VOICE.text("card_again.call", {"seat": 3}) not in screen.text


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by scripts/setup.sh --test")
def test_in_a_terminal_the_card_waits_for_enter_then_hides_and_the_host_menu_shows_one_again(tmp_path: Path) -> None:
    """80×24: seat 1's screen asks for Enter before its card, shows it with "Press Enter to hide your card", hides it;
    the host menu then shows seat 3 its card, only once the narrator has said so, and hides it again."""
    from tmux import Tmux

    config = tmp_path / "table.yaml"
    config.write_text(STARTER_TABLE.format(language="en"), encoding="utf-8")
    seed = 11
    _, ahead = plan_keys(load_config(str(config))[0], seed)
    first, third = card(ahead.deal.roles[0])[:25], card(ahead.deal.roles[2])[:25]
    see, hide = VOICE.text("prompt.see_card", {}), VOICE.text("prompt.hide_card", {})
    tmux = Tmux(f"wn-see-{tmp_path.name}")
    tmux.start(f"{sys.executable} -m narrator play {config} --seed {seed} --journal-dir {tmp_path / 'j'}; sleep 60",
               width=80, height=24)
    try:
        shown = tmux.wait_for(see)
        assert turn(1)[:30] in shown and first not in shown
        tmux.send(["enter"])
        shown = tmux.wait_for(lambda shown: first in shown and hide in shown)
        assert see not in shown
        tmux.send(["enter"])
        shown = tmux.wait_for(VOICE.text("deal.app_hidden", {})[:20])
        assert first not in shown
        tmux.send(["menu", "6", "3", "enter"])
        shown = tmux.wait_for(see)
        assert VOICE.text("card_again.call", {"seat": 3})[:40] in shown and third not in shown
        tmux.send(["enter"])
        tmux.wait_for(lambda shown: third in shown and hide in shown)
        tmux.send(["enter"])
        shown = tmux.wait_for(VOICE.text("card_again.done", {"seat": 3})[:30])
        assert third not in shown and first not in shown
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True)
    assert [line for line in lines(next((tmp_path / "j").glob("*.jsonl")))[1:]] == [{"seen": 1}]  # nothing more


def test_the_deal_s_panel_is_titled_in_the_table_s_language_from_its_first_line(tmp_path: Path) -> None:
    """A Chinese table's panel said "werewolf-narrator" until the first seat's turn: it says 发牌 (the deal)."""
    zh = load_voice("zh")
    config = TableConfig("zh", STARTER.table, pause=(0.0, 0.0))
    screen = Shown()
    with pytest.raises(EOFError):
        a_game(config, ["enter"], tmp_path / "game", screen=screen)
    assert screen.titles[0] == zh.text("recap.deal_title", {})
