"""The ambiguous characters and the loners (Best Of rulebook, pages 17 to 21; French rules: the Thief;
docs/rules.md): the Wild Child, the Wolf Hound, the Piper, the Angel and the Thief."""

from __future__ import annotations

from engine import check_deck
from engine.roles.wild_child import RoleModel
from engine.table import preset
from engine.types import Phase, Team
from helpers import call_ids, drive, eliminated, made, made_once, new_game, reach, refused

# -- the Wild Child ----------------------------------------------------------------------------------

WILD = ["werewolf", "wild_child", "villager", "villager", "villager", "villager", "villager"]


def test_wild_child_chooses_a_role_model_on_the_first_night() -> None:
    """'On the first night, at the narrator's call, he designates a role-model player.'"""
    game = new_game(WILD)
    call = reach(game, "wild_child")
    assert call.number == 1 and call.actors == (2,)
    drive(game, ("wild_child", 3))
    assert game.kept(RoleModel).seat == 3
    drive(game, ("werewolves", 4), ("vote", None), ("werewolves", 5))
    assert "wild_child" not in call_ids(game, "night", 2)  # the first night only


def test_wild_child_cannot_choose_himself() -> None:
    """The Wild Child designates another player as his role model; refused on the screen only (secret)."""
    game = new_game(WILD)
    reach(game, "wild_child")
    assert refused(game, 2).secret
    assert 2 not in game.legal() and 3 in game.legal()


def test_wild_child_is_a_villager_while_his_model_lives_even_a_werewolf() -> None:
    """'As long as his role model is alive, the Wild Child remains a villager. Whether or not his role
    model turns out to be a Werewolf changes nothing about this.'"""
    game = new_game(WILD)
    drive(game, ("wild_child", 1), ("werewolves", 3), ("vote", None))
    assert game.side(2) is Team.VILLAGE and not game.is_werewolf(2)
    pack = reach(game, "werewolves")
    assert pack.number == 2 and pack.actors == (1,)


def test_wild_child_becomes_a_werewolf_the_moment_his_model_is_eliminated() -> None:
    """'If, during the game, the designated player is eliminated, the Wild Child becomes a Werewolf. He will wake
    from the following night on' (docs/rules.md: a werewolf for every rule at once; only his waking waits)."""
    game = new_game(WILD)
    drive(game, ("wild_child", 3), ("werewolves", 4))
    reach(game, "vote")
    game.answer(3)
    assert game.call is not None and game.call.id == "nightfall"
    assert game.marked(2, "turned") and game.is_werewolf(2) and game.side(2) is Team.WEREWOLVES
    pack = reach(game, "werewolves")
    assert pack.number == 2 and pack.actors == (1, 2)


def test_wild_child_wakes_with_the_pack_only_from_the_following_night() -> None:
    """'He will wake from the following night on with his fellow Werewolves': the model devoured on night one, he
    is a werewolf from that dawn, and wakes with the pack on night two, not before."""
    game = new_game(WILD)
    drive(game, ("wild_child", 3), ("werewolves", 3))
    assert game.is_werewolf(2)
    assert made(game, "werewolves", 1).actors == (1,)  # type: ignore[union-attr]
    drive(game, ("vote", None))
    assert reach(game, "werewolves").actors == (1, 2)


def test_turned_wild_child_wins_with_the_werewolves() -> None:
    """'He shares in the eventual victory of the Werewolves if his role model has been eliminated.'"""
    game = new_game(WILD)
    drive(game, ("wild_child", 3), ("werewolves", 3), ("vote", 4), ("werewolves", 5), ("vote", 6),
          ("werewolves", 7))
    assert game.outcome is not None and game.outcome.winner == "werewolves"
    assert game.outcome.winners == (1, 2)


def test_village_does_not_win_the_day_the_wild_childs_model_dies() -> None:
    """'He shares in the eventual victory of the Werewolves if his role model has been eliminated': the village
    votes out the last werewolf, his model, and has not won, for the Wild Child is a werewolf at once (the old
    reading, a villager until night fell, gave the village the game here)."""
    game = new_game(WILD)
    drive(game, ("wild_child", 1), ("werewolves", 3), ("vote", 1))
    assert game.outcome is None
    assert game.is_werewolf(2)
    assert reach(game, "werewolves").actors == (2,)


def test_werewolves_win_the_moment_the_wild_child_turns() -> None:
    """docs/rules.md: the Wild Child turns the moment his role model is eliminated; victory is checked once the
    moment is resolved — here at the vote that eliminates the model, before night falls."""
    game = new_game(["werewolf", "wild_child", "villager", "villager", "villager", "villager"])
    drive(game, ("wild_child", 3), ("werewolves", 4), ("vote", 5), ("werewolves", 6), ("vote", 3))
    assert game.outcome is not None and game.outcome.winner == "werewolves"
    assert game.outcome.winners == (1, 2)
    assert call_ids(game, "night", 3) == []


def test_wild_child_may_vote_against_his_role_model() -> None:
    """'Nothing prevents the Wild Child from taking part in the elimination of his role model.'"""
    game = new_game(WILD)
    drive(game, ("wild_child", 3), ("werewolves", 4), ("vote", {"ballots": {2: 3, 5: 3, 6: 7}}))
    assert eliminated(game) == [(4, "werewolves"), (3, "vote")]



# -- the Wolf Hound ----------------------------------------------------------------------------------

HOUND = ["werewolf", "wolf_hound", "villager", "villager", "villager", "villager", "villager"]


def test_wolf_hound_chooses_his_side_on_the_first_night_for_good() -> None:
    """'On the first night, the Wolf Hound chooses whether he wishes to be a villager or to join the
    Werewolves. This choice is final!'"""
    game = new_game(HOUND)
    call = reach(game, "wolf_hound")
    assert call.number == 1 and call.actors == (2,)
    assert not refused(game, "both").secret
    drive(game, ("wolf_hound", "village"))
    assert reach(game, "werewolves").actors == (1,)  # a villager keeps his eyes closed
    drive(game, ("werewolves", 3), ("vote", None), ("werewolves", 4))
    assert call_ids(game).count("wolf_hound") == 1
    assert game.side(2) is Team.VILLAGE


def test_wolf_hound_who_chose_the_wolves_wakes_with_the_pack_that_night() -> None:
    """'If he wishes to be a Werewolf, he will wake with them every night' — from the first night."""
    game = new_game(HOUND)
    drive(game, ("wolf_hound", "wolf"))
    pack = reach(game, "werewolves")
    assert pack.number == 1 and pack.actors == (1, 2)
    assert refused(game, 2).secret  # the pack cannot devour him


def test_wolf_hound_who_chose_the_wolves_counts_as_a_werewolf() -> None:
    """docs/rules.md: the village wins when no living player is a werewolf (… a Wolf Hound who chose the
    wolves … counts); he wins with the werewolves."""
    game = new_game(HOUND)
    drive(game, ("wolf_hound", "wolf"), ("werewolves", 3), ("vote", 1))
    assert not game.over and game.is_werewolf(2)
    drive(game, ("werewolves", 4), ("vote", 2))
    assert game.outcome is not None and game.outcome.winner == "village"
    assert 2 not in game.outcome.winners


# -- the Piper ---------------------------------------------------------------------------------------

PIPER = ["werewolf", "piper", "villager", "villager", "villager", "villager", "villager"]


def test_piper_charms_two_new_players_each_night() -> None:
    """'Each night, at the narrator's call, the Piper designates 2 new players.'"""
    game = new_game(PIPER)
    drive(game, ("werewolves", 7))
    call = reach(game, "piper")
    assert call.actors == (2,) and call.picks == 2
    assert not refused(game, [3]).secret  # two, not one: public
    drive(game, ("piper", [3, 4]), ("vote", None), ("werewolves", 5))
    assert refused(game, [3, 6]).secret  # 3 is charmed already
    drive(game, ("piper", [1, 6]))
    assert [s for s in range(1, 8) if game.marked(s, "charmed")] == [1, 3, 4, 6]


def test_piper_cannot_charm_himself() -> None:
    """'The Piper cannot charm himself' — refused on the screen only (secret)."""
    game = new_game(PIPER)
    drive(game, ("werewolves", 3))
    assert refused(game, [2, 4]).secret
    assert [2, 4] not in game.legal() and [4, 5] in game.legal()


def test_piper_charms_all_that_remain_when_fewer_than_two() -> None:
    """docs/rules.md: the Piper charms exactly two not-yet-charmed players (all of them if fewer remain)."""
    game = new_game(PIPER)
    drive(game, ("werewolves", 3), ("piper", [1, 4]), ("vote", 4), ("werewolves", 5), ("piper", [5, 6]),
          ("vote", None), ("werewolves", 6))
    call = reach(game, "piper")  # the living others: 1 and 6 charmed, 7 alone is free
    assert call.picks == 1 and game.legal() == [[7]]
    drive(game, ("piper", [7]))
    assert game.outcome is not None and game.outcome.winner == "piper"


def test_piper_refusal_for_fewer_than_two_is_secret() -> None:
    """docs/rules.md, 'Nothing is given away': how many players are left to charm depends on who is charmed
    (hidden from the uncharmed), so refusing a second seat is shown on the screen only."""
    game = new_game(PIPER)
    drive(game, ("werewolves", 3), ("piper", [1, 4]), ("vote", 4), ("werewolves", 5), ("piper", [5, 6]),
          ("vote", None), ("werewolves", 6))
    reach(game, "piper")
    assert refused(game, [7, 1]).secret


def test_charmed_call_wakes_every_charmed_player() -> None:
    """'The narrator asks the newly and previously charmed players to wake up. They recognize one another.'"""
    game = new_game(PIPER)
    drive(game, ("werewolves", 3), ("piper", [4, 5]))
    assert made_once(game, "charmed", 1).actors == (4, 5)
    drive(game, ("vote", None), ("werewolves", 5), ("piper", [6, 7]))
    charmed = made_once(game, "charmed", 2)
    assert charmed.actors == (4, 5, 6, 7)  # 5 is devoured tonight but dies only at dawn
    assert not charmed.needs_answer


def test_piper_wins_when_the_werewolves_devour_the_last_uncharmed() -> None:
    """'From the moment only charmed players remain, the Piper has won against everyone else (even if this
    comes about through … the Werewolves)'."""
    game = new_game(PIPER)
    drive(game, ("werewolves", 3), ("piper", [4, 5]), ("vote", None), ("werewolves", 6))
    game.answer([1, 7])
    assert not game.over  # 6 is still alive and uncharmed until dawn
    drive(game)
    assert eliminated(game) == [(3, "werewolves"), (6, "werewolves")]
    assert game.outcome is not None and game.outcome.winner == "piper" and game.outcome.winners == (2,)


def test_piper_wins_when_a_vote_eliminates_the_last_uncharmed() -> None:
    """'… the Piper has won against everyone else (even if this comes about through a village vote …)'."""
    game = new_game(PIPER)
    drive(game, ("werewolves", 3), ("piper", [4, 5]), ("vote", None), ("werewolves", 6), ("piper", [6, 7]),
          ("vote", 1))
    assert game.outcome is not None and game.outcome.winner == "piper" and game.outcome.winners == (2,)


def test_infected_piper_becomes_a_werewolf_and_gives_up_his_goal() -> None:
    """'If he is infected by the Infected Father of the Wolves, he becomes a Simple Werewolf. His original
    goal … is therefore abandoned': his call is still made, for fair play only."""
    game = new_game(["infected_father", "piper", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 2), ("infected_father", True))
    call = made_once(game, "piper", 1)
    assert not call.live and not call.needs_answer
    assert game.is_werewolf(2)
    drive(game, ("vote", 3), ("werewolves", 4), ("vote", 5))
    assert not made_once(game, "piper", 2).live
    drive(game, ("werewolves", 6))
    assert game.outcome is not None and game.outcome.winner == "werewolves"
    assert game.outcome.winners == (1, 2)

def test_werewolves_are_not_immune_to_the_charm() -> None:
    """'The Werewolves are not immune to the charm.'"""
    game = new_game(PIPER)
    drive(game, ("werewolves", 3), ("piper", [1, 4]))
    assert game.marked(1, "charmed") and made_once(game, "charmed", 1).actors == (1, 4)
    drive(game, ("vote", None))
    pack = reach(game, "werewolves")
    assert pack.number == 2 and pack.actors == (1,)


def test_charm_is_not_passed_between_lovers() -> None:
    """'The charm is not transmitted between lovers.'"""
    game = new_game(["werewolf", "piper", "cupid", "villager", "villager", "villager", "villager"])
    drive(game, ("cupid", [4, 5]), ("werewolves", 3), ("piper", [4, 6]))
    assert game.marked(4, "charmed") and not game.marked(5, "charmed")
    assert made_once(game, "charmed", 1).actors == (4, 6)


def test_witch_cannot_cure_the_charm() -> None:
    """'The Witch cannot cure the charm' — her heal saves a charmed victim, who stays charmed."""
    game = new_game(["werewolf", "piper", "witch", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 7), ("witch", {"heal": False, "poison": None}), ("piper", [4, 5]),
          ("vote", None), ("werewolves", 4), ("witch", {"heal": True, "poison": None}), ("piper", [1, 6]))
    assert eliminated(game) == [(7, "werewolves")]
    assert game.marked(4, "charmed") and made_once(game, "charmed", 2).actors == (1, 4, 5, 6)

def test_charmed_players_keep_their_powers() -> None:
    """'Charmed players keep all their powers and traits.'"""
    game = new_game(["werewolf", "piper", "seer", "villager", "villager", "villager", "villager"])
    drive(game, ("seer", None), ("werewolves", 4), ("piper", [3, 5]), ("vote", None))
    seer = reach(game, "seer")
    assert seer.live and seer.actors == (3,) and game.marked(3, "charmed")
    assert game.answer(1).facts[0].values["role"] == "werewolf"



# -- the Angel ---------------------------------------------------------------------------------------

ANGEL = ["werewolf", "angel", "villager", "villager", "villager", "villager", "witch", "hunter"]


def test_angel_game_opens_with_a_day() -> None:
    """'When the Angel is in play, the game always begins with the village's debate followed by an
    eliminatory vote, then a first night' — the Sheriff election before that."""
    game = new_game(ANGEL, sheriff=True)
    drive(game, ("sheriff_election", 3), ("vote", 4))
    assert call_ids(game)[:4] == ["sheriff_election", "debate", "vote", "nightfall"]
    assert [(c.phase, c.number) for c in game.calls[:3]] == [(Phase.DAY, 0)] * 3
    assert eliminated(game) == [(4, "vote")]
    assert game.eliminated[0].phase is Phase.DAY and game.eliminated[0].number == 0


def test_angel_wins_when_eliminated_by_the_first_vote() -> None:
    """'If the Angel succeeds in drawing the villagers' discriminating vote … he wins the game. The game
    then stops.'"""
    game = new_game(ANGEL)
    drive(game, ("vote", 2))
    assert game.outcome is not None and game.outcome.winner == "angel" and game.outcome.winners == (2,)
    assert game.call is None and call_ids(game)[-1] == "vote"


def test_angel_wins_when_eliminated_in_the_opening_revote_or_tiebreak() -> None:
    """docs/rules.md: the Angel wins the instant he is eliminated in his window (the opening vote, its
    run-off or tie-break …)."""
    game = new_game(ANGEL)
    drive(game, ("vote", {"tie": [2, 3]}), ("revote", 2))
    assert game.outcome is not None and game.outcome.winner == "angel"
    game = new_game(ANGEL, sheriff=True)
    drive(game, ("sheriff_election", 5), ("vote", {"tie": [2, 3]}), ("sheriff_tiebreak", 2))
    assert game.outcome is not None and game.outcome.winner == "angel"


def test_angel_wins_when_devoured_on_the_first_night() -> None:
    """'If the Angel succeeds in drawing … the devouring wrath of the lycanthropes … he wins the game.'"""
    game = new_game(ANGEL)
    drive(game, ("vote", None), ("werewolves", 2), ("witch", {"heal": False, "poison": None}))
    assert game.outcome is not None and game.outcome.winner == "angel" and game.outcome.winners == (2,)
    assert eliminated(game) == [(2, "werewolves")]


def test_angel_wins_when_poisoned_on_the_first_night_and_nothing_else_runs() -> None:
    """'… or the Witch's poison potion … he wins the game. The game then stops' (rulings: nothing else
    runs — here the devoured Hunter does not shoot)."""
    game = new_game(ANGEL)
    drive(game, ("vote", None), ("werewolves", 8), ("witch", {"heal": False, "poison": 2}))
    assert game.outcome is not None and game.outcome.winner == "angel" and game.outcome.winners == (2,)
    assert "hunter" not in call_ids(game) and game.call is None
    assert call_ids(game)[-1] == "dawn"


def test_lover_angel_gives_up_his_goal() -> None:
    """'If the Angel falls in love, he abandons his previous goal and tries to survive with his partner.'"""
    game = new_game(["werewolf", "angel", "cupid", "villager", "villager", "villager", "villager"])
    drive(game, ("vote", None), ("cupid", [2, 4]), ("werewolves", 2))
    assert not game.over
    assert eliminated(game) == [(2, "werewolves"), (4, "grief")]


def test_infected_angel_gives_up_his_goal() -> None:
    """docs/rules.md: 'A lover or an infected Angel has given up that goal.'"""
    game = new_game(["infected_father", "angel", "witch", "villager", "villager", "villager", "villager"])
    drive(game, ("vote", None), ("werewolves", 2), ("infected_father", True),
          ("witch", {"heal": False, "poison": 2}))
    assert not game.over
    assert eliminated(game) == [(2, "poison")]


def test_angel_is_a_simple_villager_after_the_first_turn() -> None:
    """'If he fails, he becomes a Simple Villager for the rest of the game.'"""
    game = new_game(ANGEL)
    drive(game, ("vote", None), ("werewolves", 3), ("witch", {"heal": False, "poison": None}), ("vote", 2))
    assert not game.over and eliminated(game) == [(3, "werewolves"), (2, "vote")]
    drive(game, ("werewolves", 4), ("witch", {"heal": False, "poison": 1}))
    assert game.outcome is not None and game.outcome.winner == "village"
    assert 2 in game.outcome.winners


# -- the Thief ---------------------------------------------------------------------------------------

THIEF = ["thief", "werewolf", "villager", "villager", "villager", "villager"]


def test_thief_sees_the_two_centre_cards() -> None:
    """'La première nuit, le voleur pourra prendre connaissance de ses deux cartes' — shown on the screen."""
    game = new_game(THIEF, centre=["seer", "villager"])
    call = reach(game, "thief")
    assert call.number == 1 and call.actors == (1,) and call_ids(game) == ["nightfall", "thief"]
    shown = [f for f in call.facts if f.key == "centre"]
    assert len(shown) == 1 and shown[0].secret and shown[0].values["cards"] == ["seer", "villager"]


def test_thief_may_take_a_centre_card_or_keep_his_own() -> None:
    """'… et échanger sa carte contre l'une des deux autres' — 1 or 2, or null to keep his card."""
    game = new_game(THIEF, centre=["seer", "villager"])
    drive(game, ("thief", 2))
    assert game.card(1) == "villager" and game.centre == ["seer", "thief"]
    game = new_game(THIEF, centre=["seer", "villager"])
    drive(game, ("thief", None))
    assert game.card(1) == "thief" and game.centre == ["seer", "villager"]
    game = new_game(THIEF, centre=["seer", "villager"])
    reach(game, "thief")
    assert not refused(game, 3).secret


def test_thief_must_take_a_werewolf_when_both_centre_cards_are_werewolves() -> None:
    """'Si ces deux cartes sont des Loups Garous, il est obligé d'échanger sa carte contre un des deux Loups
    Garous' — refused on the screen only (secret)."""
    game = new_game(THIEF, centre=["werewolf", "big_bad_wolf"])
    reach(game, "thief")
    assert refused(game, None).secret
    drive(game, ("thief", 2))
    assert game.card(1) == "big_bad_wolf"


def test_thief_who_takes_a_werewolf_wakes_with_the_pack_that_night() -> None:
    """'Il jouera désormais ce personnage jusqu'à la fin de la partie' — from that very night."""
    game = new_game(THIEF, centre=["werewolf", "villager"])
    drive(game, ("thief", 1))
    pack = reach(game, "werewolves")
    assert pack.number == 1 and pack.actors == (1, 2)
    assert game.is_werewolf(1)


def test_thief_who_takes_the_seer_is_called_as_the_seer() -> None:
    """'Il jouera désormais ce personnage jusqu'à la fin de la partie' — called for it that very night."""
    game = new_game(THIEF, centre=["seer", "villager"])
    drive(game, ("thief", 1))
    seer = reach(game, "seer")
    assert seer.live and seer.number == 1 and seer.actors == (1,)
    step = game.answer(2)
    assert [(f.key, dict(f.values)) for f in step.facts] == [("seer.sees", {"seat": 2, "role": "werewolf"})]


def test_centre_cards_characters_are_still_called() -> None:
    """docs/rules.md: characters of the deck are called for fair play — the centre cards' too, not live."""
    game = new_game(THIEF, centre=["seer", "witch"])
    drive(game, ("thief", 1), ("seer", None), ("werewolves", 3))
    assert made_once(game, "seer", 1).live and not made_once(game, "witch", 1).live
    game = new_game(THIEF, centre=["seer", "witch"])
    drive(game, ("thief", None), ("werewolves", 3))
    assert not made_once(game, "seer", 1).live and not made_once(game, "witch", 1).live
    assert call_ids(game, "night", 1) == ["nightfall", "thief", "seer", "werewolves", "witch"]


def test_thief_is_called_on_the_first_night_only() -> None:
    """'La première nuit, le voleur pourra prendre connaissance de ses deux cartes' — never again."""
    game = new_game(THIEF, centre=["villager", "villager"])
    drive(game, ("thief", None), ("werewolves", 3), ("vote", None), ("werewolves", 4))
    assert call_ids(game).count("thief") == 1 and "thief" in call_ids(game, "night", 1)


def test_thief_deck_holds_two_more_cards() -> None:
    """'Si on veut jouer le Voleur, il faut ajouter deux cartes … en plus de toutes celles déja choisies.'"""
    assert check_deck(6, THIEF)[0]  # six cards for six players and a Thief: two are missing
    assert check_deck(6, THIEF + ["villager", "villager"]) == ([], [])
    assert len(preset("classic", 12)) == 14
