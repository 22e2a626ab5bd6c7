"""The Sheriff (the French rules' Captain): elected before night 1, votes double, names a successor."""

from __future__ import annotations

from . import answers, votes
from .contract import FactSpec, Value
from .role import Flow, Play, Role
from .types import Answer, IllegalAnswer, Kind, Tally


def _read_election(game: Play, value: Answer) -> Tally:
    """Reads the election's result: a seat, ``{tie: [...]}``, or a roll call ``{ballots: {voter: target}}``
    counted as the day's vote is (votes.count: one vote each, nobody is Sheriff yet; the day's bars and marks
    hook the vote's calls only). An election elects someone: a roll call with no vote is refused as null is."""
    if isinstance(value, dict) and set(value) not in ({"tie"}, {"ballots"}, {"ballots", "secret"}):
        raise IllegalAnswer("expected a seat, {tie: [seats]} or {ballots: {voter: target}}", key="refusal.shape")
    tally = votes.read(game, value, game.living(), nobody=False)
    if tally.seat is None and not tally.tied:
        raise IllegalAnswer("nobody was voted for: an election names a Sheriff", key="refusal.need_seat")
    return tally


def election(game: Play) -> Flow:
    """Elects the Sheriff by plurality; a tie is re-run among the tied; a second tie: no Sheriff."""
    tally: Tally = yield game.ask("sheriff_election", Kind.ELECTION,
                                        check=lambda v: _read_election(game, v))
    chosen = tally.seat
    if tally.tied:
        tied = tally.tied
        game.fact("vote.tie", seats=list(tied))
        chosen = yield game.ask("sheriff_runoff", Kind.SEAT, seats=tied, optional=True,
                                check=lambda v: answers.seat(game, v, optional=True, among=tied))
    if chosen is None:
        game.fact("sheriff.none")
    else:
        game.appoint(chosen)
        game.fact("sheriff.elected", seat=chosen)


class Office(Role):
    """Not a card: the Sheriff's medal. Its hook names the successor when the Sheriff dies."""

    id = "sheriff"
    death_order = 30

    def on_death(self, game: Play, seat: int, cause: str) -> Flow:
        if seat != game.sheriff:
            return
        game.appoint(None)
        living = tuple(s for s in game.living() if all(r.may_lead(game, s) for r in game.hooked["may_lead"]))
        if not living:
            if game.living():
                game.fact("sheriff.none")  # nobody may succeed him (the last farmer is gone)
            return
        successor = yield game.ask("sheriff_successor", Kind.SEAT, actors=(seat,), seats=living,
                                   check=lambda v: answers.seat(game, v, among=living))
        game.appoint(successor)
        game.fact("sheriff.successor", seat=successor)


OFFICE = Office()


FACTS = (FactSpec("sheriff.elected", {"seat": Value.SEAT}), FactSpec("sheriff.none"),
         FactSpec("sheriff.successor", {"seat": Value.SEAT}))
"""The Sheriff elected (or none), and his successor."""
