"""The Gypsy (吉普赛人, Characters): the table sets aside five séance cards of the New Moon. Each night she
is asked whether she uses her power; if so she chooses a séance card not yet used, one of its questions
and the player who will ask it (the spiritualist). The next morning, after the victims and the bear
(the article's day order, 3.), that player reads the question aloud and the first player eliminated
answers yes or no."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from .. import answers, events
from ..answers import as_int, shown
from ..contract import FactSpec, Value
from ..role import CallSpec, Flow, Play, Role, nothing
from ..state import Kept
from ..table import Table
from ..types import Answer, Fact, IllegalAnswer, Kind

CARDS = 5
"""The seed: five séance cards (招魂仪式卡) for the Gypsy."""

QUESTIONS = 9
"""How many questions a card may be asked by number when the table gives no texts. Ruling taken: the seeds
do not count a séance card's questions; nine covers a card and fits one key of the keypad."""


@dataclass(frozen=True)
class Seances(Kept):
    """The séance cards used (by number), each once a game."""

    card = "gypsy"
    used: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Chosen(Kept):
    """The séance she chose tonight, held the next morning: (card, question, asker)."""

    card = "gypsy"
    nightly = True
    seance: tuple[int, int, int] | None = None


class Gypsy(Role):
    id = "gypsy"
    villager_power = True
    asks = {"seance": Kind.NONE}

    def after_dawn(self, game: Play) -> Flow:
        chosen = game.kept(Chosen).seance
        if chosen is None:
            return nothing()
        return _seance(game, *chosen)


def _seance(game: Play, card: int, question: int, asker: int) -> Flow:
    """The séance she chose last night takes place, even if she was eliminated since (her choice is made)."""
    if not game.eliminated:
        # Ruling taken: with nobody eliminated yet there is no spirit to answer; the card is not spent.
        yield game.ask("seance", Kind.NONE, facts=(Fact("seance.no_spirit", {"card": card}),))
        return
    if not game.alive(asker):
        # Ruling taken: a spiritualist eliminated in the night is replaced by the nearest living player on
        # his left, as the New Moon's séance card makes the left neighbour of the dead the spiritualist.
        left = game.neighbours(asker)
        if not left:
            return
        asker = left[0]
    spirit = game.eliminated[0].seat
    game.keep(Seances(game.kept(Seances).used | {card}))
    texts = game.table.seance_cards
    values: dict[str, object] = {"asker": asker, "card": card, "question": question, "spirit": spirit}
    if texts:
        values["text"] = texts[card - 1][question - 1]
    key = "seance.read" if texts else "seance.numbers"
    yield game.ask("seance", Kind.NONE, facts=(Fact(key, values),))


def check_table(table: Table, roles: Mapping[str, Role]) -> list[str]:
    """Returns the problems of the séance cards at ``table``."""
    drawn = any(card in events.SEANCES for card in table.rules.events)
    return check_cards(table.deck, table.seance_cards, drawn)


def check_cards(deck: Sequence[str], cards: Sequence[Sequence[str]], drawn: bool = False) -> list[str]:
    """Returns the problems of the séance cards' texts: five cards, each a list of questions, for a Gypsy or for
    the morning draw (``drawn``: it turns séance cards)."""
    if not cards:
        return []
    errors = []
    if "gypsy" not in deck and not drawn:
        errors.append("seance_cards: there is no Gypsy (gypsy) in the deck, nor a séance card in events, to use "
                      "them")
    if len(cards) != CARDS:
        errors.append(f"seance_cards: {CARDS} cards are needed, each a list of questions; got {len(cards)}")
    for n, questions in enumerate(cards, start=1):
        if not questions or not all(isinstance(q, str) and q.strip() for q in questions):
            errors.append(f"seance_cards: card {n} needs a list of questions, each a text")
        elif len(questions) > QUESTIONS:
            errors.append(f"seance_cards: card {n} has {len(questions)} questions; at most {QUESTIONS}")
    return errors


def _read(game: Play, value: Answer) -> tuple[int, int, int] | None:
    """Reads {card, question, asker} or null; every refusal is public knowledge (the used cards were read
    aloud, the texts are the table's)."""
    if value is None:
        return None
    asked = answers.mapping(value, ("card", "question", "asker"))
    card = as_int(asked.get("card"))
    if card is None or not 1 <= card <= CARDS:
        raise IllegalAnswer(f"expected a séance card from 1 to {CARDS}, got {shown(asked.get('card'))}",
                            key="refusal.shape")
    if card in game.kept(Seances).used:
        raise IllegalAnswer(f"séance card {card} has been used", key="refusal.seance_used", number=card)
    texts = game.table.seance_cards
    most = len(texts[card - 1]) if texts else QUESTIONS
    question = as_int(asked.get("question"))
    if question is None or not 1 <= question <= most:
        raise IllegalAnswer(f"séance card {card} has questions 1 to {most}, not {shown(asked.get('question'))}",
                            key="refusal.no_such_question", number=card, count=most)
    asker = answers.seat(game, asked.get("asker"))
    assert asker is not None
    return card, question, asker


def gypsy(game: Play) -> Flow:
    """Asked every night while a séance card is left: a card, a question and its asker, or null."""
    seat = game.actor("gypsy")
    if seat is None or len(game.kept(Seances).used) >= CARDS:
        yield from game.idle("gypsy", Kind.SEANCE, optional=True)
        return
    chosen = yield game.ask("gypsy", Kind.SEANCE, actors=(seat,), optional=True, check=lambda v: _read(game, v))
    if chosen is not None:
        game.keep(Chosen(chosen))


ROLE = Gypsy()
CALLS = (CallSpec("gypsy", Kind.SEANCE, frozenset({"gypsy"}), gypsy),)
SEANCE = {"asker": Value.SEAT, "spirit": Value.SEAT, "card": Value.NUMBER, "question": Value.NUMBER}
FACTS = (FactSpec("seance.no_spirit", {"card": Value.NUMBER}),
         FactSpec("seance.read", {**SEANCE, "text": Value.TEXT}),
         FactSpec("seance.numbers", SEANCE))
"""The séance: its asker and spirit are seats, said as seats."""
