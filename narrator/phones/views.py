"""What each phone shows (a seat's view) and how it crosses the network: one frame a seat, all of one size.

A view is a small mapping the page draws as it is: nothing on a phone is computed from anything but its own view,
and nothing in a view but its own seat's public and private history. Every phone is sent its own seat's view on a
clock (`TICK`), all at once, padded to the table's frame size (narrator.phones.sizes: chosen before the game, the
same all game), whatever happens in the game: a change waits for the next tick, and a sleeping phone gets its
unchanged view again (its page does not change), so the traffic's sizes and times are the same for every phone
whoever acts, and the same in two games that differ only in a secret. A frame's ``seq`` is its own seat's view's
version, and a question's ``call`` (a result's ``ok``) its number among that seat's own questions and results: a
phone's frames are the same bytes in both twins unless its seat holds the secret.

>>> a, b = frames({1: sleeping(), 2: asking(4, "Choose a seat", ["Seat 2", "Seat 3"])}, {1: 1, 2: 7}, 1024).values()
>>> len(a.encode()) == len(b.encode()) == 1024
True
"""

from __future__ import annotations

import json
from typing import Mapping, Sequence

LARGEST = 10 ** 9 - 1
"""The largest call number and version a frame is sized for (a game makes a few hundred calls)."""

UP_FRAME = 512
"""Bytes of every message a phone sends: one a second, an answer or nothing (the page pads it; the server refuses
any other size), so the phone that answers sends nothing a watcher can tell from the others' ticks."""

TICK = 1.0
"""Seconds between two frames to every phone: the down side's clock, as the page's ticks are the up side's."""

View = dict[str, object]


def sleeping(card: str = "") -> View:
    """Returns the view of a seat whose owner sleeps (or is not called): the dark page, nothing new on it, and the
    seat's own ``card`` (its name in the table's language), shown only while its owner holds the button."""
    return {"kind": "sleep", "card": card}


def dealing(card: str = "") -> View:
    """Returns the dark page of a seat while the deal goes on (until the first call): nobody's eyes are closed yet,
    so it says that its ``card`` came (held to be read, as asleep) or comes at the deal; every seat's alike but
    for its card, as asleep."""
    return {"kind": "sleep", "card": card, "deal": True}


def asking(call: int, prompt: str, choices: Sequence[str], shown: Sequence[str] = (),
           steps: Sequence[tuple[str, Sequence[str]]] = (), paths: Sequence[Sequence[int]] = ()) -> View:
    """Returns the view of an awake seat asked the call numbered ``call``: the ``prompt``, what the call ``shown``
    them (the Witch's victim and potions), and the legal answers. With one step, the ``choices`` by name, in order;
    with several (the Witch's heal then poison, Cupid's two lovers), each step's prompt and names, and the ``paths``
    the engine takes (each a name's index at each step): the phone offers at each step only what leads to one. The
    phone answers with a choice's (a path's) index, read back and confirmed on the phone."""
    view: View = {"kind": "ask", "call": call, "title": prompt, "shown": list(shown), "choices": list(choices)}
    if steps:
        view["steps"] = [{"prompt": prompt_, "names": list(names)} for prompt_, names in steps]
        view["paths"] = [list(path) for path in paths]
    return view


def told(title: str, text: str = "", shown: Sequence[str] = (), ok: int = 0) -> View:
    """Returns the view of something shown to an awake seat: its answer confirmed, what the call showed it (the
    Seer's look, the pack's victim), the keypad answering. ``ok``: the call whose result waits for the phone's OK
    (or the keypad's Enter) before the narrator goes on (0: nothing to acknowledge)."""
    return {"kind": "told", "title": title, "text": text, "shown": list(shown), "ok": ok}


def taken() -> View:
    """Returns the view of a phone whose seat another device took over with the same link."""
    return {"kind": "taken"}


def stopped() -> View:
    """Returns the view of a game that stopped without the host's say (a shutdown, the terminal gone, an error): its
    links open nothing until the game goes on (resume), with the same links."""
    return {"kind": "stopped"}


def ended() -> View:
    """Returns the view of a game the host stopped: its links never open anything again (a game that goes on gives
    new ones, scanned at the screen)."""
    return {"kind": "ended"}


def over() -> View:
    """Returns the view of a game that is over: its links never open anything again."""
    return {"kind": "over"}


def encode(view: View, seq: int) -> str:
    """Returns a view as the page reads it, unpadded: JSON, its version first."""
    return json.dumps({"seq": seq, "view": view}, ensure_ascii=False, separators=(",", ":"))


def pad(text: str, size: int) -> str:
    """Returns ``text`` followed by spaces up to ``size`` bytes in UTF-8 (JSON ignores them)."""
    return text + " " * (size - len(text.encode()))


class TooLong(Exception):
    """A view longer than its table's frames: a fault of the program (the frames' bound, narrator.phones.sizes,
    missed a text), never a bigger frame, which would tell a sleeping phone that a long view was being shown."""


def fitted(view: View, version: int, size: int) -> str:
    """Returns a view as sent, padded to ``size`` bytes; TooLong when it does not fit."""
    text = encode(view, version)
    if len(text.encode()) > size or version > LARGEST:
        raise TooLong(f"a phone's view of {len(text.encode())} bytes (version {version}) does not fit the table's "
                      f"frames of {size}: {text[:200]}")
    return pad(text, size)


def frames(views: Mapping[int, View], versions: Mapping[int, int], size: int) -> dict[int, str]:
    """Returns each seat's frame (its view and the view's version), all of ``size`` bytes, so that no size says
    whose view is long."""
    return {seat: fitted(view, versions.get(seat, 0), size) for seat, view in views.items()}
