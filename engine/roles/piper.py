"""The Piper: charms two new players each night; wins the moment every other living player is charmed.
Infected, he becomes a simple werewolf and gives up his goal. House rules: how many he charms a night
(``piper_charms``), and whether, infected, he still charms (``piper_keeps_power_if_infected``)."""

from __future__ import annotations

from .. import answers
from ..contract import FactSpec, Value
from ..role import CallSpec, Flow, Play, Role
from ..types import Answer, IllegalAnswer, Kind, Team


class Piper(Role):
    id = "piper"
    team = Team.PIPER
    win_order = 3
    win_name = "piper"

    def victory(self, game: Play) -> tuple[int, ...] | None:
        players = game.players
        for seat in game.holders(self.id):
            if "infected" in players[seat - 1].marks or "simple_villager" in players[seat - 1].marks:
                continue
            if all("charmed" in players[s - 1].marks for s in game.living() if s != seat):
                return (seat,)
        return None


def charms_a_night(game: Play) -> int:
    """Returns how many players the Piper charms a night: the table's number, one in the Harvest."""
    return 1 if game.variant("harvest") else game.rules.piper_charms


def _charm(game: Play, me: int, count: int, value: Answer) -> tuple[int, ...]:
    try:
        chosen = answers.seats(game, value, count)
    except IllegalAnswer as error:
        if error.key != "refusal.count" or count == charms_a_night(game):
            raise
        # Fewer than his number left to charm tells how many are charmed: the screen only.
        raise IllegalAnswer(error.reason, key=error.key, secret=True, **error.values) from None
    for seat in chosen:
        if seat == me:
            raise IllegalAnswer("the Piper cannot charm himself", key="refusal.self", secret=True, seat=seat)
        if game.marked(seat, "charmed"):
            raise IllegalAnswer(f"seat {seat} is already charmed", key="refusal.charmed", secret=True, seat=seat)
    return chosen


def piper(game: Play) -> Flow:
    seat = game.actor("piper")
    charms = charms_a_night(game)
    # The rulebook: infected, "he becomes a Simple Werewolf": his power goes with his goal, unless the table
    # lets him keep charming (his goal stays lost either way).
    if seat is None or (game.marked(seat, "infected") and not game.rules.piper_keeps_power_if_infected):
        yield from game.idle("piper", Kind.SEATS, picks=charms)
        return
    me = seat
    # "All of them if fewer remain": the rust's doomed, dead at nightfall, is not among them.
    free = [s for s in game.present() if s != me and not game.marked(s, "charmed")]
    count = min(charms, len(free))
    if not count:  # an infected Piper who charmed everyone: nothing left to charm, nothing to answer
        yield from game.idle("piper", Kind.SEATS, picks=charms)
        return
    chosen = yield game.ask("piper", Kind.SEATS, actors=(me,), picks=count,
                            check=lambda v: _charm(game, me, count, v))
    for s in chosen:
        game.mark(s, "charmed")


def charmed(game: Play) -> Flow:
    """Every charmed player wakes and recognises the others; nothing to answer."""
    return game.wake("charmed", tuple(s for s in game.present() if game.marked(s, "charmed")))


ROLE = Piper()
CALLS = (CallSpec("piper", Kind.SEATS, frozenset({"piper"}), piper), CallSpec("charmed", Kind.NONE, frozenset({"piper"}), charmed))
FACTS = (FactSpec("charmed", {"seats": Value.SEATS}, secret=True),)
"""The charmed, shown each other's seats."""
