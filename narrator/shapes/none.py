"""Nothing to answer (Kind.NONE): an announcement goes on at once; a debate waits for Enter or its timer; the
others for Enter ("done")."""

from __future__ import annotations

from engine import Answer, Call, Kind

from ..narration import CALLS
from . import Pad, Shape, Spoken


def read(pad: Pad, call: Call) -> Answer:
    traits = CALLS[call.id].traits
    if traits.announces:
        return None
    if traits.timed and pad.debate_timer:
        pad.debate()
        return None
    pad.screen.prompt(pad.text("prompt.done"))
    pad.screen.keys(pad.text("screen.keys_wait"))
    while pad.key() != "enter":
        pad.nothing_here()
    return None


# "Done" said aloud is the answer at once: nothing to read back.
SHAPES = (Shape(Kind.NONE, read, "nothing: the runner confirms it", {"type": "null"},
                spoken=Spoken(lambda call, largest: ((), ("done", "repeat")), lambda hearing, heard: (None, None))),)
