"""A game at a real table: the deal, every call said aloud, answers from the keypad, secrets on the screen."""

from __future__ import annotations

import dataclasses
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from engine import Call, Deal, Game, Phase, Rules, Step, Table, deal_cards

from .asking import KeypadAnswers
from .hearing import PushbackKeys as PushbackKeysType
from .identify import identify
from .config import TableConfig
from .journal import Journal, default_folder
from .keypad import Keys
from .narration import SCREEN, VOICE, Line, Narrator, run
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
        self.transcript: list[Line] = []

    def _route(self, line: Line) -> None:
        self.transcript.append(line)
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
        return text

    def begin(self, call: Call) -> None:
        self.opening = []
        self.screen.status(self.status(call))
        self.screen.show_call(self.title(call), "")
        super().begin(call)

    def end(self, call: Call, step: Step) -> None:
        if any(f.secret for f in step.facts) and self.acknowledge is not None:
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
    table = config.table
    return {"kind": "play", "language": config.language, "names": list(config.names),
            "seats": table.seats, "deck": list(table.deck), "rules": dataclasses.asdict(table.rules),
            "seed": seed, "deal": list(deal.roles), "centre": list(deal.centre)}


def play(config: TableConfig, keys: Keys, screen: Screen, speaker: Any, *, seed: int | None = None,
         journal_dir: Path | None = None, sleep: Callable[[float], None] = time.sleep,
         out: TextIO | None = None, listener: Any = None, vocabulary: Any = None) -> Game:
    """Plays one game at the table from the deal to the winner; returns the finished game.

    With a ``listener`` (and its ``vocabulary``), answers may also be spoken in the phases the
    config gives voice to; the keypad stays live.
    """
    voice = load_voice(config.language)
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    narrator = TableNarrator(voice, screen, speaker, config.names)
    if listener is not None:
        from .hearing import PushbackKeys

        keys = PushbackKeys(keys)

    def say(key: str, values: dict[str, object]) -> None:
        narrator.line(key, VOICE, **values)

    def acknowledge() -> None:
        screen.entry("")
        screen.prompt(voice.text("prompt.done", {}))
        wait_enter(keys)

    narrator.acknowledge = acknowledge
    rng = random.Random(seed)
    answers = KeypadAnswers(keys, screen, voice, say=say, repeat=narrator.repeat, names=config.names,
                            pause=config.pause, rng=rng, sleep=sleep, debate_timer=config.debate_timer)
    if listener is not None and vocabulary is not None and config.voice_phases():
        from .hearing import VoiceAnswers

        assert isinstance(keys, PushbackKeysType)
        narrator.listener = listener
        answers.voice_answers = VoiceAnswers(
            listener, vocabulary, keys, say=say, repeat=narrator.repeat,
            seat_words=lambda seat: voice.seat(seat, config.names),
            word=lambda word: voice.text(f"answer.{word}", {}))
        answers.voice_phases = config.voice_phases()

        def microphone_lost() -> None:
            narrator.listener = None
            say("voice.mic_lost", {})

        answers.on_microphone_lost = microphone_lost
    journal: Journal | None = None
    try:
        if config.deal == "cards":
            deal = identify(config.table, narrator, answers, rng, sleep, config.pause)
        else:
            deal = deal_cards(config.table, seed)
            deal_on_screen(narrator, keys, screen, deal)
        game = Game(config.table, deal)
        narrator.game = game
        folder = journal_dir or default_folder()
        journal = Journal(folder / f"game-{time.strftime('%Y%m%d-%H%M%S')}-{seed}.jsonl",
                          journal_header(config, seed, deal))
        run(game, narrator, answers, record=journal.record)
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
