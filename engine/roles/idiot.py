"""The Village Idiot: voted out by the village, he reveals his card and stays in the game, but never
votes again; a second vote, a vote after the Elder's penalty, or any other cause eliminates him. With the
Chinese article's optional rule (idiot_dies_with_elder), a revealed Idiot dies when the Elder's penalty strikes."""

from __future__ import annotations

from .. import deaths
from ..contract import FactSpec, Value
from ..role import Flow, Play, Role
from ..types import IllegalAnswer

REVEALED = "revealed"
"""The mark of an Idiot the village has voted out once: public, he has shown his card."""


class Idiot(Role):
    id = "idiot"
    villager_power = True

    def survives(self, game: Play, seat: int, cause: str) -> bool:
        if (cause != "vote" or game.card(seat) != self.id or game.marked(seat, REVEALED)
                or not game.keeps_power(seat)):
            return False
        game.mark(seat, REVEALED)
        game.fact("idiot.revealed", seat=seat)
        if game.sheriff == seat:
            game.appoint(None)  # the office ends for good: no successor is named
            game.fact("sheriff.office_ends", seat=seat)
        return True

    def on_death(self, game: Play, seat: int, cause: str) -> Flow:
        # The Chinese article: "（可选）如果傻瓜在身份已经暴露的情况下因为长老的缘故而失去特殊效果，则他立即死亡。"
        if not (game.rules.idiot_dies_with_elder and game.penalty):
            return
        for player in game.players:
            if player.alive and player.card == self.id and REVEALED in player.marks:
                yield from deaths.kill(game, player.seat, "elder")

    def ballot(self, game: Play, voter: int, weight: int, vote: str, day: int) -> int:
        if self.revealed(game, voter):
            # His card is public: his ballot is refused aloud, never silently counted as nothing (docs/rules.md).
            raise IllegalAnswer(f"seat {voter} is the revealed Idiot, who no longer votes", key="refusal.idiot_ballot",
                                seat=voter)
        return weight

    def may_lead(self, game: Play, seat: int) -> bool:
        return not self.revealed(game, seat)

    def revealed(self, game: Play, seat: int) -> bool:
        """Returns whether the player at ``seat`` is the Idiot, already voted out once."""
        return game.card(seat) == self.id and game.marked(seat, REVEALED)


ROLE = Idiot()
FACTS = (FactSpec("idiot.revealed", {"seat": Value.SEAT}), FactSpec("sheriff.office_ends", {"seat": Value.SEAT}))
