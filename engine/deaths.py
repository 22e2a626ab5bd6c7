"""Deaths in two steps: mark the dying with a cause, then run their consequences depth-first."""

from __future__ import annotations

from typing import Mapping

from .contract import FactSpec, Told, Value
from .role import Flow, Play
from .types import Fact, Kind, Phase

NIGHT_ORDER = ("rust", "werewolves", "big_bad_wolf", "white_werewolf", "poison")
"""The night's causes in the order the night deals them (the rust at nightfall, then the calls): a player killed
twice is reported with the first (docs/rules.md); other causes (the fire) follow, as they came. Never the order the
dead are announced in: that is the seats' order, or the table would learn which death was the Witch's."""

NIGHT_CAUSES = frozenset(NIGHT_ORDER)


def death_fact(game: Play, seat: int, key: str, cause: str | None = None) -> Fact:
    """Returns the public announcement of an elimination; the card only if the table reveals roles."""
    role = game.card(seat) if game.rules.reveal_roles else None
    values: dict[str, object] = {"seat": seat, "role": role}
    if cause is not None:
        values["cause"] = cause
    return Fact(key, values)


def consequences(game: Play, seat: int, cause: str) -> Flow:
    """Runs what an elimination sets off, in the hooks' order: grief, the shot, the successor."""
    for role in game.hooked["on_death"]:
        yield from role.on_death(game, seat, cause)


def kill(game: Play, seat: int, cause: str) -> Flow:
    """Eliminates one player now (a vote, a shot, grief) and runs the consequences, depth-first."""
    if not game.alive(seat):
        return
    if any(role.survives(game, seat, cause) for role in game.hooked["survives"]):
        return
    game.kill(seat, cause)
    game.tell(death_fact(game, seat, "death", cause))
    for rule in game.hooked["death_news"]:
        for fact in rule.death_news(game, [seat], False):
            game.tell(fact)
    for role in game.hooked["on_mark"]:
        role.on_mark(game, seat, cause)
    yield from consequences(game, seat, cause)


def dawn(game: Play) -> Flow:
    """Reveals the night's victims together, in seat order, then runs each one's consequences in that order."""
    for rule in game.hooked["at_dawn"]:
        yield from rule.at_dawn(game)
    rank = {cause: i for i, cause in enumerate(NIGHT_ORDER)}
    news: tuple[Fact, ...] = ()
    for role in game.hooked["before_dawn"]:
        news += role.before_dawn(game)
    causes: dict[int, str] = {}
    also: dict[int, list[str]] = {}  # a player killed twice: the later causes, each counting for what it triggers
    for seat, cause in sorted(game.tonight.attacks, key=lambda a: rank.get(a[1], len(rank))):
        if not game.alive(seat):
            continue
        if any(role.survives(game, seat, cause) for role in game.hooked["survives"]):
            continue
        if seat in causes:
            also.setdefault(seat, []).append(cause)  # killed twice: the first cause in night order is reported
        else:
            causes[seat] = cause
    # Seat order, for the announcement, the record and the consequences alike: the order of the causes would
    # tell the table which death was the poison (docs/rules.md, "Deaths").
    victims = sorted(causes.items())
    for seat, cause in victims:
        game.kill(seat, cause, Phase.NIGHT)
    game.record(attacks=())
    told = tuple(death_fact(game, seat, "victim") for seat, _ in victims) or (Fact("no_victim"),)
    for rule in game.hooked["death_news"]:
        told += rule.death_news(game, [seat for seat, _ in victims], True)  # Moonlight's candles
    yield game.ask("dawn", Kind.NONE, facts=news + told)
    for seat, cause in victims:
        for each in (cause, *also.get(seat, ())):  # the Elder devoured and poisoned costs the powers (docs/rules.md)
            for role in game.hooked["on_mark"]:
                role.on_mark(game, seat, each)
    for seat, cause in victims:
        yield from consequences(game, seat, cause)


DEATH = {"seat": Value.SEAT, "role": Value.ROLE_OR_NONE}
SAID_CAUSES = ("vote", "grief", "hunter", "scapegoat", "barber", "execution", "cult", "scapegoat_neighbour")
"""The causes of a death by day said in words of their own ("The Hunter's shot eliminates..."); any other is said
as an elimination. The night's are never said: its victims are told at dawn without their cause."""


def _victim(values: Mapping[str, object]) -> tuple[Told, ...]:
    return (Told("dawn.victim" if values.get("role") else "dawn.victim_hidden", values),)


def _death(values: Mapping[str, object]) -> tuple[Told, ...]:
    cause = values.get("cause", "other")
    line = f"death.{cause}" if cause in SAID_CAUSES else "death.other"
    said = {name: value for name, value in values.items() if name != "cause"}
    return (Told(line if values.get("role") else f"{line}_hidden", said),)


FACTS = (FactSpec("victim", DEATH, lines=("dawn.victim", "dawn.victim_hidden"), told=_victim),
         FactSpec("no_victim", lines=("dawn.no_victim",)),
         FactSpec("death", {**DEATH, "cause": Value.TEXT}, told=_death,
                  lines=("death.other", "death.other_hidden",
                         *(f"death.{c}{h}" for c in SAID_CAUSES for h in ("", "_hidden")))))
"""The dawn's victims (the card shown when the table reveals cards: else the line's _hidden), and the day's deaths,
said in words of their cause's own when it is one of SAID_CAUSES (else as an elimination)."""
