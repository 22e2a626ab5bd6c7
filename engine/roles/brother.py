"""The Three Brothers (三兄弟, Characters expansion): wake together on the first night and recognise one
another (and on even nights, if the table wants, like the Two Sisters)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..role import CallSpec, Flow, Role
from ..types import Fact, Kind

if TYPE_CHECKING:
    from ..game import Game


class Brother(Role):
    id = "brother"
    copies = (0, 3)


def brothers(game: "Game") -> Flow:
    awake = game.holders("brother")
    if not awake:
        yield from game.idle("brothers", Kind.NONE)
        return
    yield game.ask("brothers", Kind.NONE, actors=awake,
                   facts=(Fact("brothers", {"seats": list(awake)}, secret=True),))


ROLE = Brother()
CALLS = (CallSpec("brothers", Kind.NONE, frozenset({"brother"}), brothers),)
