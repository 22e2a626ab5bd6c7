"""Real cards (deal: cards): before the first night, eyes closed, each character wakes once and types its seat.

The engine must know every card's seat before the first call that depends on it
(the Seer may look at any seat), so every character in the deck is identified
before night 1, in the first night's order. The Thief comes first and also types
the two centre cards; the characters lying in the centre are still called, for
fair play, with the same words, and last as long as the others take to type their
seats (narrator.pacing). Players left over are simple villagers. Each
identification is journaled as soon as it is confirmed: a game stopped during the
deal goes on at the next character to identify.

No message tells a player anything of another's card: a seat that another character
already typed is accepted like any other; the round's last check then finds that the
seats do not fit the deck, and the whole table identifies its cards again, nobody told why.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence

from engine import ROLES, Deal, Table, night_calls

from .asking import KeypadAnswers
from .narration import SCREEN, VOICE, Line
from .pacing import IDENTIFY
from .shapes import Repeat, Undo, so_far
from .voices import Voice


class TableNarrator(Protocol):
    """What the deal by cards needs of the table's narrator (play.TableNarrator): its voice, its lines, and a
    moment of its own on the screen for each character identifying itself."""

    voice: Voice

    def line(self, key: str, channel: str, **values: object) -> Line:
        """Says or shows the line ``key``."""

    def moment(self, title: str) -> None:
        """Starts a moment outside the engine's calls, ``title`` on the screen."""

CALL_OF = {"werewolf": "werewolves", "sister": "sisters"}
"""A card whose first-night call has another id than the card's."""


def identification_order(table: Table) -> list[str]:
    """Returns the characters to identify, villagers aside: those with a first-night call in its order
    (the Thief first), then the others in a fixed order.

    >>> identification_order(Table(8, ("hunter", "werewolf", "werewolf", "seer", "cupid") + ("villager",) * 3))
    ['cupid', 'seer', 'werewolf', 'hunter']
    """
    deck = set(table.deck) - {"villager"}
    first_night = night_calls(table.rules.profile, 1, table.rules.sisters_wake, table.rules.intervals())
    called = [r for r in deck if CALL_OF.get(r, r) in first_night]
    called.sort(key=lambda r: first_night.index(CALL_OF.get(r, r)))
    return called + [r for r in ROLES if r in deck and r not in called]


@dataclass(frozen=True)
class Identified:
    """A character identified: the seats typed (none when its cards lie in the centre), the Thief's centre cards."""

    role: str
    seats: tuple[int, ...]
    centre: tuple[str, ...] = ()

    def step(self) -> dict[str, Any]:
        """Returns the journal's line for it."""
        step: dict[str, Any] = {"identified": self.role, "seats": list(self.seats)}
        if self.role == "thief":
            step["centre"] = list(self.centre)
        return step


def journaled(table: Table, progress: Sequence[Mapping[str, Any]]) -> list[Identified]:
    """Returns the identifications of the round under way, from the journal's steps of the deal; raises
    ValueError when they do not fit the table (a damaged journal)."""
    start = max((i + 1 for i, step in enumerate(progress) if step.get("again")), default=0)
    order = identification_order(table)
    deck = Counter(table.deck)
    done: list[Identified] = []
    centre: tuple[str, ...] = ()
    for i, step in enumerate(progress[start:]):
        role = step.get("identified")
        if i >= len(order) or role != order[i]:
            raise ValueError(f"the deal's step {start + i + 1} is not the identification of the next character")
        seats = step.get("seats")
        if (not isinstance(seats, list) or len(seats) != max(deck[role] - centre.count(role), 0)
                or len(set(seats)) != len(seats) or not all(type(s) is int and 1 <= s <= table.seats for s in seats)):
            raise ValueError(f"the deal's step {start + i + 1} has seats that do not fit the table")
        if role == "thief":
            cards = step.get("centre")
            if not isinstance(cards, list) or len(cards) != 2 or not all(card in deck for card in cards):
                raise ValueError(f"the deal's step {start + i + 1} has centre cards that are not in the deck")
            centre = tuple(cards)
        done.append(Identified(role, tuple(seats), centre if role == "thief" else ()))
    return done


def identify(table: Table, narrator: TableNarrator, answers: KeypadAnswers, progress: Sequence[Mapping[str, Any]] = (),
             record: Callable[[dict[str, Any]], None] = lambda step: None) -> Deal:
    """Wakes each character in turn, everyone's eyes closed, to type its seat; returns the deal the cards make.

    ``record`` journals each identification as it is confirmed; ``progress`` is the journal's steps of a deal
    stopped part-way: the characters identified then are not called again.
    """
    done = journaled(table, progress)
    if not progress:
        # The Thief's two cards are dealt to the centre: a host who deals one card a player would keep them in hand.
        narrator.line("deal.cards_intro_centre" if len(table.deck) > table.seats else "deal.cards_intro", VOICE)
        # Dealing takes the table a while: the eyes close only once every player has seen their card.
        answers.screen.prompt(narrator.voice.text("deal.cards_ready", {}))
        answers.enter()
        answers.screen.prompt("")
    narrator.line("notice.close_eyes", VOICE)
    while True:
        deal = _round(table, narrator, answers, done, record)
        if deal is not None:
            answers.keys.drain()  # a key typed during the last character's floor is not the first call's answer
            return deal
        narrator.line("identify.mismatch", VOICE)
        record({"again": 1})
        done = []


def _round(table: Table, narrator: TableNarrator, answers: KeypadAnswers, done: list[Identified],
           record: Callable[[dict[str, Any]], None]) -> Deal | None:
    deck = Counter(table.deck)
    seats: dict[int, str] = {}
    centre: tuple[str, ...] = ()
    for i, role in enumerate(identification_order(table)):
        if i < len(done):
            found = done[i]  # journaled before the game stopped
        else:
            found = _identify(table, narrator, answers, role, deck[role] - centre.count(role), record)
            if not found.seats:
                answers.pacing.wait(IDENTIFY)  # the card lies in the centre: nobody wakes, nothing is given away
            answers.pacing.close()
            narrator.line("identify.sleep", VOICE, role=role)
            answers.screen.clear()
        for seat in found.seats:
            seats[seat] = role  # a seat another character typed too: the check below settles it
        if role == "thief":
            centre = found.centre
    left = [s for s in range(1, table.seats + 1) if s not in seats]
    villagers = deck["villager"] - centre.count("villager")
    if len(left) != villagers or any(deck[r] < centre.count(r) for r in centre):
        return None
    for seat in left:
        seats[seat] = "villager"
    roles = tuple(seats[s] for s in range(1, table.seats + 1))
    if Counter(roles + centre) != deck:
        return None
    return Deal(roles, centre)


def _identify(table: Table, narrator: TableNarrator, answers: KeypadAnswers, role: str, holders: int,
              record: Callable[[dict[str, Any]], None]) -> Identified:
    """Calls one character: its holders type their seats (the Thief, the centre cards too); journals it."""
    voice = narrator.voice
    narrator.moment(voice.role(role))
    narrator.line("identify.wake", VOICE, role=role)
    answers.pacing.open(IDENTIFY)
    answers.keys.drain()  # a key typed before the call (the last one's floor, a card in the centre) answers nothing
    found = Identified(role, ())
    if holders > 0:
        prompt = (answers.text("identify.prompt_seat") if holders == 1
                  else answers.text("identify.prompt_seats", count=holders))
        chosen = _numbers(narrator, answers, holders, table.seats, prompt, answers.seat_words,
                          "refusal.no_such_seat")
        found = Identified(role, tuple(chosen))
        if role == "thief":
            kinds = sorted(set(table.deck))
            listing = ", ".join(f"{i}: {voice.role(r)}" for i, r in enumerate(kinds, start=1))
            narrator.line("identify.centre", SCREEN, cards=listing)
            picked = _numbers(narrator, answers, 2, len(kinds), answers.text("identify.prompt_centre"),
                              lambda numbers: voice.join([voice.role(kinds[n - 1]) for n in numbers]),
                              "identify.no_such_card", distinct=False)  # both centre cards may be Werewolves
            found = Identified(role, tuple(chosen), tuple(kinds[n - 1] for n in picked))
    record(found.step())
    return found


def _numbers(narrator: TableNarrator, answers: KeypadAnswers, count: int, largest: int, prompt: str,
             said: Callable[[list[int]], str], out_of_range: str, distinct: bool = True) -> list[int]:
    """Reads ``count`` numbers from 1 to ``largest`` and confirms them. A number out of range, or (``distinct``)
    typed twice in the same answer, is refused on the screen before anything is read back."""
    # A seat beyond the table is refused as its digit is typed, as in every call (a centre card's number, once Enter
    # is pressed: its refusal names a card).
    typed_over = largest if out_of_range == "refusal.no_such_seat" else None
    while True:
        chosen: list[int] = []
        try:
            while len(chosen) < count:
                try:
                    number = answers.number(prompt + so_far(chosen), allow_zero=False, largest=typed_over)
                except Undo:
                    if chosen:
                        chosen.pop()
                    continue
                assert isinstance(number, int)
                if number > largest:
                    narrator.line(out_of_range, SCREEN, number=number, seat=number)
                elif distinct and number in chosen:
                    narrator.line("refusal.twice", SCREEN)
                else:
                    chosen.append(number)
            if answers.confirm(said(chosen)):
                return chosen
        except Repeat:
            answers.repeat()
        except Undo:
            pass  # undo at the read-back: the answer is typed again
