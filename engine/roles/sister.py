"""The Two Sisters: wake together on the first night (and on even nights, if the table wants)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..role import CallSpec, Flow, Role
from ..types import Fact, Kind

if TYPE_CHECKING:
    from ..game import Game


class Sister(Role):
    id = "sister"
    copies = (0, 2)


def sisters(game: "Game") -> Flow:
    awake = game.holders("sister")
    if not awake:
        yield from game.idle("sisters", Kind.NONE)
        return
    yield game.ask("sisters", Kind.NONE, actors=awake,
                   facts=(Fact("sisters", {"seats": list(awake)}, secret=True),))


ROLE = Sister()
CALLS = (CallSpec("sisters", Kind.NONE, frozenset({"sister"}), sisters),)
