"""How many bytes a table's frames hold: chosen before the game starts, from its seats and its language (its voice
file's longest texts, every name as long as MAX_NAME allows in the widest characters), so that the longest view any
of its calls can make fits, and the same for the whole game whatever happens in it. A frame that grew with the
view it carries would tell a sleeping phone that a long question was being asked (the Witch's, Cupid's): the size
is the table's, never the moment's. A view that would not fit is a fault of this bound (views.TooLong), caught by
the tests that build every view of many games at every example table and at the largest (tests/test_frame_size.py).

The bound is made of pieces, each the longest its texts can make: a seat as a phone names it (a name of MAX_NAME
characters of four bytes each; control characters, which JSON would write longer, are refused in names), a call's
title (after the refusal's words), an answer's name, a line shown (any line of the voice file, its seats' lists
holding every seat), then put together as the largest view of each kind would hold them.
"""

from __future__ import annotations

import json

from engine.calls import declared_calls, declared_facts

from ..names import MAX_NAME
from ..voices import Voice, placeholders
from . import views

WIDEST = "\U0001d54e"
"""A letter of four bytes in UTF-8 (𝕎): the most a name's character takes in a frame."""

STEP = 512
"""A frame is a whole number of these bytes."""

NUMBERED = 36
"""The most numbered cards a call offers (the Town Crier's event cards, engine.crier.EVENT_CARDS), each a choice."""

PICKS = 3
"""The most seats a call picks one at a time, each a step (the Piper's, ``piper_charms`` at most 3)."""

LISTS, LINES = 2, 4
"""What a call shows its awake at most, counted generously: lists of seats (the pack, the charmed, the sisters)
and lines of one seat or none (the Witch's victim and potions, the Seer's look, the Thief's centre cards)."""

LISTED = frozenset({"seats", "cards", "votes", "wolves", "players"})
"""The placeholders that hold a list (of seats, of cards): as long as every seat's."""

NUMBERS = frozenset({"number", "count"})

ANSWERS = ("answer.heal_seat", "answer.no_heal", "answer.poison", "answer.no_poison", "answer.village",
           "answer.wolf", "answer.yes", "answer.no", "phone.none", "phone.done")
"""The lines a phone names its choices with (narrator.phones.device), besides the seats and the yes and no of
what a call's yes does."""

NUMBERED_ANSWERS = ("answer.card", "answer.keep", "answer.no_card")
"""The lines a phone names a numbered card's choices with."""

STEPS = ("phone.heal", "phone.poison", "phone.pick")
"""The prompts of an answer's steps."""


def shown_lines() -> tuple[str, ...]:
    """Returns the keys of every line a phone may show its awake (the secret facts' lines, Narrator.fact's)."""
    return tuple(line for fact in declared_facts().values() if fact.secret for line in fact.every_line)


def answer_lines() -> tuple[str, ...]:
    """Returns the keys of every line a phone may name a choice with (a yes and a no by what they do)."""
    means = [call.traits.yes_means for call in declared_calls().values() if call.traits.yes_means]
    return (*ANSWERS, *(f"answer.{m}" for m in means), *(f"answer.no_{m}" for m in means))


def size(text: str) -> int:
    """Returns the bytes ``text`` takes inside a frame's JSON string."""
    return len(json.dumps(text, ensure_ascii=False).encode()) - 2


def longest(texts: list[str]) -> str:
    return max(texts, key=size)


class Longest:
    """The longest texts ``voice`` makes at a table of ``seats``."""

    def __init__(self, seats: int, voice: Voice) -> None:
        self.voice = voice
        name = WIDEST * MAX_NAME
        numbers = [str(views.LARGEST), *(voice.number(n) for n in range(0, seats + 1))]
        self.numeral = longest(numbers)
        self.seat = longest([voice.seat_named.format(name=name, number=number) + voice.named_close
                             for number in numbers[1:]])
        self.every = voice.join([self.seat] * seats)
        self.piece = longest([self.seat, *voice.roles.values(), *voice.named_roles.values(), *voice.causes.values(),
                              *voice.words.values(), self.numeral])

    def line(self, key: str, listed: bool = True) -> str:
        """Returns the line ``key`` filled with the longest values: its lists every seat's (one seat's, not
        ``listed``), a seat as named at most, a number as written at most, any other value as the longest piece."""
        template = self.voice.lines[key]
        values = {}
        for name in placeholders(template):
            if name in LISTED:
                values[name] = self.every if listed else self.seat
            else:
                values[name] = self.numeral if name in NUMBERS else self.seat if name == "seat" else self.piece
        return template.format_map(values)

    def lines(self, keys: tuple[str, ...], listed: bool = True) -> int:
        """Returns the bytes of the longest of the lines ``keys`` (and their singulars, ``<key>_one``)."""
        every = [*keys, *(f"{key}_one" for key in keys if f"{key}_one" in self.voice.lines)]
        return max(size(self.line(key, listed)) for key in every)


def frame_size(seats: int, voice: Voice) -> int:
    """Returns the bytes of every frame of a table of ``seats`` in ``voice``'s language: the largest view any of
    its calls can make, encoded with the largest version, rounded up to a whole number of STEP."""
    texts = Longest(seats, voice)
    lines = voice.lines
    titles = [lines[key] for key in lines if key.endswith((".wake", ".wake_phones")) and not placeholders(lines[key])]
    titles += [*voice.roles.values(), lines["phone.confirmed"], lines["phone.ballot"], lines["phone.ballot_election"]]
    title = "x" * (size(lines["phone.refused_answer"]) + 1 + max(size(t) for t in titles))
    choice = "x" * max(size(texts.seat), texts.lines(answer_lines(), listed=False))
    numbered = "x" * texts.lines(NUMBERED_ANSWERS)
    prompt = "x" * texts.lines(STEPS)
    shown = ["x" * texts.lines(shown_lines())] * LISTS + ["x" * texts.lines(shown_lines(), listed=False)] * LINES
    choices = max([choice] * (seats + 1), [numbered] * (NUMBERED + 1), key=lambda c: len(json.dumps(c)))
    asked = views.asking(views.LARGEST, title, choices, shown)
    stepped = views.asking(views.LARGEST, title, [], shown, [(prompt, [choice] * (seats + 1))] * PICKS,
                           [[seats, seats]] * 2 * (seats + 1))
    stepped["distinct"] = PICKS
    said = "\n".join([choice] * PICKS)
    told = views.told(title, max(said, texts.line("phone.keypad"), key=size), shown, views.LARGEST)
    largest = max(len(views.encode(view, views.LARGEST).encode()) for view in (asked, stepped, told))
    return -(-largest // STEP) * STEP
