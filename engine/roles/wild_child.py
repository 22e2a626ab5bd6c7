"""The Wild Child: chooses a role model on the first night; a werewolf from the night after the
model's elimination."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import answers
from ..role import CallSpec, Flow, Role
from ..types import Answer, IllegalAnswer, Kind, Team

if TYPE_CHECKING:
    from ..game import Game


class WildChild(Role):
    id = "wild_child"

    def side(self, game: "Game", seat: int) -> Team:
        return Team.WEREWOLVES if game.marked(seat, "turned") else Team.VILLAGE

    def at_nightfall(self, game: "Game") -> None:
        model = game.links.get("role_model", ())
        if model and not game.alive(model[0]):
            for seat in game.holders(self.id):
                game.mark(seat, "turned")


def _model(game: "Game", me: int, value: Answer) -> int | None:
    seat = answers.seat(game, value)
    if seat == me:
        raise IllegalAnswer("the Wild Child cannot be his own role model", key="refusal.self", secret=True,
                            seat=seat)
    return seat


def wild_child(game: "Game") -> Flow:
    seat = game.actor("wild_child")
    if seat is None:
        yield from game.idle("wild_child", Kind.SEAT)
        return
    me = seat
    model = yield game.ask("wild_child", Kind.SEAT, actors=(me,), check=lambda v: _model(game, me, v))
    game.link("role_model", (model,))


ROLE = WildChild()
CALLS = (CallSpec("wild_child", Kind.SEAT, frozenset({"wild_child"}), wild_child),)
