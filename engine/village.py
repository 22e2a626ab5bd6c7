"""The Village expansion's buildings (村庄, 建筑牌): public tokens beside the secret cards.

Each seat holds at most one token, dealt at the start and announced aloud. A token is a building
(a house and its power) or the Vagabond's bedroll (no house). Powers do not conflict with the card's:
a player uses both. A once-only power is spent when used (the token handed in, the house kept); the
Bone-setter gives one more use. A house burnt by the Pyromaniac makes its owner a Vagabond; a house
emptied by its owner's death may be given to a Vagabond by the Bailiff, with its power afresh.

The state lives in the game (``Game.tokens``, ``Game.spent``) and is rebuilt by replaying the journal
like everything else. ``HOLDINGS`` takes part in the game through a role's hooks (it is no card).
Rulings taken where the rulebooks (the Chinese article's 角色标记与建筑牌, Board Game Arena's guide) are silent:

- Tokens are not characters: the Elder's penalty does not take their powers.
- The day powers (Confessor, Bone-setter, Barber, then the Schoolteacher) are asked at one fixed moment
  each day (the Angel's opening day too), after the dawn and before the debate, in that order, and only while the token can act:
  tokens are public, so asking a spent or lost one for fair play would hide nothing.
- The Barkeeper votes first and alone (call ``barkeeper``, his ballot) before each vote while he keeps
  his token: that ballot is his vote, counted in it (he does not vote again), none on a day he may not vote
  and none in the chain of innocence; while he keeps it he cannot be named by the pack, the Big Bad Wolf or the vote (BGA: 人狼の襲撃対象として
  選ばれず、また、投票の対象にもならない), refused on the screen at night and aloud by day; every other power still works
  on him (所有的特殊能力仍然对他有效): the White Werewolf, the poison, the Hunter, the Barber.
- The Noble is asked, after the vote and its tie-break, whether he pardons the condemned.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Generator

from . import answers, crier, deaths, votes
from .contract import CallTraits, FactSpec, Piece, Told, Value
from .role import CallSpec, Flow, Play, Role
from .state import Kept
from .types import Answer, Call, Fact, IllegalAnswer, Kind, Phase

TOKENS = ("farmer", "confessor", "bone_setter", "baker", "barber", "barkeeper", "noble", "schoolteacher",
          "bailiff", "vagabond")
"""Every building token, by id (the Vagabond's bedroll has no house)."""

MANY = frozenset({"farmer", "vagabond"})
"""The tokens a village may hold several of; every other building is unique."""

ONCE = frozenset({"confessor", "bone_setter", "barber", "noble"})
"""The once-only powers (使用后上交角色标记): spent when used, restored by the Bone-setter."""

VAGABOND = "vagabond"

ASKS: dict[str, Kind] = {
    "buildings": Kind.NONE, "confessor": Kind.SEAT, "bone_setter": Kind.SEAT, "barber": Kind.SEAT,
    "schoolteacher": Kind.SEATS, "barkeeper": Kind.SEAT, "noble": Kind.YES_NO, "bailiff": Kind.SEAT,
    "farmers": Kind.SEAT, "vagabond": Kind.YES_NO,
}
"""The calls the buildings make outside the night order, with the shape of their answers."""

SHELTERED_FROM = frozenset({"werewolves", "big_bad_wolf", "vote"})
"""Who cannot name the Barkeeper while he keeps his token (酒保既不会被狼人消灭，也不会被投票处决)."""


def check_buildings(seats: int, tokens: tuple[str, ...] | list[str]) -> list[str]:
    """Returns the problems of a list of building tokens for a table of ``seats`` players.

    >>> check_buildings(8, ["baker", "farmer", "farmer"])
    []
    >>> check_buildings(8, ["baker", "baker", "mill"])
    ["unknown building 'mill'; buildings: farmer, confessor, bone_setter, baker, barber, barkeeper, noble, schoolteacher, bailiff, vagabond", "2 'baker' tokens: a village holds one"]
    """
    errors = [f"unknown building {t!r}; buildings: {', '.join(TOKENS)}" for t in sorted(set(tokens))
              if t not in TOKENS]
    for token, n in sorted(Counter(tokens).items()):
        if token in TOKENS and token not in MANY and n > 1:
            errors.append(f"{n} {token!r} tokens: a village holds one")
    if len(tokens) > seats:
        errors.append(f"{len(tokens)} building tokens for {seats} players: one a seat at most")
    return errors


def token(game: Play, seat: int) -> str | None:
    """Returns the token the player at ``seat`` holds now (a building or ``vagabond``), or None."""
    return game.tokens.get(seat)


def is_vagabond(game: Play, seat: int) -> bool:
    """Returns whether the player at ``seat`` is a Vagabond (immune to the Schoolteacher, the Barber, the
    Raven and the Pyromaniac)."""
    return game.tokens.get(seat) == VAGABOND


def owns_house(game: Play, seat: int) -> bool:
    """Returns whether the player at ``seat`` lives in a building (the Pyromaniac's targets)."""
    held = game.tokens.get(seat)
    return held is not None and held != VAGABOND


def holder(game: Play, building: str) -> int | None:
    """Returns the living seat whose token ``building`` can act now (not spent), or None."""
    for seat, held in sorted(game.tokens.items()):
        if held == building and game.alive(seat) and seat not in game.spent and seat not in game.tonight.doomed:
            return seat
    return None


def burn(game: Play, seat: int) -> None:
    """Removes the house of ``seat`` from the game: its owner becomes a Vagabond."""
    game.hand_token(seat, VAGABOND)


def announce(game: Play) -> Flow:
    """Before anything else, says aloud who holds which token: they are public."""
    facts = tuple(Fact("building.dealt", {"seat": seat, "role": held}) for seat, held in sorted(game.tokens.items()))
    yield game.ask("buildings", Kind.NONE, facts=facts)


def baker(game: Play) -> Flow:
    """The Baker opens his eyes for a moment right after the werewolves, and closes them: nothing to answer."""
    seat = holder(game, "baker")
    return game.wake("baker", () if seat is None else (seat,), shown=False)


CALLS = (CallSpec("baker", Kind.NONE, frozenset({"baker"}), baker),)


def _other(game: Play, value: Answer, actor: int, *, optional: bool = True) -> int | None:
    seat = answers.seat(game, value, optional=optional)
    if seat == actor:
        raise IllegalAnswer("you cannot choose yourself", key="refusal.self")
    return seat


def _not_vagabond(game: Play, seat: int | None) -> int | None:
    if seat is not None and is_vagabond(game, seat):
        raise IllegalAnswer(f"seat {seat} is a Vagabond", key="refusal.vagabond", seat=seat)
    return seat


def _restorable(game: Play, value: Answer, actor: int) -> int | None:
    seat = _other(game, value, actor)
    if seat is not None and not (seat in game.spent and game.tokens.get(seat) in ONCE):
        raise IllegalAnswer(f"seat {seat} has no spent power to restore", key="refusal.not_spent", seat=seat)
    return seat


def _barkeepers(game: Play, value: Answer, skip: bool) -> int | None:
    """Reads the Barkeeper's ballot: a living player he may vote for (not himself, who keeps his token), or nobody
    where the table lets a vote be skipped."""
    return answers.named(game, answers.seat(game, value, optional=skip), "vote")


def _barred(game: Play, value: Answer, actor: int) -> tuple[int, ...]:
    """Reads the Schoolteacher's answer: null, or a list of up to two other players, not Vagabonds."""
    if value is None:
        return ()
    if not isinstance(value, (list, tuple)):
        raise IllegalAnswer(f"expected a list of seats, got {answers.shown(value)}", key="refusal.shape")
    if len(value) > 2:
        raise IllegalAnswer("two players at most", key="refusal.count", count=2)
    chosen = tuple(_not_vagabond(game, _other(game, v, actor, optional=False)) or 0 for v in value)
    if len(set(chosen)) != len(chosen):
        raise IllegalAnswer("the same seat is named twice", key="refusal.twice")
    return tuple(sorted(chosen))


class Holdings(Role):
    """Not a card: the buildings' powers, through the hooks every role has."""

    id = "buildings"
    every_day = True  # the day powers are offered on the Angel's opening day too
    death_order = 40  # after the Sheriff's successor: the Bailiff fills the houses last

    def named(self, game: Play, seat: int, by: str, secret: bool) -> None:
        if by in SHELTERED_FROM and game.tokens.get(seat) == "barkeeper" and seat not in game.spent:
            raise IllegalAnswer(f"seat {seat} keeps the Barkeeper's token: nobody may name them", secret=secret,
                                key="refusal.barkeeper", seat=seat)

    def on_death(self, game: Play, seat: int, cause: str) -> Flow:
        held = game.tokens.get(seat)
        game.hand_token(seat, None)
        if held is None or held == VAGABOND:
            return
        bailiff = holder(game, "bailiff")
        vagabonds = tuple(s for s in game.living() if is_vagabond(game, s))
        if bailiff is None or not vagabonds:
            return  # no Bailiff (or he is the dead owner), or nobody to move in: the house stays empty
        game.fact("bailiff.house", role=held)
        chosen = yield game.ask("bailiff", Kind.SEAT, actors=(bailiff,), seats=vagabonds, optional=True,
                                check=lambda v: answers.seat(game, v, optional=True, among=vagabonds))
        if chosen is None:
            return
        # The Chinese article: '流浪汉可以拒绝执行官的分配' — the Vagabond is asked, aloud (the tokens are public).
        accepts = yield game.ask("vagabond", Kind.YES_NO, actors=(chosen,), seats=(chosen,),
                                 check=lambda v: answers.yes_no(v))
        if accepts:
            game.hand_token(chosen, held)  # a once-only power comes with the house afresh
            game.fact("bailiff.moves", seat=chosen, role=held)
        else:
            game.fact("vagabond.refuses", seat=chosen)

    def after_dawn(self, game: Play) -> Flow:
        farmers = tuple(s for s in game.living() if game.tokens.get(s) == "farmer")
        if game.number == 2 and game.rules.sheriff and farmers:
            # From the second day the farmers choose the Sheriff among themselves (he replaces the one the
            # village elected before the first night).
            chosen = yield game.ask("farmers", Kind.SEAT, actors=farmers, seats=farmers,
                                    check=lambda v: answers.seat(game, v, among=farmers))
            game.appoint(chosen)
            game.fact("sheriff.elected", seat=chosen)
            yield from crier.new_sheriff(game)
        yield from self._confessor(game)
        game.step_done()
        yield from self._bone_setter(game)
        game.step_done()
        yield from self._barber(game)
        game.step_done()
        yield from self._schoolteacher(game)

    def _confessor(self, game: Play) -> Flow:
        seat = holder(game, "confessor")
        if seat is None:
            return
        target = yield game.ask("confessor", Kind.SEAT, actors=(seat,), optional=True,
                                check=lambda v: _other(game, v, seat))
        if target is not None:
            game.spend(seat)
            game.fact("confessor.confesses", seat=target)

    def _bone_setter(self, game: Play) -> Flow:
        seat = holder(game, "bone_setter")
        if seat is None or not any(s in game.spent and game.tokens.get(s) in ONCE and s != seat
                                   for s in game.living()):
            return  # nobody has a spent power to restore: public knowledge, no question
        target = yield game.ask("bone_setter", Kind.SEAT, actors=(seat,), optional=True,
                                check=lambda v: _restorable(game, v, seat))
        if target is not None:
            game.spend(seat)
            game.spend(target, False)
            game.fact("bone_setter.restores", seat=target)

    def _barber(self, game: Play) -> Flow:
        seat = holder(game, "barber")
        if seat is None:
            return
        target = yield game.ask("barber", Kind.SEAT, actors=(seat,), optional=True,
                                check=lambda v: _not_vagabond(game, _other(game, v, seat)))
        if target is None:
            return
        game.spend(seat)
        werewolf = game.is_werewolf(target)
        yield from deaths.kill(game, target, "barber")
        if not werewolf:
            yield from deaths.kill(game, seat, "execution")  # he struck an innocent: executed at once

    def _schoolteacher(self, game: Play) -> Flow:
        seat = holder(game, "schoolteacher")
        if seat is None:
            return
        barred = yield game.ask("schoolteacher", Kind.SEATS, actors=(seat,), optional=True, picks=0,
                                check=lambda v: _barred(game, v, seat))
        game.keep(Barred(tuple(barred), game.number))
        if barred:
            game.fact("schoolteacher.bars", seats=list(barred))

    def before_vote(self, game: Play) -> Flow:
        game.forget(Ballot)  # a ballot counts for its own vote only
        if game.variant("not_him"):
            return  # the chain of innocence has no ballots
        seat = holder(game, "barkeeper")
        if seat is None or not votes.may_vote(game, seat, "vote", game.number):
            return  # barred by the Schoolteacher, left out by the Scapegoat, a revealed Idiot: no ballot, no risk
        # His ballot first and alone is his vote (必须在所有人之前单独投票): he abstains only where the table allows it.
        skip = game.rules.votes_may_be_skipped
        choices = answers.nameable(game, game.living(), "vote")
        ballot = yield game.ask("barkeeper", Kind.SEAT, actors=(seat,), seats=choices, optional=skip,
                                check=lambda v: _barkeepers(game, v, skip))
        game.keep(Ballot(ballot, seat, game.number))

    def vote_facts(self, game: Play) -> tuple[Fact, ...]:
        kept = game.kept(Ballot)
        # Said as the village is called: his ballot is counted, he neither points again nor is asked in a roll call.
        return () if kept.voter is None else (Fact("barkeeper.voted", {"seat": kept.voter}),)

    def adds_votes(self, game: Play, counted: Counter[int]) -> None:
        kept, call = game.kept(Ballot), game.call
        if (kept.voter is not None and kept.seat is not None and call is not None and call.id == "vote"
                and call.phase is Phase.DAY and call.number == kept.day):
            counted[kept.seat] += votes.base_weight(game, kept.voter)  # the Sheriff's double too

    def ballot(self, game: Play, voter: int, weight: int, vote: str, day: int) -> int:
        if vote not in ("vote", "revote"):
            return weight
        if holder(game, "schoolteacher") == voter:
            raise IllegalAnswer(f"seat {voter} is the Schoolteacher, who never votes", key="refusal.not_a_voter",
                                seat=voter)
        if barred(game, voter, day):
            raise IllegalAnswer(f"seat {voter} may not vote today: the Schoolteacher barred them",
                                key="refusal.not_a_voter", seat=voter)
        kept = game.kept(Ballot)
        if vote == "vote" and kept.voter == voter and kept.day == day:
            raise IllegalAnswer(f"seat {voter} has cast his ballot first: it is counted", key="refusal.barkeeper_voted",
                                seat=voter)
        return weight

    def condemned(self, game: Play, seat: int) -> Generator[Call, Any, bool]:
        keeper = holder(game, "barkeeper")
        ballot = game.kept(Ballot).seat
        game.forget(Ballot)
        if keeper is not None and ballot == seat:
            game.spend(keeper)  # the one he voted for is condemned: he loses token and protection
            game.fact("barkeeper.loses", seat=keeper)
        noble = holder(game, "noble")
        if noble is None:
            return False
        pardon = yield game.ask("noble", Kind.YES_NO, actors=(noble,), seats=(seat,),
                                check=lambda v: answers.yes_no(v))
        if pardon:
            game.spend(noble)
            game.fact("noble.pardons", seat=seat)
        return bool(pardon)

    def may_lead(self, game: Play, seat: int) -> bool:
        # With farmers in the village, the successor must be a farmer; the last farmer gone, no Sheriff.
        return not any(t == "farmer" for _, t in game.deal.buildings) or game.tokens.get(seat) == "farmer"


HOLDINGS = Holdings()


@dataclass(frozen=True)
class Barred(Kept):
    """The players the Schoolteacher barred from voting, and the day they may not vote."""

    seats: tuple[int, ...] = ()
    day: int | None = None


def barred(game: Play, seat: int, day: int) -> bool:
    """Returns whether the Schoolteacher barred ``seat`` from the votes of ``day``."""
    kept = game.kept(Barred)
    return kept.day == day and seat in kept.seats


@dataclass(frozen=True)
class Ballot(Kept):
    """The Barkeeper's ballot, cast before the village votes, for that vote only: whom he named (None: he
    abstained), who he is (None: no ballot cast) and the day."""

    seat: int | None = None
    voter: int | None = None
    day: int | None = None


FACTS = (FactSpec("building.dealt", {"seat": Value.SEAT, "role": Value.ROLE},
                  lines=("building.dealt", *(f"building.does.{token}" for token in TOKENS)),
                  # with what the building does: a token's name alone told a newcomer nothing
                  told=lambda v: (Told("building.dealt", {**v, "text": Piece(f"building.does.{v['role']}")}),)),
         FactSpec("barkeeper.loses", {"seat": Value.SEAT}), FactSpec("barkeeper.voted", {"seat": Value.SEAT}),
         FactSpec("bailiff.house", {"role": Value.ROLE}),
         FactSpec("bailiff.moves", {"seat": Value.SEAT, "role": Value.ROLE}),
         FactSpec("vagabond.refuses", {"seat": Value.SEAT}),
         FactSpec("confessor.confesses", {"seat": Value.SEAT}), FactSpec("bone_setter.restores", {"seat": Value.SEAT}),
         FactSpec("schoolteacher.bars", {"seats": Value.SEATS}), FactSpec("noble.pardons", {"seat": Value.SEAT}))
"""The buildings are public, and so is all they do: every fact of theirs is said aloud."""
TRAITS = {"noble": CallTraits(yes_means="pardon"), "vagabond": CallTraits(yes_means="move_in")}
"""The Noble's yes pardons the condemned; the Vagabond's moves them into the house the Bailiff offers."""
