"""Every call id the engine can make, with the shape of its answer (for checking practice scripts), and the
whole contract with the narrator (engine/contract.py): every call's traits and every fact, with their owners."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from types import ModuleType

from . import crier, deaths, events, sheriff, variants, village, votes
from .contract import CallDecl, CallTraits, FactSpec
from .roles import CALLS, FACTS, OWNERS, ROLES, TRAITS
from .types import Kind

FRAME_CALLS: dict[str, dict[str, Kind]] = {
    "game": {"nightfall": Kind.NONE, "dawn": Kind.NONE, "debate": Kind.NONE, "vote": Kind.VOTE, "revote": Kind.VOTE},
    "sheriff": {"sheriff_tiebreak": Kind.SEAT, "sheriff_election": Kind.ELECTION, "sheriff_runoff": Kind.SEAT,
                "sheriff_successor": Kind.SEAT},
    "town_crier": {"town_crier_appoint": Kind.SEAT, "town_crier": Kind.NUMBER},
    "events": {"event": Kind.NONE, "event_seance": Kind.NONE},  # the New Moon's morning draw, and its séance
    # The variants (engine/variants.py): the chain of innocence and the graffiti, by candlelight; the Harvest's
    # Witch: the box tossed for her one potion, and the player it changed told so.
    "variants": {"chain_draw": Kind.DRAW, "chain": Kind.SEAT, "graffiti": Kind.NONE, "graffiti_draw": Kind.DRAW,
                 "graffiti_read": Kind.NONE, "candles": Kind.YES_NO, "witch_toss": Kind.DRAW,
                 "witch_touched": Kind.NONE},
}
"""The calls of the game's frame by owner: night and day, the vote, the Sheriff and his Town Crier, the morning
draw, the variants'."""

CORE: dict[str, Kind] = {i: kind for calls in FRAME_CALLS.values() for i, kind in calls.items()}
"""The calls of the game's frame, each with the shape of its answer."""

CORE_NIGHT = frozenset({"witch_toss", "witch_touched"})
"""The frame's calls that wake a character at night (the Harvest's Witch and the player her box changed)."""

CORE_TRAITS = {
    "nightfall": CallTraits(announces=True),
    "dawn": CallTraits(announces=True),
    "debate": CallTraits(timed=True),
    "vote": CallTraits(signal=True),
    "candles": CallTraits(yes_means="many_candles"),  # read back as what the table saw, not "Yes?"
    "sheriff_election": CallTraits(ruled_lines=("call_single",),  # the house rule sheriff_double_vote off
                                   ruled=lambda rules: None if rules.sheriff_double_vote else "call_single"),
}
"""The traits of the frame's calls that have any."""

FRAME: tuple[tuple[str, ModuleType], ...] = (("deaths", deaths), ("votes", votes), ("sheriff", sheriff),
                                             ("town_crier", crier), ("events", events), ("village", village),
                                             ("variants", variants))
"""The parts of the game beyond the characters that tell facts, by owner (engine/contract.py)."""


def call_kinds() -> dict[str, Kind]:
    """Returns every call id with the shape of its answer.

    >>> kinds = call_kinds()
    >>> kinds["seer"].value, kinds["lovers"].value, kinds["hunter"].value
    ('seat', 'none', 'seat')
    """
    kinds = dict(CORE)
    for spec in CALLS.values():
        kinds[spec.id] = spec.kind
    for role in ROLES.values():
        kinds.update(role.asks)
    for spec in village.CALLS:
        kinds[spec.id] = spec.kind
    kinds.update(village.ASKS)
    return kinds


@lru_cache(maxsize=1)
def declared_calls() -> dict[str, CallDecl]:
    """Returns every call the engine may make, declared for the narrator: its kind, whether it wakes characters
    at night and whether it is made by day, its traits and its owner.

    >>> calls = declared_calls()
    >>> calls["seer"].night, calls["seer"].day, calls["growl"].traits.announces
    (True, False, True)
    >>> calls["stuttering_judge"].night, calls["stuttering_judge"].day, calls["stuttering_judge"].traits.eyes_closed
    (True, True, True)
    """
    night = {spec.id for spec in CALLS.values()} | {spec.id for spec in village.CALLS} | CORE_NIGHT
    day = set(CORE) - CORE_NIGHT | set(village.ASKS) | {i for role in ROLES.values() for i in role.asks}
    traits = {**CORE_TRAITS, **TRAITS, **village.TRAITS}
    owners = {**{i: owner for owner, calls in FRAME_CALLS.items() for i in calls}, **OWNERS,
              **{i: "village" for i in village.ASKS}, **{spec.id: "village" for spec in village.CALLS}}
    return {i: CallDecl(i, kind, i in night, i in day, traits.get(i, CallTraits()), owners[i])
            for i, kind in call_kinds().items()}


@lru_cache(maxsize=1)
def declared_facts() -> dict[str, FactSpec]:
    """Returns every fact the engine may tell, by key: the characters' (engine/roles) and the frame's.

    >>> facts = declared_facts()
    >>> facts["seer.sees"].secret, facts["seer.sees"].owner, facts["vote.tie"].owner
    (True, 'seer', 'votes')
    """
    facts = dict(FACTS)
    for owner, module in FRAME:
        for spec in getattr(module, "FACTS", ()):
            facts[spec.key] = replace(spec, owner=owner)
    return facts
