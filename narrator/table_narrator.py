"""The narrator at a real table: every line said aloud and shown in the screen's log, secret lines on the screen
while their call runs, the eyes closed and opened, the night's ambience, a call's opening lines kept to say them
again; and the deal shown on the screen, seat by seat."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from typing import Callable, Sequence, TextIO

from engine import Call, Deal, Fact, Game, IllegalAnswer, Phase, Rules, Step
from engine.crier import crier as town_crier

from .asking import KeypadAnswers
from .circle import seating
from .listen import Listener
from .narration import CLOSE_EYES, OPEN_EYES, SCREEN, VOICE, Line, Narrator, eyes_closed, refusal, wakes
from .pacing import Pacing
from .screen import Screen
from .speak import Heard, Speaker
from .speak.ahead import Priorities, calls_ahead
from .table import Ambience, QuietAmbience
from .voices import Voice


# Lines said in answer to the table, not by the call: "repeat" says the call again, not "The game goes on."
NOT_REPEATED = ("notice.", "answer.", "refusal.", "debate.warning", "debate.over", "roll_call.")


@dataclasses.dataclass(frozen=True)
class TableSettings:
    """What a table narrator is given once, from the table's config and devices: the house ``rules`` (for the lines
    that depend on them); the table's ``seats`` (for the seating circle; None: as many as the names); the
    ``voice_log`` every line said aloud is written to, as JSON lines with the voice that said it and when it was
    asked for and heard (play --voice-log);
    the night's ``ambience`` (narrator.speak.ambience.NightAmbience, with ambience: true; None: none); the keypad's
    ``pacing``, which
    the narrator shares (None: its own); the ``listener`` muted while the narrator speaks, so that it never hears
    itself (None: no microphone, or none that hears answers); whether the players' ``phones`` are at the table."""

    rules: Rules = dataclasses.field(default_factory=Rules)
    seats: int | None = None
    voice_log: TextIO | None = None
    ambience: Ambience | None = None
    pacing: Pacing | None = None
    listener: Listener | None = None
    phones: bool = False
    """The players' phones are at the table: a line with a phones' wording says it (`Narrator.worded`)."""


@dataclasses.dataclass(frozen=True)
class TableHooks:
    """What the narrator asks of the keypad: to ``acknowledge`` a secret result (it stays on the screen until
    Enter; None: it does not wait), a ``safe_point`` between calls (where a model's failure is told), a seat voted
    out's ``last_words`` (None: the table gives none), every call ``answered``, the ballots cast elsewhere."""

    acknowledge: Callable[[], None] | None = None
    safe_point: Callable[[], None] = lambda: None
    last_words: Callable[[int], None] | None = None
    answered: Callable[[Call, Step], None] = lambda call, step: None
    """Told of every call's answer the engine took, and what it told, before it is shown (the phones show it to
    those awake)."""
    ballots_elsewhere: Callable[[Call], bool] = lambda call: False
    """Whether the voters cast a call's ballots on their phones (its opening asks for them, not for a signal)."""


class TableNarrator(Narrator):
    """The narrator at a real table: voice lines to the loudspeaker and the screen's log, secret lines
    to the screen while their call runs; remembers a call's opening lines to repeat them.

    ``eyes_open`` is whether the table's eyes are open, by the lines it has heard (CLOSE_EYES, OPEN_EYES);
    it begins open, and so does a resumed game. A night call made with eyes open (the host took back a night
    answer by day, a game resumed mid-night) is preceded by "everyone close your eyes", a day call made with
    eyes closed by "everyone open your eyes".

    The ``ambience`` (narrator.speak.ambience) follows the same lines: it starts as the table closes its eyes,
    stops as it opens them, and ducks under every line said. A host's pause leaves it as it is: eyes stay closed.
    """

    def __init__(self, voice: Voice, screen: Screen, speaker: Speaker, names: Sequence[str | None] = (),
                 settings: TableSettings = TableSettings(), hooks: TableHooks = TableHooks()) -> None:
        super().__init__(voice, self._route, names, settings.rules)
        self.screen = screen
        self.speaker = speaker
        self.seats = len(self.names) if settings.seats is None else settings.seats  # for the seating circle
        self.voice_log = settings.voice_log
        self.ambience: Ambience = QuietAmbience() if settings.ambience is None else settings.ambience
        # The keypad's: it opens a call made with eyes closed, the narrator closes it.
        self.pacing = Pacing() if settings.pacing is None else settings.pacing
        self.listener: Listener | None = settings.listener  # None from the moment the microphone is lost
        self.phones = settings.phones
        self.acknowledge = hooks.acknowledge
        self.safe_point = hooks.safe_point
        self.last_words = hooks.last_words
        self.answered = hooks.answered
        self.ballots_cast_elsewhere = hooks.ballots_elsewhere
        self.opening: list[Line] = []
        self.game: Game | None = None  # once dealt
        self.replaying = False  # a resumed game's journaled part is narrated silently
        self.call_start = 0
        self.transcript: list[Line] = []
        self.eyes_open = True
        self.shown_title = ""  # the running call's (or moment's) title, to show it again after the host menu
        self.priorities: Priorities | None = None  # the table's lines, built by `plan_ahead` (or at the first call)
        self.ahead_phase: tuple[Phase, int] | None = None
        self._planning: threading.Thread | None = None
        # With deal: app, who confesses has no card to show: the session's screen shows it to the Confessor.
        self.confession: Callable[[int], None] | None = None

    def show_eyes(self) -> None:
        """Shows the eyes banner as the narrator last asked."""
        self.screen.eyes(self.eyes_open, self.voice.text("screen.eyes_open" if self.eyes_open else "screen.eyes_closed"))

    def show_table(self) -> None:
        """Shows the public state: the seating circle, and the status line."""
        self.screen.seating(seating(self.voice, self.seats, self.names, self.game))
        if self.game is not None and self.game.call is not None:
            self.screen.status(self.status(self.game.call))

    def _route(self, line: Line) -> None:
        self.transcript.append(line)
        if self.replaying:
            return
        self._show(line)

    def _show(self, line: Line) -> None:
        if line.channel == VOICE:
            if line.key in CLOSE_EYES or line.key in OPEN_EYES:
                was_open, self.eyes_open = self.eyes_open, line.key in OPEN_EYES
                self.show_eyes()
                if was_open and not self.eyes_open:
                    self.ambience.start()  # under the line that closes the eyes, ducked like any other
                elif self.eyes_open and not was_open:
                    self.ambience.stop()
            if not line.key.startswith(NOT_REPEATED):
                self.opening.append(line)
            if line.key.endswith(".sleep"):
                self.screen.clear()  # a call's secrets go as its sleep line starts, not once it is said
            self.screen.public(line.text)
            self._say(line)
        elif refusal(line.key):
            self.screen.refusal(line.text)
        else:
            self.screen.secret(line.text)

    def fact(self, fact: Fact) -> None:
        seat = fact.values.get("seat")
        if fact.key == "confessor.confesses" and self.confession is not None and not self.replaying \
                and isinstance(seat, int):
            self.confession(seat)
            return
        super().fact(fact)

    def title(self, call: Call) -> str:
        """Returns "Night 2" or "Day 1" in the table's language ("Before the first night" for day 0)."""
        if call.phase is Phase.DAY and call.number == 0:
            return self.voice.text("screen.day_zero", {})
        return self.voice.text(f"summary.{call.phase.value}", {"number": call.number})

    def status(self, call: Call) -> str:
        """Returns the public state: who is alive, the Sheriff."""
        if self.game is None:
            return ""
        alive = " ".join(str(s) for s in self.game.living())
        text = self.voice.text("screen.alive", {"seats": alive})
        if self.game.sheriff:
            text += " · " + self.voice.text("screen.sheriff", {"number": self.game.sheriff})
        crier = town_crier(self.game)  # public: named aloud by the Sheriff
        if crier is not None and self.game.alive(crier):
            text += " · " + self.voice.text("screen.town_crier", {"number": crier})
        return text

    def go_live(self, call: Call) -> None:
        """Ends a resumed game's silent part: says the game goes on, and opens the running call again (eyes
        closed first if it is a night call: the table sat down with its eyes open)."""
        self.replaying = False
        opening = self.transcript[self.call_start:]
        # The public state the journal rebuilt (the dead, the Sheriff's badge), before the table is told the game
        # goes on: the screen still showed the seats as the deal left them.
        self.screen.status(self.status(call))
        self.screen.seating(seating(self.voice, self.seats, self.names, self.game))
        self.line("notice.resumed", VOICE)
        closing = wakes(call) and self.eyes_open
        self.close_or_open_eyes(call)
        if closing:
            # The table sat down with its eyes open: it is given the call floor to close them before the call is
            # said and its secrets shown (a call said at once, its secret on the screen with it, met open eyes).
            self.pacing.sleep(self.pacing.floor)
        self.show_eyes()  # the silent part changed nothing on the screen
        self.screen.show_call(self.title(call), "")  # the call's own line heads its panel, not the notice
        self.opening = []
        for line in opening:
            self._show(line)

    def close_or_open_eyes(self, call: Call) -> None:
        """Before ``call``, closes the table's eyes if it wakes characters while they are open, or opens them
        if it is a day call made while they are closed (the dawn, the Judge's question say it themselves)."""
        if self.replaying:
            return
        if wakes(call) and self.eyes_open:
            self.line("notice.close_eyes", VOICE)
        elif not self.eyes_open and not eyes_closed(call) and call.phase is Phase.DAY and call.id != "dawn":
            self.line("notice.open_eyes", VOICE)

    def plan_ahead(self, seats: int, deck: Sequence[str]) -> None:
        """Builds the table's lines for `render_ahead` in a thread (a few hundred, 0.1 s and more of CPU): off the
        path of the first call's line. Nothing to build for a speaker that does not render ahead."""
        if not self.speaker.renders_ahead:
            return

        def build() -> None:
            self.priorities = Priorities(self.voice, seats, self.names, deck)

        self._planning = threading.Thread(target=build, name="lines-ahead", daemon=True)
        self._planning.start()

    def render_ahead(self, call: Call) -> None:
        """Has the speaker render the lines of the next calls first, in call order (the running call first); at
        each night or day, then the read-backs and announcements about the living seats, before the rest queued.

        Fair play: a line not rendered in time is said in another voice, so what goes first is computed from
        public knowledge only: the call order of the deck (dead characters are called too), the living seats
        (on the screen at every call), night or day. Never from who holds which card.
        """
        game = self.game
        if not self.speaker.renders_ahead or game is None or self.replaying:
            return
        if self._planning is not None:
            self._planning.join()
        if self.priorities is None:
            self.priorities = Priorities(self.voice, game.table.seats, self.names, game.table.deck)
        night = call.phase is Phase.NIGHT
        calls = calls_ahead(call.id, night, game.night_order(call.number) if night else (),
                            () if night else game.night_order(call.number + 1))
        phase = (call.phase, call.number)
        self.speaker.prepare(self.priorities.soonest(calls, game.living(), seats_too=phase != self.ahead_phase))
        self.ahead_phase = phase

    def begin(self, call: Call) -> None:
        self.safe_point()
        self.render_ahead(call)
        # Before the call's panel and secrets, so that its own line heads the panel; not repeated with it.
        self.close_or_open_eyes(call)
        self.screen.status(self.status(call))
        if not self.replaying:
            self.screen.seating(seating(self.voice, self.seats, self.names, self.game))
        self.shown_title = self.title(call)
        self.screen.show_call(self.shown_title, "")
        self.call_start = len(self.transcript)
        self.opening = []
        super().begin(call)

    def ballots_elsewhere(self, call: Call) -> bool:
        return self.ballots_cast_elsewhere(call)

    def worded(self, key: str) -> str:
        return self.voice.worded(key, self.phones)

    def refuse(self, call: Call, error: IllegalAnswer) -> None:
        """Says why an answer was refused; by day, a reason said aloud stays in the call's panel too, beside the prompt
        typed again (in the log at the bottom alone, a host without sound missed it)."""
        said = len(self.transcript)
        super().refuse(call, error)
        refused = self.transcript[said:]
        if refused and refused[-1].channel == VOICE and not self.replaying:
            self.screen.refusal(refused[-1].text)

    def end(self, call: Call, step: Step) -> None:
        if not self.replaying:
            self.answered(call, step)
        if any(f.secret for f in step.facts) and self.acknowledge is not None and not self.replaying:
            # What the answer revealed (the Seer's look, the Fox's sign, the Thief's new card) stays on
            # the screen until those awake have read it.
            for fact in step.facts:
                self.fact(fact)
            self.acknowledge()
            step = step._replace(facts=())
        self.pacing.close()  # no sooner than the floor, and the living's answer times set the empty calls' pace
        super().end(call, step)
        self.screen.clear()
        if self.replaying or call.phase is not Phase.DAY:
            return  # a night's outcome is told at dawn, where the next call shows it
        self.screen.seating(seating(self.voice, self.seats, self.names, self.game))
        voted_out = [f.values["seat"] for f in step.facts if f.key == "death" and f.values.get("cause") == "vote"]
        if self.last_words is not None and self.game is not None and not self.game.over:
            for seat in voted_out:
                assert isinstance(seat, int)
                self.last_words(seat)

    def moment(self, title: str) -> None:
        """Starts a moment outside the engine's calls (a seat's turn in the deal, a character identifying itself):
        its title on the screen, and its lines from now on are those repeat says again."""
        self.opening = []
        self.call_start = len(self.transcript)
        self.shown_title = title
        self.screen.show_call(title, "")

    def show_card(self, seat: int, card: str, wait: Callable[[], None]) -> None:
        """The host menu: shows ``seat`` its card again, the table's eyes closed, all of it said aloud (who asked is
        public; which card, never). Then the eyes as they were, and the running call's screen again; the caller
        says its opening lines again (those it had woken open their eyes again). ``wait`` waits for Enter.

        A secret of the running call comes back on the screen only if the table's eyes were closed (a night call):
        with them open (the deal's turn of another seat, a day call), it is not shown again.
        """
        was_open, title, opening, start, mark = (self.eyes_open, self.shown_title, self.opening, self.call_start,
                                                 len(self.transcript))
        lines = self.transcript[start:]
        self.moment(self.voice.seat(seat, self.names))
        self.line("card_again.call", VOICE, seat=seat)  # closes the table's eyes (CLOSE_EYES), the banner says so
        self.screen.prompt(self.voice.text("prompt.see_card", {}))
        wait()
        self.screen.prompt("")
        self.line("deal.app_show", SCREEN, role=card)
        self.screen.prompt(self.voice.text("prompt.hide_card", {}))
        wait()
        self.screen.clear()
        self.line("card_again.done", VOICE, seat=seat)
        if was_open:
            self.line("notice.open_eyes", VOICE)
        self.screen.show_call(title, next((line.text for line in lines if line.channel == VOICE), ""))
        if not was_open:
            for line in lines:
                if line.channel == SCREEN and not refusal(line.key):  # a refusal is gone with the next key
                    self.screen.secret(line.text)
        # The running call's lines are its own again: the card shown is never among the secrets shown again.
        del self.transcript[mark:]
        self.shown_title, self.opening, self.call_start = title, opening, start

    def repeat(self) -> None:
        """Says the running call's opening lines again, and shows that it did (a table without sound sees it).

        With the table's eyes closed it says nothing, only shows the call: only someone awake at the keypad could
        ask, so a wake line heard twice would tell that the character called is alive."""
        if not self.eyes_open:
            if self.opening:
                self.screen.notice(self.voice.text("screen.repeated_silent", {"text": self.opening[-1].text}),
                                   flash=True)
            return
        if self.opening:
            self.screen.notice(self.voice.text("screen.repeated", {"text": self.opening[-1].text}), flash=True)
        for line in list(self.opening):
            self._say(line)

    def _say(self, line: Line) -> None:
        asked = time.time()
        self.ambience.duck()
        try:
            if self.listener is None:
                heard = self.speaker.say(self.voice.spoken(line.text))
            else:
                self.listener.mute()
                try:
                    heard = self.speaker.say(self.voice.spoken(line.text))
                finally:
                    self.listener.unmute(0.4)
            self._logged(line, asked, heard)
        finally:
            self.ambience.unduck()

    def _logged(self, line: Line, asked: float, heard: Heard | None) -> None:
        """Writes a line said to the voice log, as soon as it is heard, so that a host (or a test) follows the voice:
        ``at`` when it was asked for and ``heard`` when it began to play (epoch seconds: a game's pacing and its
        waits for a render are read from the log afterwards), and the ``voice`` that said it (a fallback's, named)."""
        if self.voice_log is None:
            return
        said = {"key": line.key, "text": line.text, "at": asked, "heard": heard.at if heard else asked,
                "voice": heard.voice if heard else self.speaker.name}
        self.voice_log.write(json.dumps(said, ensure_ascii=False) + "\n")
        self.voice_log.flush()


def deal_on_screen(narrator: TableNarrator, answers: KeypadAnswers, deal: Deal, seen: Callable[[int], None],
                   first: int = 1, shown: Callable[[int, str], None] = lambda seat, role: None) -> None:
    """Deals with the program: each player in turn sees their own card alone on the screen.

    ``seen(seat)`` journals each card once it is hidden again; ``first`` is the seat a resumed deal goes on from;
    ``shown(seat, role)`` while the card is on the screen (the phones: the seat's QR code beside it, its card on its
    phone). Keys are read as in any call: Ctrl-C, the host menu and repeat work.
    """
    screen = narrator.screen
    if first == 1:
        narrator.line("deal.app_intro", VOICE)
    for seat in range(first, len(deal.roles) + 1):
        narrator.moment(narrator.voice.seat(seat, narrator.names))
        narrator.line("deal.app_turn", VOICE, seat=seat)
        screen.prompt(narrator.voice.text("prompt.see_card", {}))
        answers.enter()
        screen.prompt("")
        narrator.line("deal.app_show", SCREEN, role=deal.roles[seat - 1])
        shown(seat, deal.roles[seat - 1])
        screen.prompt(narrator.voice.text("prompt.hide_card", {}))
        answers.enter()
        screen.clear()
        # Journaled once the card is hidden again, not when it is shown: stopped before this, the game goes on
        # at the same seat, which sees the same card (drawn from the seed) again; stopped after, at the next
        # seat. Either way every player sees their card, and always the same one.
        seen(seat)
        screen.entry(narrator.voice.text("deal.app_hidden", {}))
        answers.enter()
        screen.clear()


def join_on_screen(narrator: TableNarrator, answers: KeypadAnswers, seats: Sequence[int], intro: str,
                   code_shown: Callable[[int], None]) -> None:
    """The players' phones join: each seat of ``seats`` in turn comes to the screen alone and scans its phone's QR
    code (``code_shown(seat)`` puts it on the screen, until it is hidden), after the line ``intro`` (the deal with
    the players' own cards, which shows no card on the screen, or a game going on whose links the host's stop
    ended). Every seat is called, phone or not: who has a phone is nobody's business; a seat without one presses
    Enter twice. Keys are read as in any call: Ctrl-C, the host menu and repeat work."""
    screen = narrator.screen
    narrator.line(intro, VOICE)
    for seat in seats:
        narrator.moment(narrator.voice.seat(seat, narrator.names))
        narrator.line("deal.phones_turn", VOICE, seat=seat)
        screen.prompt(narrator.voice.text("prompt.show_code", {}))
        answers.enter()
        screen.prompt("")
        narrator.line("screen.phone_code", SCREEN)
        code_shown(seat)
        screen.prompt(narrator.voice.text("prompt.hide_code", {}))
        answers.enter()
        screen.clear()
