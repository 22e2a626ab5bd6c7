"""Call-order profiles, as data: which calls a night makes, in which order, on which nights.

A call is made only when its character is in the deck (see roles.CallSpec.roles);
whether it is live or made for fair play is the role's business, not the order's.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class When(str, Enum):
    """On which nights an entry of a profile is called."""

    FIRST = "first"  # the first night only
    EVERY = "every"  # every night
    LATER = "later"  # every night but the first
    EVEN = "even"  # nights 2, 4, 6, ...
    EVEN_IF_RULE = "even_if_rule"  # nights 2, 4, ... when the table turns Rules.sisters_wake on


@dataclass(frozen=True)
class Entry:
    """One line of a call order: a call id and the nights it is made."""

    call: str
    when: When

    def made_on(self, night: int, sisters_wake: bool) -> bool:
        """Returns whether this entry is called on ``night``.

        >>> Entry("white_werewolf", When.EVEN).made_on(2, False)
        True
        >>> Entry("sisters", When.EVEN_IF_RULE).made_on(2, False)
        False
        """
        if self.when is When.FIRST:
            return night == 1
        if self.when is When.EVERY:
            return True
        if self.when is When.LATER:
            return night > 1
        if self.when is When.EVEN:
            return night % 2 == 0
        return sisters_wake and night % 2 == 0


def _profile(*rows: tuple[str, When]) -> tuple[Entry, ...]:
    return tuple(Entry(call, when) for call, when in rows)


F, E, L, EVEN, OPT = When.FIRST, When.EVERY, When.LATER, When.EVEN, When.EVEN_IF_RULE

# rulings.md, profile `bestof`: the Best Of order, expansion characters slotted
# in where The Pact puts them. One list serves first and later nights: the
# first-night-only calls sit where the first night has them, and no call of
# the later nights moves relative to another.
BESTOF: tuple[Entry, ...] = _profile(
    ("thief", F),
    ("actor", E),
    ("cupid", F),
    ("lovers", F),
    ("seer", E),
    ("stuttering_judge", F),
    ("sisters", F),
    ("brothers", F),
    ("wild_child", F),
    ("wolf_hound", F),
    ("bear_tamer", F),
    ("raven", E),
    ("pyromaniac", E),
    ("sisters", OPT),
    ("brothers", OPT),
    ("guard", E),
    ("werewolves", E),
    ("white_werewolf", EVEN),
    ("infected_father", E),
    ("big_bad_wolf", E),
    ("witch", E),
    ("gypsy", E),
    ("fox", E),
    ("piper", E),
    ("charmed", E),
)

PROFILES: dict[str, tuple[Entry, ...]] = {"bestof": BESTOF}
"""Call orders by name; the table's rules choose one."""


def night_calls(profile: str, night: int, sisters_wake: bool = False) -> tuple[str, ...]:
    """Returns the call ids of a night in order, before the deck is taken into account.

    >>> night_calls("bestof", 1)[:4]
    ('thief', 'actor', 'cupid', 'lovers')
    >>> night_calls("bestof", 2)[:3]
    ('actor', 'seer', 'raven')
    """
    return tuple(e.call for e in PROFILES[profile] if e.made_on(night, sisters_wake))
