"""Cupid and the lovers: two players bound for life; one dies, the other dies of grief."""

from __future__ import annotations

from dataclasses import dataclass

from .. import answers, deaths
from ..contract import FactSpec, Value
from ..role import CallSpec, Flow, Play, Role
from ..state import Kept
from ..types import Kind


@dataclass(frozen=True)
class Lovers(Kept):
    """The two lovers Cupid named (a Devoted Servant who takes his card names none: it is night 1's call)."""

    card = "cupid"
    decides = True  # lovers of both sides win on their own
    seats: tuple[int, ...] = ()


def lovers(game: Play) -> tuple[int, ...]:
    """Returns the two lovers' seats, or () before Cupid has chosen."""
    return game.kept(Lovers).seats


def mixed(game: Play) -> bool:
    """Returns whether the lovers are a werewolf and a non-werewolf (their own goal, then)."""
    pair = lovers(game)
    return len(pair) == 2 and game.is_werewolf(pair[0]) != game.is_werewolf(pair[1])


class Cupid(Role):
    id = "cupid"
    # A villager's power: the Elder voted out on the Angel's opening day costs it before his call (docs/rules.md).
    villager_power = True
    death_order = 10  # grief first, then the Hunter's shot, then the Sheriff's successor
    win_order = 2
    win_name = "lovers"

    def on_death(self, game: Play, seat: int, cause: str) -> Flow:
        pair = lovers(game)
        if seat in pair:
            beloved = pair[1] if seat == pair[0] else pair[0]
            yield from deaths.kill(game, beloved, "grief")

    def abandons_side(self, game: Play, seat: int) -> bool:
        return mixed(game) and seat in lovers(game)

    def victory(self, game: Play) -> tuple[int, ...] | None:
        pair = lovers(game)
        if mixed(game) and set(game.living()) == set(pair):
            cupid = tuple(p.seat for p in game.players if p.card == self.id and p.seat not in pair)
            return pair + cupid if game.rules.cupid_wins_with_lovers else pair
        return None


def cupid(game: Play) -> Flow:
    """Cupid names two lovers (himself allowed)."""
    seat = game.actor("cupid")
    if seat is None:
        yield from game.idle("cupid", Kind.SEATS, picks=2)
        return
    pair = yield game.ask("cupid", Kind.SEATS, actors=(seat,), picks=2,
                          check=lambda v: answers.seats(game, v, 2))
    game.keep(Lovers(tuple(pair)))


def wake_lovers(game: Play) -> Flow:
    """The lovers wake and recognise each other; nothing to answer."""
    return game.wake("lovers", tuple(s for s in lovers(game) if game.alive(s)))


ROLE = Cupid()
CALLS = (CallSpec("cupid", Kind.SEATS, frozenset({"cupid"}), cupid),
         CallSpec("lovers", Kind.NONE, frozenset({"cupid"}), wake_lovers))
FACTS = (FactSpec("lovers", {"seats": Value.SEATS}, secret=True),)
"""The lovers, shown each other's seats."""
