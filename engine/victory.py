"""Who has won, checked between steps once every death's consequences are resolved."""

from __future__ import annotations

from dataclasses import dataclass

from .role import Play
from .state import Kept
from .types import Outcome, Team

STALEMATE_PLAYERS = 2
"""With this many players left, quiet rounds are a stalemate (docs/rules.md, "A game that cannot end")."""

STALEMATE_ROUNDS = 2
"""The rounds in a row with nobody eliminated, at STALEMATE_PLAYERS left, that end the game with no winner."""


@dataclass(frozen=True)
class Quiet(Kept):
    """The rounds (a night and its day) in a row that ended with STALEMATE_PLAYERS alive and nobody eliminated,
    and how many eliminations there had been when the last round ended."""

    rounds: int = 0
    seen: int = 0


def stalemate(game: Play) -> Outcome | None:
    """Counts the round that ends now; returns the end with no winner once two players are left and two rounds in a
    row have passed with nobody eliminated. With two players left a vote without a Sheriff always ties, and every
    protection a lone player can have (the Guard's, the Witch's heal, the Elder's second life) lasts one night: two
    quiet rounds mean nobody can ever be eliminated (the Best Of gives 'victory to neither side' when nobody can
    win). Quiet rounds with more players are play, never a stalemate."""
    quiet, seen = game.kept(Quiet), len(game.eliminated)
    rounds = quiet.rounds + 1 if seen == quiet.seen and len(game.living()) == STALEMATE_PLAYERS else 0
    game.keep(Quiet(rounds, seen))
    return Outcome("nobody", (), "stalemate") if rounds >= STALEMATE_ROUNDS else None


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
        return Outcome("nobody", (), "no_survivors")
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
