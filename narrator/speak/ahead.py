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
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from engine import ROLES, Table

from ..voices import Voice, declared_lines, placeholders, said_aloud

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


@dataclass(frozen=True)
class AheadLine:
    """A line worth rendering ahead: its voice key, the seats it names, its text as the speech engine gets it."""

    key: str
    seats: frozenset[int]
    text: str


def table_entries(voice: Voice, seats: int, names: Sequence[str | None] = (),
                  roles: Iterable[str] = ()) -> list[AheadLine]:
    """Returns the lines said about one seat, one character or one answer at a table of ``seats``, with their
    keys and the seats they name (a read-back names the seat answered).

    Lines naming a character ("Seat four has been eliminated. Their card: the Witch.") are
    rendered for each character in ``roles`` (the deck): none when it is empty.
    """
    deck = list(dict.fromkeys(roles))
    answered = {voice.seat(seat, names): seat for seat in range(1, seats + 1)}  # a read-back's seat
    answers = [*answered, *(voice.text(key, {}) for key in voice.lines if key.startswith("answer.")
                            and key not in NOT_READ_BACK and not placeholders(voice.lines[key]))]
    domains: dict[str, Sequence[object]] = {
        "seat": range(1, seats + 1), "role": deck, "first": deck, "second": deck,
        "cause": list(voice.causes), "answer": answers, "number": SMALL_NUMBERS, "count": SMALL_NUMBERS,
    }
    found: dict[str, AheadLine] = {}
    for key in said_keys(voice):
        wanted = sorted(placeholders(voice.lines[key]))
        if not wanted or any(name not in domains for name in wanted):
            continue
        for values in itertools.product(*(domains[name] for name in wanted)):
            filled = dict(zip(wanted, values))
            named = {seat for seat in (filled.get("seat"), answered.get(str(filled.get("answer"))))
                     if isinstance(seat, int)}
            text = voice.spoken(voice.text(key, filled, names))
            found.setdefault(text, AheadLine(key, frozenset(named), text))
    return list(found.values())


def table_lines(voice: Voice, seats: int, names: Sequence[str | None] = (),
                roles: Iterable[str] = ()) -> list[str]:
    """Returns the texts of `table_entries`."""
    return [line.text for line in table_entries(voice, seats, names, roles)]


# The lines said first in every game, seconds after it starts: the deal's, seat by seat.
OPENING = ("deal.",)


# Characters whose lines any table may hear: the pack is called even at a table without a werewolf card (the Black
# Death's), and anyone may become one.
ALWAYS = ("werewolf", "villager")


def absent(table: Table | None) -> frozenset[str]:
    """Returns the parts of the game a ``table`` never plays, by the owner names of the engine's declaration: the
    characters not in its deck (nor among the Actor's cards), the Village without buildings, the variants and the
    Town Crier when its rules have none. Their lines are not worth rendering ahead. No table: none is absent.

    >>> sorted(absent(Table(5, ("werewolf", "seer", "villager", "villager", "villager"))))[:3]
    ['actor', 'angel', 'bear_tamer']
    """
    if table is None:
        return frozenset()
    present = {*table.deck, *table.actor_cards, *ALWAYS}
    gone = {role for role in ROLES if role not in present}
    if not table.buildings:
        gone.add("village")
    if not table.rules.variants:
        gone.add("variants")
    if not table.rules.town_crier:
        gone.add("town_crier")
    return frozenset(gone)


def lines_ahead(voice: Voice, seats: int, names: Sequence[str | None] = (), roles: Iterable[str] = (),
                table: Table | None = None) -> Iterator[str]:
    """Returns every line to render ahead, those most likely said soon first: the deal's (its call to each seat in
    turn), then the fixed lines (the calls), then the lines about one seat or one character. With the ``table``,
    the lines of the characters and parts of the game it never plays are left out (see `absent`): a slow voice
    renders them in minutes, and one said all the same is rendered then."""
    skipped = absent(table)
    owners = {key: owner for key, (owner, _) in declared_lines().items()} if skipped else {}
    entries = [line for line in table_entries(voice, seats, names, roles) if owners.get(line.key) not in skipped]
    opening = [voice.spoken(voice.text(key, {})) for key in said_keys(voice)
               if key.startswith(OPENING) and not placeholders(voice.lines[key])]
    opening += [line.text for line in entries if line.key.startswith(OPENING)]
    fixed = [voice.spoken(voice.text(key, {})) for key in said_keys(voice)
             if not placeholders(voice.lines[key]) and owners.get(key) not in skipped]
    yield from dict.fromkeys([*opening, *fixed, *(line.text for line in entries)])


# How many calls ahead, the running one first, have their lines rendered before the rest: a call's lines
# take 1–3 s of Piper's time here, a call lasts longer than that.
CALLS_AHEAD = 3
# The calls of a day that every day makes, in order (the others, the Hunter's or the Sheriff's, come and go).
DAY_CALLS = ("dawn", "debate", "vote")


def calls_ahead(call: str, night: bool, tonight: Sequence[str], next_night: Sequence[str],
                count: int = CALLS_AHEAD) -> list[str]:
    """Returns the ids of the calls the table is about to hear, ``call`` (the running one) first: by night, the
    rest of ``tonight``'s call order then the day's; by day, the day's then ``next_night``'s.

    Only public knowledge goes in: the call order is the deck's, the calls of dead characters are made too.

    >>> calls_ahead("seer", True, ("cupid", "seer", "werewolves", "witch"), ())
    ['seer', 'werewolves', 'witch']
    >>> calls_ahead("vote", False, (), ("seer", "werewolves"))
    ['vote', 'nightfall', 'seer']
    """
    order = ["nightfall", *tonight, *DAY_CALLS] if night else [*DAY_CALLS, "nightfall", *next_night]
    rest = order[order.index(call) + 1:] if call in order else order
    return list(dict.fromkeys([call, *rest]))[:count]


class Priorities:
    """The lines of one table, and those it needs soonest as the game goes: the lines of the next calls, then the
    read-backs and announcements about the living seats (`soonest`). Built once: a call only filters them."""

    def __init__(self, voice: Voice, seats: int, names: Sequence[str | None] = (), roles: Iterable[str] = ()) -> None:
        fixed = [AheadLine(key, frozenset(), voice.spoken(voice.text(key, {}))) for key in said_keys(voice)
                 if not placeholders(voice.lines[key])]
        self.by_call: dict[str, list[AheadLine]] = {}
        self.about_seats: list[AheadLine] = []
        for line in fixed + table_entries(voice, seats, names, roles):
            self.by_call.setdefault(line.key.split(".")[0], []).append(line)
            if line.seats:
                self.about_seats.append(line)

    def soonest(self, calls: Sequence[str], living: Iterable[int], seats_too: bool = True) -> list[str]:
        """Returns the lines of ``calls``, in their order, that name only ``living`` seats; then, with
        ``seats_too``, the game's end (any dawn or vote may bring it; every side's line, a dozen) and the other
        lines that name only living seats.

        The end goes before the seats: otherwise the hundreds of seat lines queued at each night and day kept it
        behind them all game long, and a first game's winner was announced by espeak-ng."""
        alive = frozenset(living)
        found = [line.text for call in calls for line in self.by_call.get(call, ()) if line.seats <= alive]
        if seats_too:
            found += [line.text for line in self.by_call.get("end", ()) if line.seats <= alive]
            found += [line.text for line in self.about_seats if line.seats <= alive]
        return list(dict.fromkeys(found))
