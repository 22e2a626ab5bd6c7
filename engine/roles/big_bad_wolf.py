"""The Big Bad Wolf: a second victim each night, while no member of the werewolf team is eliminated."""

from __future__ import annotations

from .. import answers
from ..role import CallSpec, Flow, Play, Role
from ..types import Answer, IllegalAnswer, Kind, Team


class BigBadWolf(Role):
    id = "big_bad_wolf"
    team = Team.WEREWOLVES
    wolf_card = True


def has_power(game: Play) -> bool:
    """Returns whether no werewolf has fallen yet (the rust's doomed, dead at nightfall, counts); always,
    if the table's Big Bad Wolf never loses his second victim."""
    if not game.rules.big_bad_wolf_loses_power:
        return True
    return not game.tonight.doomed and not any(game.is_werewolf(e.seat) for e in game.eliminated)


def _second(game: Play, value: Answer) -> int | None:
    seat = answers.named(game, answers.seat(game, value, optional=True), "big_bad_wolf", secret=True)
    if seat is not None and game.is_werewolf(seat):
        raise IllegalAnswer(f"seat {seat} is a werewolf", key="refusal.werewolf_target", secret=True,
                            seat=seat)
    if seat is not None and seat == game.tonight.victim:
        raise IllegalAnswer(f"seat {seat} is already the pack's victim", key="refusal.same_victim",
                            secret=True, seat=seat)
    return seat


def big_bad_wolf(game: Play) -> Flow:
    seat = game.actor("big_bad_wolf")
    if seat is None or not has_power(game):
        yield from game.idle("big_bad_wolf", Kind.SEAT, optional=True)
        return
    victim = yield game.ask("big_bad_wolf", Kind.SEAT, actors=(seat,), optional=True,
                            check=lambda v: _second(game, v))
    if victim is not None:
        game.record(bites=(*game.tonight.bites, ("big_bad_wolf", (seat,))))  # the Knight's rust needs who bit
        game.attack(victim, "big_bad_wolf")


ROLE = BigBadWolf()
CALLS = (CallSpec("big_bad_wolf", Kind.SEAT, frozenset({"big_bad_wolf"}), big_bad_wolf),)
