"""Cupid and the lovers: two players bound for life; one dies, the other dies of grief."""

from __future__ import annotations

from dataclasses import dataclass

from .. import answers, deaths
from ..contract import FactSpec, Value
from ..role import CallSpec, Flow, Play, Role
from ..state import Kept
from ..types import Fact, Kind


@dataclass(frozen=True)
class Lovers(Kept):
    """The lovers Cupid named, pair after pair: a Devoted Servant who takes his card names a new pair the next
    night, and the old lovers stay lovers (the Chinese article)."""

    card = "cupid"
    decides = True  # lovers of both sides win on their own
    seats: tuple[int, ...] = ()

    def pairs(self) -> tuple[tuple[int, int], ...]:
        """Returns the pairs of lovers, in the order they were named."""
        return tuple(zip(self.seats[::2], self.seats[1::2]))


@dataclass(frozen=True)
class Named(Kept):
    """The pair Cupid named tonight, who wake to recognise each other; forgotten when night falls."""

    nightly = True
    seats: tuple[int, ...] = ()


def lovers(game: Play) -> tuple[int, ...]:
    """Returns every lover's seat (two a pair), or () before Cupid has chosen."""
    return game.kept(Lovers).seats


def revealed(game: Play) -> tuple[Fact, ...]:
    """The lovers, a secret told in the recap of a finished game."""
    seats = lovers(game)
    return (Fact("lovers", {"seats": list(seats)}, secret=True),) if seats else ()


def _mixed(game: Play, pair: tuple[int, int]) -> bool:
    return game.is_werewolf(pair[0]) != game.is_werewolf(pair[1])


def mixed(game: Play, seat: int) -> bool:
    """Returns whether ``seat`` is a lover in a pair of a werewolf and a non-werewolf (their own goal, then)."""
    return any(_mixed(game, pair) for pair in game.kept(Lovers).pairs() if seat in pair)


class Cupid(Role):
    id = "cupid"
    # A villager's power: the Elder voted out on the Angel's opening day costs it before his call (docs/rules.md).
    villager_power = True
    death_order = 10  # grief first, then the Hunter's shot, then the Sheriff's successor
    win_order = 2
    win_name = "lovers"

    def on_death(self, game: Play, seat: int, cause: str) -> Flow:
        for pair in game.kept(Lovers).pairs():
            if seat in pair:
                yield from deaths.kill(game, pair[1] if seat == pair[0] else pair[0], "grief")

    def abandons_side(self, game: Play, seat: int) -> bool:
        return mixed(game, seat)

    def victory(self, game: Play) -> tuple[int, ...] | None:
        living = set(game.living())
        for pair in game.kept(Lovers).pairs():
            if _mixed(game, pair) and living == set(pair):
                cupid = tuple(p.seat for p in game.players if p.card == self.id and p.seat not in pair)
                return pair + cupid if game.rules.cupid_wins_with_lovers else pair
        return None


def cupid(game: Play) -> Flow:
    """Cupid names two lovers (himself allowed); a Devoted Servant who took his card names two more the next night."""
    seat = game.chooser("cupid")
    if seat is None:
        yield from game.idle("cupid", Kind.SEATS, picks=2)
        return
    pair = yield game.ask("cupid", Kind.SEATS, actors=(seat,), picks=2,
                          check=lambda v: answers.seats(game, v, 2))
    game.keep(Lovers(lovers(game) + tuple(pair)))
    game.keep(Named(tuple(pair)))


def wake_lovers(game: Play) -> Flow:
    """The lovers Cupid named tonight wake and recognise each other; nothing to answer."""
    return game.wake("lovers", tuple(s for s in game.kept(Named).seats if game.alive(s)))


ROLE = Cupid()
CALLS = (CallSpec("cupid", Kind.SEATS, frozenset({"cupid"}), cupid),
         CallSpec("lovers", Kind.NONE, frozenset({"cupid"}), wake_lovers))
FACTS = (FactSpec("lovers", {"seats": Value.SEATS}, secret=True),)
"""The lovers, shown each other's seats."""
