"""Answers from the keypad: typed, read back, confirmed, and only then handed to the engine.

Every answer is read back ("Seat seven?") and confirmed with Enter; Backspace
changes it; undo takes back the last confirmed part while the same call runs
(the Witch's heal before her poison, Cupid's first lover); repeat says the call
again. At night the read-back is on the screen only; by day it is also said. An answer is checked
with the engine before it is read back: one it refuses is never read back ("Seat 99?" is never said).
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from typing import Callable, Iterator, Protocol, Sequence

from engine import Answer, Call, Game, IllegalAnswer, Kind, Step, votes

from .hostmenu import HostMenu, MenuHooks
from .keypad import Keys
from .narration import eyes_closed, in_the_dark, wakes
from .pacing import Pacing
from .screen import Screen
from .shapes import SHAPES, UNCHECKED, Refused, Repeat, Undo, so_far
from .voices import Voice

KEYPAD = object()
"""What a voice source returns when the keypad is to answer instead."""


class Lapsed(Exception):
    """The time of a call made for nobody is over, whatever was typed meanwhile."""


class Previewed(Exception):
    """The keypad's question is on the screen, for a call a device holds (a phone): no key is read for it yet."""





class AnswerDevice(Protocol):
    """A device the table may answer on besides the keypad: the microphone (hearing.SpokenAnswers), a test's
    stand-in for a player's phone. It is asked first for the calls it takes; the keypad stays live, and answers
    whatever the device leaves to it. A device plugs in through the table's devices (table.TableIO.devices): the
    game's loop does not change."""

    def opened(self, call: Call, legal: Callable[[Answer], bool]) -> None:
        """Learns that ``call`` opens, whoever answers it (the phones show every call at once, one frame each, so
        that what crosses the network tells nobody who is awake); a device with nothing to show does nothing."""

    def takes(self, call: Call) -> bool:
        """Returns whether the device is asked for ``call`` (by its phase, its kind, who holds the device)."""

    def answer(self, call: Call, legal: Callable[[Answer], bool]) -> Answer | object:
        """Returns the answer given and confirmed on the device, or KEYPAD when the keypad is to answer. An answer
        that is not ``legal`` is returned as it is, for the engine to refuse (nothing refused is ever read back)."""

    def answered(self, call: Call, step: Step) -> None:
        """Learns that the engine took ``call``'s answer, whoever gave it, and what it told (``step.facts``): the
        phones show the awake what the host's screen shows them; a device with nothing to show does nothing."""

    def acknowledged(self) -> bool:
        """Returns True once those awake acknowledged on the device the secret result it shows them (the keypad's
        Enter, given elsewhere); False at once when it shows none, or when the keypad is to acknowledge it."""

    def acknowledged_on_keypad(self) -> None:
        """Learns that the keypad's Enter acknowledged the secret result (no OK came from the device): the device
        shows it no more, as after its own OK (a phone's OK button would else stay until the next call)."""

    def casts(self, call: Call, voters: Sequence[int]) -> bool:
        """Returns whether some of the ``voters`` are to cast their ballots for ``call`` on the device (the
        narrator then asks for secret ballots, not for the signal everyone points at)."""

    def ballots(self, call: Call, voters: Sequence[int], legal: Callable[[Answer], bool],
                waiting: Callable[[], None]) -> dict[int, int | None]:
        """Returns the secret ballots cast on the device for the running vote or election, voter to seat (or None,
        nobody); the keypad's roll call asks the other ``voters``. Empty: the device takes no ballots. ``waiting``
        tells the host's screen that ballots are being cast (a key hands the rest to the keypad)."""


class QuietDevice:
    """An answer device that shows nothing and takes nothing: the defaults a device overrides for what it does (the
    microphone answers some calls and shows nothing; the host's notice of dropped phones only watches the calls)."""

    def opened(self, call: Call, legal: Callable[[Answer], bool]) -> None:
        pass

    def takes(self, call: Call) -> bool:
        return False

    def answer(self, call: Call, legal: Callable[[Answer], bool]) -> Answer | object:
        return KEYPAD

    def answered(self, call: Call, step: Step) -> None:
        pass

    def acknowledged(self) -> bool:
        return False  # the keypad's Enter acknowledges a secret result

    def acknowledged_on_keypad(self) -> None:
        pass

    def casts(self, call: Call, voters: Sequence[int]) -> bool:
        return False

    def ballots(self, call: Call, voters: Sequence[int], legal: Callable[[Answer], bool],
                waiting: Callable[[], None]) -> dict[int, int | None]:
        return {}  # the keypad's roll call asks every voter


class KeypadAnswers:
    """The table's answers, from the keypad, with read-back and confirmation."""

    def __init__(self, keys: Keys, screen: Screen, voice: Voice, say: Callable[[str, dict[str, object]], None],
                 repeat: Callable[[], None], names: Sequence[str | None] = (),
                 pause: tuple[float, float] = (3.0, 8.0), rng: random.Random | None = None,
                 sleep: Callable[[float], None] = time.sleep, debate_timer: int = 0,
                 clock: Callable[[], float] = time.monotonic, pacing: Pacing | None = None,
                 menu: MenuHooks = MenuHooks(), devices: Sequence[AnswerDevice] = ()) -> None:
        self.keys = keys
        self.screen = screen
        self.voice = voice
        self.say = say
        self.repeat = repeat
        self.names = tuple(names)
        self.rng = rng or random.Random()  # the game's draws, which the journal keeps
        # How long the calls made with eyes closed last (without one: the ``pause`` range and no floor).
        self.pacing = pacing or Pacing(0.0, pause, clock=clock, sleep=sleep)
        self.debate_timer = debate_timer
        self.clock = clock
        self.day = False
        self.check: Callable[[Answer], object] | None = None  # the running call's check, while it is answered
        self.game: Game | None = None  # the running call's game, while it is answered (the roll call's voters)
        self.devices = tuple(devices)  # asked before the keypad, for the calls each takes
        self.asking: Call | None = None  # the call last asked: asked again after a refusal, it is not a new one
        self.ballots: dict[int, int | None] = {}  # the running vote's ballots cast on a device (the roll call's)
        self.until: float | None = None  # when the running call made for nobody ends (its keys read till then)
        self.previewing = False  # the keypad's question shown for a call a device holds, no key read (`_preview`)
        self.host_menu = HostMenu(self, menu)

    # -- the Answers protocol ---------------------------------------------

    def answer(self, call: Call, game: Game) -> Answer:
        self.day = not in_the_dark(call)  # the Judge's answer: screen only
        paced = wakes(call) or eyes_closed(call)
        if call is not self.asking and (paced or self.asking is not None and in_the_dark(self.asking)):
            # A key typed before a call made in the dark (or the first call after one, the dawn) opens — during the
            # last call's floor, a dead character's call, the lines said since — is nobody's answer to it. By day the
            # host may type ahead; asked again after a refusal, the keys typed since count.
            self.keys.drain()
        self.asking = call
        if paced:
            self.pacing.open(call.id, call)  # closed by the narrator before the sleep line (TableNarrator.end)
        self.check = game.check
        self.game = game
        for device in self.devices:
            device.opened(call, self._legal)
        try:
            return self._answer(call)
        except Refused as refused:
            return refused.value
        finally:
            self.check = None
            self.game = None

    def _answer(self, call: Call) -> Answer:
        if not call.live:
            self._nobody(call)
            return None
        if call.kind is Kind.DRAW:
            # A random draw (the variants', the Wolf Hound's side): the program answers, the journal keeps it. At
            # night with nobody awake (the Black Death's plague) it takes as long as the pack's choice, so its
            # speed tells nothing; one shown to someone awake (the Wolf Hound's side, the Harvest's box) lasts
            # as long as they take to read it.
            if not self.day and not call.actors:
                self.pacing.wait(call.id)
            return self.rng.choice(call.options or call.seats)  # the Harvest's toss: how the box falls
        if call.kind in (Kind.VOTE, Kind.ELECTION) and self.game is not None:
            self.ballots = {}
            voters = votes.voters(self.game)
            for device in self.devices:
                self.ballots.update(device.ballots(call, voters, self._legal, self._ballots_cast))
        for device in self.devices:
            if not device.takes(call) or self.ballots:  # ballots cast on the phones: the keypad's roll call
                continue
            if call.kind in (Kind.VOTE, Kind.ELECTION):  # the keypad stays live while the device answers: its keys
                self.screen.prompt(self.text("prompt.vote" if call.kind is Kind.VOTE else "prompt.election"))
                self.screen.keys(self.text("screen.keys_roll_call"))
            elif in_the_dark(call):
                self._preview(call)
            given = device.answer(call, self._legal)
            if given is not KEYPAD:
                return given
        return self._asked(call)

    def _asked(self, call: Call) -> Answer:
        """Reads the answer on the keypad, the call said again on repeat, a part taken back on undo."""
        while True:
            try:
                return self._ask(call)
            except Repeat:
                self.repeat()
            except Undo:
                self.say("answer.undone", {}) if self.day else self.screen.entry(self.text("answer.undone"))

    def _preview(self, call: Call) -> None:
        """Shows the keypad's question and keys line for a night call a device holds (a phone), as the keypad shows
        them when it holds the call, or when the call is made for nobody: a glance at the screen cannot tell whether
        the character called is alive, nor whether its player holds a phone. The keypad stays live: a key typed
        hands the call to it (the device's KEYPAD), which asks the question again."""
        self.previewing = True
        try:
            self._ask(call)
        except Previewed:
            pass
        finally:
            self.previewing = False

    def _nobody(self, call: Call) -> None:
        """A call made for nobody (its character eliminated or powerless), for fair play: it lasts as long as an
        answer might take (narrator.pacing), and looks and takes keys as a living one waiting for its answer does,
        to a glance at the screen and to a key pressed: its kind's prompt and keys line, the host menu (its time
        not counted), repeat; what is typed is read back, confirmed and then ignored, nothing refused but what the
        table's size refuses. A draw (the program's) and an announcement only wait."""
        read = SHAPES[call.kind].read
        self.until = self.clock() + self.pacing.left(call.id)
        self.check = lambda value: None  # refused, a seat would tell that nobody holds the card the call is for
        try:
            if read is not None:
                self._asked(call)
        except Lapsed:
            pass
        finally:
            until, self.until = self.until, None
        if until is not None and until > self.clock():
            self.pacing.sleep(until - self.clock())  # confirmed: as a living call waits out its floor

    @contextlib.contextmanager
    def _hosts_time(self) -> Iterator[None]:
        """The host's time (the host menu, Ctrl-C's question): no answer's, and no part of a call made for nobody,
        which lasts that much longer; the menu's keys are read as they come."""
        until, self.until = self.until, None
        start = self.clock()
        try:
            with self.pacing.held():
                yield
        finally:
            self.until = None if until is None else until + self.clock() - start

    def refused(self, call: Call, value: Answer, error: IllegalAnswer) -> None:
        """The narrator has said (or shown) why; the question is simply asked again."""

    def answered(self, call: Call, step: Step) -> None:
        """Tells every device that the engine took ``call``'s answer, and what it told."""
        self.ballots = {}
        for device in self.devices:
            device.answered(call, step)

    def _ballots_cast(self) -> None:
        """The host's screen while the voters cast their ballots on their phones."""
        self.screen.prompt(self.text("prompt.ballots"))
        self.screen.keys(self.text("screen.keys_roll_call"))

    def acknowledge(self) -> None:
        """Waits until a secret result on the screen is read: an OK on a device that shows it, or Enter."""
        self.keys.drain()  # an Enter typed ahead is nobody's acknowledgment (see `enter`)
        if not any(device.acknowledged() for device in self.devices):
            self.enter(drain=False)
            for device in self.devices:
                device.acknowledged_on_keypad()

    # -- pieces ------------------------------------------------------------

    def text(self, key: str, **values: object) -> str:
        return self.voice.text(key, values, self.names)

    def seat_words(self, seats: Sequence[int]) -> str:
        return self.voice.join([self.voice.seat(s, self.names) for s in seats])

    def read_key(self, timeout: float | None = None) -> str | None:
        """Reads a key (None: none came within ``timeout``); a key pressed takes the last refusal off the screen,
        which would else stand under the question asked next. Enter does not: a seat beyond the table is refused as
        its digit is typed, and the Enter typed right after it would take the reason away unread."""
        if self.previewing:
            raise Previewed()
        if self.until is not None:  # a call made for nobody: keys are read until its time is over
            key = self.keys.meanwhile(max(0.0, self.until - self.clock()))
            if key is None:
                raise Lapsed()
        else:
            key = self.keys.read(timeout)
        if key is not None and key != "enter":
            self.screen.refusal("")
        return key

    def key(self) -> str:
        while True:
            key = self.read_key()
            assert key is not None
            if key == "repeat":
                raise Repeat()
            if key == "interrupt":
                with self._hosts_time():
                    self.host_menu.confirm_stop()
                continue
            if key == "menu":
                with self._hosts_time():
                    self.host_menu.open()
                continue
            if key == "other":
                self.nothing_here()
                continue
            return key

    def nothing_here(self) -> None:
        """A key that does nothing here: a short hint in the status line, gone with the next call."""
        self.screen.notice(self.text("screen.wrong_key"), flash=True)

    def enter(self, drain: bool = True) -> None:
        """Waits for Enter outside the engine's calls (the deal's screens); Ctrl-C, the host menu and repeat
        work as in any call. Only a key pressed once it asks counts: an Enter typed ahead (the last player's
        fourth, two during the announcement) would show or hide a card with nobody at the screen (``drain``:
        those typed before are forgotten; not when a device already waited for it, and pushed back the key)."""
        if drain:
            self.keys.drain()
        self.screen.keys(self.text("screen.keys_wait"))
        while True:
            try:
                if self.key() == "enter":
                    return
                self.nothing_here()
            except Repeat:
                self.repeat()

    def number(self, prompt: str, allow_zero: bool, tie: bool = False, roll_call: bool = False,
                largest: int | None = None) -> int | str:
        """Reads a number typed digit by digit and closed with Enter ("tie" or "rollcall" if that key is pressed
        where it may be). A seat beyond the table (over ``largest``) is refused as its digit is typed, and typed
        again."""
        self.screen.prompt(prompt)
        # The footer: the vote's keys (with V where the roll call may be entered), else a number's.
        footer = "screen.keys_roll_call" if roll_call else "screen.keys_vote" if tie else "screen.keys_number"
        self.screen.keys(self.text(footer))
        typed = ""
        while True:
            self.screen.entry(typed)
            key = self.key()
            if key.isdigit() and len(typed) < 2 and largest is not None and int(typed + key) > largest:
                self._no_such_seat(int(typed + key))
                typed = ""
            elif key.isdigit() and len(typed) < 2:
                typed += key
            elif key == "back":
                typed = typed[:-1]
            elif key == "undo":
                raise Undo()
            elif key == "tie" and tie:
                return "tie"
            elif key == "rollcall" and roll_call:
                return "rollcall"
            elif key == "enter" and typed:
                number = int(typed)
                if number or allow_zero:
                    return number
                self.refuse("refusal.need_seat")  # nobody is no answer here: said, not a key silently ignored
                typed = ""
            else:
                self.nothing_here()

    def _legal(self, value: Answer) -> bool:
        """Returns whether the engine would take ``value`` for the running call (it changes nothing)."""
        if self.check is None:
            return True  # no game yet: the seats typed at the deal
        try:
            self.check(value)
        except IllegalAnswer:
            return False
        return True

    def confirm(self, said: str, value: Answer = UNCHECKED) -> bool:
        """Reads back ``said``, the whole would-be answer ``value``; returns True on Enter, False on Backspace
        (type it again). A value the engine refuses is never read back: Refused hands it over unread."""
        if value is not UNCHECKED and not self._legal(value):
            raise Refused(value)
        heard = self.text("answer.heard", answer=said)
        self.screen.prompt(self.text("prompt.keys"))
        self.screen.keys(self.text("screen.keys_confirm"))
        self.screen.entry(heard)
        if self.day:
            self.say("answer.heard", {"answer": said})
        while True:
            key = self.key()
            if key == "enter":
                # Confirmed: the read-back's keys no longer work (the call may wait out its floor), and say so no more.
                self.screen.prompt(self.text("answer.confirmed"))
                self.screen.keys("")
                return True
            if key == "back":
                return False
            if key == "undo":
                raise Undo()
            self.nothing_here()  # a digit typed at the read-back: Backspace first, the hint says

    def seat(self, optional: bool, prompt_key: str | None = None,
              whole: Callable[[int | None], Answer] = lambda seat: seat, poison: bool = False) -> int | None:
        """Reads a seat (0 for nobody when ``optional``); ``whole`` makes of it the answer the engine checks; the
        Witch's ``poison`` is read back as such ("Poison seat five?", "No poison?")."""
        while True:
            prompt = self.text(prompt_key or ("prompt.seat_or_none" if optional else "prompt.seat"))
            number = self.number(prompt, allow_zero=optional, largest=self.largest())
            assert isinstance(number, int)
            if poison:
                said = self.text("answer.poison", seat=number) if number else self.text("answer.no_poison")
            else:
                said = self.text("answer.none") if number == 0 else self.voice.seat(number, self.names)
            if self.confirm(said, whole(number or None)):
                return number or None

    def largest(self) -> int | None:
        """Returns the table's last seat, over which a seat typed is refused as it is typed (None: no game yet)."""
        return self.game.table.seats if self.game is not None else None

    def numbers(self, count: int, largest: int, said: Callable[[list[int]], str] | None = None,
                undo_out: bool = False) -> list[int]:
        """Reads ``count`` numbers from 1 to ``largest`` (seats, or the centre cards), then confirms them.

        Undo takes back the last number typed; with none typed, ``undo_out`` lets it undo the answer's
        previous part (raising Undo) instead of doing nothing.
        """
        while True:
            chosen: list[int] = []
            while len(chosen) < count:
                try:
                    number = self.number(self.text("prompt.seats", count=count) + so_far(chosen),
                                          allow_zero=False, largest=largest)
                except Undo:
                    if not chosen and undo_out:
                        raise
                    if chosen:
                        chosen.pop()
                    continue
                assert isinstance(number, int)
                chosen.append(number)  # one beyond ``largest`` was refused as it was typed
            if self.confirm(said(chosen) if said else ", ".join(map(str, chosen)), chosen):
                return chosen

    def _no_such_seat(self, number: int) -> None:
        """Says that seat ``number`` is not at the table (public: the table's size): aloud by day, at night on the
        screen only, as the engine's refusals are (narration.Narrator.refuse)."""
        self.refuse("refusal.no_such_seat", seat=number)

    def refuse(self, key: str, **values: object) -> None:
        """Shows why what was typed is refused on the refusal's line of the screen; by day it is said aloud too."""
        if self.day:
            self.say(key, values)
        self.screen.refusal(self.text(key, **values))

    def choice(self, prompt: str, options: dict[int, tuple[Answer, str]],
                whole: Callable[[Answer], Answer] = lambda value: value,
                other: str = "refusal.not_an_option") -> Answer:
        """Reads one of the numbered ``options``; ``whole`` makes of it the answer the engine checks. Another number
        is refused with the line ``other``."""
        while True:
            number = self.number(self.text(prompt), allow_zero=0 in options)
            if number not in options:
                self.refuse(other, number=number)
                continue
            value, said = options[number]
            if self.confirm(said, whole(value)):
                return value

    def debate(self) -> None:
        """Waits for Enter or the end of the debate timer, counting down on the screen, warning a minute before."""
        self.screen.prompt(self.text("prompt.done"))
        self.countdown(self.debate_timer, "screen.debate_left", warn=True, repeat=self.repeat,
                       footer="screen.keys_timer")

    def countdown(self, seconds: int, key: str, warn: bool = False, repeat: Callable[[], None] | None = None,
                  footer: str = "screen.keys_last_words") -> bool:
        """Counts ``seconds`` down on the screen until Enter (True) or the end (False): see `count_down`."""
        return count_down(self, seconds, key, warn, repeat, footer)

    def _ask(self, call: Call) -> Answer:
        """Reads the answer as its kind's shape reads it (narrator/shapes)."""
        read = SHAPES[call.kind].read
        assert read is not None, f"nobody types the answer of a {call.kind.value} (the program draws it)"
        return read(self, call)


def count_down(pad: KeypadAnswers, seconds: int, key: str, warn: bool = False,
               repeat: Callable[[], None] | None = None, footer: str = "screen.keys_last_words") -> bool:
    """Counts ``seconds`` down on ``pad``'s screen (the line ``key`` shows the time left), second by second, until
    Enter (True) or the end (False); with ``warn``, says so a minute before and at the end. With ``repeat``,
    the repeat key says the call again while the time runs on; the host menu's time is not counted. The
    ``footer`` names what Enter ends (the debate, the last words) and the keys that work meanwhile."""
    end = pad.clock() + seconds
    warned = not warn or seconds <= 60
    pad.screen.keys(pad.text(footer))
    prompt = pad.screen.state.prompt  # given back after a card shown again in the call's panel
    try:
        while True:
            left = end - pad.clock()
            if not warned and left <= 60:
                pad.say("debate.warning", {})
                warned = True
            if left <= 0:
                if warn:
                    pad.say("debate.over", {})
                return False
            whole = math.ceil(left)
            pad.screen.countdown(pad.text(key, time=f"{whole // 60}:{whole % 60:02d}"), whole)
            pressed = pad.read_key(timeout=max(left - (whole - 1), 0.01))  # woken at the next whole second
            if pressed == "enter":
                return True
            if pressed == "repeat" and repeat is not None:
                repeat()
            elif pressed in ("interrupt", "menu"):
                held = pad.clock()
                try:
                    pad.host_menu.confirm_stop() if pressed == "interrupt" else pad.host_menu.open()
                except Repeat:  # the menu's repeat: the call again, if there is one to say, and time runs on
                    if repeat is not None:
                        repeat()
                    pad.screen.prompt(prompt)
                end += pad.clock() - held  # the host's time (a pause) is not the table's
            elif pressed is not None:
                pad.nothing_here()
    finally:
        pad.screen.countdown("", 0)
