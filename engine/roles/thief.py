"""The Thief: on the first night, sees the two centre cards and may swap his card for one
(must, if both are werewolf cards); he plays the card he took for the rest of the game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Mapping

from ..answers import as_int, shown
from ..contract import FactSpec, Told, Value
from ..role import CallSpec, Flow, Play, Role
from ..state import Kept
from ..types import Answer, Fact, IllegalAnswer, Kind


@dataclass(frozen=True)
class Called(Kept):
    """Whether the Thief's first-night call has been made (a card taken or not, his card in the centre or not)."""

    decides: ClassVar[bool] = True  # until it is made no side has won (Thief.holds_victory)
    made: bool = False


class Thief(Role):
    id = "thief"

    def holds_victory(self, game: Play) -> bool:
        # Until his call a centre card may still come into play: the werewolf a table deals him in the centre, the
        # Angel's opening day coming before the first night. No side has won while it lies there.
        return not game.kept(Called).made and bool(game.centre)


def _take(game: Play, value: Answer) -> int | None:
    if value is None:
        if game.rules.thief_must_take_werewolf and all(game.roles[c].wolf_card for c in game.centre):
            raise IllegalAnswer("both cards are werewolves: the Thief must take one", key="refusal.must_take",
                                secret=True)
        return None
    card = as_int(value)
    if card not in (1, 2):
        raise IllegalAnswer(f"expected 1 or 2 (the centre card taken) or null, got {shown(value)}",
                            key="refusal.shape")
    return card


def thief(game: Play) -> Flow:
    seat = game.actor("thief")
    if seat is None:
        yield from game.idle("thief", Kind.CARD, optional=True)
        game.keep(Called(True))
        return
    shown = Fact("centre", {"cards": list(game.centre)}, secret=True)
    taken = yield game.ask("thief", Kind.CARD, actors=(seat,), optional=True, facts=(shown,),
                           check=lambda v: _take(game, v))
    if taken is not None:
        card = game.centre[taken - 1]
        game.swap_centre(taken, "thief")
        game.give(seat, card)
        game.fact("thief.takes", secret=True, role=card)
    game.keep(Called(True))


def _centre(values: Mapping[str, object]) -> tuple[Told, ...]:
    """The two centre cards, each said with its number (the number he answers with)."""
    cards = values["cards"]
    assert isinstance(cards, list) and len(cards) == 2
    return (Told("screen.centre", {"first": cards[0], "second": cards[1]}),)


ROLE = Thief()
CALLS = (CallSpec("thief", Kind.CARD, frozenset({"thief"}), thief),)
FACTS = (FactSpec("centre", {"cards": Value.ROLES}, secret=True, lines=("screen.centre",), told=_centre),
         FactSpec("thief.takes", {"role": Value.ROLE}, secret=True, unrecapped=("screen.thief_takes",)))
"""The two centre cards shown to him, and the one he takes (which the recap tells in the deal)."""
