"""One seat (Kind.SEAT): the Seer's, the pack's, the Guard's; 0 for nobody where the call may pass."""

from __future__ import annotations

from engine import Answer, Call, Kind

from . import SEAT, SEAT_SPOKEN, Pad, Shape, null_or


def read(pad: Pad, call: Call) -> Answer:
    return pad.seat(call.optional)


SHAPES = (Shape(Kind.SEAT, read, "`seat`, or `null` where the call may pass", null_or(SEAT), spoken=SEAT_SPOKEN),)
