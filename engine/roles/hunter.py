"""The Hunter: whatever the cause of his elimination, he shoots another player at once."""

from __future__ import annotations

from .. import answers, deaths
from ..role import Flow, Play, Role
from ..types import Kind


class Hunter(Role):
    id = "hunter"
    villager_power = True
    death_order = 20
    asks = {"hunter": Kind.SEAT}

    def on_death(self, game: Play, seat: int, cause: str) -> Flow:
        if not game.plays(seat, self.id) or not game.keeps_power(seat) or not game.living():
            return
        if cause == "poison" and not game.rules.hunter_shoots_when_poisoned:
            return  # the Chinese rules: a poisoned Hunter cannot shoot
        if game.variant("harvest"):
            # The Harvest: 'the Hunter must choose his victim among his left and right neighbours' (living).
            beside = game.neighbours(seat)
            target = yield game.ask("hunter", Kind.SEAT, actors=(seat,), seats=beside,
                                    check=lambda v: answers.seat(game, v, among=beside))
        else:
            target = yield game.ask("hunter", Kind.SEAT, actors=(seat,), check=lambda v: answers.seat(game, v))
        yield from deaths.kill(game, target, "hunter")


ROLE = Hunter()
