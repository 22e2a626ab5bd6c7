"""The Characters expansion (the Chinese article, 特殊身份; docs/rules.md, call order): the
Villager-Villager and the Three Brothers."""

from __future__ import annotations

from engine import check_deck
from engine.calls import call_kinds
from engine.roles import ROLES
from engine.types import Kind, Team
from helpers import call_ids, drive, made, made_once, new_game, reach

# -- the Villager-Villager --------------------------------------------------------------------------

def test_villager_villager_is_a_plain_villager() -> None:
    """'两面都是"村民"图案的身份' (村民-村民, 村民阵营): a villager with no power, never called."""
    game = new_game(["villager_villager", "werewolf", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 3))
    assert game.side(1) is Team.VILLAGE and not game.is_werewolf(1)
    assert not any(c.actors == (1,) for c in game.calls)
    assert call_ids(game, "night", 1) == ["nightfall", "werewolves"]
    drive(game, ("vote", 2))
    assert game.outcome is not None and game.outcome.winner == "village" and 1 in game.outcome.winners


def test_villager_villager_is_one_card() -> None:
    """The Villager-Villager is a single card: a deck holds none or one."""
    assert ROLES["villager_villager"].copies == (0, 1)
    errors, _ = check_deck(8, ["werewolf"] * 2 + ["villager_villager"] * 2 + ["villager"] * 4)
    assert any("villager_villager" in e for e in errors)


# -- the Three Brothers -----------------------------------------------------------------------------

BROTHERS = ["brother", "werewolf", "brother", "villager", "brother", "werewolf", "villager", "villager"]


def test_brothers_are_three_cards() -> None:
    """'共有三张"三兄弟"': a deck holds none or all three."""
    assert ROLES["brother"].copies == (0, 3)
    errors, _ = check_deck(8, ["werewolf"] * 2 + ["brother"] * 2 + ["villager"] * 4)
    assert any("brother" in e for e in errors)
    assert check_deck(8, BROTHERS)[0] == []


def test_brothers_wake_together_on_the_first_night() -> None:
    """'在第一晚相认' — docs/rules.md, first night: `brothers` — the Three Brothers recognise each other."""
    game = new_game(BROTHERS)
    call = reach(game, "werewolves")
    brothers = made_once(game, "brothers", 1)
    assert brothers.actors == (1, 3, 5) and brothers.kind is Kind.NONE and brothers.live
    assert [(f.key, f.values["seats"], f.secret) for f in brothers.facts] == [("brothers", [1, 3, 5], True)]
    assert call_kinds()["brothers"] is Kind.NONE and call.id == "werewolves"


def test_brothers_come_after_the_sisters() -> None:
    """docs/rules.md, first night: 7. `sisters`, 8. `brothers`, then 9. `wild_child`."""
    game = new_game(["brother", "werewolf", "brother", "sister", "brother", "werewolf", "sister",
                     "villager", "seer", "wild_child"])
    reach(game, "seer")
    drive(game, ("seer", 2))
    reach(game, "wild_child")
    assert call_ids(game, "night", 1)[-3:] == ["sisters", "brothers", "wild_child"]


def test_brothers_wake_every_other_night_by_default() -> None:
    """The Chinese article, their only source: '在第一晚相认后，他们每两晚…醒来' — every other night by default
    (docs/rules.md; the Sisters' later wakings stay off), whatever sisters_wake says."""
    for wake in (False, True):
        game = new_game(BROTHERS, sisters_wake=wake)
        drive(game, ("werewolves", 4), ("vote", None), ("werewolves", 7), ("vote", None), ("werewolves", 8))
        assert made(game, "brothers", 2) is not None
        assert made(game, "brothers", 3) is None
    assert made_once(game, "brothers", 2).actors == (1, 3, 5)


def test_brothers_dead_are_called_for_fair_play() -> None:
    """docs/rules.md: every character of the deck is still called after it has been eliminated — only the living
    brothers wake; with none left, the call is made, not live."""
    game = new_game(BROTHERS + ["villager", "villager"], sisters_wake=True)
    drive(game, ("werewolves", 1), ("vote", 3))
    assert made_once(game, "brothers", 2).actors == (5,)
    drive(game, ("werewolves", 5), ("vote", None), ("werewolves", 4), ("vote", None))
    assert not made_once(game, "brothers", 4).live and made_once(game, "brothers", 4).facts == ()


def test_the_thief_may_still_take_the_werewolf_left_in_the_centre_after_the_angels_opening_day() -> None:
    """Best Of: the Angel's game "always begins with the village's debate followed by an eliminatory vote", before
    the first night, when the Thief "may exchange his card for one of the two" in the centre. With the only werewolf
    card in the centre nobody plays a werewolf yet, but the Thief may take it: no side has won before his call (the
    game ended on the opening day with a village win)."""
    game = new_game(["angel", "villager", "villager", "villager", "seer", "thief"], ["werewolf", "villager"])
    drive(game, ("vote", None))
    assert not game.over and reach(game, "thief").live
    drive(game, ("thief", 1))
    assert game.card(6) == "werewolf" and not game.over


def test_the_village_wins_when_the_thief_leaves_the_werewolf_in_the_centre() -> None:
    game = new_game(["angel", "villager", "villager", "villager", "seer", "thief"], ["werewolf", "villager"])
    drive(game, ("vote", None))
    reach(game, "thief")
    game.answer(None)  # he keeps his card: no werewolf plays, and the village has won
    assert game.outcome is not None and game.outcome.winner == "village" and call_ids(game)[-1] == "thief"


def test_the_cult_gives_no_win_to_a_werewolf_who_loves_a_villager() -> None:
    """The Cult (Sunshine): the werewolves win when one villager at most is left unseduced. A werewolf in love with a
    villager has left their side (Best Of: mixed lovers win when they are the last two): with him the last werewolf
    alive, the werewolves have not won (they won with no winner)."""
    from engine.variants import cult_won

    game = new_game(["cupid", "werewolf", "villager", "villager", "villager", "seer"], variants=("cult",))
    drive(game, ("cupid", [1, 2]))
    assert not cult_won(game)  # the pack's one werewolf is Cupid's lover, whatever is seduced
