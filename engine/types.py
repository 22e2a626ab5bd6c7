"""The engine's vocabulary: calls, answers, refusals, deaths and outcomes."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Mapping, NamedTuple


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


class Kind(str, Enum):
    """The shape of the answer a call takes (docs/practice-scripts.md lists them)."""

    NONE = "none"  # nothing to answer: confirm and go on
    SEAT = "seat"  # one seat (maybe null, see Call.optional)
    SEATS = "seats"  # a list of seats: Call.picks of them, or one or more when picks is 0
    YES_NO = "yes_no"  # true / false
    SIDE = "side"  # "wolf" / "village"
    CARD = "card"  # 1 / 2 / null (the Thief's centre card)
    WITCH = "witch"  # {heal: bool, poison: seat|null}
    VOTE = "vote"  # seat | null | {tie: [...]} | {ballots: {...}}
    ELECTION = "election"  # seat | {tie: [...]} | {ballots: {...}}
    NUMBER = "number"  # 1 .. Call.picks, or null (the Actor's card in the middle, the Town Crier's event card)
    SEANCE = "seance"  # {card, question, asker} or null (the Gypsy)
    DRAW = "draw"  # a seat among Call.seats (or one of Call.options) drawn at random by the narrator's program,
    # nobody answers (variants)


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
