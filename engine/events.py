"""The New Moon's morning draw (新月牌, the Chinese article): the event cards turned one each morning.

"在每天早上醒来、宣布完受害者之后，主持人翻开牌堆的第一张牌，由最近死亡的玩家大声朗读牌上的内容": every morning, after
the victims, the narrator turns the top card of the pile and the player most recently eliminated reads it aloud
(with nobody eliminated yet, the narrator reads it alone). The table chooses the cards (``Rules.events``) among
those the seeds describe enough to play: the five séance cards and the two cards that start a variant. The pile's
order is the deal's (``Deal.events``: shuffled by the game's seed, or the host's), so a replay turns the same cards.

A séance card (招魂仪式): the player to the left of the most recently eliminated is the medium; the villagers join
hands, the medium reads every question of the card aloud and asks one of them to the first player eliminated, who
answers yes or no. Black Monday (黑色星期一) starts the chain of innocence, Sunshine (阳光普照) the Cult, from that
moment (``Play.begin_variant``: the state keeps it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .contract import AsSeat, FactSpec, Piece, Told, Value
from .role import Flow, Play, Role
from .state import Kept
from .table import Table
from .types import Fact, Kind
from .variants import VARIANTS, check_variants

SEANCES = tuple(f"seance_{n}" for n in range(1, 6))
"""The New Moon's five séance cards (the Gypsy's five: engine.roles.gypsy.CARDS), by number."""

STARTS: dict[str, str] = {"black_monday": "not_him", "sunshine": "cult"}
"""The event cards that start a variant (the Chinese article: '此规则也可通过新月事件卡"黑色星期一"发动', '或者通过新月事件卡
"阳光普照"发动'), with the variant each starts (engine/variants.py)."""

CARDS: dict[str, str] = {
    **{card: f"séance card {n} (招魂仪式): the medium, left of the last eliminated, asks the first eliminated one "
              "of its questions" for n, card in enumerate(SEANCES, start=1)},
    "black_monday": "Black Monday (黑色星期一): the vote is the chain of innocence from that day (not_him)",
    "sunshine": "Sunshine (阳光普照): the werewolves' victims are seduced from that night (cult)",
}
"""Every event card the morning draw plays, by name, with what it does."""


def check_table(table: Table) -> list[str]:
    """Returns what is wrong with the table's event cards: unknown, twice, séance cards the Gypsy holds, a variant a
    card starts that the table plays from the start or cannot play with its variants."""
    cards, rules = table.rules.events, table.rules
    errors = [f"events: unknown event card {card!r}; cards: {', '.join(CARDS)}" for card in cards if card not in CARDS]
    if len(set(cards)) != len(cards):
        errors.append("events: an event card is named twice")
    if "gypsy" in table.deck and any(card in SEANCES for card in cards):
        # '游戏开始前，主持人将从新月事件卡中拿出5张招魂仪式卡' (the Gypsy): her five séance cards leave the pile.
        errors.append("events: the Gypsy holds the five séance cards; the morning draw cannot turn them")
    for card in cards:
        variant = STARTS.get(card)
        if variant is None:
            continue
        if variant in rules.variants:
            errors.append(f"events: {card} starts {variant}, which the table plays from the start")
        elif variant in VARIANTS:
            errors += [f"events: {card} starts {variant}: {problem}"
                       for problem in check_variants([*rules.variants, variant])]
    return errors


def pile(game: Play) -> tuple[str, ...]:
    """Returns the cards in the order the draw turns them: the deal's (as the table lists them when the deal gives
    none), then the séance cards put back under the pile."""
    return (game.deal.events or game.rules.events) + game.kept(Pile).under


@dataclass(frozen=True)
class Pile(Kept):
    """How many cards the draw has turned, and the séance cards put back under the pile (no spirit yet)."""

    turned: int = 0
    under: tuple[str, ...] = ()


def morning(game: Play) -> Flow:
    """Turns the next card, if any is left (then nothing is drawn): its reader reads it aloud, then it takes
    effect."""
    cards, turned = pile(game), game.kept(Pile)
    if turned.turned >= len(cards):
        return
    card = cards[turned.turned]
    game.keep(Pile(turned.turned + 1, turned.under))
    # The most recently eliminated: the last announced, as the eliminations are recorded in the order they are
    # told (the dawn's in seat order), so that the reader tells nothing the table did not hear.
    reader = game.eliminated[-1].seat if game.eliminated else None
    drawn: dict[str, object] = {"card": card} if reader is None else {"card": card, "reader": reader}
    yield game.ask("event", Kind.NONE, facts=(Fact("event.drawn", drawn),))
    if card in STARTS:
        game.begin_variant(STARTS[card])
        game.fact(f"event.{card}")
    elif reader is None:
        # Ruling taken: with nobody eliminated there is no spirit to answer (as the Gypsy's séance waits); the card
        # goes back under the pile.
        game.keep(Pile(turned.turned + 1, turned.under + (card,)))
        game.fact("event.no_spirit")
    else:
        yield from seance(game, SEANCES.index(card) + 1, reader)


def seance(game: Play, card: int, recent: int) -> Flow:
    """The séance card ``card``: the medium, the living player to the left of ``recent``, reads its questions aloud
    and asks one to the first player eliminated (the spirit, as at the Gypsy's séance), who answers yes or no."""
    left = game.neighbours(recent)
    if not left:
        return
    values: dict[str, object] = {"medium": left[0], "recent": recent, "spirit": game.eliminated[0].seat,
                                 "card": card}
    texts = game.table.seance_cards
    if texts:
        values["questions"] = " ".join(texts[card - 1])
    yield game.ask("event_seance", Kind.NONE, facts=(Fact("event.seance", values),))


class Draw(Role):
    """Not a card: the morning draw. After the victims, the growl and the Gypsy's séance, before the buildings'
    morning and the Town Crier (the article's day order: the event cards come 4th)."""

    id = "events"

    def after_dawn(self, game: Play) -> Flow:
        return morning(game)


DRAW = Draw()


def _drawn(values: Mapping[str, object]) -> tuple[Told, ...]:
    card = str(values["card"])
    named = (Piece("event.card.seance", {"number": SEANCES.index(card) + 1}) if card in SEANCES
             else Piece(f"event.card.{card}"))
    reader = values.get("reader")
    if isinstance(reader, int):
        return (Told("event.drawn", {"card": named, "reader": AsSeat(reader)}),)
    return (Told("event.drawn_alone", {"card": named}),)


def _seance(values: Mapping[str, object]) -> tuple[Told, ...]:
    said: dict[str, object] = {name: AsSeat(int(str(values[name]))) for name in ("medium", "recent", "spirit")}
    said["card"] = values["card"]
    if "questions" in values:
        return (Told("event.seance_read", {**said, "questions": values["questions"]}),)
    return (Told("event.seance", said),)


FACTS = (FactSpec("event.drawn", {"card": Value.WORD, "reader": Value.SEAT}, words=tuple(CARDS), told=_drawn,
                  lines=("event.drawn", "event.drawn_alone", "event.card.seance",
                         *(f"event.card.{card}" for card in STARTS))),
         *(FactSpec(f"event.{card}") for card in STARTS),
         FactSpec("event.no_spirit"),
         FactSpec("event.seance", {"medium": Value.SEAT, "recent": Value.SEAT, "spirit": Value.SEAT,
                                   "card": Value.NUMBER, "questions": Value.TEXT}, told=_seance,
                  lines=("event.seance", "event.seance_read")))
"""The card turned and its reader, what a variant's card starts, the séance with no spirit, and the séance."""
