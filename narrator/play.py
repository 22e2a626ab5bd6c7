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

from engine import Answer, Call, Deal, Game, Phase, Rules, Step, Table, deal_cards
from engine.crier import crier as town_crier
from engine.table import deal_buildings

from .asking import KeypadAnswers
from .circle import seating
from .config import TableConfig, config_from_dict, config_to_dict
from .errors import GameStopped, UserError
from .hearing import BackgroundListener, ListenerFactory, PushbackKeys, VoiceAnswers, start_listener
from .hint import resume_hint
from .identify import identify, journaled
from .journal import Entry, Journal, default_folder, journal_name
from .keypad import Keys
from .narration import CLOSE_EYES, OPEN_EYES, SCREEN, VOICE, Line, Narrator, eyes_closed, run, wakes
from .pacing import Pacing
from .recap import build_recap, markdown, write_recap
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

    def __init__(self, voice: Voice, screen: Screen, speaker: Any, names: Sequence[str | None] = ()) -> None:
        super().__init__(voice, self._route, names)
        self.screen = screen
        self.speaker = speaker
        self.opening: list[Line] = []
        self.game: Game | None = None
        self.acknowledge: Callable[[], None] | None = None
        self.listener: Any = None  # muted while the narrator speaks, so it never hears itself
        self.replaying = False  # a resumed game's journaled part is narrated silently
        self.call_start = 0
        self.transcript: list[Line] = []
        self.safe_point: Callable[[], None] = lambda: None  # between calls: a model's failure is told here
        self.pacing = Pacing()  # the keypad's: it opens a call made with eyes closed, the narrator closes it
        self.eyes_open = True
        self.voice_log: TextIO | None = None  # every line said aloud, as JSON lines (play --voice-log)
        self.shown_title = ""  # the running call's (or moment's) title, to show it again after the host menu
        self.seats = len(self.names)  # the table's size, for the seating circle (play gives it)
        self.last_words: Callable[[int], None] | None = None  # gives a seat voted out its last words
        self.ambience: Any = QuietAmbience()  # narrator.speak.ambience.NightAmbience, with ambience: true
        self.priorities: Priorities | None = None  # the table's lines, built by `plan_ahead` (or at the first call)
        self.ahead_phase: tuple[Phase, int] | None = None
        self._planning: threading.Thread | None = None

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
            self.screen.public(line.text)
            self._say(line)
        else:
            self.screen.secret(line.text)

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
        self.line("notice.resumed", VOICE)
        self.close_or_open_eyes(call)
        self.show_eyes()  # the silent part changed nothing on the screen
        self.screen.status(self.status(call))
        self.screen.seating(seating(self.voice, self.seats, self.names, self.game))
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
                if line.channel == SCREEN:
                    self.screen.secret(line.text)
        # The running call's lines are its own again: the card shown is never among the secrets shown again.
        del self.transcript[mark:]
        self.shown_title, self.opening, self.call_start = title, opening, start

    def repeat(self) -> None:
        """Says the running call's opening lines again, and shows that it did (a table without sound sees it)."""
        if self.opening:
            self.screen.notice(self.voice.text("screen.repeated", {"text": self.opening[-1].text}), flash=True)
        for line in list(self.opening):
            self._say(line)

    def _say(self, line: Line) -> None:
        if self.voice_log is not None:  # written as it is said, so that a host (or a test) follows the voice
            self.voice_log.write(json.dumps({"key": line.key, "text": line.text}, ensure_ascii=False) + "\n")
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


def play(config: TableConfig, keys: Keys, screen: Screen, speaker: Any, *, seed: int | None = None,
         journal_dir: Path | None = None, sleep: Callable[[float], None] = time.sleep,
         out: TextIO | None = None, listener: Any = None, vocabulary: Any = None,
         deal: Deal | None = None, journal: Journal | None = None, replay: Sequence[Entry] = (),
         replay_from: str = "", progress: Sequence[dict[str, Any]] | None = None,
         journal_path: Path | None = None, clock: Callable[[], float] = time.monotonic,
         voice_log: TextIO | None = None, ambience: Any = None) -> Game:
    """Plays one game at the table from the deal to the winner; returns the finished game.

    With a ``listener`` (and its ``vocabulary``), answers may also be spoken in the phases the
    config gives voice to; the keypad stays live. A BackgroundListener may still be loading its model:
    the game begins at once, the first spoken answer waits for it (the keypad does not), and its failure
    is told at the next call (a warning on the screen, the keypad answers; a vocabulary the model
    cannot hear stops the game, its journal kept). To go on with a journaled game, give its ``deal``,
    its ``journal`` (open to append) and its answers to ``replay``: they are narrated silently, then
    the table goes on from the call where the game stopped. A journaled game stopped during the deal gives
    its deal's steps so far as ``progress`` (and, with deal: app, the cards drawn as ``deal``): the deal goes on.

    A new game's journal (``journal_path``, or a new file in ``journal_dir``) is begun before anything is said
    or shown, the deal in it, so that a deal stopped part-way goes on with the same cards. ``sleep`` and
    ``clock`` time the calls made with eyes closed (narrator.pacing).
    Every line said aloud (not the silent replay) is appended to ``voice_log`` as a JSON line
    ``{"key": ..., "text": ...}``. The ``ambience`` (open_table's, or None) plays under the night; it is
    closed with the speaker.
    """
    voice = load_voice(config.language)
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    narrator = TableNarrator(voice, screen, speaker, config.names)
    narrator.rules = config.table.rules
    narrator.voice_log = voice_log
    narrator.seats = config.table.seats
    narrator.show_eyes()
    narrator.show_table()  # the seats and their names, from the deal on
    if ambience is not None:
        narrator.ambience = ambience
    narrator.plan_ahead(config.table.seats, config.table.deck)
    if listener is not None:
        keys = PushbackKeys(keys)  # a key pressed while listening is read again by the keypad

    def say(key: str, values: dict[str, object]) -> None:
        narrator.line(key, VOICE, **values)

    def acknowledge() -> None:
        screen.entry("")
        screen.prompt(voice.text("prompt.done", {}))
        answers.enter()  # Ctrl-C and the host menu work here too, while the result is on the screen

    narrator.acknowledge = acknowledge
    background = listener if isinstance(listener, BackgroundListener) else None
    told_failure = False

    def settle() -> None:
        """At a safe point, once: a model that failed to load leaves the game to the keypad, saying why."""
        nonlocal told_failure
        failure = background.failure if background is not None else None
        if failure is None or told_failure:
            return
        told_failure = True
        narrator.listener = None
        answers.voice_answers = None
        if failure.fatal:  # as when the check ran before the first line: stop, loudly
            kept = "" if journal is None else \
                f"; the game stopped, every answer so far is saved; to go on:\n  {resume_hint(journal.path)}"
            raise UserError(f"{failure}{kept}")
        screen.public(str(failure))
        screen.notice(str(failure))  # kept in the status line: the keypad answers from now on

    narrator.safe_point = settle

    def last_words(seat: int) -> None:
        narrator.line("last_words.call", VOICE, seat=seat)
        answers.countdown(config.last_words, "screen.last_words_left")

    if config.last_words:
        narrator.last_words = last_words
    rng = random.Random(seed)
    narrator.pacing = Pacing(config.call_floor, config.pause, clock=clock, sleep=sleep)
    answers = KeypadAnswers(keys, screen, voice, say=say, repeat=narrator.repeat, names=config.names,
                            rng=rng, debate_timer=config.debate_timer, clock=clock, pacing=narrator.pacing)

    def card_again(seat: int) -> bool:
        """The host menu shows ``seat`` its card: as the game has it now (the Thief's as taken), or as drawn while
        the program deals; with real cards, none before they are identified. Nothing of it is journaled."""
        game = narrator.game
        cards = [game.card(s) for s in range(1, len(game.players) + 1)] if game is not None else \
            list(deal.roles) if deal is not None else []
        if not 1 <= seat <= len(cards):
            return False
        narrator.show_card(seat, cards[seat - 1], answers.enter)
        return True

    answers.card_again = card_again
    if listener is not None and vocabulary is not None and config.voice_phases():
        assert isinstance(keys, PushbackKeys)
        narrator.listener = listener
        answers.voice_answers = VoiceAnswers(
            listener, vocabulary, keys, say=say, repeat=narrator.repeat,
            seat_words=lambda seat: voice.seat(seat, config.names),
            word=lambda word: voice.text(f"answer.{word}", {}),
            card_words=lambda number: voice.text("answer.card", {"number": number}),
            show=lambda key, values: screen.public(voice.text(key, values)),
            show_awake=lambda key, values: screen.entry(voice.text(key, values, config.names)))
        answers.voice_phases = config.voice_phases()

        def microphone_lost() -> None:
            narrator.listener = None
            if background is not None and background.failure is not None:
                settle()  # the model never came: the warning says why
                say("voice.keypad", {})
                return
            say("voice.mic_lost", {})

        answers.on_microphone_lost = microphone_lost
    try:
        # The building tokens are public: dealt by the program (or as the host gave them), then announced.
        buildings = config.buildings_dealt or deal_buildings(config.table, seed)
        if journal is None:
            if deal is None:
                progress = []
                drawn = deal_cards(config.table, seed) if config.deal == "app" else Deal((), ())
                deal = dataclasses.replace(drawn, buildings=buildings)
            path = journal_path or (journal_dir or default_folder()) / journal_name(seed)
            journal = Journal(path, journal_header(config, seed, deal, dealing=progress is not None))
        writer = journal
        if progress is not None:
            if progress:
                narrator.line("notice.resumed", VOICE)
            if config.deal == "cards":
                deal = identify(config.table, narrator, answers, progress, record=writer.record_deal)
            else:
                deal = deal if deal is not None else deal_cards(config.table, seed)  # drawn from the seed
                deal_on_screen(narrator, answers, deal, lambda seat: writer.record_deal({"seen": seat}),
                               first=len(progress) + 1)
            deal = dataclasses.replace(deal, buildings=buildings)
            writer.record_dealt(deal)
        assert deal is not None, "a game going on from its journal gives its deal, or the deal's progress"
        game = Game(config.table, deal)
        narrator.game = game

        def last_answered() -> str | None:
            call = game.last_answered()
            return None if call is None else voice.role(call.id)

        answers.last_answered = last_answered
        answers.public_state = lambda: (f"{narrator.title(game.call)} · {narrator.status(game.call)}"
                                        if game.call is not None else "")
        source: Any = answers
        if replay:
            narrator.replaying = True
            source = Replay(replay_from, list(replay), answers, on_live=narrator.go_live)

        def record(call: Call, value: Answer) -> None:
            if not (replay and source.replaying):
                writer.record(call, value)

        run(game, narrator, source, record=record, undone=writer.record_undo)
        if game.outcome is not None:
            writer.record_over(game.outcome.winner)
    except KeyboardInterrupt:
        screen.close()
        if journal is None:
            raise GameStopped("the game stopped before it began") from None
        raise GameStopped(f"the game stopped; every answer so far is saved; to go on:\n  "
                          f"{resume_hint(journal.path)}") from None
    finally:
        if journal is not None:
            journal.close()
        screen.close()
        keys.close()
        speaker.close()
        narrator.ambience.close()
        if listener is not None:
            listener.close()
    # The recap, built from the deal and the answers now that the game is over: on the terminal once the full
    # screen is gone, and in a Markdown file beside the journal, to share.
    recap = build_recap(game, voice, config.names)
    written = write_recap(journal.path, recap)
    stream = out or sys.stdout
    text = markdown(recap)
    if stream.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console(file=stream).print(Markdown(text))
    else:
        print(text, file=stream)
    # The winner again last, where a terminal shows it once the long recap has scrolled by.
    print("\n".join([*recap.result, f"(recap: {written})", f"(journal: {journal.path})"]), file=stream)
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


@dataclasses.dataclass
class TableIO:
    """What a game at the table talks through: keys, screen, speaker, and maybe a microphone."""

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
    if full_screen and speaker.name == "console":
        speaker.close()
        speaker = QuietSpeaker()  # the full screen already shows every line said; printing would tear it
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
    prepare_table(speaker, config.language, config.table.seats, config.names, config.table.deck)
    screen: Screen = RichScreen() if full_screen else PlainScreen()
    if full_screen:
        screen.notice(" · ".join(told_before))
        opened.append(screen)
    return TableIO(keys, screen, speaker, listener, vocabulary, ambience)


def resume_play(args: Any, header: dict[str, Any], entries: Sequence[Entry], warn: Callable[[str], None],
                voice_log: TextIO | None = None, journal: Journal | None = None) -> Game:
    """Goes on with a journaled game at the table, from the call where it stopped; ``journal`` is its journal
    already open (and locked), or None to open it here."""
    where = f"{args.journal}:1"
    config = config_from_dict(header.get("config") or {}, where)
    if args.speaker:
        config = dataclasses.replace(config, speaker=args.speaker)
    try:
        deal, progress = journaled_deal(config, header)
        seed = int(header["seed"])
    except (KeyError, TypeError, ValueError):
        raise UserError(f"{where}: the journal's deal is damaged") from None
    journal = journal or Journal(Path(args.journal))
    try:
        io = open_table(config, plain=args.plain, model=args.model, warn=warn)
    except BaseException:
        journal.close()
        raise
    return play(config, io.keys, io.screen, io.speaker, seed=seed, listener=io.listener, vocabulary=io.vocabulary,
                deal=deal, journal=journal, replay=entries, replay_from=str(args.journal), progress=progress,
                voice_log=voice_log, ambience=io.ambience)


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
