"""The Three Brothers (三兄弟, Characters expansion): wake together on the first night and recognise one
another (and on even nights, if the table wants, like the Two Sisters)."""

from __future__ import annotations

from ..contract import FactSpec, Value
from ..role import CallSpec, Flow, Play, Role
from ..types import Kind


class Brother(Role):
    id = "brother"
    copies = (0, 3)


def brothers(game: Play) -> Flow:
    """The brothers wake and recognise each other; nothing to answer."""
    return game.wake("brothers", game.holders("brother"))


ROLE = Brother()
CALLS = (CallSpec("brothers", Kind.NONE, frozenset({"brother"}), brothers),)
FACTS = (FactSpec("brothers", {"seats": Value.SEATS}, secret=True),)
