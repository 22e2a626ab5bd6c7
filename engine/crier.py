"""The Town Crier (公告员, Characters, with the New Moon's event cards): not a card but an office, like the
Sheriff's. The Sheriff names him (never himself) after his election, again when the Crier is eliminated,
and whenever a new Sheriff takes office (who may keep him). Each morning, after the victims, the bear and
the séance (the article's day order, 4.), the Crier may announce one of the event cards the table gave him.

The narrator cannot apply an event card it cannot read: it announces the card's number, the table reads the
card and applies it, and it reminds the village that the Sheriff may overrule the Crier and announce
another card before the vote (the seed's veto, kept as a spoken reminder)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import answers, victory
from .answers import as_int, shown
from .contract import FactSpec, Value
from .role import Flow, Role, nothing
from .types import Answer, IllegalAnswer, Kind

if TYPE_CHECKING:
    from .game import Game

EVENT_CARDS = 36
"""The New Moon holds 36 event cards (the seed); the table numbers those it gives the Crier."""

OFFICE_LINK = "town_crier"
"""game.links[OFFICE_LINK] = (the Crier's seat, the Sheriff who named him)."""


def crier(game: "Game") -> int | None:
    """Returns the seat of the Town Crier in office, if any."""
    held = game.links.get(OFFICE_LINK)
    return held[0] if held else None


def appoint(game: "Game") -> Flow:
    """The Sheriff names the Town Crier among the other living players (he may name the one in office)."""
    chief = game.sheriff
    others = tuple(s for s in game.living() if s != chief)
    if chief is None or not game.alive(chief) or not others or victory.check(game) is not None:
        return
    named = yield game.ask("town_crier_appoint", Kind.SEAT, actors=(chief,), seats=others,
                           check=lambda v: answers.seat(game, v, among=others))
    game.links[OFFICE_LINK] = (named, chief)
    game.fact("town_crier.named", seat=named)


def _card(game: "Game", value: Answer) -> int | None:
    if value is None:
        return None
    number = as_int(value)
    if number is None or not 1 <= number <= EVENT_CARDS:
        raise IllegalAnswer(f"expected an event card's number, 1 to {EVENT_CARDS}, or null, got {shown(value)}",
                            key="refusal.shape")
    if f"event.{number}" in game.used:
        raise IllegalAnswer(f"event card {number} has been announced already", key="refusal.event_used",
                            number=number)
    return number


class Office(Role):
    """Not a card: the Town Crier's office. Its hooks name a new Crier and make the morning's announcement."""

    id = "town_crier"
    death_order = 35  # after the Sheriff's successor (30): the new Sheriff names the Crier

    def on_death(self, game: "Game", seat: int, cause: str) -> Flow:
        held = game.links.get(OFFICE_LINK)
        if held is not None and (held[0] == seat or (game.sheriff is not None and held[1] != game.sheriff)):
            del game.links[OFFICE_LINK]  # the Crier is gone, or a new Sheriff names his own (maybe the same)
            held = None
        if held is not None or game.sheriff is None:
            # Ruling taken: with no Sheriff left (none succeeded, or the Idiot's office ended) the Crier
            # stays in office while he lives, and nobody names another once he is gone.
            return nothing()
        return appoint(game)

    def after_dawn(self, game: "Game") -> Flow:
        seat = crier(game)
        if seat is None or not game.alive(seat):
            return nothing()
        return self._announce(game, seat)

    def _announce(self, game: "Game", seat: int) -> Flow:
        number = yield game.ask("town_crier", Kind.NUMBER, actors=(seat,), optional=True, picks=EVENT_CARDS,
                                check=lambda v: _card(game, v))
        if number is None:
            return
        game.used.add(f"event.{number}")
        game.fact("town_crier.announces", number=number)
        if game.sheriff is not None and game.alive(game.sheriff):
            game.fact("town_crier.veto")


OFFICE = Office()


FACTS = (FactSpec("town_crier.named", {"seat": Value.SEAT}), FactSpec("town_crier.announces", {"number": Value.NUMBER}),
         FactSpec("town_crier.veto"))
"""The Crier named, the event card he announces, and the Sheriff's veto reminded."""
