"""Reading answers: shapes, seats, and the refusals that are public knowledge."""

from __future__ import annotations

from typing import Iterable, Sequence

from .role import Play
from .types import Answer, IllegalAnswer

LARGEST = 10**6
"""No seat, centre card or count is larger; bigger numbers are refused before they are ever printed."""


def shown(value: Answer) -> str:
    """Returns a short, safe rendering of an answer for a refusal's reason."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > LARGEST:
        return "a number far too large"
    try:
        text = repr(value)
    except ValueError:
        return "a value too large to show"
    return text if len(text) <= 60 else text[:57] + "..."


def as_int(value: Answer) -> int | None:
    """Returns ``value`` as a whole number, or None when it is not one (bools are not numbers here).

    >>> as_int(7), as_int("12"), as_int("²"), as_int(True), as_int(10**9)
    (7, 12, None, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if abs(value) <= LARGEST else None
    if isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit() and len(text) <= 7:
            return int(text)
    return None


def named(game: Play, seat: int | None, by: str, *, secret: bool = False) -> int | None:
    """Returns ``seat`` if ``by`` (the pack, the Big Bad Wolf, the vote) may name it; refuses it otherwise."""
    if seat is not None:
        for rule in game.hooked["named"]:
            rule.named(game, seat, by, secret)
    return seat


def nameable(game: Play, seats: Iterable[int], by: str) -> tuple[int, ...]:
    """Returns the seats of ``seats`` that ``by`` may name (see named)."""
    found = []
    for s in seats:
        try:
            named(game, s, by)
        except IllegalAnswer:
            continue
        found.append(s)
    return tuple(found)


def seat(game: Play, value: Answer, *, optional: bool = False,
         among: Iterable[int] | None = None) -> int | None:
    """Returns the living seat named by ``value``; refuses what is illegal in public knowledge.

    Out of range, eliminated, not among the seats offered (the tied): all public; the rust's doomed, dead at
    nightfall, is refused on the screen only.
    """
    if value is None:
        if optional:
            return None
        raise IllegalAnswer("a seat number is needed here", key="refusal.need_seat")
    number = as_int(value)
    if number is None:
        raise IllegalAnswer(f"expected a seat number, got {shown(value)}", key="refusal.shape")
    if not 1 <= number <= game.table.seats:
        raise IllegalAnswer(f"there is no seat {number} at a table of {game.table.seats}",
                            key="refusal.no_such_seat", seat=number)
    if not game.alive(number):
        raise IllegalAnswer(f"seat {number} has been eliminated", key="refusal.eliminated", seat=number)
    if number in game.tonight.doomed:
        # The rust's doomed died at nightfall: out of every choice tonight, which only his death at dawn makes
        # public; until then the refusal is for the screen.
        raise IllegalAnswer(f"seat {number} has been eliminated", key="refusal.eliminated", secret=True,
                            seat=number)
    if among is not None:
        allowed = tuple(among)
        if number not in allowed:
            raise IllegalAnswer(f"seat {number} cannot be chosen now; choose among {list(allowed)}",
                                key="refusal.not_among", seat=number)
    return number


def seats(game: Play, value: Answer, count: int) -> tuple[int, ...]:
    """Returns ``count`` distinct living seats named by ``value`` (a list)."""
    if not isinstance(value, (list, tuple)):
        raise IllegalAnswer(f"expected a list of {count} seats, got {shown(value)}", key="refusal.shape")
    if len(value) != count:
        raise IllegalAnswer(f"expected {count} seats, got {len(value)}", key="refusal.count", count=count)
    chosen = tuple(seat(game, v) or 0 for v in value)
    if len(set(chosen)) != len(chosen):
        raise IllegalAnswer("the same seat is named twice", key="refusal.twice")
    return chosen


def yes_no(value: Answer) -> bool:
    """Returns the yes/no answer ``value``."""
    if isinstance(value, bool):
        return value
    raise IllegalAnswer(f"expected true or false, got {shown(value)}", key="refusal.shape")


def mapping(value: Answer, keys: Iterable[str]) -> dict[str, object]:
    """Returns ``value`` as a mapping holding only ``keys`` (each optional)."""
    allowed = tuple(keys)
    if not isinstance(value, dict):
        raise IllegalAnswer(f"expected a mapping with {', '.join(allowed)}, got {shown(value)}", key="refusal.shape")
    extra = [k for k in value if k not in allowed]
    if extra:
        raise IllegalAnswer(f"unexpected key {shown(extra[0])}; expected {', '.join(allowed)}", key="refusal.shape")
    return {str(k): v for k, v in value.items()}


def kept_after_undo(answered: Sequence[bool]) -> int | None:
    """Returns how many of a game's journal entries stay when the host takes back the last answer: the last
    entry that was an answer goes, with the confirmations after it; None when there is no answer to take back.
    Game.undo and the journal read from disk (narrator.journal) both take back what this says.

    >>> kept_after_undo([True, False, True, False, False]), kept_after_undo([False, False])
    (2, None)
    """
    keep = len(answered)
    while keep and not answered[keep - 1]:
        keep -= 1
    return keep - 1 if keep else None
