"""A game: the state of the village and the flow of calls, driven by answers.

The flow is a generator that yields each ``Call`` and receives its checked
answer. The journal of answers is the source of truth: a game is rebuilt by
replaying the table, the deal and the journal, and undo is that replay without
the last answer.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Mapping

from . import crier, deaths, events, sheriff, variants, victory, village, votes
from .answers import kept_after_undo
from .order import PROFILES, Entry, night_calls
from .playing import Playing
from .role import HOOKS, Anew, Begun, CallSpec, Flow, GameOver, Role
from .roles import CALLS, ROLES, Advice, check_deck, check_extras
from .table import Deal, Table, check_groups
from .types import Answer, Call, Fact, IllegalAnswer, Kind, Outcome, Phase, Step

_CALLS: dict[str, CallSpec] = {**CALLS, **{spec.id: spec for spec in village.CALLS}}
"""Every night call: the characters' and the Village buildings' (the Baker)."""


@lru_cache(maxsize=256)
def _order(calls: tuple[str, ...], deck: frozenset[str]) -> tuple[CallSpec, ...]:
    return tuple(_CALLS[i] for i in calls if i in _CALLS and not _CALLS[i].roles.isdisjoint(deck))


def _slotted(profile: str, calls: tuple[str, ...], night: int, sisters_wake: bool,
             intervals: Mapping[str, int]) -> tuple[str, ...]:
    """Returns ``calls`` (a night of ``profile``) with the calls the profile does not list put where they say
    (CallSpec.after, CallSpec.when)."""
    listed = {entry.call for entry in PROFILES[profile]}
    slotted = list(calls)
    for spec in _CALLS.values():
        if (spec.after and spec.id not in listed and spec.after in slotted
                and Entry(spec.id, spec.when).made_on(night, sisters_wake, intervals)):
            slotted.insert(len(slotted) - slotted[::-1].index(spec.after), spec.id)
    return tuple(slotted)


_SLOTTED = any(spec.after for spec in _CALLS.values())
"""Whether any character places its own call (see CallSpec.after): none of the seeds' does."""

SKIP = object()
"""Not a pass: the call has something to do (see Game._passing)."""

PASSES: tuple[Answer, ...] = (None, False, {"heal": False, "poison": None})
"""The answers that do nothing: no one, no, no potion."""

DEATH_HOOKS = frozenset({"survives", "on_mark", "on_death", "ballot", "on_vote", "condemned"})
"""The hooks the Sheriff's office (not a card) also answers, in death order; the others go in deck order."""


@lru_cache(maxsize=256)
def _checked_deck(seats: int, deck: tuple[str, ...], chosen: tuple[str, ...]) -> tuple[list[str], list[Advice]]:
    return check_deck(seats, deck, chosen) if chosen else check_deck(seats, deck)



class Game(Playing):
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

    def __init__(self, table: Table, deal: Deal, answers: Iterable[Answer] = (),
                 roles: Mapping[str, Role] = ROLES, variant_rules: Mapping[str, Role] = variants.RULES) -> None:
        # The table first (its deck, and what the deck needs from it), then the deal against it.
        errors = (_checked_deck(table.seats, table.deck, table.rules.variants)[0] + check_extras(table)
                  + variants.check_variants(table.rules.variants)
                  + check_groups(table.seats, table.deck, table.groups)
                  + village.check_buildings(table.seats, table.buildings))
        if errors:
            raise ValueError("; ".join(errors))
        if deal.seats != table.seats or sorted(deal.roles + deal.centre) != sorted(table.deck):
            raise ValueError("the deal does not match the table's deck")
        if deal.events and sorted(deal.events) != sorted(table.rules.events):
            raise ValueError("the deal's event cards do not match the table's events")
        dealt = [s for s, _ in deal.buildings]
        if (sorted(t for _, t in deal.buildings) != sorted(table.buildings) or len(set(dealt)) != len(dealt)
                or not all(1 <= s <= table.seats for s in dealt)):
            raise ValueError("the buildings dealt do not match the table's buildings (one a seat at most)")
        super().__init__(table, roles, deal)
        self.in_deck = frozenset(table.deck)
        # What plays: the deck, the Actor's cards (he may hold their power), the buildings.
        self._called = self.in_deck | frozenset(table.actor_cards) | frozenset(self.tokens.values())
        in_order = ([r for r in roles.values() if r.id in self._called]
                    + ([village.HOLDINGS] if self.tokens else []))
        # The Black Death's plague is the werewolves' call with nobody awake: it is made as if they played.
        self._calling = self._called | {"werewolf"} if self.variant("black_death") else self._called
        offices: list[Role] = [sheriff.OFFICE] if self.rules.sheriff else []
        if self.rules.sheriff and self.rules.town_crier:
            offices.append(crier.OFFICE)
        self.roles_in_deck: tuple[Role, ...] = tuple(in_order)
        self._offices = tuple(offices)
        self.variant_rules = variant_rules
        self._orders: dict[tuple[int, bool], tuple[CallSpec, ...]] = {}
        self._start(answers)

    def _hook_up(self) -> None:
        """Finds, per hook, the roles, offices and variants that take part in it, in their order: the variants the
        table plays and those an event card began (engine/events.py), which the state keeps."""
        self.variants = frozenset(self.rules.variants) | self.kept(Begun).names
        in_order = list(self.roles_in_deck)
        # The variants played take part like the cards, after them (in the registry's order, not the table's).
        played = [rule for name, rule in self.variant_rules.items() if name in self.variants]
        hooks: list[Role] = in_order + list(self._offices) + played
        self.hooks: tuple[Role, ...] = tuple(sorted(hooks, key=lambda r: r.death_order))
        # Per hook, only the roles that override it: most roles have nothing to say at most hooks,
        # and asking them all, at every death and every night, is most of a game's work.
        hooked: dict[str, list[Role]] = {name: [] for name in HOOKS}
        for name in DEATH_HOOKS:
            hooked[name] = [r for r in self.hooks if name in r.overrides]
        for role in (*in_order, *played):
            for name in role.overrides - DEATH_HOOKS:
                hooked[name].append(role)
        if self.rules.events:  # the morning draw: after the growl and the séance, before the buildings' morning
            mornings = hooked["after_dawn"]
            mornings.insert(mornings.index(village.HOLDINGS) if village.HOLDINGS in mornings else len(mornings),
                            events.DRAW)
        self.hooked = {name: tuple(roles) for name, roles in hooked.items()}
        if crier.OFFICE in self._offices:  # the Crier speaks after every card's morning (day order 4.)
            self.hooked["after_dawn"] += (crier.OFFICE,)
        self._every_day = tuple(r for r in self.hooked["after_dawn"] if r.every_day)
        self.goals = tuple(sorted((r for r in (*in_order, *played) if r.win_name), key=lambda r: r.win_order))

    def begin_variant(self, name: str) -> None:
        """Begins the variant ``name`` now (an event card starts it): it plays from this moment as if the table had
        chosen it; the state keeps it, so a replay begins it at the same moment."""
        self.keep(Begun(self.kept(Begun).names | {name}))
        self._hook_up()

    def _start(self, answers: Iterable[Answer]) -> None:
        """Plays the game from its state as dealt (self.state, new): the first call, then ``answers`` in order."""
        self._hook_up()  # the variants begun in the game are forgotten with the state (undo)
        self._checked = -1
        self.calls: list[Call] = []
        self.journal: list[Answer] = []
        self._answered: list[bool] = []  # which journal entries were answers, not confirmations
        self.outcome: Outcome | None = None
        self._call = None
        self._flow = self._play()
        self._advance(None, first=True)
        for value in answers:
            self.answer(value)

    # -- driving the game -------------------------------------------------

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
        return call.kind.candidates(call)

    def last_answered(self) -> Call | None:
        """Returns the last call that was answered, not merely confirmed: the one undo() takes back."""
        for call, answered in zip(reversed(self.calls[: len(self._answered)]), reversed(self._answered)):
            if answered:
                return call
        return None

    def undo(self) -> bool:
        """Takes back the last answer that was not a mere confirmation, by replay; False if none."""
        keep = kept_after_undo(self._answered)
        if keep is None:
            return False
        journal = self.journal[:keep]
        self.hold(self.new_state())  # the village as dealt, built anew from the table, the deal and the journal
        self._start(journal)
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
                ended = victory.stalemate(self)
                if ended is not None:
                    raise GameOver(ended)
        except GameOver as over:
            self.outcome = over.outcome

    def _night(self) -> Flow:
        self.state.begin(Phase.NIGHT)
        yield self.ask("nightfall", Kind.NONE)
        for role in self.hooked["at_nightfall"]:
            role.at_nightfall(self)
        self.step_done()  # what the day's end and nightfall changed is checked before anyone is called
        for spec in self._night_order(self.night):
            flow = spec.run(self)
            yield from self._skipping(flow) if self.rules.skip_idle_calls else flow
            self.step_done()

    def _skipping(self, flow: Flow) -> Flow:
        """Runs a night call's flow, answering itself every call with nothing to do (Rules.skip_idle_calls):
        one made for the dead or powerless, or one where passing is all the rules allow (docs/rules.md's
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
        """Returns the calls of ``night`` whose characters are in the deck, in the profile's order (with the
        first-night choices made again after a Devoted Servant took a card: public, she showed hers)."""
        again = self.kept(Anew).night == night
        if (night, again) not in self._orders:
            rules = self.rules
            calls = night_calls(rules.profile, night, rules.sisters_wake, rules.intervals(), again)
            if _SLOTTED:
                calls = _slotted(rules.profile, calls, night, rules.sisters_wake, rules.intervals())
            self._orders[night, again] = _order(calls, self._calling)
        return self._orders[night, again]

    def _day(self, elect: bool = False) -> Flow:
        self.state.begin(Phase.DAY)
        if self.night:
            yield from deaths.dawn(self)
            self.step_done()
        # The Angel's opening day is a day like the others (Best Of: the game "always begins with the village's
        # debate followed by an eliminatory vote"): the day's powers are offered on it, the morning's are not.
        for role in self.hooked["after_dawn"] if self.night else self._every_day:
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
        for rule in self.hooked["at_dusk"]:  # the graffiti
            yield from rule.at_dusk(self)

    def step_done(self) -> None:
        """Ends the game if a side has won; called between steps, never inside one."""
        version = self.state.version
        if version == self._checked:
            return  # nothing that decides victory has changed since the last check
        self._checked = version
        outcome = victory.check(self)
        if outcome is not None:
            raise GameOver(outcome)

    def report_calls(self) -> list[dict[str, object]]:
        """Returns every call made, in order, as the report lists them."""
        return [{"phase": c.phase.value, "number": c.number, "call": c.id} for c in self.calls]
