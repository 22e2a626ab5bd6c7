"""The Pyromaniac (纵火狂): once a game, at night, sets fire to a building; in the morning it is gone and
its owner becomes a Vagabond. If a werewolf attacked that owner the same night (the pack or the Big Bad Wolf),
he survives, and the first living werewolf to his right burns instead."""

from __future__ import annotations

from dataclasses import dataclass

from .. import answers, village
from ..contract import FactSpec, Value
from ..role import CallSpec, Flow, Play, Role
from ..state import Kept
from ..types import Answer, Fact, IllegalAnswer, Kind


@dataclass(frozen=True)
class Fire(Kept):
    """Whether the Pyromaniac has set his fire (once a game)."""

    card = "pyromaniac"
    set: bool = False


@dataclass(frozen=True)
class Burning(Kept):
    """The house he set on fire tonight."""

    card = "pyromaniac"
    nightly = True
    seat: int | None = None


class Pyromaniac(Role):
    id = "pyromaniac"
    villager_power = True

    def before_dawn(self, game: Play) -> tuple[Fact, ...]:
        burnt = game.kept(Burning).seat
        if burnt is None:
            return ()
        attacked = game.tonight.victim == burnt or (burnt, "big_bad_wolf") in game.tonight.attacks
        if attacked:
            # Ruling: a werewolf came to a burning house (BGA: 人狼が襲撃した場合), the pack's or the Big Bad Wolf's
            # attack alike. Its victim survives whatever protection or potion, and the first living werewolf
            # counting to the house's right (counter-clockwise, docs/rules.md) dies in the fire: one werewolf,
            # even when both attacks fell on it.
            game.spare(burnt, "werewolves")
            game.spare(burnt, "big_bad_wolf")
            n = game.table.seats
            for step in range(1, n):
                seat = (burnt - 1 - step) % n + 1
                if game.is_werewolf(seat) and game.alive(seat) and seat not in game.tonight.doomed:
                    game.attack(seat, "fire")
                    break
        village.burn(game, burnt)
        return (Fact("pyromaniac.burnt", {"seat": burnt}),)


def _house(game: Play, value: Answer) -> int | None:
    seat = answers.seat(game, value, optional=True)
    if seat is not None and not village.owns_house(game, seat):
        # Who has a house is public, but a refusal said aloud at night would tell where he pointed.
        raise IllegalAnswer(f"seat {seat} has no building", key="refusal.no_house", secret=True, seat=seat)
    return seat


def pyromaniac(game: Play) -> Flow:
    """While his fire is unused he may name a player living in a building, or pass."""
    seat = game.actor("pyromaniac")
    if seat is None or game.kept(Fire).set:
        yield from game.idle("pyromaniac", Kind.SEAT, optional=True)
        return
    target = yield game.ask("pyromaniac", Kind.SEAT, actors=(seat,), optional=True,
                            check=lambda v: _house(game, v))
    if target is not None:
        game.keep(Fire(set=True))
        game.keep(Burning(target))


ROLE = Pyromaniac()
CALLS = (CallSpec("pyromaniac", Kind.SEAT, frozenset({"pyromaniac"}), pyromaniac),)
FACTS = (FactSpec("pyromaniac.burnt", {"seat": Value.SEAT}),)
