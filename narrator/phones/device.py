"""The players' phones as one of the table's answer devices (narrator.asking.AnswerDevice).

The traffic rule: the phones' server sends every connected phone a frame on a clock (narrator.phones.views.TICK),
each its own seat's view padded to one size, whatever the game does; what this device changes (a call's question,
a result, the dark page) waits for the next tick. So every phone gets the same number of frames of the same size at
every step, whether the call is live or its character dead, answered on a phone or on the keypad, with a result
or none: no frame's moment nor size follows a call, and a sleeping phone's frames are the same bytes in two games
that differ only in a secret (its view, and its view's version, change only with its own seat's).

Every call the table makes opens on the phones at once (`opened`): the seats it wakes are asked its question (with
what the call shows them: the Witch's victim and potions, the lovers' seats) and the legal answers by name, when
the call's kind is one a phone answers; the awake seats of a call the keypad answers see what it shows them. Every
other phone gets its dark page. Once the engine took the answer (`answered`), the awake seats see what it told them
(the Seer's look, the Fox's sign, the Thief's centre cards: the lines the host's screen shows, Narrator.fact's) or,
with nothing secret, the answer confirmed (the pack's victim, shared among the pack); a secret result waits for an
OK on one of their phones or Enter on the keypad (`acknowledged`), as the keypad's did; the Enter takes it off their
phones as their OK does (`acknowledged_on_keypad`: the dark page).

By day, the vote and the Sheriff's election are cast on the voters' phones as secret ballots (`ballots`); the
keypad's roll call takes those and asks the voters without a phone, and the host confirms the engine's tally.

How the keypad stays usable while a phone is awaited: each wait here watches the phones' queue and the keys in
turn, each for a tenth of a second. An answer confirmed on an awake seat's phone is returned (the engine checks it
before, as the keypad does: a phone is offered only what the engine takes). A key pressed first is pushed back for
the keypad and KEYPAD is returned: the host (or a player without a phone) answers on the keypad as before. A phone
that drops is waited for no more than the keypad is: the call lasts as the table's pace says (narrator.pacing).

The Gypsy's séance (Kind.SEANCE) stays the keypad's: its question is a number printed on the spirit card she
holds, with no bound the narrator knows, so a phone cannot offer it by name. So do the calls that pick one seat or
more with no count (Kind.SEATS with ``picks`` 0: by day) and a SEATS call whose legal sets are not every set of its
legal seats (a phone offers seats one at a time, each among those left).
"""

from __future__ import annotations

import queue
from dataclasses import dataclass, field
from itertools import combinations
from typing import Callable, Protocol, Sequence

from engine import Answer, Call, Fact, Kind, Step

from ..hearing import PushbackKeys
from ..narration import SCREEN, Line, Narrator, victim_shown, wakes
from ..shapes.choices import yes_no_words
from ..voices import Voice
from . import views
from .server import OK, Asked
from .views import View

POLL = 0.1
"""Seconds each of the phones' queue and the keys is waited on in turn."""

KINDS = (Kind.SEAT, Kind.YES_NO, Kind.NONE, Kind.SEATS, Kind.WITCH, Kind.CARD, Kind.SIDE, Kind.NUMBER)
"""The kinds of night call a phone answers; the séance stays the keypad's (see above)."""

BALLOTS = (Kind.VOTE, Kind.ELECTION)
"""The day's calls cast as secret ballots on the voters' phones."""


class Phones(Protocol):
    """What the device needs of the phones' server (narrator.phones.server.PhoneServer)."""

    answers: queue.Queue[tuple[int, object]]

    def connected(self) -> frozenset[int]:
        """Returns the seats whose phone is connected."""

    def reachable(self) -> frozenset[int]:
        """Returns the seats whose phone is connected, or was and may come back mid-call."""

    def wake(self, seats: Sequence[int], prompt: str, choices: Sequence[tuple[object, str]],
             shown: Sequence[str] = ()) -> dict[int, int]:
        """Asks ``seats`` the ``prompt``; every other seat sleeps."""

    def ask(self, asked: dict[int, Asked]) -> dict[int, int]:
        """Asks each seat its own view; every other seat sleeps."""

    def result(self, seats: Sequence[int], title: str, text: str = "", shown: Sequence[str] = (),
               ok: bool = False) -> dict[int, int]:
        """Shows ``seats`` what came of their call (``ok``: until one of them gives an OK); every other sleeps."""

    def sleep(self) -> None:
        """Every phone back to its dark page."""


@dataclass
class Form:
    """What a phone is asked: the legal answers (``values``), each read back as its ``said`` names, in one step
    (``steps`` empty: the names are the choices) or in several, where ``paths`` give each value's name at each step
    (empty with ``distinct``: any ``distinct`` names of the one step's, a value for each set, in the order of
    itertools.combinations)."""

    values: list[Answer]
    said: list[list[str]]
    steps: list[tuple[str, list[str]]] = field(default_factory=list)
    paths: list[list[int]] = field(default_factory=list)
    distinct: int = 0

    def view(self, call: int, title: str, shown: Sequence[str]) -> View:
        if not self.steps:
            return views.asking(call, title, [names[0] for names in self.said], shown)
        view = views.asking(call, title, [], shown, self.steps, self.paths)
        if self.distinct:
            view["distinct"] = self.distinct
        return view


class PhoneAnswers:
    """The night calls of the seats whose phone is connected, answered on those phones, and the day's ballots; the
    keypad (``keys``, pushed back when it takes over) stays live. ``voice`` and ``names`` word what phones show."""

    def __init__(self, phones: Phones, keys: PushbackKeys, voice: Voice, names: Sequence[str | None] = ()) -> None:
        self.phones = phones
        self.keys = keys
        self.voice = voice
        self.names = tuple(names)
        self.asked: Call | None = None  # the call open on the phones, if they take it
        self.form: Form | None = None  # what its awake seats' phones are asked
        self.refused = False  # the last answer given on a phone was refused by the engine
        self.waiting = False  # a phone is awaited now (the keypad is watched meanwhile)
        self.acknowledging = False  # a secret result waits for an awake seat's OK

    def takes(self, call: Call) -> bool:
        return self.asked is call

    def opened(self, call: Call, legal: Callable[[Answer], bool]) -> None:
        """A call opens: its awake seats' phones are asked it if they take it, or shown what it shows them; every
        other phone sleeps."""
        self.refused = False
        self.acknowledging = False
        self.form = self.build(call, legal) if self._phones_answer(call) else None
        self.asked = call if self.form is not None else None
        self._drain()
        if self.form is not None:
            self.phones.ask(self._asked(call))
        elif call.live and wakes(call) and call.actors:
            self.phones.result(call.actors, self.prompt(call), self.text("phone.keypad"), self.secret(call.facts))
        else:
            self.phones.sleep()

    def _phones_answer(self, call: Call) -> bool:
        return (call.live and wakes(call) and call.kind in KINDS and bool(call.actors)
                and bool(set(call.actors) & self.phones.reachable()))

    def _asked(self, call: Call) -> dict[int, Asked]:
        form, title, shown = self.form, self.prompt(call), self.secret(call.facts)
        assert form is not None
        asked: Asked = (lambda number: form.view(number, title, shown), form.values)
        return {seat: asked for seat in call.actors}

    def answer(self, call: Call, legal: Callable[[Answer], bool]) -> Answer | object:
        """Returns the answer confirmed on an awake seat's phone, or KEYPAD when a key is pressed first."""
        from ..asking import KEYPAD

        if self.refused:  # asked again after the engine refused: said on the phones, with the choices again
            self.form = self.build(call, legal)
            if self.form is None:
                return KEYPAD
            self.phones.ask(self._asked(call))
        while True:
            got = self._wait()
            if got is None:  # the keypad answers: the awake phones say so, and take no answer
                self.asked = None
                self.phones.result(call.actors, self.prompt(call), self.text("phone.keypad"), self.secret(call.facts))
                return KEYPAD
            seat, value = got
            if seat not in call.actors or value is OK:
                continue
            self.refused = not legal(value)
            return value

    def _wait(self) -> tuple[int, object] | None:
        """Returns the next thing a phone said, or None when a key was pressed first (pushed back for the keypad)."""
        self.waiting = True
        try:
            while True:
                try:
                    return self.phones.answers.get(timeout=POLL)
                except queue.Empty:
                    key = self.keys.read(timeout=POLL)
                    if key is not None:
                        self.keys.unread(key)
                        return None
        finally:
            self.waiting = False

    def answered(self, call: Call, step: Step) -> None:
        """The engine took the call's answer: its awake seats see what it told them (until an OK, when it is secret),
        or their answer confirmed; a call that woke nobody leaves every phone dark."""
        form, self.asked, self.form = self.form, None, None
        if not (call.live and wakes(call) and call.actors):
            self.phones.sleep()
            return
        lines = self.secret(step.facts)
        if lines:
            self.phones.result(call.actors, self.prompt(call), "", lines, ok=True)
            self.acknowledging = bool(set(call.actors) & self.phones.reachable())
        else:
            said = form.said[form.values.index(step.answer)] if form and step.answer in form.values else []
            self.phones.result(call.actors, self.text("phone.confirmed"), "\n".join(said))

    def acknowledged(self) -> bool:
        """Returns True once an awake seat gave its OK to the secret result its phone shows; False at once when no
        phone shows one, or as soon as a key is pressed (pushed back: the keypad's Enter acknowledges it)."""
        if not self.acknowledging:
            return False
        self.acknowledging = False
        while True:
            got = self._wait()
            if got is None:
                return False
            if got[1] is OK:
                self.phones.sleep()
                return True

    def acknowledged_on_keypad(self) -> None:
        """The keypad's Enter acknowledged the secret result: it leaves the awake phones as an OK on one of them
        does (their OK, which no one waits for now, would else stand until the next call opens)."""
        self.acknowledging = False
        self.phones.sleep()

    def casts(self, call: Call, voters: Sequence[int]) -> bool:
        """The running vote or election, when a voter's phone is connected: ballots on the phones."""
        return call.live and call.kind in BALLOTS and bool(set(voters) & self.phones.connected())

    def ballots(self, call: Call, voters: Sequence[int], legal: Callable[[Answer], bool],
                waiting: Callable[[], None] = lambda: None) -> dict[int, int | None]:
        """Asks the voters with a phone their secret ballot (a seat the engine takes from them, or nobody) and
        returns those cast, once every voter whose phone is connected has voted or a key is pressed first
        (``waiting`` tells the host's screen meanwhile)."""
        if not self.casts(call, voters):
            return {}
        self._drain()
        title = self.text("phone.ballot_election" if call.kind is Kind.ELECTION else "phone.ballot")
        asked: dict[int, Asked] = {}
        for voter in voters:
            every: list[tuple[int | None, str]] = [(seat, self.seat(seat)) for seat in call.seats]
            every.append((None, self.text("phone.none")))
            offered = [(value, name) for value, name in every if legal({"ballots": {voter: value}})]
            asked[voter] = (self._ballot(title, [name for _, name in offered]), [value for value, _ in offered])
        self.phones.ask(asked)
        waiting()
        cast: dict[int, int | None] = {}
        try:
            while not set(voters) & self.phones.connected() <= set(cast):
                got = self._wait()
                if got is None:
                    break
                seat, value = got
                if seat in voters and seat not in cast and (value is None or isinstance(value, int)):
                    cast[seat] = value
        finally:
            self.phones.sleep()
        return cast

    @staticmethod
    def _ballot(title: str, names: list[str]) -> Callable[[int], View]:
        return lambda number: views.asking(number, title, names)

    # -- what a phone is asked -------------------------------------------------

    def build(self, call: Call, legal: Callable[[Answer], bool]) -> Form | None:
        """Returns what the awake seats' phones are asked for ``call`` (only what the engine takes), or None when the
        keypad is to answer it."""
        if call.kind is Kind.WITCH:
            return self.witch(call, legal)
        if call.kind is Kind.SEATS:
            return self.several(call, legal)
        offered = self.offer(call, legal)
        if not offered:
            return None
        return Form([value for value, _ in offered], [[name] for _, name in offered])

    def offer(self, call: Call, legal: Callable[[Answer], bool]) -> list[tuple[Answer, str]]:
        """Returns the one-step answers the engine would take, each with its name (as the keypad reads it back)."""
        offered: list[tuple[Answer, str]]
        if call.kind is Kind.SEAT:
            offered = [(seat, self.seat(seat)) for seat in call.seats]
            if call.optional:
                offered.append((None, self.text("phone.none")))
        elif call.kind is Kind.YES_NO:
            yes, no = yes_no_words(self.voice, self.names, call)
            offered = [(True, yes), (False, no)]
        elif call.kind is Kind.SIDE:
            offered = [("village", self.text("answer.village")), ("wolf", self.text("answer.wolf"))]
        elif call.kind is Kind.CARD:
            offered = [(1, self.text("answer.card", number=1)), (2, self.text("answer.card", number=2)),
                       (None, self.text("answer.keep"))]
        elif call.kind is Kind.NUMBER:
            offered = [(n, self.text("answer.card", number=n)) for n in range(1, call.picks + 1)]
            offered.append((None, self.text("answer.no_card")))
        else:
            offered = [(None, self.text("phone.done"))]
        return [(value, name) for value, name in offered if legal(value)]

    def witch(self, call: Call, legal: Callable[[Answer], bool]) -> Form | None:
        """The Witch's potions as the keypad asks them: her heal for the victim shown, then her poison (a seat or
        nobody), each step as her potions left allow; each path one answer the engine takes."""
        shown = victim_shown(call)
        potions = shown.potions if shown is not None else ()
        victim = shown.victim if shown is not None else None
        heals: list[tuple[bool, str]] = [(False, "")]
        poisons: list[tuple[int | None, str]] = [(None, "")]
        steps: list[tuple[str, list[str]]] = []
        if "heal" in potions and victim is not None:
            heals = [(True, self.text("answer.heal_seat", seat=victim)), (False, self.text("answer.no_heal", seat=victim))]
            steps.append((self.text("phone.heal"), [name for _, name in heals]))
        if "poison" in potions:
            poisons = [(seat, self.text("answer.poison", seat=seat)) for seat in call.seats]
            poisons.append((None, self.text("answer.no_poison")))
            steps.append((self.text("phone.poison"), [name for _, name in poisons]))
        has_heal, has_poison = len(heals) > 1, len(poisons) > 1
        if not steps:
            done = {"heal": False, "poison": None}
            return Form([done], [[self.text("phone.done")]]) if legal(done) else None
        form = Form([], [], steps)
        for h, (heal, heal_said) in enumerate(heals):
            healed = heal and shown is not None and shown.one_in_all  # the one-potion Witch used hers
            for p, (poison, poison_said) in enumerate([(None, "")] if healed else poisons):
                value = {"heal": heal, "poison": poison}
                if not legal(value):
                    continue
                path = ([h] if has_heal else []) + ([p] if has_poison and not healed else [])
                form.values.append(value)
                form.paths.append(path)
                form.said.append([said for said in (heal_said, "" if healed else poison_said) if said])
        return form if form.values else None

    def several(self, call: Call, legal: Callable[[Answer], bool]) -> Form | None:
        """``call.picks`` seats (Cupid's lovers, the Piper's charmed), chosen one at a time among those left: only
        when every set of its legal seats is legal (else the keypad answers)."""
        n = call.picks
        if n <= 0:
            return None
        legal_sets = [list(c) for c in combinations(call.seats, n) if legal(list(c))]
        pool = sorted({seat for chosen in legal_sets for seat in chosen})
        every = [list(c) for c in combinations(pool, n)]
        if not every or len(every) != len(legal_sets):
            return None
        names = [self.seat(seat) for seat in pool]
        steps = [(self.text("phone.pick", number=k + 1, count=n), names) for k in range(n)]
        return Form(list[Answer](every), [[self.seat(seat) for seat in chosen] for chosen in every], steps,
                    distinct=n)

    # -- words ---------------------------------------------------------------------

    def secret(self, facts: Sequence[Fact]) -> list[str]:
        """Returns the lines the host's screen shows those awake for ``facts`` (narration.Narrator.fact's)."""
        lines: list[Line] = []
        teller = Narrator(self.voice, lines.append, self.names)
        for fact in facts:
            teller.fact(fact)
        return [line.text for line in lines if line.channel == SCREEN]

    def prompt(self, call: Call) -> str:
        """Returns what the awake seats' phones ask: the call's own wake line (the rulebook's words; a phones'
        wording where it has one), and why the last answer was not taken when it was not."""
        asked = called(self.voice, call.id, self.names)
        return f"{self.text('phone.refused_answer')} {asked}" if self.refused else asked

    def seat(self, seat: int) -> str:
        """Returns a seat as a phone names it: its number in digits, and its player's name."""
        name = self.names[seat - 1] if 0 < seat <= len(self.names) else None
        return self.voice.seat_named.format(name=name, number=seat) if name else \
            self.voice.seat_word.format(number=seat)

    def text(self, key: str, **values: object) -> str:
        return self.voice.text(key, values, self.names)

    def _drain(self) -> None:
        """Forgets answers given to calls gone by."""
        while True:
            try:
                self.phones.answers.get_nowait()
            except queue.Empty:
                return


def called(voice: Voice, call: str, names: Sequence[str | None] = ()) -> str:
    """Returns the title a phone gives the call ``call``: its wake line (its phones' wording where it has one: the
    lovers look at their phone), or its character's name."""
    key = voice.worded(f"{call}.wake", phones=True)
    return voice.text(key, {}, names) if key in voice.lines else voice.role(call)
