"""The Infected Father of the Wolves: once a game, the pack's victim is infected instead of devoured."""

from __future__ import annotations

from dataclasses import dataclass

from .. import answers
from ..contract import CallTraits
from ..role import CallSpec, Flow, Play, Role
from ..state import Kept
from ..types import Answer, Fact, IllegalAnswer, Kind, Team


@dataclass(frozen=True)
class Infection(Kept):
    """Whether the Infected Father has infected (once a game). Not renewed: a Servant who takes his card may
    infect only if he had not (the seed)."""

    card = "infected_father"
    used: bool = False


class InfectedFather(Role):
    id = "infected_father"
    team = Team.WEREWOLVES
    wolf_card = True


def _infect(game: Play, value: Answer) -> bool:
    infect = answers.yes_no(value)
    victim = game.tonight.victim
    if infect and victim is None:
        raise IllegalAnswer("the werewolves chose no victim tonight", key="refusal.no_victim", secret=True)
    if infect and victim is not None and game.card(victim) == "elder":
        raise IllegalAnswer(f"seat {victim} cannot be infected", key="refusal.cannot_infect", secret=True,
                            seat=victim)
    return infect


def infected_father(game: Play) -> Flow:
    """Asked every night while the power is unused; passing is always allowed."""
    seat = game.actor("infected_father")
    if seat is None or game.kept(Infection).used:
        yield from game.idle("infected_father", Kind.YES_NO)
        return
    victim: int | None = game.tonight.victim
    infect = yield game.ask("infected_father", Kind.YES_NO, actors=(seat,),
                            facts=(Fact("victim_shown", {"seat": victim}, secret=True),),
                            check=lambda v: _infect(game, v))
    if infect and victim is not None:
        game.keep(Infection(used=True))
        game.spare(victim, "werewolves")
        game.mark(victim, "infected")


ROLE = InfectedFather()
CALLS = (CallSpec("infected_father", Kind.YES_NO, frozenset({"infected_father"}), infected_father),)
TRAITS = {"infected_father": CallTraits(yes_means="infect")}
"""He is shown the Witch's victim_shown fact (engine/roles/witch.py), the seat alone."""
