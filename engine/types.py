"""The engine's vocabulary: calls, answers, refusals, deaths and outcomes."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from itertools import combinations
from typing import Callable, ClassVar, Mapping, NamedTuple


class Phase(str, Enum):
    """The two halves of a turn."""

    NIGHT = "night"
    DAY = "day"


class Team(str, Enum):
    """Whom a player plays for; decides victory."""

    VILLAGE = "village"
    WEREWOLVES = "werewolves"
    WHITE_WEREWOLF = "white_werewolf"
    PIPER = "piper"
    MANIPULATOR = "prejudiced_manipulator"


class Kind(str):
    """The shape of the answer a call takes, by its name (docs/practice-scripts.md lists them), with the answers of
    that shape before the rules are applied: ``candidates(call)`` (engine.Game.legal keeps those the rules allow).

    A str, so a journal or a report writes it as its name. The kinds of the seeds' characters are Kind's own
    (Kind.SEAT ... Kind.DRAW, declared below); a character whose call takes a new shape declares its Kind in its
    own module (``KINDS``), which the registry collects (engine.roles.KINDS) as it collects the characters, and the
    narrator's half in a module of narrator/shapes/ (docs/adding.md). Each kind is made once: compare with ``is``.
    """

    candidates: Callable[[Call], list[Answer]]

    NONE: ClassVar[Kind]  # nothing to answer: confirm and go on
    SEAT: ClassVar[Kind]  # one seat (maybe null, see Call.optional)
    SEATS: ClassVar[Kind]  # a list of seats: Call.picks of them, or one or more when picks is 0
    YES_NO: ClassVar[Kind]  # true / false
    SIDE: ClassVar[Kind]  # "wolf" / "village"
    CARD: ClassVar[Kind]  # 1 / 2 / null (the Thief's centre card)
    WITCH: ClassVar[Kind]  # {heal: bool, poison: seat|null}
    VOTE: ClassVar[Kind]  # seat | null | {tie: [...]} | {ballots: {...}}
    ELECTION: ClassVar[Kind]  # seat | {tie: [...]} | {ballots: {...}}
    NUMBER: ClassVar[Kind]  # 1 .. Call.picks, or null (the Actor's card in the middle, the Town Crier's event card)
    SEANCE: ClassVar[Kind]  # {card, question, asker} or null (the Gypsy)
    DRAW: ClassVar[Kind]  # a seat among Call.seats (or one of Call.options) drawn at random by the narrator's
    # program, nobody answers (variants)

    def __new__(cls, name: str, candidates: Callable[[Call], list[Answer]]) -> Kind:
        kind = super().__new__(cls, name)
        kind.candidates = candidates
        return kind

    @property
    def value(self) -> str:
        """Returns the kind's name, as journals and scripts write it."""
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"Kind({self.value!r})"

    def __copy__(self) -> Kind:
        return self  # made once: a copy is the kind itself

    def __deepcopy__(self, memo: object) -> Kind:
        return self


Answer = object
"""An answer as the table gives it: plain YAML/JSON values (int, None, bool, str, list, dict)."""


class IllegalAnswer(Exception):
    """An answer the rules forbid; the game is left untouched.

    ``secret`` is true when the reason depends on hidden information (a werewolf
    choosing a werewolf): the narrator shows it only on the screen, never aloud.
    ``key`` names the refusal's line in the voice files; ``values`` fill it.
    """

    def __init__(
        self, reason: str, *, key: str = "bad_answer", secret: bool = False, **values: object
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.key = key
        self.secret = secret
        self.values: dict[str, object] = dict(values)


@dataclass(frozen=True)
class Fact:
    """A piece of information the narrator passes on: ``key`` with its ``values``.

    Public facts are said aloud (the dawn's victims, the growl); secret ones are
    shown on the screen to those awake (the Seer's look, the Witch's victim).
    """

    key: str
    values: Mapping[str, object] = field(default_factory=dict)
    secret: bool = False


class Call(NamedTuple):
    """One step of the game the narrator runs: a character woken, the dawn, a vote.

    ``live`` is false when the call is made only for fair play (its character is
    eliminated, powerless or in the Thief's centre cards): the narrator makes it
    with the same words and its answer is ignored. ``actors`` are the seats that
    wake (secret at night). ``seats`` are the seats that may be named (public:
    the living, or a subset such as the tied). ``facts`` are shown or said while
    the call runs, before any answer. ``check`` reads an answer or raises
    IllegalAnswer (use Game.check). ``options`` are the answers a draw picks among when they are not
    seats (the Harvest's toss of the box). A named tuple rather than a dataclass: the
    engine makes one per step, and this is several times cheaper to build.
    """

    id: str
    phase: Phase
    number: int
    kind: Kind
    live: bool = True
    actors: tuple[int, ...] = ()
    seats: tuple[int, ...] = ()
    optional: bool = False
    picks: int = 0
    facts: tuple[Fact, ...] = ()
    check: Callable[[Answer], object] | None = None
    needs_answer: bool = False
    """True when the table must give an answer (not merely confirm): live, and of a kind with answers."""
    options: tuple[Answer, ...] = ()


@dataclass(frozen=True)
class Elimination:
    """A player leaving the game: the seat, the card it held, when, and why."""

    seat: int
    role: str
    phase: Phase
    number: int
    cause: str


@dataclass(frozen=True)
class Outcome:
    """The end of the game: the winning side and the seats that win with it; when nobody wins, why
    (``reason``: ``no_survivors``, or ``stalemate``: two players left whom nothing can eliminate)."""

    winner: str
    winners: tuple[int, ...]
    reason: str = ""


class Step(NamedTuple):
    """What the engine reports after an answer: facts for the narrator to pass on."""

    call: Call
    answer: Answer
    facts: tuple[Fact, ...] = ()


@dataclass(frozen=True)
class Tally:
    """A vote's result: the seat with the most votes, or the tied seats, or nobody."""

    seat: int | None = None
    tied: tuple[int, ...] = ()


# -- the seeds' kinds, each with its answers before the rules are applied ------------------------------------


def _nothing(call: Call) -> list[Answer]:
    return [None]


def _seat(call: Call) -> list[Answer]:
    return [*call.seats, None]


def _seats(call: Call) -> list[Answer]:
    if call.picks == 0:  # one or more: each alone, and all of them
        return [*([s] for s in call.seats), list(call.seats), *([None] if call.optional else [])]
    return [list(c) for c in combinations(call.seats, call.picks)]


def _number(call: Call) -> list[Answer]:
    return [*range(1, call.picks + 1), None]


def _seance(call: Call) -> list[Answer]:
    return [None, *({"card": c, "question": 1, "asker": s} for c in range(1, 6) for s in call.seats)]


def _witch(call: Call) -> list[Answer]:
    return [{"heal": h, "poison": p} for h in (False, True) for p in (None, *call.seats)]


def _draw(call: Call) -> list[Answer]:
    return list(call.options or call.seats)


Kind.NONE = Kind("none", _nothing)
Kind.SEAT = Kind("seat", _seat)
Kind.SEATS = Kind("seats", _seats)
Kind.YES_NO = Kind("yes_no", lambda call: [True, False])
Kind.SIDE = Kind("side", lambda call: ["wolf", "village"])
Kind.CARD = Kind("card", lambda call: [1, 2, None])
Kind.WITCH = Kind("witch", _witch)
Kind.VOTE = Kind("vote", _seat)
Kind.ELECTION = Kind("election", _seat)
Kind.NUMBER = Kind("number", _number)
Kind.SEANCE = Kind("seance", _seance)
Kind.DRAW = Kind("draw", _draw)

KINDS: tuple[Kind, ...] = (Kind.NONE, Kind.SEAT, Kind.SEATS, Kind.YES_NO, Kind.SIDE, Kind.CARD, Kind.WITCH, Kind.VOTE,
                           Kind.ELECTION, Kind.NUMBER, Kind.SEANCE, Kind.DRAW)
"""The seeds' kinds (engine.roles.KINDS adds the characters' own)."""
