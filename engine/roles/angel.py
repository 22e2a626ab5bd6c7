"""The Angel: the game opens with a day; eliminated by that first vote, or devoured or poisoned on
the first night, he wins alone and the game stops. Otherwise he is a simple villager."""

from __future__ import annotations

from ..role import GameOver, Play, Role
from ..types import Outcome, Phase
from .cupid import lovers

NIGHT_ONE = frozenset({"werewolves", "big_bad_wolf", "poison"})


class Angel(Role):
    id = "angel"
    opening_day = True
    death_order = -10

    def on_mark(self, game: Play, seat: int, cause: str) -> None:

        if (game.card(seat) != self.id or game.marked(seat, "infected") or game.marked(seat, "devoted")
                or game.marked(seat, "simple_villager")):
            return  # the Devoted Servant who took his card is a simple villager (the Chinese article)
        if seat in lovers(game):
            return  # a lover Angel has given up his goal
        last = next(e for e in reversed(game.eliminated) if e.seat == seat)
        opening_vote = last.phase is Phase.DAY and last.number == 0 and cause == "vote"
        first_night = last.phase is Phase.NIGHT and last.number == 1 and cause in NIGHT_ONE
        if opening_vote or first_night:
            raise GameOver(Outcome("angel", (seat,)))


ROLE = Angel()
