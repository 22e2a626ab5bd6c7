"""The `pact` call order (docs/rules.md, "The night call order": the profile `pact` is the Chinese article's
complete order, step by step; there the Fox follows the Seer, and the Lovers wake after the Fox).

The article's order is in its section 游戏流程 (the course of the game): 第一夜 (the first night, steps 1-23)
and 夜晚 (every later night, steps 1-18); engine/order.py has each step beside its call.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine import PROFILES, Phase, night_calls
from engine.order import BESTOF, PACT, When
from engine.roles import CALLS
from helpers import call_ids, drive, new_game, play_harmlessly

# 第一夜, steps 1-23, one id a step. Step 15 (叫醒所有狼人，如果猎狼犬也选择睁眼则视为他选择加入狼人阵营)
# is the Wolf Hound's choice as the pack wakes: our `wolf_hound` call, then `werewolves`. Step 16 (等待狼人
# 选择受害者，此时小女孩可以偷看) is the werewolves' own call, the Little Girl spying: no call of its own.
FIRST_NIGHT = [
    "thief",  # 1. 叫醒小偷，选择身份
    "actor",  # 2. 叫醒演员
    "cupid",  # 3. 叫醒丘比特，选择情侣
    "seer",  # 4. 叫醒预言家
    "fox",  # 5. 叫醒狐狸
    "lovers",  # 6. 叫醒情侣，互相确认彼此
    "stuttering_judge",  # 7. 叫醒口吃法官，并约定手势
    "sisters",  # 8. 叫醒双胞胎姐妹互相认识
    "brothers",  # 9. 叫醒三兄弟互相认识
    "wild_child",  # 10. 叫醒野孩子，选择偶像
    "bear_tamer",  # 11. 叫醒驯熊人
    "raven",  # 12. 叫醒乌鸦
    "pyromaniac",  # 13. 叫醒纵火狂
    "guard",  # 14. 叫醒守卫
    "wolf_hound", "werewolves",  # 15.-16. 叫醒所有狼人 (猎狼犬选择睁眼; 小女孩可以偷看)
    "baker",  # 17. 面包师快速睁眼，然后闭眼
    "infected_father",  # 18. 叫醒施咒的狼教父
    "big_bad_wolf",  # 19. 叫醒大野狼
    "witch",  # 20. 叫醒女巫
    "gypsy",  # 21. 叫醒吉普赛人
    "piper",  # 22. 叫醒吹笛人
    "charmed",  # 23. 叫醒被魅惑的玩家
]

# 夜晚, steps 1-18, on an even night with the table's sisters_wake rule on (steps 6-7 say "每偶数个夜晚，
# 或适当时间": every even night, or when fitting — the table's choice, Rules.sisters_wake).
EVEN_NIGHT_WITH_SISTERS = [
    "actor",  # 1. 叫醒演员
    "seer",  # 2. 叫醒预言家
    "fox",  # 3. 叫醒狐狸
    "raven",  # 4. 叫醒乌鸦
    "pyromaniac",  # 5. 叫醒纵火狂
    "sisters",  # 6. （每偶数个夜晚，或适当时间）叫醒双胞胎姐妹
    "brothers",  # 7. （每偶数个夜晚，或适当时间）叫醒三兄弟
    "guard",  # 8. 叫醒守卫
    "werewolves",  # 9.-10. 叫醒所有狼人 (小女孩可以偷看)
    "baker",  # 11. 面包师快速睁眼，然后闭眼
    "white_werewolf",  # 12. （每偶数个夜晚）叫醒白狼人
    "infected_father",  # 13. 叫醒施咒的狼教父
    "big_bad_wolf",  # 14. 叫醒大野狼
    "witch",  # 15. 叫醒女巫
    "gypsy",  # 16. 叫醒吉普赛人
    "piper",  # 17. 叫醒吹笛人
    "charmed",  # 18. 叫醒被魅惑的玩家
]
EVEN_NIGHT = [c for c in EVEN_NIGHT_WITH_SISTERS if c != "sisters"]  # the Brothers every other night by default
ODD_NIGHT = [c for c in EVEN_NIGHT if c not in ("white_werewolf", "brothers")]


# -- the profile as data ---------------------------------------------------------------------------


def test_pact_is_registered_next_to_bestof() -> None:
    assert PROFILES["pact"] is PACT and PROFILES["bestof"] is BESTOF


def test_first_night_is_the_articles() -> None:
    """第一夜 1-23 (article lines 212-234)."""
    assert list(night_calls("pact", 1)) == FIRST_NIGHT
    assert list(night_calls("pact", 1, sisters_wake=True)) == FIRST_NIGHT


def test_later_nights_are_the_articles() -> None:
    """夜晚 1-18 (article lines 238-255): the White Werewolf and the Brothers (每两晚) on even nights, the Sisters
    on even nights when the table turns sisters_wake on."""
    assert list(night_calls("pact", 2)) == EVEN_NIGHT
    assert list(night_calls("pact", 3)) == ODD_NIGHT
    assert list(night_calls("pact", 4)) == EVEN_NIGHT
    assert list(night_calls("pact", 2, sisters_wake=True)) == EVEN_NIGHT_WITH_SISTERS
    assert list(night_calls("pact", 3, sisters_wake=True)) == ODD_NIGHT


def test_the_fox_follows_the_seer_and_the_lovers_the_fox() -> None:
    """docs/rules.md: there the Fox follows the Seer, and the Lovers wake after the Fox."""
    first = night_calls("pact", 1)
    assert first.index("fox") == first.index("seer") + 1
    assert first.index("lovers") == first.index("fox") + 1
    for night in (2, 3):
        later = night_calls("pact", night)
        assert later.index("fox") == later.index("seer") + 1
    # and bestof keeps the Best Of order: the Lovers before the Seer, the Fox after the Witch
    best = night_calls("bestof", 1)
    assert best.index("lovers") < best.index("seer") < best.index("witch") < best.index("fox")


def test_first_night_only_calls_are_made_on_the_first_night_only() -> None:
    """The calls the article lists only under 第一夜 are FIRST; those of 夜晚 only, NTH or LATER_NTH."""
    whens = {(e.call, e.when) for e in PACT}
    for call in ("thief", "cupid", "lovers", "stuttering_judge", "wild_child", "bear_tamer", "wolf_hound"):
        assert (call, When.FIRST) in whens
    assert ("white_werewolf", When.NTH) in whens  # every Rules.white_werewolf_interval nights (2: even)
    assert {("sisters", When.FIRST), ("sisters", When.LATER_NTH)} <= whens  # again every sisters_interval
    assert {("brothers", When.FIRST), ("brothers", When.LATER_NTH)} <= whens


# -- a game under Rules(profile="pact") ------------------------------------------------------------

EVERYONE = ["thief", "cupid", "seer", "sister", "sister", "wild_child", "wolf_hound", "bear_tamer", "werewolf",
            "infected_father", "big_bad_wolf", "witch", "fox", "piper", "white_werewolf", "little_girl",
            "knight", "elder", "hunter"]
CENTRE = ["villager", "villager"]

def expected(night: int, deck: set[str], sisters_wake: bool = False) -> list[str]:
    """The pact order of ``night`` for the characters in ``deck`` (a call is made only if its character is
    in the deck; an id with no CallSpec is skipped)."""
    return ["nightfall"] + [c for c in night_calls("pact", night, sisters_wake)
                            if c in CALLS and CALLS[c].roles & deck]




def test_the_engine_calls_the_pact_order_on_nights_one_to_four() -> None:
    game = new_game(EVERYONE, centre=CENTRE, profile="pact")
    play_harmlessly(game, 4)
    assert call_ids(game, "night", 1) == [
        "nightfall", "thief", "cupid", "seer", "fox", "lovers", "sisters", "wild_child", "bear_tamer",
        "wolf_hound", "werewolves", "infected_father", "big_bad_wolf", "witch", "piper", "charmed"]
    later = ["nightfall", "seer", "fox", "werewolves", "infected_father", "big_bad_wolf", "witch", "piper",
             "charmed"]
    with_white = later[:4] + ["white_werewolf"] + later[4:]
    assert call_ids(game, "night", 2) == with_white
    assert call_ids(game, "night", 3) == later
    assert call_ids(game, "night", 4) == with_white


def test_the_sisters_wake_again_on_even_nights_where_the_article_puts_them() -> None:
    """夜晚 6: after the Seer and the Fox, before the werewolves, when the table turns sisters_wake on."""
    game = new_game(EVERYONE, centre=CENTRE, profile="pact", sisters_wake=True)
    play_harmlessly(game, 2)
    assert call_ids(game, "night", 2)[:5] == ["nightfall", "seer", "fox", "sisters", "werewolves"]


def test_the_wolf_hound_who_chooses_the_wolves_wakes_with_them() -> None:
    """第一夜 15: 叫醒所有狼人，如果猎狼犬也选择睁眼则视为他选择加入狼人阵营."""
    game = new_game(["seer", "fox", "cupid", "wolf_hound", "werewolf", "villager", "villager", "villager"],
                    profile="pact")
    drive(game, ("cupid", [6, 7]), ("seer", 5), ("fox", None), ("wolf_hound", "wolf"))
    assert game.call is not None and game.call.id == "werewolves" and game.call.actors == (4, 5)
    drive(game, ("werewolves", 1))
    assert call_ids(game, "night", 1) == ["nightfall", "cupid", "seer", "fox", "lovers", "wolf_hound",
                                          "werewolves"]


def test_a_whole_game_follows_the_pact_order() -> None:
    """A game played to its end with Rules(profile='pact'): every night makes the pact order's calls for
    the deck, in order (calls for the dead included: call_dead is on by default)."""
    deck = set(EVERYONE) | set(CENTRE)
    for sisters_wake in (False, True):
        game = new_game(EVERYONE, centre=CENTRE, profile="pact", sisters_wake=sisters_wake)
        play_harmlessly(game)
        assert game.over and game.outcome is not None
        nights = sorted({c.number for c in game.calls if c.phase is Phase.NIGHT})
        assert len(nights) >= 2
        last = game.calls[-1]
        for night in nights:
            made = call_ids(game, "night", night)
            order = expected(night, deck, sisters_wake)
            if last.phase is Phase.NIGHT and last.number == night:
                assert made == order[: len(made)], (night, made)  # the game ended during this night
            else:
                assert made == order, (night, made)


# -- the table config ------------------------------------------------------------------------------


def test_check_accepts_profile_pact(tmp_path: Path) -> None:
    """`werewolf-narrator check` accepts `profile: pact` (narrator.config reads PROFILES)."""
    (tmp_path / "table.yaml").write_text(
        "seats: 8\ndeck: [werewolf, werewolf, seer, fox, cupid, witch, villager, villager]\nprofile: pact\n",
        encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "narrator", "check", "table.yaml"], capture_output=True,
                            text=True, stdin=subprocess.DEVNULL, timeout=60, cwd=tmp_path, check=False)
    assert result.returncode == 0, result.stderr
    assert "table.yaml: ok" in result.stdout
    assert result.stderr == ""


def test_check_still_refuses_an_unknown_profile(tmp_path: Path) -> None:
    (tmp_path / "table.yaml").write_text(
        "seats: 6\ndeck: [werewolf, werewolf, seer, villager, villager, villager]\nprofile: pacts\n",
        encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "narrator", "check", "table.yaml"], capture_output=True,
                            text=True, stdin=subprocess.DEVNULL, timeout=60, cwd=tmp_path, check=False)
    assert result.returncode == 1 and "profile" in result.stderr and "Traceback" not in result.stderr
