"""The Wild Child: chooses a role model on the first night; a werewolf for every rule the moment the model is
eliminated, waking with the pack from the following night."""

from __future__ import annotations

from dataclasses import dataclass

from .. import answers
from ..role import CallSpec, Flow, Play, Role
from ..state import Kept
from ..types import Answer, IllegalAnswer, Kind, Team


@dataclass(frozen=True)
class RoleModel(Kept):
    """The role model the Wild Child chose on the first night (None: not yet)."""

    card = "wild_child"
    again = True  # a Devoted Servant who takes his card chooses a model of her own the next night
    seat: int | None = None


class WildChild(Role):
    id = "wild_child"

    def side(self, game: Play, seat: int) -> Team:
        return Team.WEREWOLVES if game.marked(seat, "turned") else Team.VILLAGE

    def on_mark(self, game: Play, seat: int, cause: str) -> None:
        # The Best Of: "If the designated player is eliminated, the Wild Child becomes a Werewolf" — at once, for
        # victory, the Fox, the growl; he wakes with the pack from the following night, as the pack is the living
        # werewolves when night falls.
        if seat == game.kept(RoleModel).seat:
            for child in game.holders(self.id):
                game.mark(child, "turned")


def _model(game: Play, me: int, value: Answer) -> int | None:
    seat = answers.seat(game, value)
    if seat == me:
        raise IllegalAnswer("the Wild Child cannot be his own role model", key="refusal.self", secret=True,
                            seat=seat)
    return seat


def wild_child(game: Play) -> Flow:
    seat = game.chooser("wild_child")
    if seat is None:
        yield from game.idle("wild_child", Kind.SEAT)
        return
    me = seat
    model = yield game.ask("wild_child", Kind.SEAT, actors=(me,), check=lambda v: _model(game, me, v))
    game.keep(RoleModel(model))


ROLE = WildChild()
CALLS = (CallSpec("wild_child", Kind.SEAT, frozenset({"wild_child"}), wild_child),)
