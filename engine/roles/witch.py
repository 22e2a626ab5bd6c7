"""The Witch: shown the werewolves' victim; a healing potion and a poison potion, each once a game."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from .. import answers, variants
from ..contract import CallTraits, FactSpec, Listed, Piece, Told, Value
from ..role import CallSpec, Flow, Play, Role
from ..state import Kept
from ..types import Answer, Fact, IllegalAnswer, Kind


@dataclass(frozen=True)
class Potions(Kept):
    """Which of her potions the Witch has spent; a new Witch (the Servant's) has both again."""

    card = "witch"
    renewed = True
    heal: bool = False
    poison: bool = False

    def left(self) -> list[str]:
        """Returns the potions left, by name."""
        return [name for name, spent in (("heal", self.heal), ("poison", self.poison)) if not spent]


class Witch(Role):
    id = "witch"
    villager_power = True


def _potions(game: Play, witch: int, value: Answer) -> tuple[bool, int | None]:
    if value is None:
        return False, None
    asked = answers.mapping(value, ("heal", "poison"))
    heal = answers.yes_no(asked.get("heal", False))
    poison = answers.seat(game, asked.get("poison"), optional=True)
    spent = game.kept(Potions)
    if heal and spent.heal:
        raise IllegalAnswer("the healing potion is spent", key="refusal.heal_spent", secret=True)
    if heal and game.tonight.victim is None:
        raise IllegalAnswer("the werewolves chose no victim tonight", key="refusal.no_victim", secret=True)
    if poison is not None and spent.poison:
        raise IllegalAnswer("the poison potion is spent", key="refusal.poison_spent", secret=True)
    if poison == witch:
        # BGA: the Witch may not poison herself (the Best Of grants her only the heal on herself).
        raise IllegalAnswer("the Witch cannot poison herself", key="refusal.self", secret=True)
    if heal and poison is not None and game.rules.witch_potions == 1:
        raise IllegalAnswer("the Witch has one potion in all: heal or poison", key="refusal.one_potion",
                            secret=True)
    return heal, poison


def witch(game: Play) -> Flow:
    """Asked while a potion is left, for the potions left; she may heal herself, never poison herself, and use both
    at once.
    The Harvest gives her one potion in all, whose effect the box decides (engine/variants.py)."""
    if game.variant("harvest"):
        yield from variants.harvest_witch(game)
        return
    seat = game.actor("witch")
    potions = game.kept(Potions)
    if seat is None or not potions.left():
        yield from game.idle("witch", Kind.WITCH, optional=True)
        return
    victim: int | None = game.tonight.victim
    left = potions.left()
    heal, poison = yield game.ask("witch", Kind.WITCH, actors=(seat,), optional=True,
                                  facts=(Fact("victim_shown", {"seat": victim, "potions": left,
                                                               "one_in_all": game.rules.witch_potions == 1},
                                              secret=True),),
                                  check=lambda v: _potions(game, seat, v))
    if heal:
        game.keep(replace(game.kept(Potions), heal=True))
        # A heal on an infected victim is spent and cures nothing: the bite is gone already.
        if victim is not None:
            game.spare(victim, "werewolves")
    if poison is not None:
        game.keep(replace(game.kept(Potions), poison=True))
        game.attack(poison, "poison")
    if (heal or poison is not None) and game.rules.witch_potions == 1:
        game.keep(Potions(heal=True, poison=True))  # the French rules' variant: one potion in all


ROLE = Witch()
CALLS = (CallSpec("witch", Kind.WITCH, frozenset({"witch"}), witch),)
def _shown(values: Mapping[str, object]) -> tuple[Told, ...]:
    """The victim (or that there is none), then the potions left, each named by its line, as a list."""
    seat, potions = values.get("seat"), values.get("potions")
    victim = Told("screen.victim_shown", {"seat": seat}) if seat is not None else Told("screen.no_victim_shown")
    if not isinstance(potions, list):  # the Infected Father is shown the victim alone
        return (victim,)
    return victim, Told("screen.potions", {"potions": Listed(tuple(Piece(f"screen.potion.{p}") for p in potions))})


SHOWN = FactSpec("victim_shown", {"seat": Value.SEAT_OR_NONE, "potions": Value.WORDS, "one_in_all": Value.FLAG},
                  secret=True, words=("heal", "poison", "box"),
                  lines=("screen.victim_shown", "screen.no_victim_shown", "screen.potions", "screen.potion.heal",
                         "screen.potion.poison", "screen.potion.box"), told=_shown, about="seat",
                  unrecapped=("screen.potions",))
"""The werewolves' victim (None: none tonight), the seat her heal is about, and the potions left (the Harvest's
one: "box"), and whether she has one potion in all; the Infected Father is shown it too, the seat alone. The recap
leaves out the potions left: it tells what she used."""
FACTS = (SHOWN,)


TRAITS = {"witch": CallTraits(ruled_lines=("wake_harvest",),
                               ruled=lambda rules: "wake_harvest" if "harvest" in rules.variants else None)}
"""The Harvest's Witch wakes to one potion in all."""
