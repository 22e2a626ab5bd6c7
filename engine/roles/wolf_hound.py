"""The Wolf Hound: chooses on the first night, for good, to be a villager or a werewolf. With the house rule
wolf_hound_random, his side is drawn instead: the narrator draws it and gives the draw as the call's answer
(journaled like any answer, so a game replays exactly), and the Wolf Hound reads it on the screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..answers import shown
from ..role import CallSpec, Flow, Role
from ..types import Answer, IllegalAnswer, Kind, Team

if TYPE_CHECKING:
    from ..game import Game


class WolfHound(Role):
    id = "wolf_hound"

    def side(self, game: "Game", seat: int) -> Team:
        return Team.WEREWOLVES if game.choices.get(self.id) == "wolf" else Team.VILLAGE


def _side(value: Answer) -> str:
    if value in ("wolf", "village"):
        return str(value)
    raise IllegalAnswer(f"expected wolf or village, got {shown(value)}", key="refusal.shape")


def wolf_hound(game: "Game") -> Flow:
    seat = game.actor("wolf_hound")
    if seat is None:
        yield from game.idle("wolf_hound", Kind.SIDE)
        return
    side = yield game.ask("wolf_hound", Kind.SIDE, actors=(seat,), check=_side)
    game.choose("wolf_hound", side)
    if game.rules.wolf_hound_random:
        game.fact("wolf_hound.drawn", secret=True, side=side)


ROLE = WolfHound()
CALLS = (CallSpec("wolf_hound", Kind.SIDE, frozenset({"wolf_hound"}), wolf_hound),)
