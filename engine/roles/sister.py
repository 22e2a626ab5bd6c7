"""The Two Sisters: wake together on the first night (and on even nights, if the table wants)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..contract import FactSpec, Value
from ..role import CallSpec, Flow, Role
from ..types import Kind

if TYPE_CHECKING:
    from ..game import Game


class Sister(Role):
    id = "sister"
    copies = (0, 2)


def sisters(game: "Game") -> Flow:
    """The sisters wake and recognise each other; nothing to answer."""
    return game.wake("sisters", game.holders("sister"))


ROLE = Sister()
CALLS = (CallSpec("sisters", Kind.NONE, frozenset({"sister"}), sisters),)
FACTS = (FactSpec("sisters", {"seats": Value.SEATS}, secret=True),)
