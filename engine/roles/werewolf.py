"""The Simple Werewolf, and the werewolves' call: the whole pack wakes and devours one villager."""

from __future__ import annotations

from .. import answers, variants
from ..contract import FactSpec, Value
from ..role import CallSpec, Flow, Play, Role
from ..types import Answer, Fact, IllegalAnswer, Kind, Team


class Werewolf(Role):
    id = "werewolf"
    team = Team.WEREWOLVES
    copies = None
    wolf_card = True


def pack(game: Play) -> tuple[int, ...]:
    """Returns the seats that wake with the werewolves tonight: every living werewolf."""
    return tuple(s for s in game.present() if game.is_werewolf(s))


def _victim(game: Play, value: Answer) -> int | None:
    seat = answers.named(game, answers.seat(game, value, optional=True), "werewolves", secret=True)
    if seat is not None and game.is_werewolf(seat) and not game.rules.werewolves_may_eat_werewolves:
        raise IllegalAnswer(f"seat {seat} is a werewolf", key="refusal.werewolf_target", secret=True,
                            seat=seat)
    if seat is not None and game.variant("harvest"):
        # The Harvest: 'the werewolves may only devour a player sitting beside a werewolf'; who sits beside a
        # werewolf is a secret, so the refusal is shown on the screen only.
        pack = game.tonight.pack
        if not any(seat in game.neighbours(wolf) for wolf in pack):
            raise IllegalAnswer(f"seat {seat} sits beside no werewolf", key="refusal.harvest_neighbour",
                                secret=True, seat=seat)
    return seat


def werewolves(game: Play) -> Flow:
    """The pack is shown to itself and names its victim (or none, if it cannot agree)."""
    if game.variant("black_death"):
        yield from variants.plague(game)
        return
    awake = pack(game)
    game.record(pack=awake)
    if not awake:
        yield from game.idle("werewolves", Kind.SEAT, optional=True)
        return
    facts: tuple[Fact, ...] = (Fact("pack", {"seats": list(awake)}, secret=True),)
    if game.variant("moonlight_wolves"):
        facts += (Fact("moonlight.wolves"),)  # said aloud every night: 'blow out your victim's candle'
    victim = yield game.ask("werewolves", Kind.SEAT, actors=awake, optional=True, facts=facts,
                            check=lambda v: _victim(game, v))
    game.record(victim=victim)
    if victim is not None:
        game.attack(victim, "werewolves")


ROLE = Werewolf()
CALLS = (CallSpec("werewolves", Kind.SEAT, frozenset({"werewolf", "big_bad_wolf", "infected_father", "white_werewolf",
                                           "wolf_hound", "wild_child"}), werewolves),)
FACTS = (FactSpec("pack", {"seats": Value.SEATS}, secret=True),)
"""The pack's seats, shown to the werewolves awake."""
