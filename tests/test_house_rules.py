"""House rules from the rulebooks, each off by default (the rulebook's) and doing what it says when on."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest

from engine import Game, IllegalAnswer, Phase, Rules
from engine.roles.wolf_hound import Side
from helpers import call_ids, drive, eliminated, made, made_once, new_game, play_harmlessly, reach, refused
from narrator.cli import main

WITCH = ["werewolf", "witch", "villager", "villager", "werewolf", "villager", "villager", "villager"]


def test_one_potion_witch_has_one_potion_in_all() -> None:
    """The French rules: 'limitez ses pouvoirs à une seule potion pour la partie' (witch_potions: 1)."""
    game = new_game(WITCH, witch_potions=1)
    reach(game, "werewolves")
    drive(game, ("werewolves", 3))
    assert refused(game, {"heal": True, "poison": 6}).key == "refusal.one_potion"
    drive(game, ("witch", {"heal": True, "poison": None}), ("vote", None), ("werewolves", 4))
    second = made_once(game, "witch", 2)
    assert not second.live  # her one potion is spent: called for fair play only


def test_the_rulebook_witch_may_use_both_potions_in_one_night() -> None:
    """Best Of: 'She may use both potions the same night' — the default."""
    game = new_game(WITCH)
    drive(game, ("werewolves", 3), ("witch", {"heal": True, "poison": 6}))
    assert eliminated(game) == [(6, "poison")]


HUNTER = ["werewolf", "witch", "hunter", "villager", "werewolf", "villager", "villager", "villager"]


def test_a_poisoned_hunter_does_not_shoot_under_the_chinese_rules() -> None:
    """hunter_shoots_when_poisoned: false (the Chinese rules): poisoned, the Hunter takes no one with him."""
    game = new_game(HUNTER, hunter_shoots_when_poisoned=False)
    drive(game, ("werewolves", 4), ("witch", {"heal": False, "poison": 3}))
    assert game.call is not None and game.call.id == "vote"  # no "hunter" call came
    assert eliminated(game) == [(3, "poison"), (4, "werewolves")]


def test_a_poisoned_hunter_shoots_by_default() -> None:
    """Best Of: 'whatever the cause, he shoots immediately' — the default."""
    game = new_game(HUNTER)
    drive(game, ("werewolves", 4), ("witch", {"heal": False, "poison": 3}), ("hunter", 1))
    assert (1, "hunter") in eliminated(game)


def test_a_fox_may_keep_his_power_after_a_miss() -> None:
    """fox_loses_power_on_miss: false: a 'no' does not take the Fox's power."""
    roles = ["werewolf", "villager", "villager", "fox", "villager", "villager", "villager", "werewolf"]
    game = new_game(roles, fox_loses_power_on_miss=False)
    drive(game, ("werewolves", 2), ("fox", 5), ("vote", None), ("werewolves", 3))
    assert game.call is not None and game.call.id == "fox" and game.call.live


def test_cupid_may_win_with_lovers_of_mixed_sides() -> None:
    """cupid_wins_with_lovers: true: Cupid is among the winners when his mixed lovers win."""
    roles = ["cupid", "werewolf", "villager", "villager", "villager", "villager"]
    for rule in (False, True):
        game = new_game(roles, cupid_wins_with_lovers=rule)
        drive(game, ("cupid", [2, 3]), ("werewolves", 1), ("vote", 4), ("werewolves", 5), ("vote", 6))
        assert game.outcome is not None and game.outcome.winner == "lovers"
        assert (1 in game.outcome.winners) is rule


GUARD = ["guard", "werewolf", "villager", "little_girl", "werewolf", "villager", "villager", "villager"]


def test_the_guard_may_protect_the_same_player_twice_if_the_table_wants() -> None:
    """guard_same_twice: true lifts 'never the same player two nights running'."""
    game = new_game(GUARD)
    drive(game, ("guard", 3), ("werewolves", 3), ("vote", None))
    with pytest.raises(IllegalAnswer):
        drive(game, ("guard", 3))
    game = new_game(GUARD, guard_same_twice=True)
    drive(game, ("guard", 3), ("werewolves", 3), ("vote", None), ("guard", 3), ("werewolves", 3))
    assert eliminated(game) == []


def test_the_guard_may_protect_the_little_girl_if_the_table_wants() -> None:
    """guard_protects_little_girl: true: the Little Girl protected survives the bite."""
    for rule in (False, True):
        game = new_game(GUARD, guard_protects_little_girl=rule)
        drive(game, ("guard", 4), ("werewolves", 4))
        assert (eliminated(game) == []) is rule


def test_the_thief_may_keep_his_card_before_two_werewolves_if_the_table_wants() -> None:
    """thief_must_take_werewolf: false lifts 'if both are werewolves he must take one'."""
    roles = ["thief", "werewolf", "villager", "villager", "villager", "villager"]
    game = new_game(roles, centre=["werewolf", "werewolf"], thief_must_take_werewolf=False)
    drive(game, ("thief", None))
    assert game.card(1) == "thief"


def test_the_werewolves_may_devour_one_of_their_own_if_the_table_wants() -> None:
    """werewolves_may_eat_werewolves: true: the pack may choose a werewolf."""
    roles = ["werewolf", "werewolf", "werewolf", "villager", "villager", "villager", "villager", "villager",
             "villager", "villager", "villager", "villager"]
    game = new_game(roles, werewolves_may_eat_werewolves=True)
    drive(game, ("werewolves", 2))
    assert eliminated(game) == [(2, "werewolves")]


def test_check_lists_the_house_rules_with_their_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    """`werewolf-narrator check --help` lists every option with its default."""
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    shown = capsys.readouterr().out
    for rule in dataclasses.fields(Rules):  # every house rule, with its default
        assert re.search(rf"^  {rule.name}: .*default", shown, re.M | re.S), rule.name


def test_the_keypad_asks_the_one_potion_witch_no_second_question(tmp_path: pytest.TempPathFactory) -> None:
    """With one potion in all, a Witch who heals is not asked whether to poison as well."""
    import io

    from engine import Deal, Game, Rules, Table
    from keystrokes import ScriptedKeys, keys_for
    from narrator.asking import KeypadAnswers
    from narrator.screen import PlainScreen
    from narrator.voices import load_voice

    table = Table(8, tuple(WITCH), Rules(sheriff=False, witch_potions=1))
    game = Game(table, Deal(tuple(WITCH)))
    drive(game, ("werewolves", 3))
    call = game.call
    assert call is not None and call.id == "witch"
    keys = keys_for(call, {"heal": True, "poison": None})
    assert keys == ["1", "enter", "enter"]
    answers = KeypadAnswers(ScriptedKeys(keys), PlainScreen(io.StringIO()), load_voice("en"),
                            say=lambda k, v: None, repeat=lambda: None)
    assert answers.answer(call, game) == {"heal": True, "poison": None}


# -- the Sheriff, votes, calls and characters' house rules ---------------------------------------------------

EIGHT = ["werewolf", "villager", "villager", "villager", "villager", "villager", "villager", "werewolf"]


def test_sheriff_elected_on_the_first_day_before_its_vote() -> None:
    """sheriff_elected: first_day (as many tables do): no election before night 1; the first day elects the
    Sheriff among the living, after the dawn and before the debate."""
    game = new_game(EIGHT, sheriff=True)
    assert reach(game, "sheriff_election").phase is Phase.DAY and game.night == 0  # the default: start
    game = new_game(EIGHT, sheriff=True, sheriff_elected="first_day")
    drive(game, ("werewolves", 3))
    assert reach(game, "sheriff_election").seats == (1, 2, 4, 5, 6, 7, 8)
    assert refused(game, 3).key == "refusal.eliminated"
    drive(game, ("sheriff_election", 4), ("vote", {"ballots": {4: 5, 6: 7}}))
    assert call_ids(game, "day", 1) == ["dawn", "sheriff_election", "debate", "vote"]
    assert game.sheriff == 4 and eliminated(game) == [(3, "werewolves"), (5, "vote")]  # his vote counts double
    drive(game, ("werewolves", 2))
    assert "sheriff_election" not in call_ids(game, "day", 2)


def test_sheriff_double_vote_may_be_turned_off() -> None:
    """sheriff_double_vote: false: the Sheriff's ballot counts once, so one against one is a tie."""
    for rule in (True, False):
        game = new_game(EIGHT, sheriff=True, sheriff_double_vote=rule)
        drive(game, ("sheriff_election", 2), ("werewolves", 3), ("vote", {"ballots": {2: 5, 4: 6}}))
        assert (eliminated(game) == [(3, "werewolves"), (5, "vote")]) is rule
        assert (game.call is not None and game.call.id == "sheriff_tiebreak") is not rule


def test_sheriff_breaks_ties_may_be_left_to_a_run_off() -> None:
    """sheriff_breaks_ties: false: a tie goes to a second vote among the tied, Sheriff or not."""
    game = new_game(EIGHT, sheriff=True)
    drive(game, ("sheriff_election", 2), ("werewolves", 3), ("vote", {"tie": [5, 6]}))
    assert reach(game, "sheriff_tiebreak").actors == (2,)
    game = new_game(EIGHT, sheriff=True, sheriff_breaks_ties=False)
    drive(game, ("sheriff_election", 2), ("werewolves", 3), ("vote", {"tie": [5, 6]}))
    assert reach(game, "revote").seats == (5, 6)
    drive(game, ("revote", 6))
    assert eliminated(game) == [(3, "werewolves"), (6, "vote")]


def test_votes_may_be_skipped_unless_the_village_must_vote() -> None:
    """votes_may_be_skipped: false: nobody (null, or a roll call of abstentions) is refused; a tie still goes
    to a run-off, and a second tie still eliminates nobody (the rulebook)."""
    game = new_game(EIGHT)
    drive(game, ("werewolves", 3), ("vote", None))  # the default: docs/rules.md's "nobody"
    assert eliminated(game) == [(3, "werewolves")]
    game = new_game(EIGHT, votes_may_be_skipped=False)
    drive(game, ("werewolves", 3))
    call = reach(game, "vote")
    assert not call.optional
    assert refused(game, None).key == "refusal.must_vote"
    assert refused(game, {"ballots": {4: None, 5: None}}).key == "refusal.must_vote"
    drive(game, ("vote", {"tie": [5, 6]}))
    assert refused(game, None).key == "refusal.must_vote"
    drive(game, ("revote", {"tie": [5, 6]}), ("werewolves", 4))
    assert eliminated(game) == [(3, "werewolves"), (4, "werewolves")]


BIG_BAD_WOLF = ["werewolf", "big_bad_wolf"] + ["villager"] * 8


def test_big_bad_wolf_loses_power_may_be_turned_off() -> None:
    """big_bad_wolf_loses_power: false: the Big Bad Wolf keeps his second victim after a werewolf falls."""
    for rule in (True, False):
        game = new_game(BIG_BAD_WOLF, big_bad_wolf_loses_power=rule)
        drive(game, ("werewolves", 3), ("big_bad_wolf", 4), ("vote", 1), ("werewolves", 5))
        assert made_once(game, "big_bad_wolf", 2).live is not rule


WHITE = ["white_werewolf", "werewolf", "werewolf"] + ["villager"] * 9


def nights_of(game: Game, call_id: str) -> list[int]:
    """Returns the nights the call ``call_id`` was made on."""
    return [c.number for c in game.calls if c.id == call_id and c.phase is Phase.NIGHT]


def test_white_werewolf_interval() -> None:
    """white_werewolf_interval: the White Werewolf wakes every N nights (the rulebook: every other night)."""
    for interval, nights in ((2, [2, 4, 6]), (1, [1, 2, 3, 4, 5, 6]), (3, [3, 6])):
        game = new_game(WHITE, white_werewolf_interval=interval)
        play_harmlessly(game, nights=6)
        assert nights_of(game, "white_werewolf") == nights


SISTERS_AND_BROTHERS = ["werewolf", "sister", "brother", "sister", "brother", "brother", "werewolf", "villager",
                        "villager", "villager"]


def test_sisters_interval() -> None:
    """sisters_interval: the Two Sisters wake again every N nights; 0 leaves it to sisters_wake (on: every other
    night, as before). The Brothers keep their own interval (every other night)."""
    for rules, later in (({}, []), ({"sisters_wake": True}, [2, 4, 6]), ({"sisters_interval": 3}, [3, 6]),
                         ({"sisters_interval": 1}, [2, 3, 4, 5, 6]),
                         ({"sisters_interval": 3, "sisters_wake": True}, [3, 6])):
        game = new_game(SISTERS_AND_BROTHERS, **rules)
        play_harmlessly(game, nights=6)
        assert nights_of(game, "sisters") == [1, *later] and nights_of(game, "brothers") == [1, 2, 4, 6], rules


def test_brothers_interval() -> None:
    """brothers_interval: the Three Brothers wake again every N nights (default 2, the Chinese article's 每两晚)."""
    for rules, later in (({}, [2, 4, 6]), ({"brothers_interval": 0}, []), ({"brothers_interval": 3}, [3, 6])):
        game = new_game(SISTERS_AND_BROTHERS, **rules)
        play_harmlessly(game, nights=6)
        assert nights_of(game, "brothers") == [1, *later], rules


ELDER = ["werewolf", "elder", "seer"] + ["villager"] * 6


def test_elder_lives() -> None:
    """elder_lives: the werewolf attacks the Elder takes (the rulebook: he survives the first)."""
    game = new_game(ELDER, elder_lives=1)
    drive(game, ("seer", None), ("werewolves", 2))
    assert eliminated(game) == [(2, "werewolves")]
    game = new_game(ELDER, elder_lives=3)
    for _ in range(2):
        drive(game, ("seer", None), ("werewolves", 2), ("vote", None))
    assert game.alive(2)
    drive(game, ("seer", None), ("werewolves", 2))
    assert eliminated(game) == [(2, "werewolves")]


def test_elder_revenge_may_be_turned_off() -> None:
    """elder_revenge: false: the village that eliminates its Elder keeps its powers."""
    for rule in (True, False):
        game = new_game(ELDER, elder_revenge=rule)
        drive(game, ("seer", None), ("werewolves", 4), ("vote", 2))
        reach(game, "werewolves" if rule else "seer")
        assert game.penalty is rule and made_once(game, "seer", 2).live is not rule


IDIOT_AND_ELDER = ["idiot", "werewolf", "elder"] + ["villager"] * 7


def test_idiot_dies_with_elder() -> None:
    """idiot_dies_with_elder (the Chinese article's option): a revealed Idiot dies when the Elder's penalty
    strikes; by default he stays."""
    for rule in (False, True):
        game = new_game(IDIOT_AND_ELDER, idiot_dies_with_elder=rule)
        drive(game, ("werewolves", 4), ("vote", 1), ("werewolves", 5), ("vote", 3))
        assert game.marked(1, "revealed") and game.penalty
        assert ((1, "elder") in eliminated(game)) is rule and game.alive(1) is not rule
    assert eliminated(game)[-2:] == [(3, "vote"), (1, "elder")]


def test_infected_bear_tamer_growls_may_be_turned_off() -> None:
    """infected_bear_tamer_growls: false: an infected Bear Tamer's bear growls only for a werewolf neighbour."""
    roles = ["infected_father", "villager", "villager", "bear_tamer", "villager", "villager", "villager",
             "villager", "villager"]
    for rule in (True, False):
        game = new_game(roles, infected_bear_tamer_growls=rule)
        drive(game, ("werewolves", 4), ("infected_father", True), ("vote", None), ("werewolves", 7))
        assert ["growl" in call_ids(game, "day", day) for day in (1, 2)] == [rule, rule]


PIPER = ["werewolf", "piper", "villager", "villager", "villager", "villager", "villager", "villager"]


def test_piper_charms() -> None:
    """piper_charms: the players the Piper charms each night (the rulebook: 2)."""
    for charms in (1, 3):
        game = new_game(PIPER, piper_charms=charms)
        drive(game, ("werewolves", 8))
        assert reach(game, "piper").picks == charms
        assert not refused(game, [3, 4, 5, 6][: charms + 1]).secret
        drive(game, ("piper", [3, 4, 5][:charms]))
        assert [s for s in range(1, 9) if game.marked(s, "charmed")] == [3, 4, 5][:charms]


def test_piper_keeps_power_if_infected() -> None:
    """piper_keeps_power_if_infected: true: infected, the Piper still charms (his goal is lost all the same);
    by default he becomes a simple werewolf, as the rulebook says."""
    roles = ["infected_father", "piper", "villager", "villager", "villager", "villager", "villager", "villager"]
    for rule in (False, True):
        game = new_game(roles, piper_keeps_power_if_infected=rule)
        drive(game, ("werewolves", 2), ("infected_father", True))
        assert made_once(game, "piper", 1).live is rule
        if rule:
            drive(game, ("piper", [3, 4]))
            assert game.marked(3, "charmed") and game.is_werewolf(2)


HOUSE_RULES = """deck: [werewolf, werewolf, villager, villager, villager, villager, villager, villager]
sheriff_elected: first_day
sheriff_double_vote: false
sheriff_breaks_ties: false
votes_may_be_skipped: false
skip_idle_calls: true
big_bad_wolf_loses_power: false
white_werewolf_interval: 3
sisters_interval: 4
elder_lives: 3
elder_revenge: false
idiot_dies_with_elder: true
infected_bear_tamer_growls: false
wolf_hound_random: true
piper_charms: 1
piper_keeps_power_if_infected: true
"""


def test_the_house_rules_are_read_from_the_config_and_journalled(tmp_path: Path) -> None:
    """Each new key reaches its Rules field, and a journal's table gives back the same rules."""
    from narrator.config import config_from_journal, journal_table, load_config

    path = tmp_path / "table.yaml"
    path.write_text(HOUSE_RULES, encoding="utf-8")
    config, _ = load_config(str(path))
    rules = config.table.rules
    assert (rules.sheriff_elected, rules.white_werewolf_interval, rules.sisters_interval, rules.elder_lives,
            rules.piper_charms) == ("first_day", 3, 4, 3, 1)
    assert not (rules.sheriff_double_vote or rules.sheriff_breaks_ties or rules.votes_may_be_skipped
                or rules.big_bad_wolf_loses_power or rules.elder_revenge or rules.infected_bear_tamer_growls)
    assert (rules.skip_idle_calls and rules.idiot_dies_with_elder and rules.wolf_hound_random
            and rules.piper_keeps_power_if_infected)
    assert config_from_journal(json.loads(json.dumps(journal_table(config))), "journal").table.rules == rules


def test_skip_idle_calls() -> None:
    """skip_idle_calls: true: no call for the dead (as call_dead: false) and none where passing is all that is
    left (the White Werewolf with no other werewolf); by default both are made, for fair play."""
    roles = ["white_werewolf", "werewolf", "seer"] + ["villager"] * 7
    for rule in (False, True):
        game = new_game(roles, skip_idle_calls=rule)
        drive(game, ("seer", None), ("werewolves", 3), ("vote", 2), ("werewolves", 4))
        seer, white = made(game, "seer", 2), made(game, "white_werewolf", 2)
        if rule:
            assert seer is None and white is None
        else:
            assert seer is not None and not seer.live and white is not None and white.live
        assert eliminated(game)[:2] == [(3, "werewolves"), (2, "vote")]
    game = new_game(roles, skip_idle_calls=True)
    drive(game, ("seer", 5), ("werewolves", 4), ("vote", 9), ("seer", 6), ("werewolves", 7), ("white_werewolf", 2))
    assert (2, "white_werewolf") in eliminated(game)  # with another werewolf alive, he is asked


WOLF_HOUND = ["wolf_hound", "werewolf", "villager", "villager", "villager", "villager", "villager", "villager"]


def test_wolf_hound_random_draws_his_side_and_shows_it_to_him_alone(tmp_path: Path) -> None:
    """wolf_hound_random: true: the narrator draws the side and gives the draw as the answer (journaled, so a
    replay is exact); the Wolf Hound reads it on the screen; the wake line says it is drawn, for the living
    and the dead alike; no key is pressed."""
    import io

    from engine import Deal, Table
    from keystrokes import ScriptedKeys
    from narrator.asking import KeypadAnswers
    from narrator.practice import dry_run
    from narrator.screen import PlainScreen
    from narrator.script import load_script
    from narrator.voices import load_voice

    table = Table(8, tuple(WOLF_HOUND), Rules(sheriff=False, wolf_hound_random=True))
    sides = set()
    for seed in range(12):
        game = Game(table, Deal(tuple(WOLF_HOUND)))
        call = reach(game, "wolf_hound")
        answers = KeypadAnswers(ScriptedKeys([]), PlainScreen(io.StringIO()), load_voice("en"),
                                say=lambda k, v: None, repeat=lambda: None, rng=random.Random(seed),
                                sleep=lambda s: None)
        side = answers.answer(call, game)
        step = game.answer(side)
        assert [(f.key, f.secret) for f in step.facts] == [("wolf_hound.drawn", True)]
        assert Game(table, game.deal, game.journal).kept(Side) == game.kept(Side) == Side(side)
        sides.add(side)
    assert sides == {"wolf", "village"}

    script = tmp_path / "drawn.yaml"
    script.write_text("table: {deck: [wolf_hound, werewolf, villager, villager, villager, villager, villager, "
                      "villager], sheriff: false, wolf_hound_random: true}\n"
                      "deal: {1: wolf_hound, 2: werewolf, 3: villager, 4: villager, 5: villager, 6: villager, "
                      "7: villager, 8: villager}\n"
                      "answers: [wolf_hound: wolf, werewolves: 3, vote: 4, werewolves: 5, vote: 6, werewolves: 7, vote: 8]\n",
                      encoding="utf-8")
    game, lines = dry_run(load_script(str(script))[0])
    keys = [line.key for line in lines]
    assert keys.count("wolf_hound.wake_drawn") == 1 and "wolf_hound.wake" not in keys
    assert ("screen.wolf_hound_drawn_wolf", "screen") in [(line.key, line.channel) for line in lines]
    assert game.outcome is not None and game.outcome.winner == "werewolves"


def test_the_sheriff_election_does_not_promise_a_double_vote_the_table_has_turned_off(tmp_path: Path) -> None:
    """sheriff_double_vote: false: the election's call leaves out "the Sheriff's vote counts double"."""
    from narrator.practice import dry_run
    from narrator.script import load_script

    for rule, key in ((True, "sheriff_election.call"), (False, "sheriff_election.call_single")):
        script = tmp_path / f"{rule}.yaml"
        script.write_text("table: {deck: [werewolf, villager, villager, villager, villager, villager], "
                          f"sheriff_double_vote: {str(rule).lower()}}}\n"
                          "deal: {1: werewolf, 2: villager, 3: villager, 4: villager, 5: villager, 6: villager}\n"
                          "answers: [sheriff_election: 2, werewolves: 3, vote: 1]\n", encoding="utf-8")
        _, lines = dry_run(load_script(str(script))[0])
        assert [line.key for line in lines if line.key.startswith("sheriff_election")] == [key]
