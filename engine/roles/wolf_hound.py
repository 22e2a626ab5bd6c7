"""The Wolf Hound: chooses on the first night, for good, to be a villager or a werewolf. With the house rule
wolf_hound_random, his side is drawn instead: the narrator draws it and gives the draw as the call's answer
(journaled like any answer, so a game replays exactly), and the Wolf Hound reads it on the screen."""

from __future__ import annotations

from dataclasses import dataclass

from ..answers import shown
from ..contract import CallTraits, FactSpec, Value
from ..role import CallSpec, Flow, Play, Role
from ..state import Kept
from ..types import Answer, IllegalAnswer, Kind, Team


@dataclass(frozen=True)
class Side(Kept):
    """The side the Wolf Hound chose on the first night ("wolf" or "village"; "" before)."""

    card = "wolf_hound"
    sided = True
    again = True  # a Devoted Servant who takes his card chooses a side of her own the next night
    side: str = ""


class WolfHound(Role):
    id = "wolf_hound"

    def side(self, game: Play, seat: int) -> Team:
        return Team.WEREWOLVES if game.kept(Side).side == "wolf" else Team.VILLAGE


def _side(value: Answer) -> str:
    if value in ("wolf", "village"):
        return str(value)
    raise IllegalAnswer(f"expected wolf or village, got {shown(value)}", key="refusal.shape")


SIDES = ("village", "wolf")
"""The sides a draw picks among (wolf_hound_random)."""


def wolf_hound(game: Play) -> Flow:
    drawn = game.rules.wolf_hound_random
    kind = Kind.DRAW if drawn else Kind.SIDE  # a draw: the narrator's program answers, like the variants' draws
    seat = game.chooser("wolf_hound")
    if seat is None:
        yield from game.idle("wolf_hound", kind)
        return
    side = yield game.ask("wolf_hound", kind, actors=(seat,), options=SIDES if drawn else (), check=_side)
    game.keep(Side(side))
    if drawn:
        game.fact("wolf_hound.drawn", secret=True, side=side)


ROLE = WolfHound()
CALLS = (CallSpec("wolf_hound", Kind.SIDE, frozenset({"wolf_hound"}), wolf_hound),)
FACTS = (FactSpec("wolf_hound.drawn", {"side": Value.WORD}, secret=True, by="side", words=("wolf", "village")),)
"""The side drawn for him (the house rule wolf_hound_random)."""
TRAITS = {"wolf_hound": CallTraits(ruled_lines=("wake_drawn",),
                                    ruled=lambda rules: "wake_drawn" if rules.wolf_hound_random else None)}
"""With the house rule wolf_hound_random his side is drawn, not chosen: he wakes to learn it."""
