"""The narration loop: the only bridge between the engine and the world.

It asks the engine for the next call, turns it into lines (said aloud on the
voice channel, or shown on the screen to those awake), gets an answer from a
source (a practice script, the keypad, a microphone), hands it back, and says
what followed. Voice lines are built from public information only, so two games
that differ in secret choices sound the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

from engine import Answer, Call, Elimination, Fact, Game, IllegalAnswer, Outcome, Phase, Rules, Step
from engine.calls import declared_calls, declared_facts
from engine.contract import AsSeat, Listed, Piece

from .voices import Voice

VOICE = "voice"
SCREEN = "screen"

FACTS = declared_facts()
"""Every fact the engine may tell, with the shapes of its values and its line (engine/contract.py)."""
CALLS = declared_calls()
"""Every call the engine may make, with its traits (engine/contract.py)."""


@dataclass(frozen=True)
class Line:
    """A line of the narrator: its key in the voice file, its channel and its final text."""

    key: str
    channel: str
    text: str

    def as_dict(self) -> dict[str, str]:
        """Returns the line as the report lists it."""
        return {"key": self.key, "channel": self.channel, "text": self.text}


class Answers(Protocol):
    """Where answers come from: a practice script, the keypad, a microphone."""

    def answer(self, call: Call, game: Game) -> Answer:
        """Returns the table's answer to ``call`` (None confirms a call that needs no answer)."""

    def refused(self, call: Call, value: Answer, error: IllegalAnswer) -> None:
        """Learns that ``value`` was refused; may raise to stop the game."""


def eyes_closed(call: Call) -> bool:
    """Returns whether ``call`` is a day call answered while everyone's eyes are closed (the Stuttering Judge's
    question, so that nobody sees who answers): its answer is typed on the keypad and read back on the screen
    only, never heard nor said aloud."""
    return call.phase is Phase.DAY and CALLS[call.id].traits.eyes_closed


def in_the_dark(call: Call) -> bool:
    """Returns whether ``call`` is made while everyone's eyes are closed (a night call, the Judge's question):
    then only the call itself is said aloud; its read-backs, refusals and notices are on the screen only."""
    return call.phase is Phase.NIGHT or eyes_closed(call)


CLOSE_EYES = frozenset({"nightfall.call", "notice.close_eyes", "card_again.call", "confessor.to_screen",
                        *(f"{c.id}.call" for c in CALLS.values() if c.traits.eyes_closed)})
"""The lines that close the table's eyes: the nightfall, the host's, the calls made by day with eyes closed, and the
Confessor's to the screen (deal: app)."""
OPEN_EYES = frozenset({"dawn.call", "notice.open_eyes", "confessor.from_screen",
                       *(f"{c.id}.open" for c in CALLS.values() if c.traits.eyes_closed)})
"""The lines that open them."""


REFUSALS = ("refusal.", "identify.no_such_card")
"""The lines that say why an answer was refused: on the screen, each on the refusal's line (narrator.screen)."""


def refusal(key: str) -> bool:
    """Returns whether the line ``key`` says why an answer was refused."""
    return key.startswith(REFUSALS)


def wakes(call: Call) -> bool:
    """Returns whether ``call`` wakes characters at night (said with a wake and a sleep line; not the nightfall)."""
    return call.phase is Phase.NIGHT and CALLS[call.id].night


def end_key(outcome: Outcome) -> str:
    """Returns the key of the line that says who won (a stalemate says why nobody did)."""
    return "end.stalemate" if outcome.reason == "stalemate" else f"end.{outcome.winner}"


@dataclass(frozen=True)
class VictimShown:
    """What a call shows of the werewolves' victim (the Witch's fact ``victim_shown``), as the keypad asks about
    it: the victim (None: none tonight), the potions left, whether she has one potion in all."""

    victim: int | None = None
    potions: tuple[str, ...] = ()
    one_in_all: bool = False


def victim_shown(call: Call) -> VictimShown | None:
    """Returns what ``call`` shows of the seat it is about (the werewolves' victim: the fact that declares it
    ``about``), or None when it shows nothing of one."""
    for fact in call.facts:
        about = FACTS[fact.key].about
        if about:
            seat, potions = fact.values.get(about), fact.values.get("potions")
            return VictimShown(seat if isinstance(seat, int) else None,
                               tuple(str(p) for p in potions) if isinstance(potions, list) else (),
                               fact.values.get("one_in_all") is True)
    return None


def potion_names(voice: Voice, potions: Sequence[object]) -> str:
    """Returns the Witch's ``potions`` named as a list in the table's language (the line ``screen.potions`` fills
    with them: what her call shows, and what the keypad shows once she heals)."""
    return voice.join([voice.lines[f"screen.potion.{potion}"] for potion in potions])


class Narrator:
    """Turns calls, facts and refusals into lines in one language and hands each to ``emit``."""

    def __init__(self, voice: Voice, emit: Callable[[Line], None], names: Sequence[str | None] = (),
                 rules: Rules = Rules()) -> None:
        self.voice = voice
        self.emit = emit
        self.names = tuple(names)
        self.rules = rules  # the table's house rules, for the lines that depend on them

    def line(self, key: str, channel: str, **values: object) -> Line:
        """Emits the line ``key`` on ``channel``, filled with ``values``, and returns it."""
        line = Line(key, channel, self.voice.text(key, values, self.names))
        self.emit(line)
        return line

    def begin(self, call: Call) -> None:
        """Says (and shows) what opens a call."""
        # A line a house rule or a variant picks instead (the call's declared traits say which, from the table's
        # rules alone): the call does not carry the rules, and the same words are said for the dead (fair play).
        ruled = CALLS[call.id].traits.opening(self.rules)
        # Secret ballots on the players' phones: nobody points on a signal (the vote's own line says so, another
        # call's is followed by how to vote).
        ballots = self.ballots_elsewhere(call)
        instead = f"{call.id}.call_ballots" if ballots and f"{call.id}.call_ballots" in self.voice.lines else None
        if wakes(call):
            self.line(self.worded(f"{call.id}.{ruled or 'wake'}"), VOICE)
        elif ruled:
            self.line(f"{call.id}.{ruled}", VOICE)
        elif instead:
            self.line(instead, VOICE)
        else:  # the seats that may be named are public: a line may say them (the revote's tied)
            self.line(f"{call.id}.call", VOICE, seats=list(call.seats))
        if ballots and not instead:
            self.line("notice.ballots", VOICE)
        elif CALLS[call.id].traits.signal and not ballots:  # "On my signal, everyone points", then the result
            self.line(f"{call.id}.signal", VOICE)
        for fact in call.facts:
            self.fact(fact)

    def worded(self, key: str) -> str:
        """Returns the key of the line said for ``key`` at this table: a table narrator's with the players' phones
        may have its own wording (``lovers.wake_phones``: come to the screen, or look at your phone)."""
        return key

    def ballots_elsewhere(self, call: Call) -> bool:
        """Returns whether the voters cast ``call``'s ballots on their phones (a table narrator's, with phones)."""
        return False

    def end(self, call: Call, step: Step) -> None:
        """Says and shows what the answer brought, then closes the call."""
        if eyes_closed(call):
            self.line(f"{call.id}.open", VOICE)  # "Everyone open your eyes", before what the answer brought
        for fact in step.facts:
            self.fact(fact)
        if wakes(call):
            self.line(f"{call.id}.sleep", VOICE)

    def fact(self, fact: Fact) -> None:
        """Passes a fact on as the engine declares it (engine/contract.py): secret ones on the screen, public ones
        aloud, in the lines its declaration tells it with, each value said as declared."""
        spec = FACTS.get(fact.key)
        if spec is None:
            raise KeyError(f"no line for the engine's fact {fact.key!r}")
        channel = SCREEN if spec.secret else VOICE
        for told in spec.tell(fact.values):
            self.line(told.line, channel, **{name: self.said(value) for name, value in told.values.items()})

    def said(self, value: object) -> object:
        """Returns a fact's value as this language says it when it declares how (a seat under another name, a
        list, a line's piece); else as it is, for the voice to say by its placeholder's name."""
        if isinstance(value, AsSeat):
            return self.voice.seat(value.number, self.names)
        if isinstance(value, Piece):
            return self.voice.text(value.line, value.values, self.names, fragment=True)
        if isinstance(value, Listed):
            return self.voice.join([str(self.said(item)) if isinstance(item, Piece) else self.voice.role(item)
                                    for item in value.items])
        return value

    def refuse(self, call: Call, error: IllegalAnswer) -> None:
        """Says why an answer to ``call`` was refused; shows it only to those awake when the reason is secret
        or everyone's eyes are closed (at night, even a public reason said aloud would tell that the called
        character is alive and acting)."""
        channel = SCREEN if error.secret or in_the_dark(call) else VOICE
        if error.key in self.voice.lines:
            self.line(error.key, channel, **error.values)
        elif error.secret:
            self.line("refusal.secret", SCREEN, reason=error.reason)
        else:
            self.line("refusal.shape", channel)

    def finish(self, game: Game) -> None:
        """Announces the winner, then shows the summary: the deal and the deaths."""
        outcome = game.outcome
        assert outcome is not None
        if outcome.winner == "village" and game.variant("black_death"):
            self.line("end.black_death", VOICE)  # the game is over: now the variant may be named
        else:
            self.line(end_key(outcome), VOICE)
        if outcome.winners:
            self.line("end.winners", VOICE, seats=list(outcome.winners))
        for seat, role in enumerate(game.deal.roles, start=1):
            self.line("summary.deal", SCREEN, seat=seat, role=role)
        for e in game.eliminated:
            self.line("summary.eliminated", SCREEN, when=self.when(e), seat=e.seat, role=e.role, cause=e.cause)

    def when(self, e: Elimination) -> str:
        """Returns "night 2" or "day 2" in this language."""
        return self.voice.text(f"summary.{e.phase.value}", {"number": e.number})


class StepBack(Exception):
    """Raised by an answer source to take back the last confirmed answer (the host's undo)."""


def run(game: Game, narrator: Narrator, answers: Answers,
        record: Callable[[Call, Answer], None] | None = None,
        undone: Callable[[], None] | None = None) -> None:
    """Plays ``game`` to its end: each call opened, answered (again after a refusal), recorded, closed.

    A source raising StepBack takes back the game's last answer; ``undone`` then records it.
    """
    while not game.over:
        call = game.call
        assert call is not None
        narrator.begin(call)
        while True:
            try:
                value = answers.answer(call, game)
            except StepBack:
                step_back(game, narrator, call, undone)
                step = None
                break
            try:
                step = game.answer(value)
                break
            except IllegalAnswer as error:
                narrator.refuse(call, error)
                answers.refused(call, value, error)
        if step is None:
            continue
        if record is not None:
            record(call, value)  # on disk before the next line is spoken
        try:
            narrator.end(call, step)
        except StepBack:  # the host took the answer back while its result was still on the screen
            step_back(game, narrator, call, undone)
    narrator.finish(game)


def step_back(game: Game, narrator: Narrator, call: Call, undone: Callable[[], None] | None) -> None:
    """Takes back the game's last answer (recorded by ``undone``), saying so aloud by day only."""
    if game.undo() and undone is not None:
        undone()
    narrator.line("answer.undone", SCREEN if in_the_dark(call) else VOICE)
