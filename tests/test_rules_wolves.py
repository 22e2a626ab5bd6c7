"""The werewolves' rules (Best Of rulebook, pages 7, 8, 19; docs/rules.md): the Simple Werewolves, the
Infected Father, the Big Bad Wolf, the White Werewolf, the Little Girl and the Knight with the Rusty Sword."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game
from engine.roles.infected_father import Infection
from engine.roles.witch import Potions
from engine.types import Phase, Team
from helpers import call_ids, drive, eliminated, made, new_game, reach, refused

VILLAGERS = ["villager"] * 6








def victims(game: Game, day: int) -> list[tuple[int, str | None]]:
    """Returns the seats revealed at the dawn of ``day``, in order, with the causes recorded for them."""
    dawn = made(game, "dawn", day, Phase.DAY)
    assert dawn is not None
    causes = {e.seat: e.cause for e in game.eliminated if e.phase is Phase.NIGHT and e.number == day}
    return [(int(f.values["seat"]), causes.get(int(f.values["seat"])))  # type: ignore[call-overload]
            for f in dawn.facts if f.key == "victim"]


# -- the Simple Werewolves -------------------------------------------------------------------------


def test_werewolves_victim_never_a_werewolf() -> None:
    """'The victim can under no circumstances be a Werewolf' — refused on the screen only (secret)."""
    game = new_game(["werewolf", "werewolf", *VILLAGERS])
    reach(game, "werewolves")
    assert refused(game, 2).secret
    assert refused(game, 1).secret
    assert 2 not in game.legal() and 3 in game.legal()


def test_werewolves_may_choose_nobody() -> None:
    """docs/practice-scripts.md: `werewolves` answers a seat, or null if they could not agree: nobody dies."""
    game = new_game(["werewolf", "werewolf", *VILLAGERS])
    drive(game, ("werewolves", None))
    dawn = made(game, "dawn", 1, Phase.DAY)
    assert dawn is not None and [f.key for f in dawn.facts] == ["no_victim"]
    assert eliminated(game) == []


def test_whole_pack_wakes_with_the_special_werewolves() -> None:
    """'All the Werewolves, including ... the White Werewolf, the Infected Father and the Big Bad Wolf.'"""
    game = new_game(["werewolf", "villager", "infected_father", "big_bad_wolf", "villager", "white_werewolf",
                     "villager", "villager", "villager", "villager"])
    assert reach(game, "werewolves").actors == (1, 3, 4, 6)


@pytest.mark.parametrize("side, pack", [("wolf", (1, 2)), ("village", (1,))])
def test_whole_pack_wakes_with_the_wolf_hound_who_chose_the_wolves(side: str, pack: tuple[int, ...]) -> None:
    """'including the Wolf Hound if he chose to be a Werewolf' (and only then)."""
    game = new_game(["werewolf", "wolf_hound", *VILLAGERS])
    drive(game, ("wolf_hound", side))
    assert reach(game, "werewolves").actors == pack


def test_whole_pack_wakes_with_a_turned_wild_child() -> None:
    """'including the Wild Child if his role model has been eliminated' — from the following night."""
    game = new_game(["werewolf", "wild_child", *VILLAGERS])
    drive(game, ("wild_child", 3), ("werewolves", 3), ("vote", None))
    assert made(game, "werewolves", 1).actors == (1,)  # type: ignore[union-attr]
    assert reach(game, "werewolves").actors == (1, 2)


def test_whole_pack_wakes_with_an_infected_player_from_the_next_night() -> None:
    """'and any player infected by the Infected Father' — 'from the next night they wake with the werewolves'."""
    game = new_game(["infected_father", "villager", "villager", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("werewolves", 3), ("infected_father", True), ("vote", None))
    assert made(game, "werewolves", 1).actors == (1,)  # type: ignore[union-attr]
    assert reach(game, "werewolves").actors == (1, 3)


# -- the Infected Father of the Wolves -------------------------------------------------------------


def test_infected_father_infects_instead_of_devouring() -> None:
    """'once during the game ... the victim is not devoured but infected'."""
    game = new_game(["infected_father", "villager", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 3), ("infected_father", True))
    assert eliminated(game) == [] and victims(game, 1) == []
    assert game.alive(3) and game.marked(3, "infected") and game.kept(Infection).used


def test_infected_father_only_once_per_game() -> None:
    """'The Infected Father of the Wolves may use his special power only once in the game.'"""
    game = new_game(["infected_father", "werewolf", *VILLAGERS])
    drive(game, ("werewolves", 3), ("infected_father", True), ("vote", None), ("werewolves", 4))
    assert made(game, "infected_father", 2) is not None
    assert not made(game, "infected_father", 2).live  # type: ignore[union-attr]
    assert victims(game, 2) == [(4, "werewolves")] and not game.marked(4, "infected")


def test_infected_counts_as_werewolf_at_once_for_the_fox() -> None:
    """docs/rules.md: Infection counts for every rule at once (the Fox's answer ...)."""
    game = new_game(["infected_father", "villager", "villager", "villager", "villager", "fox", "villager",
                     "villager"])
    drive(game, ("werewolves", 4), ("infected_father", True))
    step, = drive(game, ("fox", 4))
    assert [(f.key, dict(f.values)) for f in step.facts] == [("fox.sign", {"seat": 4, "werewolf": True})]


def test_infected_counts_as_werewolf_at_once_for_the_growl() -> None:
    """docs/rules.md: Infection counts for every rule at once (... the growl ...)."""
    game = new_game(["infected_father", "villager", "bear_tamer", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("werewolves", 4), ("infected_father", True))
    assert "growl" in call_ids(game, "day", 1)


def test_infected_counts_as_werewolf_for_victory() -> None:
    """docs/rules.md: infected players count as werewolves for victory — the village has not won while one lives."""
    game = new_game(["infected_father", "villager", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 2), ("infected_father", True), ("vote", 1))
    assert not game.over and game.side(2) is Team.WEREWOLVES
    drive(game, ("werewolves", 3), ("vote", 4), ("werewolves", 5), ("vote", 6))
    assert game.outcome is not None and game.outcome.winner == "werewolves"
    assert 2 in game.outcome.winners and 1 in game.outcome.winners


def test_infected_player_still_called_for_own_power() -> None:
    """'If they held a nocturnal power, they will be woken ... to use that power, in addition to being called
    with the Werewolves.'"""
    game = new_game(["infected_father", "seer", *VILLAGERS])
    drive(game, ("seer", 3), ("werewolves", 2), ("infected_father", True), ("vote", None))
    seer = reach(game, "seer")
    assert seer.live and seer.actors == (2,)
    drive(game, ("seer", 4))
    assert 2 in reach(game, "werewolves").actors


def test_elder_cannot_be_infected() -> None:
    """'He is not affected by the Infected Father of the Wolves' — refused on the screen only (secret)."""
    game = new_game(["infected_father", "elder", *VILLAGERS])
    drive(game, ("werewolves", 2))
    assert reach(game, "infected_father").live
    assert refused(game, True).secret
    assert game.legal() == [False]


def test_infecting_needs_a_victim() -> None:
    """docs/rules.md: the Infected Father is asked even when the pack chose nobody; `false` is then the only answer."""
    game = new_game(["infected_father", "werewolf", *VILLAGERS])
    drive(game, ("werewolves", None))
    call = reach(game, "infected_father")
    assert call.live and call.needs_answer
    assert refused(game, True).secret
    assert game.legal() == [False]


def test_witch_shown_infected_target_and_heal_cures_nothing() -> None:
    """docs/rules.md: she is shown the werewolves' target even when it was infected; a heal on an infected
    target is spent and cures nothing."""
    game = new_game(["infected_father", "villager", "witch", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("werewolves", 4), ("infected_father", True))
    witch = reach(game, "witch")
    assert [(f.key, f.values["seat"], f.secret) for f in witch.facts] == [("victim_shown", 4, True)]
    drive(game, ("witch", {"heal": True, "poison": None}))
    assert game.kept(Potions).heal
    assert game.marked(4, "infected") and game.is_werewolf(4) and game.alive(4)


def test_infected_father_asked_every_night_while_unused() -> None:
    """docs/rules.md: 'Asked even with nothing to do' — every night while the power is unused."""
    game = new_game(["infected_father", "werewolf", *VILLAGERS])
    drive(game, ("werewolves", None), ("infected_father", False), ("vote", None),
          ("werewolves", 3), ("infected_father", False), ("vote", None), ("werewolves", 4))
    assert reach(game, "infected_father").live
    assert [c.live for c in game.calls if c.id == "infected_father"] == [True, True, True]


def test_infected_father_called_not_live_after_use() -> None:
    """docs/rules.md: A spent one-shot power counts as lost: the Infected Father after his
    infection — still called."""
    game = new_game(["infected_father", "werewolf", *VILLAGERS])
    drive(game, ("werewolves", 3), ("infected_father", True), ("vote", None), ("werewolves", 4),
          ("vote", None), ("werewolves", 5))
    assert [c.live for c in game.calls if c.id == "infected_father"] == [True, False, False]


# -- the Big Bad Wolf ------------------------------------------------------------------------------


def test_big_bad_wolf_devours_a_second_victim() -> None:
    """'he wakes alone a second time and devours another victim'."""
    game = new_game(["werewolf", "big_bad_wolf", *VILLAGERS])
    drive(game, ("werewolves", 3))
    assert reach(game, "big_bad_wolf").actors == (2,)
    drive(game, ("big_bad_wolf", 5))
    assert victims(game, 1) == [(3, "werewolves"), (5, "big_bad_wolf")]


def test_big_bad_wolf_cannot_devour_a_werewolf() -> None:
    """'He cannot devour a Werewolf' — refused on the screen only (secret)."""
    game = new_game(["werewolf", "big_bad_wolf", *VILLAGERS])
    drive(game, ("werewolves", 3))
    reach(game, "big_bad_wolf")
    assert refused(game, 1).secret
    assert refused(game, 2).secret


def test_big_bad_wolf_cannot_take_the_packs_victim() -> None:
    """docs/rules.md: the Big Bad Wolf picks someone other than the pack's victim."""
    game = new_game(["werewolf", "big_bad_wolf", *VILLAGERS])
    drive(game, ("werewolves", 3))
    reach(game, "big_bad_wolf")
    assert refused(game, 3).secret
    assert 3 not in game.legal() and 4 in game.legal()


WOLF_TEAM_FALLS: dict[str, tuple[list[str], list[tuple[str, Any]], int]] = {
    # who falls: (deal, answers up to the night the Big Bad Wolf should have lost his power, that night)
    "werewolf": (["big_bad_wolf", "werewolf", *VILLAGERS],
                 [("werewolves", 3), ("big_bad_wolf", None), ("vote", 2)], 2),
    "white_werewolf": (["big_bad_wolf", "white_werewolf", *VILLAGERS],
                       [("werewolves", 3), ("big_bad_wolf", None), ("vote", 2)], 2),
    "infected": (["big_bad_wolf", "infected_father", *VILLAGERS],
                 [("werewolves", 3), ("infected_father", True), ("big_bad_wolf", None), ("vote", 3)], 2),
    "turned_wild_child": (["big_bad_wolf", "wild_child", *VILLAGERS],
                          [("wild_child", 3), ("werewolves", 3), ("big_bad_wolf", None), ("vote", None),
                           ("werewolves", 4), ("big_bad_wolf", None), ("vote", 2)], 3),
    "wolf_hound_wolf": (["big_bad_wolf", "wolf_hound", *VILLAGERS],
                        [("wolf_hound", "wolf"), ("werewolves", 3), ("big_bad_wolf", None), ("vote", 2)], 2),
}


@pytest.mark.parametrize("fallen", list(WOLF_TEAM_FALLS))
def test_big_bad_wolf_only_while_no_werewolf_eliminated(fallen: str) -> None:
    """docs/rules.md: only while no member of the werewolf team has been eliminated (the White Werewolf, an infected
    player, a turned Wild Child and a Wolf Hound who chose the wolves count); his call is then made, not live."""
    deal, answers, night = WOLF_TEAM_FALLS[fallen]
    game = new_game(deal)
    drive(game, *answers)
    assert all(c.live for c in game.calls if c.id == "big_bad_wolf")  # he had his power until then
    drive(game, ("werewolves", 5))
    call = made(game, "big_bad_wolf", night)
    assert call is not None and not call.live


# -- the White Werewolf ----------------------------------------------------------------------------


def white_game() -> Game:
    """The White Werewolf at seat 1, a Simple Werewolf at seat 2, six villagers."""
    return new_game(["white_werewolf", "werewolf", *VILLAGERS])


def test_white_werewolf_called_on_even_nights_only() -> None:
    """'every other night, at the narrator's call, he wakes alone' — docs/rules.md: nights 2, 4, 6, ..."""
    game = white_game()
    drive(game, ("werewolves", None), ("vote", None), ("werewolves", None), ("white_werewolf", None),
          ("vote", None), ("werewolves", None), ("vote", None), ("werewolves", None), ("white_werewolf", None))
    assert [c.number for c in game.calls if c.id == "white_werewolf"] == [2, 4]
    assert made(game, "white_werewolf", 2).actors == (1,)  # type: ignore[union-attr]


def test_white_werewolf_may_eliminate_another_werewolf() -> None:
    """'he wakes alone and may eliminate a Werewolf' — another one: a villager or himself is refused in secret."""
    game = white_game()
    drive(game, ("werewolves", 3), ("vote", None), ("werewolves", 4))
    reach(game, "white_werewolf")
    assert refused(game, 5).secret
    assert refused(game, 1).secret
    drive(game, ("white_werewolf", 2))
    assert victims(game, 2) == [(2, "white_werewolf"), (4, "werewolves")]


def test_white_werewolf_may_pass() -> None:
    """docs/rules.md: the White Werewolf may eliminate one werewolf — or nobody (null)."""
    game = white_game()
    drive(game, ("werewolves", 3), ("vote", None), ("werewolves", 4), ("white_werewolf", None))
    assert victims(game, 2) == [(4, "werewolves")] and game.alive(2)


def test_white_werewolf_asked_with_no_other_werewolf() -> None:
    """docs/rules.md: asked even when passing is the only legal answer (... the White Werewolf with no other
    werewolf)."""
    game = white_game()
    drive(game, ("werewolves", 3), ("vote", 2), ("werewolves", 4))
    call = reach(game, "white_werewolf")
    assert call.live and call.actors == (1,)
    assert game.legal() == [None]


def test_white_werewolf_counts_as_werewolf_for_village_win() -> None:
    """docs/rules.md: 'He counts as a werewolf for the village's win.'"""
    game = white_game()
    drive(game, ("werewolves", 3), ("vote", 2))
    assert not game.over
    drive(game, ("werewolves", 4), ("white_werewolf", None), ("vote", 1))
    assert game.outcome is not None and game.outcome.winner == "village"


def test_werewolves_have_not_won_while_white_werewolf_lives() -> None:
    """docs/rules.md: The White Werewolf is not on that team here: while he lives, the werewolves have not won."""
    game = new_game(["white_werewolf", "werewolf", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 3), ("vote", 4), ("werewolves", 5), ("white_werewolf", None), ("vote", 6))
    assert game.living() == (1, 2)
    assert not game.over


def test_white_werewolf_wins_only_as_last_survivor() -> None:
    """'This character's goal is to remain the village's sole survivor. Only in that case does he win the game.'"""
    game = new_game(["white_werewolf", "werewolf", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 3), ("vote", 4), ("werewolves", 5), ("white_werewolf", None), ("vote", 6),
          ("werewolves", None), ("vote", None), ("werewolves", None), ("white_werewolf", 2))
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.winners) == ("white_werewolf", (1,))


# -- the Little Girl -------------------------------------------------------------------------------


def test_little_girl_has_no_call_of_her_own() -> None:
    """'The Little Girl may only spy at night, during the Werewolves' waking turn' — she is never called."""
    answers = [("werewolves", 3), ("vote", None), ("werewolves", 4)]
    with_girl = new_game(["werewolf", "little_girl", *VILLAGERS])
    without = new_game(["werewolf", "villager", *VILLAGERS])
    drive(with_girl, *answers)
    drive(without, *answers)
    assert call_ids(with_girl) == call_ids(without)
    assert all(2 not in c.actors for c in with_girl.calls)


# -- the Knight with the Rusty Sword ---------------------------------------------------------------

KNIGHT = ["villager", "werewolf", "knight", "villager", "werewolf", "villager", "villager", "villager"]
"""The Knight at seat 3; werewolves at 2 (his right) and 5 (the first to his left)."""


def test_knight_rust_dooms_first_werewolf_to_his_left() -> None:
    """'Among the Werewolves responsible ... the first Werewolf seated to the left of the Knight ... will be
    eliminated at the start of the following night.'"""
    game = new_game(KNIGHT)
    drive(game, ("werewolves", 3), ("vote", None))
    assert game.alive(5)
    drive(game, ("werewolves", 6))
    assert (5, "rust") in eliminated(game) and game.alive(2)


def test_knight_rust_skips_werewolves_not_living_or_not_of_the_pack() -> None:
    """docs/rules.md: the first living werewolf to the Knight's left among those who devoured him — one poisoned
    the same night, or a Wolf Hound who stayed a villager, is passed over."""
    game = new_game(["villager", "werewolf", "knight", "villager", "werewolf", "witch", "werewolf", "villager",
                     "villager", "villager"])
    drive(game, ("werewolves", 3), ("witch", {"heal": False, "poison": 5}), ("vote", None))
    assert reach(game, "werewolves").actors == (2,)
    drive(game, ("werewolves", 8), ("witch", None))
    assert victims(game, 2) == [(7, "rust"), (8, "werewolves")]
    game = new_game(["villager", "werewolf", "knight", "wolf_hound", "werewolf", "villager", "villager",
                     "villager"])
    drive(game, ("wolf_hound", "village"), ("werewolves", 3), ("vote", None), ("werewolves", 6))
    assert victims(game, 2) == [(5, "rust"), (6, "werewolves")] and game.alive(4)


def test_rust_victim_takes_no_part_in_the_next_night() -> None:
    """docs/rules.md: He dies at the start of the next night, before any call, so he takes no part in it — his own
    calls are made, not live."""
    game = new_game(["villager", "werewolf", "knight", "white_werewolf", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("werewolves", 3), ("vote", None))
    assert reach(game, "werewolves").actors == (2,)
    drive(game, ("werewolves", 6))
    white = made(game, "white_werewolf", 2)
    assert white is not None and not white.live


def test_the_werewolf_doomed_by_rust_cannot_be_chosen_that_night() -> None:
    """docs/rules.md: from then he is not among the living for any choice that night (he cannot be chosen) —
    refused on the screen only (his death is public at dawn), and not among the seats a call offers."""
    game = new_game(["seer", "werewolf", "knight", "villager", "werewolf", "witch", "villager", "villager"])
    drive(game, ("seer", None), ("werewolves", 3), ("witch", {"heal": False, "poison": None}), ("vote", None))
    call = reach(game, "seer")
    assert 5 not in call.seats and 4 in call.seats
    error = refused(game, 5)
    assert error.secret and error.key == "refusal.eliminated"
    drive(game, ("seer", 4), ("werewolves", 7))
    error = refused(game, {"heal": False, "poison": 5})
    assert error.secret and error.key == "refusal.eliminated"
    drive(game, ("witch", {"heal": False, "poison": None}))
    assert victims(game, 2) == [(5, "rust"), (7, "werewolves")]


def test_the_fox_does_not_smell_the_werewolf_doomed_by_rust() -> None:
    """docs/rules.md: the doomed is not among the living that night — not one of the living neighbours the Fox's
    answer looks at."""
    game = new_game(["fox", "werewolf", "knight", "villager", "werewolf", "villager", "villager", "villager"])
    drive(game, ("werewolves", 3), ("fox", None), ("vote", None), ("werewolves", 7))
    step = drive(game, ("fox", 6))[0]
    assert [(f.key, dict(f.values)) for f in step.facts] == [("fox.sign", {"seat": 6, "werewolf": False})]


def test_the_piper_need_not_charm_the_werewolf_doomed_by_rust() -> None:
    """docs/rules.md: 'the Piper need not charm him' — 'all of them if fewer remain' counts without him: one
    left to charm, he charms one, and wins at dawn when the doomed dies."""
    game = new_game(["villager", "werewolf", "knight", "piper", "werewolf", "villager", "villager"])
    drive(game, ("werewolves", 3), ("piper", [1, 6]), ("vote", 7), ("werewolves", 6))
    call = reach(game, "piper")
    assert call.picks == 1
    error = refused(game, [5])
    assert error.secret and error.key == "refusal.eliminated"
    assert refused(game, [2, 5]).secret  # two asked of a Piper with one left to charm: the screen only
    drive(game, ("piper", [2]))
    assert victims(game, 2) == [(5, "rust"), (6, "werewolves")]
    assert game.outcome is not None and (game.outcome.winner, game.outcome.winners) == ("piper", (4,))


def test_rust_night_big_bad_wolf_loses_his_power() -> None:
    """docs/rules.md: the doomed werewolf dies at the start of the next night '(and the Big Bad Wolf loses his power
    that night)'."""
    game = new_game(["villager", "werewolf", "knight", "werewolf", "big_bad_wolf", "villager", "villager",
                     "villager", "villager", "villager"])
    drive(game, ("werewolves", 3), ("big_bad_wolf", None), ("vote", None), ("werewolves", 6))
    call = made(game, "big_bad_wolf", 2)
    assert call is not None and not call.live
    assert victims(game, 2) == [(4, "rust"), (6, "werewolves")]


def test_rust_victim_announced_at_next_dawn_in_seat_order_with_the_nights_victims() -> None:
    """'revealed by the narrator the morning after the Werewolf's disappearance' — docs/rules.md: with the night's
    victims, in seat order with them (the pack's victim at seat 4 first)."""
    game = new_game(KNIGHT)
    drive(game, ("werewolves", 3), ("vote", None), ("werewolves", 4))
    assert victims(game, 1) == [(3, "werewolves")]
    assert victims(game, 2) == [(4, "werewolves"), (5, "rust")]
    assert eliminated(game)[1:] == [(4, "werewolves"), (5, "rust")]
    rust = next(e for e in game.eliminated if e.cause == "rust")
    assert (rust.phase, rust.number) == (Phase.NIGHT, 2)


def test_knight_devoured_by_big_bad_wolf_dooms_him() -> None:
    """docs/rules.md: 'the Big Bad Wolf alone for his own victim' — he is the doomed one, even with a werewolf
    closer to the Knight's left."""
    game = new_game(["villager", "villager", "knight", "werewolf", "villager", "big_bad_wolf", "villager",
                     "villager"])
    drive(game, ("werewolves", 5), ("big_bad_wolf", 3), ("vote", None))
    assert reach(game, "werewolves").actors == (4,)
    drive(game, ("werewolves", 7))
    assert victims(game, 2) == [(6, "rust"), (7, "werewolves")]


def test_poisoned_knight_brings_no_rust() -> None:
    """'If the Knight is devoured' — poisoned, he dooms no one."""
    game = new_game(["villager", "werewolf", "knight", "villager", "werewolf", "witch", "villager", "villager"])
    drive(game, ("werewolves", 7), ("witch", {"heal": False, "poison": 3}), ("vote", None))
    assert reach(game, "werewolves").actors == (2, 5)
    drive(game, ("werewolves", 8))
    assert "rust" not in [cause for _, cause in eliminated(game)]


def test_voted_knight_brings_no_rust() -> None:
    """'If the Knight is devoured' — voted out, he dooms no one."""
    game = new_game(KNIGHT)
    drive(game, ("werewolves", 4), ("vote", 3))
    assert reach(game, "werewolves").actors == (2, 5)
    drive(game, ("werewolves", 6))
    assert victims(game, 2) == [(6, "werewolves")]


def test_doomed_werewolf_voted_out_dies_of_the_vote() -> None:
    """A doomed werewolf voted out the day before dies of the vote: no rust at the next dawn."""
    game = new_game(KNIGHT)
    drive(game, ("werewolves", 3), ("vote", 5), ("werewolves", 6))
    assert eliminated(game) == [(3, "werewolves"), (5, "vote"), (6, "werewolves")]
    assert victims(game, 2) == [(6, "werewolves")]
