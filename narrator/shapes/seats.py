"""Several seats (Kind.SEATS): as many as the call picks (Cupid's lovers, the Piper's charmed), confirmed together;
or, where it picks 0, one or more each closed with Enter, then 0 (the Scapegoat's voters; the Schoolteacher's
barred, where 0 at once is nobody)."""

from __future__ import annotations

from engine import Answer, Call, Kind

from . import SEAT, Pad, Shape, Undo, null_or, so_far


def read(pad: Pad, call: Call) -> Answer:
    if call.picks == 0:
        return some_seats(pad, call.optional, "prompt.barred" if call.optional else "prompt.voters")
    largest = pad.largest()
    return pad.numbers(call.picks, largest if largest is not None else 99, pad.seat_words, undo_out=True)


def some_seats(pad: Pad, optional: bool = False, prompt: str = "prompt.voters") -> list[int] | None:
    """Reads one seat or more, each with Enter, then 0 and Enter; when ``optional``, 0 at once is nobody."""
    while True:
        chosen: list[int] = []
        while True:
            try:
                number = pad.number(pad.text(prompt) + so_far(chosen), allow_zero=True, largest=pad.largest())
            except Undo:
                if chosen:
                    chosen.pop()
                continue
            assert isinstance(number, int)
            if number == 0:
                if chosen or optional:
                    break
                continue
            chosen.append(number)
        if not chosen:
            if pad.confirm(pad.text("answer.none"), None):
                return None
            continue
        if pad.confirm(pad.seat_words(chosen), chosen):
            return chosen


SHAPES = (Shape(Kind.SEATS, read,
                "`[a, b, ...]`: the seats chosen, as many as the call asks for (`null` where it may pass)",
                null_or({"type": "array", "items": SEAT, "minItems": 1, "uniqueItems": True})),)
