"""What a character is to the engine: its side, its calls, and its hooks into deaths and the dawn.

Each character lives in one file of ``engine/roles/``, which defines a ``Role``
subclass instance named ``ROLE`` (and, for calls it owns, ``CallSpec``s in
``CALLS``). The engine asks every role in the deck, in a fixed order, at each
hook; a role answers only for what concerns it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Generator

from .types import Call, Fact, Kind, Team

if TYPE_CHECKING:
    from collections import Counter

    from .game import Game
    from .votes import Tally

Flow = Generator[Call, Any, None]
"""A piece of the game: yields calls, receives their (checked) answers."""


def nothing() -> Flow:
    """Returns a flow that makes no call."""
    return
    yield  # pragma: no cover  (makes this a generator)


@dataclass(frozen=True)
class CallSpec:
    """A night call a role owns: made when any of ``roles`` is in the deck, run by ``run``;
    ``kind`` is the shape of its answer."""

    id: str
    kind: Kind
    roles: frozenset[str]
    run: Callable[["Game"], Flow]


HOOKS = ("at_nightfall", "survives", "on_mark", "on_death", "ballot", "on_vote", "after_dawn", "abandons_side",
         "may_lead", "at_start", "on_condemned", "after_vote", "before_dawn", "adds_votes", "before_vote",
         "condemned")
"""The methods through which a role takes part in the game beyond its own calls."""


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

    def side(self, game: "Game", seat: int) -> Team:
        """Returns the side the holder of this card plays for now (infection aside)."""
        return self.team

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        # Known once per class: a card whose side() is its team never changes side by itself, and
        # the game asks a role only at the hooks it overrides.
        cls.side_is_team = cls.side is Role.side
        cls.overrides = frozenset(name for name in HOOKS if getattr(cls, name) is not getattr(Role, name))

    def at_nightfall(self, game: "Game") -> None:
        """Runs when night falls, before any call (the Knight's rust, the Wild Child turning)."""

    def survives(self, game: "Game", seat: int, cause: str) -> bool:
        """Returns true when the player at ``seat`` is spared a death by ``cause`` (the Elder's first bite)."""
        return False

    def on_mark(self, game: "Game", seat: int, cause: str) -> None:
        """Runs the instant any player is eliminated, before any consequence (the Angel, the Elder's penalty)."""

    def on_death(self, game: "Game", seat: int, cause: str) -> Flow:
        """Runs the consequences of any player's elimination that concern this role (grief, the shot)."""
        return nothing()

    def ballot(self, game: "Game", voter: int, weight: int) -> int:
        """Returns what the ballot of ``voter`` weighs once this role has had its say."""
        return weight

    def on_vote(self, game: "Game", tally: "Tally") -> Generator[Call, Any, "Tally"]:
        """Returns the vote's result once this role has had its say (the Scapegoat takes a tie)."""
        return tally
        yield  # pragma: no cover  (makes this a generator)

    def at_start(self, game: "Game") -> Flow:
        """Runs once before anything else, the Sheriff's election included (the Manipulator's groups)."""
        return nothing()

    def on_condemned(self, game: "Game", seat: int) -> Flow:
        """Runs when a vote condemns the living player at ``seat``, before the elimination (the Servant)."""
        return nothing()

    def after_vote(self, game: "Game") -> Flow:
        """Runs after the day's vote and all its consequences, the game not over (the Stuttering Judge)."""
        return nothing()

    def after_dawn(self, game: "Game") -> Flow:
        """Runs after the dawn's victims and their consequences (the bear's growl)."""
        return nothing()

    def before_dawn(self, game: "Game") -> tuple[Fact, ...]:
        """Runs as the night ends, before its victims are counted; returns news for the dawn (the fire)."""
        return ()

    def adds_votes(self, game: "Game", votes: "Counter[int]") -> None:
        """Adds votes a roll call does not show (the Raven's two votes) to ``votes``."""

    def before_vote(self, game: "Game") -> Flow:
        """Runs before the village votes (the Barkeeper votes first and alone)."""
        return nothing()

    def condemned(self, game: "Game", seat: int) -> Generator[Call, Any, bool]:
        """Returns true when the player the vote condemned is pardoned (the Noble)."""
        return False
        yield  # pragma: no cover  (makes this a generator)

    def abandons_side(self, game: "Game", seat: int) -> bool:
        """Returns true when the player at ``seat`` no longer wins with their side (a lover of mixed sides)."""
        return False

    def may_lead(self, game: "Game", seat: int) -> bool:
        """Returns whether the player at ``seat`` may be named the Sheriff's successor (not a revealed Idiot)."""
        return True

    def victory(self, game: "Game") -> tuple[int, ...] | None:
        """Returns the winning seats when this role's own goal is reached, else None (loners, lovers)."""
        return None
