"""Every character, one file each. A module defines ``ROLE`` (a Role) and may define ``CALLS``, and declares
for the narrator the facts it tells (``FACTS``) and its calls' traits (``TRAITS``: engine/contract.py).

The modules are found by listing this package, so adding a character is adding
its file (and its lines in the voice files).
"""

from __future__ import annotations

import importlib
import pkgutil

from dataclasses import replace

from ..contract import CallTraits, FactSpec
from ..role import CallSpec, Role

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


_load()
