"""The villagers' rules (Best Of rulebook, pages 9 to 16; docs/rules.md): the Fortune Teller, the Witch, the Fox,
the Elder, the Hunter, the Bear Tamer, Cupid and the lovers, and the Two Sisters."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game
from engine.roles.cupid import lovers
from engine.roles.fox import Scent
from engine.types import Fact, Kind, Phase
from helpers import call_ids, drive, eliminated, made, new_game, reach, refused

VILLAGERS = ["villager"] * 6






def live(game: Game, call_id: str, number: int) -> bool:
    """Returns whether the night call ``call_id`` of night ``number`` was made live (it must have been made)."""
    call = made(game, call_id, number)
    assert call is not None, f"no {call_id!r} call on night {number}"
    return call.live




def victims(game: Game, day: int) -> list[int]:
    """Returns the seats revealed at the dawn of ``day``, in order."""
    dawn = made(game, "dawn", day, Phase.DAY)
    assert dawn is not None
    return [f.values["seat"] for f in dawn.facts if f.key == "victim"]  # type: ignore[misc]


def growled(game: Game, day: int) -> bool:
    """Returns whether the bear growled on ``day``."""
    return "growl" in call_ids(game, "day", day)


NO_POTION = {"heal": False, "poison": None}


# -- the Fortune Teller ----------------------------------------------------------------------------


def test_seer_sees_the_card() -> None:
    """'He shows her the designated player's card' — a secret fact, shown on the screen."""
    game = new_game(["werewolf", "seer", *VILLAGERS])
    assert reach(game, "seer").actors == (2,)
    step, = drive(game, ("seer", 1))
    assert step.facts == (Fact("seer.sees", {"seat": 1, "role": "werewolf"}, secret=True),)


def test_seer_cannot_choose_herself() -> None:
    """She indicates 'a player whose identity she wants to know' — not herself; refused in secret."""
    game = new_game(["werewolf", "seer", *VILLAGERS])
    reach(game, "seer")
    assert refused(game, 2).secret


def test_seer_may_pass() -> None:
    """docs/rules.md: The Seer and the Guard may pass (`null`)."""
    game = new_game(["werewolf", "seer", *VILLAGERS])
    step, = drive(game, ("seer", None))
    assert step.facts == ()


def test_seer_loses_power_after_elder_penalty() -> None:
    """docs/rules.md: 'Villagers' powers lost after the Elder's penalty: Seer, ...'"""
    game = new_game(["werewolf", "seer", "elder", *VILLAGERS])
    drive(game, ("seer", 1), ("werewolves", 4), ("vote", 3), ("werewolves", 5))
    assert not live(game, "seer", 2)


def test_infected_seer_keeps_power_after_elder_penalty() -> None:
    """docs/rules.md: infected players keep theirs — the infected Fortune Teller still sees."""
    game = new_game(["infected_father", "seer", "elder", *VILLAGERS])
    drive(game, ("seer", 3), ("werewolves", 2), ("infected_father", True), ("vote", 3))
    assert game.penalty
    step, = drive(game, ("seer", 4))
    assert step.facts[0].key == "seer.sees" and live(game, "seer", 2)


# -- the Witch -------------------------------------------------------------------------------------

WITCH = ["werewolf", "witch", *VILLAGERS]
"""The Witch at seat 2."""


def test_witch_heal_only_once() -> None:
    """'The Witch may use each potion only once during the game' — the healing potion."""
    game = new_game(WITCH)
    drive(game, ("werewolves", 3), ("witch", {"heal": True, "poison": None}), ("vote", None), ("werewolves", 4))
    assert game.alive(3)
    reach(game, "witch")
    assert refused(game, {"heal": True, "poison": None}).secret


def test_witch_poison_only_once() -> None:
    """'The Witch may use each potion only once during the game' — the poison potion."""
    game = new_game(WITCH)
    drive(game, ("werewolves", 3), ("witch", {"heal": False, "poison": 5}), ("vote", None), ("werewolves", 4))
    assert (5, "poison") in eliminated(game)
    reach(game, "witch")
    assert refused(game, {"heal": False, "poison": 6}).secret


def test_witch_may_use_both_potions_in_one_night() -> None:
    """'She may use both potions the same night.'"""
    game = new_game(WITCH)
    drive(game, ("werewolves", 3), ("witch", {"heal": True, "poison": 1}))
    assert eliminated(game) == [(1, "poison")] and game.alive(3)


def test_witch_may_heal_herself() -> None:
    """'The Witch may also use the healing potion on herself.'"""
    game = new_game(WITCH)
    drive(game, ("werewolves", 2), ("witch", {"heal": True, "poison": None}))
    assert eliminated(game) == [] and game.alive(2)


def test_witch_may_not_poison_herself() -> None:
    """docs/rules.md (BGA; the Best Of grants her only the heal on herself): the Witch may not poison herself — refused on
    the screen only, and never among the legal answers."""
    game = new_game(WITCH)
    drive(game, ("werewolves", 3))
    reach(game, "witch")
    refusal = refused(game, {"heal": False, "poison": 2})
    assert refusal.secret and refusal.key == "refusal.self"
    assert all(answer["poison"] != 2 for answer in game.legal())  # type: ignore[index]


def test_witch_heal_needs_a_victim() -> None:
    """docs/rules.md: 'a heal needs a pack victim' — refused in secret when the pack chose nobody."""
    game = new_game(WITCH)
    drive(game, ("werewolves", None))
    reach(game, "witch")
    assert refused(game, {"heal": True, "poison": None}).secret
    assert all(not answer["heal"] for answer in game.legal())  # type: ignore[index]


def test_witch_shown_the_victim() -> None:
    """'He shows her the Werewolves' victim' — the secret fact 'victim_shown' on her call."""
    game = new_game(WITCH)
    drive(game, ("werewolves", 5))
    facts = reach(game, "witch").facts
    assert [(f.key, f.values["seat"], f.secret) for f in facts] == [("victim_shown", 5, True)]


def test_witch_with_one_potion_left_asked_for_it_only() -> None:
    """docs/rules.md: with one potion left she is still asked, for that potion only."""
    game = new_game(WITCH)
    drive(game, ("werewolves", 3), ("witch", {"heal": True, "poison": None}), ("vote", None), ("werewolves", 4))
    call = reach(game, "witch")
    assert call.live and call.facts[0].values["potions"] == ["poison"]
    assert {"heal": False, "poison": 5} in game.legal()
    assert all(not answer["heal"] for answer in game.legal())  # type: ignore[index]


def test_witch_asked_with_only_the_heal_left_and_no_victim() -> None:
    """docs/rules.md: asked even when passing is the only legal answer (... the Witch with only the heal left and
    no victim)."""
    game = new_game(WITCH)
    drive(game, ("werewolves", 3), ("witch", {"heal": False, "poison": 5}), ("vote", None), ("werewolves", None))
    call = reach(game, "witch")
    assert call.live and call.facts[0].values == {"seat": None, "potions": ["heal"], "one_in_all": False}
    assert game.legal() == [NO_POTION]


def test_witch_not_live_once_both_potions_spent() -> None:
    """docs/rules.md: 'the Witch once both potions are spent' counts as lost: called, not live."""
    game = new_game(WITCH)
    drive(game, ("werewolves", 3), ("witch", {"heal": True, "poison": 5}), ("vote", None), ("werewolves", 4))
    assert live(game, "witch", 1) and not live(game, "witch", 2)
    assert victims(game, 2) == [4]


# -- the Fox ---------------------------------------------------------------------------------------

FOX = ["werewolf", "villager", "villager", "villager", "villager", "fox", "villager", "villager"]
"""A werewolf at seat 1, the Fox at seat 6."""


@pytest.mark.parametrize("target, found", [(1, True), (2, True), (8, True), (4, False), (6, False)])
def test_fox_sniffs_target_and_its_two_neighbours(target: int, found: bool) -> None:
    """'If this group [the player in the middle and his two neighbours] contains at least one Werewolf, the
    narrator makes an affirmative sign.'"""
    game = new_game(FOX)
    step = drive(game, ("werewolves", 3), ("fox", target))[-1]
    assert [f.values["werewolf"] for f in step.facts] == [found]


def test_fox_skips_eliminated_neighbours() -> None:
    """'eliminated players are not taken into account' — docs/rules.md: the nearest living player on each side."""
    game = new_game(FOX)
    drive(game, ("werewolves", 2), ("fox", None), ("vote", None), ("werewolves", 4))
    step, = drive(game, ("fox", 3))
    assert dict(step.facts[0].values) == {"seat": 3, "werewolf": True}


def test_fox_loses_power_on_no() -> None:
    """'If no Werewolf is part of the designated group, the Fox permanently loses his power.'"""
    game = new_game(FOX)
    drive(game, ("werewolves", 3), ("fox", 4), ("vote", None), ("werewolves", 7), ("vote", None),
          ("werewolves", 8))
    assert game.kept(Scent).lost
    assert live(game, "fox", 1) and not live(game, "fox", 2) and not live(game, "fox", 3)


def test_fox_keeps_power_on_yes() -> None:
    """'In that case, the Fox may use his power again on a following night.'"""
    game = new_game(FOX)
    drive(game, ("werewolves", 3), ("fox", 2), ("vote", None), ("werewolves", 4))
    assert reach(game, "fox").live and not game.kept(Scent).lost


def test_fox_may_pass() -> None:
    """'the Fox is under no obligation to use his power each night' — null, and he keeps it."""
    game = new_game(FOX)
    step = drive(game, ("werewolves", 3), ("fox", None))[-1]
    assert step.facts == ()
    drive(game, ("vote", None), ("werewolves", 4))
    assert reach(game, "fox").live


def test_fox_answer_is_a_secret_fact() -> None:
    """'the narrator simply indicates to him whether or not there is a Werewolf' — fact 'fox.sign', secret."""
    game = new_game(FOX)
    step = drive(game, ("werewolves", 3), ("fox", 4))[-1]
    assert step.facts == (Fact("fox.sign", {"seat": 4, "werewolf": False}, secret=True),)


# -- the Elder -------------------------------------------------------------------------------------


def test_elder_survives_first_attack_dies_at_second() -> None:
    """'The first time the village Elder is devoured ... he survives; the narrator does not turn his card face up.
    The Elder is eliminated only the second time.'"""
    game = new_game(["werewolf", "elder", *VILLAGERS])
    drive(game, ("werewolves", 2))
    dawn = made(game, "dawn", 1, Phase.DAY)
    assert dawn is not None and [f.key for f in dawn.facts] == ["no_victim"] and eliminated(game) == []
    drive(game, ("vote", None), ("werewolves", 2))
    assert eliminated(game) == [(2, "werewolves")]


def test_elder_big_bad_wolf_bite_is_an_attack() -> None:
    """docs/rules.md: 'the Big Bad Wolf's bite is an attack' — the Elder survives it, and dies at the next one."""
    game = new_game(["werewolf", "elder", "big_bad_wolf", *VILLAGERS])
    drive(game, ("werewolves", 4), ("big_bad_wolf", 2))
    assert victims(game, 1) == [4] and game.alive(2)
    drive(game, ("vote", None), ("werewolves", 2), ("big_bad_wolf", None))
    assert (2, "werewolves") in eliminated(game)


def test_elder_heal_cancels_attack_without_losing_a_life() -> None:
    """docs/rules.md: a heal or a protection cancels an attack (no life lost)."""
    game = new_game(["werewolf", "elder", "witch", *VILLAGERS])
    drive(game, ("werewolves", 2), ("witch", {"heal": True, "poison": None}), ("vote", None),
          ("werewolves", 2), ("witch", None), ("vote", None))
    assert game.alive(2) and eliminated(game) == []
    drive(game, ("werewolves", 2), ("witch", None))
    assert eliminated(game) == [(2, "werewolves")]


ELDER = ["werewolf", "elder", "seer", "witch", "fox", "villager", "villager", "villager"]
"""The Elder at seat 2, with the Fortune Teller, the Witch and the Fox."""


def test_elder_voted_out_costs_villagers_powers() -> None:
    """'The village's vote ... eliminate[s] the Elder on the first attempt. But ... the villagers lose their
    special powers for the rest of the game.'"""
    game = new_game(ELDER)
    drive(game, ("seer", None), ("werewolves", 6), ("witch", None), ("fox", None), ("vote", 2),
          ("werewolves", 7))
    assert game.penalty
    assert [live(game, c, 2) for c in ("seer", "witch", "fox")] == [False, False, False]


def test_elder_poisoned_costs_villagers_powers() -> None:
    """'the Witch's poison potion ... eliminate[s] the Elder on the first attempt' — and the powers are lost."""
    game = new_game(ELDER)
    drive(game, ("seer", None), ("werewolves", 6), ("witch", {"heal": False, "poison": 2}), ("fox", None),
          ("vote", None), ("werewolves", 7))
    assert game.penalty
    assert [live(game, c, 2) for c in ("seer", "witch", "fox")] == [False, False, False]


def test_elder_devoured_and_poisoned_costs_villagers_powers() -> None:
    """docs/rules.md: 'Every cause counts for what it triggers: an Elder devoured and poisoned the same night dies … and
    the villagers lose their powers' — here the bite that would take his last life and the poison, the same night;
    reported as the pack's victim, the first cause in night order."""
    game = new_game(ELDER)
    drive(game, ("seer", None), ("werewolves", 2), ("witch", None), ("fox", None), ("vote", None),
          ("seer", None), ("werewolves", 2), ("witch", {"heal": False, "poison": 2}), ("fox", None))
    assert eliminated(game) == [(2, "werewolves")]
    assert game.penalty
    drive(game, ("vote", None), ("werewolves", 6))
    assert [live(game, c, 3) for c in ("seer", "witch", "fox")] == [False, False, False]


def test_elder_shot_by_hunter_costs_villagers_powers() -> None:
    """'the Hunter's shot eliminate[s] the Elder on the first attempt' — and the powers are lost."""
    game = new_game(["werewolf", "elder", "seer", "hunter", "fox", "villager", "villager", "villager"])
    drive(game, ("seer", None), ("werewolves", 4), ("fox", None), ("hunter", 2), ("vote", None),
          ("werewolves", 6))
    assert game.penalty and (2, "hunter") in eliminated(game)
    assert not live(game, "seer", 2) and not live(game, "fox", 2)


def test_elder_penalty_blunts_the_knight() -> None:
    """docs/rules.md: 'Villagers' powers lost after the Elder's penalty: ... Knight' — devoured, he dooms no one."""
    game = new_game(["werewolf", "elder", "knight", *VILLAGERS])
    drive(game, ("werewolves", 4), ("vote", 2), ("werewolves", 3), ("vote", None))
    assert reach(game, "werewolves").actors == (1,)
    drive(game, ("werewolves", 5))
    assert "rust" not in [cause for _, cause in eliminated(game)] and game.alive(1)


def test_elder_penalty_applies_at_once() -> None:
    """docs/rules.md: the villagers' penalty applies at once, before his consequences run — a Hunter dying of grief
    for him does not shoot."""
    game = new_game(["werewolf", "elder", "cupid", "hunter", *VILLAGERS])
    drive(game, ("cupid", [2, 4]), ("werewolves", 5), ("vote", 2))
    assert eliminated(game) == [(5, "werewolves"), (2, "vote"), (4, "grief")]
    assert "hunter" not in call_ids(game)


def angel_game() -> Game:
    """An opening day: the Elder (seat 2) is voted out before night 1; the Angel at seat 1."""
    game = new_game(["angel", "elder", "thief", "wild_child", "wolf_hound", "piper", "werewolf", "villager"],
                    centre=["villager", "villager"])
    drive(game, ("vote", 2))
    assert game.penalty
    return game


def test_elder_penalty_spares_thief_wild_child_wolf_hound_piper() -> None:
    """docs/rules.md: Not lost: Thief, Scapegoat, Wild Child, Wolf Hound, Piper, Angel."""
    game = angel_game()
    drive(game, ("thief", 1), ("wild_child", 8), ("wolf_hound", "wolf"), ("werewolves", 8), ("piper", [3, 4]))
    assert [live(game, c, 1) for c in ("thief", "wild_child", "wolf_hound", "piper")] == [True] * 4
    assert game.card(3) == "villager" and game.is_werewolf(5)


def test_elder_penalty_spares_the_angel() -> None:
    """docs/rules.md: Not lost: ... Angel — devoured on the first night, he still wins alone."""
    game = angel_game()
    drive(game, ("thief", None), ("wild_child", 8), ("wolf_hound", "village"), ("werewolves", 1),
          ("piper", [3, 4]))
    assert game.outcome is not None and (game.outcome.winner, game.outcome.winners) == ("angel", (1,))


def test_elder_voted_out_on_the_angels_day_costs_cupid_his_power() -> None:
    """docs/rules.md: Cupid's power is lost 'if the penalty strikes before his first-night call (the Angel's opening
    day): he is then called but not asked, and there are no lovers' — the lovers' call made for fair play only,
    the night's calls the same as when he acts."""
    deal = ["angel", "elder", "cupid", "werewolf", "villager", "villager", "villager", "villager"]
    game = new_game(deal)
    drive(game, ("vote", 2), ("werewolves", 5))
    assert game.penalty and not lovers(game)
    cupid = made(game, "cupid", 1)
    assert cupid is not None and not cupid.live and (cupid.kind, cupid.picks) == (Kind.SEATS, 2)
    assert not live(game, "lovers", 1)
    acting = new_game(deal)
    drive(acting, ("vote", 7), ("cupid", [5, 6]), ("werewolves", 8))
    assert not acting.penalty and live(acting, "cupid", 1) and live(acting, "lovers", 1)
    assert call_ids(game, "night", 1) == call_ids(acting, "night", 1)


def test_infected_hunter_keeps_power_after_elder_penalty() -> None:
    """docs/rules.md: infected players keep theirs — the infected Hunter still shoots."""
    game = new_game(["infected_father", "elder", "hunter", *VILLAGERS])
    drive(game, ("werewolves", 3), ("infected_father", True), ("vote", 2), ("werewolves", 4), ("vote", 3))
    assert game.penalty
    drive(game, ("hunter", 5))
    assert (5, "hunter") in eliminated(game)


def test_elder_dying_of_grief_costs_nothing() -> None:
    """'If his loved one is eliminated, the Elder immediately dies of grief, but the villagers' special powers are
    not lost.'"""
    game = new_game(["werewolf", "elder", "cupid", "seer", *VILLAGERS])
    drive(game, ("cupid", [2, 5]), ("seer", None), ("werewolves", 5), ("vote", None))
    assert (2, "grief") in eliminated(game) and not game.penalty
    assert reach(game, "seer").live


# -- the Hunter ------------------------------------------------------------------------------------

HUNTER_DEATHS: dict[str, tuple[list[str], list[tuple[str, Any]]]] = {
    # the Hunter at seat 2, a werewolf at seat 1
    "bite": (["werewolf", "hunter", *VILLAGERS], [("werewolves", 2)]),
    "vote": (["werewolf", "hunter", *VILLAGERS], [("werewolves", 3), ("vote", 2)]),
    "poison": (["werewolf", "hunter", "witch", *VILLAGERS], [("werewolves", 4), ("witch", {"poison": 2})]),
    "grief": (["werewolf", "hunter", "cupid", *VILLAGERS], [("cupid", [2, 4]), ("werewolves", 4)]),
}


@pytest.mark.parametrize("death", list(HUNTER_DEATHS))
def test_hunter_shoots_whatever_the_cause(death: str) -> None:
    """'When he is eliminated, whatever the cause, ... the Hunter retaliates by eliminating another player.'"""
    deal, answers = HUNTER_DEATHS[death]
    game = new_game(deal)
    drive(game, *answers)
    assert reach(game, "hunter").actors == (2,)
    drive(game, ("hunter", 1))
    assert eliminated(game)[-1] == (1, "hunter")


def test_hunter_shoots_at_dawn_after_victims_revealed() -> None:
    """'immediately after his card is revealed' — docs/rules.md: the dawn reveals the night's victims together,
    then their consequences run."""
    game = new_game(["werewolf", "hunter", "witch", *VILLAGERS])
    drive(game, ("werewolves", 2), ("witch", {"poison": 5}))
    assert victims(game, 1) == [2, 5]
    assert call_ids(game, "day", 1) == ["dawn", "hunter"]
    drive(game, ("hunter", 6))
    shot = game.eliminated[-1]
    assert (shot.seat, shot.cause, shot.phase, shot.number) == (6, "hunter", Phase.DAY, 1)


def test_hunter_target_consequences_run() -> None:
    """docs/rules.md: consequences run depth-first — the Hunter's target's own consequences (grief) run."""
    game = new_game(["werewolf", "hunter", "cupid", *VILLAGERS])
    drive(game, ("cupid", [5, 6]), ("werewolves", 2), ("hunter", 5))
    assert eliminated(game) == [(2, "werewolves"), (5, "hunter"), (6, "grief")]


def test_hunter_no_shot_after_elder_penalty() -> None:
    """docs/rules.md: 'Villagers' powers lost after the Elder's penalty: ... Hunter'."""
    game = new_game(["werewolf", "elder", "hunter", *VILLAGERS])
    drive(game, ("werewolves", 4), ("vote", 2), ("werewolves", 3))
    assert (3, "werewolves") in eliminated(game)
    assert "hunter" not in call_ids(game)


def test_hunter_shoots_even_when_the_game_is_decided() -> None:
    """docs/rules.md: 'The Hunter shoots ... even when the game is already decided, unless nobody is left alive.'"""
    game = new_game(["werewolf", "werewolf", "hunter", "villager", "villager", "villager"])
    drive(game, ("werewolves", 4), ("vote", 5), ("werewolves", 6), ("vote", None), ("werewolves", 3))
    assert game.living() == (1, 2) and not game.over
    drive(game, ("hunter", 1))
    assert eliminated(game)[-1] == (1, "hunter")
    assert game.outcome is not None and game.outcome.winner == "werewolves"


def test_hunter_no_shot_when_nobody_is_left() -> None:
    """docs/rules.md: the Hunter shoots 'unless nobody is left alive' — no survivors: nobody wins."""
    game = new_game(["werewolf", "hunter", "witch", "cupid", "villager", "villager"])
    drive(game, ("cupid", [2, 3]), ("werewolves", 4), ("witch", None), ("vote", 5), ("werewolves", 6),
          ("witch", None), ("vote", None), ("werewolves", 2), ("witch", {"heal": False, "poison": 1}))
    assert game.living() == ()
    assert "hunter" not in call_ids(game)
    assert game.outcome is not None and game.outcome.winner == "nobody"


# -- the Bear Tamer --------------------------------------------------------------------------------


def test_bear_growls_when_a_living_neighbour_is_a_werewolf() -> None:
    """'Each morning, just after the possible nocturnal victims are revealed, if at least one Werewolf is, or
    becomes, one of the Bear Tamer's two neighbors, the narrator growls. Only neighbors still in the game.'"""
    game = new_game(["werewolf", "villager", "bear_tamer", *VILLAGERS])
    drive(game, ("werewolves", 5))
    assert not growled(game, 1)  # neighbours 2 and 4: no werewolf
    drive(game, ("vote", None), ("werewolves", 2))
    assert call_ids(game, "day", 2)[:3] == ["dawn", "growl", "debate"]  # 2 gone: 1 is now his neighbour


def test_infected_bear_tamer_growls_every_morning() -> None:
    """'If the Bear Tamer is infected, the narrator growls every turn, for as long as the Bear Tamer is not
    eliminated.'"""
    game = new_game(["infected_father", "villager", "villager", "bear_tamer", *VILLAGERS])
    drive(game, ("werewolves", 4), ("infected_father", True), ("vote", None), ("werewolves", 7), ("vote", None),
          ("werewolves", 8))
    assert [growled(game, day) for day in (1, 2, 3)] == [True, True, True]


def test_no_growl_after_elder_penalty() -> None:
    """docs/rules.md: 'Villagers' powers lost after the Elder's penalty: ... Bear Tamer'."""
    game = new_game(["villager", "werewolf", "bear_tamer", "villager", "elder", "villager", "villager",
                     "villager"])
    drive(game, ("werewolves", 7))
    assert growled(game, 1)
    drive(game, ("vote", 5), ("werewolves", 8))
    assert not growled(game, 2)


def test_infected_bear_tamer_growls_after_elder_penalty() -> None:
    """docs/rules.md: infected players keep theirs — the infected Bear Tamer's bear still growls."""
    game = new_game(["infected_father", "villager", "villager", "bear_tamer", "villager", "elder", "villager",
                     "villager"])
    drive(game, ("werewolves", 4), ("infected_father", True), ("vote", 6), ("werewolves", 7))
    assert game.penalty and growled(game, 2)


def test_no_growl_once_bear_tamer_is_dead() -> None:
    """'for as long as the Bear Tamer is not eliminated' — a dead Bear Tamer's bear is silent."""
    game = new_game(["villager", "werewolf", "bear_tamer", *VILLAGERS])
    drive(game, ("werewolves", 3))
    assert not growled(game, 1)
    drive(game, ("vote", None), ("werewolves", 4))
    assert not growled(game, 2)


# -- Cupid and the lovers --------------------------------------------------------------------------


def test_cupid_may_name_himself() -> None:
    """'Cupido may, if he wishes, designate himself as one of the two lovers.'"""
    game = new_game(["werewolf", "cupid", *VILLAGERS])
    drive(game, ("cupid", [2, 5]))
    assert lovers(game) == (2, 5)
    assert live(game, "lovers", 1) and made(game, "lovers", 1).actors == (2, 5)  # type: ignore[union-attr]


LOVER_DEATHS: dict[str, list[tuple[str, Any]]] = {
    # the lovers at seats 5 and 6; seat 5 dies
    "werewolves": [("werewolves", 5), ("witch", None)],
    "vote": [("werewolves", 7), ("witch", None), ("vote", 5)],
    "poison": [("werewolves", None), ("witch", {"heal": False, "poison": 5})],
    "hunter": [("werewolves", 4), ("witch", None), ("hunter", 5)],
}


@pytest.mark.parametrize("cause", list(LOVER_DEATHS))
def test_lover_dies_of_grief_whatever_the_cause(cause: str) -> None:
    """'If one of the lovers is eliminated, the other immediately dies of grief' — docs/rules.md: 'whatever the
    cause'."""
    game = new_game(["werewolf", "cupid", "witch", "hunter", "villager", "villager", "villager", "villager"])
    drive(game, ("cupid", [5, 6]), *LOVER_DEATHS[cause])
    deaths = eliminated(game)
    assert deaths[deaths.index((5, cause)) + 1] == (6, "grief")


def test_grief_runs_its_consequences_depth_first() -> None:
    """docs/rules.md: a lover who dies of grief runs his own (the Hunter's shot, the successor) before the next
    death's."""
    game = new_game(["werewolf", "werewolf", "cupid", "hunter", "villager", "witch", "villager", "villager"],
                    sheriff=True)
    drive(game, ("sheriff_election", 7), ("cupid", [4, 5]), ("werewolves", 5),
          ("witch", {"heal": False, "poison": 7}))
    assert victims(game, 1) == [5, 7]
    assert call_ids(game, "day", 1) == ["dawn", "hunter"]
    drive(game, ("hunter", 8))
    assert call_ids(game, "day", 1) == ["dawn", "hunter", "sheriff_successor"]
    assert eliminated(game) == [(5, "werewolves"), (7, "poison"), (4, "grief"), (8, "hunter")]


def test_mixed_lovers_win_as_the_last_two() -> None:
    """'if one of the lovers is a villager and the other a Werewolf, the lovers win the game if they survive all
    the other players.'"""
    game = new_game(["werewolf", "cupid", "villager", "villager", "villager", "villager"])
    drive(game, ("cupid", [1, 3]), ("werewolves", 2), ("vote", 4), ("werewolves", 5))
    assert not game.over
    drive(game, ("vote", 6))
    assert game.outcome is not None and (game.outcome.winner, game.outcome.winners) == ("lovers", (1, 3))


def test_lovers_of_the_village_win_with_the_village() -> None:
    """docs/rules.md: Lovers of the same team win with that team — two villagers."""
    game = new_game(["werewolf", "cupid", *VILLAGERS])
    drive(game, ("cupid", [3, 4]), ("werewolves", 5), ("vote", 1))
    assert game.outcome is not None and game.outcome.winner == "village"
    assert {3, 4} <= set(game.outcome.winners)


def test_lovers_of_the_werewolves_win_with_the_werewolves() -> None:
    """docs/rules.md: Lovers of the same team win with that team — two werewolves."""
    game = new_game(["werewolf", "werewolf", "cupid", "villager", "villager", "villager"])
    drive(game, ("cupid", [1, 2]), ("werewolves", 3), ("vote", 4), ("werewolves", 5), ("vote", 6))
    assert game.outcome is not None and (game.outcome.winner, game.outcome.winners) == ("werewolves", (1, 2))


def test_cupid_wins_with_the_village() -> None:
    """docs/rules.md: Cupid always plays for the village — even after binding a werewolf to a villager."""
    game = new_game(["werewolf", "cupid", *VILLAGERS])
    drive(game, ("cupid", [1, 3]), ("werewolves", 2), ("vote", 1))
    assert eliminated(game) == [(2, "werewolves"), (1, "vote"), (3, "grief")]
    assert game.outcome is not None and game.outcome.winner == "village" and 2 in game.outcome.winners


def test_charm_not_passed_between_lovers() -> None:
    """'The charm is not transmitted between lovers.'"""
    game = new_game(["werewolf", "cupid", "piper", *VILLAGERS])
    drive(game, ("cupid", [4, 5]), ("werewolves", 6), ("piper", [4, 7]))
    assert game.marked(4, "charmed") and not game.marked(5, "charmed")
    assert made(game, "charmed", 1).actors == (4, 7)  # type: ignore[union-attr]


# -- the Two Sisters -------------------------------------------------------------------------------

SISTERS = ["werewolf", "sister", "villager", "sister", "villager", "villager", "villager", "villager"]


def quiet_nights(game: Game, nights: int) -> None:
    """Plays ``nights`` nights where the pack chooses nobody and days where the village eliminates nobody."""
    for _ in range(nights - 1):
        drive(game, ("werewolves", None), ("vote", None))
    drive(game, ("werewolves", None))


def test_sisters_wake_together_on_the_first_night() -> None:
    """'On the first night, at the narrator's call, they wake together, recognize one another.'"""
    game = new_game(SISTERS)
    reach(game, "werewolves")
    sisters = made(game, "sisters", 1)
    assert sisters is not None and sisters.actors == (2, 4) and not sisters.needs_answer
    assert call_ids(game, "night", 1).index("sisters") < call_ids(game, "night", 1).index("werewolves")


def test_sisters_do_not_wake_again_by_default() -> None:
    """docs/rules.md: `sisters` on even nights only if the table's config turns it on; off by default."""
    game = new_game(SISTERS)
    quiet_nights(game, 4)
    assert [c.number for c in game.calls if c.id == "sisters"] == [1]


def test_sisters_wake_on_even_nights_with_sisters_wake() -> None:
    """'from time to time (every other turn ...) they wake again' — docs/rules.md: on even nights with sisters_wake."""
    game = new_game(SISTERS, sisters_wake=True)
    quiet_nights(game, 4)
    assert [(c.number, c.actors) for c in game.calls if c.id == "sisters"] == [(1, (2, 4)), (2, (2, 4)),
                                                                                (4, (2, 4))]
