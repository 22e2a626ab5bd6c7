"""The Scapegoat: a vote that ends in a tie eliminates him instead of anyone tied (before any Sheriff's
tie-break or run-off); after his other consequences he names the players allowed to vote in the next vote."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generator

from .. import answers, deaths, victory
from ..contract import FactSpec, Value
from ..role import Play, Role
from ..state import Kept
from ..types import Answer, Call, IllegalAnswer, Kind, Phase, Tally

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
        if not goats:
            return tally
        goat = goats[0]
        if game.variant("harvest"):
            # The Harvest: 'the Scapegoat no longer dies in place of a tie, but in place of his neighbour':
            # read as, when the vote eliminates one of his two living neighbours, he dies instead (a tie
            # then goes to the Sheriff or the run-off as usual). Ruling taken.
            if tally.seat is None or tally.seat not in game.neighbours(goat):
                return tally
            yield from deaths.kill(game, goat, "scapegoat_neighbour")
        elif not tally.tied:
            return tally
        else:
            yield from deaths.kill(game, goat, "scapegoat")
        living = game.living()
        if living and victory.check(game) is None:
            voters = yield game.ask("scapegoat", Kind.SEATS, actors=(goat,), seats=living, picks=0,
                                    check=lambda v: _voters(game, v))
            game.keep(Voters(tuple(voters), game.number + 1))
            game.fact("scapegoat.voters", seats=list(voters))
        return Tally(goat)  # already out: the vote's own elimination does nothing more

    def ballot(self, game: Play, voter: int, weight: int) -> int:
        call = game.call
        if (call is not None and call.id in VOTES and call.phase is Phase.DAY
                and game.kept(Voters).day == call.number
                and voter not in game.kept(Voters).seats):
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
