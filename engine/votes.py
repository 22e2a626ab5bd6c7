"""The village's vote: a reported result or a roll call, ties, the Sheriff's tie-break, the run-off."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from . import answers, deaths
from .contract import FactSpec, Value
from .role import Flow, Play
from .types import Answer, Fact, IllegalAnswer, Kind, Phase, Tally


def base_weight(game: Play, voter: int) -> int:
    """Returns what a ballot of ``voter`` counts for before any other rule: the Sheriff's counts double."""
    return 2 if voter == game.sheriff and game.rules.sheriff_double_vote else 1


def weight(game: Play, voter: int, vote: str | None = None, day: int | None = None) -> int:
    """Returns how many votes a ballot of ``voter`` counts for in the running call (or in the call ``vote`` of
    ``day``, about to be made); refuses a voter who may not vote in it."""
    if vote is None:
        call = game.call
        vote = call.id if call is not None and call.phase is Phase.DAY else ""
        day = game.number if call is None else call.number
    w = base_weight(game, voter)
    for role in game.hooked["ballot"]:
        w = role.ballot(game, voter, w, vote, game.number if day is None else day)
    return w


def may_vote(game: Play, voter: int, vote: str | None = None, day: int | None = None) -> bool:
    """Returns whether ``voter``'s ballot counts in the running call (or the call ``vote`` of ``day``): not a
    revealed Idiot, nor one the Scapegoat left out or the Schoolteacher barred (all public)."""
    try:
        return weight(game, voter, vote, day) > 0
    except IllegalAnswer:  # refusal.not_a_voter: this voter may not vote today
        return False


def voters(game: Play) -> tuple[int, ...]:
    """Returns, in seat order, the living whose ballot counts in the running vote (see may_vote); the keypad's roll
    call asks them."""
    return tuple(seat for seat in game.living() if may_vote(game, seat))


def totals(game: Play, ballots: dict[int, int | None]) -> Counter[int]:
    """Returns the votes each seat has from a roll call: the Sheriff double, the Raven's mark added.

    Abstentions (``None``) count for no one.
    """
    votes: Counter[int] = Counter()
    for role in game.hooked["adds_votes"]:
        role.adds_votes(game, votes)
    for voter, target in ballots.items():
        # A ballot that weighs nothing (a voter the Scapegoat left out) counts for no one, not even as a lone vote.
        if target is not None and (w := weight(game, voter)) > 0:
            votes[target] += w
    for seat in [s for s in votes if s not in answers.nameable(game, (s,), "vote")]:
        del votes[seat]  # the Raven's mark on the Barkeeper: he cannot be the vote's choice
    return votes


def count(game: Play, ballots: dict[int, int | None]) -> Tally:
    """Counts a roll call: plurality, the Sheriff double; a tie at the top is a tie; no vote at all elects
    nobody."""
    votes = totals(game, ballots)
    if not votes:
        return Tally()
    top = max(votes.values())
    leaders = tuple(sorted(s for s, n in votes.items() if n == top))
    return Tally(leaders[0]) if len(leaders) == 1 else Tally(None, leaders)


def read(game: Play, value: Answer, among: Sequence[int], nobody: bool = True) -> Tally:
    """Reads a vote's answer: a seat, null (nobody), ``{tie: [...]}`` or ``{ballots: {voter: target}}`` (with
    ``secret``, the voters whose ballots were secret: see `_secret`)."""
    if isinstance(value, dict):
        if set(value) == {"tie"}:
            tied = value["tie"]
            if not isinstance(tied, (list, tuple)) or len(tied) < 2:
                raise IllegalAnswer("a tie names two seats or more: {tie: [a, b]}", key="refusal.shape")
            seats = tuple(answers.named(game, answers.seat(game, s, among=among), "vote") or 0 for s in tied)
            if len(set(seats)) != len(seats):
                raise IllegalAnswer("the same seat is named twice", key="refusal.twice")
            return Tally(None, tuple(sorted(seats)))
        if set(value) in ({"ballots"}, {"ballots", "secret"}):
            cast = _ballots(game, value["ballots"], among)
            _secret(game, value.get("secret", []), cast)
            return count(game, cast)
        raise IllegalAnswer("expected a seat, null, {tie: [seats]} or {ballots: {voter: target}}",
                            key="refusal.shape")
    if value is None and not nobody:
        raise IllegalAnswer("a seat is needed here", key="refusal.need_seat")
    return Tally(answers.named(game, answers.seat(game, value, optional=True, among=among), "vote"))


def _secret(game: Play, value: object, cast: dict[int, int | None]) -> None:
    """Checks a roll call's ``secret``: the voters whose ballots were cast in secret (on their phones), which the
    count ignores and the game's account keeps secret; each is a voter of the roll call."""
    if not isinstance(value, (list, tuple)) or any(answers.seat(game, voter) not in cast for voter in value):
        raise IllegalAnswer("secret lists voters of the roll call", key="refusal.shape")


def _ballots(game: Play, value: object, among: Sequence[int]) -> dict[int, int | None]:
    if not isinstance(value, dict) or not value:
        raise IllegalAnswer("ballots are a mapping of voter seat to target seat", key="refusal.shape")
    ballots: dict[int, int | None] = {}
    for voter, target in value.items():
        who = answers.seat(game, voter)
        assert who is not None
        if who in ballots:
            raise IllegalAnswer(f"seat {who} votes twice", key="refusal.twice", seat=who)
        ballots[who] = answers.named(game, answers.seat(game, target, optional=True, among=among), "vote")
    return ballots


def _cast(game: Play, value: Answer, among: Sequence[int]) -> Tally:
    """Reads a vote, refusing nobody (null, or a roll call of abstentions) when the village must vote."""
    tally = read(game, value, among)
    if tally.seat is None and not tally.tied and not game.rules.votes_may_be_skipped:
        raise IllegalAnswer("the village must eliminate someone", key="refusal.must_vote")
    return tally


def village_vote(game: Play) -> Flow:
    """Runs the day's vote: the result, then a tie-break or a run-off, then the elimination."""
    for role in game.hooked["before_vote"]:
        yield from role.before_vote(game)
    for rule in game.hooked["instead_of_vote"]:  # the chain of innocence
        if (yield from rule.instead_of_vote(game)):
            return
    living = game.living()
    skip = game.rules.votes_may_be_skipped
    facts: tuple[Fact, ...] = ()
    for rule in game.hooked["vote_facts"]:
        facts += rule.vote_facts(game)
    tally: Tally = yield game.ask("vote", Kind.VOTE, seats=answers.nameable(game, living, "vote"), optional=skip,
                                  facts=facts, check=lambda v: _cast(game, v, living))
    yield from settle(game, tally)


def settle(game: Play, tally: Tally) -> Flow:
    """Eliminates the vote's choice; a tie goes to the Sheriff, or to a second vote among the tied."""
    for role in game.hooked["on_vote"]:
        tally = yield from role.on_vote(game, tally)
    if tally.tied:
        game.fact("vote.tie", seats=list(tally.tied))
        if game.sheriff is not None and game.alive(game.sheriff) and game.rules.sheriff_breaks_ties:
            tied = tally.tied
            chosen = yield game.ask("sheriff_tiebreak", Kind.SEAT, actors=(game.sheriff,), seats=tied,
                                    check=lambda v: answers.seat(game, v, among=tied))
            tally = Tally(chosen)
        else:
            tied = tally.tied
            tally = yield game.ask("revote", Kind.VOTE, seats=tied, optional=game.rules.votes_may_be_skipped,
                                   check=lambda v: _cast(game, v, tied))
            if tally.tied:
                game.fact("vote.tie_again", seats=list(tally.tied))
                tally = Tally()
    for role in game.hooked["settled"]:
        tally = yield from role.settled(game, tally)
    if tally.seat is None:
        game.fact("vote.nobody")
        return
    if not game.alive(tally.seat):  # the Scapegoat, already out
        yield from deaths.kill(game, tally.seat, "vote")
        return
    # The Noble's pardon and the Barkeeper's shield first: a player spared needs no Servant.
    for role in game.hooked["condemned"]:
        if (yield from role.condemned(game, tally.seat)):
            return
    for role in game.hooked["on_condemned"]:  # the Devoted Servant takes the condemned's place
        yield from role.on_condemned(game, tally.seat)
    yield from deaths.kill(game, tally.seat, "vote")
    for rule in game.hooked["voted_out"]:  # the Cult's seduced fall together
        yield from rule.voted_out(game, tally.seat)


FACTS = (FactSpec("vote.tie", {"seats": Value.SEATS}), FactSpec("vote.tie_again", {"seats": Value.SEATS}),
         FactSpec("vote.nobody"))
"""A vote's ties, and a vote that eliminates nobody."""
