"""A game at a real table: the deal, every call said aloud, answers from the keypad, secrets on the screen."""

from __future__ import annotations

import dataclasses
import json
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from engine import Answer, Call, Deal, Fact, Game, IllegalAnswer, Phase, Rules, Step, Table, deal_cards
from engine.answers import shown
from engine.crier import crier as town_crier
from engine.table import deal_buildings

from .asking import KeypadAnswers
from .hostmenu import MenuHooks
from .circle import seating
from .config import TableConfig, config_from_dict, config_to_dict
from .errors import GameStopped, UserError
from .hearing import BackgroundListener, ListenerFactory, PushbackKeys, VoiceAnswers, start_listener
from .hint import resume_hint, typed_path
from .identify import identify, journaled
from .journal import Entry, Journal, default_folder, journal_name
from .keypad import Keys
from .narration import (CLOSE_EYES, OPEN_EYES, SCREEN, VOICE, Answers, Line, Narrator, eyes_closed, in_the_dark,
                        refusal, run, wakes)
from .pacing import Pacing
from .recap import build_recap, markdown, who, write_recap
from .replay import Replay
from .screen import Screen
from .speak.ahead import Priorities, calls_ahead
from .voices import Voice, load_voice

STARTER = TableConfig(
    language="en",
    table=Table(8, ("werewolf", "werewolf", "seer", "witch", "hunter", "cupid", "villager", "villager"),
                Rules()),
    source="(the built-in starter table)",
)
"""The table `play` uses with no config: eight players in English, two werewolves, the keypad."""


class SpeakerLike:
    """What the table needs of a speaker (narrator.speak.Speaker)."""

    def say(self, text: str) -> None: ...

    def close(self) -> None: ...


# Lines said in answer to the table, not by the call: "repeat" says the call again, not "The game goes on."
NOT_REPEATED = ("notice.", "answer.", "refusal.", "debate.warning", "debate.over", "roll_call.")


@dataclasses.dataclass(frozen=True)
class TableSettings:
    """What a table narrator is given once, from the table's config and devices: the house ``rules`` (for the lines
    that depend on them); the table's ``seats`` (for the seating circle; None: as many as the names); the
    ``voice_log`` every line said aloud is written to, as JSON lines with the time each began (play --voice-log);
    the night's ``ambience`` (narrator.speak.ambience.NightAmbience, with ambience: true; None: none); the keypad's
    ``pacing``, which
    the narrator shares (None: its own); the ``listener`` muted while the narrator speaks, so that it never hears
    itself (None: no microphone, or none that hears answers)."""

    rules: Rules = dataclasses.field(default_factory=Rules)
    seats: int | None = None
    voice_log: TextIO | None = None
    ambience: Any = None
    pacing: Pacing | None = None
    listener: Any = None


@dataclasses.dataclass(frozen=True)
class TableHooks:
    """What the narrator asks of the keypad: to ``acknowledge`` a secret result (it stays on the screen until
    Enter; None: it does not wait), a ``safe_point`` between calls (where a model's failure is told), a seat voted
    out's ``last_words`` (None: the table gives none)."""

    acknowledge: Callable[[], None] | None = None
    safe_point: Callable[[], None] = lambda: None
    last_words: Callable[[int], None] | None = None


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

    def __init__(self, voice: Voice, screen: Screen, speaker: Any, names: Sequence[str | None] = (),
                 settings: TableSettings = TableSettings(), hooks: TableHooks = TableHooks()) -> None:
        super().__init__(voice, self._route, names)
        self.screen = screen
        self.speaker = speaker
        self.rules = settings.rules
        self.seats = len(self.names) if settings.seats is None else settings.seats  # for the seating circle
        self.voice_log = settings.voice_log
        self.ambience: Any = QuietAmbience() if settings.ambience is None else settings.ambience
        # The keypad's: it opens a call made with eyes closed, the narrator closes it.
        self.pacing = Pacing() if settings.pacing is None else settings.pacing
        self.listener: Any = settings.listener  # None from the moment the microphone is lost
        self.acknowledge = hooks.acknowledge
        self.safe_point = hooks.safe_point
        self.last_words = hooks.last_words
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
        if getattr(self.speaker, "prepare", None) is None:
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
        prepare = getattr(self.speaker, "prepare", None)
        game = self.game
        if prepare is None or game is None or self.replaying:
            return
        if self._planning is not None:
            self._planning.join()
        if self.priorities is None:
            self.priorities = Priorities(self.voice, game.table.seats, self.names, game.table.deck)
        night = call.phase is Phase.NIGHT
        calls = calls_ahead(call.id, night, game.night_order(call.number) if night else (),
                            () if night else game.night_order(call.number + 1))
        phase = (call.phase, call.number)
        prepare(self.priorities.soonest(calls, game.living(), seats_too=phase != self.ahead_phase))
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

    def refuse(self, call: Call, error: IllegalAnswer) -> None:
        """Says why an answer was refused; by day, a reason said aloud stays in the call's panel too, beside the prompt
        typed again (in the log at the bottom alone, a host without sound missed it)."""
        said = len(self.transcript)
        super().refuse(call, error)
        refused = self.transcript[said:]
        if refused and refused[-1].channel == VOICE and not self.replaying:
            self.screen.refusal(refused[-1].text)

    def end(self, call: Call, step: Step) -> None:
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
        if self.voice_log is not None:  # written as it is said, so that a host (or a test) follows the voice
            # With the time it began (epoch seconds): a game's pacing can be checked from its log afterwards.
            said = {"key": line.key, "text": line.text, "at": time.time()}
            self.voice_log.write(json.dumps(said, ensure_ascii=False) + "\n")
            self.voice_log.flush()
        text = line.text
        self.ambience.duck()
        try:
            if self.listener is None:
                self.speaker.say(self.voice.spoken(text))
                return
            self.listener.mute()
            try:
                self.speaker.say(self.voice.spoken(text))
            finally:
                self.listener.unmute(0.4)
        finally:
            self.ambience.unduck()


def deal_on_screen(narrator: TableNarrator, answers: KeypadAnswers, deal: Deal, seen: Callable[[int], None],
                   first: int = 1) -> None:
    """Deals with the program: each player in turn sees their own card alone on the screen.

    ``seen(seat)`` journals each card once it is hidden again; ``first`` is the seat a resumed deal goes on from.
    Keys are read as in any call: Ctrl-C, the host menu and repeat work.
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


def journal_header(config: TableConfig, seed: int, deal: Deal, dealing: bool = False) -> dict[str, Any]:
    """Returns what a journal must hold to rebuild the game: the table, the seed, the buildings and the deal.

    With ``dealing``, the journal begins before the deal: the cards follow it step by step (narrator.journal),
    and ``deal`` holds the buildings and, with deal: app, the cards drawn (with deal: cards, none yet).
    """
    header: dict[str, Any] = {"kind": "play", "config": config_to_dict(config), "seed": seed,
                              "buildings": [list(pair) for pair in deal.buildings]}
    if deal.roles:
        header.update(deal=list(deal.roles), centre=list(deal.centre))
    if dealing:
        header["dealing"] = True
    return header


@dataclasses.dataclass(frozen=True)
class Timing:
    """What times the calls made with eyes closed (narrator.pacing): a test gives a fake clock and sleep."""

    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic


@dataclasses.dataclass(frozen=True)
class NewGame:
    """Where a new game's journal is begun: ``path``, or a new file in ``folder`` (without either, in the default
    folder). With a ``deal`` (the cards as a test or a twin fixes them), the table deals nothing."""

    folder: Path | None = None
    path: Path | None = None
    deal: Deal | None = None


@dataclasses.dataclass(frozen=True)
class Resumed:
    """What a journaled game brings to go on: its ``journal`` (open to append), its ``deal``, and its answers to
    ``replay`` (read from ``replay_from``), narrated silently before the table goes on from the call where the
    game stopped. Stopped during the deal, its deal's steps so far are the ``progress`` (with deal: app, the cards
    drawn are the ``deal``; with deal: cards, there is none yet): the deal goes on. The ``pace`` is the living calls'
    lengths journaled (narrator.pacing's samples): the empty calls go on at the same pace.

    A new game, once its journal is begun, is a game resumed with nothing to replay (`begin_journal`).
    """

    journal: Journal
    deal: Deal | None = None
    replay: Sequence[Entry] = ()
    replay_from: str = ""
    progress: Sequence[dict[str, Any]] | None = None
    pace: dict[str, list[float]] = dataclasses.field(default_factory=dict)


class TableSession:
    """One game's narrator and keypad, wired to each other through what links them at the table: a secret result
    waits for Enter, a seat voted out has its last words, the host menu shows a seat its card, and the answers
    may be spoken (with a ``table.listener`` and its vocabulary, in the phases the config gives voice to).

    A BackgroundListener may still be loading its model: the game begins at once, and its failure is told at the
    next call (`settle`). ``journal`` is the game's once begun (a failure that stops the game says how to go on);
    ``deal`` the cards the host menu shows while the program deals them.
    """

    def __init__(self, config: TableConfig, table: TableIO, seed: int, timing: Timing = Timing(),
                 voice_log: TextIO | None = None) -> None:
        self.config = config
        self.table = table
        self.voice = load_voice(config.language)
        self.journal: Journal | None = None
        self.deal: Deal | None = None
        # A key pressed while listening is read again by the keypad.
        self.keys: Keys = PushbackKeys(table.keys) if table.listener is not None else table.keys
        self.background = table.listener if isinstance(table.listener, BackgroundListener) else None
        self.told_failure = False
        hears = table.listener is not None and table.vocabulary is not None and bool(config.voice_phases())
        pacing = Pacing(config.call_floor, config.pause, clock=timing.clock, sleep=timing.sleep)
        pacing.on_sample = self.record_pace
        settings = TableSettings(rules=config.table.rules, seats=config.table.seats, voice_log=voice_log,
                                 ambience=table.ambience, pacing=pacing, listener=table.listener if hears else None)
        hooks = TableHooks(acknowledge=self.acknowledge, safe_point=self.settle,
                           last_words=self.last_words if config.last_words else None)
        self.narrator = TableNarrator(self.voice, table.screen, table.speaker, config.names, settings, hooks)
        menu = MenuHooks(last_answered=self.last_answered, public_state=self.public_state,
                         card_again=self.card_again, eyes_open=lambda: self.narrator.eyes_open)
        self.answers = KeypadAnswers(self.keys, table.screen, self.voice, say=self.say, repeat=self.narrator.repeat,
                                     names=config.names, rng=random.Random(seed), debate_timer=config.debate_timer,
                                     clock=timing.clock, pacing=pacing, menu=menu,
                                     spoken=self.hearing() if hears else None, voice_phases=config.voice_phases(),
                                     on_microphone_lost=self.microphone_lost)
        if config.deal == "app":
            self.narrator.confession = self.confession

    def hearing(self) -> VoiceAnswers:
        """The table's answers said aloud, in the phases the config gives voice to: the keypad stays live."""
        config, screen, voice = self.config, self.table.screen, self.voice
        assert isinstance(self.keys, PushbackKeys)
        return VoiceAnswers(
            self.table.listener, self.table.vocabulary, self.keys, say=self.say, repeat=self.narrator.repeat,
            seat_words=lambda seat: voice.seat(seat, config.names),
            word=lambda word: voice.text(f"answer.{word}", {}),
            card_words=lambda number: voice.text("answer.card", {"number": number}),
            show=lambda key, values: screen.public(voice.text(key, values)),
            show_awake=lambda key, values: screen.entry(voice.text(key, values, config.names)))

    def record_pace(self, key: str, took: float) -> None:
        """Journals a living call's length, so that a resumed game keeps the pace of its empty calls."""
        if self.journal is not None:
            self.journal.record_pace(key, took)

    def say(self, key: str, values: dict[str, object]) -> None:
        """Says the line ``key`` aloud (what the keypad and the hearing say: read-backs, refusals)."""
        self.narrator.line(key, VOICE, **values)

    def acknowledge(self) -> None:
        """Waits for Enter while a secret result is on the screen (Ctrl-C and the host menu work here too)."""
        self.table.screen.entry("")
        self.table.screen.prompt(self.voice.text("prompt.done", {}))
        self.answers.enter()

    def settle(self) -> None:
        """At a safe point, once: a model that failed to load leaves the game to the keypad, saying why; one that
        cannot hear the vocabulary stops the game (its journal kept), as the check before the first line would."""
        failure = self.background.failure if self.background is not None else None
        if failure is None or self.told_failure:
            return
        self.told_failure = True
        self.narrator.listener = None
        self.answers.voice_answers = None
        if failure.fatal:
            kept = "" if self.journal is None else \
                f"\n{self.voice.text('screen.stopped', {})}\n  {resume_hint(self.journal.path)}"
            raise UserError(f"{failure}{kept}")
        self.table.screen.public(str(failure))
        self.table.screen.notice(str(failure))  # kept in the status line: the keypad answers from now on

    def microphone_lost(self) -> None:
        """The keypad answers from now on: says why (the model never came, or the microphone is gone)."""
        self.narrator.listener = None
        if self.background is not None and self.background.failure is not None:
            self.settle()  # the model never came: the warning says why
            self.say("voice.keypad", {})
            return
        self.say("voice.mic_lost", {})

    def last_words(self, seat: int) -> None:
        """Gives ``seat``, voted out, its last words: the table's seconds, counted down on the screen, in a panel of
        their own (under the vote's question, it seemed the vote's countdown)."""
        self.narrator.moment(self.narrator.shown_title)
        self.narrator.line("last_words.call", VOICE, seat=seat)
        self.answers.countdown(self.config.last_words, "screen.last_words_left")

    def confession(self, seat: int) -> None:
        """The Confessor hears ``seat`` (deal: app): nobody holds a card to show him, so the table closes its eyes and
        the screen shows him that seat's card as the game has it now, until Enter; then the eyes open again."""
        game, screen, narrator = self.narrator.game, self.table.screen, self.narrator
        assert game is not None
        narrator.line("confessor.to_screen", VOICE, seat=seat)
        screen.prompt(self.voice.text("prompt.see_card", {}))
        self.answers.enter()
        screen.prompt("")
        narrator.line("confessor.sees", SCREEN, seat=seat, role=game.card(seat))
        screen.prompt(self.voice.text("prompt.hide_card", {}))
        self.answers.enter()
        screen.clear()
        narrator.line("confessor.from_screen", VOICE)

    def card_again(self, seat: int) -> bool:
        """The host menu shows ``seat`` its card: as the game has it now (the Thief's as taken), or as drawn while
        the program deals; with real cards, none before they are identified. Nothing of it is journaled."""
        game = self.narrator.game
        cards = [game.card(s) for s in range(1, len(game.players) + 1)] if game is not None else \
            list(self.deal.roles) if self.deal is not None else []
        if not 1 <= seat <= len(cards):
            return False
        self.narrator.show_card(seat, cards[seat - 1], self.answers.enter)
        return True

    def last_answered(self) -> str | None:
        """The call whose answer the host menu may take back, by name (None: nothing it may take back)."""
        call = takeback(self.narrator.game) if self.narrator.game is not None else None
        return None if call is None else who(self.voice, call) or self.voice.role(call.id)

    def public_state(self) -> str:
        """What the host menu shows of the game: "Night 2 · alive: …" ("" before the first call)."""
        game = self.narrator.game
        if game is None or game.call is None:
            return ""
        return f"{self.narrator.title(game.call)} · {self.narrator.status(game.call)}"

    def close(self) -> None:
        """Closes the journal, if begun, and the table's devices."""
        if self.journal is not None:
            self.journal.close()
        self.table.screen.close()
        self.keys.close()
        self.table.speaker.close()
        self.narrator.ambience.close()
        if self.table.listener is not None:
            self.table.listener.close()


def takeback(game: Game) -> Call | None:
    """Returns the call whose answer the host menu may take back: the call just before the running one, if it was
    answered with eyes open this very day; else None, whatever the game holds. A night's answer (or the Judge's,
    given with eyes closed) is never taken back from the menu: asking "take back the Witch's answer?" would tell the
    table that her call was live, and taking it back would run the night again in front of everyone. The running
    call's own answer is taken back at its read-back (U)."""
    running = game.call
    if running is None or running.phase is not Phase.DAY or len(game.calls) < 2:
        return None
    before = game.calls[-2]
    if (before is not game.last_answered() or before.phase is not Phase.DAY or before.number != running.number
            or in_the_dark(before)):
        return None
    return before


def begin_journal(config: TableConfig, seed: int, new: NewGame, buildings: tuple[tuple[int, str], ...]) -> Resumed:
    """Begins a new game's journal (``new.path``, or a new file in ``new.folder``) before anything is said, the
    deal in it, so that a deal stopped part-way goes on with the same cards; returns the game as if resumed from
    it. Unless ``new`` gives the cards, the deal is to come: drawn from ``seed`` (deal: app) or none yet (deal:
    cards), with the public ``buildings``."""
    deal = new.deal
    progress: list[dict[str, Any]] | None = None
    if deal is None:
        progress = []
        drawn = deal_cards(config.table, seed) if config.deal == "app" else Deal((), ())
        deal = dataclasses.replace(drawn, buildings=buildings)
    path = new.path or (new.folder or default_folder()) / journal_name()
    journal = Journal(path, journal_header(config, seed, deal, dealing=progress is not None))
    return Resumed(journal, deal, progress=progress)


def deal_at_table(session: TableSession, game: Resumed, seed: int, buildings: tuple[tuple[int, str], ...]) -> Deal:
    """Deals the cards from the ``game.progress`` made so far: the program shows each seat its card (deal: app,
    drawn from ``seed``), or the characters identify their seats (deal: cards); each step journaled as taken,
    then the whole deal, with the public ``buildings``. Returns the deal."""
    config, narrator, journal = session.config, session.narrator, game.journal
    progress = game.progress or []
    narrator.moment(session.voice.text("recap.deal_title", {}))  # a title in the table's language from the start
    if progress:
        narrator.line("notice.resumed", VOICE)
    if config.deal == "cards":
        deal = identify(config.table, narrator, session.answers, progress, record=journal.record_deal)
    else:
        deal = session.deal = game.deal if game.deal is not None else deal_cards(config.table, seed)  # the seed's
        deal_on_screen(narrator, session.answers, deal, lambda seat: journal.record_deal({"seen": seat}),
                       first=len(progress) + 1)
    deal = dataclasses.replace(deal, buildings=buildings)
    journal.record_dealt(deal)
    return deal


def replayed(session: TableSession, game: Resumed) -> Answers:
    """Returns where the answers come from: the journal's first, narrated silently, until the table goes on live
    at the call where the game stopped (TableNarrator.go_live); the keypad's alone with nothing to replay."""
    if not game.replay:
        return session.answers
    session.narrator.replaying = True
    return Replay(game.replay_from, list(game.replay), session.answers, on_live=session.narrator.go_live)


def play_calls(session: TableSession, deal: Deal, game: Resumed) -> Game:
    """Plays the game dealt ``deal`` from its first call to its winner, the answers from `replayed`; journals each
    live answer (not those replayed), each one taken back, and the winner. Returns the finished game."""
    played = Game(session.config.table, deal)
    session.narrator.game = played
    source = replayed(session, game)
    journal = game.journal

    def record(call: Call, value: Answer) -> None:
        if not (isinstance(source, Replay) and source.replaying):
            journal.record(call, value)

    run(played, session.narrator, source, record=record, undone=journal.record_undo)
    if played.outcome is not None:
        journal.record_over(played.outcome.winner)
    return played


def show_recap(game: Game, voice: Voice, names: Sequence[str | None], journal: Path, out: TextIO | None) -> None:
    """The end: the recap, built from the deal and the answers, on ``out`` (the terminal, once the full screen is
    gone) and in a Markdown file beside the ``journal``, to share; then the winner again last, where a terminal
    shows it once the long recap has scrolled by."""
    recap = build_recap(game, voice, names)
    written = write_recap(journal, recap)
    stream = out or sys.stdout
    text = markdown(recap)
    # Named as the host would type them (~/...): the full path of a journal folder is wider than 80 columns, and a
    # terminal cuts it mid-word.
    paths = "\n".join(voice.text(key, {"path": typed_path(str(path))})
                      for key, path in (("screen.recap_file", written), ("screen.journal_file", journal)))
    if stream.isatty():
        from rich.console import Console
        from rich.markdown import Markdown
        from rich.text import Text

        console = Console(file=stream)
        console.print(Markdown(text))
        for line in recap.result:  # wrapped between words, never mid-word by the terminal (the winners' names)
            console.print(Text(line))
        print(paths, file=stream)  # whole, to be copied
    else:
        print("\n".join([text, *recap.result, paths]), file=stream)


def play(config: TableConfig, table: TableIO, *, seed: int | None = None, start: NewGame | Resumed = NewGame(),
         timing: Timing = Timing(), out: TextIO | None = None, voice_log: TextIO | None = None) -> Game:
    """Plays one game at the ``table`` from the deal to the winner; returns the finished game.

    ``start`` is a new game (where its journal goes: `begin_journal`) or a journaled one going on (`Resumed`).
    ``timing`` times the calls made with eyes closed. Every line said aloud (not the silent replay) is appended to
    ``voice_log`` as a JSON line ``{"key": ..., "text": ..., "at": ...}``, ``at`` the time it began (epoch
    seconds). The recap goes to ``out`` (`show_recap`). The devices are closed at the end, the ``table.ambience`` with
    the speaker; Ctrl-C stops the game, its journal kept (GameStopped says how to go on).
    """
    seed = random.SystemRandom().randrange(2**63) if seed is None else seed  # the OS's randomness, 63 bits
    session = TableSession(config, table, seed, timing, voice_log)
    session.narrator.show_eyes()
    session.narrator.show_table()  # the seats and their names, from the deal on
    session.narrator.plan_ahead(config.table.seats, config.table.deck)
    session.journal = start.journal if isinstance(start, Resumed) else None
    if isinstance(start, Resumed):
        session.narrator.pacing.samples = {key: list(pool) for key, pool in start.pace.items()}
    try:
        # The building tokens are public: dealt by the program (or as the host gave them), then announced.
        buildings = config.buildings_dealt or deal_buildings(config.table, seed)
        begun = start if isinstance(start, Resumed) else begin_journal(config, seed, start, buildings)
        session.journal, session.deal = begun.journal, begun.deal
        deal = begun.deal if begun.progress is None else deal_at_table(session, begun, seed, buildings)
        assert deal is not None, "a game going on from its journal gives its deal, or the deal's progress"
        game = play_calls(session, deal, begun)
    except KeyboardInterrupt:
        table.screen.close()
        if session.journal is None:
            raise GameStopped(session.voice.text("screen.stopped_unbegun", {})) from None
        raise GameStopped(f"{session.voice.text('screen.stopped', {})}\n  {resume_hint(session.journal.path)}") \
            from None
    finally:
        session.close()
    show_recap(game, session.voice, config.names, begun.journal.path, out)
    not_ready = getattr(table.speaker, "not_ready_told", "")
    if not_ready:  # told on the status line, gone with the full screen; the next game is when it helps
        print(not_ready, file=out or sys.stdout)
    return game


class QuietSpeaker:
    """Says nothing: for a full screen that shows the lines itself."""

    name = "quiet"

    def say(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


class QuietAmbience:
    """No night ambience: ``ambience: false``, or no loudspeaker to play it on."""

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def duck(self) -> None:
        pass

    def unduck(self) -> None:
        pass

    def close(self) -> None:
        pass


@dataclasses.dataclass(frozen=True)
class TableIO:
    """What a game at the table talks through: keys, screen, speaker, and maybe a microphone (a ``listener``
    and the ``vocabulary`` it hears) and the night's ``ambience``."""

    keys: Keys
    screen: Screen
    speaker: Any
    listener: Any = None
    vocabulary: Any = None
    ambience: Any = None


def open_table(config: TableConfig, *, plain: bool, model: str | None, warn: Callable[[str], None],
               listener_factory: ListenerFactory | None = None, warnings: Sequence[str] = ()) -> TableIO:
    """Opens the keypad, the loudspeaker (or the console), the screen, the night ambience if the table wants it
    (and a loudspeaker says the lines: with the console there is none, and no other warning) and, if the table
    wants it, the microphone. ``warnings`` found before (the journal's folder open to others) are told as its own.

    The speech model loads in the background (it takes seconds): the first lines need not wait for it.
    """
    from .keypad import TerminalKeys
    from .screen import PlainScreen, RichScreen
    from .speak import make_speaker, open_ambience, prepare_table

    try:
        keys = TerminalKeys()
    except OSError as exc:
        raise UserError(str(exc)) from None
    full_screen = sys.stdout.isatty() and not plain
    told_before: list[str] = []
    opened: list[Screen] = []

    def told(message: str) -> None:
        """A warning printed before the full screen opens is hidden by it: it is kept for its status line too;
        once it is open, a warning (a line that could not be said) goes to its status line, not across it."""
        if opened:
            opened[0].notice(message)
            return
        told_before.append(message)
        warn(message)

    for message in warnings:
        told(message)

    ambience = open_ambience(config.device, told, config.language) if config.ambience and config.speaker != "console" else None
    speaker = make_speaker(config.speaker, config.language, config.voice, config.rate, config.device, warn=told,
                           sink=ambience.play if ambience is not None else None)
    if ambience is not None and speaker.name == "console":
        ambience.close()  # the lines are printed: no loudspeaker to play it on
        ambience = None
    if speaker.name == "console":
        speaker.close()
        # The screen already shows every line said (the full screen, or --plain's one a line): printing it would tear
        # the full screen, and print each line twice with --plain.
        speaker = QuietSpeaker()
    listener, vocabulary = None, None
    if config.voice_phases():
        try:  # before the lines are rendered ahead: the model loads meanwhile, and while the first are said
            listener, vocabulary = start_listener(config.language, model or config.model, config.microphone, told,
                                                  listener_factory)
        except UserError:
            keys.close()
            speaker.close()
            if ambience is not None:
                ambience.close()
            raise
    # While the deal goes on, every line of this table is rendered ahead: no call waits for its voice.
    prepare_table(speaker, config.language, config.table.seats, config.names, config.table.deck,
                  config.source, config.table)
    screen: Screen = RichScreen(load_voice(config.language).text("screen.title")) if full_screen else PlainScreen()
    if full_screen:
        screen.notice(" · ".join(told_before))
        opened.append(screen)
    if isinstance(screen, RichScreen):
        keys.on_resize = screen.redraw
    return TableIO(keys, screen, speaker, listener, vocabulary, ambience)


def resume_play(args: Any, header: dict[str, Any], entries: Sequence[Entry], warn: Callable[[str], None],
                voice_log: TextIO | None = None, journal: Journal | None = None) -> Game:
    """Goes on with a journaled game at the table, from the call where it stopped; ``journal`` is its journal
    already open (and locked), or None to open it here."""
    where = f"{args.journal}:1"
    config = config_from_dict(header.get("config") or {}, where)
    if args.speaker:
        config = dataclasses.replace(config, speaker=args.speaker)
    seed = header.get("seed")
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise UserError(f"{where}: the journal's seed is damaged (a whole number from 0 to 2**63-1; got {shown(seed)})")
    try:
        deal, progress = journaled_deal(config, header)
    except (KeyError, TypeError, ValueError):
        raise UserError(f"{where}: the journal's deal is damaged") from None
    drawn = deal_cards(config.table, seed) if config.deal == "app" and deal is not None else deal
    if deal is not None and drawn is not None and (deal.roles, deal.centre) != (drawn.roles, drawn.centre):
        raise UserError(f"{where}: the journal's deal is not the one its seed deals: the journal was changed")
    journal = journal or Journal(Path(args.journal))
    try:
        io = open_table(config, plain=args.plain, model=args.model, warn=warn)
    except BaseException:
        journal.close()
        raise
    return play(config, io, seed=seed, voice_log=voice_log,
                start=Resumed(journal, deal, entries, replay_from=str(args.journal), progress=progress,
                              pace=header.get("pace") or {}))


def journaled_deal(config: TableConfig, header: dict[str, Any]) -> tuple[Deal | None, list[dict[str, Any]] | None]:
    """Returns a journal's deal (as read_journal gives its header) and, if the game stopped during the deal, the
    deal's steps so far; raises KeyError, TypeError or ValueError when they do not fit the table."""
    buildings = tuple((int(s), str(t)) for s, t in header.get("buildings") or ())
    progress = header.get("progress")
    deal = None
    if "deal" in header:
        deal = Deal(tuple(header["deal"]), tuple(header.get("centre") or ()), buildings)
        Game(config.table, deal)  # a deal that does not fit the table (its cards, its buildings) is damaged
    if progress is None:
        if deal is None:
            raise KeyError("deal")
    elif config.deal == "cards":
        journaled(config.table, progress)
    elif (deal is None or len(progress) > len(deal.roles)
          or [step.get("seen") for step in progress] != list(range(1, len(progress) + 1))):
        raise ValueError("the cards seen are not the seats in turn")
    return deal, progress
