"""A game at a real table: the deal, every call said aloud, answers from the keypad, secrets on the screen."""

from __future__ import annotations

import dataclasses
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from engine import Answer, Call, Deal, Game, Phase, Rules, Step, Table, deal_cards
from engine.table import deal_buildings

from .asking import KeypadAnswers
from .config import TableConfig, config_from_dict, config_to_dict
from .errors import GameStopped, UserError
from .hearing import BackgroundListener, ListenerFactory, PushbackKeys, VoiceAnswers, start_listener
from .identify import identify
from .journal import Entry, Journal, default_folder, journal_name
from .keypad import Keys
from .narration import SCREEN, VOICE, Line, Narrator, run
from .replay import Replay
from .screen import Screen
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


class TableNarrator(Narrator):
    """The narrator at a real table: voice lines to the loudspeaker and the screen's log, secret lines
    to the screen while their call runs; remembers a call's opening lines to repeat them."""

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

    def _route(self, line: Line) -> None:
        self.transcript.append(line)
        if self.replaying:
            return
        self._show(line)

    def _show(self, line: Line) -> None:
        if line.channel == VOICE:
            self.opening.append(line)
            self.screen.public(line.text)
            self._say(line.text)
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
        crier = self.game.links.get("town_crier")  # public: named aloud by the Sheriff
        if crier and self.game.alive(crier[0]):
            text += " · " + self.voice.text("screen.town_crier", {"number": crier[0]})
        return text

    def go_live(self, call: Call) -> None:
        """Ends a resumed game's silent part: says the game goes on, and opens the running call again."""
        self.replaying = False
        self.line("notice.resumed", VOICE)
        self.screen.status(self.status(call))
        self.screen.show_call(self.title(call), "")
        self.opening = []
        for line in self.transcript[self.call_start:-1]:
            self._show(line)

    def begin(self, call: Call) -> None:
        self.safe_point()
        self.call_start = len(self.transcript)
        self.opening = []
        self.screen.status(self.status(call))
        self.screen.show_call(self.title(call), "")
        super().begin(call)

    def end(self, call: Call, step: Step) -> None:
        if any(f.secret for f in step.facts) and self.acknowledge is not None and not self.replaying:
            # What the answer revealed (the Seer's look, the Fox's sign, the Thief's new card) stays on
            # the screen until those awake have read it.
            for fact in step.facts:
                self.fact(fact)
            self.acknowledge()
            step = step._replace(facts=())
        super().end(call, step)
        self.screen.clear()

    def repeat(self) -> None:
        """Says the running call's opening lines again."""
        for line in list(self.opening):
            self._say(line.text)

    def _say(self, text: str) -> None:
        if self.listener is None:
            self.speaker.say(self.voice.spoken(text))
            return
        self.listener.mute()
        try:
            self.speaker.say(self.voice.spoken(text))
        finally:
            self.listener.unmute(0.4)


def wait_enter(keys: Keys) -> None:
    """Waits for Enter."""
    while keys.read() != "enter":
        pass


def deal_on_screen(narrator: TableNarrator, keys: Keys, screen: Screen, deal: Deal) -> None:
    """Deals with the program: each player in turn sees their own card alone on the screen."""
    narrator.line("deal.app_intro", VOICE)
    for seat, role in enumerate(deal.roles, start=1):
        screen.show_call(narrator.voice.seat(seat, narrator.names), "")
        narrator.line("deal.app_turn", VOICE, seat=seat)
        screen.prompt(narrator.voice.text("prompt.done", {}))
        wait_enter(keys)
        screen.prompt("")
        narrator.line("deal.app_show", SCREEN, role=role)
        wait_enter(keys)
        screen.clear()
        screen.entry(narrator.voice.text("deal.app_hidden", {}))
        wait_enter(keys)
        screen.clear()


def journal_header(config: TableConfig, seed: int, deal: Deal) -> dict[str, Any]:
    """Returns what a journal must hold to rebuild the game: the table, the seed and the deal."""
    return {"kind": "play", "config": config_to_dict(config), "seed": seed, "deal": list(deal.roles),
            "centre": list(deal.centre), "buildings": [list(pair) for pair in deal.buildings]}


def play(config: TableConfig, keys: Keys, screen: Screen, speaker: Any, *, seed: int | None = None,
         journal_dir: Path | None = None, sleep: Callable[[float], None] = time.sleep,
         out: TextIO | None = None, listener: Any = None, vocabulary: Any = None,
         deal: Deal | None = None, journal: Journal | None = None, replay: Sequence[Entry] = (),
         replay_from: str = "", journal_file: Path | None = None) -> Game:
    """Plays one game at the table from the deal to the winner; returns the finished game.

    With a ``listener`` (and its ``vocabulary``), answers may also be spoken in the phases the
    config gives voice to; the keypad stays live. A BackgroundListener may still be loading its model:
    the game begins at once, the first spoken answer waits for it (the keypad does not), and its failure
    is told at the next call (a warning on the screen, the keypad answers; a vocabulary the model
    cannot hear stops the game, its journal kept). To go on with a journaled game, give its ``deal``,
    its ``journal`` (open to append) and its answers to ``replay``: they are narrated silently, then
    the table goes on from the call where the game stopped. A new game's journal is ``journal_file``, or a new
    file in ``journal_dir`` (default: the journal folder) named after its date, time and seed.
    """
    voice = load_voice(config.language)
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    narrator = TableNarrator(voice, screen, speaker, config.names)
    narrator.rules = config.table.rules
    if listener is not None:
        keys = PushbackKeys(keys)  # a key pressed while listening is read again by the keypad

    def say(key: str, values: dict[str, object]) -> None:
        narrator.line(key, VOICE, **values)

    def acknowledge() -> None:
        screen.entry("")
        screen.prompt(voice.text("prompt.done", {}))
        wait_enter(keys)

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
                f"; the game stopped, every answer so far is saved: to go on, werewolf-narrator resume {journal.path}"
            raise UserError(f"{failure}{kept}")
        screen.public(str(failure))

    narrator.safe_point = settle
    rng = random.Random(seed)
    answers = KeypadAnswers(keys, screen, voice, say=say, repeat=narrator.repeat, names=config.names,
                            pause=config.pause, rng=rng, sleep=sleep, debate_timer=config.debate_timer)
    if listener is not None and vocabulary is not None and config.voice_phases():
        assert isinstance(keys, PushbackKeys)
        narrator.listener = listener
        answers.voice_answers = VoiceAnswers(
            listener, vocabulary, keys, say=say, repeat=narrator.repeat,
            seat_words=lambda seat: voice.seat(seat, config.names),
            word=lambda word: voice.text(f"answer.{word}", {}),
            card_words=lambda number: voice.text("answer.card", {"number": number}),
            show=lambda key, values: screen.public(voice.text(key, values)))
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
        if deal is None:
            if config.deal == "cards":
                deal = identify(config.table, narrator, answers, rng, sleep, config.pause)
            else:
                deal = deal_cards(config.table, seed)
                deal_on_screen(narrator, keys, screen, deal)
            # The building tokens are public: dealt by the program (or as the host gave them), then announced.
            deal = dataclasses.replace(deal, buildings=config.buildings_dealt or deal_buildings(config.table, seed))
        game = Game(config.table, deal)
        narrator.game = game

        def last_answered() -> str | None:
            call = game.last_answered()
            return None if call is None else voice.role(call.id)

        answers.last_answered = last_answered
        answers.public_state = lambda: (f"{narrator.title(game.call)} · {narrator.status(game.call)}"
                                        if game.call is not None else "")
        if journal is None:
            folder = journal_dir or default_folder()
            journal = Journal(journal_file or folder / journal_name(seed), journal_header(config, seed, deal))
        source: Any = answers
        if replay:
            narrator.replaying = True
            source = Replay(replay_from, list(replay), answers, on_live=narrator.go_live)
        writer = journal

        def record(call: Call, value: Answer) -> None:
            if not (replay and source.replaying):
                writer.record(call, value)

        run(game, narrator, source, record=record, undone=writer.record_undo)
    except KeyboardInterrupt:
        screen.close()
        if journal is None:
            raise GameStopped("the game stopped before it began") from None
        raise GameStopped(f"the game stopped; every answer so far is saved; to go on: "
                          f"werewolf-narrator resume {journal.path}") from None
    finally:
        if journal is not None:
            journal.close()
        screen.close()
        keys.close()
        speaker.close()
        if listener is not None:
            listener.close()
    stream = out or sys.stdout
    print(voice.text("summary.title", {}), file=stream)
    for line in narrator.transcript:
        if line.key.startswith(("end.", "summary.")):
            print(line.text, file=stream)
    print(f"(journal: {journal.path})", file=stream)
    return game


class QuietSpeaker:
    """Says nothing: for a full screen that shows the lines itself."""

    name = "quiet"

    def say(self, text: str) -> None:
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


def open_table(config: TableConfig, *, plain: bool, model: str | None, warn: Callable[[str], None],
               listener_factory: ListenerFactory | None = None) -> TableIO:
    """Opens the keypad, the loudspeaker (or the console), the screen and, if the table wants it, the microphone.

    The speech model loads in the background (it takes seconds): the first lines need not wait for it.
    """
    from .keypad import TerminalKeys
    from .screen import PlainScreen, RichScreen
    from .speak import make_speaker, prepare_table

    try:
        keys = TerminalKeys()
    except OSError as exc:
        raise UserError(str(exc)) from None
    full_screen = sys.stdout.isatty() and not plain
    speaker = make_speaker(config.speaker, config.language, config.voice, config.rate, config.device, warn=warn)
    if full_screen and speaker.name == "console":
        speaker.close()
        speaker = QuietSpeaker()  # the full screen already shows every line said; printing would tear it
    listener, vocabulary = None, None
    if config.voice_phases():
        try:  # before the lines are rendered ahead: the model loads meanwhile, and while the first are said
            listener, vocabulary = start_listener(config.language, model or config.model, config.microphone, warn,
                                                  listener_factory)
        except UserError:
            keys.close()
            speaker.close()
            raise
    # While the deal goes on, every line of this table is rendered ahead: no call waits for its voice.
    prepare_table(speaker, config.language, config.table.seats, config.names, config.table.deck)
    screen: Screen = RichScreen("Enter · Backspace · U undo · R repeat") if full_screen else PlainScreen()
    return TableIO(keys, screen, speaker, listener, vocabulary)


def resume_play(args: Any, header: dict[str, Any], entries: Sequence[Entry], warn: Callable[[str], None]) -> Game:
    """Goes on with a journaled game at the table, from the call where it stopped."""
    where = f"{args.journal}:1"
    config = config_from_dict(header.get("config") or {}, where)
    if args.speaker:
        config = dataclasses.replace(config, speaker=args.speaker)
    try:
        deal = Deal(tuple(header["deal"]), tuple(header.get("centre") or ()),
                    tuple((int(s), str(t)) for s, t in header.get("buildings") or ()))
        seed = int(header["seed"])
        Game(config.table, deal)  # a deal that does not fit the table (its cards, its buildings) is damaged
    except (KeyError, TypeError, ValueError):
        raise UserError(f"{where}: the journal's deal is damaged") from None
    journal = Journal(Path(args.journal))
    try:
        io = open_table(config, plain=args.plain, model=args.model, warn=warn)
    except BaseException:
        journal.close()
        raise
    return play(config, io.keys, io.screen, io.speaker, seed=seed, listener=io.listener, vocabulary=io.vocabulary,
                deal=deal, journal=journal, replay=entries, replay_from=str(args.journal))
