"""The village's state, and the only code that changes it.

Every change to the players, the offices, the eliminations, the running night and what each character keeps
goes through a method of ``State``; each of them invalidates the caches it affects (the living, the sides,
victory's check), so no other module can leave one stale. Other modules read; they never assign: the game holds
its State (engine.playing) and its characters see it through engine.role.Play, whose attributes are read only and
whose values are frozen records (Player, Night) or read-only views, so a write elsewhere fails to type-check.

What a character keeps of its own (the Witch's potions, the Elder's lives, the lovers) is a frozen dataclass
declared in the character's own module, a subclass of ``Kept``, reached by its type: ``state.kept(Potions)``
returns it (its defaults when nothing was kept yet) and ``state.keep(Potions(...))`` replaces it. A typo in a
type's name is an import error, not a silent ``None``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable, ClassVar, Iterable, Sequence, TypeVar

from .types import Elimination, Phase, Team


@dataclass(frozen=True)
class Kept:
    """What a character (or a building, an office, a variant) keeps between calls. Subclasses are frozen
    dataclasses whose defaults are the state at the start of the game.

    ``card``: whose it is — a Devoted Servant who takes that card renews it when ``renewed`` (fresh potions, a
    new Elder's lives), and keeps it otherwise. ``nightly``: forgotten when night falls (a choice made for one
    night). ``sided``: changes a player's side (the Wolf Hound's choice), so the sides are worked out again.
    ``decides``: may change who has won (the lovers, the Black Death's refusal), so victory is checked again; what
    neither changes a side nor decides leaves victory's check alone (most of what a game keeps). ``again``: a
    first-night choice a Devoted Servant who takes the card makes again (the Wild Child's model, the Wolf Hound's
    side), forgotten when she takes it if the table's rules say so (Rules.servant_chooses_again).
    """

    card: ClassVar[str] = ""
    renewed: ClassVar[bool] = False
    nightly: ClassVar[bool] = False
    sided: ClassVar[bool] = False
    decides: ClassVar[bool] = False
    again: ClassVar[bool] = False


K = TypeVar("K", bound=Kept)

_DEFAULTS: dict[type[Kept], Kept] = {}
"""Each kind's defaults, made once (a cache of values that never change, not state)."""


@dataclass(frozen=True, slots=True)
class Night:
    """What the running night has decided so far, forgotten at the next nightfall: who woke with the pack,
    the werewolves' victim, the player protected from their bite, the deaths in the making (seat, cause) and
    the werewolf the rust killed at nightfall (dead, announced at dawn). A frozen record, its values tuples and
    frozensets: State.record replaces it, and nothing read from it can be changed."""

    pack: tuple[int, ...] = ()
    victim: int | None = None
    protected: int | None = None
    attacks: tuple[tuple[int, str], ...] = ()
    doomed: frozenset[int] = frozenset()
    bites: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def devourers(self, cause: str) -> tuple[int, ...]:
        """Returns who bit by ``cause`` tonight: the pack for the werewolves' bite, else what was recorded in
        ``bites`` (the Big Bad Wolf who bit alone); the Knight's rust needs them."""
        if cause == "werewolves":
            return self.pack
        return next((seats for c, seats in self.bites if c == cause), ())


_NIGHT = tuple(f.name for f in fields(Night))
"""A night's fields, in order."""


@dataclass(frozen=True, slots=True)
class Player:
    """A seat at the table: the card it holds now, whether it is alive, and its marks (``infected``,
    ``charmed``, ``turned``, ``simple_villager``, ...). A frozen record: State replaces it when it changes."""

    seat: int
    card: str
    alive: bool = True
    marks: frozenset[str] = frozenset()


class State:
    """The village: its players, the phase, the offices, the eliminations, the night, what each character keeps.

    ``side_of(state, player)`` gives a player's side from their card (the roles know it; the state is below
    them), infection and the Harvest's simple villagers aside."""

    def __init__(self, roles: Iterable[str], centre: Iterable[str], side_of: Callable[[Any, Player], Team],
                 tokens: Iterable[tuple[int, str]] = (), middle: Iterable[str] = ()) -> None:
        self.players = [Player(i + 1, card) for i, card in enumerate(roles)]
        self._dealt: dict[str, list[int]] = {}  # card -> seats holding it; give() keeps it current
        for p in self.players:
            self._dealt.setdefault(p.card, []).append(p.seat)
        self.centre = list(centre)  # the Thief's two cards
        self.tokens: dict[int, str] = dict(tokens)  # seat -> building token held now (public)
        self.spent: set[int] = set()  # seats whose token's power is spent or lost (the house kept)
        self.middle: list[str | None] = list(middle)  # the Actor's cards; None: taken
        self.lent: dict[str, int] = {}  # card -> the Actor's seat, while he has that card's power
        self._side_of = side_of
        self.phase = Phase.DAY
        self.number = 0
        self.night = 0
        self.sheriff: int | None = None
        self.penalty = False  # the villagers' special powers are lost (the Elder's penalty)
        self.tonight = Night()
        self.eliminated: list[Elimination] = []
        self._kept: dict[type[Kept], Kept] = {}
        self._living: tuple[int, ...] | None = None
        self.version = 0  # bumped by every change that can decide victory
        self._sides_version = 0  # bumped by every change of a player's side (marks, kept sides, cards)
        self._sides: list[Team] = []
        self._wolves: list[bool] = []
        self._sides_at = -1

    # -- changes: the only ones there are ----------------------------------

    def _changed(self, sides: bool = False) -> None:
        self.version += 1
        if sides:
            self._sides_version += 1

    def begin(self, phase: Phase) -> None:
        """Begins a night (the next one: its record and every nightly thing kept are forgotten) or a day."""
        self.phase = phase
        if phase is Phase.NIGHT:
            self.night += 1
            self.number = self.night
            self.tonight = Night()
            for kind in [k for k in self._kept if k.nightly]:
                del self._kept[kind]

    def record(self, **changes: Any) -> None:
        """Records what the running night decided: ``record(victim=4)``, ``record(protected=2)`` (Night)."""
        unknown = changes.keys() - _NIGHT
        if unknown:
            raise TypeError(f"a night records no {', '.join(sorted(unknown))}")
        # Made anew field by field, not with dataclasses.replace: several times as fast, and a game records often.
        get, tonight = changes.get, self.tonight
        self.tonight = Night(get("pack", tonight.pack), get("victim", tonight.victim),
                             get("protected", tonight.protected), get("attacks", tonight.attacks),
                             get("doomed", tonight.doomed), get("bites", tonight.bites))
        # no version bump: who wins never depends on the night in the making

    def attack(self, seat: int, cause: str) -> None:
        """Adds a death in the making tonight (dealt at dawn)."""
        self.record(attacks=(*self.tonight.attacks, (seat, cause)))

    def spare(self, seat: int, cause: str) -> bool:
        """Takes back tonight's attack on ``seat`` by ``cause`` (a heal); False if there was none."""
        attacks = list(self.tonight.attacks)
        if (seat, cause) not in attacks:
            return False
        attacks.remove((seat, cause))
        self.record(attacks=tuple(attacks))
        return True

    def kill(self, seat: int, cause: str, phase: Phase | None = None) -> bool:
        """Marks ``seat`` eliminated by ``cause`` and records it; False if already out of the game."""
        player = self.players[seat - 1]
        if not player.alive:
            return False
        self.players[seat - 1] = Player(seat, player.card, False, player.marks)
        self._living = None
        self._changed()
        self.eliminated.append(Elimination(seat, player.card, phase or self.phase, self.number, cause))
        return True

    def mark(self, seat: int, mark: str) -> None:
        """Puts ``mark`` (``infected``, ``charmed``, ``turned``, ...) on the player at ``seat``."""
        player = self.players[seat - 1]
        self.players[seat - 1] = Player(seat, player.card, player.alive, player.marks | {mark})
        self._changed(sides=True)

    def unmark(self, seat: int, mark: str) -> None:
        """Takes ``mark`` off the player at ``seat`` (a Servant loses her charm), if it is there."""
        player = self.players[seat - 1]
        self.players[seat - 1] = Player(seat, player.card, player.alive, player.marks - {mark})
        self._changed(sides=True)

    def give(self, seat: int, card: str) -> None:
        """Gives the player at ``seat`` another card (the Thief's swap, the Servant's exchange)."""
        self._dealt[self.players[seat - 1].card].remove(seat)
        self._dealt.setdefault(card, []).append(seat)
        self._dealt[card].sort()
        player = self.players[seat - 1]
        self.players[seat - 1] = Player(seat, card, player.alive, player.marks)
        self._changed(sides=True)

    def swap_centre(self, place: int, card: str) -> None:
        """Puts ``card`` in the centre at ``place`` (1-based): the Thief leaves his own card there."""
        self.centre[place - 1] = card

    def lend(self, place: int, seat: int) -> str:
        """The Actor at ``seat`` takes the middle card at ``place`` (1-based) and has its power; returns it."""
        card = self.middle[place - 1]
        assert card is not None
        self.middle[place - 1] = None
        self.lent[card] = seat
        return card

    def end_lending(self) -> None:
        """The Actor's borrowed power ends as the next night begins."""
        self.lent.clear()

    def appoint(self, seat: int | None) -> None:
        """Gives the Sheriff's medal to ``seat`` (None: nobody holds it)."""
        self.sheriff = seat
        self._changed()

    def lose_powers(self) -> None:
        """The Elder's penalty: every villager loses their special power for the rest of the game."""
        self.penalty = True
        self._changed()

    def hand_token(self, seat: int, token: str | None) -> None:
        """Gives ``seat`` a building's token, its power afresh (None: takes the token away)."""
        if token is None:
            self.tokens.pop(seat, None)
        else:
            self.tokens[seat] = token
        self.spent.discard(seat)
        self._changed()

    def spend(self, seat: int, spent: bool = True) -> None:
        """Spends (or gives back) the power of the token at ``seat``."""
        if spent:
            self.spent.add(seat)
        else:
            self.spent.discard(seat)
        self._changed()

    def keep(self, kept: Kept) -> None:
        """Keeps ``kept`` in place of what was kept of its type."""
        kind = type(kept)
        self._kept[kind] = kept
        if kind.decides or kind.sided:
            self._changed(sides=kind.sided)

    def forget(self, kind: type[Kept]) -> None:
        """Forgets what was kept of ``kind``: it reads as its defaults again."""
        if self._kept.pop(kind, None) is not None and (kind.decides or kind.sided):
            self._changed(sides=kind.sided)

    def renew(self, card: str, again: bool = False) -> None:
        """A Devoted Servant takes ``card``: what the card renews (``Kept.renewed``) starts afresh, and with ``again``
        its first-night choice too (``Kept.again``)."""
        for kind in [k for k in self._kept if k.card == card and (k.renewed or (again and k.again))]:
            self.forget(kind)

    # -- reading -----------------------------------------------------------

    def kept(self, kind: type[K]) -> K:
        """Returns what is kept of ``kind`` (its defaults when nothing is)."""
        found = self._kept.get(kind)
        if found is None:
            found = _DEFAULTS.get(kind) or _DEFAULTS.setdefault(kind, kind())  # frozen: one default serves all
        return found  # type: ignore[return-value]

    def keeps(self, kind: type[Kept]) -> bool:
        """Returns whether anything is kept of ``kind`` (not merely its defaults)."""
        return kind in self._kept

    def card(self, seat: int) -> str:
        """Returns the card the player at ``seat`` holds now."""
        return self.players[seat - 1].card

    def alive(self, seat: int) -> bool:
        """Returns whether the player at ``seat`` is still in the game."""
        return self.players[seat - 1].alive

    def marked(self, seat: int, mark: str) -> bool:
        """Returns whether the player at ``seat`` bears ``mark``."""
        return mark in self.players[seat - 1].marks

    def living(self) -> tuple[int, ...]:
        """Returns the seats still in the game, in order."""
        if self._living is None:
            self._living = tuple(p.seat for p in self.players if p.alive)
        return self._living

    def present(self) -> tuple[int, ...]:
        """Returns the seats that may be chosen now: the living, less the rust's doomed on the night he dies
        (dead at nightfall, he is announced at dawn)."""
        living = self.living()
        doomed = self.tonight.doomed
        return tuple(s for s in living if s not in doomed) if doomed else living

    def dealt(self, card: str) -> Sequence[int]:
        """Returns the seats holding ``card`` now, dead or alive, in seat order (read only: the state's own list,
        not a copy, as the hottest reading of a game)."""
        return self._dealt.get(card, ())

    def side(self, seat: int) -> Team:
        """Returns the side the player at ``seat`` plays for now (infection first)."""
        return self.sides()[seat - 1]

    def sides(self) -> list[Team]:
        """Returns every seat's side now, by seat - 1 (dead or alive)."""
        if self._sides_at != self._sides_version:
            self._sort_sides()
        return self._sides

    def is_werewolf(self, seat: int) -> bool:
        """Returns whether the player counts as a werewolf for every rule (the White Werewolf does)."""
        if self._sides_at != self._sides_version:
            self._sort_sides()
        return self._wolves[seat - 1]

    def _sort_sides(self) -> None:
        sides = []
        for p in self.players:
            if "infected" in p.marks:
                sides.append(Team.WEREWOLVES)
            elif "simple_villager" in p.marks:  # the Harvest's potion: a simple villager, whatever the card
                sides.append(Team.VILLAGE)
            else:
                sides.append(self._side_of(self, p))
        self._sides = sides
        self._wolves = [s is Team.WEREWOLVES or s is Team.WHITE_WEREWOLF for s in sides]
        self._sides_at = self._sides_version


def snapshot(state: State) -> tuple[object, ...]:
    """Returns everything the state holds, to compare two states (a replay must rebuild the same)."""
    return (state.phase, state.number, state.night, state.sheriff, state.penalty, state.tonight,
            tuple(state.eliminated), tuple((p.card, p.alive, tuple(sorted(p.marks))) for p in state.players),
            tuple(state.centre), tuple(sorted(state.tokens.items())), tuple(sorted(state.spent)), tuple(state.middle),
            tuple(sorted(state.lent.items())),
            tuple(sorted(((k.__module__, k.__qualname__), repr(v)) for k, v in state._kept.items())))
