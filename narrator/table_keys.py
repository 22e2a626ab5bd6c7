"""The table config's keys, each declared once with what it expects: its shape (the type, and a list's or a
mapping's items), its bounds or values, its default and its help. The table's own come first, then the house rules
(engine.Rules declares them, with their help, default and values), the characters' own (engine's TABLE_KEYS), then
how the narrator speaks and hears. config.py checks a file with them, `check --help` lists their help, the messages
for a bad value quote it, and scripts/schemas.py writes their JSON Schema and docs/table-config.md's table of house
rules. A few keys say more than their shape (an unknown character, a language with no voice file, a building given to
a seat the table lacks): config.py reads those with a reader of its own (``Key.own``), their messages naming the
fault; their shape still gives their schema."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from engine import MAX_SEATS, MIN_SEATS, PRESETS, ROLES, TABLE_KEYS, Phase
from engine.table import HouseRule, house_rules
from engine.events import CARDS
from engine.variants import VARIANTS
from engine.village import TOKENS


class Shape(Protocol):
    """What a key's value must be: ``holds`` checks a value as a file gives it, ``schema`` says it in a JSON Schema."""

    def holds(self, value: object) -> bool: ...

    def schema(self) -> dict[str, Any]: ...


def _whole(value: object) -> bool:
    """Returns whether ``value`` is a whole number (true and false are not numbers, though Python's bool is an int)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Bounded:
    """A number a key takes: its bounds and whether it is whole. Declared once for the reader (config.py), the
    help (`check --help`) and the JSON Schema (scripts/schemas.py)."""

    low: int
    high: int
    whole: bool = True

    def holds(self, value: object) -> bool:
        """Returns whether ``value`` is such a number (true and false are not numbers; NaN is within no bounds)."""
        kinds = (int,) if self.whole else (int, float)
        return isinstance(value, kinds) and not isinstance(value, bool) and self.low <= value <= self.high

    def schema(self) -> dict[str, Any]:
        """Returns the number in a JSON Schema."""
        return {"type": "integer" if self.whole else "number", "minimum": self.low, "maximum": self.high}

    @property
    def span(self) -> str:
        """The bounds, as the help says them: "0 to 60"."""
        return f"{self.low} to {self.high}"


@dataclass(frozen=True)
class Flag:
    """True or false."""

    def holds(self, value: object) -> bool:
        return isinstance(value, bool)

    def schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


@dataclass(frozen=True)
class Text:
    """A text."""

    def holds(self, value: object) -> bool:
        return isinstance(value, str)

    def schema(self) -> dict[str, Any]:
        return {"type": "string"}


@dataclass(frozen=True)
class Name:
    """A name or a number: a player's name, a sound device or a microphone (by its number or part of its name)."""

    def holds(self, value: object) -> bool:
        return isinstance(value, str) or _whole(value)

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [{"type": "string"}, {"type": "integer"}]}


@dataclass(frozen=True)
class Seat:
    """A seat: a whole number. Which seats the table has is the table's check, which names the seat it lacks
    (engine.check_groups, the buildings given by seat); the schema states the most any table has."""

    def holds(self, value: object) -> bool:
        return _whole(value)

    def schema(self) -> dict[str, Any]:
        return Bounded(1, MAX_SEATS).schema()


@dataclass(frozen=True)
class OneOf:
    """One of a few values, of their type (true is not 1): given, or listed by a function when they are known only
    once the program runs (the voice files' languages)."""

    values: tuple[object, ...] | Callable[[], Sequence[object]]

    def allowed(self) -> Sequence[object]:
        """Returns the values (listed now when a function gives them)."""
        return self.values() if callable(self.values) else self.values

    def holds(self, value: object) -> bool:
        return any(type(value) is type(choice) and value == choice for choice in self.allowed())

    def schema(self) -> dict[str, Any]:
        return {"enum": list(self.allowed())}


@dataclass(frozen=True)
class ListOf:
    """A list of ``items``, with ``least`` to ``most`` of them; ``unique``: none twice; ``ordered``: from the
    smallest up (the schema cannot say that one: only `check` does)."""

    items: Shape
    least: int = 0
    most: int | None = None
    unique: bool = False
    ordered: bool = False

    def holds(self, value: object) -> bool:
        if not isinstance(value, list) or len(value) < self.least or self.most is not None and len(value) > self.most:
            return False
        if not all(self.items.holds(item) for item in value):
            return False
        if self.unique and len({json.dumps(item, sort_keys=True) for item in value}) != len(value):
            return False
        return not self.ordered or all(a <= b for a, b in zip(value, value[1:]))

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "array", "items": self.items.schema()}
        if self.least:
            schema["minItems"] = self.least
        if self.most is not None:
            schema["maxItems"] = self.most
        if self.unique:
            schema["uniqueItems"] = True
        return schema


@dataclass(frozen=True)
class Fields:
    """A mapping of some of the named ``fields``, each value of its field's shape."""

    fields: tuple[tuple[str, Shape], ...]

    def holds(self, value: object) -> bool:
        shapes = dict(self.fields)
        return isinstance(value, dict) and all(k in shapes and shapes[k].holds(v) for k, v in value.items())

    def schema(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": False,
                "properties": {name: shape.schema() for name, shape in self.fields}}


SEAT_KEY = "^[1-9][0-9]*$"
"""A seat number as the key of a mapping (YAML's 1: is a string key once the file is read as JSON)."""


@dataclass(frozen=True)
class BySeat:
    """A mapping of seats to values (``{2: noble}``)."""

    values: Shape

    def holds(self, value: object) -> bool:
        return isinstance(value, dict) and all(_whole(k) and self.values.holds(v) for k, v in value.items())

    def schema(self) -> dict[str, Any]:
        return {"type": "object", "patternProperties": {SEAT_KEY: self.values.schema()}, "additionalProperties": False}


@dataclass(frozen=True)
class Either:
    """Any of ``shapes``."""

    shapes: tuple[Shape, ...]

    def holds(self, value: object) -> bool:
        return any(shape.holds(value) for shape in self.shapes)

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [shape.schema() for shape in self.shapes]}


def plain(value: object) -> Any:
    """Returns a value as JSON (and a journal) writes it: tuples as lists."""
    return json.loads(json.dumps(value))


@dataclass(frozen=True)
class Key:
    """A key of a table config: its ``name``, what it expects (``help``: `check --help`'s line, quoted by the
    message for a bad value), its ``shape``, its ``default`` as a file writes it (None: it has none), whether it may
    be null (``nullable``: as absent), and whether config.py reads it with a reader of its own (``own``)."""

    name: str
    help: str
    shape: Shape
    default: Any = None
    nullable: bool = False
    own: bool = False
    rule: HouseRule | None = None
    """The house rule the key sets (engine.Rules' field of that name), if it is one."""

    def holds(self, value: object) -> bool:
        """Returns whether ``value`` is what the key takes (a reader of its own may refuse more).

        >>> pause, rate = DECLARED["pause"], DECLARED["rate"]
        >>> pause.holds([5, 15]), pause.holds([15, 5]), pause.holds([5, True]), rate.holds(None), rate.holds(79)
        (True, False, False, True, False)
        """
        return value is None and self.nullable or self.shape.holds(value)

    def schema(self) -> dict[str, Any]:
        """Returns the key's JSON Schema: its help, its shape (or null), its default."""
        shape = self.shape.schema()
        if self.nullable:
            shape = {"anyOf": [*(shape["anyOf"] if list(shape) == ["anyOf"] else [shape]), {"type": "null"}]}
        schema = {"description": self.help.replace("`", ""), **shape}
        if self.default is not None:
            schema["default"] = plain(self.default)
        return schema


RATE = Bounded(80, 400)
"""rate: words a minute."""
CALL_FLOOR = Bounded(0, 60, whole=False)
"""call_floor: seconds."""
PAUSE = Bounded(0, 120, whole=False)
"""Each end of pause: seconds."""
DEBATE_TIMER = Bounded(0, 3600)
"""debate_timer: seconds."""
LAST_WORDS = Bounded(0, 600)
"""last_words: seconds."""

# The speech backends a table may ask for (narrator.speak.BACKENDS).
SPEAKERS = ("auto", "kokoro", "piper", "pyttsx3", "console")

INPUTS = ("keypad", "voice")
"""The inputs that may answer a phase's calls."""


def _languages() -> list[str]:
    from .voices import languages  # the voice files, listed when asked

    return languages()


def card_names() -> list[str]:
    """Returns what a deck may name: the ids, then the voice files' names as written (check takes them case aside,
    which a schema's list cannot say)."""
    from .names import written_names  # reads every voice file: only when asked

    return sorted(ROLES) + sorted({name for name, _ in written_names()} - set(ROLES))


_TABLE_KEYS = (
    Key("language", "the narrator's language: one of the voice files (en, fr, zh)", OneOf(_languages), "en", own=True),
    Key("seats", f"the number of players ({MIN_SEATS} to {MAX_SEATS}), or a list of their names, clockwise from seat 1",
        Either((Bounded(MIN_SEATS, MAX_SEATS), ListOf(Name(), MIN_SEATS, MAX_SEATS))), own=True),
    Key("deck", "a list of characters, one card a player (plus the Thief's two centre cards): their ids, or their "
                "names in any voice file, case aside (Salvateur, Voyante, 女巫)",
        ListOf(OneOf(card_names), MIN_SEATS), own=True),
    Key("preset", "a deck preset for the number of seats: " + ", ".join(sorted(PRESETS)), OneOf(tuple(sorted(PRESETS))),
        own=True),
    Key("deal", "app (the program shuffles and deals) or cards (real cards are dealt)", OneOf(("app", "cards")), "app"),
)
"""The table's own keys, before the house rules (engine.Rules declares those, with their help)."""

_MORE_KEYS = (
    Key("groups", "the Prejudiced Manipulator's two public groups: two lists of seats that hold every seat once, "
                  "e.g. [[1, 2, 3, 4], [5, 6, 7, 8]] (needed when he is in the deck; default: none)",
        ListOf(ListOf(Seat(), 1), 2, 2), nullable=True),
    # The characters' own keys (the Actor's cards), their help declared by each: lists of ids, which the
    # character's own check (engine.check_extras) reads further.
    *(Key(name, text, ListOf(Text())) for name, text in TABLE_KEYS.items()),
    Key("seance_cards", "the questions of the 5 séance cards (the Gypsy's, or the morning draw's), in the table's "
                        "language: a list of 5 lists of texts (default: none; the narrator then names the card and "
                        "the question by number)",
        ListOf(ListOf(Text()))),
    Key("buildings", "the Village's building tokens: a list of ids (" + ", ".join(TOKENS) + ") dealt at random, "
                     "one a seat at most, and announced aloud; or {seat: token} to give them yourself (default: none)",
        Either((ListOf(OneOf(TOKENS)), BySeat(OneOf(TOKENS)))), nullable=True, own=True),
    Key("speaker", "auto, kokoro, piper, pyttsx3 or console: how lines are said (default auto: the best voice "
                   "installed for the language, see `werewolf-narrator voices` — Kokoro, else a Piper voice; else "
                   "espeak-ng through pyttsx3; else the console)",
        OneOf(SPEAKERS), "auto"),
    Key("voice", "a speech voice id or part of its name (a Kokoro, Piper or espeak-ng voice), to override the one "
                 "chosen for the language", Text(), nullable=True),
    Key("rate", f"the speech rate in words a minute ({RATE.span})", RATE, nullable=True),
    Key("device", "the sound output device: its number or part of its name", Name(), nullable=True),
    Key("ambience", "true or false: a soft wind under the night, generated by the program, that masks the players "
                    "moving; it ducks under each line and fades out when the table opens its eyes (default false)",
        Flag(), False),
    Key("phones", "true or false: the players' phones as private screens and answer pads on the local network (as "
                  "`play --phones`; docs/phones.md; default false)", Flag(), False),
    Key("call_floor", f"a number of seconds, {CALL_FLOOR.span}: no call made with eyes closed ends sooner, answered "
                      "or not, so that a quick answer sounds like an empty call (default 5)", CALL_FLOOR, 5),
    Key("pause", f"[min, max] seconds, {PAUSE.span}: how long a call made for an eliminated or powerless character "
                 "lasts until the living have answered enough calls to set the pace, then as long as theirs did "
                 "(under call_floor counts as call_floor; default [5, 15])",
        ListOf(PAUSE, 2, 2, ordered=True), (5, 15)),
    Key("debate_timer", "seconds of debate before the vote, with a warning a minute before (0: no timer; default 0)",
        DEBATE_TIMER, 0),
    Key("last_words", f"seconds, {LAST_WORDS.span}, of last words for a player the village votes out, counted down on "
                      "the screen; Enter ends them sooner (0: none; default 0)", LAST_WORDS, 0),
    Key("inputs", "which inputs answer, per phase: keypad and/or voice, e.g. {night: [keypad], day: [keypad, voice]}",
        Fields(tuple((phase.value, ListOf(OneOf(INPUTS), 1)) for phase in Phase)),
        {"day": ("keypad", "voice"), "night": ("keypad",)}),
    Key("model", "the folder of the speech recognition model (default: the one `models fetch` installed for the "
                 "language)", Text(), nullable=True),
    Key("microphone", "the microphone: its number or part of its name (see `werewolf-narrator devices`)", Name(),
        nullable=True),
)
"""The keys after the house rules: what the table adds to its deck, then how the narrator speaks and hears."""

_LIST_RULES = {"variants": VARIANTS, "events": CARDS}
"""The house rules that are lists, with the names they take (read by config._names: some variants cannot go
together; the event cards keep the order given, the host's)."""


def _shown_value(value: object) -> str:
    """Returns a house rule's value as a table config writes it: true, 2, bestof; none for an empty list."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ", ".join(value) if value else "none"
    return str(value)


def rule_expects(rule: HouseRule) -> str:
    """Returns what a house rule's value must be: true or false, one of its choices, or a number within its
    bounds (a list rule says it in its help line)."""
    if rule.kind is bool:
        return "true or false"
    if rule.choices:
        return " or ".join(_shown_value(c) for c in rule.choices)
    assert rule.bounds is not None, f"Rules.{rule.name}: a number rule declares its bounds"
    return f"a number, {rule.bounds[0]} to {rule.bounds[1]}"


def rule_help(rule: HouseRule) -> str:
    """Returns a house rule's line of `check --help` (and of a message for a bad value): what it expects, what it
    changes, its default."""
    what = rule.help.replace("`", "")
    if rule.name in _LIST_RULES:
        return f"a list of {what}: {', '.join(_LIST_RULES[rule.name])} (default {_shown_value(rule.default)})"
    return f"{rule_expects(rule)}: {what} (default {_shown_value(rule.default)})"


def rule_key(rule: HouseRule) -> Key:
    """Returns a house rule's key, as engine.Rules declares it: true or false, one of its choices, a whole number
    within its bounds; or a list of names (the variants, the event cards: a single name, or null for none, are taken
    too)."""
    if rule.name in _LIST_RULES:
        names = OneOf(tuple(_LIST_RULES[rule.name]))
        return Key(rule.name, rule_help(rule), Either((ListOf(names, unique=True), names)), rule.default,
                   nullable=True, own=True, rule=rule)
    if rule.kind is bool:
        shape: Shape = Flag()
    elif rule.choices:
        shape = OneOf(rule.choices)
    else:
        assert rule.kind is int and rule.bounds is not None, f"Rules.{rule.name}: a number rule declares its bounds"
        shape = Bounded(*rule.bounds)
    return Key(rule.name, rule_help(rule), shape, rule.default, rule=rule)


def readme_row(rule: HouseRule) -> str:
    """Returns a house rule's row of docs/table-config.md's table (Markdown): key, meaning, default; written there
    by scripts/schemas.py."""
    if rule.bounds is not None:
        values = f" ({rule.bounds[0]} to {rule.bounds[1]})"
    elif rule.name in _LIST_RULES:
        values = ": " + ", ".join(f"`{name}`" for name in _LIST_RULES[rule.name])
    else:
        values = ""
    default = f"`{_shown_value(rule.default)}`" if rule.default != () else "none"
    return f"| `{rule.name}` | {rule.help}{values} | {default} |"


DECLARED: dict[str, Key] = {key.name: key for key in (*_TABLE_KEYS, *map(rule_key, house_rules()), *_MORE_KEYS)}
"""Every key of a table config, declared, in the order `check --help` lists them."""

KEYS: dict[str, str] = {name: key.help for name, key in DECLARED.items()}
"""Every key of a table config, with what it expects."""
