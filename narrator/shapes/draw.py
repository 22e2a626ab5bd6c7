"""A draw (Kind.DRAW): the program draws among the call's seats or options (the variants', the Wolf Hound's side);
nobody types it (asking.KeypadAnswers answers it), and the journal keeps it."""

from __future__ import annotations

from engine import Kind

from . import SEAT, Shape

SHAPES = (Shape(Kind.DRAW, None, "the program's draw, written as the answer: a `seat`", SEAT),)
