"""The answers chosen among a few numbered options: yes or no (Kind.YES_NO), a side (Kind.SIDE: the Wild Child's
and the Wolf Hound's), a centre card (Kind.CARD: the Thief's)."""

from __future__ import annotations

from typing import Sequence

from engine import Answer, Call, Kind

from ..narration import CALLS, victim_shown
from ..voices import Voice
from . import Hearing, Pad, Shape, Spoken


def yes_no(pad: Pad, call: Call) -> Answer:
    yes, no = read_back(pad, call)
    return pad.choice("prompt.yes_no", {1: (True, yes), 0: (False, no)})


def read_back(pad: Pad, call: Call) -> tuple[str, str]:
    """Returns how yes and no are read back for ``call`` (`yes_no_words`)."""
    return yes_no_words(pad.voice, pad.names, call)


def yes_no_words(voice: Voice, names: Sequence[str | None], call: Call) -> tuple[str, str]:
    """Returns how yes and no are read back for ``call``: what they do, for the seat it is about (the victim
    shown to the Infected Father, the condemned the Noble may pardon); else "yes" and "no". The keypad's and the
    phones' (narrator.phones.device) alike."""
    means = CALLS[call.id].traits.yes_means
    shown = victim_shown(call)
    seat = shown.victim if shown is not None else (call.seats[0] if len(call.seats) == 1 else None)
    if not means or (seat is None and "{seat}" in voice.lines[f"answer.{means}"]):
        return voice.text("answer.yes", {}, names), voice.text("answer.no", {}, names)
    return voice.text(f"answer.{means}", {"seat": seat}, names), voice.text(f"answer.no_{means}", {"seat": seat}, names)


def yes_or_no(hearing: Hearing, heard: Answer) -> tuple[Answer, str | None]:
    """Yes heard is True and no is False, each read back as the word."""
    value = heard == "yes"
    return value, hearing.word("yes" if value else "no")


def side(pad: Pad, call: Call) -> Answer:
    return pad.choice("prompt.side", {1: ("village", pad.text("answer.village")), 2: ("wolf", pad.text("answer.wolf"))})


def card(pad: Pad, call: Call) -> Answer:
    return pad.choice("prompt.card", {1: (1, pad.text("answer.card", number=1)),
                                      2: (2, pad.text("answer.card", number=2)),
                                      0: (None, pad.text("answer.keep"))})


SHAPES = (
    Shape(Kind.YES_NO, yes_no, "`true` or `false`", {"type": "boolean"},
          spoken=Spoken(lambda call, largest: ((), ("yes", "no", "undo", "repeat")), yes_or_no)),
    Shape(Kind.SIDE, side, "`wolf` or `village`", {"enum": ["wolf", "village"]}),
    Shape(Kind.CARD, card, "`1` or `2` (the centre card taken), or `null`", {"enum": [1, 2, None]}),
)
