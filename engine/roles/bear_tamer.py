"""The Bear Tamer: each morning the bear growls if a werewolf is one of his two living neighbours
(every morning, if the Bear Tamer himself is infected, unless the table's infected_bear_tamer_growls is
false: then only for his neighbours)."""

from __future__ import annotations

from ..contract import CallTraits
from ..role import CallSpec, Flow, Play, Role
from ..types import Kind


class BearTamer(Role):
    id = "bear_tamer"
    villager_power = True
    asks = {"growl": Kind.NONE}

    def after_dawn(self, game: Play) -> Flow:
        for seat in game.holders(self.id):
            infected = game.marked(seat, "infected") and game.rules.infected_bear_tamer_growls
            growls = infected or (
                game.keeps_power(seat) and any(game.is_werewolf(s) for s in game.neighbours(seat)))
            if growls:
                yield game.ask("growl", Kind.NONE)


def bear_tamer(game: Play) -> Flow:
    """Wakes on the first night so the narrator knows the seat; nothing to answer."""
    return game.wake("bear_tamer", game.holders("bear_tamer"), shown=False)


ROLE = BearTamer()
CALLS = (CallSpec("bear_tamer", Kind.NONE, frozenset({"bear_tamer"}), bear_tamer),)
TRAITS = {"growl": CallTraits(announces=True)}
"""The growl is said at dawn; nobody answers it."""
