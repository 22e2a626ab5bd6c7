"""A game in play as its characters see it (engine.role.Play): the village's state, composed, with the table's
rules and the means to make calls and tell facts.

The state is a State the game holds, not a base it inherits: every reading and every change below is the State's
own, reached through it, and the game replaces it whole when it is built anew from its journal (undo)."""

from __future__ import annotations

from typing import AbstractSet, Any, Callable, Mapping, Protocol, Sequence

from .role import Anew, Flow, Role
from .state import K, Kept, Night, Player, State
from .table import Deal, Table
from .types import Answer, Call, Elimination, Fact, Kind, Phase, Team


class Reading(Protocol):
    """State.kept, held (engine.state.State.kept)."""

    def __call__(self, kind: type[K]) -> K: ...


class Playing:
    """The Play a Game is: its table and rules, the State it composes (``state``), its calls and facts.

    ``roles``: every character by card id (the registry, passed in). ``hooked``: per hook, the roles (and
    offices, buildings, variants) that take part in it, in their order — set by the Game."""

    def __init__(self, table: Table, roles: Mapping[str, Role], deal: Deal) -> None:
        self.table = table
        self.deal = deal
        self.rules = table.rules
        self.roles = roles
        self.variants = frozenset(table.rules.variants)
        self.hooked: dict[str, tuple[Role, ...]] = {}
        self.goals: tuple[Role, ...] = ()  # the roles (and variants) with a goal of their own, in win order
        self._facts: list[Fact] = []
        self._call: Call | None = None
        self.hold(self.new_state())

    # The readings a game makes most, and the state's values that stay the same objects while it lasts, are the
    # held State's own (bound in hold): reached through a method of ours, they cost a game a quarter of its speed.
    players: Sequence[Player]
    centre: Sequence[str]
    tokens: Mapping[int, str]
    spent: AbstractSet[int]
    middle: Sequence[str | None]
    lent: Mapping[str, int]
    eliminated: Sequence[Elimination]
    kept: Reading
    keeps: Callable[[type[Kept]], bool]
    card: Callable[[int], str]
    alive: Callable[[int], bool]
    marked: Callable[[int, str], bool]
    living: Callable[[], tuple[int, ...]]
    present: Callable[[], tuple[int, ...]]
    dealt: Callable[[str], Sequence[int]]
    side: Callable[[int], Team]
    sides: Callable[[], Sequence[Team]]
    is_werewolf: Callable[[int], bool]

    def hold(self, state: State) -> None:
        """Holds ``state`` as the game's village (a new one as dealt, when the game is built anew)."""
        self.state = state
        self.players, self.centre, self.tokens, self.spent = state.players, state.centre, state.tokens, state.spent
        self.middle, self.lent, self.eliminated = state.middle, state.lent, state.eliminated
        self.alive, self.kept, self.keeps, self.card = state.alive, state.kept, state.keeps, state.card
        self.marked, self.living, self.present, self.dealt = state.marked, state.living, state.present, state.dealt
        self.side, self.sides, self.is_werewolf = state.side, state.sides, state.is_werewolf
        self.record, self.attack, self.spare, self.kill = state.record, state.attack, state.spare, state.kill
        self.mark, self.unmark, self.give, self.swap_centre = state.mark, state.unmark, state.give, state.swap_centre
        self.lend, self.end_lending, self.appoint, self.lose_powers = (state.lend, state.end_lending, state.appoint,
                                                                     state.lose_powers)
        self.hand_token, self.spend, self.keep, self.forget = state.hand_token, state.spend, state.keep, state.forget
        self.renew = state.renew

    def new_state(self) -> State:
        """Returns the village as dealt, before any call."""
        deal = self.deal
        return State(deal.roles, deal.centre, self._side_of, deal.buildings, self.table.actor_cards)

    @property
    def call(self) -> Call | None:
        """Returns the call waiting for an answer, or None once the game is over."""
        return self._call

    def _side_of(self, state: object, player: Player) -> Team:
        role = self.roles[player.card]
        return role.team if role.side_is_team else role.side(self, player.seat)

    def step_done(self) -> None:
        """Ends the game if a side has won; called between steps, never inside one (the Game does it)."""
        raise NotImplementedError

    def begin_variant(self, name: str) -> None:
        """Begins the variant ``name`` from now (an event card starts it; the Game does it)."""
        raise NotImplementedError

    def variant(self, name: str) -> bool:
        """Returns whether the variant ``name`` plays (engine/variants.py): the table's, or begun by an event card."""
        return name in self.variants

    def ask(self, call_id: str, kind: Kind, *, live: bool = True, actors: Sequence[int] = (),
            seats: Sequence[int] | None = None, optional: bool = False, picks: int = 0,
            facts: Sequence[Fact] = (), check: Callable[[Answer], object] | None = None,
            options: Sequence[Answer] = ()) -> Call:
        """Returns a call of the running phase; the flow yields it."""
        state = self.state
        # Most are given as tuples already: the same, not a copy (a call is made at every step).
        return Call(call_id, state.phase, state.number, kind, live, actors if type(actors) is tuple else tuple(actors),
                    state.present() if seats is None else seats if type(seats) is tuple else tuple(seats), optional,
                    picks, facts if type(facts) is tuple else tuple(facts), check if live else None,
                    live and kind is not Kind.NONE, options if type(options) is tuple else tuple(options))

    def idle(self, call_id: str, kind: Kind, picks: int = 0, optional: bool = False) -> Flow:
        """Makes a call for fair play only (its character is eliminated or powerless), if the table wants it: asked as
        its living call is (``picks``, ``optional``), so that the screen shows the same question."""
        if self.rules.call_dead and not self.rules.skip_idle_calls:
            yield self.ask(call_id, kind, live=False, picks=picks, optional=optional)

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

    def tell(self, fact: Fact) -> None:
        """Records a fact already made (see fact)."""
        self._facts.append(fact)

    def role(self, seat: int) -> Role:
        """Returns the character of the card at ``seat``."""
        return self.roles[self.state.players[seat - 1].card]

    def holders(self, card: str) -> tuple[int, ...]:
        """Returns the living seats holding ``card`` that may act tonight (the rust's doomed may not)."""
        state = self.state
        players, doomed = state.players, state.tonight.doomed
        found = tuple(s for s in state.dealt(card) if players[s - 1].alive and s not in doomed)
        if state.lent:
            lent = state.lent.get(card)  # the Actor, while he has this card's power
            if lent is not None and players[lent - 1].alive and lent not in doomed:
                found += (lent,)
        return found

    def anew(self, card: str) -> int | None:
        """Returns the seat of the Devoted Servant who makes ``card``'s first-night choice again tonight (she took it
        yesterday, lives and has her power), or None."""
        again = self.state.kept(Anew)
        return self.actor(card) if again.night == self.state.night and again.taken == card else None

    def chooser(self, card: str) -> int | None:
        """Returns who makes ``card``'s first-night choice tonight: its holder on the first night, a Devoted Servant
        who took it yesterday on a later one (see anew); None when nobody may."""
        return self.actor(card) if self.state.night == 1 else self.anew(card)

    def plays(self, seat: int, card: str) -> bool:
        """Returns whether the player at ``seat`` has the power of ``card``: holds it, or the Actor has it now."""
        return self.state.players[seat - 1].card == card or self.state.lent.get(card) == seat

    def actor(self, card: str) -> int | None:
        """Returns the seat of the living holder of ``card`` who may use its power tonight, or None."""
        for seat in self.holders(card):
            if self.keeps_power(seat):
                return seat
        return None

    def keeps_power(self, seat: int) -> bool:
        """Returns whether the card at ``seat`` still has its power (the Elder's penalty aside from infected;
        a player the Cult seduced has lost theirs, and so has one the Harvest's potion made a simple villager)."""
        marks = self.state.players[seat - 1].marks
        if "seduced" in marks or "simple_villager" in marks:
            return False
        return not (self.state.penalty and self.role(seat).villager_power and "infected" not in marks)

    def can_act(self, seat: int | None) -> bool:
        """Returns whether the player at ``seat`` is alive, takes part tonight, and has their power."""
        return (seat is not None and self.state.alive(seat) and seat not in self.state.tonight.doomed
                and self.keeps_power(seat))

    def neighbours(self, seat: int) -> tuple[int, ...]:
        """Returns the nearest living players on the left (clockwise) and the right of ``seat`` (not the rust's
        doomed, on the night he dies)."""
        n = self.table.seats
        doomed = self.state.tonight.doomed
        found: list[int] = []
        for step in (1, -1):
            s = seat
            for _ in range(n - 1):
                s = (s - 1 + step) % n + 1
                if self.state.alive(s) and s not in doomed:
                    if s != seat and s not in found:
                        found.append(s)
                    break
        return tuple(found)

    # -- the state, read and changed through the State it composes (engine.state.State says what each is) ----

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def number(self) -> int:
        return self.state.number

    @property
    def night(self) -> int:
        return self.state.night

    @property
    def sheriff(self) -> int | None:
        return self.state.sheriff

    @property
    def penalty(self) -> bool:
        return self.state.penalty

    @property
    def tonight(self) -> Night:
        return self.state.tonight

    @property
    def version(self) -> int:
        return self.state.version

    # The changes are the held State's own methods too, bound in hold: a method of ours that passed each on would
    # cost every change a call more (and a record its keywords packed twice). Their signatures: engine.role.Play's.
    record: Callable[..., None]
    attack: Callable[[int, str], None]
    spare: Callable[[int, str], bool]
    kill: Callable[..., bool]
    mark: Callable[[int, str], None]
    unmark: Callable[[int, str], None]
    give: Callable[[int, str], None]
    swap_centre: Callable[[int, str], None]
    lend: Callable[[int, int], str]
    end_lending: Callable[[], None]
    appoint: Callable[[int | None], None]
    lose_powers: Callable[[], None]
    hand_token: Callable[[int, str | None], None]
    spend: Callable[..., None]
    keep: Callable[[Kept], None]
    forget: Callable[[type[Kept]], None]
    renew: Callable[..., None]
