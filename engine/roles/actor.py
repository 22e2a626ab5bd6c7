"""The Actor (演员, Characters): three face-up character cards with powers, never werewolves, lie in the
middle of the table. Each night he may take one; it leaves the middle and he has that card's power until
the next night begins (he is called at that character's call, and may shoot as the Hunter the next day)."""

from __future__ import annotations

from typing import Mapping, Sequence

from ..answers import as_int, shown
from ..contract import FactSpec, Listed, Piece, Told, Value
from ..role import CallSpec, Flow, Play, Role
from ..table import Table
from ..types import Answer, Fact, IllegalAnswer, Kind

CARDS = 3
"""The seed: the narrator puts three cards in the middle."""

LENDABLE = ("bear_tamer", "fox", "guard", "hunter", "knight", "seer", "witch")
"""The cards whose power the engine can lend for one night and the day after: a night call of the card's
own (the Actor, called first, is called at it that same night), the Hunter's shot, the Knight's rust when
devoured that night, the bear's growl the next morning. Refused: werewolf-type cards (the seed); cards
without a power (villagers, Villager-Villager, Sisters, Brothers); first-night powers and choices of side
or goal (Thief, Cupid, Wild Child, Wolf Hound, Piper, Angel); powers whose effect outlasts the loan (the
Elder's lives and the penalty of his death, the Idiot's revealed card, the Scapegoat's vote) or that the
rules tie to the card itself (the Little Girl, whom the Guard cannot protect); and the Actor and the Gypsy
themselves. The Witch lent to the Actor comes with her own two fresh potions (the card is not in the deck,
so nobody else has spent them)."""

TABLE_KEYS = {"actor_cards": "with the Actor in the deck: the 3 face-up cards in the middle, character ids not in the "
                             "deck, from " + ", ".join(LENDABLE) + " (no default: the Actor needs them)"}
"""The table config's key for his cards, with its help."""


class Actor(Role):
    id = "actor"
    villager_power = True  # a villager's special power: lost with the Elder's penalty, borrowed ones too

    def at_nightfall(self, game: Play) -> None:
        game.end_lending()  # "until the next night begins": the borrowed power ends before any call


def check_table(table: Table, roles: Mapping[str, Role]) -> list[str]:
    """Returns the problems of the Actor's middle cards at ``table`` (``roles``: every character by card id)."""
    return check_cards(table.deck, table.actor_cards, roles)


def check_cards(deck: Sequence[str], cards: Sequence[str], roles: Mapping[str, Role]) -> list[str]:
    """Returns the problems of the Actor's middle cards at a table with ``deck``."""
    errors: list[str] = []
    if "actor" in deck and len(cards) != CARDS:
        errors.append(f"the Actor needs actor_cards: {CARDS} character cards for the middle of the table, "
                      f"from {', '.join(LENDABLE)}")
    if cards and "actor" not in deck:
        errors.append("actor_cards is given but there is no Actor (actor) in the deck")
    for card in cards:
        if card not in roles:
            errors.append(f"actor_cards: unknown character {card!r}")
        elif roles[card].wolf_card:
            errors.append(f"actor_cards: {card!r} is a werewolf card; the Actor's cards are never werewolves")
        elif card not in LENDABLE:
            errors.append(f"actor_cards: the Actor cannot play the {card!r}; he can play {', '.join(LENDABLE)}")
        elif card in deck:
            errors.append(f"actor_cards: {card!r} is in the deck; the Actor's cards come from the unused cards")
    if len(set(cards)) != len(cards):
        errors.append("actor_cards: the same card is named twice")
    return errors


def _take(game: Play, value: Answer) -> int | None:
    if value is None:
        return None
    place = as_int(value)
    if place is None or not 1 <= place <= len(game.middle):
        raise IllegalAnswer(f"expected a card of the middle, 1 to {len(game.middle)}, or null, got {shown(value)}",
                            key="refusal.shape")
    if game.middle[place - 1] is None:  # public: the players see the middle
        raise IllegalAnswer(f"card {place} has already left the middle", key="refusal.card_gone", number=place)
    return place


def actor(game: Play) -> Flow:
    """He takes one of the cards left in the middle, by its place (1 to 3), or none."""
    seat = game.actor("actor")
    if seat is None or not any(game.middle):
        yield from game.idle("actor", Kind.NUMBER, picks=CARDS, optional=True)
        return
    middle = Fact("actor.middle", {"cards": list(game.middle)}, secret=True)
    place = yield game.ask("actor", Kind.NUMBER, actors=(seat,), optional=True, picks=len(game.middle),
                           facts=(middle,), check=lambda v: _take(game, v))
    if place is None:
        return
    card = game.lend(place, seat)
    # Nothing is said aloud: which card left the middle the players see for themselves in the morning,
    # and words that depend on his choice would tell who is awake.
    game.fact("actor.takes", secret=True, role=card)


def _middle(values: Mapping[str, object]) -> tuple[Told, ...]:
    """The cards in the middle listed, each with its number (the one he answers with), a taken one as taken."""
    cards = values["cards"]
    assert isinstance(cards, list)
    return (Told("screen.actor_middle", {"cards": Listed(tuple(
        Piece("screen.actor_card", {"number": n, "role": card}) if card else Piece("screen.actor_gone", {"number": n})
        for n, card in enumerate(cards, start=1)))}),)


ROLE = Actor()
CALLS = (CallSpec("actor", Kind.NUMBER, frozenset({"actor"}), actor),)
FACTS = (FactSpec("actor.middle", {"cards": Value.CARDS}, secret=True,
                  lines=("screen.actor_middle", "screen.actor_card", "screen.actor_gone"), told=_middle),
         FactSpec("actor.takes", {"role": Value.ROLE}, secret=True))
"""The cards left in the middle (None: taken), and the one he takes."""
