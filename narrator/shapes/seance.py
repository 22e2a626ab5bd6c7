"""The Gypsy's séance (Kind.SEANCE): three numbers, the card (0: none), the question, the asker's seat."""

from __future__ import annotations

from engine import SEANCE_CARDS, Answer, Call, Kind

from . import SEAT, Pad, Shape, Undo, null_or, so_far


def read(pad: Pad, call: Call) -> Answer:
    """Reads the three numbers; undo takes back the number before."""
    while True:
        chosen: list[int] = []
        prompts = ("prompt.seance_card", "prompt.seance_question", "prompt.seance_asker")
        while len(chosen) < 3:
            try:
                number = pad.number(pad.text(prompts[len(chosen)]) + so_far(chosen), allow_zero=not chosen)
            except Undo:
                if chosen:
                    chosen.pop()
                continue
            assert isinstance(number, int)
            if not chosen and number == 0:
                if pad.confirm(pad.text("answer.no_card"), None):
                    return None
                continue
            chosen.append(number)
        card, question, asker = chosen
        said = pad.text("answer.seance", card=card, question=question, seat=asker)
        value = {"card": card, "question": question, "asker": asker}
        if pad.confirm(said, value):
            return value


SHAPES = (Shape(Kind.SEANCE, read, "`{card: 1-5, question: number, asker: seat}`, or `null`",
                null_or({"type": "object", "additionalProperties": False, "required": ["card", "question", "asker"],
                         "properties": {"card": {"type": "integer", "minimum": 1, "maximum": SEANCE_CARDS},
                                        "question": {"type": "integer", "minimum": 1}, "asker": SEAT}})),)
