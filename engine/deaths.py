"""Deaths in two steps: mark the dying with a cause, then run their consequences depth-first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import variants
from .contract import FactSpec, Value
from .role import Flow
from .types import Elimination, Fact, Kind, Phase

if TYPE_CHECKING:
    from .game import Game

NIGHT_ORDER = ("rust", "werewolves", "big_bad_wolf", "white_werewolf", "poison")
"""The night's causes in the order the night deals them (the rust at nightfall, then the calls): a player killed
twice is reported with the first (rulings.md); other causes (the fire) follow, as they came. Never the order the
dead are announced in: that is the seats' order, or the table would learn which death was the Witch's."""

NIGHT_CAUSES = frozenset(NIGHT_ORDER)


def death_fact(game: "Game", seat: int, key: str, cause: str | None = None) -> Fact:
    """Returns the public announcement of an elimination; the card only if the table reveals roles."""
    role = game.card(seat) if game.rules.reveal_roles else None
    values: dict[str, object] = {"seat": seat, "role": role}
    if cause is not None:
        values["cause"] = cause
    return Fact(key, values)


def mark(game: "Game", seat: int, cause: str, phase: Phase | None = None) -> bool:
    """Marks ``seat`` eliminated by ``cause`` and records it; False if already out of the game."""
    player = game.players[seat - 1]
    if not player.alive:
        return False
    player.alive = False
    game._living = None
    game.version += 1
    game.eliminated.append(Elimination(seat, player.card, phase or game.phase, game.number, cause))
    return True


def consequences(game: "Game", seat: int, cause: str) -> Flow:
    """Runs what an elimination sets off, in the hooks' order: grief, the shot, the successor."""
    for role in game.hooked["on_death"]:
        yield from role.on_death(game, seat, cause)


def kill(game: "Game", seat: int, cause: str) -> Flow:
    """Eliminates one player now (a vote, a shot, grief) and runs the consequences, depth-first."""
    if not game.alive(seat):
        return
    if any(role.survives(game, seat, cause) for role in game.hooked["survives"]):
        return
    mark(game, seat, cause)
    game._facts.append(death_fact(game, seat, "death", cause))
    if variants.by_candlelight(game):
        game._facts.append(variants.candles([seat]))
    for role in game.hooked["on_mark"]:
        role.on_mark(game, seat, cause)
    yield from consequences(game, seat, cause)


def dawn(game: "Game") -> Flow:
    """Reveals the night's victims together, in seat order, then runs each one's consequences in that order."""
    if game.variant("moonlight_wolves"):
        yield from variants.candles_out(game)
    rank = {cause: i for i, cause in enumerate(NIGHT_ORDER)}
    news: tuple[Fact, ...] = ()
    for role in game.hooked["before_dawn"]:
        news += role.before_dawn(game)
    causes: dict[int, str] = {}
    for seat, cause in sorted(game.attacks, key=lambda a: rank.get(a[1], len(rank))):
        if not game.alive(seat) or seat in causes:
            continue  # killed twice: the first cause in night order is the one reported
        if any(role.survives(game, seat, cause) for role in game.hooked["survives"]):
            continue
        if cause in variants.SEDUCING and game.variant("cult"):
            variants.seduce(game, seat)  # the Cult: seduced, not killed; nothing is said
            continue
        causes[seat] = cause
    # Seat order, for the announcement, the record and the consequences alike: the order of the causes would
    # tell the table which death was the poison (rulings.md, "Deaths").
    victims = sorted(causes.items())
    for seat, cause in victims:
        mark(game, seat, cause, Phase.NIGHT)
    game.attacks = []
    told = tuple(death_fact(game, seat, "victim") for seat, _ in victims) or (Fact("no_victim"),)
    if victims and variants.by_candlelight(game):
        # Moonlight: 'each morning the narrator blows out the candle before each victim' — said after the
        # victims, public. Every victim of the night, whatever the cause, or the candles would tell the cause.
        told += (variants.candles([seat for seat, _ in victims]),)
    if game.variant("moonlight_wolves"):
        told += (Fact("moonlight.relight"),)  # a victim spared keeps their place in the light
    yield game.ask("dawn", Kind.NONE, facts=news + told)
    for seat, cause in victims:
        for role in game.hooked["on_mark"]:
            role.on_mark(game, seat, cause)
    for seat, cause in victims:
        yield from consequences(game, seat, cause)


DEATH = {"seat": Value.SEAT, "role": Value.ROLE_OR_NONE}
SAID_CAUSES = ("vote", "grief", "hunter", "scapegoat", "barber", "execution", "cult", "scapegoat_neighbour")
"""The causes of a death by day said in words of their own ("The Hunter's shot eliminates..."); any other is said
as an elimination. The night's are never said: its victims are told at dawn without their cause."""
FACTS = (FactSpec("victim", DEATH, lines=("dawn.victim", "dawn.victim_hidden")),
         FactSpec("no_victim", lines=("dawn.no_victim",)),
         FactSpec("death", {**DEATH, "cause": Value.TEXT}, words=SAID_CAUSES,
                  lines=("death.other", "death.other_hidden",
                         *(f"death.{c}{h}" for c in SAID_CAUSES for h in ("", "_hidden")))))
"""The dawn's victims (the card shown when the table reveals cards: else the line's _hidden), and the day's deaths,
said in words of their cause's own when it is one of ``words``."""
