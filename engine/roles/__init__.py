"""Every character, one file each. A module defines ``ROLE`` (a Role) and may define ``CALLS``.

The modules are found by listing this package, so adding a character is adding
its file (and its lines in the voice files).
"""

from __future__ import annotations

import importlib
import pkgutil

from ..role import CallSpec, Role

ROLES: dict[str, Role] = {}
"""Every character by card id, in a fixed order (the modules' names)."""

CALLS: dict[str, CallSpec] = {}
"""Every night call a character owns, by call id."""


def _load() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        role: Role | None = getattr(module, "ROLE", None)
        if role is not None:
            ROLES[role.id] = role
        for spec in getattr(module, "CALLS", ()):
            CALLS[spec.id] = spec


_load()
