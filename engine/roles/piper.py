"""The Piper: charms two new players each night; wins the moment every other living player is charmed.
Infected, he becomes a simple werewolf and gives up his goal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import answers
from ..role import CallSpec, Flow, Role
from ..types import Answer, IllegalAnswer, Kind, Team

if TYPE_CHECKING:
    from ..game import Game


class Piper(Role):
    id = "piper"
    team = Team.PIPER
    win_order = 3
    win_name = "piper"

    def victory(self, game: "Game") -> tuple[int, ...] | None:
        players = game.players
        for seat in game.holders(self.id):
            if "infected" in players[seat - 1].marks:
                continue
            if all("charmed" in players[s - 1].marks for s in game.living() if s != seat):
                return (seat,)
        return None


def _charm(game: "Game", me: int, count: int, value: Answer) -> tuple[int, ...]:
    try:
        chosen = answers.seats(game, value, count)
    except IllegalAnswer as error:
        if error.key != "refusal.count" or count == (1 if game.variant("harvest") else 2):
            raise
        # Fewer than two left to charm tells how many are charmed: the screen only.
        raise IllegalAnswer(error.reason, key=error.key, secret=True, **error.values) from None
    for seat in chosen:
        if seat == me:
            raise IllegalAnswer("the Piper cannot charm himself", key="refusal.self", secret=True, seat=seat)
        if game.marked(seat, "charmed"):
            raise IllegalAnswer(f"seat {seat} is already charmed", key="refusal.charmed", secret=True, seat=seat)
    return chosen


def piper(game: "Game") -> Flow:
    seat = game.actor("piper")
    if seat is None or game.marked(seat, "infected"):
        yield from game.idle("piper", Kind.SEATS, picks=1 if game.variant("harvest") else 2)
        return
    me = seat
    free = [s for s in game.living() if s != me and not game.marked(s, "charmed")]
    if not free:  # all charmed, yet the game goes on (the Black Death overrides every victory)
        yield from game.idle("piper", Kind.SEATS, picks=1 if game.variant("harvest") else 2)
        return
    count = min(1 if game.variant("harvest") else 2, len(free))  # the Harvest: one player a night
    chosen = yield game.ask("piper", Kind.SEATS, actors=(me,), picks=count,
                            check=lambda v: _charm(game, me, count, v))
    for s in chosen:
        game.mark(s, "charmed")


def charmed(game: "Game") -> Flow:
    """Every charmed player wakes and recognises the others; nothing to answer."""
    return game.wake("charmed", tuple(s for s in game.living() if game.marked(s, "charmed") and s not in game.doomed))


ROLE = Piper()
CALLS = (CallSpec("piper", Kind.SEATS, frozenset({"piper"}), piper), CallSpec("charmed", Kind.NONE, frozenset({"piper"}), charmed))
