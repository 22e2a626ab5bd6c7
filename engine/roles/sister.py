"""The Two Sisters: wake together on the first night (and on even nights, if the table wants)."""

from __future__ import annotations

from ..contract import FactSpec, Value
from ..role import CallSpec, Flow, Play, Role
from ..types import Kind


class Sister(Role):
    id = "sister"
    copies = (0, 2)


def sisters(game: Play) -> Flow:
    """The sisters wake and recognise each other; nothing to answer."""
    return game.wake("sisters", game.holders("sister"))


ROLE = Sister()
CALLS = (CallSpec("sisters", Kind.NONE, frozenset({"sister"}), sisters),)
FACTS = (FactSpec("sisters", {"seats": Value.SEATS}, secret=True),)
