"""The seating circle: what the whole table may know of every seat — its name, alive or out (with its card when the
table reveals cards), the Sheriff's badge and the marks said aloud. Never a secret: nothing here may differ between
two games that differ only in a secret (no lovers, no card of the living but a revealed Idiot's, no night's choice).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from engine import Game, badges
from engine.crier import crier

from .voices import Voice


@dataclass(frozen=True)
class SeatView:
    """One seat as the circle shows it; ``marks`` are already in the table's language."""

    number: int
    name: str | None
    alive: bool
    card: str | None = None
    marks: tuple[str, ...] = ()

    def label(self) -> str:
        """Returns the seat as one short text: "3 Ann", "3 Ann ✝ Witch", "3 Ann [Sheriff]"."""
        text = f"{self.number} {self.name}" if self.name else str(self.number)
        if not self.alive:
            text += " ✝" + (f" {self.card}" if self.card else "")
        elif self.card:
            text += f" ({self.card})"
        if self.marks:
            text += " [" + ", ".join(self.marks) + "]"
        return text


def seating(voice: Voice, seats: int, names: Sequence[str | None] = (), game: Game | None = None) -> list[SeatView]:
    """Returns every seat as the table may see it; before the game (the deal), only the seats and their names."""
    views = []
    for number in range(1, seats + 1):
        name = names[number - 1] if number <= len(names) else None
        if game is None:
            views.append(SeatView(number, name, True))
            continue
        views.append(SeatView(number, name, game.alive(number), _card(game, number, voice),
                              tuple(voice.text(f"screen.mark.{mark}", {}) for mark in _marks(game, number))
                              + _token(game, number, voice)))
    return views


def _card(game: Game, seat: int, voice: Voice) -> str | None:
    """The card the table has seen: an eliminated player's when cards are revealed, a revealed Idiot's."""
    if not game.alive(seat):
        if not game.rules.reveal_roles:
            return None
        out = next((e for e in reversed(game.eliminated) if e.seat == seat), None)
        return voice.role(out.role) if out else None  # the card shown at the death, not one given to the seat since
    if game.marked(seat, "revealed"):  # the Idiot the village voted out: he showed his card
        return voice.role("idiot")
    return None


def _marks(game: Game, seat: int) -> list[str]:
    """The marks said aloud on ``seat``: the Sheriff, the Town Crier he named, then the characters' public marks
    (the Raven's, by day only: each character says when its mark is public)."""
    marks = []
    if game.sheriff == seat:
        marks.append("sheriff")
    if crier(game) == seat and game.alive(seat):
        marks.append("town_crier")
    return marks + badges(game, seat)


def _token(game: Game, seat: int, voice: Voice) -> tuple[str, ...]:
    """The building token the seat holds (the Village: dealt and announced aloud)."""
    token = game.tokens.get(seat)
    return (voice.role(token),) if token else ()
