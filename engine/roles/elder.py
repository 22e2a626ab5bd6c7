"""The Elder: survives the first werewolf attack; killed by the village (vote, poison, the Hunter),
he costs every villager their special power. House rules: how many lives (``elder_lives``), and whether
the village pays for his death (``elder_revenge``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..contract import FactSpec
from ..role import Role

if TYPE_CHECKING:
    from ..game import Game

ATTACKS = frozenset({"werewolves", "big_bad_wolf"})
PENALTY_CAUSES = frozenset({"vote", "poison", "hunter"})


class Elder(Role):
    id = "elder"
    death_order = 0

    def survives(self, game: "Game", seat: int, cause: str) -> bool:
        if game.card(seat) != self.id or cause not in ATTACKS:
            return False
        lives = game.counters.get("elder.lives", game.rules.elder_lives)
        if lives > 1:
            game.counters["elder.lives"] = lives - 1
            return True
        return False

    def on_mark(self, game: "Game", seat: int, cause: str) -> None:
        if (game.card(seat) == self.id and cause in PENALTY_CAUSES and not game.penalty
                and game.rules.elder_revenge):
            game.penalty = True
            if game.rules.reveal_roles:
                game.fact("elder.penalty")


ROLE = Elder()
FACTS = (FactSpec("elder.penalty"),)
