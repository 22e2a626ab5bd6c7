"""The Town Crier (公告员, Characters, with the New Moon's event cards): not a card but an office, like the
Sheriff's. The Sheriff names him (never himself) after his election, again when the Crier is eliminated or takes another
card (the Devoted Servant), and whenever a new Sheriff takes office — elected, named successor, made by the
farmers — who may keep him (a Crier who became Sheriff must name another). Each morning, after the victims, the bear and
the séance (the article's day order, 4.), the Crier may announce one of the event cards the table gave him.

The narrator cannot apply an event card it cannot read: it announces the card's number, the table reads the
card and applies it, and it reminds the village that the Sheriff may overrule the Crier and announce
another card before the vote (the seed's veto, kept as a spoken reminder)."""

from __future__ import annotations

from dataclasses import dataclass

from . import answers, victory
from .answers import as_int, shown
from .contract import FactSpec, Value
from .role import Flow, Play, Role, nothing
from .state import Kept
from .types import Answer, IllegalAnswer, Kind

EVENT_CARDS = 36
"""The New Moon holds 36 event cards (the seed); the table numbers those it gives the Crier."""



@dataclass(frozen=True)
class InOffice(Kept):
    """The Town Crier in office and the Sheriff who named him (None: no Crier)."""

    seat: int | None = None
    named_by: int | None = None


@dataclass(frozen=True)
class Announced(Kept):
    """The event cards the Crier has announced, each once a game."""

    cards: frozenset[int] = frozenset()


def crier(game: Play) -> int | None:
    """Returns the seat of the Town Crier in office, if any."""
    return game.kept(InOffice).seat


def appoint(game: Play, other_than: int | None = None) -> Flow:
    """The Sheriff names the Town Crier among the other living players (he may name the one in office, but not
    ``other_than``: a Crier who gave up the office)."""
    chief = game.sheriff
    others = tuple(s for s in game.living() if s not in (chief, other_than))
    if chief is None or not game.alive(chief) or not others or victory.check(game) is not None:
        return
    named = yield game.ask("town_crier_appoint", Kind.SEAT, actors=(chief,), seats=others,
                           check=lambda v: answers.seat(game, v, among=others))
    game.keep(InOffice(named, chief))
    game.fact("town_crier.named", seat=named)


def new_sheriff(game: Play) -> Flow:
    """A Sheriff took office (elected, named successor, made by the farmers): he may name a new Crier or keep the
    one in office; a Crier who became Sheriff must name another (Chinese: 如果公告员被选为警长，则他必须另选一名公告员。
    新警长上任后可以选择新的公告员或保持不变)."""
    if not (game.rules.sheriff and game.rules.town_crier) or game.sheriff is None:
        return
    if game.kept(InOffice).named_by != game.sheriff:
        yield from appoint(game)


def gives_up(game: Play, seat: int) -> Flow:
    """The Crier at ``seat`` takes another card (the Devoted Servant): he is Crier no more, and the Sheriff names
    another."""
    if crier(game) == seat:
        game.forget(InOffice)
        yield from appoint(game, other_than=seat)


def _card(game: Play, value: Answer) -> int | None:
    if value is None:
        return None
    number = as_int(value)
    if number is None or not 1 <= number <= EVENT_CARDS:
        raise IllegalAnswer(f"expected an event card's number, 1 to {EVENT_CARDS}, or null, got {shown(value)}",
                            key="refusal.shape")
    if number in game.kept(Announced).cards:
        raise IllegalAnswer(f"event card {number} has been announced already", key="refusal.event_used",
                            number=number)
    return number


class Office(Role):
    """Not a card: the Town Crier's office. Its hooks name a new Crier and make the morning's announcement."""

    id = "town_crier"
    every_day = True  # he may announce a card on the Angel's opening day too
    death_order = 35  # after the Sheriff's successor (30): the new Sheriff names the Crier

    def on_death(self, game: Play, seat: int, cause: str) -> Flow:
        held = game.kept(InOffice)
        if held.seat is not None and (held.seat == seat
                                      or (game.sheriff is not None and held.named_by != game.sheriff)):
            game.forget(InOffice)  # the Crier is gone, or a new Sheriff names his own (maybe the same)
            held = InOffice()
        if held.seat is not None or game.sheriff is None:
            # Ruling taken: with no Sheriff left (none succeeded, or the Idiot's office ended) the Crier
            # stays in office while he lives, and nobody names another once he is gone.
            return nothing()
        return appoint(game)

    def after_dawn(self, game: Play) -> Flow:
        seat = crier(game)
        if seat is None or not game.alive(seat):
            return nothing()
        return self._announce(game, seat)

    def _announce(self, game: Play, seat: int) -> Flow:
        number = yield game.ask("town_crier", Kind.NUMBER, actors=(seat,), optional=True, picks=EVENT_CARDS,
                                check=lambda v: _card(game, v))
        if number is None:
            return
        game.keep(Announced(game.kept(Announced).cards | {number}))
        game.fact("town_crier.announces", number=number)
        if game.sheriff is not None and game.alive(game.sheriff):
            game.fact("town_crier.veto")


OFFICE = Office()


FACTS = (FactSpec("town_crier.named", {"seat": Value.SEAT}), FactSpec("town_crier.announces", {"number": Value.NUMBER}),
         FactSpec("town_crier.veto"))
"""The Crier named, the event card he announces, and the Sheriff's veto reminded."""
