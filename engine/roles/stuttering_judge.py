"""The Stuttering Judge (口吃法官, Characters expansion): once per game he may have a second vote held at
once after the day's vote, without debate.

The lead's ruling: the seed's secret sign cannot be made at a narrator-less table, and asking the question
aloud by day shows everyone who the Judge is. So on the first night he wakes and is told on the screen how
his sign works; then every day, after the vote and all its consequences (the game not over), everyone
closes their eyes and the Judge is asked on the keypad whether he wants a second vote today. The call is
made every day while his card is in the deck; dead or with his power spent, for fair play only.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import answers, votes
from ..contract import CallTraits, FactSpec
from ..role import CallSpec, Flow, Play, Role
from ..state import Kept
from ..types import Fact, Kind
from .devoted_servant import took_today
from .scapegoat import Voters


@dataclass(frozen=True)
class Sign(Kept):
    """Whether the Judge has used his sign (once a game); a new Judge (the Servant's) agrees a new sign:
    他将和主持人重新约定一个手势."""

    card = "stuttering_judge"
    renewed = True
    used: bool = False


class StutteringJudge(Role):
    id = "stuttering_judge"
    villager_power = True  # the Elder's penalty takes every villager's special power
    asks = {"stuttering_judge": Kind.YES_NO}

    def after_vote(self, game: Play) -> Flow:
        seat = game.actor(self.id)
        # A Devoted Servant who took his card today plays it from the next night (the Chinese article): not asked today.
        if seat is None or game.kept(Sign).used or took_today(game, seat):
            yield from game.idle("stuttering_judge", Kind.YES_NO)
            return
        wanted = yield game.ask("stuttering_judge", Kind.YES_NO, actors=(seat,), check=answers.yes_no)
        if not wanted:
            return
        game.keep(Sign(used=True))
        game.fact("stuttering_judge.second_vote")
        # Ruling taken: the Scapegoat names the voters of "the next vote" (and its run-off), which is the
        # one just held; the Judge's second vote is another vote, open to every player who may vote.
        if game.kept(Voters).day == game.number:
            game.forget(Voters)
        # A second vote at once, without debate; its ties, the Scapegoat and the Servant as in any vote.
        yield from votes.village_vote(game)


def stuttering_judge(game: Play) -> Flow:
    """Night 1: the Judge wakes and is shown how his sign works; nothing to answer."""
    seat = game.actor("stuttering_judge")
    if seat is None:
        yield from game.idle("stuttering_judge", Kind.NONE)
        return
    yield game.ask("stuttering_judge", Kind.NONE, actors=(seat,),
                   facts=(Fact("stuttering_judge.sign", secret=True),))


ROLE = StutteringJudge()
CALLS = (CallSpec("stuttering_judge", Kind.NONE, frozenset({"stuttering_judge"}), stuttering_judge),)
FACTS = (FactSpec("stuttering_judge.sign", secret=True), FactSpec("stuttering_judge.second_vote"))
TRAITS = {"stuttering_judge": CallTraits(eyes_closed=True, yes_means="second_vote")}
"""By day he is asked with every eye closed, so that nobody sees who answers."""
