"""Who has won, checked between steps once every death's consequences are resolved."""

from __future__ import annotations

from .role import Play
from .types import Outcome, Team


def side_winners(game: Play, team: Team) -> tuple[int, ...]:
    """Returns every seat, living or not, that wins with ``team`` (lovers of mixed sides do not)."""
    return tuple(p.seat for p in game.players
                 if game.side(p.seat) is team
                 and not any(r.abandons_side(game, p.seat) for r in game.hooked["abandons_side"]))


def check(game: Play) -> Outcome | None:
    """Returns the outcome if the game is won, else None.

    Simultaneous wins are settled in the order: nobody, the roles with goals of
    their own (White Werewolf, lovers, Piper), the village, the werewolves.
    """
    living = game.living()
    if not living:
        return Outcome("nobody", ())
    for rule in game.hooked["holds_victory"]:  # the Black Death: only its own end, or everyone dead
        if rule.holds_victory(game):
            seats = rule.victory(game)
            return None if seats is None else Outcome(rule.win_name, seats)
    for role in game.goals:  # the characters' own goals, then the variants' (the Cult's)
        seats = role.victory(game)
        if seats is not None:
            return Outcome(role.win_name, seats)
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
