"""The Knight with the Rusty Sword: devoured, he dooms the first werewolf to his left among those
who devoured him; that werewolf dies at the start of the next night and is announced at its dawn."""

from __future__ import annotations

from dataclasses import dataclass

from ..role import Play, Role
from ..state import Kept

BITES = frozenset({"werewolves", "big_bad_wolf"})
"""The bites that set off the rust."""


@dataclass(frozen=True)
class Rust(Kept):
    """The werewolf the rust dooms: he dies when the next night falls."""

    card = "knight"
    seat: int | None = None


class Knight(Role):
    id = "knight"
    villager_power = True

    def on_mark(self, game: Play, seat: int, cause: str) -> None:
        if not game.plays(seat, self.id) or cause not in BITES or not game.keeps_power(seat):
            return
        devourers = game.tonight.devourers(cause)
        if not devourers:
            return
        n = game.table.seats
        for step in range(1, n):
            s = (seat - 1 + step) % n + 1  # clockwise: the Knight's left
            if s in devourers and game.alive(s):
                game.keep(Rust(s))
                return

    def at_nightfall(self, game: Play) -> None:
        s = game.kept(Rust).seat
        if s is not None:
            game.forget(Rust)
            if game.alive(s):
                game.record(doomed=game.tonight.doomed | {s})
                game.attack(s, "rust")


ROLE = Knight()
