"""The contract between the engine and the narrator: what each call and each fact is, declared once.

A character's module declares, beside its calls, the facts it tells (``FACTS``: each key with the shape of
its values, and whether it is secret) and what the narrator must know of its calls beyond their answer's
kind (``TRAITS``: an announcement, a question asked with every eye closed, what a yes does). The registry
(``engine/roles``) gathers them, the game's frame declares its own (the vote, the Sheriff, the variants), and
``engine.calls`` puts them together: the narrator, the keypad, the hearing and the voice-file check read that,
never a list of ids of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Mapping

from .types import Fact, Kind


class Value(str, Enum):
    """The shape of one of a fact's values."""

    SEAT = "seat"  # a seat number
    SEAT_OR_NONE = "seat_or_none"  # a seat number, or None (no victim tonight)
    SEATS = "seats"  # a list of seat numbers
    ROLE = "role"  # a card's id
    ROLE_OR_NONE = "role_or_none"  # a card's id, or None when the table does not reveal cards
    ROLES = "roles"  # a list of card ids, said as the language lists the characters' names
    CARDS = "cards"  # a list of card ids, None for a card taken (the Actor's cards in the middle)
    NUMBER = "number"  # a whole number (an event card, a séance card and its question)
    FLAG = "flag"  # true or false
    WORD = "word"  # one of the fact's ``words`` (the Wolf Hound's side, how the box fell)
    WORDS = "words"  # a list of the fact's ``words`` (the Witch's potions left)
    TEXT = "text"  # free text given by the table (a séance question)


@dataclass(frozen=True)
class FactSpec:
    """A fact the engine tells: its ``key``, the shape of each of its ``values`` (a fact may leave some out),
    and whether it is ``secret`` (shown on the screen to those awake) or public (said aloud).

    How it is said: by default in one line, derived from its key (secret: ``screen.<key, dots as underscores>``;
    public: the key itself), filled with its values by name (a SEAT under another name than ``seat`` said as a seat,
    ROLES as the language lists the characters' names). ``by`` names a WORD value whose word picks the line: the
    derived line with ``_<word>`` after it, one for each of ``words``. A fact said otherwise declares ``told``, a
    function of its values returning the lines it is told with and what fills them (``Told``: a line picked by a
    value, a list said as the language lists it, a line's piece inside another), and lists in ``lines`` every line
    that may return, pieces too: the voice files are checked for them. ``about`` names the value that is the seat
    its call is about (a yes is read back for it: "Heal seat three?"); ``unrecapped``, the lines of it the game's
    recap leaves out, as it says what they told otherwise. ``owner`` is the character (or part of the game: the
    Sheriff, a variant) that tells it, filled in by whoever gathers the declarations.
    """

    key: str
    values: Mapping[str, Value] = field(default_factory=dict)
    secret: bool = False
    lines: tuple[str, ...] = ()
    by: str = ""
    words: tuple[str, ...] = ()
    told: Callable[[Mapping[str, object]], tuple[Told, ...]] | None = None
    about: str = ""
    unrecapped: tuple[str, ...] = ()
    owner: str = ""

    @property
    def line(self) -> str:
        """Returns the line it is told with (``by`` a word: the line's stem, the word after it): the first of
        its ``lines`` when it declares them, else a secret fact's ``screen.<key, dots as underscores>`` and a
        public fact's key."""
        if self.lines:
            return self.lines[0]
        return f"screen.{self.key.replace('.', '_')}" if self.secret else self.key

    @property
    def every_line(self) -> tuple[str, ...]:
        """Returns every line it may be told with, pieces included: those a voice file must have."""
        if self.by and not self.lines:
            return tuple(f"{self.line}_{word}" for word in self.words)
        return self.lines or (self.line,)

    def tell(self, values: Mapping[str, object]) -> tuple[Told, ...]:
        """Returns the lines a fact of this key with ``values`` is told with, in order."""
        if self.told is not None:
            return self.told(values)
        said = {name: _said(self.values.get(name), name, value) for name, value in values.items() if name != self.by}
        return (Told(f"{self.line}_{values[self.by]}" if self.by else self.line, said),)

    def problems(self, fact: Fact) -> list[str]:
        """Returns how ``fact`` departs from this declaration (nothing when it keeps to it): its values, and the
        lines it is told with, each among its ``every_line``."""
        found = [] if fact.secret == self.secret else [f"{fact.key}: secret is {fact.secret}"]
        for name, value in fact.values.items():
            shape = self.values.get(name)
            if shape is None:
                found.append(f"{fact.key}: the value {name!r} is not declared")
            elif not _fits(shape, value, self.words):
                found.append(f"{fact.key}: {name}={value!r} is not a {shape.value}")
        if not found:
            found += [f"{fact.key}: told with the undeclared line {line!r}" for line in _lines(self.tell(fact.values))
                      if line not in self.every_line]
        return found


@dataclass(frozen=True)
class Told:
    """One line a fact is told with: its key, and its values by the line's placeholders. A value is said as the
    voice says it by its name (a ``seat``, a ``role``...), or as it declares: ``AsSeat``, ``Listed``, ``Piece``."""

    line: str
    values: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class AsSeat:
    """A seat number said as a seat ("seat three", with the player's name) under any placeholder's name."""

    number: int


@dataclass(frozen=True)
class Piece:
    """A line said inside another, its first letter as it is: what a building does, a potion's name, a card in
    the middle with its number."""

    line: str
    values: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Listed:
    """Items said as the language lists them ("a, b and c"): a card's id as the character's name, a ``Piece`` as
    its line."""

    items: tuple[str | Piece, ...]


def _said(shape: Value | None, name: str, value: object) -> object:
    """Returns ``value`` as its shape says it by default: a seat under another name than ``seat`` as a seat, a
    list of cards as the language lists their names."""
    if shape is Value.SEAT and name != "seat" and _seat(value):
        return AsSeat(int(str(value)))
    if shape is Value.ROLES and isinstance(value, list):
        return Listed(tuple(str(role) for role in value))
    return value


def _lines(told: tuple[Told, ...]) -> list[str]:
    """Returns the lines ``told`` says, the pieces' within them too."""
    found: list[str] = []
    for each in told:
        found.append(each.line)
        for value in each.values.values():
            pieces = value.items if isinstance(value, Listed) else (value,)
            found += [piece.line for piece in pieces if isinstance(piece, Piece)]
    return found


def _seat(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fits(shape: Value, value: object, words: tuple[str, ...]) -> bool:
    if shape is Value.SEAT or shape is Value.NUMBER:
        return _seat(value)
    if shape is Value.SEAT_OR_NONE:
        return value is None or _seat(value)
    if shape is Value.SEATS:
        return isinstance(value, list) and all(_seat(s) for s in value)
    if shape is Value.ROLE or shape is Value.TEXT:
        return isinstance(value, str)
    if shape is Value.ROLE_OR_NONE:
        return value is None or isinstance(value, str)
    if shape is Value.ROLES:
        return isinstance(value, list) and all(isinstance(r, str) for r in value)
    if shape is Value.CARDS:
        return isinstance(value, list) and all(r is None or isinstance(r, str) for r in value)
    if shape is Value.FLAG:
        return isinstance(value, bool)
    if shape is Value.WORD:
        return value in words
    return isinstance(value, list) and all(w in words for w in value)  # WORDS


@dataclass(frozen=True)
class CallTraits:
    """What the narrator must know of a call beyond the kind of its answer.

    ``announces``: nobody answers; the narrator goes on at once (the nightfall, the dawn, the growl).
    ``eyes_closed``: made by day with every eye closed, answered on the keypad and read back on the screen
    only (the Stuttering Judge's question). ``yes_means``: what a yes does, read back for the seat it is about
    ("Infect seat three?": the lines ``answer.<yes_means>`` and ``answer.no_<yes_means>``) rather than "Yes?".
    ``timed``: the table's debate timer runs while it lasts. ``signal``: the call promises a signal ("On my
    signal, everyone points"), given right after it (the line ``<id>.signal``). ``ruled_lines``: the other
    lines the call may open with, picked by a house rule or a variant (``wake_drawn``: the Wolf Hound's side
    drawn at random); ``ruled``: which of them the table's rules (an engine.table.Rules) pick, or None for the
    usual line. Picked from the rules alone, never the game: the same words are said for the dead.
    """

    announces: bool = False
    eyes_closed: bool = False
    yes_means: str = ""
    timed: bool = False
    signal: bool = False
    ruled_lines: tuple[str, ...] = ()
    ruled: Callable[[Any], str | None] | None = None

    def opening(self, rules: Any) -> str | None:
        """Returns the ruled line (one of ``ruled_lines``) the table's ``rules`` pick, or None."""
        return None if self.ruled is None else self.ruled(rules)


@dataclass(frozen=True)
class CallDecl:
    """A call the engine may make: its id, the kind of its answer, whether it wakes characters at night (said
    with a wake and a sleep line) and whether it is made with the village awake (said with a call line), its
    traits and its owner (the character, or the part of the game, that makes it)."""

    id: str
    kind: Kind
    night: bool
    day: bool
    traits: CallTraits
    owner: str
