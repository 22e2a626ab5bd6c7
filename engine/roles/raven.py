"""The Raven (乌鸦, the Scandalmonger): each night names a suspect, never a Vagabond; the mark is put on
the suspect's house for all to see in the morning, and he starts the next vote with two votes against him."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generator

from .. import answers, village
from ..contract import FactSpec, Value
from ..role import CallSpec, Flow, Play, Role
from ..state import Kept
from ..types import Answer, Call, Fact, IllegalAnswer, Kind, Phase, Tally

if TYPE_CHECKING:
    from collections import Counter


EXTRA = 2
"""The votes the Raven's mark counts for (在接下来的投票环节，该玩家额外记两票)."""


@dataclass(frozen=True)
class Suspect(Kept):
    """The suspect the Raven named tonight."""

    card = "raven"
    nightly = True
    seat: int | None = None


@dataclass(frozen=True)
class Marked(Kept):
    """The player whose house bears the Raven's mark, from dawn until the day's first vote is counted."""

    card = "raven"
    seat: int | None = None


def marked(game: Play) -> int | None:
    """Returns the seat bearing the Raven's mark now (public by day), or None."""
    return game.kept(Marked).seat


BADGES = {"raven": lambda game: marked(game) if game.phase is Phase.DAY else None}
"""The mark is told at dawn and gone after the vote: shown by day only (at night, tonight's choice is a secret)."""


class Raven(Role):
    id = "raven"
    villager_power = True

    def before_dawn(self, game: Play) -> tuple[Fact, ...]:
        # The mark is public at dawn: it stands before the suspect's house. It counts in the day's first vote
        # only (the rulebooks say "the next vote"; Board Game Arena's guide reads it so too; docs/rules.md).
        suspect = game.kept(Suspect).seat
        if suspect is None or not game.alive(suspect):
            game.forget(Marked)
            return ()
        game.keep(Marked(suspect))
        return (Fact("raven.marked", {"seat": suspect}),)

    def adds_votes(self, game: Play, votes: Counter[int]) -> None:
        call = game.call
        seat = marked(game)
        if call is not None and call.id == "vote" and call.phase is Phase.DAY and seat and game.alive(seat):
            votes[seat] += EXTRA

    def on_vote(self, game: Play, tally: Tally) -> Generator[Call, Any, Tally]:
        # The day's first vote is counted: the mark is spent, for its run-off and the Stuttering Judge's second
        # vote alike (the same call, "vote", made again).
        game.forget(Marked)
        return tally
        yield  # pragma: no cover  (makes this a generator)


def _suspect(game: Play, value: Answer) -> int | None:
    seat = answers.seat(game, value, optional=True)
    if seat is not None and village.is_vagabond(game, seat):
        # Tokens are public, but a refusal said aloud at night would tell whom the Raven pointed at.
        raise IllegalAnswer(f"seat {seat} is a Vagabond", key="refusal.vagabond", secret=True, seat=seat)
    return seat


def raven(game: Play) -> Flow:
    """He names a suspect, or passes."""
    seat = game.actor("raven")
    if seat is None:
        yield from game.idle("raven", Kind.SEAT, optional=True)
        return
    suspect = yield game.ask("raven", Kind.SEAT, actors=(seat,), optional=True, check=lambda v: _suspect(game, v))
    game.keep(Suspect(suspect))


ROLE = Raven()
CALLS = (CallSpec("raven", Kind.SEAT, frozenset({"raven"}), raven),)
FACTS = (FactSpec("raven.marked", {"seat": Value.SEAT}),)
