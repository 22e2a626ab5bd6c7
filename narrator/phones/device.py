"""The players' phones as one of the table's answer devices (narrator.asking.AnswerDevice).

Every call the table makes opens on the phones at once (`opened`): the seats it wakes, when one of them has a phone
connected and the call's kind is one a phone answers, are asked its question with the legal choices by name; every
other phone is sent its dark page again. One frame a phone a call, whatever the call: live or not, answered on the
phones or on the keypad, so the traffic tells nobody which calls the phones took.

How the keypad stays usable while a phone is awaited: `answer` waits on the phones' queue and on the keys in turn,
each for a tenth of a second. An answer confirmed on an awake seat's phone is returned (the engine checks it; one it
refuses is asked again, on the phones). A key pressed first is pushed back for the keypad and KEYPAD is returned:
the host (or a player without a phone) answers on the keypad as before, and the phones go dark. A phone that drops
is waited for no more than the keypad is: the call lasts as the table's pace says (narrator.pacing), and the keypad
answers if the phone does not come back.
"""

from __future__ import annotations

import queue
from typing import Callable, Protocol, Sequence

from engine import Answer, Call, Kind

from ..hearing import PushbackKeys
from ..narration import wakes
from ..voices import Voice

POLL = 0.1
"""Seconds each of the phones' queue and the keys is waited on in turn."""

KINDS = (Kind.SEAT, Kind.YES_NO, Kind.NONE)
"""The kinds of call a phone answers (a seat, yes or no, done); the others stay the keypad's for now."""


class Phones(Protocol):
    """What the device needs of the phones' server (narrator.phones.server.PhoneServer)."""

    answers: queue.Queue[tuple[int, object]]

    def connected(self) -> frozenset[int]:
        """Returns the seats whose phone is connected."""

    def reachable(self) -> frozenset[int]:
        """Returns the seats whose phone is connected, or was and may come back mid-call."""

    def wake(self, seats: Sequence[int], prompt: str, choices: Sequence[tuple[object, str]]) -> int:
        """Asks ``seats`` the ``prompt``; every other seat sleeps."""

    def result(self, seats: Sequence[int], title: str, text: str = "", quiet: bool = False) -> None:
        """Shows ``seats`` what came of their answer (``quiet``: sent with the next change only)."""

    def sleep(self) -> None:
        """Every phone back to its dark page."""


class PhoneAnswers:
    """The night calls of the seats whose phone is connected, answered on those phones; the keypad (``keys``,
    pushed back when it takes over) stays live. ``voice`` and ``names`` word the prompts and the choices."""

    def __init__(self, phones: Phones, keys: PushbackKeys, voice: Voice, names: Sequence[str | None] = ()) -> None:
        self.phones = phones
        self.keys = keys
        self.voice = voice
        self.names = tuple(names)
        self.asked: Call | None = None  # the call open on the phones, if they take it
        self.refused = False  # the last answer given on a phone was refused by the engine
        self.waiting = False  # a phone's answer is awaited now (the keypad is watched meanwhile)

    def takes(self, call: Call) -> bool:
        return self.asked is call

    def opened(self, call: Call, legal: Callable[[Answer], bool]) -> None:
        """A call opens: its awake seats' phones are asked it if they take it, every other phone sleeps. One change,
        one frame to every phone, for every call."""
        self.refused = False
        self.asked = call if self._phones_answer(call) else None
        self._drain()
        if self.asked is None:
            self.phones.sleep()
            return
        self.phones.wake(call.actors, self.prompt(call), self.offer(call, legal))

    def _phones_answer(self, call: Call) -> bool:
        return (call.live and wakes(call) and call.kind in KINDS and bool(call.actors)
                and bool(set(call.actors) & self.phones.reachable()))

    def answer(self, call: Call, legal: Callable[[Answer], bool]) -> Answer | object:
        """Returns the answer confirmed on an awake seat's phone, or KEYPAD when a key is pressed first."""
        if self.refused:  # asked again after the engine refused: said on the phones, with the choices again
            self.phones.wake(call.actors, self.prompt(call), self.offer(call, legal))
        self.waiting = True
        try:
            return self._awaited(call, legal)
        finally:
            self.waiting = False

    def _awaited(self, call: Call, legal: Callable[[Answer], bool]) -> Answer | object:
        from ..asking import KEYPAD

        while True:
            try:
                seat, value = self.phones.answers.get(timeout=POLL)
            except queue.Empty:
                key = self.keys.read(timeout=POLL)
                if key is not None:
                    self.keys.unread(key)
                    self.asked = None
                    self.phones.sleep()
                    return KEYPAD
                continue
            if seat not in call.actors:
                continue
            self.refused = not legal(value)
            if not self.refused:
                # Quiet: a frame now would tell the Wi-Fi that this call was live and answered.
                self.phones.result(call.actors, self.text("phone.confirmed"), self.said(call, value), quiet=True)
            return value

    def prompt(self, call: Call) -> str:
        """Returns what the awake seats' phones ask: the call's own wake line (the rulebook's words), and why the last
        answer was not taken when it was not."""
        key = f"{call.id}.wake"
        asked = self.voice.text(key, {}, self.names) if key in self.voice.lines else self.voice.role(call.id)
        return f"{self.text('phone.refused_answer')} {asked}" if self.refused else asked

    def offer(self, call: Call, legal: Callable[[Answer], bool]) -> list[tuple[object, str]]:
        """Returns the answers the engine would take, each with its name, in order: seats, then nobody."""
        offered: list[tuple[object, str]]
        if call.kind is Kind.SEAT:
            offered = [(seat, self.seat(seat)) for seat in call.seats]
            if call.optional:
                offered.append((None, self.text("phone.none")))
        elif call.kind is Kind.YES_NO:
            offered = [(True, self.text("phone.yes")), (False, self.text("phone.no"))]
        else:
            offered = [(None, self.text("phone.done"))]
        return [(value, name) for value, name in offered if legal(value)]

    def said(self, call: Call, value: Answer) -> str:
        """Returns an answer by the name its choice had."""
        return next((name for given, name in self.offer(call, lambda v: True) if given == value), "")

    def seat(self, seat: int) -> str:
        """Returns a seat as a phone names it: its number in digits, and its player's name."""
        name = self.names[seat - 1] if 0 < seat <= len(self.names) else None
        return self.voice.seat_named.format(name=name, number=seat) if name else \
            self.voice.seat_word.format(number=seat)

    def text(self, key: str) -> str:
        return self.voice.text(key, {}, self.names)

    def _drain(self) -> None:
        """Forgets answers given to calls gone by."""
        while True:
            try:
                self.phones.answers.get_nowait()
            except queue.Empty:
                return
