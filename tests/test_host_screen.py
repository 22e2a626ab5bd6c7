"""The seating circle (what the whole table may know of every seat, drawn to fit the terminal), the timers
the host sees (the debate's countdown, last words), and the host's lines (a repeat, a key that does nothing, the keys
that work now)."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from rich.cells import cell_len

from engine import Call, Deal, Game, Phase, Rules, Table, deal_cards
from engine.roles import cupid, raven
from engine.types import Kind
from helpers import Printed, play_keys
from keystrokes import Recorder, ScriptedKeys, after, keys_for
from narrator.asking import KeypadAnswers
from narrator.hostmenu import MenuHooks
from narrator.pacing import Pacing
from narrator.circle import SeatView, seating
from narrator.config import TableConfig
from narrator.play import NewGame, Timing, play
from narrator.table import TableIO
from narrator.screen import PlainScreen, draw_circle
from narrator.voices import load_voice

VOICE = load_voice("en")
NAMES = ("Ann", "Bruno", None, "David", "Emma", "Farid")
DECK = ("werewolf", "seer", "witch", "idiot", "cupid", "villager")


def six(deck: tuple[str, ...] = DECK, **rules: object) -> Game:
    return Game(Table(6, DECK, Rules(**rules)), Deal(deck, ()))  # type: ignore[arg-type]


def test_every_seat_shows_its_name_or_its_number_alone() -> None:
    shown = [seat.label() for seat in seating(VOICE, 6, NAMES, six())]
    assert shown == ["1 Ann", "2 Bruno", "3", "4 David", "5 Emma", "6 Farid"]


def test_before_the_game_the_circle_shows_the_seats_and_names_only() -> None:
    assert seating(VOICE, 3, ("Ann",)) == [SeatView(1, "Ann", True), SeatView(2, None, True), SeatView(3, None, True)]


def test_an_eliminated_seat_shows_its_card_only_when_the_table_reveals_cards() -> None:
    for reveal, card in ((True, "Witch"), (False, None)):
        game = six(reveal_roles=reveal)
        game.kill(3, "vote")
        view = seating(VOICE, 6, NAMES, game)[2]
        assert (view.alive, view.card) == (False, card)
        assert view.label() == ("3 ✝ Witch" if reveal else "3 ✝")


def test_the_sheriff_a_revealed_idiot_and_a_building_token_are_public_marks() -> None:
    game = six()
    game.appoint(2)
    game.mark(4, "revealed")
    game.hand_token(5, "vagabond")
    views = seating(VOICE, 6, NAMES, game)
    assert views[1].marks == ("Sheriff",)
    assert (views[3].card, views[3].label()) == ("Idiot", "4 David (Idiot)")
    assert views[4].marks == ("Vagabond",)


def test_the_ravens_mark_is_shown_by_day_only() -> None:
    game = six()
    game.keep(raven.Marked(5))
    game.state.begin(Phase.NIGHT)
    assert seating(VOICE, 6, NAMES, game)[4].marks == ()
    game.state.begin(Phase.DAY)
    assert seating(VOICE, 6, NAMES, game)[4].marks == ("Raven's mark",)


def test_no_secret_shows_two_deals_with_the_same_public_state_show_the_same_circle() -> None:
    """The lovers, the living's cards, the night's choices, secret marks: none changes the circle."""
    one = six()
    other = six(("seer", "werewolf", "cupid", "villager", "witch", "idiot"))
    other.keep(cupid.Lovers((1, 2)))
    other.mark(3, "infected")
    other.mark(6, "charmed")
    one.state.begin(Phase.NIGHT)
    other.state.begin(Phase.NIGHT)
    other.record(victim=4, pack=(2,))
    assert seating(VOICE, 6, NAMES, one) == seating(VOICE, 6, NAMES, other)


@pytest.mark.parametrize("seats", [6, 12, 18, 47])
@pytest.mark.parametrize("width, height", [(80, 9), (80, 14), (200, 40)])
def test_the_circle_fits_its_room_and_shows_every_seat_once(seats: int, width: int, height: int) -> None:
    views = [SeatView(n, f"Player{n:02d}", n % 4 != 0, "Werewolf" if n % 4 == 0 else None,
                      ("Sheriff",) if n == 1 else ()) for n in range(1, seats + 1)]
    lines = draw_circle(views, width, height)
    assert len(lines) <= height
    assert all(cell_len(line.plain) <= width for line in lines)
    numbers = [word for line in lines for word in line.plain.split() if word.isdigit()]
    assert sorted(map(int, numbers)) == list(range(1, seats + 1))


def test_twelve_seats_on_a_wide_enough_screen_sit_on_an_ellipse_seat_one_at_the_top() -> None:
    lines = [line.plain for line in draw_circle(seating(VOICE, 12, NAMES * 2), 80, 12)]
    assert lines[0].strip() == "1 Ann"
    assert lines[-1].strip() == "7 Ann"  # across the table
    left, right = lines[len(lines) // 2].split()[:2], lines[len(lines) // 2].split()[-2:]
    assert left[0] == "10" and right[0] == "4"


# -- the timers -------------------------------------------------------------------------------------------------


class Clocked:
    """Keys pressed at given times of a clock that only runs while the narrator waits for a key."""

    def __init__(self, presses: list[tuple[float, str]]) -> None:
        self.now = 0.0
        self.presses = presses

    def clock(self) -> float:
        return self.now

    def read(self, timeout: float | None = None) -> str | None:
        if self.presses and (timeout is None or self.presses[0][0] <= self.now + timeout):
            at, key = self.presses.pop(0)
            self.now = max(self.now, at)
            return key
        assert timeout is not None, "a key was awaited for ever"
        self.now += timeout
        return None

    def meanwhile(self, seconds: float) -> str | None:
        """A call made for nobody reads the keys pressed while it waits; those pressed before are the next calls'."""
        if self.presses and self.now < self.presses[0][0] <= self.now + seconds:
            return self.read(seconds)
        self.now += seconds
        return None

    def drain(self) -> None:
        pass  # presses come at their times: none is typed before the narrator reads

    def close(self) -> None:
        pass


class Timed(PlainScreen):
    """Remembers every countdown shown, the pause banner, the host's status lines and footers."""

    def __init__(self) -> None:
        super().__init__(io.StringIO(), terminal=False)
        self.shown: list[str] = []
        self.pauses: list[str] = []
        self.notices: list[str] = []
        self.footers: list[str] = []

    def notice(self, text: str, flash: bool = False) -> None:
        self.notices.append(text)

    def keys(self, text: str) -> None:
        self.footers.append(text)
        self.state.keys = text

    def countdown(self, text: str, left: int) -> None:
        self.shown.append(text)

    def paused(self, text: str) -> None:
        self.pauses.append(text)


def timed(presses: list[tuple[float, str]]) -> tuple[KeypadAnswers, Timed, list[str]]:
    keys, screen, said = Clocked(presses), Timed(), []
    answers = KeypadAnswers(keys, screen, VOICE, say=lambda key, values: said.append(key), repeat=lambda: None,
                            clock=keys.clock, debate_timer=62)
    return answers, screen, said


class Shown(Timed):
    """Remembers, besides, every question and every entry the call's panel showed."""

    def __init__(self) -> None:
        super().__init__()
        self.prompts: list[str] = []
        self.entries: list[str] = []
        self.refusals: list[str] = []

    def refusal(self, text: str) -> None:
        self.refusals.append(text)
        super().refusal(text)

    def prompt(self, text: str) -> None:
        self.prompts.append(text)
        super().prompt(text)

    def entry(self, text: str) -> None:
        self.entries.append(text)
        super().entry(text)


def nobodys(presses: list[tuple[float, str]], kind: Kind = Kind.SEAT) -> tuple[Clocked, Shown]:
    """A night call made for nobody (its character dead) lasting 5 s, the keys pressed at their times meanwhile."""
    keys, screen = Clocked(presses), Shown()
    pacing = Pacing(0.0, (5.0, 5.0), clock=keys.clock, sleep=lambda seconds: setattr(keys, "now", keys.now + seconds))
    answers = KeypadAnswers(keys, screen, VOICE, say=lambda key, values: None, repeat=lambda: None, clock=keys.clock,
                            pacing=pacing)
    call = Call("seer", Phase.NIGHT, 1, kind, live=False, seats=(1, 2, 3, 4, 5, 6), optional=True)
    assert answers.answer(call, six()) is None
    return keys, screen


def test_a_call_made_for_nobody_asks_as_a_living_one_and_lasts_its_time() -> None:
    """Its question and its keys line, as the living Seer's: a glance at the screen tells nothing."""
    keys, screen = nobodys([])
    assert screen.prompts == [VOICE.text("prompt.seat_or_none", {})] and keys.now == 5.0
    assert screen.footers == [VOICE.text("screen.keys_number", {})]


def test_the_host_menu_works_at_a_call_made_for_nobody_and_its_time_is_not_the_call_s() -> None:
    """M opened nothing there: the menu, its pause (10 s), then the call waits out the rest of its 5 s."""
    keys, screen = nobodys([(1.0, "menu"), (1.0, "3"), (11.0, "enter")])
    assert VOICE.text("menu.title_night", {}) in screen.prompts
    assert screen.pauses == [VOICE.text("screen.paused", {}), ""]
    assert screen.prompts[-1] == VOICE.text("prompt.seat_or_none", {})  # the question again, after the menu
    assert keys.now == 15.0


def test_a_seat_typed_at_a_call_made_for_nobody_is_read_back_confirmed_and_ignored() -> None:
    """What a living call does with it, on the screen: the digit, the read-back, the confirmation; the answer
    the engine gets is none, and the call lasts its time."""
    keys, screen = nobodys([(1.0, "9"), (1.5, "5"), (2.0, "enter"), (2.5, "enter")])
    assert VOICE.text("refusal.no_such_seat", {"seat": 9}) in screen.refusals  # the table's size: public
    assert "5" in screen.entries and VOICE.text("answer.heard", {"answer": VOICE.seat(5)}) in screen.entries
    assert screen.prompts[-1] == VOICE.text("answer.confirmed", {}) and keys.now == 5.0


def test_a_terminal_gives_a_call_made_for_nobody_the_keys_pressed_meanwhile_but_none_typed_ahead(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At a table, M pressed during a dead character's call opens the menu; a whole game typed at once (the terminal
    tests' TYPE_AHEAD) keeps its keys for the calls they answer, the call waiting out its time."""
    import os
    import time

    from narrator.keypad import TYPE_AHEAD, TerminalKeys

    primary, terminal = os.openpty()
    keys = TerminalKeys(terminal)
    try:
        monkeypatch.delenv(TYPE_AHEAD, raising=False)
        os.write(primary, b"m")
        assert keys.meanwhile(30) == "menu"
        assert keys.meanwhile(0.05) is None
        monkeypatch.setenv(TYPE_AHEAD, "1")
        os.write(primary, b"5")
        start = time.monotonic()
        assert keys.meanwhile(0.2) is None and time.monotonic() - start >= 0.2
        assert keys.read(30) == "5"  # left for the call it answers
    finally:
        keys.close()
        os.close(primary)
        os.close(terminal)


def test_the_debate_counts_down_each_second_and_warns_a_minute_before() -> None:
    answers, screen, said = timed([])
    assert answers.countdown(62, "screen.debate_left", warn=True) is False
    assert screen.shown[:3] == ["Debate: 1:02 left", "Debate: 1:01 left", "Debate: 1:00 left"]
    assert screen.shown[-2:] == ["Debate: 0:01 left", ""]  # gone when it is over
    assert len(screen.shown) == 63
    assert said == ["debate.warning", "debate.over"]


def test_a_repeat_during_the_debate_says_the_call_again_and_the_time_runs_on() -> None:
    keys, screen, said, repeated = Clocked([(10.5, "repeat"), (20.5, "menu"), (20.5, "2")]), Timed(), [], []
    answers = KeypadAnswers(keys, screen, VOICE, say=lambda key, values: said.append(key),
                            repeat=lambda: repeated.append(keys.now), clock=keys.clock)
    answers.countdown(62, "screen.debate_left", warn=True, repeat=lambda: repeated.append(keys.now))
    assert repeated == [10.5, 20.5]
    assert keys.now == 62.0 and said == ["debate.warning", "debate.over"]


def test_a_card_shown_again_during_the_debate_gives_the_debate_its_question_back() -> None:
    """The host menu's 6 by day shows a seat its card in the call's panel; back to the debate, "Press Enter when
    done" was gone from it while the time ran on."""
    keys, screen = Clocked([(1.5, "menu"), (1.5, "6"), (1.5, "5"), (1.5, "enter"), (3.5, "enter")]), Timed()
    shown: list[int] = []

    def card_again(seat: int) -> bool:
        screen.show_call(f"Seat {seat}", "")  # the card's own moment, in the call's place
        shown.append(seat)
        return True

    answers = KeypadAnswers(keys, screen, VOICE, say=lambda key, values: None, repeat=lambda: None,
                            clock=keys.clock, debate_timer=62, menu=MenuHooks(card_again=card_again))
    answers.debate()
    assert shown == [5] and keys.now == 3.5
    assert screen.state.prompt == VOICE.text("prompt.done", {})


def test_enter_ends_the_last_words_sooner_and_they_warn_of_nothing() -> None:
    answers, screen, said = timed([(4.5, "enter")])
    assert answers.countdown(30, "screen.last_words_left") is True
    assert screen.shown == [f"Last words: 0:{s} left" for s in range(30, 25, -1)] + [""]
    assert said == []


@pytest.mark.parametrize("language, debate, last_words", [("en", "debate", "last words"),
                                                        ("fr", "débat", "derniers mots"), ("zh", "发言", "遗言")])
def test_the_footer_names_what_enter_ends_the_debate_or_the_last_words(language: str, debate: str,
                                                                      last_words: str) -> None:
    """During last words the footer said "end them now" (what?), beside a countdown: it names them, in the
    table's language, as the debate's names the debate."""
    voice = load_voice(language)
    keys, screen = Clocked([(1.0, "enter"), (1.0, "enter")]), Timed()
    answers = KeypadAnswers(keys, screen, voice, say=lambda key, values: None, repeat=lambda: None,
                            clock=keys.clock, debate_timer=62)
    answers.debate()
    assert answers.countdown(30, "screen.last_words_left") is True
    assert screen.footers == [voice.text("screen.keys_timer"), voice.text("screen.keys_last_words")]
    assert debate in screen.footers[0].lower() and last_words not in screen.footers[0].lower()
    assert last_words in screen.footers[1].lower() and debate not in screen.footers[1].lower()
    assert all(cell_len(footer) <= 79 for footer in screen.footers)  # one line of an 80-column screen


def test_a_pause_shows_its_banner_and_holds_the_countdown() -> None:
    answers, screen, said = timed([(2.5, "menu"), (2.5, "3"), (100.0, "enter")])
    answers.countdown(5, "screen.debate_left", warn=True)
    assert screen.pauses == ["PAUSED · Enter: go on", ""]
    after_pause = screen.shown[screen.shown.index("Debate: 0:03 left") + 1]
    assert after_pause == "Debate: 0:03 left"  # the 97.5 s paused did not count: 2.5 s were still left
    assert said == ["notice.paused", "notice.resumed", "debate.over"]


def test_the_host_menu_and_the_pause_show_their_own_keys_then_the_calls_again() -> None:
    """The footer showed the call's keys (0-9, Backspace, U…) in the host menu and the pause, where they do nothing."""
    answers, screen, said = timed([(2.5, "menu"), (2.5, "3"), (100.0, "enter")])
    answers.countdown(5, "screen.last_words_left")
    assert screen.footers == [VOICE.text(key) for key in ("screen.keys_last_words", "screen.keys_menu",
                                                          "screen.keys_paused", "screen.keys_last_words")]


def test_after_the_host_menu_the_table_sees_again_what_to_type() -> None:
    """The menu's pause during the debate, then the menu left at a read-back: "Press Enter when done." and the
    read-back waiting for Enter are on the screen again (they were gone, and the table no longer knew what to type)."""
    answers, screen, said = timed([(2.5, "menu"), (2.5, "3"), (9.0, "enter"), (9.0, "enter")])
    answers.debate()
    assert screen.pauses == ["PAUSED · Enter: go on", ""] and screen.state.prompt == VOICE.text("prompt.done")
    answers, screen, said = timed([(0.0, "4"), (0.0, "enter"), (0.0, "menu"), (0.0, "enter")])
    entries: list[str] = []
    screen.entry = lambda text: (entries.append(text), PlainScreen.entry(screen, text))  # type: ignore[method-assign]
    answers.keys.presses.append((0.0, "enter"))  # type: ignore[attr-defined]
    assert answers.seat(optional=False) == 4
    assert entries[-1] == entries[-2] == VOICE.text("answer.heard", {"answer": VOICE.seat(4, ())})


def test_undo_from_the_host_menu_with_nothing_to_undo_says_so_in_the_status_line() -> None:
    answers, screen, said = timed([(0.0, "menu"), (0.0, "1"), (0.0, "enter")])
    answers.enter()
    assert screen.notices == [VOICE.text("menu.nothing_to_undo")]


def test_a_player_voted_out_is_given_last_words_when_the_table_wants_them(tmp_path: Path) -> None:
    table = Table(6, DECK, Rules(sheriff=False))
    config = TableConfig("en", table, names=NAMES, pause=(0.0, 0.0), call_floor=0.0, last_words=30)
    seed = 12  # a game where the village votes two players out

    game = Game(table, deal_cards(table, seed))
    keys, rng, voted_out = ["enter"] * 3 * 6, random.Random(seed), 0
    while not game.over:
        call = game.call
        assert call is not None
        value = rng.choice(game.legal()) if call.needs_answer else None
        keys += keys_for(call, value)
        step = game.answer(value)
        keys += after(step)
        if call.kind is Kind.VOTE and not game.over and any(
                f.key == "death" and f.values.get("cause") == "vote" for f in step.facts):
            keys.append("enter")  # the last words ended sooner
            voted_out += 1
    assert voted_out, "this seed's game must vote someone out before its end"
    speaker = Recorder()
    screen = PlainScreen(io.StringIO())
    panels: list[str] = []  # the line heading the call's panel as each countdown shows
    countdown = screen.countdown
    screen.countdown = lambda text, left: (panels.append(screen.said[0] if screen.said else ""),  # type: ignore
                                           countdown(text, left))[1]
    play(config, TableIO(Clocked([(0.0, k) for k in keys]), screen, speaker), seed=seed,
         start=NewGame(folder=tmp_path), timing=Timing(sleep=lambda s: None), out=io.StringIO())
    words = [line for line in speaker.said if "you may say your last words" in line]
    assert len(words) == voted_out
    # The countdown stands under the last words' own line, not under the vote's question.
    assert panels and all("you may say your last words" in panel for panel in panels if panel)


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_the_debates_end_calls_the_vote_then_gives_its_signal_before_the_result_is_typed(language: str,
                                                                                       tmp_path: Path) -> None:
    """"On my signal, everyone points…": the signal follows, in the table's language. The first debate runs out
    (Enter is pressed for the others): "Time is up", the vote's call, its signal, and only then the read-back."""
    voice = load_voice(language)
    table = Table(6, DECK, Rules(sheriff=False))
    config = TableConfig(language, table, names=NAMES, pause=(0.0, 0.0), call_floor=0.0, debate_timer=3)
    seed = 12
    game = Game(table, deal_cards(table, seed))
    presses, at, rng, voted = [(0.0, "enter")] * 3 * 6, 0.0, random.Random(seed), []
    while not game.over:
        call = game.call
        assert call is not None
        value = rng.choice(game.legal()) if call.needs_answer else None
        keys = keys_for(call, value)
        if call.id == "debate" and not at:
            keys, at = [], 10.0  # the first debate runs out: its 3 s pass before any key after it is pressed
        if call.id == "vote":
            voted.append(value)
        presses += [(at, key) for key in keys + after(game.answer(value))]
    speaker, keypad = Recorder(), Clocked(presses)
    play(config, TableIO(keypad, PlainScreen(io.StringIO()), speaker), seed=seed, start=NewGame(folder=tmp_path),
         timing=Timing(sleep=lambda s: None, clock=keypad.clock), out=io.StringIO())
    over = speaker.said.index(voice.spoken(voice.text("debate.over")))
    signal = voice.spoken(voice.text("vote.signal"))
    assert speaker.said[over + 1:over + 3] == [voice.spoken(voice.text("vote.call")), signal]
    typed = voice.text("answer.none") if voted[0] is None else voice.seat(voted[0], NAMES)
    assert speaker.said[over + 3] == voice.spoken(voice.text("answer.heard", {"answer": typed}))  # read back, said
    assert speaker.said.count(signal) == sum(1 for said in speaker.said if said == voice.spoken(voice.text("vote.call")))


# -- the host's lines -------------------------------------------------------------------------------------------


def test_a_key_that_does_nothing_here_flashes_a_hint_and_the_answer_goes_on() -> None:
    answers, screen, said = timed([(0.0, "other"), (0.0, "tie"), (0.0, "4"), (0.0, "enter"), (0.0, "enter")])
    assert answers.seat(optional=False) == 4
    hint = VOICE.text("screen.wrong_key")
    assert screen.notices == [hint, hint]  # an unknown key, then the tie key where no tie may be typed


def test_the_deal_shows_only_the_keys_that_work_there_in_the_tables_language() -> None:
    for language in ("en", "fr", "zh"):
        voice = load_voice(language)
        keys, screen = Clocked([(0.0, "enter")]), Timed()
        KeypadAnswers(keys, screen, voice, say=lambda key, values: None, repeat=lambda: None).enter()
        assert screen.footers == [voice.text("screen.keys_wait")]
    assert "U" not in VOICE.text("screen.keys_wait") and "T" not in VOICE.text("screen.keys_wait")


def test_a_repeat_leaves_a_trace_on_the_screen() -> None:
    from narrator.narration import VOICE as SAID
    from narrator.table_narrator import TableNarrator

    screen = Timed()
    narrator = TableNarrator(VOICE, screen, Recorder())
    narrator.line("debate.call", SAID)
    narrator.repeat()
    assert screen.notices == [VOICE.text("screen.repeated", {"text": VOICE.text("debate.call")})]


def test_the_keypad_reads_a_key_it_has_no_use_for_as_other() -> None:
    import os

    from narrator.keypad import TerminalKeys

    primary, terminal = os.openpty()
    try:
        keys = TerminalKeys(terminal)
        os.write(primary, b"hx5")
        assert [keys.read(1), keys.read(1), keys.read(1)] == ["other", "other", "5"]
        keys.close()
    finally:
        os.close(primary)
        os.close(terminal)


def test_a_terminal_resized_while_a_key_is_awaited_has_its_screen_drawn_again_with_no_key() -> None:
    """A resize blanked the full screen until a key was pressed, and that key (Enter) was an answer: the
    screen is drawn again as the keypad waits, the wait goes on, and the key typed next is read as before."""
    import os
    import signal

    from narrator.keypad import TerminalKeys

    primary, terminal = os.openpty()
    drawn: list[str] = []
    try:
        keys = TerminalKeys(terminal, on_resize=lambda: drawn.append("again"))
        os.kill(os.getpid(), signal.SIGWINCH)
        assert keys.read(0.2) is None and drawn == ["again"]  # no key: the wait ran on to its end
        os.kill(os.getpid(), signal.SIGWINCH)
        os.write(primary, b"5")
        assert keys.read(5) == "5" and drawn == ["again", "again"]
        keys.close()
    finally:
        os.close(primary)
        os.close(terminal)


def test_the_plain_screen_prints_the_circle_as_one_line_when_it_changes_and_only_on_a_terminal() -> None:
    for terminal in (True, False):
        out = io.StringIO()
        screen = PlainScreen(out, terminal=terminal)
        game = six()
        screen.seating(seating(VOICE, 6, NAMES, game))
        screen.seating(seating(VOICE, 6, NAMES, game))
        game.appoint(1)
        screen.seating(seating(VOICE, 6, NAMES, game))
        assert out.getvalue().splitlines() == (["1 Ann · 2 Bruno · 3 · 4 David · 5 Emma · 6 Farid",
                                     "1 Ann [Sheriff] · 2 Bruno · 3 · 4 David · 5 Emma · 6 Farid"] if terminal else [])


def test_a_repeat_after_a_pause_says_the_call_not_the_game_goes_on() -> None:
    # Found at a table: r after the host menu's pause said "The game goes on." again instead of the debate's call.
    from narrator.narration import VOICE as SAID
    from narrator.table_narrator import TableNarrator

    speaker = Recorder()
    narrator = TableNarrator(VOICE, Timed(), speaker)
    narrator.line("debate.call", SAID)
    for key in ("notice.paused", "notice.resumed", "debate.warning", "answer.undone"):
        narrator.line(key, SAID)
    speaker.said.clear()
    narrator.repeat()
    assert speaker.said == [VOICE.spoken(VOICE.text("debate.call"))]


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_no_speech_model_is_told_in_the_tables_language_with_the_command_that_fetches_one(language: str) -> None:
    """The warning stays in the status line the whole game: in the table's language, as the rest of the screen."""
    from narrator.hearing import start_listener

    told: list[str] = []
    assert start_listener(language, None, None, told.append) == (None, None)  # the tests' data folder has none
    assert told == [load_voice(language).text("screen.no_model",
                                              {"command": f"werewolf-narrator models fetch {language}"})]
    assert told[0].endswith(f"werewolf-narrator models fetch {language}")


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_no_sound_is_told_in_the_tables_language(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """No loudspeaker is said in the table's language ("no sound output device found" stood in English in a Chinese
    sentence); what else is missing keeps the system's words (a package to install), in a sentence of the table's."""
    import narrator.speak as speak

    voice = load_voice(language)
    monkeypatch.setattr(speak, "output_problem", lambda device=None: speak.NO_OUTPUT)
    told: list[str] = []
    assert speak.make_speaker("auto", language, warn=told.append).name == "console"
    assert told == [voice.text("screen.no_sound", {"why": voice.text("sound.no_output", {})})]
    assert language == "en" or speak.NO_OUTPUT not in told[0]
    missing = "the PortAudio library is missing (sudo apt-get install libportaudio2)"
    monkeypatch.setattr(speak, "output_problem", lambda device=None: missing)
    told.clear()
    assert speak.make_speaker("auto", language, warn=told.append).name == "console"
    assert told == [voice.text("screen.no_sound", {"why": missing})]


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_a_line_said_by_the_fallback_voice_is_told_to_the_host_in_the_tables_language(language: str) -> None:
    from narrator.speak.rendered import RenderedSpeaker

    speaker = RenderedSpeaker(cache=False)
    speaker.language = language
    command = "werewolf-narrator voices render fr --config table.yaml"
    told = speaker._told("screen.not_rendered", "english", fallback="espeak-ng", command=command)
    assert told == load_voice(language).text("screen.not_rendered", {"fallback": "espeak-ng", "command": command})
    assert told.endswith(command) and "espeak-ng" in told
    speaker.language = ""  # a speaker of no table (the benchmarks): English
    assert speaker._told("screen.not_rendered", "not {fallback}", fallback="v") == "not v"


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_the_command_that_renders_a_tables_lines_fits_the_status_line_whole_at_80_columns(language: str) -> None:
    """The command is what the host needs from that message: at 80 columns it wraps between words, never cut."""
    from types import SimpleNamespace

    from rich.console import Console

    from narrator.screen import RichScreen

    command = f".venv/bin/werewolf-narrator voices render {language} --config ~/tables/friday-night-{language}.yaml"
    told = load_voice(language).text("screen.not_rendered", {"fallback": "espeak-ng", "command": command})
    shown = RichScreen._status_lines(SimpleNamespace(console=Console(width=80)), told, 80)  # type: ignore[arg-type]
    assert all(line.cell_len <= 80 for line in shown) and not str(shown[-1]).endswith("…")
    assert " ".join(str(line).strip() for line in shown).endswith(command)


# -- keys typed before a night call ------------------------------------------------------------------------------


def test_the_keypad_forgets_the_keys_typed_before_it_drains_and_keeps_those_typed_after(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A real terminal: a stray key typed while nobody reads (a floor's wait, a dead character's call) is flushed when
    a night call opens; a key typed after it is read. With TYPE_AHEAD (the tests that type a whole game at once into a
    terminal), nothing is flushed."""
    import os
    import time

    from narrator.keypad import TYPE_AHEAD, TerminalKeys

    for ahead, kept in (("", ["7"]), ("1", ["5", "7"])):
        monkeypatch.setenv(TYPE_AHEAD, ahead)
        primary, terminal = os.openpty()
        try:
            keys = TerminalKeys(terminal)
            os.write(primary, b"5")
            time.sleep(0.1)  # nobody reads: the key waits in the terminal's input
            keys.drain()
            os.write(primary, b"7")
            assert [keys.read(1) for _ in kept] == kept
            assert keys.read(0.05) is None
            keys.close()
        finally:
            os.close(primary)
            os.close(terminal)


def eight(*roles: str) -> Game:
    return Game(Table(8, roles, Rules(sheriff=False)), Deal(roles, ()))


def reach(game: Game, call: str) -> Call:
    while game.call is not None and game.call.id != call:
        game.answer(None)
    assert game.call is not None
    return game.call


def keypad(keys: ScriptedKeys, shown: io.StringIO) -> KeypadAnswers:
    """The keypad, its screen printing everything it shows (the host's status line too) to ``shown``."""
    return KeypadAnswers(keys, Printed(shown, terminal=True), VOICE, say=lambda k, v: None, repeat=lambda: None)


def test_a_stray_key_typed_before_a_night_call_is_not_its_answer() -> None:
    """"5" typed during the Seer's floor (or her call made for the dead) was read by the next call: the werewolves'
    answer began with it ("56"). The call opening drops it; the answer typed once it is open is read whole."""
    game = eight("seer", "werewolf", "villager", "villager", "werewolf", "villager", "villager", "villager")
    keys = ScriptedKeys(["3", "enter", "enter", "6", "enter", "enter"])
    answers = keypad(keys, io.StringIO())
    game.answer(answers.answer(reach(game, "seer"), game))
    keys.stray("5")  # the Seer's floor: a key pressed while nobody reads
    assert answers.answer(reach(game, "werewolves"), game) == 6


def test_after_a_refusal_at_night_the_keys_typed_next_count() -> None:
    """At Cupid's call at 8 seats, "9 Enter 1 Enter 4 Enter" kept only 4: seat 9 is refused as it is typed (on the
    screen: it is night), so that 1 and 4, typed after the refusal, are the lovers. An answer the engine refuses whole
    (the same seat twice) is asked again, and the keys typed while its refusal showed are read."""
    game = eight("cupid", "werewolf", "villager", "villager", "werewolf", "villager", "villager", "villager")
    cupid_call = reach(game, "cupid")
    shown = io.StringIO()
    answers = keypad(ScriptedKeys(["9", "enter", "1", "enter", "4", "enter", "enter"]), shown)
    assert answers.answer(cupid_call, game) == [1, 4]
    assert VOICE.text("refusal.no_such_seat", {"seat": 9}) in shown.getvalue()
    keys = ScriptedKeys(["2", "enter", "2", "enter"])
    answers = keypad(keys, shown)
    assert answers.answer(cupid_call, game) == [2, 2]  # refused by the engine: narration.run says why, asks again
    keys.stray("3", "enter", "5", "enter", "enter")  # typed while the refusal showed
    assert answers.answer(cupid_call, game) == [3, 5]


def test_a_digit_at_the_read_back_shows_the_hint() -> None:
    """"4" typed over "Seat two, seat one?" did nothing at all: it shows the hint (Backspace changes the answer)."""
    game = eight("cupid", "werewolf", "villager", "villager", "werewolf", "villager", "villager", "villager")
    shown = io.StringIO()
    answers = keypad(ScriptedKeys(["2", "enter", "1", "enter", "4", "enter"]), shown)
    assert answers.answer(reach(game, "cupid"), game) == [2, 1]
    assert shown.getvalue().count(VOICE.text("screen.wrong_key")) == 1


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_every_footer_fits_an_80_column_terminal(language: str) -> None:
    """The French vote's footer was 81 cells: at 80×24 its last key, M for the host menu, was cut."""
    voice = load_voice(language)
    footers = {key: cell_len(voice.text(key)) for key in voice.lines if key.startswith("screen.keys")}
    assert len(footers) >= 7 and max(footers.values()) <= 80, footers


def drawn(width: int, height: int, notice: str = "", said: int = 0) -> list[str]:
    """What a full screen (RichScreen) of ``width`` × ``height`` shows of a 12-seat table, with ``notice`` in the
    host's status line and ``said`` lines said."""
    from rich.console import Console

    from narrator.screen import RichScreen, ScreenState, TableState

    screen = RichScreen.__new__(RichScreen)  # drawn, not started: no terminal taken over
    screen.console = Console(file=io.StringIO(), width=width, height=height, force_terminal=True, color_system=None)
    screen.title = VOICE.text("screen.title")
    screen.state = ScreenState(title="Night 1", spoken="It is night.", log=[f"line {n}" for n in range(1, said + 1)],
                               keys=VOICE.text("screen.keys_wait"))
    screen.table = TableState(seats=tuple(seating(VOICE, 12, ())), eyes="EYES CLOSED", eyes_open=False, notice=notice)
    screen.console.print(screen._render())
    lines = screen.console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == height
    return lines


def test_two_warnings_at_80_columns_keep_the_command_that_fetches_the_model_whole() -> None:
    """"No sound output device found: …" and "No speech model: … run COMMAND", joined, were cut after two lines: the
    command a new host needs was an ellipsis. Each begins a line of its own now, the command whole."""
    command = ".venv/bin/werewolf-narrator models fetch en"
    notice = " · ".join([VOICE.text("screen.no_sound", {"why": "No sound output device found"}),
                         VOICE.text("screen.no_model", {"command": command})])
    lines = drawn(80, 24, notice)
    assert lines[-1].strip() == VOICE.text("screen.keys_wait")
    assert command in "".join(line.strip() + " " for line in lines[-4:-1]).replace("  ", " ")
    assert lines[-4].startswith("No sound output device found")


def test_a_tall_screen_shows_the_lines_said_in_the_rows_the_circle_leaves() -> None:
    """At 200×60 about 30 rows stayed blank below the circle while only the last 6 lines said were shown."""
    tall = [line.strip() for line in drawn(200, 60, said=80)]
    shown = [line for line in tall if line.startswith("line ")]
    assert len(shown) >= 25 and shown[-1] == "line 80"
    assert [line for line in drawn(80, 24, said=80) if line.strip().startswith("line ")]  # and some at 80×24


def test_a_refusal_said_by_day_stays_in_the_calls_panel_and_one_at_night_is_shown_there_only() -> None:
    """"Chloe, seat number three, has been eliminated." was said and added to the log at the bottom only: a host
    without sound, looking at the prompt typed again, never saw it. By day it is in the panel too; at night (on the
    screen only) as before; either way on the refusal's own line, not among the call's secrets."""
    from engine import IllegalAnswer
    from narrator.table_narrator import TableNarrator

    for phase, said in ((Phase.DAY, 1), (Phase.NIGHT, 0)):
        screen, speaker = Timed(), Recorder()
        narrator = TableNarrator(VOICE, screen, speaker)
        call = Call("vote" if phase is Phase.DAY else "seer", phase, 1, Kind.SEAT, seats=(1, 2, 4))
        narrator.refuse(call, IllegalAnswer("out", key="refusal.eliminated", seat=3))
        line = VOICE.text("refusal.eliminated", {"seat": 3})
        assert screen.state.refusal == line and screen.state.secrets == [] and len(speaker.said) == said


# -- refusals on a line of their own, the Witch's potions ---------------------------------------------------------


class Watching(ScriptedKeys):
    """Keys typed in order; before each is read, what the screen's call panel shows: (the key about to be read, the
    refusal's line, the secrets, the prompt)."""

    def __init__(self, keys: list[str], screen: PlainScreen) -> None:
        super().__init__(keys)
        self.screen = screen
        self.seen: list[tuple[str, str, tuple[str, ...], str]] = []

    def read(self, timeout: float | None = None) -> str | None:
        key = super().read(timeout)
        state = self.screen.state
        self.seen.append((key or "", state.refusal, tuple(state.secrets), state.prompt))
        return key


def night_one(deck: tuple[str, ...], keys: list[str], tmp_path: Path) -> Watching:
    """Plays ``keys`` into night 1 of an 8-seat table dealt ``deck`` in seat order, until they run out."""
    table = Table(8, deck, Rules(sheriff=False))
    screen = PlainScreen(io.StringIO(), terminal=True)
    watched = Watching(keys, screen)
    with pytest.raises(EOFError):
        play_keys(TableConfig("en", table, pause=(0.0, 0.0), call_floor=0.0), watched, seed=1, screen=screen,
                  start=NewGame(folder=tmp_path, deal=Deal(deck, ())))
    return watched


def test_a_refusal_at_night_has_a_line_of_its_own_gone_with_the_next_key_never_among_the_secrets(
        tmp_path: Path) -> None:
    """Cupid at 8 seats types 9 (refused as typed), then names seat 1 twice (refused by the engine), then 9 again:
    each refusal stands alone on its line, in the place of the one before, until the next key; none joins the call's
    secrets, where a leftover refusal once stood under a later question."""
    deck = ("cupid", "werewolf", "villager", "villager", "werewolf", "villager", "villager", "villager")
    keys = ["9", "1", "enter", "1", "enter", "9", "2", "enter", "3", "enter"]  # [1, 1] is refused before a read-back
    seen = night_one(deck, keys, tmp_path).seen
    no_seat, twice = VOICE.text("refusal.no_such_seat", {"seat": 9}), VOICE.text("refusal.twice", {})
    refusals = [refusal for _, refusal, _, _ in seen]
    # As each key is awaited: nothing refused; 9 refused; gone with "1"; ...; [1, 1] refused; then 9's in its place.
    assert refusals == ["", no_seat, "", "", "", twice, no_seat, "", "", ""]
    assert not [secrets for _, _, secrets, _ in seen if no_seat in secrets or twice in secrets]
    assert [prompt for _, refusal, _, prompt in seen if refusal] == [VOICE.text("prompt.seats", {"count": 2})] * 3



def test_a_seat_beyond_the_table_refused_as_typed_stays_through_the_enter_typed_after_it(tmp_path: Path) -> None:
    """9 at 8 seats is refused as it is typed: a player who types "9" and Enter quickly saw the reason taken away by
    that Enter, unread. Enter (which does nothing on an empty entry) leaves it; the next digit takes it away."""
    deck = ("cupid", "werewolf", "villager", "villager", "werewolf", "villager", "villager", "villager")
    keys = ["9", "enter", "enter", "1", "enter", "2", "enter", "enter"]
    seen = night_one(deck, keys, tmp_path).seen
    no_seat = VOICE.text("refusal.no_such_seat", {"seat": 9})
    # As each key is awaited: nothing refused; 9 refused, through two Enters; gone with "1".
    assert [refusal for _, refusal, _, _ in seen] == ["", no_seat, no_seat, no_seat, "", "", "", ""]

def test_a_number_that_is_no_answer_to_a_choice_is_refused_on_its_line() -> None:
    """"5" and Enter at a yes/no question did nothing at all, the question shown again: it is refused (on the
    screen at night, aloud too by day) until the next key."""
    for day in (False, True):
        keys, screen, said = ScriptedKeys(["5", "enter", "1", "enter", "enter"]), Timed(), []
        answers = KeypadAnswers(keys, screen, VOICE, say=lambda key, values: said.append(key), repeat=lambda: None)
        answers.day = day
        refused: list[str] = []
        screen.refusal = lambda text: (refused.append(text), PlainScreen.refusal(screen, text))  # type: ignore
        assert answers.choice("prompt.yes_no", {1: (True, "yes"), 0: (False, "no")}) is True
        assert VOICE.text("refusal.not_an_option", {"number": 5}) in refused
        assert screen.state.refusal == ""  # gone with the keys typed since
        assert said == (["refusal.not_an_option", "answer.heard"] if day else [])  # by day, said as read back


def test_the_witchs_potions_line_says_what_she_holds_once_she_heals_and_again_when_she_is_asked_again(
        tmp_path: Path) -> None:
    """The list her call showed ("healing and poison") stayed on the screen under the one shown once she had healed
    ("poison"): two lines that disagreed. The new one takes its place; asked again (she named her own seat, refused),
    the list is whole again, and the refusal is gone with her next key but Enter."""
    deck = ("werewolf", "werewolf", "villager", "witch", "villager", "villager", "villager", "villager")
    keys = ["3", "enter", "enter",  # the pack: seat 3
            "1", "enter", "enter",  # the Witch heals seat 3
            "4", "enter", "enter",  # and poisons herself: refused
            "0", "enter", "enter", "0", "enter"]
    seen = night_one(deck, keys, tmp_path).seen
    every = VOICE.text("screen.potions", {"potions": "healing and poison"})
    left = VOICE.text("screen.potions", {"potions": "poison"})
    poison_prompt = VOICE.text("prompt.poison")
    at_poison = [secrets for _, _, secrets, prompt in seen if prompt == poison_prompt]
    assert len(at_poison) == 4  # "4" and Enter once she has healed; "0" and Enter once she has not
    assert all(left in secrets and every not in secrets for secrets in at_poison[:2])
    assert all(every in secrets and left not in secrets for secrets in at_poison[2:])
    refused = VOICE.text("refusal.self", {})
    again = next(i for i, (_, refusal, _, _) in enumerate(seen) if refusal == refused)
    _, _, secrets, prompt = seen[again]
    assert prompt == VOICE.text("prompt.heal") and every in secrets and left not in secrets
    # Refused as she confirmed, her next Enter did nothing and left it there; her "0" took it away.
    assert seen[again + 1][0] == "0" and seen[again + 1][1] == refused
    assert seen[again + 2][1] == ""


def test_the_full_screen_shows_a_refusal_on_a_line_of_its_own_replaced_by_the_next() -> None:
    """RichScreen: the refusal's line under the secrets, one at a time; "" and the end of the call take it away."""
    from rich.console import Console

    from narrator.screen import RichScreen, ScreenState, TableState

    screen = RichScreen.__new__(RichScreen)  # drawn, not started: no terminal taken over
    screen.console = Console(file=io.StringIO(), width=80, height=24, force_terminal=True, color_system=None)
    screen.state, screen.table, screen.title = ScreenState(title="Night 1", spoken="Cupido, wake up."), TableState(), ""
    screen.live = type("Live", (), {"update": lambda self, *a, **k: None})()  # type: ignore[assignment]

    def panel() -> list[str]:
        screen.console.file = io.StringIO()
        screen.console.print(screen._render())
        return [line.strip(" │") for line in screen.console.file.getvalue().splitlines()]  # type: ignore

    screen.secret("Your lovers are seated.")
    screen.refusal("There is no seat number nine at this table.")
    screen.refusal("The same player is named twice.")
    shown = panel()
    assert "The same player is named twice." in shown and not any("seat number nine" in line for line in shown)
    assert shown.index("The same player is named twice.") == shown.index("Your lovers are seated.") + 1
    screen.refusal("")
    assert not any("named twice" in line for line in panel())
    screen.refusal("The same player is named twice.")
    screen.clear()
    assert not any("named twice" in line for line in panel()) and screen.state.refusal == ""


def test_in_the_dark_a_calls_panel_is_as_tall_with_its_secrets_as_without() -> None:
    """A glance at the screen must not tell a live Witch (her victim, her potions) from one who is out (nothing to
    show): with the eyes closed the panel keeps the room of a night call's secrets; by day it fits what it shows."""
    from rich.console import Console

    from narrator.screen import DARK_SECRET_ROWS, RichScreen, ScreenState, TableState

    def height(secrets: list[str], eyes_open: bool) -> int:
        screen = RichScreen.__new__(RichScreen)  # drawn, not started: no terminal taken over
        screen.console = Console(file=io.StringIO(), width=80, height=40, force_terminal=True, color_system=None)
        screen.state = ScreenState(title="Night 2", spoken="The Witch wakes up.", prompt="Type a seat number")
        screen.table, screen.title = TableState(eyes_open=eyes_open), ""
        for text in secrets:
            screen.state.secrets.append(text)
        panel = screen._render().renderables[0]
        return len(screen.console.render_lines(panel, screen.console.options, pad=False))

    shown = ["The werewolves' victim: seat number 3", "Potions left: heal and poison"]
    assert DARK_SECRET_ROWS == len(shown)
    assert height([], False) == height(shown[:1], False) == height(shown, False)
    assert height([], True) == height(shown, True) - 2


# -- the screen's title in the table's language ------------------------------------------------------------------


@pytest.mark.parametrize("language, title", [("en", "Werewolf narrator"), ("fr", "Narrateur des Loups-Garous"),
                                             ("zh", "狼人杀旁白")])
def test_the_full_screens_title_is_in_the_tables_language(language: str, title: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the first call names its panel, the panel was titled "werewolf-narrator" at a Chinese table: the table
    opened at a terminal gives the full screen its language's title, and the panel shows it until a call's."""
    import sys

    from rich.console import Console

    import narrator.keypad
    import narrator.screen
    from narrator.table import open_table
    from narrator.screen import RichScreen, ScreenState, TableState

    given: list[str] = []

    class Opened:
        def __init__(self, title: str) -> None:
            given.append(title)

        def notice(self, text: str, flash: bool = False) -> None:
            pass

        def redraw(self) -> None:
            pass

    monkeypatch.setattr(narrator.keypad, "TerminalKeys", lambda on_resize: ScriptedKeys([]))
    monkeypatch.setattr(narrator.screen, "RichScreen", Opened)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    config = TableConfig(language, Table(6, DECK, Rules(sheriff=False)), speaker="console")
    open_table(config, plain=False, model=None, warn=lambda message: None)
    assert given == [title] == [load_voice(language).text("screen.title")]

    screen = RichScreen.__new__(RichScreen)  # drawn, not started: no terminal taken over
    screen.console = Console(file=io.StringIO(), width=80, height=24, force_terminal=True, color_system=None)
    screen.state, screen.table, screen.title = ScreenState(), TableState(), title
    screen.console.print(screen._render())
    top = next(line for line in screen.console.file.getvalue().splitlines() if "╭" in line)  # type: ignore
    assert f" {title} " in top and "werewolf-narrator" not in top
