"""A game: the state of the village and the flow of calls, driven by answers.

The flow is a generator that yields each ``Call`` and receives its checked
answer. The journal of answers is the source of truth: a game is rebuilt by
replaying the table, the deal and the journal, and undo is that replay without
the last answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any, Callable, Iterable, Sequence

from . import crier, deaths, sheriff, variants, victory, village, votes
from .order import night_calls
from .role import HOOKS, CallSpec, Flow, Role
from .roles import CALLS, ROLES
from .table import Deal, Table, check_deck, check_extras, check_groups
from .types import Answer, Call, Elimination, Fact, IllegalAnswer, Kind, Outcome, Phase, Step, Team

_CALLS: dict[str, CallSpec] = {**CALLS, **{spec.id: spec for spec in village.CALLS}}
"""Every night call: the characters' and the Village buildings' (the Baker)."""


@lru_cache(maxsize=256)
def _order(calls: tuple[str, ...], deck: frozenset[str]) -> tuple[CallSpec, ...]:
    return tuple(_CALLS[i] for i in calls if i in _CALLS and not _CALLS[i].roles.isdisjoint(deck))


SKIP = object()
"""Not a pass: the call has something to do (see Game._passing)."""

PASSES: tuple[Answer, ...] = (None, False, {"heal": False, "poison": None})
"""The answers that do nothing: no one, no, no potion."""

DEATH_HOOKS = frozenset({"survives", "on_mark", "on_death", "ballot", "on_vote", "condemned"})
"""The hooks the Sheriff's office (not a card) also answers, in death order; the others go in deck order."""


@lru_cache(maxsize=256)
def _checked_deck(seats: int, deck: tuple[str, ...], chosen: tuple[str, ...]) -> tuple[list[str], list[str]]:
    return check_deck(seats, deck, chosen) if chosen else check_deck(seats, deck)


class GameOver(Exception):
    """Raised inside the flow the instant a side has won (the Angel needs no further step)."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.winner)
        self.outcome = outcome


@dataclass
class Player:
    """A seat at the table: the card it holds now, whether it is alive, and its marks
    (``infected``, ``charmed``, ``turned``, ``simple_villager``, ...)."""

    seat: int
    card: str
    alive: bool = True
    marks: set[str] = field(default_factory=set)


class Game:
    """A game of The Werewolves of Miller's Hollow, from the deal to the outcome.

    >>> from engine import Table, Deal, Rules
    >>> table = Table(6, ("werewolf", "werewolf", "seer", "villager", "villager", "villager"),
    ...               Rules(sheriff=False))
    >>> game = Game(table, Deal(("werewolf", "seer", "villager", "werewolf", "villager", "villager")))
    >>> game.call.id, game.call.phase.value, game.call.number
    ('nightfall', 'night', 1)
    >>> _ = game.answer(None)
    >>> game.call.id, game.call.actors
    ('seer', (2,))
    >>> step = game.answer(1)
    >>> step.facts[0].key, dict(step.facts[0].values)
    ('seer.sees', {'seat': 1, 'role': 'werewolf'})
    >>> game.answer(4)
    Traceback (most recent call last):
    ...
    engine.types.IllegalAnswer: seat 4 is a werewolf
    """

    def __init__(self, table: Table, deal: Deal, answers: Iterable[Answer] = ()) -> None:
        # The table first (its deck, and what the deck needs from it), then the deal against it.
        errors = (_checked_deck(table.seats, table.deck, table.rules.variants)[0] + check_extras(table)
                  + variants.check_variants(table.rules.variants)
                  + check_groups(table.seats, table.deck, table.groups)
                  + village.check_buildings(table.seats, table.buildings))
        if errors:
            raise ValueError("; ".join(errors))
        if deal.seats != table.seats or sorted(deal.roles + deal.centre) != sorted(table.deck):
            raise ValueError("the deal does not match the table's deck")
        dealt = [s for s, _ in deal.buildings]
        if (sorted(t for _, t in deal.buildings) != sorted(table.buildings) or len(set(dealt)) != len(dealt)
                or not all(1 <= s <= table.seats for s in dealt)):
            raise ValueError("the buildings dealt do not match the table's buildings (one a seat at most)")
        self.table = table
        self.deal = deal
        self.rules = table.rules
        self.players = [Player(i + 1, card) for i, card in enumerate(deal.roles)]
        self._dealt: dict[str, list[int]] = {}  # card -> seats holding it; give() keeps it current
        for p in self.players:
            self._dealt.setdefault(p.card, []).append(p.seat)
        self.centre = list(deal.centre)
        self.in_deck = frozenset(table.deck)
        self.variants = frozenset(table.rules.variants)
        self.tokens: dict[int, str] = dict(deal.buildings)  # seat -> building token held now (public)
        self.spent: set[int] = set()  # seats whose token's power is spent or lost (the house kept)
        self.middle: list[str | None] = list(table.actor_cards)  # the Actor's cards; None: taken
        self.lent: dict[str, int] = {}  # card -> the Actor's seat, while he has that card's power
        # What plays: the deck, the Actor's cards (he may hold their power), the buildings.
        self._called = self.in_deck | frozenset(table.actor_cards) | frozenset(self.tokens.values())
        in_order = ([r for r in ROLES.values() if r.id in self._called]
                    + ([village.HOLDINGS] if self.tokens else []))
        # The Black Death's plague is the werewolves' call with nobody awake: it is made as if they played.
        self._calling = self._called | {"werewolf"} if self.variant("black_death") else self._called
        offices: list[Role] = [sheriff.OFFICE] if self.rules.sheriff else []
        if self.rules.sheriff and self.rules.town_crier:
            offices.append(crier.OFFICE)
        hooks: list[Role] = in_order + offices
        self.hooks: tuple[Role, ...] = tuple(sorted(hooks, key=lambda r: r.death_order))
        self.roles_in_deck: tuple[Role, ...] = tuple(in_order)
        # Per hook, only the roles that override it: most roles have nothing to say at most hooks,
        # and asking them all, at every death and every night, is most of a game's work.
        self.hooked: dict[str, tuple[Role, ...]] = {
            name: tuple(r for r in (self.hooks if name in DEATH_HOOKS else self.roles_in_deck)
                        if name in r.overrides)
            for name in HOOKS}
        if crier.OFFICE in offices:  # the Crier speaks after every card's morning (day order 4.)
            self.hooked["after_dawn"] += (crier.OFFICE,)
        self.goals: tuple[Role, ...] = tuple(sorted((r for r in in_order if r.win_name), key=lambda r: r.win_order))
        self.phase = Phase.DAY
        self.number = 0
        self.night = 0
        self.sheriff: int | None = None
        self.penalty = False  # the villagers' special powers are lost (the Elder's penalty)
        self.used: set[str] = set()  # spent one-shot powers ("witch.heal", "infected_father", ...)
        self.links: dict[str, tuple[int, ...]] = {}  # lovers, role model, the Knight's doomed werewolf
        self.choices: dict[str, str] = {}  # the Wolf Hound's side
        self.counters: dict[str, int] = {}  # the Elder's lives
        self.tonight: dict[str, Any] = {}  # what the running night decided (the pack, its victim)
        self.attacks: list[tuple[int, str]] = []  # tonight's deaths in the making: (seat, cause)
        self.doomed: set[int] = set()  # dead by the rust at nightfall, announced at dawn
        self.eliminated: list[Elimination] = []
        self._living: tuple[int, ...] | None = None  # cache; deaths.mark clears it
        self.version = 0  # bumped by every change that can decide victory
        self.sides_version = 0  # bumped by every change of a player's side (marks, choices, cards)
        self._checked = -1
        self._orders: dict[int, tuple[CallSpec, ...]] = {}
        self._sides: list[Team] = []  # cache of side() for every seat, valid at version _sides_at
        self._wolves: list[bool] = []  # cache of is_werewolf(), likewise
        self._sides_at = -1
        self.calls: list[Call] = []
        self.journal: list[Answer] = []
        self._answered: list[bool] = []  # which journal entries were answers, not confirmations
        self.outcome: Outcome | None = None
        self._facts: list[Fact] = []
        self._call: Call | None = None
        self._flow = self._play()
        self._advance(None, first=True)
        for value in answers:
            self.answer(value)

    # -- driving the game -------------------------------------------------

    @property
    def call(self) -> Call | None:
        """Returns the call waiting for an answer, or None once the game is over."""
        return self._call

    @property
    def over(self) -> bool:
        """Returns whether the game has ended."""
        return self.outcome is not None

    def check(self, value: Answer) -> object:
        """Returns ``value`` as the running call reads it, or raises IllegalAnswer; changes nothing."""
        call = self._call
        if call is None:
            raise IllegalAnswer("the game is over", key="refusal.over")
        if not call.live or call.check is None:
            return None
        return call.check(value)

    def answer(self, value: Answer = None) -> Step:
        """Answers the running call (None confirms a call that needs no answer).

        Raises IllegalAnswer, leaving the game untouched, when the rules forbid it.
        """
        call = self._call
        if call is None:
            raise IllegalAnswer("the game is over", key="refusal.over")
        checked = None if call.check is None else call.check(value)  # a call not live has no check
        needed = call.needs_answer
        self.journal.append(value if needed else None)
        self._answered.append(needed)
        facts: list[Fact] = []
        self._facts = facts
        try:
            following = self._flow.send(checked)
        except StopIteration:
            self._call = None
        else:
            self._call = following
            self.calls.append(following)
        return Step(call, value, tuple(facts))

    def legal(self) -> list[Answer]:
        """Lists the answers the running call accepts (votes and elections as single seats or nobody)."""
        ok: list[Answer] = []
        for value in self.candidates():
            try:
                self.check(value)
            except IllegalAnswer:
                continue
            ok.append(value)
        return ok

    def candidates(self, call: Call | None = None) -> list[Answer]:
        """Lists the answers of the running call's (or ``call``'s) shape, before the rules are applied
        (see legal)."""
        call = self._call if call is None else call
        if call is None:
            return []
        if not call.needs_answer:
            return [None]
        candidates: list[Answer]
        if call.kind in (Kind.SEAT, Kind.VOTE, Kind.ELECTION):
            candidates = [*call.seats, None]
        elif call.kind is Kind.DRAW:
            candidates = list(call.options or call.seats)
        elif call.kind is Kind.SEATS and call.picks == 0:  # one or more: each alone, and all of them
            candidates = [*([s] for s in call.seats), list(call.seats), *([None] if call.optional else [])]
        elif call.kind is Kind.SEATS:
            candidates = [list(c) for c in combinations(call.seats, call.picks)]
        elif call.kind is Kind.YES_NO:
            candidates = [True, False]
        elif call.kind is Kind.SIDE:
            candidates = ["wolf", "village"]
        elif call.kind is Kind.CARD:
            candidates = [1, 2, None]
        elif call.kind is Kind.NUMBER:
            candidates = [*range(1, call.picks + 1), None]
        elif call.kind is Kind.SEANCE:
            candidates = [None, *({"card": c, "question": 1, "asker": s} for c in range(1, 6) for s in call.seats)]
        else:
            candidates = [{"heal": h, "poison": p} for h in (False, True) for p in (None, *call.seats)]
        return candidates

    def last_answered(self) -> Call | None:
        """Returns the last call that was answered, not merely confirmed: the one undo() takes back."""
        for call, answered in zip(reversed(self.calls[: len(self._answered)]), reversed(self._answered)):
            if answered:
                return call
        return None

    def undo(self) -> bool:
        """Takes back the last answer that was not a mere confirmation, by replay; False if none."""
        keep = len(self.journal)
        while keep and not self._answered[keep - 1]:
            keep -= 1
        if not keep:
            return False
        self.__init__(self.table, self.deal, self.journal[: keep - 1])  # type: ignore[misc]
        return True

    def _advance(self, value: object, first: bool = False) -> None:
        try:
            call = next(self._flow) if first else self._flow.send(value)
        except StopIteration:
            self._call = None
            return
        self._call = call
        self.calls.append(call)

    def _play(self) -> Flow:
        try:
            if self.tokens:
                yield from village.announce(self)
            for role in self.hooked["at_start"]:
                yield from role.at_start(self)
            # The election opens the game, or the first day (before its vote) when the table says so.
            elect = self.rules.sheriff
            if elect and self.rules.sheriff_elected == "start":
                yield from sheriff.election(self)
                elect = False
                if self.rules.town_crier:
                    yield from crier.appoint(self)
            if any(r.opening_day for r in self.roles_in_deck):
                yield from self._day(elect)
                elect = False
            while True:
                yield from self._night()
                yield from self._day(elect)
                elect = False
        except GameOver as over:
            self.outcome = over.outcome

    def _night(self) -> Flow:
        self.night += 1
        self.phase, self.number = Phase.NIGHT, self.night
        self.tonight = {}
        self.attacks = []
        self.doomed = set()
        yield self.ask("nightfall", Kind.NONE)
        for role in self.hooked["at_nightfall"]:
            role.at_nightfall(self)
        self.step_done()  # a Wild Child who turns at nightfall may give the werewolves the game
        for spec in self._night_order(self.night):
            flow = spec.run(self)
            yield from self._skipping(flow) if self.rules.skip_idle_calls else flow
            self.step_done()

    def _skipping(self, flow: Flow) -> Flow:
        """Runs a night call's flow, answering itself every call with nothing to do (Rules.skip_idle_calls):
        one made for the dead or powerless, or one where passing is all the rules allow (rulings.md's
        "asked even with nothing to do", which this house rule gives up, secrets and all)."""
        try:
            call = next(flow)
            while True:
                passing = self._passing(call)
                if passing is SKIP:
                    value = yield call
                else:
                    value = None if call.check is None else call.check(passing)
                call = flow.send(value)
        except StopIteration:
            return

    def _passing(self, call: Call) -> object:
        """Returns the pass a call with nothing to do takes (None, False, no potion), or SKIP if it has more."""
        if not call.live:
            return None
        if not call.needs_answer or call.check is None:
            return SKIP
        legal = []
        for value in self.candidates(call):
            try:
                call.check(value)
            except IllegalAnswer:
                continue
            legal.append(value)
        passes = [v for v in legal if v in PASSES]
        return passes[0] if passes and len(passes) == len(legal) else SKIP

    def night_order(self, night: int) -> tuple[str, ...]:
        """Returns the ids of the calls of ``night``, in order, as far as the table tells (the deck, the Actor's
        cards, the buildings): public, since the calls of dead characters are made too."""
        return tuple(spec.id for spec in self._night_order(night))

    def _night_order(self, night: int) -> tuple[CallSpec, ...]:
        """Returns the calls of ``night`` whose characters are in the deck, in the profile's order."""
        if night not in self._orders:
            rules = self.rules
            calls = night_calls(rules.profile, night, rules.sisters_wake, rules.intervals())
            self._orders[night] = _order(calls, self._calling)
        return self._orders[night]

    def _day(self, elect: bool = False) -> Flow:
        self.phase = Phase.DAY
        if self.night:
            yield from deaths.dawn(self)
            self.step_done()
            for role in self.hooked["after_dawn"]:
                yield from role.after_dawn(self)
            self.step_done()
        if elect:
            yield from sheriff.election(self)
            if self.rules.town_crier:
                yield from crier.appoint(self)
        yield self.ask("debate", Kind.NONE)
        yield from votes.village_vote(self)
        self.step_done()
        for role in self.hooked["after_vote"]:
            yield from role.after_vote(self)
            self.step_done()
        if self.variant("graffiti"):
            yield from variants.graffiti(self)

    def step_done(self) -> None:
        """Ends the game if a side has won; called between steps, never inside one."""
        if self.version == self._checked:
            return  # nothing that decides victory has changed since the last check
        self._checked = self.version
        outcome = victory.check(self)
        if outcome is not None:
            raise GameOver(outcome)

    # -- what the roles use ----------------------------------------------

    def variant(self, name: str) -> bool:
        """Returns whether the table plays the variant ``name`` (engine/variants.py)."""
        return name in self.variants

    def ask(self, call_id: str, kind: Kind, *, live: bool = True, actors: Sequence[int] = (),
            seats: Sequence[int] | None = None, optional: bool = False, picks: int = 0,
            facts: Sequence[Fact] = (), check: Callable[[Answer], object] | None = None,
            options: Sequence[Answer] = ()) -> Call:
        """Returns a call of the running phase; the flow yields it."""
        return Call(call_id, self.phase, self.number, kind, live, tuple(actors),
                    self.present() if seats is None else tuple(seats), optional,
                    picks, tuple(facts), check if live else None, live and kind is not Kind.NONE, tuple(options))

    def idle(self, call_id: str, kind: Kind, picks: int = 0) -> Flow:
        """Makes a call for fair play only (its character is eliminated or powerless), if the table wants it."""
        if self.rules.call_dead and not self.rules.skip_idle_calls:
            yield self.ask(call_id, kind, live=False, picks=picks)

    def wake(self, call_id: str, awake: Sequence[int], shown: bool = True) -> Flow:
        """Wakes ``awake`` together, with nothing to answer (the lovers, the sisters, the charmed), each shown
        the others' seats if ``shown``; with nobody left to wake, makes the call for fair play only."""
        if not awake:
            yield from self.idle(call_id, Kind.NONE)
            return
        facts = (Fact(call_id, {"seats": list(awake)}, secret=True),) if shown else ()
        yield self.ask(call_id, Kind.NONE, actors=awake, facts=facts)

    def fact(self, key: str, *, secret: bool = False, **values: object) -> None:
        """Records a fact for the narrator to say (public) or show to those awake (secret)."""
        self._facts.append(Fact(key, values, secret))

    def mark(self, seat: int, mark: str) -> None:
        """Puts ``mark`` (``infected``, ``charmed``, ``turned``, ...) on the player at ``seat``."""
        self.players[seat - 1].marks.add(mark)
        self.version += 1
        self.sides_version += 1

    def link(self, key: str, seats: tuple[int, ...]) -> None:
        """Records seats bound together or chosen (``lovers``, ``role_model``, ``rust``)."""
        self.links[key] = seats
        self.version += 1

    def choose(self, key: str, value: str) -> None:
        """Records a lasting choice (the Wolf Hound's side)."""
        self.choices[key] = value
        self.version += 1
        self.sides_version += 1

    def give(self, seat: int, card: str) -> None:
        """Gives the player at ``seat`` another card (the Thief's swap)."""
        self._dealt[self.players[seat - 1].card].remove(seat)
        self._dealt.setdefault(card, []).append(seat)
        self._dealt[card].sort()
        self.players[seat - 1].card = card
        self.version += 1
        self.sides_version += 1

    def card(self, seat: int) -> str:
        """Returns the card the player at ``seat`` holds now."""
        return self.players[seat - 1].card

    def role(self, seat: int) -> Role:
        """Returns the character of the card at ``seat``."""
        return ROLES[self.players[seat - 1].card]

    def alive(self, seat: int) -> bool:
        """Returns whether the player at ``seat`` is still in the game."""
        return self.players[seat - 1].alive

    def living(self) -> tuple[int, ...]:
        """Returns the seats still in the game, in order."""
        if self._living is None:
            self._living = tuple(p.seat for p in self.players if p.alive)
        return self._living

    def present(self) -> tuple[int, ...]:
        """Returns the seats that may be chosen now: the living, less the rust's doomed on the night he dies
        (dead at nightfall, he is announced at dawn)."""
        living = self.living()
        return tuple(s for s in living if s not in self.doomed) if self.doomed else living

    def holders(self, card: str) -> tuple[int, ...]:
        """Returns the living seats holding ``card`` that may act tonight (the rust's doomed may not)."""
        players = self.players
        found = tuple(s for s in self._dealt.get(card, ()) if players[s - 1].alive and s not in self.doomed)
        if self.lent:
            lent = self.lent.get(card)  # the Actor, while he has this card's power
            if lent is not None and players[lent - 1].alive and lent not in self.doomed:
                found += (lent,)
        return found

    def plays(self, seat: int, card: str) -> bool:
        """Returns whether the player at ``seat`` has the power of ``card``: holds it, or the Actor has it now."""
        return self.players[seat - 1].card == card or self.lent.get(card) == seat

    def actor(self, card: str) -> int | None:
        """Returns the seat of the living holder of ``card`` who may use its power tonight, or None."""
        for seat in self.holders(card):
            if self.keeps_power(seat):
                return seat
        return None

    def marked(self, seat: int, mark: str) -> bool:
        """Returns whether the player at ``seat`` bears ``mark``."""
        return mark in self.players[seat - 1].marks

    def side(self, seat: int) -> Team:
        """Returns the side the player at ``seat`` plays for now (infection first)."""
        if self._sides_at != self.sides_version:
            self._sort_sides()
        return self._sides[seat - 1]

    def sides(self) -> list[Team]:
        """Returns every seat's side now, by seat - 1 (dead or alive)."""
        if self._sides_at != self.sides_version:
            self._sort_sides()
        return self._sides

    def _sort_sides(self) -> None:
        sides = []
        for p in self.players:
            role = ROLES[p.card]
            if "infected" in p.marks:
                sides.append(Team.WEREWOLVES)
            elif "simple_villager" in p.marks:  # the Harvest's potion: a simple villager, whatever the card
                sides.append(Team.VILLAGE)
            elif role.side_is_team:
                sides.append(role.team)
            else:
                sides.append(role.side(self, p.seat))
        self._sides = sides
        self._wolves = [s is Team.WEREWOLVES or s is Team.WHITE_WEREWOLF for s in self._sides]
        self._sides_at = self.sides_version

    def is_werewolf(self, seat: int) -> bool:
        """Returns whether the player counts as a werewolf for every rule (the White Werewolf does)."""
        if self._sides_at != self.sides_version:
            self._sort_sides()
        return self._wolves[seat - 1]

    def keeps_power(self, seat: int) -> bool:
        """Returns whether the card at ``seat`` still has its power (the Elder's penalty aside from infected;
        a player the Cult seduced has lost theirs, and so has one the Harvest's potion made a simple villager)."""
        marks = self.players[seat - 1].marks
        if "seduced" in marks or "simple_villager" in marks:
            return False
        return not (self.penalty and self.role(seat).villager_power and "infected" not in marks)

    def can_act(self, seat: int | None) -> bool:
        """Returns whether the player at ``seat`` is alive, takes part tonight, and has their power."""
        return (seat is not None and self.alive(seat) and seat not in self.doomed
                and self.keeps_power(seat))

    def neighbours(self, seat: int) -> tuple[int, ...]:
        """Returns the nearest living players on the left (clockwise) and the right of ``seat`` (not the rust's
        doomed, on the night he dies).

        >>> from engine import Table, Deal, Rules
        >>> g = Game(Table(6, ("werewolf",) + ("villager",) * 5), Deal(("werewolf",) + ("villager",) * 5))
        >>> g.neighbours(1), g.neighbours(6)
        ((2, 6), (1, 5))
        """
        n = self.table.seats
        found: list[int] = []
        for step in (1, -1):
            s = seat
            for _ in range(n - 1):
                s = (s - 1 + step) % n + 1
                if self.alive(s) and s not in self.doomed:
                    if s != seat and s not in found:
                        found.append(s)
                    break
        return tuple(found)

    def report_calls(self) -> list[dict[str, object]]:
        """Returns every call made, in order, as the report lists them."""
        return [{"phase": c.phase.value, "number": c.number, "call": c.id} for c in self.calls]
