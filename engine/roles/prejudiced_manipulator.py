"""The Prejudiced Manipulator (心怀偏见的阴谋家, Characters expansion): before the game the host splits the
players into two public groups; he wins alone the moment every player of the other group is eliminated."""

from __future__ import annotations

from ..contract import FactSpec, Value
from ..role import Flow, Play, Role
from ..types import Fact, Kind, Team


class PrejudicedManipulator(Role):
    id = "prejudiced_manipulator"
    team = Team.MANIPULATOR  # 独立阵营: like the Piper, the village has not won while he plays on
    # Simultaneous wins: after the loners the rulings already order (White Werewolf 1, lovers 2, Piper 3),
    # before the village and the werewolves: his goal, reached at the same moment as theirs, is the rarer.
    win_order = 4
    win_name = "prejudiced_manipulator"
    asks = {"groups": Kind.NONE}

    def at_start(self, game: Play) -> Flow:
        """The groups are public (the Chinese article, 准备阶段 3. 公开分组结果): said aloud before anything else."""
        first, second = game.table.groups
        yield game.ask("groups", Kind.NONE, facts=(Fact("groups.first", {"seats": list(first)}),
                                                  Fact("groups.second", {"seats": list(second)})))

    def victory(self, game: Play) -> tuple[int, ...] | None:
        for seat in game.holders(self.id):
            if game.marked(seat, "infected") or game.marked(seat, "simple_villager"):
                continue  # infected, he is a werewolf and has given up his goal (like the Piper)
            other = next(g for g in game.table.groups if seat not in g)
            if not any(game.alive(s) for s in other):
                return (seat,)
        return None


ROLE = PrejudicedManipulator()
FACTS = (FactSpec("groups.first", {"seats": Value.SEATS}), FactSpec("groups.second", {"seats": Value.SEATS}))
