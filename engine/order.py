"""Call-order profiles, as data: which calls a night makes, in which order, on which nights.

A call is made only when its character is in the deck (see roles.CallSpec.roles);
whether it is live or made for fair play is the role's business, not the order's.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Mapping


class When(str, Enum):
    """On which nights an entry of a profile is called."""

    FIRST = "first"  # the first night only
    EVERY = "every"  # every night
    LATER = "later"  # every night but the first
    EVEN = "even"  # nights 2, 4, 6, ...
    EVEN_IF_RULE = "even_if_rule"  # nights 2, 4, ... when the table turns Rules.sisters_wake on
    NTH = "nth"  # nights N, 2N, 3N, ...: N is the Rules field the entry names (0: never)
    LATER_NTH = "later_nth"  # likewise, but never the first night (a first-night entry has it)


INTERVALS = {"white_werewolf_interval": 2, "sisters_interval": 0, "brothers_interval": 2}
"""The Rules fields that set an entry's interval (When.NTH, When.LATER_NTH), with the rulebook's values: the
defaults of those fields (engine.table.Rules takes them from here)."""


@dataclass(frozen=True)
class Entry:
    """One line of a call order: a call id, the nights it is made, and for an entry made every N nights
    the Rules field that sets N (``every``)."""

    call: str
    when: When
    every: str = ""

    def made_on(self, night: int, sisters_wake: bool, intervals: Mapping[str, int] | None = None) -> bool:
        """Returns whether this entry is called on ``night``.

        >>> Entry("white_werewolf", When.NTH, "white_werewolf_interval").made_on(2, False)
        True
        >>> Entry("white_werewolf", When.NTH, "white_werewolf_interval").made_on(3, False, {"white_werewolf_interval": 3})
        True
        >>> Entry("sisters", When.LATER_NTH, "sisters_interval").made_on(2, False)
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
        if self.when is When.EVEN_IF_RULE:
            return sisters_wake and night % 2 == 0
        n = interval(self.every, sisters_wake, intervals)
        return n > 0 and night % n == 0 and (self.when is When.NTH or night > 1)


def interval(rule: str, sisters_wake: bool = False, intervals: Mapping[str, int] | None = None) -> int:
    """Returns the interval the Rules field ``rule`` sets; ``sisters_wake`` (the older switch) is interval 2.

    >>> interval("sisters_interval", True), interval("sisters_interval", False, {"sisters_interval": 3})
    (2, 3)
    """
    n = (intervals or {}).get(rule, INTERVALS[rule])
    if rule == "sisters_interval" and not n and sisters_wake:
        return 2
    return n


def _profile(*rows: tuple[str, When] | tuple[str, When, str]) -> tuple[Entry, ...]:
    return tuple(Entry(*row) for row in rows)


F, E, L = When.FIRST, When.EVERY, When.LATER
# The White Werewolf every Rules.white_werewolf_interval nights (the rulebook: 2); the Sisters again every
# Rules.sisters_interval nights (the Best Of makes it optional: never; sisters_wake: every 2); the Brothers every
# Rules.brothers_interval nights (the Chinese article, their only source: 每两晚, every 2).
WHITE = (When.NTH, "white_werewolf_interval")
OPT = (When.LATER_NTH, "sisters_interval")
BROTHERS = (When.LATER_NTH, "brothers_interval")

# docs/rules.md, profile `bestof`: the Best Of order, expansion characters slotted
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
    ("sisters", *OPT),
    ("brothers", *BROTHERS),
    ("guard", E),
    ("werewolves", E),
    ("baker", E),  # the Village's Baker opens his eyes as the werewolves go back to sleep (the Chinese article: 面包师)
    ("white_werewolf", *WHITE),
    ("infected_father", E),
    ("big_bad_wolf", E),
    ("witch", E),
    ("gypsy", E),
    ("fox", E),
    ("piper", E),
    ("charmed", E),
)

# docs/rules.md, profile `pact`: the Chinese article's complete order (
# 游戏流程: 第一夜 steps 1-23, 夜晚 steps 1-18), translated step by step. One
# list serves first and later nights; no call moves between the two orders, so
# no call appears twice. Unlike `bestof`, the Fox follows the Seer and the
# Lovers wake after the Fox. Steps with no CallSpec yet (skipped by the engine):
# actor, stuttering_judge, gypsy. The Baker (面包师) is a village building,
# called when its token is dealt (engine.village). The Little Girl (小女孩) spies during the
# werewolves' call; the Town Crier's (公告员) event cards and the bear's growl
# belong to the day, not to the night.
PACT: tuple[Entry, ...] = _profile(
    ("thief", F),  # 第一夜 1. 叫醒小偷，选择身份
    ("actor", E),  # 第一夜 2. / 夜晚 1. 叫醒演员
    ("cupid", F),  # 第一夜 3. 叫醒丘比特，选择情侣
    ("seer", E),  # 第一夜 4. / 夜晚 2. 叫醒预言家
    ("fox", E),  # 第一夜 5. / 夜晚 3. 叫醒狐狸
    ("lovers", F),  # 第一夜 6. 叫醒情侣，互相确认彼此
    ("stuttering_judge", F),  # 第一夜 7. 叫醒口吃法官，并约定手势
    ("sisters", F),  # 第一夜 8. 叫醒双胞胎姐妹互相认识
    ("brothers", F),  # 第一夜 9. 叫醒三兄弟互相认识
    ("wild_child", F),  # 第一夜 10. 叫醒野孩子，选择偶像
    ("bear_tamer", F),  # 第一夜 11. 叫醒驯熊人
    ("raven", E),  # 第一夜 12. / 夜晚 4. 叫醒乌鸦
    ("pyromaniac", E),  # 第一夜 13. / 夜晚 5. 叫醒纵火狂
    ("sisters", *OPT),  # 夜晚 6. （每偶数个夜晚，或适当时间）叫醒双胞胎姐妹
    ("brothers", *BROTHERS),  # 夜晚 7. （每偶数个夜晚，或适当时间）叫醒三兄弟
    ("guard", E),  # 第一夜 14. / 夜晚 8. 叫醒守卫
    # 第一夜 15. 叫醒所有狼人，如果猎狼犬也选择睁眼则视为他选择加入狼人阵营: the
    # Wolf Hound's choice is made as the pack wakes, so his call comes just before.
    ("wolf_hound", F),
    ("werewolves", E),  # 第一夜 15.-16. / 夜晚 9.-10. 叫醒所有狼人; 小女孩可以偷看
    ("baker", E),  # 第一夜 17. / 夜晚 11. 面包师快速睁眼，然后闭眼
    ("white_werewolf", *WHITE),  # 夜晚 12. （每偶数个夜晚）叫醒白狼人
    ("infected_father", E),  # 第一夜 18. / 夜晚 13. 叫醒施咒的狼教父
    ("big_bad_wolf", E),  # 第一夜 19. / 夜晚 14. 叫醒大野狼
    ("witch", E),  # 第一夜 20. / 夜晚 15. 叫醒女巫
    ("gypsy", E),  # 第一夜 21. / 夜晚 16. 叫醒吉普赛人
    ("piper", E),  # 第一夜 22. / 夜晚 17. 叫醒吹笛人
    ("charmed", E),  # 第一夜 23. / 夜晚 18. 叫醒被魅惑的玩家
)

PROFILES: dict[str, tuple[Entry, ...]] = {"bestof": BESTOF, "pact": PACT}
"""Call orders by name; the table's rules choose one."""

AGAIN = frozenset({"cupid", "lovers", "wild_child", "wolf_hound"})
"""The first-night calls made again, in their first-night places, on the night after a Devoted Servant took a card
(the Chinese article: she makes Cupid's, the Wild Child's or the Wolf Hound's choice again). Made whatever card she
took, live only for hers: which card she took is secret."""


def night_calls(profile: str, night: int, sisters_wake: bool = False,
                intervals: Mapping[str, int] | None = None, again: bool = False) -> tuple[str, ...]:
    """Returns the call ids of a night in order, before the deck is taken into account.

    >>> night_calls("bestof", 1)[:4]
    ('thief', 'actor', 'cupid', 'lovers')
    >>> night_calls("bestof", 2)[:3]
    ('actor', 'seer', 'raven')
    >>> night_calls("bestof", 2, again=True)[:5]
    ('actor', 'cupid', 'lovers', 'seer', 'wild_child')

    ``again``: a Devoted Servant took a card the day before (see AGAIN).
    """
    return _night_calls(profile, night, sisters_wake, tuple(sorted((intervals or {}).items())), again)


@lru_cache(maxsize=1024)
def _night_calls(profile: str, night: int, sisters_wake: bool,
                 intervals: tuple[tuple[str, int], ...], again: bool = False) -> tuple[str, ...]:
    # Cached: every game asks for every night's order, and simulate plays thousands of games.
    known = dict(intervals)
    return tuple(e.call for e in PROFILES[profile] if e.made_on(night, sisters_wake, known)
                 or (again and e.when is When.FIRST and e.call in AGAIN))
