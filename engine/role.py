"""What a character is to the engine: its side, its calls, and its hooks into deaths and the dawn.

Each character lives in one file of ``engine/roles/``, which defines a ``Role``
subclass instance named ``ROLE`` (and, for calls it owns, ``CallSpec``s in
``CALLS``). The engine asks every role in the deck, in a fixed order, at each
hook; a role answers only for what concerns it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, AbstractSet, Any, Callable, Generator, Mapping, Protocol, Sequence

from .order import When
from .state import K, Kept, Night, Player
from .table import Deal, Rules, Table
from .types import Answer, Call, Elimination, Fact, Kind, Outcome, Phase, Tally, Team

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
         "holds_victory", "named", "settled")
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
    winner's name. ``opening_day``: the game starts with a day (the Angel). ``every_day``: its ``after_dawn`` is
    a day's power, offered on that opening day too (the buildings', the Town Crier's), not a morning's (the growl).
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
    every_day: bool = False
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

    def ballot(self, game: Play, voter: int, weight: int, vote: str, day: int) -> int:
        """Returns what the ballot of ``voter`` weighs in the call ``vote`` of ``day`` (``vote``, ``revote``, an
        election; "" at night) once this role has had its say; raises IllegalAnswer for one who may not vote."""
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

    def settled(self, game: Play, tally: Tally) -> Generator[Call, Any, Tally]:
        """Returns the vote's choice once any tie is settled, before the condemned is asked about (the Harvest's
        Scapegoat dies in place of his neighbour)."""
        return tally
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


@dataclass(frozen=True)
class Begun(Kept):
    """The variants begun during the game (a New Moon event card started them, engine/events.py), beside those the
    table plays from the start: kept in the state, so that a replay, a resume or an undo begins them at the same
    moment again. It may change who wins (the Cult's goal)."""

    decides = True
    names: frozenset[str] = frozenset()


class GameOver(Exception):
    """Raised inside the flow the instant a side has won (the Angel needs no further step)."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.winner)
        self.outcome = outcome


class Play(Protocol):
    """What a character, an office, a building or a variant sees of the game, and all it may do to it: read the
    village's state (every attribute read only, every value a frozen record or a read-only view), change it through
    the methods below (engine.state.State carries each out: it is the only code that writes), read the table's
    rules, and make calls and tell facts. The type checker holds every rule and character to it: a write such as
    ``game.tonight.attacks += ...`` or ``game.players.append(...)`` does not type-check. engine.game.Game is the
    one kind of Play.

    ``roles``: every character by card id (the registry, passed in). ``hooked``: per hook, the roles (and
    offices, buildings, variants) that take part in it, in their order. ``goals``: the roles (and variants) with a
    goal of their own, in win order."""

    # -- the table ---------------------------------------------------------

    @property
    def table(self) -> Table: ...
    @property
    def deal(self) -> Deal: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def roles(self) -> Mapping[str, Role]: ...
    @property
    def variants(self) -> frozenset[str]: ...
    @property
    def hooked(self) -> Mapping[str, tuple[Role, ...]]: ...
    @property
    def goals(self) -> tuple[Role, ...]: ...
    @property
    def call(self) -> Call | None:
        """The call waiting for an answer, or None once the game is over."""

    # -- the village's state, read (engine.state.State says what each is) ----

    @property
    def players(self) -> Sequence[Player]: ...
    @property
    def centre(self) -> Sequence[str]: ...
    @property
    def tokens(self) -> Mapping[int, str]: ...
    @property
    def spent(self) -> AbstractSet[int]: ...
    @property
    def middle(self) -> Sequence[str | None]: ...
    @property
    def lent(self) -> Mapping[str, int]: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def number(self) -> int: ...
    @property
    def night(self) -> int: ...
    @property
    def sheriff(self) -> int | None: ...
    @property
    def penalty(self) -> bool: ...
    @property
    def tonight(self) -> Night: ...
    @property
    def eliminated(self) -> Sequence[Elimination]: ...
    @property
    def version(self) -> int: ...
    def kept(self, kind: type[K]) -> K: ...
    def keeps(self, kind: type[Kept]) -> bool: ...
    def card(self, seat: int) -> str: ...
    def alive(self, seat: int) -> bool: ...
    def marked(self, seat: int, mark: str) -> bool: ...
    def living(self) -> tuple[int, ...]: ...
    def present(self) -> tuple[int, ...]: ...
    def dealt(self, card: str) -> Sequence[int]: ...
    def side(self, seat: int) -> Team: ...
    def sides(self) -> Sequence[Team]: ...
    def is_werewolf(self, seat: int) -> bool: ...

    # -- the village's state, changed (engine.state.State carries each out) ----

    def record(self, **changes: Any) -> None: ...
    def attack(self, seat: int, cause: str) -> None: ...
    def spare(self, seat: int, cause: str) -> bool: ...
    def kill(self, seat: int, cause: str, phase: Phase | None = None) -> bool: ...
    def mark(self, seat: int, mark: str) -> None: ...
    def unmark(self, seat: int, mark: str) -> None: ...
    def give(self, seat: int, card: str) -> None: ...
    def swap_centre(self, place: int, card: str) -> None: ...
    def lend(self, place: int, seat: int) -> str: ...
    def end_lending(self) -> None: ...
    def appoint(self, seat: int | None) -> None: ...
    def lose_powers(self) -> None: ...
    def hand_token(self, seat: int, token: str | None) -> None: ...
    def spend(self, seat: int, spent: bool = True) -> None: ...
    def keep(self, kept: Kept) -> None: ...
    def forget(self, kind: type[Kept]) -> None: ...
    def renew(self, card: str, again: bool = False) -> None: ...

    # -- calls and facts, and what the state tells with the rules (engine.playing.Playing says what each does) ----

    def step_done(self) -> None: ...
    def variant(self, name: str) -> bool: ...
    def begin_variant(self, name: str) -> None: ...
    def ask(self, call_id: str, kind: Kind, *, live: bool = True, actors: Sequence[int] = (),
            seats: Sequence[int] | None = None, optional: bool = False, picks: int = 0,
            facts: Sequence[Fact] = (), check: Callable[[Answer], object] | None = None,
            options: Sequence[Answer] = ()) -> Call: ...
    def idle(self, call_id: str, kind: Kind, picks: int = 0, optional: bool = False) -> Flow: ...
    def wake(self, call_id: str, awake: Sequence[int], shown: bool = True) -> Flow: ...
    def fact(self, key: str, *, secret: bool = False, **values: object) -> None: ...
    def tell(self, fact: Fact) -> None: ...
    def role(self, seat: int) -> Role: ...
    def holders(self, card: str) -> tuple[int, ...]: ...
    def anew(self, card: str) -> int | None: ...
    def chooser(self, card: str) -> int | None: ...
    def plays(self, seat: int, card: str) -> bool: ...
    def actor(self, card: str) -> int | None: ...
    def keeps_power(self, seat: int) -> bool: ...
    def can_act(self, seat: int | None) -> bool: ...
    def neighbours(self, seat: int) -> tuple[int, ...]: ...


__all__ = ["Anew", "Begun", "CallSpec", "Flow", "GameOver", "HOOKS", "Play", "Player", "Role", "nothing"]
