"""The Knight with the Rusty Sword: devoured, he dooms the first werewolf to his left among those
who devoured him; that werewolf dies at the start of the next night and is announced at its dawn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..role import Role

if TYPE_CHECKING:
    from ..game import Game

BITES = {"werewolves": "pack", "big_bad_wolf": "big_bad_wolf"}


class Knight(Role):
    id = "knight"
    villager_power = True

    def on_mark(self, game: "Game", seat: int, cause: str) -> None:
        if not game.plays(seat, self.id) or cause not in BITES or not game.keeps_power(seat):
            return
        devourers = game.tonight.get(BITES[cause])
        if not devourers:
            return
        n = game.table.seats
        for step in range(1, n):
            s = (seat - 1 + step) % n + 1  # clockwise: the Knight's left
            if s in devourers and game.alive(s):
                game.link("rust", (s,))
                return

    def at_nightfall(self, game: "Game") -> None:
        doomed = game.links.pop("rust", ())
        for s in doomed:
            if game.alive(s):
                game.doomed.add(s)
                game.attacks.append((s, "rust"))


ROLE = Knight()
