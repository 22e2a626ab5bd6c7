"""Real cards (deal: cards): before the first night, each character wakes once and types its seat.

The engine must know every card's seat before the first call that depends on it
(the Seer may look at any seat), so every character in the deck is identified
before night 1, in the first night's order. The Thief comes first and also types
the two centre cards; the characters lying in the centre are still called, for
fair play, with the same words, and last as long as the others take to type their
seats (narrator.pacing). Players left over are simple villagers.
"""

from __future__ import annotations

from collections import Counter

from engine import ROLES, Deal, Table, night_calls

from .asking import KeypadAnswers, Undo
from .narration import SCREEN, VOICE, Narrator
from .pacing import IDENTIFY

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


def identify(table: Table, narrator: Narrator, answers: KeypadAnswers) -> Deal:
    """Wakes each character in turn to type its seat; returns the deal the cards make."""
    narrator.line("deal.cards_intro", VOICE)
    while True:
        deal = _round(table, narrator, answers)
        if deal is not None:
            return deal
        narrator.line("identify.mismatch", VOICE)


def _round(table: Table, narrator: Narrator, answers: KeypadAnswers) -> Deal | None:
    deck = Counter(table.deck)
    seats: dict[int, str] = {}
    centre: list[str] = []
    kinds = sorted(deck)
    for role in identification_order(table):
        narrator.line("identify.wake", VOICE, role=role)
        answers.pacing.open(IDENTIFY)
        holders = deck[role] - centre.count(role)
        if holders <= 0:
            answers.pacing.wait(IDENTIFY)  # the card lies in the centre: nobody wakes, nothing is given away
        else:
            for seat in _seats(narrator, answers, holders, seats, table.seats):
                seats[seat] = role
            if role == "thief":
                listing = ", ".join(f"{i}: {narrator.voice.role(r)}" for i, r in enumerate(kinds, start=1))
                narrator.line("identify.centre", SCREEN, cards=listing)
                picked = answers.numbers(2, len(kinds))
                centre = [kinds[i - 1] for i in picked]
        answers.pacing.close()
        narrator.line("identify.sleep", VOICE, role=role)
        answers.screen.clear()
    left = [s for s in range(1, table.seats + 1) if s not in seats]
    villagers = deck["villager"] - centre.count("villager")
    if len(left) != villagers or any(deck[r] < centre.count(r) for r in centre):
        return None
    for seat in left:
        seats[seat] = "villager"
    roles = tuple(seats[s] for s in range(1, table.seats + 1))
    if Counter(roles + tuple(centre)) != deck:
        return None
    return Deal(roles, tuple(centre))


def _seats(narrator: Narrator, answers: KeypadAnswers, count: int, taken: dict[int, str], size: int) -> list[int]:
    """Reads ``count`` distinct free seats; refuses (on the screen) a seat out of range or already entered."""
    while True:
        try:
            chosen = answers.numbers(count, size)
        except Undo:
            continue
        clash = next((s for s in chosen if s in taken), None)
        if clash is None and len(set(chosen)) == len(chosen):
            return chosen
        narrator.line("refusal.taken" if clash else "refusal.twice", SCREEN, seat=clash or chosen[0])
