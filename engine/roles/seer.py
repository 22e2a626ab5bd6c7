"""The Fortune Teller (seer): each night, sees the card of a player of her choice."""

from __future__ import annotations

from typing import Mapping

from .. import answers
from ..contract import FactSpec, Listed, Told, Value
from ..role import CallSpec, Flow, Play, Role
from ..types import Answer, IllegalAnswer, Kind


class Seer(Role):
    id = "seer"
    villager_power = True


def _look(game: Play, me: int, value: Answer) -> int | None:
    seat = answers.seat(game, value, optional=True)
    if seat == me:
        raise IllegalAnswer("the Fortune Teller already knows her own card", key="refusal.self",
                            secret=True, seat=seat)
    return seat


def seer(game: Play) -> Flow:
    """She names a player (or passes) and is shown that player's card."""
    seat = game.actor("seer")
    if seat is None:
        yield from game.idle("seer", Kind.SEAT, optional=True)
        return
    me = seat
    target = yield game.ask("seer", Kind.SEAT, actors=(me,), optional=True, check=lambda v: _look(game, me, v))
    if target is not None and game.variant("harvest"):
        # The Harvest: the chosen card and its two neighbours' are shuffled and shown, none tied to a seat;
        # shown sorted, so the order tells nothing.
        cards = sorted(game.card(s) for s in (target, *game.neighbours(target)))
        game.fact("seer.sees_shuffled", secret=True, roles=cards)
    elif target is not None:
        game.fact("seer.sees", secret=True, seat=target, role=game.card(target))


def _shuffled(values: Mapping[str, object]) -> tuple[Told, ...]:
    """The three cards listed, no seat said."""
    roles = values["roles"]
    assert isinstance(roles, list)
    return (Told("screen.seer_sees_shuffled", {"cards": Listed(tuple(roles))}),)


ROLE = Seer()
CALLS = (CallSpec("seer", Kind.SEAT, frozenset({"seer"}), seer),)
FACTS = (FactSpec("seer.sees", {"seat": Value.SEAT, "role": Value.ROLE}, secret=True),
         FactSpec("seer.sees_shuffled", {"roles": Value.ROLES}, secret=True, lines=("screen.seer_sees_shuffled",),
                  told=_shuffled))
"""The card she looks at; the Harvest's three cards, no seats."""
