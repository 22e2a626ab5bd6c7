"""Every character, one file each. A module defines ``ROLE`` (a Role) and may define ``CALLS``, and declares
for the narrator the facts it tells (``FACTS``) and its calls' traits (``TRAITS``: engine/contract.py); a
character whose call takes an answer of a new shape declares its ``KINDS`` (engine.types.Kind).

The modules are found by listing this package, so adding a character is adding
its file (and its lines in the voice files).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections import Counter
from dataclasses import replace
from typing import Callable, Mapping, NamedTuple, Sequence

from .. import events
from ..contract import CallTraits, FactSpec
from ..role import CallSpec, Play, Role
from ..table import MAX_SEATS, MIN_SEATS, Table
from ..types import KINDS as SEEDS_KINDS
from ..types import Fact, Kind

ROLES: dict[str, Role] = {}
"""Every character by card id, in a fixed order (the modules' names)."""

CALLS: dict[str, CallSpec] = {}
"""Every night call a character owns, by call id."""

FACTS: dict[str, FactSpec] = {}
"""Every fact a character tells, by key, its owner filled in (the character's id)."""

TRAITS: dict[str, CallTraits] = {}
"""The traits of the characters' calls that have any, by call id."""

OWNERS: dict[str, str] = {}
"""The character that makes each of the characters' calls (night calls and others), by call id."""

TABLE_CHECKS: list[Callable[[Table, Mapping[str, Role]], list[str]]] = []
"""The characters' own checks of what a table adds for them (a module's ``check_table``: the Actor's cards)."""

BADGES: dict[str, Callable[[Play], int | None]] = {}
"""The public marks characters put on a seat, by the mark's name (a module's ``BADGES``: the Raven's, by day):
each returns the seat that bears it now, or None. The narrator shows them on the seating."""

REVEALS: list[Callable[[Play], tuple[Fact, ...]]] = []
"""The characters' secrets told once the game is over, in its recap (a module's ``revealed``: the Lovers)."""

TABLE_KEYS: dict[str, str] = {}
"""The table config's keys a character adds, with their help (a module's ``TABLE_KEYS``: the Actor's cards)."""

KINDS: dict[str, Kind] = {kind.value: kind for kind in SEEDS_KINDS}
"""Every kind of answer by name: the seeds' (engine.types.KINDS) and those characters declare (a module's
``KINDS``)."""


def _load() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        role: Role | None = getattr(module, "ROLE", None)
        if role is not None:
            ROLES[role.id] = role
        owner = role.id if role is not None else info.name
        for spec in getattr(module, "CALLS", ()):
            CALLS[spec.id] = spec
            OWNERS[spec.id] = owner
        for call_id in role.asks if role is not None else ():
            OWNERS[call_id] = owner
        for fact in getattr(module, "FACTS", ()):
            FACTS[fact.key] = replace(fact, owner=owner)
        for call_id, traits in getattr(module, "TRAITS", {}).items():
            TRAITS[call_id] = traits
        if hasattr(module, "check_table"):
            TABLE_CHECKS.append(module.check_table)
        BADGES.update(getattr(module, "BADGES", {}))
        if hasattr(module, "revealed"):
            REVEALS.append(module.revealed)
        TABLE_KEYS.update(getattr(module, "TABLE_KEYS", {}))
        for kind in getattr(module, "KINDS", ()):
            assert kind.value not in KINDS, f"the kind {kind.value!r} is declared twice"
            KINDS[kind.value] = kind


_load()


class Advice(NamedTuple):
    """Advice on a deck, not an error: ``key`` names it (the narrator says it in the table's language, with its
    line ``screen.advice_<key>``) and ``values`` fill that line."""

    key: str
    values: tuple[tuple[str, int | str], ...]


def check_deck(seats: int, deck: Sequence[str], variants: Sequence[str] = ()) -> tuple[list[str], list[Advice]]:
    """Returns (errors, advice) for a deck at a table of ``seats`` players (playing ``variants``).

    The Black Death is played without any werewolf card; every other game needs one.

    >>> check_deck(8, ["werewolf"] * 2 + ["villager"] * 6)
    ([], [])
    >>> check_deck(8, ["werewolf"] * 3 + ["villager"] * 5)[1]
    [Advice(key='werewolves_over_a_quarter', values=(('wolves', 3), ('players', 8), ('advised', 2)))]
    >>> check_deck(8, ["werewolf"] * 2 + ["villager"] * 5 + ["sister"])[0]
    ["1 'sister' card: a deck holds 0 or 2"]
    """
    known = frozenset(ROLES)
    errors: list[str] = []
    warnings: list[Advice] = []
    if not MIN_SEATS <= seats <= MAX_SEATS:
        errors.append(f"a table has {MIN_SEATS} to {MAX_SEATS} players, not {seats}")
    unknown = sorted({r for r in deck if r not in known})
    for role in unknown:
        errors.append(f"unknown character {role!r}; known characters: {', '.join(sorted(known))}")
    count = Counter(deck)
    extra = 2 if count["thief"] else 0
    if len(deck) != seats + extra:
        need = f"{seats} cards for {seats} players" + (" plus the Thief's 2 centre cards" if extra else "")
        errors.append(f"the deck has {len(deck)} cards; it needs {need}")
    wolves = sum(n for r, n in count.items() if r in ROLES and ROLES[r].wolf_card)
    if "black_death" in variants:
        if wolves:
            errors.append(f"the Black Death is played without werewolves; the deck has {wolves} werewolf "
                          f"card{'s' if wolves > 1 else ''}")
    elif wolves == 0:
        names = ", ".join(sorted(r.id for r in ROLES.values() if r.wolf_card))
        errors.append(f"the deck has no werewolf card ({names})")
    for role, n in sorted(count.items()):
        allowed = ROLES[role].copies if role in ROLES else None
        if allowed is not None and n not in allowed:
            word = "card" if n == 1 else "cards"
            errors.append(f"{n} {role!r} {word}: a deck holds {' or '.join(map(str, allowed))}")
    # The Harvest advises more werewolves than usual: no warning then.
    if not errors and wolves > seats // 4 and "harvest" not in variants:
        warnings.append(Advice("werewolves_over_a_quarter",
                               (("wolves", wolves), ("players", seats), ("advised", seats // 4))))
    return errors, warnings


def badges(game: Play, seat: int) -> list[str]:
    """Returns the characters' public marks ``seat`` bears now (BADGES), by name."""
    return [mark for mark, bearer in BADGES.items() if bearer(game) == seat]


def revealed(game: Play) -> tuple[Fact, ...]:
    """Returns the characters' secrets a finished game's recap tells (REVEALS), in deck order of the modules."""
    return tuple(fact for reveal in REVEALS for fact in reveal(game))


def check_extras(table: Table) -> list[str]:
    """Returns the problems of what a table adds to its deck for its characters (the Actor's cards, the séance
    cards), its offices (the Crier) and its morning draw (the event cards)."""
    errors = [error for check in TABLE_CHECKS for error in check(table, ROLES)] + events.check_table(table)
    if table.rules.town_crier and not table.rules.sheriff:
        errors.append("town_crier needs sheriff: the Sheriff names the Town Crier")
    return errors
