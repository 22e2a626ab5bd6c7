"""House rules from the seeds, each off by default (the rulebook's) and doing what it says when on."""

from __future__ import annotations

import pytest

from engine import IllegalAnswer
from helpers import drive, eliminated, made_once, new_game, reach, refused
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
    assert eliminated(game) == [(4, "werewolves"), (3, "poison")]


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
    for key in ("witch_potions", "hunter_shoots_when_poisoned", "guard_same_twice", "werewolves_may_eat_werewolves"):
        assert key in shown
    assert "default" in shown


def test_the_keypad_asks_the_one_potion_witch_no_second_question(tmp_path: pytest.TempPathFactory) -> None:
    """With one potion in all, a Witch who heals is not asked whether to poison as well."""
    import io

    from engine import Deal, Game, Rules, Table
    from keystrokes import keys_for
    from narrator.asking import KeypadAnswers
    from narrator.keypad import ScriptedKeys
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
