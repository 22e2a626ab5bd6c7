"""The Witch's answer (Kind.WITCH): her heal for the werewolves' victim, then her poison, each as her potions left
allow; undo at the poison takes back the heal."""

from __future__ import annotations

from typing import Sequence

from engine import Answer, Call, Kind

from ..narration import VictimShown, potion_names, victim_shown
from . import SEAT, Pad, Shape, Undo, null_or


NOBODYS = VictimShown(potions=("poison",))
"""How her call made for nobody (the Witch eliminated, or both potions spent) reads its keys: as a living Witch's
who holds her poison alone, or has no victim to heal tonight (a question and keys as a living call's)."""


def read(pad: Pad, call: Call) -> Answer:
    # The Witch's own reading of what her call shows.
    shown = victim_shown(call) or (VictimShown() if call.live else NOBODYS)
    potions = shown.potions
    heal = False
    victim = shown.victim
    every = potions_line(pad, potions)  # as her call showed them
    left = potions_line(pad, [p for p in potions if p != "heal"])  # once the heal is given
    if "heal" in potions and "poison" in potions:
        # Asked again (a refusal, undo, repeat): the heal given before is hers again, and the list says so.
        pad.screen.secret(every, instead=left)
    if "heal" in potions and victim is not None:
        # Read back as what it does ("Save seat three?"), not "Yes?": the screen shows the victim to her alone.
        # A seat typed here, with her poison spent, is her try at it: she is told it is spent (on the screen).
        other = "refusal.not_an_option" if "poison" in potions else "refusal.poison_spent"
        heal = pad.choice("prompt.heal", {1: (True, pad.text("answer.heal_seat", seat=victim)),
                                          0: (False, pad.text("answer.no_heal", seat=victim))},
                          whole=lambda value: {"heal": value, "poison": None}, other=other) is True
    poison = None
    if heal and shown.one_in_all:
        return {"heal": True, "poison": None}  # the one-potion Witch has used hers
    if "poison" in potions:
        if heal:  # what she holds now, in the place of the list her call showed: never both on the screen
            pad.screen.secret(left, instead=every)
        try:
            poison = pad.seat(optional=True, prompt_key="prompt.poison",
                              whole=lambda seat: {"heal": heal, "poison": seat}, poison=True)
        except Undo:
            if "heal" in potions and victim is not None:
                return read(pad, call)
            raise
    return {"heal": heal, "poison": poison}


def potions_line(pad: Pad, potions: Sequence[str]) -> str:
    """Returns the line that shows the Witch the ``potions`` she holds (narration.Narrator.fact's own)."""
    return pad.text("screen.potions", potions=potion_names(pad.voice, potions))


SHAPES = (Shape(Kind.WITCH, read, "`{heal: true/false, poison: seat or null}`",
                {"type": "object", "additionalProperties": False,
                 "properties": {"heal": {"type": "boolean"}, "poison": null_or(SEAT)}}),)
