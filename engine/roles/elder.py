"""The Elder: survives the first werewolf attack; killed by the village (vote, poison, the Hunter),
he costs every villager their special power. House rules: how many lives (``elder_lives``), and whether
the village pays for his death (``elder_revenge``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..contract import FactSpec
from ..role import Play, Role
from ..state import Kept

ATTACKS = frozenset({"werewolves", "big_bad_wolf"})
PENALTY_CAUSES = frozenset({"vote", "poison", "hunter"})


@dataclass(frozen=True)
class Bites(Kept):
    """The werewolves' attacks the Elder has survived; a new Elder (the Servant's) has all his lives."""

    card = "elder"
    renewed = True
    survived: int = 0


class Elder(Role):
    id = "elder"
    death_order = 0

    def survives(self, game: Play, seat: int, cause: str) -> bool:
        if game.card(seat) != self.id or cause not in ATTACKS:
            return False
        survived = game.kept(Bites).survived
        if game.rules.elder_lives - survived > 1:
            game.keep(Bites(survived + 1))
            return True
        return False

    def on_mark(self, game: Play, seat: int, cause: str) -> None:
        if (game.card(seat) == self.id and cause in PENALTY_CAUSES and not game.penalty
                and game.rules.elder_revenge):
            game.lose_powers()
            if game.rules.reveal_roles:
                game.fact("elder.penalty")


ROLE = Elder()
FACTS = (FactSpec("elder.penalty"),)
