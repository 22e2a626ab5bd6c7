"""The Fox: points at a player; told whether they or their two living neighbours include a werewolf.
On a "no" he loses his power for good."""

from __future__ import annotations

from dataclasses import dataclass

from .. import answers
from ..contract import FactSpec, Told, Value
from ..role import CallSpec, Flow, Play, Role
from ..state import Kept
from ..types import Kind


@dataclass(frozen=True)
class Scent(Kept):
    """Whether the Fox has lost his power (a miss); a new Fox (the Servant's) has it again."""

    card = "fox"
    renewed = True
    lost: bool = False


class Fox(Role):
    id = "fox"
    villager_power = True


def sniff(game: Play, seat: int) -> bool:
    """Returns whether ``seat`` or its two living neighbours include a werewolf."""
    return any(game.is_werewolf(s) for s in (seat, *game.neighbours(seat)))


def fox(game: Play) -> Flow:
    seat = game.actor("fox")
    if seat is None or game.kept(Scent).lost:
        yield from game.idle("fox", Kind.SEAT, optional=True)
        return
    target = yield game.ask("fox", Kind.SEAT, actors=(seat,), optional=True,
                            check=lambda v: answers.seat(game, v, optional=True))
    if target is None:
        return
    found = sniff(game, target)
    game.fact("fox.sign", secret=True, seat=target, werewolf=found)
    if not found and game.rules.fox_loses_power_on_miss:
        game.keep(Scent(lost=True))


ROLE = Fox()
CALLS = (CallSpec("fox", Kind.SEAT, frozenset({"fox"}), fox),)
FACTS = (FactSpec("fox.sign", {"seat": Value.SEAT, "werewolf": Value.FLAG}, secret=True,
                  lines=("screen.fox_yes", "screen.fox_no"),
                  told=lambda v: (Told("screen.fox_yes" if v["werewolf"] else "screen.fox_no", {"seat": v["seat"]}),)),)
"""Whether a werewolf is among the three he sniffs: the sign picks the line."""
