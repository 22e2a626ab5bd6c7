"""What a character is to the engine: its side, its calls, and its hooks into deaths and the dawn.

Each character lives in one file of ``engine/roles/``, which defines a ``Role``
subclass instance named ``ROLE`` (and, for calls it owns, ``CallSpec``s in
``CALLS``). The engine asks every role in the deck, in a fixed order, at each
hook; a role answers only for what concerns it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Generator, Mapping, Sequence

from .order import When
from .state import Kept, Player, State
from .table import Deal, Table
from .types import Answer, Call, Fact, Kind, Outcome, Tally, Team

if TYPE_CHECKING:
    from collections import Counter

Flow = Generator[Call, Any, None]
"""A piece of the game: yields calls, receives their (checked) answers."""


def nothing() -> Flow:
    """Returns a flow that makes no call."""
    return
    yield  # pragma: no cover  (makes this a generator)


@dataclass(frozen=True)
class CallSpec:
    """A night call a role owns: made when any of ``roles`` is in the deck, run by ``run``;
    ``kind`` is the shape of its answer. A call the call-order profiles (engine/order.py) do not list takes its
    place from the call itself: right after the call ``after``, on the nights ``when`` says — so that a new
    character is added by its own file."""

    id: str
    kind: Kind
    roles: frozenset[str]
    run: Callable[[Play], Flow]
    after: str = ""
    when: When = When.EVERY


HOOKS = ("at_nightfall", "survives", "on_mark", "on_death", "ballot", "on_vote", "after_dawn", "abandons_side",
         "may_lead", "at_start", "on_condemned", "after_vote", "before_dawn", "adds_votes", "before_vote",
         "condemned", "at_dawn", "death_news", "instead_of_vote", "vote_facts", "voted_out", "at_dusk",
         "holds_victory", "named")
"""The methods through which a role (an office, a building, a variant) takes part in the game beyond its own
calls."""


class Role:
    """A character card. Override only what the character changes.

    ``team``: the side the card starts on. ``copies``: how many of it a deck may
    hold (``None``: any number). ``villager_power``: lost for good when the
    village eliminates the Elder. ``wolf_card``: a werewolf-type card for the
    Thief's rule. ``death_order``: when this role's death hook runs among the
    others (lower first). ``win_order`` and ``win_name``: for a role with a goal
    of its own, its place in the order simultaneous wins are settled in, and the
    winner's name. ``opening_day``: the game starts with a day (the Angel).
    ``asks``: calls the role makes outside the night order (the Hunter's shot).
    """

    id: str = ""
    team: Team = Team.VILLAGE
    copies: tuple[int, ...] | None = (0, 1)
    villager_power: bool = False
    wolf_card: bool = False
    death_order: int = 50
    win_order: int = 0
    win_name: str = ""
    opening_day: bool = False
    asks: dict[str, Kind] = {}
    side_is_team: bool = True
    overrides: frozenset[str] = frozenset()

    def side(self, game: Play, seat: int) -> Team:
        """Returns the side the holder of this card plays for now (infection aside)."""
        return self.team

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        # Known once per class: a card whose side() is its team never changes side by itself, and
        # the game asks a role only at the hooks it overrides.
        cls.side_is_team = cls.side is Role.side
        cls.overrides = frozenset(name for name in HOOKS if getattr(cls, name) is not getattr(Role, name))

    def at_nightfall(self, game: Play) -> None:
        """Runs when night falls, before any call (the Knight's rust, the Actor's loan ending)."""

    def survives(self, game: Play, seat: int, cause: str) -> bool:
        """Returns true when the player at ``seat`` is spared a death by ``cause`` (the Elder's first bite)."""
        return False

    def on_mark(self, game: Play, seat: int, cause: str) -> None:
        """Runs the instant any player is eliminated, before any consequence (the Angel, the Elder's penalty)."""

    def on_death(self, game: Play, seat: int, cause: str) -> Flow:
        """Runs the consequences of any player's elimination that concern this role (grief, the shot)."""
        return nothing()

    def ballot(self, game: Play, voter: int, weight: int) -> int:
        """Returns what the ballot of ``voter`` weighs once this role has had its say."""
        return weight

    def on_vote(self, game: Play, tally: Tally) -> Generator[Call, Any, Tally]:
        """Returns the vote's result once this role has had its say (the Scapegoat takes a tie)."""
        return tally
        yield  # pragma: no cover  (makes this a generator)

    def at_start(self, game: Play) -> Flow:
        """Runs once before anything else, the Sheriff's election included (the Manipulator's groups)."""
        return nothing()

    def on_condemned(self, game: Play, seat: int) -> Flow:
        """Runs when a vote condemns the living player at ``seat``, before the elimination (the Servant)."""
        return nothing()

    def after_vote(self, game: Play) -> Flow:
        """Runs after the day's vote and all its consequences, the game not over (the Stuttering Judge)."""
        return nothing()

    def after_dawn(self, game: Play) -> Flow:
        """Runs after the dawn's victims and their consequences (the bear's growl)."""
        return nothing()

    def before_dawn(self, game: Play) -> tuple[Fact, ...]:
        """Runs as the night ends, before its victims are counted; returns news for the dawn (the fire)."""
        return ()

    def adds_votes(self, game: Play, votes: Counter[int]) -> None:
        """Adds votes a roll call does not show (the Raven's two votes) to ``votes``."""

    def before_vote(self, game: Play) -> Flow:
        """Runs before the village votes (the Barkeeper votes first and alone)."""
        return nothing()

    def condemned(self, game: Play, seat: int) -> Generator[Call, Any, bool]:
        """Returns true when the player the vote condemned is pardoned (the Noble)."""
        return False
        yield  # pragma: no cover  (makes this a generator)

    def abandons_side(self, game: Play, seat: int) -> bool:
        """Returns true when the player at ``seat`` no longer wins with their side (a lover of mixed sides)."""
        return False

    def may_lead(self, game: Play, seat: int) -> bool:
        """Returns whether the player at ``seat`` may be named the Sheriff's successor (not a revealed Idiot)."""
        return True

    def at_dawn(self, game: Play) -> Flow:
        """Runs as day breaks, before anything is told (Moonlight's candles counted)."""
        return nothing()

    def death_news(self, game: Play, seats: list[int], dawn: bool) -> tuple[Fact, ...]:
        """Returns what is told right after ``seats`` are announced eliminated, at dawn or by day (the candles)."""
        return ()

    def instead_of_vote(self, game: Play) -> Generator[Call, Any, bool]:
        """Runs the day's vote in a way of its own and returns true, or returns false (the chain of innocence)."""
        return False
        yield  # pragma: no cover  (makes this a generator)

    def vote_facts(self, game: Play) -> tuple[Fact, ...]:
        """Returns what is told as the village is called to vote (the Harvest's Sheriff votes first)."""
        return ()

    def voted_out(self, game: Play, seat: int) -> Flow:
        """Runs after the vote eliminated the player at ``seat`` and its consequences (the Cult's fall)."""
        return nothing()

    def at_dusk(self, game: Play) -> Flow:
        """Runs at the end of the day, before night falls (the graffiti)."""
        return nothing()

    def holds_victory(self, game: Play) -> bool:
        """Returns true when no side may win but by this rule's own ``victory`` (the Black Death)."""
        return False

    def named(self, game: Play, seat: int, by: str, secret: bool) -> None:
        """Raises IllegalAnswer when the player at ``seat`` may not be named by ``by`` (``werewolves``,
        ``big_bad_wolf``, ``vote``): the Barkeeper keeping his token. ``secret``: refused on the screen only."""

    def victory(self, game: Play) -> tuple[int, ...] | None:
        """Returns the winning seats when this role's own goal is reached, else None (loners, lovers)."""
        return None


@dataclass(frozen=True)
class Anew(Kept):
    """The card a Devoted Servant took by day (``taken``), whose first-night choice she makes again on ``night``
    (engine.order.AGAIN: Cupid's lovers, the Wild Child's model, the Wolf Hound's side)."""

    taken: str = ""
    night: int = 0


class GameOver(Exception):
    """Raised inside the flow the instant a side has won (the Angel needs no further step)."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.winner)
        self.outcome = outcome


class Play(State):
    """What a character, an office, a building or a variant sees of the game: the village's state (reading it,
    changing it through State's methods), the table's rules, and the means to make calls and tell facts.
    engine.game.Game is the one kind of Play; the characters never need more of it than this.

    ``roles``: every character by card id (the registry, passed in). ``hooked``: per hook, the roles (and
    offices, buildings, variants) that take part in it, in their order — set by the Game."""

    def __init__(self, table: Table, roles: Mapping[str, Role], deal: Deal) -> None:
        super().__init__(deal.roles, deal.centre, self._side_of, deal.buildings, table.actor_cards)
        self.table = table
        self.deal = deal
        self.rules = table.rules
        self.roles = roles
        self.variants = frozenset(table.rules.variants)
        self.hooked: dict[str, tuple[Role, ...]] = {}
        self.goals: tuple[Role, ...] = ()  # the roles (and variants) with a goal of their own, in win order
        self._facts: list[Fact] = []
        self._call: Call | None = None

    @property
    def call(self) -> Call | None:
        """Returns the call waiting for an answer, or None once the game is over."""
        return self._call

    def _side_of(self, state: State, player: Player) -> Team:
        role = self.roles[player.card]
        return role.team if role.side_is_team else role.side(self, player.seat)

    def step_done(self) -> None:
        """Ends the game if a side has won; called between steps, never inside one (the Game does it)."""
        raise NotImplementedError

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

    def tell(self, fact: Fact) -> None:
        """Records a fact already made (see fact)."""
        self._facts.append(fact)

    def role(self, seat: int) -> Role:
        """Returns the character of the card at ``seat``."""
        return self.roles[self.players[seat - 1].card]

    def holders(self, card: str) -> tuple[int, ...]:
        """Returns the living seats holding ``card`` that may act tonight (the rust's doomed may not)."""
        players, doomed = self.players, self.tonight.doomed
        found = tuple(s for s in self.dealt(card) if players[s - 1].alive and s not in doomed)
        if self.lent:
            lent = self.lent.get(card)  # the Actor, while he has this card's power
            if lent is not None and players[lent - 1].alive and lent not in doomed:
                found += (lent,)
        return found

    def anew(self, card: str) -> int | None:
        """Returns the seat of the Devoted Servant who makes ``card``'s first-night choice again tonight (she took it
        yesterday, lives and has her power), or None."""
        again = self.kept(Anew)
        return self.actor(card) if again.night == self.night and again.taken == card else None

    def chooser(self, card: str) -> int | None:
        """Returns who makes ``card``'s first-night choice tonight: its holder on the first night, a Devoted Servant
        who took it yesterday on a later one (see anew); None when nobody may."""
        return self.actor(card) if self.night == 1 else self.anew(card)

    def plays(self, seat: int, card: str) -> bool:
        """Returns whether the player at ``seat`` has the power of ``card``: holds it, or the Actor has it now."""
        return self.players[seat - 1].card == card or self.lent.get(card) == seat

    def actor(self, card: str) -> int | None:
        """Returns the seat of the living holder of ``card`` who may use its power tonight, or None."""
        for seat in self.holders(card):
            if self.keeps_power(seat):
                return seat
        return None

    def keeps_power(self, seat: int) -> bool:
        """Returns whether the card at ``seat`` still has its power (the Elder's penalty aside from infected;
        a player the Cult seduced has lost theirs, and so has one the Harvest's potion made a simple villager)."""
        marks = self.players[seat - 1].marks
        if "seduced" in marks or "simple_villager" in marks:
            return False
        return not (self.penalty and self.role(seat).villager_power and "infected" not in marks)

    def can_act(self, seat: int | None) -> bool:
        """Returns whether the player at ``seat`` is alive, takes part tonight, and has their power."""
        return (seat is not None and self.alive(seat) and seat not in self.tonight.doomed
                and self.keeps_power(seat))

    def neighbours(self, seat: int) -> tuple[int, ...]:
        """Returns the nearest living players on the left (clockwise) and the right of ``seat`` (not the rust's
        doomed, on the night he dies)."""
        n = self.table.seats
        doomed = self.tonight.doomed
        found: list[int] = []
        for step in (1, -1):
            s = seat
            for _ in range(n - 1):
                s = (s - 1 + step) % n + 1
                if self.alive(s) and s not in doomed:
                    if s != seat and s not in found:
                        found.append(s)
                    break
        return tuple(found)


__all__ = ["Anew", "CallSpec", "Flow", "GameOver", "HOOKS", "Play", "Player", "Role", "nothing"]
