"""The Devoted Servant (忠诚的仆人, Characters expansion): when the vote condemns a player, before the
elimination, she may reveal her card and take the condemned's place: the condemned is eliminated holding
her card, and she takes his card, kept secret, and plays it from the next night with fresh powers.

She inherits neither his lovers, his charm, his infection nor his office of Sheriff; she loses her own
charm and her office (she names a successor) but keeps her infection; a Servant who is a lover cannot
use her power (the Chinese article, 关于忠诚的仆人的详细说明). She is asked publicly after every vote that condemns a
player, while her card is in the deck; dead or with her power used, for fair play only.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import answers, crier
from ..contract import FactSpec, Value
from ..role import Anew, Flow, Play, Role
from ..state import Kept
from ..types import Answer, IllegalAnswer, Kind
from .cupid import lovers

DEVOTED = "devoted"
"""The mark of the player who took a card as the Servant (public: she flipped hers). The Angel she may
become is a simple villager (seed: 天使：他现在只能作为普通的村民继续游戏了)."""



@dataclass(frozen=True)
class TakenOn(Kept):
    """The day the Servant took a card: she plays it from the next night (the Judge's question that day is not
    hers). What the card gets back in her hands each character declares itself (Kept.renewed)."""

    card = "devoted_servant"
    day: int | None = None


def took_today(game: Play, seat: int) -> bool:
    """Returns whether the player at ``seat`` is a Devoted Servant who took their card today."""
    return game.marked(seat, DEVOTED) and game.kept(TakenOn).day == game.number


def took_yesterday(game: Play, seat: int) -> bool:
    """Returns whether the player at ``seat`` is a Devoted Servant who took their card the day before this night."""
    return game.marked(seat, DEVOTED) and game.kept(TakenOn).day == game.night - 1


class DevotedServant(Role):
    id = "devoted_servant"
    villager_power = True  # the Elder's penalty takes every villager's special power
    asks = {"devoted_servant": Kind.SEAT, "servant_successor": Kind.SEAT}

    def on_condemned(self, game: Play, seat: int) -> Flow:
        servant = game.actor(self.id)
        if servant is None:
            yield from game.idle("devoted_servant", Kind.SEAT, optional=True)
            return
        condemned = seat
        revealed = yield game.ask("devoted_servant", Kind.SEAT, optional=True,
                                  check=lambda v: _reveal(game, condemned, v))
        if revealed is None:
            return
        yield from take_place(game, revealed, condemned)


def _reveal(game: Play, condemned: int, value: Answer) -> int | None:
    """Reads the seat of the Servant who reveals herself, or null; her card is shown, so most refusals are public
    (a seat without her card is not: it may be a slip of the finger)."""
    seat = answers.seat(game, value, optional=True)
    if seat is None:
        return None
    if game.card(seat) != "devoted_servant":
        # Secret, said in words that name no card: typed by a slip of the finger, "seat three does not hold the
        # Devoted Servant card" would tell the table something of a card nobody showed.
        raise IllegalAnswer(f"seat {seat} does not hold the Devoted Servant card", key="refusal.not_servant",
                            secret=True)
    if seat == condemned:
        raise IllegalAnswer("the Devoted Servant cannot take her own place", key="refusal.servant_condemned")
    if seat in lovers(game):
        # Whether she is a lover is secret: refused on the screen only.
        raise IllegalAnswer("a lover cannot give up her card", key="refusal.servant_lover", secret=True)
    return seat


def take_place(game: Play, servant: int, condemned: int) -> Flow:
    """The exchange of cards, then the Servant's lost office; the vote's elimination follows."""
    card = game.card(condemned)
    game.fact("devoted_servant.takes", seat=servant)
    game.give(condemned, "devoted_servant")
    game.give(servant, card)
    game.unmark(servant, "charmed")  # she loses her charm
    game.mark(servant, DEVOTED)
    game.keep(TakenOn(game.number))
    # Fresh powers: what the card itself says it renews (the Witch's potions, the Fox's scent...); and Cupid's, the
    # Wild Child's, the Wolf Hound's first-night choice is hers to make again the next night (the Chinese article).
    again = game.rules.servant_chooses_again
    game.renew(card, again)
    if again:
        game.keep(Anew(card, game.night + 1))
    if game.sheriff == servant:
        game.appoint(None)
        living = tuple(s for s in game.living() if s not in (servant, condemned)
                       and all(r.may_lead(game, s) for r in game.hooked["may_lead"]))
        if living:
            successor = yield game.ask("servant_successor", Kind.SEAT, actors=(servant,), seats=living,
                                       check=lambda v: answers.seat(game, v, among=living))
            game.appoint(successor)
            game.fact("sheriff.successor", seat=successor)
            yield from crier.new_sheriff(game)
    # The Chinese article (仆人's list): a Servant who is Town Crier stops being Crier, and the Sheriff names another.
    yield from crier.gives_up(game, servant)


ROLE = DevotedServant()
FACTS = (FactSpec("devoted_servant.takes", {"seat": Value.SEAT}),)
