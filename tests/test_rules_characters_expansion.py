"""The Characters expansion's Stuttering Judge, Devoted Servant and Prejudiced Manipulator (the Chinese
article, 特殊身份 and 关于忠诚的仆人的详细说明; docs/rules.md, call order; the lead's ruling on the
Judge's question asked with every eye closed)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Sequence

import pytest

from engine import (
    Answer,
    Call,
    Deal,
    Game,
    Kind,
    Phase,
    Rules,
    Table,
    Team,
)
from engine.calls import call_kinds
from engine.roles.cupid import lovers
from engine.roles.wild_child import RoleModel
from helpers import (
    call_ids,
    drive,
    eliminated,
    made,
    made_once,
    narrate,
    new_game,
    reach,
    refused,
)
from narrator.config import Findings, config_from_journal, journal_table, read_table, ruled_before
from narrator.narration import VOICE, Line
from narrator.voices import load_voice
from narrator.yamlfile import Document

NO_POTION = {"heal": False, "poison": None}


def keys_said(lines: list[Line]) -> list[str]:
    return [line.key for line in lines if line.channel == VOICE]


# -- the Stuttering Judge -----------------------------------------------------------------------------

JUDGE = ["stuttering_judge", "werewolf", "villager", "villager", "villager", "villager", "villager", "villager"]


def test_stuttering_judge_wakes_on_the_first_night_and_is_shown_how_his_sign_works() -> None:
    """docs/rules.md night 1, 6. `stuttering_judge` — agrees on a sign: here, shown on the screen; nothing to answer."""
    game = new_game(JUDGE)
    call = reach(game, "werewolves")
    assert call_ids(game, "night", 1) == ["nightfall", "stuttering_judge", "werewolves"]
    judge = made_once(game, "stuttering_judge", 1)
    assert judge.actors == (1,) and judge.kind is Kind.NONE
    assert [(f.key, f.secret) for f in judge.facts] == [("stuttering_judge.sign", True)]
    assert call is not None


def test_stuttering_judge_is_asked_every_day_after_the_vote() -> None:
    """The lead's ruling: every day, after the vote and all its consequences, a yes/no call to the Judge."""
    game = new_game(JUDGE)
    drive(game, ("werewolves", 3), ("vote", 4))
    call = reach(game, "stuttering_judge")
    assert call.phase is Phase.DAY and call.kind is Kind.YES_NO and call.actors == (1,)
    assert call_kinds()["stuttering_judge"] is Kind.YES_NO
    drive(game, ("stuttering_judge", False), ("werewolves", 5), ("vote", 6))
    assert reach(game, "stuttering_judge").number == 2


def test_stuttering_judge_second_vote_is_held_at_once_without_debate() -> None:
    """'主持人…会在此次投票之后立刻进行一次没有讨论的投票': a `vote` call again, no debate between."""
    game = new_game(JUDGE)
    step = drive(game, ("werewolves", 3), ("vote", 4), ("stuttering_judge", True))[-1]
    assert any(f.key == "stuttering_judge.second_vote" for f in step.facts)
    day = call_ids(game, "day", 1)
    assert day == ["dawn", "debate", "vote", "stuttering_judge", "vote"]
    drive(game, ("vote", 5))
    assert eliminated(game) == [(3, "werewolves"), (4, "vote"), (5, "vote")]


def test_stuttering_judge_second_vote_is_once_per_game() -> None:
    """'每次游戏限一次': once used, the call is made for fair play only."""
    game = new_game(JUDGE + ["villager", "villager"])
    drive(game, ("werewolves", 3), ("vote", 4), ("stuttering_judge", True), ("vote", 5),
          ("werewolves", 6), ("vote", 7))
    later = made_once(game, "stuttering_judge", 2, Phase.DAY)
    assert not later.live and later.actors == ()


def test_dead_stuttering_judge_is_still_asked_for_fair_play() -> None:
    """Fair play: dead, the Judge is called every day with the same words, his answer ignored."""
    game = new_game(JUDGE)
    drive(game, ("werewolves", 1), ("vote", 4))
    call = made_once(game, "stuttering_judge", 1, Phase.DAY)
    assert not call.live and not call.needs_answer


def test_stuttering_judge_second_vote_keeps_the_tie_rules() -> None:
    """The second vote is a vote like any other: a tie without a Sheriff goes to a run-off among the tied."""
    game = new_game(JUDGE)
    drive(game, ("werewolves", 3), ("vote", 4), ("stuttering_judge", True), ("vote", {"tie": [5, 6]}))
    assert made_once(game, "revote", 1, Phase.DAY).seats == (5, 6)


def test_stuttering_judge_second_vote_is_open_to_all_after_the_scapegoats_vote() -> None:
    """Ruling taken: the Scapegoat's voters vote in the next vote and its run-off; the Judge's second vote
    that day is another vote, open to all."""
    game = new_game(["stuttering_judge", "werewolf", "scapegoat", "villager", "villager", "villager",
                     "villager", "villager", "villager"])
    drive(game, ("werewolves", 4), ("vote", {"tie": [5, 6]}), ("scapegoat", [1]), ("stuttering_judge", False),
          ("werewolves", 5))
    reach(game, "vote")
    assert refused(game, {"ballots": {6: 7}}).key == "refusal.not_a_voter"
    drive(game, ("vote", {"ballots": {1: 7}}), ("stuttering_judge", True),
          ("vote", {"ballots": {6: 8, 8: 6, 9: 8}}))
    assert eliminated(game)[-2:] == [(7, "vote"), (8, "vote")]


def test_stuttering_judge_is_not_asked_once_the_game_is_over() -> None:
    """'if the game is not over': the vote that ends the game ends it before the Judge's call."""
    game = new_game(JUDGE)
    drive(game, ("werewolves", 3), ("vote", 2))
    assert game.outcome is not None and game.outcome.winner == "village"
    assert made(game, "stuttering_judge", 1, Phase.DAY) is None


def test_stuttering_judge_question_is_asked_with_every_eye_closed() -> None:
    """The lead's ruling: 'Everyone close your eyes. Stuttering Judge, …?' then 'Everyone open your eyes',
    and the same voice lines whether he says no or is dead (his answer is never heard)."""
    alive = narrate(new_game(JUDGE), [("werewolves", 3), ("vote", 4), ("stuttering_judge", False),
                                      ("werewolves", 5), ("vote", 2)])
    dead = narrate(new_game(JUDGE), [("werewolves", 1), ("vote", 4), ("werewolves", 5), ("vote", 2)])
    said = keys_said(alive)
    at = said.index("stuttering_judge.call")
    assert said[at + 1] == "stuttering_judge.open"
    assert [line.text for line in alive if line.channel == VOICE and line.key.startswith("stuttering")] == \
        [line.text for line in dead if line.channel == VOICE and line.key.startswith("stuttering")]
    assert "screen.stuttering_judge_sign" in [line.key for line in alive]


def test_stuttering_judge_answer_is_read_back_on_the_screen_only() -> None:
    """His yes/no is typed with eyes closed: the read-back is not said aloud, as by day it would be."""
    from keystrokes import ScriptedKeys, keys_for
    from narrator.asking import KeypadAnswers
    from narrator.screen import PlainScreen

    game = new_game(JUDGE)
    drive(game, ("werewolves", 3), ("vote", 4))
    call = reach(game, "stuttering_judge")
    said: list[str] = []
    keys = keys_for(call, True)
    answers = KeypadAnswers(ScriptedKeys(keys), PlainScreen(io.StringIO()), load_voice("en"),
                            say=lambda k, v: said.append(k), repeat=lambda: None)
    assert answers.answer(call, game) is True and said == []


def test_stuttering_judge_answer_is_never_asked_of_the_microphone() -> None:
    """With eyes closed nobody answers aloud: the microphone, live by day, is not asked for the Judge's answer."""
    from keystrokes import ScriptedKeys, keys_for
    from narrator.asking import KeypadAnswers
    from narrator.hearing import SpokenAnswers
    from narrator.screen import PlainScreen

    class Deaf:
        def answer(self, call: Call) -> Answer:
            raise AssertionError(f"the microphone was asked for {call.id}")

    game = new_game(JUDGE)
    drive(game, ("werewolves", 3), ("vote", 4))
    call = reach(game, "stuttering_judge")
    answers = KeypadAnswers(ScriptedKeys(keys_for(call, False)), PlainScreen(io.StringIO()), load_voice("en"),
                            say=lambda k, v: None, repeat=lambda: None)
    answers.devices = (SpokenAnswers(Deaf(), frozenset({"day"})),)
    assert answers.answer(call, game) is False


def test_stuttering_judge_loses_his_power_after_the_elder_penalty() -> None:
    """docs/rules.md: after the Elder's penalty every villager loses their special power; his call is idle."""
    game = new_game(["stuttering_judge", "werewolf", "elder", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("werewolves", 4), ("vote", 3))
    assert game.penalty and not made_once(game, "stuttering_judge", 1, Phase.DAY).live


# -- the Devoted Servant ------------------------------------------------------------------------------

SERVANT = ["devoted_servant", "werewolf", "seer", "villager", "villager", "villager", "villager", "villager"]


def test_devoted_servant_takes_the_card_of_the_condemned() -> None:
    """'被处决的玩家的身份变为仆人，而原来的仆人获得那个人的身份牌并继续游戏': the condemned leaves holding
    the Servant's card (the card revealed); she holds his, and plays it from the next night."""
    game = new_game(SERVANT)
    step = drive(game, ("seer", 2), ("werewolves", 4), ("vote", 3), ("devoted_servant", 1))[-1]
    assert eliminated(game)[-1] == (3, "vote") and game.eliminated[-1].role == "devoted_servant"
    assert game.card(1) == "seer" and game.alive(1)
    assert any(f.key == "devoted_servant.takes" and f.values["seat"] == 1 for f in step.facts)
    assert made_once(game, "seer", 2).actors == (1,)


def test_devoted_servant_is_asked_after_every_vote_that_condemns() -> None:
    """A public call `devoted_servant` (her seat, or null) when a vote condemns a player; none when nobody is."""
    game = new_game(SERVANT)
    drive(game, ("seer", 2), ("werewolves", 4), ("vote", None), ("seer", 5), ("werewolves", 6))
    assert made(game, "devoted_servant", 1, Phase.DAY) is None
    drive(game, ("vote", 7))
    call = made_once(game, "devoted_servant", 2, Phase.DAY)
    assert call.live and call.kind is Kind.SEAT and call.optional and call.actors == ()
    drive(game, ("devoted_servant", None))
    assert eliminated(game)[-1] == (7, "vote")


def test_devoted_servant_refuses_a_seat_without_her_card_in_secret() -> None:
    """A seat that does not hold her card, typed by a slip of the finger, is refused on the screen in words
    that name neither the seat nor a card: said aloud, it told the table something of a card nobody showed."""
    game = new_game(SERVANT)
    drive(game, ("seer", 2), ("werewolves", 4), ("vote", 3))
    error = refused(game, 5)
    assert error.secret and error.key == "refusal.not_servant" and not error.values


def test_devoted_servant_cannot_take_her_own_place() -> None:
    """She takes the place of another: condemned herself, she cannot."""
    game = new_game(SERVANT)
    drive(game, ("seer", 2), ("werewolves", 4), ("vote", 1))
    assert refused(game, 1).key == "refusal.servant_condemned"


def test_devoted_servant_who_is_a_lover_cannot_use_her_power() -> None:
    """'如果仆人是情侣中的一员：则玩家不能使用替换身份的能力' — refused on the screen only (lovers are secret)."""
    game = new_game(["devoted_servant", "werewolf", "cupid", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("cupid", [1, 4]), ("werewolves", 5), ("vote", 6))
    error = refused(game, 1)
    assert error.secret and error.key == "refusal.servant_lover"


def test_devoted_servant_inherits_no_lovers_and_the_beloved_dies_of_grief() -> None:
    """'仆人不会和另一位恋人结成新恋情，但另一位恋人仍然会殉情'."""
    game = new_game(["devoted_servant", "werewolf", "cupid", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("cupid", [4, 5]), ("werewolves", 6), ("vote", 4), ("devoted_servant", 1))
    assert eliminated(game)[-2:] == [(4, "vote"), (5, "grief")]
    assert 1 not in lovers(game) and game.card(1) == "villager"


def test_devoted_servant_who_takes_cupids_card_names_new_lovers_the_next_night() -> None:
    """'丘比特：他需要在下一个夜晚再选择两名恋人，这可能导致场上存在两对恋人': the next night she names two lovers,
    who wake and recognise each other; the old lovers stay lovers, and each pair dies of grief its own."""
    game = new_game(["devoted_servant", "werewolf", "cupid", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("cupid", [4, 5]), ("werewolves", 6), ("vote", 3), ("devoted_servant", 1))
    assert game.card(1) == "cupid"
    call = reach(game, "cupid")
    assert call.number == 2 and call.actors == (1,) and call.live
    drive(game, ("cupid", [7, 8]))
    assert made_once(game, "lovers", 2).actors == (7, 8)
    assert lovers(game) == (4, 5, 7, 8)
    drive(game, ("werewolves", 7))
    assert eliminated(game)[-2:] == [(7, "werewolves"), (8, "grief")]
    drive(game, ("vote", 4))
    assert eliminated(game)[-2:] == [(4, "vote"), (5, "grief")]


def test_devoted_servant_who_takes_the_wild_childs_card_chooses_a_new_model() -> None:
    """'野孩子：他需要重新选择一名偶像': the next night she chooses a role model of her own; his no longer counts."""
    game = new_game(["devoted_servant", "werewolf", "wild_child", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("wild_child", 4), ("werewolves", 6), ("vote", 3), ("devoted_servant", 1))
    assert game.kept(RoleModel).seat is None and not game.is_werewolf(1)
    call = reach(game, "wild_child")
    assert call.number == 2 and call.actors == (1,)
    drive(game, ("wild_child", 5), ("werewolves", 4))
    assert game.kept(RoleModel).seat == 5 and not game.is_werewolf(1)
    drive(game, ("vote", 5))
    assert game.is_werewolf(1)


def test_devoted_servant_who_takes_the_wolf_hounds_card_chooses_a_side_the_next_night() -> None:
    """'猎狼犬：他必须在下一个夜晚开始选择自己的阵营，并且不能改变': his choice does not pass with the card."""
    game = new_game(["devoted_servant", "werewolf", "wolf_hound", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("wolf_hound", "wolf"), ("werewolves", 6), ("vote", 3), ("devoted_servant", 1))
    assert not game.is_werewolf(1)
    call = reach(game, "wolf_hound")
    assert call.number == 2 and call.actors == (1,)
    drive(game, ("wolf_hound", "wolf"))
    assert reach(game, "werewolves").actors == (1, 2)


def test_servant_chooses_again_may_be_turned_off() -> None:
    """servant_chooses_again: false — she keeps the choice the card made (the Wild Child's model), and no
    first-night call is made again."""
    game = new_game(["devoted_servant", "werewolf", "wild_child", "villager", "villager", "villager", "villager",
                     "villager"], servant_chooses_again=False)
    drive(game, ("wild_child", 4), ("werewolves", 6), ("vote", 3), ("devoted_servant", 1), ("werewolves", 5))
    assert game.kept(RoleModel).seat == 4 and made(game, "wild_child", 2) is None
    drive(game, ("vote", 4))
    assert game.is_werewolf(1)


def test_a_journal_from_before_the_rulings_replays_by_the_rules_it_was_played_by() -> None:
    """A journal's rules without the keys the rulings of issue 23 added: the Brothers woke with the Sisters, and
    the Servant kept the card's choice (so that such a game resumes as it was played)."""
    assert ruled_before({}) == {"brothers_interval": 0, "servant_chooses_again": False}
    assert ruled_before({"sisters_wake": True})["brothers_interval"] == 2
    assert ruled_before({"sisters_interval": 3})["brothers_interval"] == 3
    assert ruled_before({"brothers_interval": 2, "servant_chooses_again": True}) == {
        "brothers_interval": 2, "servant_chooses_again": True}


def test_the_first_night_choices_are_called_again_whatever_card_the_servant_took() -> None:
    """Which card she took is secret: the night after any exchange, Cupid's, the lovers', the Wild Child's and the
    Wolf Hound's calls are all made (for fair play only, but hers), and on no other later night."""
    roles = ["devoted_servant", "werewolf", "seer", "cupid", "wild_child", "wolf_hound", "villager", "villager"]
    game = new_game(roles)
    drive(game, ("cupid", [7, 8]), ("seer", 2), ("wild_child", 4), ("wolf_hound", "village"), ("werewolves", 6),
          ("vote", 3), ("devoted_servant", 1))
    assert reach(game, "seer").actors == (1,)
    drive(game, ("seer", 2))
    assert [made_once(game, c, 2).live for c in ("cupid", "lovers", "wild_child", "wolf_hound")] == [
        False, False, False, False]
    assert made(game, "seer", 2) is not None
    drive(game, ("werewolves", 7), ("vote", None))
    assert all(made(game, c, 3) is None for c in ("cupid", "lovers", "wild_child", "wolf_hound"))


def test_devoted_servant_does_not_inherit_the_sheriff() -> None:
    """'警长：则仆人不会继承警长身份，由旧警长指定新的警长'."""
    game = new_game(SERVANT, sheriff=True)
    drive(game, ("sheriff_election", 4), ("seer", 2), ("werewolves", 5), ("vote", 4), ("devoted_servant", 1))
    call = reach(game, "sheriff_successor")
    assert call.actors == (4,)
    drive(game, ("sheriff_successor", 1))
    assert game.sheriff == 1


def test_devoted_servant_sheriff_gives_up_the_office_and_names_a_successor() -> None:
    """'如果仆人是…警长：则玩家不再担任警长，他必须选择继任者' — call `servant_successor`."""
    game = new_game(SERVANT, sheriff=True)
    drive(game, ("sheriff_election", 1), ("seer", 2), ("werewolves", 5), ("vote", 4), ("devoted_servant", 1))
    call = reach(game, "servant_successor")
    assert call.actors == (1,) and 1 not in call.seats and 4 not in call.seats
    assert call_kinds()["servant_successor"] is Kind.SEAT
    drive(game, ("servant_successor", 6))
    assert game.sheriff == 6 and eliminated(game)[-1] == (4, "vote")


def test_devoted_servant_loses_her_charm_and_keeps_her_infection() -> None:
    """'被魅惑：则玩家不再被魅惑。被诅咒：玩家仍然保持诅咒状态' — and the condemned's charm is not hers."""
    game = new_game(["devoted_servant", "infected_father", "piper", "villager", "villager", "villager",
                     "villager", "villager", "villager"])
    drive(game, ("werewolves", 1), ("infected_father", True), ("piper", [1, 4]), ("vote", 5),
          ("devoted_servant", 1))
    assert not game.marked(1, "charmed") and game.marked(1, "infected") and game.is_werewolf(1)
    game = new_game(["devoted_servant", "werewolf", "piper", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("werewolves", 6), ("piper", [4, 5]), ("vote", 4), ("devoted_servant", 1))
    assert not game.marked(1, "charmed")


def test_devoted_servant_new_witch_has_both_potions() -> None:
    """'新的女巫只会有1瓶毒药和1瓶治疗药水', whatever the old Witch had spent."""
    game = new_game(["devoted_servant", "werewolf", "witch", "villager", "villager", "villager", "villager",
                     "villager", "villager"])
    drive(game, ("werewolves", 4), ("witch", {"heal": True, "poison": 5}), ("vote", 3), ("devoted_servant", 1),
          ("werewolves", 6))
    call = reach(game, "witch")
    assert call.live and call.actors == (1,)
    assert dict(call.facts[0].values)["potions"] == ["heal", "poison"]


def test_devoted_servant_new_fox_has_his_power_back() -> None:
    """'狐狸：他可以使用他的特殊能力，即使原来的狐狸已经失去了能力'."""
    game = new_game(["devoted_servant", "werewolf", "fox", "villager", "villager", "villager", "villager",
                     "villager", "villager"])
    drive(game, ("werewolves", 5), ("fox", 7), ("vote", 3), ("devoted_servant", 1), ("werewolves", 6))
    assert reach(game, "fox").actors == (1,)


def test_devoted_servant_new_stuttering_judge_has_his_power_back() -> None:
    """'口吃法官：在下一个夜晚，他将和主持人重新约定一个手势': a fresh second vote."""
    game = new_game(["devoted_servant", "werewolf", "stuttering_judge", "villager", "villager", "villager",
                     "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 5), ("vote", 6), ("devoted_servant", None), ("stuttering_judge", True),
          ("vote", 3), ("devoted_servant", 1),
          ("werewolves", 7), ("vote", 8))
    call = reach(game, "stuttering_judge")
    assert call.live and call.actors == (1,)


def test_devoted_servant_who_takes_the_hunters_card_shoots_when_she_falls() -> None:
    """The condemned leaves holding her card, so he does not shoot; she is the Hunter now, and shoots."""
    game = new_game(["devoted_servant", "werewolf", "hunter", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("werewolves", 4), ("vote", 3), ("devoted_servant", 1))
    assert game.card(1) == "hunter" and made(game, "hunter", 1, Phase.DAY) is None
    drive(game, ("werewolves", 1), ("hunter", 2))
    assert eliminated(game)[-2:] == [(1, "werewolves"), (2, "hunter")]


def test_devoted_servant_who_takes_the_elders_card_spares_the_village_the_penalty() -> None:
    """Ruling taken: the player voted out leaves holding the Servant's card, and the Elder's card plays on,
    secret, in her hands: the village has not eliminated its Elder, so nobody loses a power."""
    game = new_game(["devoted_servant", "werewolf", "elder", "seer", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("seer", 2), ("werewolves", 5), ("vote", 3), ("devoted_servant", 1))
    assert not game.penalty and game.card(1) == "elder"
    assert made_once(game, "seer", 2).live


def test_devoted_servant_who_takes_the_judges_card_has_it_from_the_next_night() -> None:
    """'并继续游戏' from the next night: the day she takes the Judge's card, his question that day is made for
    fair play only; the next day it is hers."""
    game = new_game(["devoted_servant", "werewolf", "stuttering_judge", "villager", "villager", "villager",
                     "villager", "villager", "villager"])
    drive(game, ("werewolves", 5), ("vote", 3), ("devoted_servant", 1))
    assert not made_once(game, "stuttering_judge", 1, Phase.DAY).live
    drive(game, ("werewolves", 6), ("vote", 7))
    assert reach(game, "stuttering_judge").actors == (1,)


def test_devoted_servant_who_becomes_the_angel_is_a_simple_villager() -> None:
    """'天使：他现在只能作为普通的村民继续游戏了': devoured on the first night, she does not win."""
    game = new_game(["devoted_servant", "werewolf", "angel", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("vote", 3), ("devoted_servant", 1))
    assert game.card(1) == "angel" and game.outcome is None
    drive(game, ("werewolves", 1))
    assert game.outcome is None and eliminated(game)[-1] == (1, "werewolves")


def test_devoted_servant_once_used_is_called_for_fair_play() -> None:
    """Her card is out of the game with the condemned: every later call is made for fair play only."""
    game = new_game(SERVANT)
    drive(game, ("seer", 2), ("werewolves", 4), ("vote", 3), ("devoted_servant", 1), ("seer", 5),
          ("werewolves", 6), ("vote", 7))
    later = made_once(game, "devoted_servant", 2, Phase.DAY)
    assert not later.live


# -- the Prejudiced Manipulator -----------------------------------------------------------------------

MANIPULATOR = ["prejudiced_manipulator", "werewolf", "villager", "villager", "villager", "villager",
               "villager", "villager"]
GROUPS = ((1, 2, 3, 4), (5, 6, 7, 8))


def grouped(roles: Sequence[str], groups: tuple[tuple[int, ...], ...] = GROUPS, **rules: Any) -> Game:
    rules.setdefault("sheriff", False)
    return Game(Table(len(roles), tuple(roles), Rules(**rules), groups=groups), Deal(tuple(roles)))


def test_prejudiced_manipulator_groups_are_announced_before_anything_else() -> None:
    """'将所有玩家分成两组，并公开分组结果': the groups are said aloud first, before the Sheriff's election."""
    game = grouped(MANIPULATOR, sheriff=True)
    first = game.calls[0]
    assert first.id == "groups" and first.phase is Phase.DAY and first.number == 0
    assert [(f.key, dict(f.values), f.secret) for f in first.facts] == [
        ("groups.first", {"seats": [1, 2, 3, 4]}, False), ("groups.second", {"seats": [5, 6, 7, 8]}, False)]
    game.answer(None)
    assert game.call is not None and game.call.id == "sheriff_election"


def test_prejudiced_manipulator_wins_alone_when_the_other_group_is_eliminated() -> None:
    """'阴谋家需要将另一组的所有玩家消灭来单独达成胜利'."""
    game = grouped(MANIPULATOR)
    drive(game, ("werewolves", 5), ("vote", 6), ("werewolves", 7))
    assert game.outcome is None
    drive(game, ("vote", 8))
    assert game.outcome is not None and game.outcome.winner == "prejudiced_manipulator"
    assert game.outcome.winners == (1,)


def test_prejudiced_manipulator_plays_for_himself() -> None:
    """'独立阵营': the village has not won while he plays on, the werewolves dead or not."""
    game = grouped(MANIPULATOR, groups=((1, 3, 5, 7), (2, 4, 6, 8)))
    assert game.side(1) is Team.MANIPULATOR
    drive(game, ("werewolves", 3), ("vote", 2))
    assert game.outcome is None


def test_the_prejudiced_manipulator_is_a_loner_like_the_piper() -> None:
    """docs/rules.md: a loner like the Piper: while he lives, the village has not won — the last werewolf out, the
    game goes on; the Manipulator out too, the village wins."""
    game = grouped(MANIPULATOR, groups=((1, 3, 5, 7), (2, 4, 6, 8)))
    drive(game, ("werewolves", 3), ("vote", 2))
    assert game.outcome is None and not any(game.is_werewolf(s) for s in game.living())
    drive(game, ("vote", 1))
    assert game.outcome is not None and game.outcome.winner == "village" and 1 not in game.outcome.winners


def test_prejudiced_manipulator_wins_before_the_village() -> None:
    """Simultaneous wins: his goal is settled before the village's (after the other loners')."""
    game = grouped(["prejudiced_manipulator", "villager", "villager", "villager", "werewolf", "villager",
                    "villager", "villager"], groups=((1, 2, 3, 4, 6, 7, 8), (5,)))
    drive(game, ("werewolves", 6), ("vote", 5))
    assert game.outcome is not None and game.outcome.winner == "prejudiced_manipulator"


def test_prejudiced_manipulator_needs_the_groups() -> None:
    """A deck with him and no groups is refused by the engine and, with its line, by the config reader."""
    with pytest.raises(ValueError, match="groups"):
        grouped(MANIPULATOR, groups=())
    found = Findings()
    data = {"deck": MANIPULATOR}
    assert read_table(data, Document("table.yaml", data), (), found) is None
    assert any("groups" in e and "Prejudiced Manipulator" in e for e in found.errors)


@pytest.mark.parametrize(("groups", "expected"), [
    ([[1, 2, 3], [4, 5, 6, 7]], "leave out seat 8"),
    ([[1, 2, 3, 4, 5], [5, 6, 7, 8]], "seat 5 more than once"),
    ([[1, 2, 3, 4], [5, 6, 7, 9]], "not at this table"),
    ([[1, 2, 3, 4, 5, 6, 7, 8]], "two lists of seats"),
    ("odd and even", "two lists of seats"),
])
def test_groups_key_is_checked(groups: object, expected: str) -> None:
    """`groups:` two lists of seats covering every seat once; a mistake is named with the key."""
    found = Findings()
    data = {"deck": MANIPULATOR, "groups": groups}
    assert read_table(data, Document("table.yaml", data), (), found) is None
    assert any("groups" in e and expected in e for e in found.errors), found.errors


def test_groups_key_is_kept_in_the_journal() -> None:
    """The groups are part of the table a journal saves and replays."""
    found = Findings()
    data = {"deck": MANIPULATOR, "groups": [[1, 2, 3, 4], [5, 6, 7, 8]]}
    config = read_table(data, Document("table.yaml", data), (), found)
    assert config is not None and config.table.groups == GROUPS
    assert config_from_journal(journal_table(config), "journal").table.groups == GROUPS


def test_groups_without_the_manipulator_give_a_warning() -> None:
    """Groups are only his: given without him, they are accepted with a warning."""
    found = Findings()
    data = {"deck": MANIPULATOR[1:] + ["villager"], "groups": [[1, 2, 3, 4], [5, 6, 7, 8]]}
    assert read_table(data, Document("table.yaml", data), (), found) is not None
    assert any("Prejudiced Manipulator" in w for w in found.said("en"))


def test_servant_who_becomes_the_manipulator_aims_at_her_own_other_group() -> None:
    """'心怀偏见的阴谋家：他的胜利目标仍然是消灭另一组的所有人，他可能会和原来的阴谋家的目标不一样'."""
    game = grouped(["devoted_servant", "werewolf", "villager", "villager", "prejudiced_manipulator",
                    "villager", "villager", "villager"])
    drive(game, ("werewolves", 6), ("vote", 5), ("devoted_servant", 1), ("werewolves", 7))
    assert game.card(1) == "prejudiced_manipulator" and game.outcome is None
    drive(game, ("vote", 8))
    assert game.outcome is not None and game.outcome.winner == "prejudiced_manipulator"
    assert game.outcome.winners == (1,)


# -- the practice game ------------------------------------------------------------------------------


def test_characters_practice_game_plays_to_its_expected_end(tmp_path: Path) -> None:
    """tests/games/characters_judge_servant_manipulator.yaml ends as its `expect:` says, with every line."""
    from narrator.cli import main

    path = Path(__file__).parent / "games" / "characters_judge_servant_manipulator.yaml"
    assert main(["dry-run", str(path), "--silent", "--report", str(tmp_path / "r.json")]) == 0


def test_practice_script_with_the_manipulator_and_no_groups_is_refused(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A script whose deal (not its table) brings the Manipulator still needs the groups: `check` says so."""
    from narrator.cli import main

    path = tmp_path / "script.yaml"
    path.write_text("table:\n  language: en\n  sheriff: false\n"
                    "deal: {1: prejudiced_manipulator, 2: werewolf, 3: villager, 4: villager, 5: villager, "
                    "6: villager}\nanswers: []\n", encoding="utf-8")
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "script.yaml:1: table: groups:" in err and "Prejudiced Manipulator" in err
