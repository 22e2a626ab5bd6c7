"""The Infected Father of the Wolves: once a game, the pack's victim is infected instead of devoured."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import answers
from ..contract import CallTraits
from ..role import CallSpec, Flow, Role
from ..types import Answer, Fact, IllegalAnswer, Kind, Team

if TYPE_CHECKING:
    from ..game import Game


class InfectedFather(Role):
    id = "infected_father"
    team = Team.WEREWOLVES
    wolf_card = True


def _infect(game: "Game", value: Answer) -> bool:
    infect = answers.yes_no(value)
    victim = game.tonight.get("victim")
    if infect and victim is None:
        raise IllegalAnswer("the werewolves chose no victim tonight", key="refusal.no_victim", secret=True)
    if infect and victim is not None and game.card(victim) == "elder":
        raise IllegalAnswer(f"seat {victim} cannot be infected", key="refusal.cannot_infect", secret=True,
                            seat=victim)
    return infect


def infected_father(game: "Game") -> Flow:
    """Asked every night while the power is unused; passing is always allowed."""
    seat = game.actor("infected_father")
    if seat is None or "infected_father" in game.used:
        yield from game.idle("infected_father", Kind.YES_NO)
        return
    victim: int | None = game.tonight.get("victim")
    infect = yield game.ask("infected_father", Kind.YES_NO, actors=(seat,),
                            facts=(Fact("victim_shown", {"seat": victim}, secret=True),),
                            check=lambda v: _infect(game, v))
    if infect and victim is not None:
        game.used.add("infected_father")
        game.attacks.remove((victim, "werewolves"))
        game.mark(victim, "infected")
        game.tonight["infected"] = victim


ROLE = InfectedFather()
CALLS = (CallSpec("infected_father", Kind.YES_NO, frozenset({"infected_father"}), infected_father),)
TRAITS = {"infected_father": CallTraits(yes_means="infect")}
"""He is shown the Witch's victim_shown fact (engine/roles/witch.py), the seat alone."""
