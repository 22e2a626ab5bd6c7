"""The table: seats, the deck, the house rules, presets and the deal."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import KW_ONLY, dataclass, field, fields
from typing import Sequence, TypeVar

from .order import INTERVALS, PROFILES

T = TypeVar("T")

MIN_SEATS = 6
MAX_SEATS = 47

# The French rules' deck table, column by column: 6 to 18 players, the
# "advanced" detail of the villagers. Where its "Villageois" total disagrees
# with the detail (17 players: 13 against 12), the detail is taken, since it
# adds up to the number of players. With the Thief, two simple villagers are
# added as his centre cards.
_CLASSIC: dict[int, dict[str, int]] = {
    6: {"werewolf": 2, "seer": 1, "villager": 3},
    7: {"werewolf": 2, "seer": 1, "villager": 4},
    8: {"werewolf": 2, "seer": 1, "villager": 5},
    9: {"werewolf": 2, "seer": 1, "villager": 4, "cupid": 1, "hunter": 1},
    10: {"werewolf": 2, "seer": 1, "villager": 4, "little_girl": 1, "cupid": 1, "hunter": 1},
    11: {"werewolf": 2, "seer": 1, "villager": 5, "cupid": 1, "hunter": 1, "witch": 1},
    12: {"werewolf": 3, "seer": 1, "villager": 4, "little_girl": 1, "cupid": 1, "hunter": 1, "thief": 1},
    13: {"werewolf": 3, "seer": 1, "villager": 5, "cupid": 1, "hunter": 1, "witch": 1, "thief": 1},
    14: {"werewolf": 3, "seer": 1, "villager": 6, "little_girl": 1, "cupid": 1, "hunter": 1, "thief": 1},
    15: {"werewolf": 3, "seer": 1, "villager": 7, "cupid": 1, "hunter": 1, "witch": 1, "thief": 1},
    16: {"werewolf": 3, "seer": 1, "villager": 7, "little_girl": 1, "cupid": 1, "hunter": 1,
         "witch": 1, "thief": 1},
    17: {"werewolf": 4, "seer": 1, "villager": 7, "little_girl": 1, "cupid": 1, "hunter": 1,
         "witch": 1, "thief": 1},
    18: {"werewolf": 4, "seer": 1, "villager": 8, "little_girl": 1, "cupid": 1, "hunter": 1,
         "witch": 1, "thief": 1},
}
PRESETS = {"classic": _CLASSIC}
"""Deck presets by name, then by number of players."""


def preset(name: str, seats: int) -> tuple[str, ...]:
    """Returns the deck of a preset for a number of players, the Thief's two cards included.

    >>> preset("classic", 8)
    ('werewolf', 'werewolf', 'seer', 'villager', 'villager', 'villager', 'villager', 'villager')
    >>> len(preset("classic", 12))
    14
    """
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; presets: {', '.join(sorted(PRESETS))}")
    column = PRESETS[name].get(seats)
    if column is None:
        known = sorted(PRESETS[name])
        raise ValueError(f"preset {name!r} has no column for {seats} players "
                         f"(it covers {known[0]} to {known[-1]})")
    deck = [role for role, n in column.items() for _ in range(n)]
    if "thief" in column:
        deck += ["villager", "villager"]
    return tuple(deck)


def _rule(default: T, help: str, *, choices: Sequence[T] = (), bounds: tuple[int, int] | None = None) -> T:
    """Declares a house rule: a Rules field with its default, what it changes (``help``: the documentation's words,
    `code` in backquotes) and the values it takes (``choices``, or whole numbers within ``bounds``; a true or false
    field takes either). The table config, `check --help` and docs/table-config.md's table all read this declaration."""
    return field(default=default, metadata={"help": help, "choices": tuple(choices), "bounds": bounds})


@dataclass(frozen=True)
class Rules:
    """The house rules a table may change; each default is the rulebook's.

    Each field declares itself with ``_rule``: what it changes is its help. Rulings taken where the seeds are
    silent: a vote may end with nobody by default, as docs/rules.md lets the table report; an infected Piper keeps
    no power by default, as his own paragraph in the Best Of says ("he becomes a Simple Werewolf"), over the
    Infected Father's general "they keep their night power"; the White Werewolf at interval 1 wakes on night 1
    too; a revealed Idiot who dies with the Elder dies of "elder".
    """

    sheriff: bool = _rule(True, "elect a Sheriff (see `sheriff_elected`)")
    call_dead: bool = _rule(True, "call eliminated or powerless characters anyway, with the same words, their "
                                  "answer ignored")
    reveal_roles: bool = _rule(True, "reveal an eliminated player's card")
    sisters_wake: bool = _rule(False, "the Two Sisters wake again on even nights (as `sisters_interval: 2`)")
    profile: str = _rule("bestof", "the call order: `bestof` (the Best Of rulebook's) or `pact` (the Chinese "
                                   "article's complete order, with every expansion: the Fox follows the Seer, the "
                                   "lovers wake after the Fox)", choices=tuple(PROFILES))
    witch_potions: int = _rule(2, "the Witch's potions: `1` is the French rules' one-potion Witch (one potion in all, "
                                  "heal or poison)", choices=(1, 2))
    hunter_shoots_when_poisoned: bool = _rule(True, "the Hunter shoots even when poisoned (`false`: the Chinese "
                                                    "rules)")
    fox_loses_power_on_miss: bool = _rule(True, "the Fox loses his power when he finds no werewolf")
    cupid_wins_with_lovers: bool = _rule(False, "Cupid also wins when his lovers of mixed sides win")
    guard_same_twice: bool = _rule(False, "the Guard may protect the same player two nights running")
    guard_protects_little_girl: bool = _rule(False, "the Guard's protection covers the Little Girl")
    thief_must_take_werewolf: bool = _rule(True, "shown two werewolf cards, the Thief must take one")
    werewolves_may_eat_werewolves: bool = _rule(False, "the werewolves may devour one of their own")
    # The Sheriff, votes, calls and characters' house rules (issue 6).
    sheriff_elected: str = _rule("start", "when the Sheriff is elected: `start` (before the first night) or "
                                          "`first_day` (on the first day, after the night's news, before the vote)",
                                 choices=("start", "first_day"))
    sheriff_double_vote: bool = _rule(True, "the Sheriff's vote counts double")
    sheriff_breaks_ties: bool = _rule(True, "the Sheriff chooses among the tied (`false`: a second vote among the "
                                            "tied)")
    votes_may_be_skipped: bool = _rule(True, "a vote may end with nobody eliminated (`false`: null, or a roll call "
                                             "of abstentions, is refused; a second tie still eliminates nobody)")
    skip_idle_calls: bool = _rule(False, "skip every call with nothing to do: for the dead and powerless (as "
                                         "`call_dead: false`), and where passing is all the rules allow (the White "
                                         "Werewolf with no other werewolf, the Witch with no potion she may use); "
                                         "it gives secrets away")
    big_bad_wolf_loses_power: bool = _rule(True, "the Big Bad Wolf loses his second victim once a member of the "
                                                 "werewolf team is eliminated")
    white_werewolf_interval: int = _rule(INTERVALS["white_werewolf_interval"],
                                         "the White Werewolf wakes every N nights; 1: every night", bounds=(1, 10))
    sisters_interval: int = _rule(INTERVALS["sisters_interval"],
                                  "the Two Sisters wake again every N nights; 0: never, or every 2 with "
                                  "`sisters_wake`", bounds=(0, 10))
    brothers_interval: int = _rule(INTERVALS["brothers_interval"],
                                   "the Three Brothers wake again every N nights (the Chinese article: every other "
                                   "night); 0: never", bounds=(0, 10))
    servant_chooses_again: bool = _rule(True, "a Devoted Servant who takes Cupido's, the Wild Child's or the Wolf "
                                              "Hound's card makes that first-night choice again the next night (the "
                                              "Chinese article); `false`: she keeps the choice the card made")
    elder_lives: int = _rule(2, "the werewolf attacks it takes to kill the Elder", bounds=(1, 5))
    elder_revenge: bool = _rule(True, "killed by the village, the Elder takes the villagers' special powers")
    idiot_dies_with_elder: bool = _rule(False, "a revealed Village Idiot dies when the Elder's penalty strikes (the "
                                               "Chinese article's option)")
    infected_bear_tamer_growls: bool = _rule(True, "an infected Bear Tamer's bear growls every morning (`false`: "
                                                   "only for a werewolf neighbour)")
    wolf_hound_random: bool = _rule(False, "the Wolf Hound's side is drawn by the program, not chosen; he reads it "
                                           "on the screen (in a practice script, his answer is the draw)")
    piper_charms: int = _rule(2, "the players the Piper charms each night", bounds=(1, 3))
    piper_keeps_power_if_infected: bool = _rule(False, "an infected Piper still charms (his goal is lost all the "
                                                       "same; the rulebook: he becomes a simple werewolf)")
    town_crier: bool = _rule(False, "the Sheriff names a Town Crier, who announces the New Moon's event cards "
                                    "(needs `sheriff`)")
    # The variants of the Chinese article (engine/variants.py), by name, sorted: a tuple, so that the rules
    # stay hashable and a journal's list reads back the same. Which names exist is engine.variants' business.
    variants: tuple[str, ...] = _rule((), "the Chinese article's variants to play (see docs/rules.md, Variants)")
    # The New Moon's event cards turned each morning, by name (engine/events.py), in the table's order: the host's
    # order when `events_order` is `listed`, so never sorted.
    events: tuple[str, ...] = _rule((), "the New Moon's event cards the narrator turns, one each morning after the "
                                        "victims (the morning draw; see docs/rules.md, The New Moon's morning draw)")
    events_order: str = _rule("shuffled", "the morning draw's order: `shuffled` by the game's seed, or `listed`: "
                                          "the order `events` lists them in (the host's)",
                              choices=("shuffled", "listed"))

    def __post_init__(self) -> None:
        object.__setattr__(self, "variants", tuple(sorted(self.variants)))

    def intervals(self) -> dict[str, int]:
        """Returns the intervals of the call order's entries made every N nights (see engine.order)."""
        return {name: getattr(self, name) for name in INTERVALS}


@dataclass(frozen=True)
class HouseRule:
    """A house rule as Rules declares it: its name, its type (bool, int, str or tuple), its default, what it
    changes, and the values it takes (``choices``; or whole numbers within ``bounds``)."""

    name: str
    kind: type
    default: object
    help: str
    choices: tuple[object, ...] = ()
    bounds: tuple[int, int] | None = None


def house_rules() -> tuple[HouseRule, ...]:
    """Returns every house rule, in the order Rules declares them.

    >>> [(r.kind, r.default, r.bounds) for r in house_rules() if r.name == "elder_lives"]
    [(<class 'int'>, 2, (1, 5))]
    """
    return tuple(HouseRule(f.name, type(f.default), f.default, f.metadata["help"], f.metadata["choices"],
                           f.metadata["bounds"]) for f in fields(Rules))


@dataclass(frozen=True)
class Table:
    """The seats (1..N, clockwise), the whole deck (the Thief's centre cards included) and the rules.

    ``groups``: the two public groups the host splits the players into before the game, for the
    Prejudiced Manipulator (two tuples of seats covering every seat once); () without him.
    ``actor_cards``: the three face-up cards in the middle for the Actor (public). ``seance_cards``: the
    questions of the Gypsy's five séance cards, in the table's language, if the table gives them (public).
    ``buildings``: the Village's building tokens to deal, one a seat at most (public, unlike the cards).
    ``real_cards``: the players hold real cards (``deal: cards``), whose faces show what a card shows to all (the
    Villager-Villager's); else the program deals and the narrator says it.
    """

    seats: int
    deck: tuple[str, ...]
    rules: Rules = field(default_factory=Rules)
    _: KW_ONLY  # what a table adds to its deck is named, never placed
    groups: tuple[tuple[int, ...], ...] = ()
    actor_cards: tuple[str, ...] = ()
    seance_cards: tuple[tuple[str, ...], ...] = ()
    buildings: tuple[str, ...] = ()
    real_cards: bool = False


@dataclass(frozen=True)
class Deal:
    """Which card each seat holds (``roles[seat - 1]``), the Thief's two centre cards, which
    building token each seat holds (``(seat, token)`` pairs by seat; public), and the New Moon's event cards in
    the order the morning draw turns them (the table's ``Rules.events``, top first; none given: as the table lists
    them)."""

    roles: tuple[str, ...]
    centre: tuple[str, ...] = ()
    buildings: tuple[tuple[int, str], ...] = ()
    events: tuple[str, ...] = ()

    @property
    def seats(self) -> int:
        """Returns the number of seats dealt."""
        return len(self.roles)


MANIPULATOR = "prejudiced_manipulator"
"""The card that needs the table's two groups."""


def check_groups(seats: int, deck: Sequence[str], groups: Sequence[Sequence[int]]) -> list[str]:
    """Returns the errors of the Prejudiced Manipulator's two groups at a table of ``seats``.

    >>> check_groups(6, ["werewolf"], ())
    []
    >>> check_groups(6, [MANIPULATOR], ())
    ['the Prejudiced Manipulator plays: give the two groups of players (groups: [[1, 2, 3], [4, 5, 6]])']
    >>> check_groups(6, [MANIPULATOR], ((1, 2, 3), (4, 5)))
    ['the groups leave out seat 6: every seat is in one group']
    """
    if not groups:
        if MANIPULATOR in deck:
            half = seats // 2
            example = [list(range(1, half + 1)), list(range(half + 1, seats + 1))]
            return [f"the Prejudiced Manipulator plays: give the two groups of players (groups: {example})"]
        return []
    if len(groups) != 2 or not all(groups):
        return ["groups: give exactly two groups, neither empty"]
    errors: list[str] = []
    seen: Counter[int] = Counter(s for g in groups for s in g)
    bad = sorted(s for s in seen if not 1 <= s <= seats)
    if bad:
        errors.append(f"the groups name seats that are not at this table of {seats}: {bad}")
    twice = sorted(s for s, n in seen.items() if n > 1)
    if twice:
        errors.append(f"the groups name {'seat' if len(twice) == 1 else 'seats'} "
                      f"{', '.join(map(str, twice))} more than once: each seat is in one group")
    missing = sorted(set(range(1, seats + 1)) - set(seen))
    if missing:
        errors.append(f"the groups leave out {'seat' if len(missing) == 1 else 'seats'} "
                      f"{', '.join(map(str, missing))}: every seat is in one group")
    return errors


def deal_cards(table: Table, seed: int) -> Deal:
    """Shuffles the deck with ``seed`` and deals one card a seat; the rest go to the centre.

    >>> t = Table(6, ("werewolf", "werewolf", "seer", "villager", "villager", "villager"))
    >>> deal_cards(t, 7) == deal_cards(t, 7)
    True
    """
    cards = list(table.deck)
    random.Random(seed).shuffle(cards)
    return Deal(tuple(cards[: table.seats]), tuple(cards[table.seats:]), deal_buildings(table, seed),
                deal_events(table, seed))


def deal_buildings(table: Table, seed: int) -> tuple[tuple[int, str], ...]:
    """Deals the table's building tokens at random, at most one a seat, the same for the same ``seed``.

    >>> deal_buildings(Table(6, ("werewolf",) * 6, buildings=("baker", "farmer")), 3)
    ((1, 'farmer'), (6, 'baker'))
    """
    if not table.buildings:
        return ()
    rng = random.Random(f"buildings {seed}")  # its own stream: the cards dealt stay as they were
    seats = rng.sample(range(1, table.seats + 1), min(len(table.buildings), table.seats))
    return tuple(sorted(zip(seats, table.buildings)))


def deal_events(table: Table, seed: int) -> tuple[str, ...]:
    """Returns the New Moon's event cards in the order the morning draw turns them: shuffled with ``seed`` (its own
    stream, so that nothing a game does changes it), or as the table lists them (``events_order: listed``).

    >>> t = Table(6, ("werewolf",) * 6, Rules(events=("black_monday", "sunshine", "seance_1")))
    >>> deal_events(t, 3) == deal_events(t, 3), sorted(deal_events(t, 3)) == sorted(t.rules.events)
    (True, True)
    >>> deal_events(Table(6, ("werewolf",) * 6, Rules(events=("sunshine", "seance_1"), events_order="listed")), 3)
    ('sunshine', 'seance_1')
    """
    cards = list(table.rules.events)
    if table.rules.events_order == "shuffled":
        random.Random(f"events {seed}").shuffle(cards)
    return tuple(cards)
