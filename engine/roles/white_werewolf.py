"""The White Werewolf: hunts with the pack, and every other night may eliminate a werewolf; wins alone."""

from __future__ import annotations

from .. import answers
from ..role import CallSpec, Flow, Play, Role
from ..types import Answer, IllegalAnswer, Kind, Team
from .devoted_servant import took_yesterday


class WhiteWerewolf(Role):
    id = "white_werewolf"
    team = Team.WHITE_WEREWOLF
    wolf_card = True
    win_order = 1
    win_name = "white_werewolf"

    def victory(self, game: Play) -> tuple[int, ...] | None:
        living = game.living()
        if (len(living) == 1 and game.card(living[0]) == self.id and not game.marked(living[0], "infected")
                and not game.marked(living[0], "simple_villager")):
            return living
        return None


def _prey(game: Play, seat_of_white: int, value: Answer) -> int | None:
    seat = answers.seat(game, value, optional=True)
    if seat is not None and took_yesterday(game, seat_of_white):
        # The Chinese article (仆人's list): a Servant who took his card kills only from the second night after.
        raise IllegalAnswer("your kill comes from your second night as the White Werewolf", secret=True,
                            key="refusal.white_werewolf_waits")
    if seat is not None and (seat == seat_of_white or not game.is_werewolf(seat)):
        raise IllegalAnswer(f"seat {seat} is not another werewolf", key="refusal.not_werewolf",
                            secret=True, seat=seat)
    return seat


def white_werewolf(game: Play) -> Flow:
    """Asked even when no other werewolf lives, or on a Devoted Servant's first night with his card: passing is
    then the only answer, and the call is made alike."""
    seat = game.actor("white_werewolf")
    if seat is None:
        yield from game.idle("white_werewolf", Kind.SEAT, optional=True)
        return
    me = seat
    prey = yield game.ask("white_werewolf", Kind.SEAT, actors=(me,), optional=True,
                          check=lambda v: _prey(game, me, v))
    if prey is not None:
        game.attack(prey, "white_werewolf")


ROLE = WhiteWerewolf()
CALLS = (CallSpec("white_werewolf", Kind.SEAT, frozenset({"white_werewolf"}), white_werewolf),)
