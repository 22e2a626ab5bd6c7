"""The Scapegoat: a vote that ends in a tie eliminates him instead of anyone tied (before any Sheriff's
tie-break or run-off); after his other consequences he names the players allowed to vote in the next vote."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generator

from .. import answers, deaths, victory
from ..contract import FactSpec, Value
from ..role import Play, Role
from ..state import Kept
from ..types import Answer, Call, IllegalAnswer, Kind, Tally

VOTES = frozenset({"vote", "revote"})
"""The calls the Scapegoat's restriction covers: the next vote and its run-off."""


@dataclass(frozen=True)
class Voters(Kept):
    """The players the eliminated Scapegoat allowed to vote, and the day of the vote they are for."""

    card = "scapegoat"
    seats: tuple[int, ...] = ()
    day: int | None = None


class Scapegoat(Role):
    id = "scapegoat"
    asks = {"scapegoat": Kind.SEATS}

    def on_vote(self, game: Play, tally: Tally) -> Generator[Call, Any, Tally]:
        goats = game.holders(self.id)
        if not goats or not tally.tied or game.variant("harvest"):
            return tally
        yield from deaths.kill(game, goats[0], "scapegoat")
        return (yield from self._names_voters(game, goats[0]))

    def settled(self, game: Play, tally: Tally) -> Generator[Call, Any, Tally]:
        # The Harvest: 'the Scapegoat no longer dies in place of a tie, but in place of his neighbour' (Chinese:
        # 改为代替他的邻居受死): when the vote eliminates one of his two living neighbours, however it was settled (a
        # plain majority, the Sheriff's tie-break, a run-off), he dies instead.
        goats = game.holders(self.id)
        if not goats or not game.variant("harvest") or tally.seat not in game.neighbours(goats[0]):
            return tally
        yield from deaths.kill(game, goats[0], "scapegoat_neighbour")
        return (yield from self._names_voters(game, goats[0]))

    def _names_voters(self, game: Play, goat: int) -> Generator[Call, Any, Tally]:
        """After his other consequences, the game going on, he names the next vote's voters."""
        living = game.living()
        if living and victory.check(game) is None:
            voters = yield game.ask("scapegoat", Kind.SEATS, actors=(goat,), seats=living, picks=0,
                                    check=lambda v: _voters(game, v))
            game.keep(Voters(tuple(voters), game.number + 1))
            game.fact("scapegoat.voters", seats=list(voters))
        return Tally(goat)  # already out: the vote's own elimination does nothing more

    def ballot(self, game: Play, voter: int, weight: int, vote: str, day: int) -> int:
        if vote in VOTES and game.kept(Voters).day == day and voter not in game.kept(Voters).seats:
            raise IllegalAnswer(f"seat {voter} may not vote today: the Scapegoat named the voters",
                                key="refusal.not_a_voter", seat=voter)
        return weight


def _voters(game: Play, value: Answer) -> tuple[int, ...]:
    """Reads the voters the Scapegoat names: a list of at least one distinct living seat."""
    if not isinstance(value, (list, tuple)):
        raise IllegalAnswer(f"expected a list of seats, got {answers.shown(value)}", key="refusal.shape")
    if not value:
        raise IllegalAnswer("name at least one player", key="refusal.no_voters")
    chosen = tuple(answers.seat(game, v) or 0 for v in value)
    if len(set(chosen)) != len(chosen):
        raise IllegalAnswer("the same seat is named twice", key="refusal.twice")
    return tuple(sorted(chosen))


ROLE = Scapegoat()
FACTS = (FactSpec("scapegoat.voters", {"seats": Value.SEATS}),)
