"""A number (Kind.NUMBER): a card in the middle (the Actor's), an event card (the Town Crier's); 0 for none."""

from __future__ import annotations

from engine import Answer, Call, Kind

from . import Hearing, Pad, Shape, Spoken, null_or, passing


def read(pad: Pad, call: Call) -> Answer:
    """Reads a number from 1 to the call's ``picks``, or 0 for none."""
    largest = call.picks
    while True:
        number = pad.number(pad.text("prompt.number", largest=largest), allow_zero=True)
        assert isinstance(number, int)
        if number > largest:
            pad.refuse("refusal.not_an_option", number=number)
            continue
        said = pad.text("answer.card", number=number) if number else pad.text("answer.no_card")
        if pad.confirm(said, number or None):
            return number or None


def heard(call: Call, largest: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """A card's number, said as a number ("twelve"), as far as the language's words go."""
    return tuple(range(1, min(call.picks, largest) + 1)), passing(call, ("undo", "repeat"))


def understood(hearing: Hearing, number: Answer) -> tuple[Answer, str | None]:
    """A number heard is that card, read back as a card ("Card twelve?"), not a seat; "none" is none."""
    if number == "none":
        return None, hearing.word("none")
    assert isinstance(number, int)
    return number, hearing.card_words(number)


SHAPES = (Shape(Kind.NUMBER, read, "a card's number, `1` to the number of cards, or `null`",
                null_or({"type": "integer", "minimum": 1}), spoken=Spoken(heard, understood)),)
