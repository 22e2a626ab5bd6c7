"""The Guard (Salvateur, 守卫): each night, before the werewolves, protects one player (himself allowed)
from every werewolf kill of that night; never the same player two nights running."""

from __future__ import annotations

from dataclasses import dataclass

from .. import answers
from ..role import CallSpec, Flow, Play, Role
from ..state import Kept
from ..types import Answer, IllegalAnswer, Kind

BITES = frozenset({"werewolves", "big_bad_wolf", "white_werewolf"})
"""The werewolf kills a protection stops; not the poison, the rust, the infection or the charm."""

UNPROTECTED = frozenset({"little_girl"})
"""The Chinese article: 'the Guard's protection has no effect on the Little Girl'."""


@dataclass(frozen=True)
class LastNight(Kept):
    """The player the Guard protected last night (None: nobody), whom he may not protect twice running. A new
    Guard (the Servant's) may: 他可能会选中原来的守卫在前一晚保护过的人，但此次保护依然生效."""

    card = "guard"
    renewed = True
    seat: int | None = None


class Guard(Role):
    id = "guard"
    villager_power = True
    death_order = -5  # before the Elder (0): a protected Elder loses no life

    def survives(self, game: Play, seat: int, cause: str) -> bool:
        return (cause in BITES and game.tonight.protected == seat
                and (game.card(seat) not in UNPROTECTED or game.rules.guard_protects_little_girl))


def _protect(game: Play, me: int, value: Answer) -> int | None:
    seat = answers.seat(game, value, optional=True)
    if seat is not None and game.variant("harvest") and seat != me and seat not in game.neighbours(me):
        # The Harvest: 'the Guard may only protect himself or one of his neighbours'.
        raise IllegalAnswer(f"seat {seat} is neither the Guard nor his neighbour", key="refusal.harvest_guard",
                            secret=True, seat=seat)
    if seat is not None and game.kept(LastNight).seat == seat and not game.rules.guard_same_twice:
        raise IllegalAnswer(f"seat {seat} was protected last night", key="refusal.guarded_twice",
                            secret=True, seat=seat)
    return seat


def guard(game: Play) -> Flow:
    """He names the player he protects tonight, or passes."""
    seat = game.actor("guard")
    if seat is None:
        yield from game.idle("guard", Kind.SEAT, optional=True)
        return
    me = seat
    protected = yield game.ask("guard", Kind.SEAT, actors=(seat,), optional=True,
                               check=lambda v: _protect(game, me, v))
    game.record(protected=protected)
    game.keep(LastNight(protected))


ROLE = Guard()
CALLS = (CallSpec("guard", Kind.SEAT, frozenset({"guard"}), guard),)
