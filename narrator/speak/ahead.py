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
from typing import Callable, Iterable, Iterator, Sequence

from engine import ROLES, Deal, Game, Phase, Table
from engine.calls import declared_calls
from engine.events import STARTS

from ..voices import Voice, declared_lines, placeholders, said_aloud

# Lines of the answer.* family said on their own, never read back as an answer ("Undone. Answer again.?").
NOT_READ_BACK = ("answer.confirmed", "answer.undone")
# How many of each placeholder a count or a card number can be ("Designate 2 players", "card 1").
SMALL_NUMBERS = (1, 2, 3)


def said_keys(voice: Voice) -> list[str]:
    """Returns the keys of the lines that may be said aloud (not those only shown: see `never_said`)."""
    return [key for key in voice.lines if said_aloud(key) and not never_said(key)]


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
    answers = [*answered, *(voice.text(key, {}) for key in said_keys(voice) if key.startswith("answer.")
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


# The families (or keys) of the lines said first in every game, seconds after it starts: the deal's, seat by seat
# (with real cards, the identification), and the notices said on the way to the first night (close your eyes).
OPENING = ("deal", "identify", "notice.close_eyes", "notice.open_eyes")
# The lines of each way to deal (table config's `deal`, and the phones' codes scanned at the deal): a table renders
# those of its own only.
DEAL_MODES = {"app": ("deal.app_",), "cards": ("deal.cards_", "identify."), "phones": ("deal.phones_",)}


# Characters whose lines any table may hear: the pack is called even at a table without a werewolf card (the Black
# Death's), and anyone may become one.
ALWAYS = ("werewolf", "villager")

OWNED = frozenset({*ROLES, "village", "variants", "town_crier"})
"""The owners of lines (engine/contract.py) that a table may not play: its characters, the Village's buildings,
the variants, the Town Crier. The game's frame (the vote, the Sheriff, the deaths) every table plays."""

REFUSAL_OWNERS: dict[str, tuple[str, ...]] = {
    "refusal.barkeeper": ("village",), "refusal.barkeeper_voted": ("village",), "refusal.card_gone": ("actor",), "refusal.cannot_infect": ("infected_father",),
    "refusal.charmed": ("piper",), "refusal.event_used": ("town_crier",), "refusal.guarded_twice": ("guard",),
    "refusal.harvest_guard": ("guard",), "refusal.harvest_neighbour": ("werewolf",),
    "refusal.heal_spent": ("witch",), "refusal.idiot_ballot": ("idiot",), "refusal.must_take": ("thief",),
    "refusal.no_house": ("pyromaniac",), "refusal.no_such_question": ("gypsy",),
    "refusal.no_victim": ("infected_father", "witch"), "refusal.no_voters": ("scapegoat",),
    "refusal.not_a_voter": ("scapegoat", "village"), "refusal.not_servant": ("devoted_servant",),
    "refusal.not_spent": ("village",), "refusal.not_werewolf": ("white_werewolf",),
    "refusal.one_potion": ("witch",), "refusal.poison_spent": ("witch",), "refusal.same_victim": ("big_bad_wolf",),
    "refusal.seance_used": ("gypsy",), "refusal.self": ("piper", "seer", "variants", "village", "wild_child", "witch"),
    "refusal.servant_condemned": ("devoted_servant",),
    "refusal.servant_lover": ("devoted_servant",), "refusal.vagabond": ("raven", "village"),
    "refusal.werewolf_target": ("big_bad_wolf", "werewolf"), "refusal.white_werewolf_waits": ("white_werewolf",),
}
"""The refusals that the rules of one part of the game raise, with the owners of those rules (the engine's
module that raises it: a character's file, the Village's, the Town Crier's). The others (a seat that is not
there, a ballot twice) any table may hear. tests/test_ahead.py keeps this in step with the engine's sources."""

CAUSE_OWNERS: dict[str, str] = {"grief": "cupid", "hunter": "hunter", "scapegoat": "scapegoat",
                                "scapegoat_neighbour": "scapegoat", "barber": "village", "execution": "village",
                                "cult": "variants"}
"""The causes of a death said aloud that one part of the game brings (the vote any table has)."""

WITCH_ANSWERS = ("answer.heal", "answer.heal_seat", "answer.no_heal", "answer.poison", "answer.no_poison")
"""The Witch's answers, read back on the screen (narrator/asking.py) rather than declared by her call."""


def owners(key: str) -> frozenset[str]:
    """Returns the parts of the game (characters by card id, the Village, the variants…) whose rules alone may
    bring the line ``key``: none for a line any table may hear.

    >>> sorted(owners("seer.wake")), sorted(owners("refusal.vagabond")), sorted(owners("death.barber_hidden"))
    (['seer'], ['raven', 'village'], ['village'])
    >>> owners("refusal.no_such_seat")
    frozenset()
    """
    declared = declared_lines().get(key)
    if declared and declared[0] in OWNED:
        return frozenset({declared[0]})
    family, _, rest = key.partition(".")
    if key in REFUSAL_OWNERS:
        return frozenset(REFUSAL_OWNERS[key])
    if family == "death" and rest.removesuffix("_hidden") in CAUSE_OWNERS:
        return frozenset({CAUSE_OWNERS[rest.removesuffix("_hidden")]})
    if key in WITCH_ANSWERS:
        return frozenset({"witch"})
    call = declared_calls().get(family)
    return frozenset({call.owner}) if call is not None and call.owner in OWNED else frozenset()


def in_the_dark(owner: str) -> bool:
    """Returns whether every call of ``owner`` is made while the table's eyes are closed (by night, or the
    Judge's question): its read-backs and refusals are then shown, never said (narration.in_the_dark). An owner
    with no call of its own (the Idiot: his ballot is refused in the village's vote) is not."""
    calls = [call for call in declared_calls().values() if call.owner == owner]
    return bool(calls) and all(not call.day or call.traits.eyes_closed for call in calls)


def never_said(key: str) -> bool:
    """Returns whether the line ``key`` is only ever shown, never said, because every part of the game that may
    bring it asks in the dark: a refusal of the Witch's, a read-back of the Seer's answer."""
    if not key.startswith(("refusal.", "answer.")):
        return False
    found = owners(key)
    return bool(found) and all(in_the_dark(owner) for owner in found)


def absent(table: Table | None) -> frozenset[str]:
    """Returns the parts of the game a ``table`` never plays, by the owner names of the engine's declaration: the
    characters not in its deck (nor among the Actor's cards), the Village without buildings, the variants, the
    morning draw and the Town Crier when its rules have none. Their lines are not worth rendering ahead. No table: none is absent.

    >>> sorted(absent(Table(5, ("werewolf", "seer", "villager", "villager", "villager"))))[:3]
    ['actor', 'angel', 'bear_tamer']
    """
    if table is None:
        return frozenset()
    present = {*table.deck, *table.actor_cards, *ALWAYS}
    gone = {role for role in ROLES if role not in present}
    if not table.buildings:
        gone.add("village")
    if not table.rules.variants and not any(card in STARTS for card in table.rules.events):
        gone.add("variants")  # none played, none an event card may start
    if not table.rules.events:
        gone.add("events")
    if not table.rules.town_crier:
        gone.add("town_crier")
    return frozenset(gone)


def dealt_otherwise(key: str, deal: str | None, phones: bool | None) -> bool:
    """Returns whether ``key`` belongs to a way to deal that the table does not use (``deal``: "app" or "cards",
    ``phones``: whether the table plays with the players' phones: their codes scanned at the deal, the lines worded
    for them); None: unknown, every way may be.

    >>> dealt_otherwise("deal.cards_intro", "app", False), dealt_otherwise("identify.wake", "cards", False)
    (True, False)
    """
    if phones is False and key.endswith("_phones"):  # a line's wording for a table with phones (Voice.worded)
        return True
    used = {mode for mode, on in (("app", deal == "app"), ("cards", deal == "cards"), ("phones", phones)) if on}
    unknown = {mode for mode, on in (("app", deal is None), ("cards", deal is None), ("phones", phones is None)) if on}
    return any(key.startswith(DEAL_MODES[mode]) for mode in DEAL_MODES.keys() - used - unknown)


def first_calls(table: Table | None) -> list[str]:
    """Returns the ids of the calls a game at ``table`` makes first, in order: the day before the first night (its
    first call, the Sheriff's election), the first night's calls, then the first day's. Public: the call order is
    the deck's (see calls_ahead). Without a table, the frame every game has.

    >>> first_calls(Table(6, ("werewolf", "seer", "witch", "villager", "villager", "villager")))
    ['sheriff_election', 'nightfall', 'seer', 'werewolves', 'witch', 'dawn', 'debate', 'vote']
    """
    frame = ["nightfall", *DAY_CALLS]
    if table is None:
        return frame
    try:  # the deck dealt in its own order: the call order does not depend on who holds which card
        game = Game(table, Deal(tuple(table.deck[:table.seats]), tuple(table.deck[table.seats:]),
                                tuple(zip(range(1, table.seats + 1), table.buildings))))
    except (ValueError, KeyError):
        return frame
    before = [game.call.id] if game.call is not None and game.call.phase is Phase.DAY else []
    return list(dict.fromkeys([*before, "nightfall", *game.night_order(1), *DAY_CALLS]))


def lines_ahead(voice: Voice, seats: int, names: Sequence[str | None] = (), roles: Iterable[str] = (),
                table: Table | None = None, deal: str | None = None, phones: bool | None = None) -> Iterator[str]:
    """Returns every line to render ahead in the order a game needs them: the deal's (its call to each seat in
    turn), then the calls of the first night, then those of the first day (`first_calls`), then the rest: the
    other fixed lines (calls), then the lines about one seat or one character.

    Only lines that can be said are in: not those only ever shown (`never_said`), not those of a way to deal the
    table does not use (``deal``, ``phones``: see `dealt_otherwise`), and with the ``table``, not the lines of the
    characters and parts of the game it never plays (see `absent`)."""
    skipped = absent(table)

    def played(key: str) -> bool:
        found = owners(key) if skipped else frozenset()
        return (not found or not found <= skipped) and not dealt_otherwise(key, deal, phones)

    fixed = [AheadLine(key, frozenset(), voice.spoken(voice.text(key, {}))) for key in said_keys(voice)
             if not placeholders(voice.lines[key]) and played(key)]
    entries = [line for line in table_entries(voice, seats, names, roles) if played(line.key)]
    every = [*fixed, *entries]
    order = [*OPENING, *first_calls(table)]
    rank = {family: place for place, family in enumerate(order)}
    # sorted() keeps the voice file's order (and the seats' order) within a call, the fixed lines before the others.
    ranked = sorted(every, key=lambda line: rank.get(line.key, rank.get(line.key.split(".")[0], len(order))))
    first = [line.text for line in ranked if line.key in rank or line.key.split(".")[0] in rank]
    # The lines naming several seats come at the first day's vote (a tie, a tally) or at any dawn (the winners).
    yield from dict.fromkeys([*first, *composed_lines(voice, seats, names, played), *(line.text for line in ranked)])


def seat_words(voice: Voice, seats: int, names: Sequence[str | None] = ()) -> tuple[str, ...]:
    """Returns how a table of ``seats`` says each of its seats, as the speech engine gets it
    (RenderedSpeaker.seat_words)."""
    return tuple(voice.spoken(voice.seat(seat, names)) for seat in range(1, seats + 1))


def composed_lines(voice: Voice, seats: int, names: Sequence[str | None] = (),
                   played: Callable[[str], bool] = lambda key: True, living: Iterable[int] | None = None) -> list[str]:
    """Returns lines naming several seats, made so that together they hold every piece of every such line the
    table may hear (a tie, the winners, a tally: see kokoro_backend.composed): each seat first, in the middle and
    last of a list, with each of its marks; each seat's votes, first or after another's, for every count.
    Rendered ahead, their pieces compose any such line when it is said. ``played``: whether a line's key may be
    heard at the table; ``living``: the seats still in the game (None: all), the only ones a list may name."""
    ring = sorted(living) if living is not None else list(range(1, seats + 1))
    seats = len(ring)
    found = []
    lists = [[seat, ring[(at + 1) % seats]] for at, seat in enumerate(ring)]
    lists += [[ring[(at + 1) % seats], seat, ring[(at + 2) % seats]] for at, seat in enumerate(ring)]
    for key in said_keys(voice):
        if placeholders(voice.lines[key]) == {"seats"} and played(key) and seats > 2:
            found += [voice.spoken(voice.text(key, {"seats": listed}, names)) for listed in lists]
    if "tally.read" in voice.lines and seats > 1:
        results = [voice.text("tally.nobody", {}, names, fragment=True),
                   *(voice.text(key, {"seat": seat}, names, fragment=True) for key in ("tally.out", "tally.elected")
                     for seat in ring),
                   *(voice.text("answer.tie", {"seats": listed}, names, fragment=True) for listed in lists)]
        tallies = [voice.tally([(seat, count), (ring[(at + 1) % seats], count)], names) for at, seat in enumerate(ring)
                   for count in range(1, len(ring) + 1)]
        for place, result in enumerate(results):
            found.append(voice.spoken(voice.text("tally.read", {"votes": tallies[place % len(tallies)],
                                                                "result": result}, names)))
        found += [voice.spoken(voice.text("tally.read", {"votes": votes, "result": results[0]}, names))
                  for votes in tallies]
    return list(dict.fromkeys(found))


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
        roles = list(roles)
        deck = set(roles)
        self._voice, self._seats, self._names = voice, seats, names
        self._played: Callable[[str], bool] = lambda key: not owners(key) or bool(owners(key) & deck)
        self._composed: dict[frozenset[int], list[str]] = {}  # by the living seats
        for line in fixed + table_entries(voice, seats, names, roles):
            self.by_call.setdefault(line.key.split(".")[0], []).append(line)
            if line.seats:
                self.about_seats.append(line)

    def soonest(self, calls: Sequence[str], living: Iterable[int], seats_too: bool = True) -> list[str]:
        """Returns the lines of ``calls``, in their order, that name only ``living`` seats; then, with
        ``seats_too``, the game's end (any dawn or vote may bring it; every side's line, a dozen), the pieces of the
        lines naming several seats (a tie, a tally, the winners), and the other lines that name only living seats.

        The end goes before the seats: otherwise the hundreds of seat lines queued at each night and day kept it
        behind them all game long, and a first game's winner was announced by espeak-ng."""
        alive = frozenset(living)
        found = [line.text for call in calls for line in self.by_call.get(call, ()) if line.seats <= alive]
        if seats_too:
            found += [line.text for line in self.by_call.get("end", ()) if line.seats <= alive]
            if alive not in self._composed:
                self._composed[alive] = composed_lines(self._voice, self._seats, self._names, self._played, alive)
            found += self._composed[alive]
            found += [line.text for line in self.about_seats if line.seats <= alive]
        return list(dict.fromkeys(found))
