"""Every call id the engine can make, with the shape of its answer (for checking practice scripts)."""

from __future__ import annotations

from . import village
from .roles import CALLS, ROLES
from .types import Kind

CORE: dict[str, Kind] = {
    "nightfall": Kind.NONE,
    "dawn": Kind.NONE,
    "debate": Kind.NONE,
    "vote": Kind.VOTE,
    "revote": Kind.VOTE,
    "sheriff_tiebreak": Kind.SEAT,
    "sheriff_election": Kind.ELECTION,
    "sheriff_runoff": Kind.SEAT,
    "sheriff_successor": Kind.SEAT,
    "town_crier_appoint": Kind.SEAT,
    "town_crier": Kind.NUMBER,
    # The variants (engine/variants.py): the chain of innocence and the graffiti.
    "chain_draw": Kind.DRAW,
    "chain": Kind.SEAT,
    "graffiti": Kind.NONE,
    "graffiti_draw": Kind.DRAW,
    "graffiti_read": Kind.NONE,
    "candles": Kind.YES_NO,
    # The Harvest's Witch: the box tossed for her one potion, and the player it changed told so.
    "witch_toss": Kind.DRAW,
    "witch_touched": Kind.NONE,
}
"""The calls of the game's frame: night and day, the vote, the Sheriff and his Town Crier, the variants'."""


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
