"""The variants of the Chinese article (变体规则) a narrator-less table can play.

A table picks any of them (``Rules.variants``). Each is a provider of hooks, like a character's card
(``RULES``, at the end): the game asks the variants played at the same hooks as the characters, after
them; a few characters ask ``game.variant(name)`` for what the variant changes of their own power (the
Harvest's). What they need of their own (the chain of innocence, the graffiti, the candles, the Cult's
victory) lives here. A random draw (the plague's victim, the graffiti's reader,
the chain's first player) is a call of kind DRAW: the narrator's program draws the answer and the
journal keeps it, so that a replay is exact and the engine stays free of randomness.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generator

from . import answers, deaths, victory
from .contract import FactSpec, Value
from .role import Flow, Play, Role
from .state import Kept
from .types import Answer, Call, Fact, IllegalAnswer, Kind, Tally, Team
from .votes import settle

VARIANTS: dict[str, str] = {
    "moonlight": "月光: a candle before every player; the narrator has the candle of each player eliminated "
                 "blown out",
    "moonlight_wolves": "月光, the option: the werewolves blow out their victim's candle themselves; when more than "
                        "one candle went out in the night, the werewolves have no victim",
    "not_him": "'whatever he is, he is not him': the vote is the chain of innocence; the last standing is "
               "eliminated",
    "graffiti": "墙上的涂鸦: before each nightfall, anonymous notes read aloud by a player drawn at random",
    "harvest": "米勒山谷收获季: werewolves devour a neighbour, the Hunter shoots one, the Guard protects himself "
               "or one, the Seer sees three cards shuffled, the Piper charms one, the Sheriff votes first, the "
               "Scapegoat dies for a neighbour, the Witch's one potion does what the tossed box says",
    "black_death": "黑死病: no werewolves; each night the program draws the victim; the players win by refusing "
                   "to vote (a vote for nobody), else all die",
    "cult": "狼人崇拜: the werewolves' victim is seduced instead of killed and loses their power; a seduced "
            "player eliminated by the vote takes every seduced player along; the werewolves win when one "
            "villager alone is not seduced",
}
"""Every variant by name, with what it changes."""

INCOMPATIBLE: dict[frozenset[str], str] = {
    frozenset({"black_death", "cult"}): "the Black Death has no werewolves to seduce anyone",
    frozenset({"black_death", "moonlight_wolves"}): "the Black Death has no werewolves to blow out a candle",
    frozenset({"black_death", "not_him"}): "the Black Death ends when the village refuses to vote, and the "
                                           "chain of innocence always eliminates someone",
}
"""Pairs of variants a table cannot play together, with why."""


def check_variants(names: tuple[str, ...] | list[str]) -> list[str]:
    """Returns what is wrong with a list of variant names (unknown, twice, incompatible).

    >>> check_variants(["moonlight", "cult"])
    []
    >>> check_variants(["cult", "black_death"])
    ['black_death and cult cannot be played together: the Black Death has no werewolves to seduce anyone']
    """
    errors = [f"unknown variant {name!r}; variants: {', '.join(VARIANTS)}" for name in names if name not in VARIANTS]
    if len(set(names)) != len(names):
        errors.append("a variant is named twice")
    chosen = set(names)
    for pair, why in INCOMPATIBLE.items():
        if pair <= chosen:
            first, second = sorted(pair)
            errors.append(f"{first} and {second} cannot be played together: {why}")
    return errors


# -- moonlight -------------------------------------------------------------------------------------

def candles(seats: list[int]) -> Fact:
    """The candles to blow out, said aloud right after the eliminations they follow (public)."""
    return Fact("moonlight.candles", {"seats": seats})


def by_candlelight(game: Play) -> bool:
    """Returns whether candles burn before the players (moonlight, or its option)."""
    return game.variant("moonlight") or game.variant("moonlight_wolves")


WOLVES_KILLS = frozenset({"werewolves", "big_bad_wolf", "white_werewolf"})
"""The night's kills that fail when more than one candle went out (Moonlight's option)."""


def candles_out(game: Play) -> Flow:
    """Moonlight's option, at dawn before the news: the table says whether more than one candle went out in
    the night (besides those of players already out of the game); if so, there is no victim at all that night
    (the Chinese article: 当晚没有受害者): the pack's, the Big Bad Wolf's and the White Werewolf's kills fail, and
    the poison, the Witch's own, still works. Asked every dawn, whatever the pack did, so that asking tells
    nothing."""
    many = yield game.ask("candles", Kind.YES_NO, check=answers.yes_no)
    if many:
        game.record(attacks=tuple(attack for attack in game.tonight.attacks if attack[1] not in WOLVES_KILLS))


# -- not_him: the chain of innocence ----------------------------------------------------------------

def chain(game: Play) -> Flow:
    """Replaces the vote: everyone stands; the player to the left of the last player the vote eliminated
    (clockwise, as Game.neighbours has it) vouches first, or, before any such elimination, a player drawn
    at random; the table reports the last one standing, who is eliminated as by the vote. A Barkeeper who keeps
    his token cannot be eliminated by the vote (Chinese: 也不会被投票处决): he sits down first, unasked (said aloud:
    the token is public), and the chain runs among the others."""
    living = game.living()
    standing = answers.nameable(game, living, "vote")
    sitting = tuple(Fact("chain.sits", {"seat": s}) for s in living if s not in standing)
    executed = [e.seat for e in game.eliminated if e.cause == "vote"]
    first: int | None = _left_of(game, executed[-1], standing) if executed else None
    if first is None:
        first = yield game.ask("chain_draw", Kind.DRAW, seats=standing,
                               check=lambda v: answers.seat(game, v, among=standing))
    last = yield game.ask("chain", Kind.SEAT, seats=standing, facts=(*sitting, Fact("chain.first", {"seat": first})),
                          check=lambda v: answers.named(game, answers.seat(game, v, among=living), "vote"))
    yield from settle(game, Tally(last))


def _left_of(game: Play, seat: int, standing: tuple[int, ...]) -> int | None:
    """Returns the nearest player of ``standing`` to the left (clockwise) of ``seat``, or None."""
    n = game.table.seats
    return next((s for s in ((seat + step - 1) % n + 1 for step in range(1, n)) if s in standing), None)


# -- graffiti -------------------------------------------------------------------------------------

def graffiti(game: Play) -> Flow:
    """Before nightfall: notes written and put face down in the centre; a player drawn at random shuffles
    and reads them aloud; the table confirms when every note is read."""
    living = game.living()
    yield game.ask("graffiti", Kind.NONE)
    reader = yield game.ask("graffiti_draw", Kind.DRAW, seats=living,
                            check=lambda v: answers.seat(game, v, among=living))
    game.fact("graffiti.reader", seat=reader)
    yield game.ask("graffiti_read", Kind.NONE)


# -- the Harvest's Witch: the box tossed ------------------------------------------------------------

TOSS: dict[str, str] = {
    "heal": "lid down, bottom down: heals the player",
    "villager": "lid down, bottom up: heals the player and makes them a simple villager",
    "werewolf": "lid up, bottom down: heals the player and makes them a werewolf",
    "poison": "lid up, bottom up: poisons the player",
}
"""The four ways the box falls, by the answer a journal keeps for them (the Harvest, 米勒山谷收获季)."""

CHANGED = ("villager", "werewolf")
"""The outcomes that change the player: they are woken, alone, to learn it (the call witch_touched)."""


def _toss(value: Answer) -> str:
    if not isinstance(value, str) or value not in TOSS:
        raise IllegalAnswer(f"expected how the box fell ({', '.join(TOSS)}), got {value!r}", key="refusal.shape")
    return value


@dataclass(frozen=True)
class Box(Kept):
    """The Harvest's Witch: whether her one potion, the box, is spent; a new Witch (the Servant's) has it again."""

    card = "witch"
    renewed = True
    spent: bool = False


def _not_herself(game: Play, witch: int, value: Answer) -> int | None:
    """Reads the player the Harvest's Witch names: the box may poison, and she may never poison herself, so she
    names another player (refused on the screen, as her self-poison is)."""
    seat = answers.seat(game, value, optional=True)
    if seat == witch:
        raise IllegalAnswer("the Witch cannot name herself: the box may poison", key="refusal.self", secret=True)
    return seat


def harvest_witch(game: Play) -> Flow:
    """The Harvest: the Witch has one potion in the whole game; shown the werewolves' victim, she names a
    player (or nobody), and the program tosses the box (a draw, journaled) to decide what the potion does.
    Three calls every night, whatever she did, so that the voice tells nothing: hers, the toss (she looks
    at the screen: the outcome is hers alone), and the player the potion changed (asleep when it changed
    nobody), who learns it on the screen."""
    seat = game.actor("witch")
    if seat is None or game.kept(Box).spent:
        yield from game.idle("witch", Kind.SEAT, optional=True)
        yield from game.idle("witch_toss", Kind.DRAW)
        yield from game.idle("witch_touched", Kind.NONE)
        return
    victim: int | None = game.tonight.victim
    witch = seat
    target = yield game.ask("witch", Kind.SEAT, actors=(seat,), optional=True,
                            facts=(Fact("victim_shown", {"seat": victim, "potions": ["box"]}, secret=True),),
                            check=lambda v: _not_herself(game, witch, v))
    if target is None:
        # A pass: the toss and the waking are made all the same, for nobody (whatever call_dead says).
        yield game.ask("witch_toss", Kind.DRAW, live=False, seats=())
        yield game.ask("witch_touched", Kind.NONE, live=False)
        return
    outcome = yield game.ask("witch_toss", Kind.DRAW, actors=(seat,), seats=(), options=tuple(TOSS),
                             check=_toss)
    game.keep(Box(spent=True))
    game.fact("harvest.toss", secret=True, outcome=outcome, seat=target)
    if outcome == "poison":
        game.attack(target, "poison")
    else:
        # Every other face heals: like the Witch's heal, it cancels the werewolves' attack on the player.
        game.spare(target, "werewolves")
        if outcome == "villager":
            # A simple villager from now on: no power, and the village's side even for a werewolf card. An
            # infection before is undone (an infection after wins: game.side() looks at it first).
            game.unmark(target, "infected")
            game.mark(target, "simple_villager")
        elif outcome == "werewolf":
            # Exactly the Infected Father's infection: a werewolf, waking with the pack from the next night.
            game.mark(target, "infected")
    if outcome in CHANGED:
        yield game.ask("witch_touched", Kind.NONE, actors=(target,),
                       facts=(Fact("harvest.touched", {"outcome": outcome}, secret=True),))
    else:
        yield game.ask("witch_touched", Kind.NONE, live=False)


# -- black_death ----------------------------------------------------------------------------------

def plague(game: Play) -> Flow:
    """The werewolves' call, made as usual, with nobody awake: the program draws the victim among the living
    (the narrator does not say the variant is played, so the night sounds like any other)."""
    living = game.living()
    victim = yield game.ask("werewolves", Kind.DRAW, seats=living,
                            check=lambda v: answers.seat(game, v, among=living))
    game.record(victim=victim)
    game.attack(victim, "werewolves")


@dataclass(frozen=True)
class Refused(Kept):
    """The Black Death: whether the village refused to vote, having seen through it (its win)."""

    decides = True  # the village's win
    refused: bool = False


def refuse_to_vote(game: Play) -> None:
    """The whole village refuses to vote (a vote for nobody): the players have seen through the Black Death."""
    game.keep(Refused(True))


# -- cult -----------------------------------------------------------------------------------------

SEDUCING = frozenset({"werewolves", "big_bad_wolf"})
"""The attacks that seduce instead of killing under the Cult: the pack's victim and the Big Bad Wolf's."""


def seduce(game: Play, seat: int) -> None:
    """The victim loses their special power and is seduced; nothing is said, nobody wakes."""
    game.mark(seat, "seduced")


def seduced_fall(game: Play, seat: int) -> Flow:
    """A seduced player eliminated by the vote takes every seduced player along, at once."""
    if not game.marked(seat, "seduced"):
        return
    if not any(e.seat == seat and e.cause == "vote" for e in game.eliminated):
        return
    others = [s for s in game.living() if game.marked(s, "seduced")]
    for other in others:
        yield from deaths.kill(game, other, "cult")


def cult_won(game: Play) -> bool:
    """The werewolves win when one living villager at most is not seduced, a member of their team who wins with it
    still lives (not a werewolf in love with a villager, who has left it), and the White Werewolf does not (while he
    lives the werewolves have not won, docs/rules.md: counted as one of them, he left the werewolves a win with no
    winner; so did a werewolf lover)."""
    living = game.living()
    members = victory.side_winners(game, Team.WEREWOLVES)
    wolves = sum(1 for s in living if s in members)
    white = any(game.side(s) is Team.WHITE_WEREWOLF for s in living)
    free = sum(1 for s in living if not game.is_werewolf(s) and not game.marked(s, "seduced"))
    return wolves > 0 and not white and free <= 1


FACTS = (FactSpec("moonlight.candles", {"seats": Value.SEATS}), FactSpec("moonlight.wolves"),
         FactSpec("moonlight.relight"), FactSpec("chain.first", {"seat": Value.SEAT}),
         FactSpec("chain.sits", {"seat": Value.SEAT}),
         FactSpec("graffiti.reader", {"seat": Value.SEAT}), FactSpec("harvest.sheriff_first", {"seat": Value.SEAT}),
         FactSpec("harvest.toss", {"outcome": Value.WORD, "seat": Value.SEAT}, secret=True, by="outcome",
                  words=tuple(TOSS)),
         FactSpec("harvest.touched", {"outcome": Value.WORD}, secret=True, by="outcome", words=CHANGED))
"""What the variants tell: by candlelight, the chain of innocence, the graffiti, the Harvest."""


# -- the variants as providers of hooks ------------------------------------------------------------

class Variant(Role):
    """A variant's part in the game: its hooks run after every character's (death_order), like an office's."""

    death_order = 100


class Moonlight(Variant):
    id = "moonlight"

    def death_news(self, game: Play, seats: list[int], dawn: bool) -> tuple[Fact, ...]:
        # 'each morning the narrator blows out the candle before each victim': said after the victims, public.
        # Every victim, whatever the cause, or the candles would tell the cause.
        return (candles(seats),) if seats else ()


class MoonlightWolves(Moonlight):
    id = "moonlight_wolves"

    def at_dawn(self, game: Play) -> Flow:
        return candles_out(game)

    def death_news(self, game: Play, seats: list[int], dawn: bool) -> tuple[Fact, ...]:
        told = () if game.variant("moonlight") else super().death_news(game, seats, dawn)  # candles told once
        return told + (Fact("moonlight.relight"),) if dawn else told  # a victim spared keeps their place in the light


class NotHim(Variant):
    id = "not_him"

    def instead_of_vote(self, game: Play) -> Generator[Call, Any, bool]:
        yield from chain(game)
        return True


class Graffiti(Variant):
    id = "graffiti"

    def at_dusk(self, game: Play) -> Flow:
        return graffiti(game)


class Harvest(Variant):
    id = "harvest"

    def vote_facts(self, game: Play) -> tuple[Fact, ...]:
        if game.sheriff is not None and game.alive(game.sheriff):
            return (Fact("harvest.sheriff_first", {"seat": game.sheriff}),)  # 'the Sheriff votes before all'
        return ()


class BlackDeath(Variant):
    """The Black Death: until everyone is dead, unless the village refused to vote."""

    id = "black_death"
    win_name = "village"

    def on_vote(self, game: Play, tally: Tally) -> Generator[Call, Any, Tally]:
        # 'the players win when all refuse to vote'. Ruling taken: a vote for nobody is that refusal; the voice
        # says nothing of the variant until the end.
        if tally.seat is None and not tally.tied:
            refuse_to_vote(game)
        return tally
        yield  # pragma: no cover  (makes this a generator)

    def holds_victory(self, game: Play) -> bool:
        return True

    def victory(self, game: Play) -> tuple[int, ...] | None:
        return tuple(p.seat for p in game.players) if game.kept(Refused).refused else None


class Cult(Variant):
    id = "cult"
    win_name = "werewolves"
    win_order = 100  # after every character's goal

    def survives(self, game: Play, seat: int, cause: str) -> bool:
        if cause in SEDUCING:
            seduce(game, seat)  # seduced, not killed; nothing is said
            return True
        return False

    def voted_out(self, game: Play, seat: int) -> Flow:
        return seduced_fall(game, seat)

    def victory(self, game: Play) -> tuple[int, ...] | None:
        return victory.side_winners(game, Team.WEREWOLVES) if cult_won(game) else None


RULES: dict[str, Role] = {rule.id: rule for rule in (Moonlight(), MoonlightWolves(), NotHim(), Graffiti(), Harvest(),
                                                     BlackDeath(), Cult())}
"""Every variant's provider of hooks, by name: the registry the game takes the table's variants from."""
