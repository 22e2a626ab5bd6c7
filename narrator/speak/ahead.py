"""The lines worth rendering ahead: every fixed line of a language, and the table's seat and character lines.

Lines with placeholders are rendered whole, one clip per seat (and per character of the deck),
rather than composed from fragments: espeak-ng renders a sentence in ~15 ms, so the whole lines of
a table (a few hundred) are ready within seconds of the start, while the deal is going on, and a
whole line keeps the sentence's melody, which clips glued together would break. Only lines that
list several seats ("A tie between seat two and seat five") are too many to render ahead; they are
rendered when said, which costs one render (~15 ms here, bench_latency.py measures it).
"""

from __future__ import annotations

import itertools
from typing import Iterable, Iterator, Sequence

from ..voices import Voice, placeholders, said_aloud

# Lines of the answer.* family said on their own, never read back as an answer ("Undone. Answer again.?").
NOT_READ_BACK = ("answer.confirmed", "answer.undone")
# How many of each placeholder a count or a card number can be ("Designate 2 players", "card 1").
SMALL_NUMBERS = (1, 2, 3)


def said_keys(voice: Voice) -> list[str]:
    """Returns the keys of the lines that may be said aloud."""
    return [key for key in voice.lines if said_aloud(key)]


def fixed_lines(voice: Voice) -> list[str]:
    """Returns every line said with no placeholder, as the speech engine gets it."""
    return list(dict.fromkeys(voice.spoken(voice.text(key, {})) for key in said_keys(voice)
                              if not placeholders(voice.lines[key])))


def table_lines(voice: Voice, seats: int, names: Sequence[str | None] = (),
                roles: Iterable[str] = ()) -> list[str]:
    """Returns the lines said about one seat, one character or one answer at a table of ``seats``.

    Lines naming a character ("Seat four has been eliminated. Their card: the Witch.") are
    rendered for each character in ``roles`` (the deck): none when it is empty.
    """
    deck = list(dict.fromkeys(roles))
    answers = [voice.seat(seat, names) for seat in range(1, seats + 1)]
    answers += [voice.text(key, {}) for key in voice.lines
                if key.startswith("answer.") and key not in NOT_READ_BACK and not placeholders(voice.lines[key])]
    domains: dict[str, Sequence[object]] = {
        "seat": range(1, seats + 1), "role": deck, "first": deck, "second": deck,
        "cause": list(voice.causes), "answer": answers, "number": SMALL_NUMBERS, "count": SMALL_NUMBERS,
    }
    found: dict[str, None] = {}
    for key in said_keys(voice):
        wanted = sorted(placeholders(voice.lines[key]))
        if not wanted or any(name not in domains for name in wanted):
            continue
        for values in itertools.product(*(domains[name] for name in wanted)):
            found[voice.spoken(voice.text(key, dict(zip(wanted, values)), names))] = None
    return list(found)


def lines_ahead(voice: Voice, seats: int, names: Sequence[str | None] = (), roles: Iterable[str] = ()) -> Iterator[str]:
    """Returns every line to render ahead, those most likely said soon first (the fixed lines)."""
    fixed = fixed_lines(voice)
    yield from fixed
    done = set(fixed)
    yield from (line for line in table_lines(voice, seats, names, roles) if line not in done)
