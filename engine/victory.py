"""Who has won, checked between steps once every death's consequences are resolved."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import variants
from .types import Outcome, Team

if TYPE_CHECKING:
    from .game import Game


def side_winners(game: "Game", team: Team) -> tuple[int, ...]:
    """Returns every seat, living or not, that wins with ``team`` (lovers of mixed sides do not)."""
    return tuple(p.seat for p in game.players
                 if game.side(p.seat) is team
                 and not any(r.abandons_side(game, p.seat) for r in game.hooked["abandons_side"]))


def check(game: "Game") -> Outcome | None:
    """Returns the outcome if the game is won, else None.

    Simultaneous wins are settled in the order: nobody, the roles with goals of
    their own (White Werewolf, lovers, Piper), the village, the werewolves.
    """
    living = game.living()
    if not living:
        return Outcome("nobody", ())
    if game.variant("black_death"):
        # The Black Death: until everyone is dead, unless the village refused to vote.
        if game.choices.get("black_death") == "declared":
            return Outcome("village", tuple(p.seat for p in game.players))
        return None
    for role in game.goals:
        seats = role.victory(game)
        if seats is not None:
            return Outcome(role.win_name, seats)
    if game.variant("cult") and variants.cult_won(game):
        return Outcome("werewolves", side_winners(game, Team.WEREWOLVES))
    sides = game.sides()
    first = sides[living[0] - 1]
    for seat in living:
        if sides[seat - 1] is not first:
            return None
    if first is Team.VILLAGE:
        return Outcome("village", side_winners(game, Team.VILLAGE))
    if first is Team.WEREWOLVES:
        return Outcome("werewolves", side_winners(game, Team.WEREWOLVES))
    return None
