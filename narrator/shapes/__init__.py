"""The shapes of the table's answers, one module each, found by listing this package as the characters are: for
each kind of call (engine.Kind), how the keypad reads its answer, what a voice may answer it with, and how a
practice script writes it (in words for the docs, and as a JSON Schema). The answers a kind may take before the
rules are applied are the engine's half (engine.Kind.candidates).

A character whose call takes a new shape declares its kind (an engine.Kind, with its candidates) in its own module
and adds a module here that declares ``SHAPES`` (docs/adding.md)."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from engine import KINDS, MAX_SEATS, Answer, Call, Game, Kind

from ..narration import StepBack
from ..screen import Screen
from ..voices import Voice


class Repeat(Exception):
    """The table asked for the call again."""


class HostUndo(StepBack):
    """The host took back the last confirmed answer (the host menu): the game steps back one answer."""


class Undo(Exception):
    """The table took back the last part of its answer."""


class Refused(Exception):
    """The engine refuses the answer typed: it goes to the engine unread, which says why (by day aloud, at
    night on the screen) and asks again."""

    def __init__(self, value: Answer) -> None:
        super().__init__(value)
        self.value = value


UNCHECKED = object()
"""What the deal's read-backs confirm (the seats of real cards): no answer of the game, nothing to check."""

AGAIN = object()
"""A roll call's ballot to ask again (a seat refused, repeat)."""


class Pad(Protocol):
    """The keypad as a shape's reader uses it (asking.KeypadAnswers): numbers typed, read back and confirmed;
    refusals; the screen and the voice of the table."""

    screen: Screen
    voice: Voice
    names: tuple[str | None, ...]
    day: bool
    """Whether the call is made by day (its read-backs and refusals said aloud too) or in the dark."""
    game: Game | None
    check: Callable[[Answer], object] | None
    ballots: dict[int, int | None]
    """The running vote's secret ballots cast on the players' phones (the roll call asks the other voters)."""
    say: Callable[[str, dict[str, object]], None]
    repeat: Callable[[], None]

    def text(self, key: str, **values: object) -> str:
        """Returns the line ``key`` in the table's language."""

    def seat_words(self, seats: Sequence[int]) -> str:
        """Returns ``seats`` said as a list."""

    def key(self) -> str:
        """Reads a key (the host's keys, repeat and Ctrl-C handled)."""

    def nothing_here(self) -> None:
        """Tells that the key pressed does nothing here."""

    def number(self, prompt: str, allow_zero: bool, tie: bool = False, roll_call: bool = False,
               largest: int | None = None) -> int | str:
        """Reads a number closed with Enter (or "tie", "rollcall")."""

    def confirm(self, said: str, value: Answer = UNCHECKED) -> bool:
        """Reads back ``said``; True on Enter, False on Backspace."""

    def refuse(self, key: str, **values: object) -> None:
        """Shows (by day, says) why what was typed is refused."""

    def choice(self, prompt: str, options: dict[int, tuple[Answer, str]],
               whole: Callable[[Answer], Answer] = ..., other: str = "refusal.not_an_option") -> Answer:
        """Reads one of the numbered ``options``."""

    def seat(self, optional: bool, prompt_key: str | None = None, whole: Callable[[int | None], Answer] = ...,
             poison: bool = False) -> int | None:
        """Reads a seat (0: nobody, when ``optional``)."""

    def numbers(self, count: int, largest: int, said: Callable[[list[int]], str] | None = None,
                undo_out: bool = False) -> list[int]:
        """Reads ``count`` numbers from 1 to ``largest``, then confirms them."""

    def largest(self) -> int | None:
        """Returns the table's last seat (None: no game yet)."""

    def debate(self) -> None:
        """Waits for Enter or the end of the debate's timer."""

    @property
    def debate_timer(self) -> int:
        """The debate's seconds (0: no timer)."""


class Hearing(Protocol):
    """The hearing as a shape uses it (hearing.VoiceAnswers): how an answer heard is read back, in the table's
    language."""

    word: Callable[[str], str]
    """A word of the answers read back ("yes", "no", "none")."""
    seat_words: Callable[[int], str]
    """A seat, as the table names it."""
    card_words: Callable[[int], str]
    """A numbered card (the Town Crier's event card)."""


Heard = Callable[[Call, int], tuple[tuple[int, ...], tuple[str, ...]]]
"""What a voice may answer a call with, given the largest number the language's words say: (seats or numbers,
words)."""

Understood = Callable[[Hearing, Answer], tuple[Answer, str | None]]
"""What an answer understood aloud (listen.understand's: a number, "yes", "none", "done") answers the call with, and
how it is read back to be confirmed (None: it is taken as said)."""


@dataclass(frozen=True)
class Spoken:
    """A kind's answer given aloud: what a voice may say to it, and what the words understood make of it."""

    heard: Heard
    understood: Understood


@dataclass(frozen=True)
class Shape:
    """A kind of answer: how the keypad reads it (None: the program draws it, nobody types it), how a practice
    script writes it, and how a voice answers it (None: the keypad alone)."""

    kind: Kind
    read: Callable[[Pad, Call], Answer] | None
    written: str
    """The answer as a practice script writes it, in words (docs/practice-scripts.md)."""
    schema: dict[str, Any]
    spoken: Spoken | None = None


SEAT: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": MAX_SEATS}
"""A seat, in a JSON Schema."""


def null_or(schema: dict[str, Any]) -> dict[str, Any]:
    """Returns ``schema`` or null."""
    return {"anyOf": [schema, {"type": "null"}]}


def passing(call: Call, words: tuple[str, ...]) -> tuple[str, ...]:
    """Returns ``words``, with "none" where the call may pass."""
    return words + (("none",) if call.optional else ())


def so_far(chosen: list[int]) -> str:
    """The numbers typed so far, shown after the prompt of an answer typed in several numbers."""
    return ("  (" + ", ".join(map(str, chosen)) + ")") if chosen else ""


def seats_heard(call: Call, largest: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """A seat among the call's, "none" where it may pass, undo, repeat."""
    return tuple(call.seats), passing(call, ("undo", "repeat"))


def seat_understood(hearing: Hearing, heard: Answer) -> tuple[Answer, str | None]:
    """A seat heard is that seat, read back as the table names it; "none" is nobody."""
    if heard == "none":
        return None, hearing.word("none")
    assert isinstance(heard, int)
    return heard, hearing.seat_words(heard)


SEAT_SPOKEN = Spoken(seats_heard, seat_understood)
"""A seat among the call's, said aloud (the Seer's, the pack's, a vote's, an election's)."""


SHAPES: dict[Kind, Shape] = {}
"""Every kind's shape."""


def _load() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for shape in getattr(module, "SHAPES", ()):
            assert shape.kind not in SHAPES, f"{shape.kind} is declared twice"
            SHAPES[shape.kind] = shape
    missing = [name for name in KINDS if name not in SHAPES]
    assert not missing, f"no shape for the kinds {', '.join(missing)}: add a module to narrator/shapes"


_load()
