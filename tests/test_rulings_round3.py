"""The expansion fine points of round 3 (the rulings of 2026-12-07, docs/rules.md): what each ruling's practice game
(tests/games/ruling_*.yaml) cannot say by its end alone — a refusal, a call not made, a line said."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from engine import Deal, Game, Rules, Table, votes
from engine.roles.witch import Potions
from helpers import call_ids, drive, eliminated, made, new_game, reach, refused
from narrator.narration import VOICE, Line, Narrator
from narrator.practice import RunFailed, dry_run
from narrator.script import load_script
from narrator.voices import load_voice
from test_rulings_games import refusal_lines

GAMES = Path(__file__).resolve().parent / "games"


def village(roles: list[str], buildings: dict[int, str], **rules: Any) -> Game:
    """Returns a game where seat i+1 holds roles[i], with the building tokens ``buildings`` by seat."""
    rules.setdefault("sheriff", False)
    table = Table(len(roles), tuple(roles), Rules(**rules), buildings=tuple(buildings.values()))
    return Game(table, Deal(tuple(roles), (), tuple(sorted(buildings.items()))))


def test_every_round_3_ruling_has_its_practice_game() -> None:
    """One practice game per point of the rulings' round 3, named after the rule."""
    names = {p.stem for p in GAMES.glob("ruling_*.yaml")}
    for rule in ("barkeeper_ballot_is_his_vote", "barkeeper_sits_first_in_the_chain", "harvest_witch_names_another",
                 "harvest_scapegoat_dies_for_a_neighbour", "servant_crier_and_white_werewolf",
                 "crier_named_by_every_new_sheriff", "pyromaniac_fire_saves_the_big_bad_wolfs_victim",
                 "angel_opening_day_is_a_day_like_the_others", "villager_villager_is_public"):
        assert any(rule in name for name in names), rule


# -- 1. the Barkeeper's ballot is his vote ----------------------------------------------------------------------

BAR = ["werewolf", "werewolf", "villager", "villager", "villager", "villager", "villager"]
"""Two werewolves (1, 2) and five villagers; the Barkeeper's token at seat 3."""


def test_barkeepers_ballot_counts_in_the_roll_call_and_he_does_not_vote_again() -> None:
    """'必须在所有人之前单独投票': his first ballot is counted in the tally; in the roll call he is not a voter."""
    game = village(BAR, {3: "barkeeper"})
    drive(game, ("werewolves", 7), ("barkeeper", 1))
    call = reach(game, "vote")
    assert [f.key for f in call.facts] == ["barkeeper.voted"]
    assert 3 not in votes.voters(game)
    drive(game, ("vote", {"ballots": {2: 4, 4: 1}}))
    assert eliminated(game)[-1] == (1, "vote")  # 1: his and seat 4's ballots, 4: one ballot


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_barkeepers_second_ballot_is_refused_aloud(language: str) -> None:
    """A roll call listing him again is refused aloud, naming him (his ballot was cast alone, before all)."""
    game = village(BAR, {3: "barkeeper"})
    drive(game, ("werewolves", 7), ("barkeeper", 1))
    reach(game, "vote")
    (line,) = refusal_lines(game, {"ballots": {3: 1, 4: 1}}, language)
    assert line.key == "refusal.barkeeper_voted" and line.channel == VOICE


def test_barkeeper_abstains_only_where_votes_may_be_skipped() -> None:
    """He must name a living player he may vote for unless the table lets a vote be skipped."""
    game = village(BAR, {3: "barkeeper"}, votes_may_be_skipped=False)
    drive(game, ("werewolves", 7))
    assert reach(game, "barkeeper").optional is False
    assert refused(game, None).key == "refusal.need_seat"
    assert refused(game, 3).key == "refusal.barkeeper"  # himself: he keeps his token
    skipping = village(BAR, {3: "barkeeper"})
    drive(skipping, ("werewolves", 7), ("barkeeper", None))
    assert reach(skipping, "vote")


def test_barkeeper_left_out_by_the_scapegoat_casts_no_ballot_and_keeps_his_token() -> None:
    """Left out by the Scapegoat, he casts no ballot that day, so the vote's choice costs him nothing."""
    roles = ["werewolf", "scapegoat", "villager", "villager", "villager", "villager", "villager"]
    game = village(roles, {3: "barkeeper"})
    drive(game, ("werewolves", 7), ("barkeeper", 1), ("vote", {"tie": [1, 4]}), ("scapegoat", [4, 5]),
          ("werewolves", 6))
    assert call_ids(game, "day", 2)[-1] == "vote"  # no barkeeper call on day 2
    drive(game, ("vote", 4))
    assert 3 not in game.spent


# -- 2. the chain of innocence and the Barkeeper --------------------------------------------------------------

CHAIN = ["werewolf", "villager", "villager", "villager", "villager", "villager"]


def test_chain_asks_no_ballot_and_the_barkeeper_sits_down_first() -> None:
    """The chain has no ballots; the Barkeeper who keeps his token is said to sit down first, and is never drawn."""
    game = village(CHAIN, {3: "barkeeper"}, variants=("not_him",))
    drive(game, ("werewolves", 2))
    assert reach(game, "chain_draw").seats == (1, 4, 5, 6)
    drive(game, ("chain_draw", 4))
    call = reach(game, "chain")
    assert "barkeeper" not in call_ids(game, "day", 1)
    assert [(f.key, dict(f.values)) for f in call.facts] == [("chain.sits", {"seat": 3}), ("chain.first", {"seat": 4})]
    assert 3 not in call.seats


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_chain_cannot_eliminate_the_barkeeper_who_keeps_his_token(language: str) -> None:
    """'也不会被投票处决': the table typing him as the last one standing is refused aloud."""
    game = village(CHAIN, {3: "barkeeper"}, variants=("not_him",))
    drive(game, ("werewolves", 2), ("chain_draw", 4))
    (line,) = refusal_lines(game, 3, language)
    assert line.key == "refusal.barkeeper" and line.channel == VOICE


def test_chain_first_voucher_skips_the_barkeeper() -> None:
    """Left of the last player voted out sits the Barkeeper: the next player to the left vouches first."""
    game = village(["werewolf", "werewolf", *["villager"] * 6], {3: "barkeeper"}, variants=("not_him",))
    drive(game, ("werewolves", 8), ("chain_draw", 5), ("chain", 2), ("werewolves", 7))
    call = reach(game, "chain")
    assert ("chain.first", {"seat": 4}) in [(f.key, dict(f.values)) for f in call.facts]


# -- 3. the Harvest's Witch names another player ----------------------------------------------------------------

HARVEST = ["werewolf", "witch", "seer", "villager", "werewolf", "villager", "villager", "villager"]


def test_harvest_witch_may_not_name_herself() -> None:
    """The box may poison and she may not poison herself: naming herself is refused on the screen."""
    game = new_game(HARVEST, variants=("harvest",))
    drive(game, ("seer", None), ("werewolves", 4))
    reach(game, "witch")
    refusal = refused(game, 2)
    assert refusal.secret and refusal.key == "refusal.self"


def test_harvest_witchs_practice_game_stops_if_she_names_herself() -> None:
    """Her ruling's game, with her naming herself, stops with the engine's reason."""
    script, _ = load_script(str(GAMES / "ruling_harvest_witch_names_another.yaml"))
    answers = tuple(dataclasses.replace(a, value=2) if a.call == "witch" else a for a in script.answers)
    with pytest.raises(RunFailed, match="cannot name herself"):
        dry_run(dataclasses.replace(script, answers=answers))


# -- 4. the Harvest's Scapegoat, whatever settled the vote --------------------------------------------------------

def test_harvest_scapegoat_dies_for_a_neighbour_chosen_by_the_run_off() -> None:
    """'改为代替他的邻居受死': a run-off (no Sheriff) that names his neighbour kills him instead."""
    game = new_game(["werewolf", "scapegoat", "villager", "villager", "villager", "villager", "villager"],
                    variants=("harvest",))
    drive(game, ("werewolves", 7), ("vote", {"tie": [1, 4]}), ("revote", 1))
    assert eliminated(game) == [(7, "werewolves"), (2, "scapegoat_neighbour")]
    assert game.alive(1) and reach(game, "scapegoat")


# -- 5. the Devoted Servant's fine points -------------------------------------------------------------------------

SERVANT = ["white_werewolf", "werewolf", "devoted_servant", "villager", "villager", "villager", "villager", "villager"]


def servant_took_the_white_werewolf(day: int = 1) -> Game:
    """The Servant (seat 3) takes the White Werewolf's card (seat 1, voted out) on ``day``."""
    game = new_game(SERVANT)
    drive(game, ("werewolves", 5))
    if day == 2:
        drive(game, ("vote", None), ("werewolves", 6), ("white_werewolf", None))
    drive(game, ("vote", 1), ("devoted_servant", 3))
    return game


def test_servants_white_werewolf_passes_on_her_first_night_with_his_card() -> None:
    """'他在替换身份后的第二个夜晚开始使用白狼人的能力': her first night's call is live, and takes only nobody."""
    game = servant_took_the_white_werewolf()
    drive(game, ("werewolves", 7))
    call = reach(game, "white_werewolf")
    assert call.live and call.actors == (3,)
    refusal = refused(game, 2)
    assert refusal.secret and refusal.key == "refusal.white_werewolf_waits"
    drive(game, ("white_werewolf", None))


def test_servants_white_werewolf_kills_from_her_second_night() -> None:
    """Taken on day 2, her first night (3) has no White Werewolf's call; on night 4, her second, she may kill."""
    game = servant_took_the_white_werewolf(day=2)
    drive(game, ("werewolves", 7), ("vote", None), ("werewolves", 8))
    reach(game, "white_werewolf")
    drive(game, ("white_werewolf", 2))
    assert (2, "white_werewolf") in eliminated(game)


def test_servants_new_witch_has_one_heal_and_one_poison() -> None:
    """'不管原来的女巫有几瓶药水，新的女巫只会有1瓶毒药和1瓶治疗药水': the old Witch's spent potions come back."""
    game = new_game(["werewolf", "witch", "devoted_servant", *["villager"] * 5])
    drive(game, ("werewolves", 4), ("witch", {"heal": True, "poison": 5}), ("vote", 2), ("devoted_servant", 3))
    assert game.kept(Potions).left() == ["heal", "poison"]


def test_servant_who_is_crier_is_replaced_by_the_sheriff() -> None:
    """'公告员：则玩家不再担任公告员，由警长指定新的公告员': the Sheriff names another Crier, never her."""
    game = new_game(SERVANT, sheriff=True, town_crier=True)
    drive(game, ("sheriff_election", 4), ("town_crier_appoint", 3), ("werewolves", 5), ("town_crier", None),
          ("vote", 1), ("devoted_servant", 3))
    call = reach(game, "town_crier_appoint")
    assert call.actors == (4,) and 3 not in call.seats


# -- 6. the Town Crier and a new Sheriff ---------------------------------------------------------------------------

def test_servants_successor_sheriff_may_name_a_new_crier() -> None:
    """'新警长上任后可以选择新的公告员或保持不变': the Sheriff the Servant names as she gives up the office is asked."""
    game = new_game(SERVANT, sheriff=True, town_crier=True)
    drive(game, ("sheriff_election", 3), ("town_crier_appoint", 4), ("werewolves", 5), ("town_crier", None),
          ("vote", 1), ("devoted_servant", 3), ("servant_successor", 6))
    call = reach(game, "town_crier_appoint")
    assert call.actors == (6,) and 4 in call.seats  # he may keep the Crier in office


def test_farmers_sheriff_who_keeps_the_medal_is_not_asked_again() -> None:
    """The farmers choosing the Sheriff in office: nobody takes office, the Crier stays."""
    game = village(["werewolf", *["villager"] * 5], {2: "farmer", 3: "farmer"}, sheriff=True, town_crier=True)
    drive(game, ("sheriff_election", 2), ("town_crier_appoint", 4), ("werewolves", 5), ("town_crier", None),
          ("vote", None), ("werewolves", 6), ("farmers", 2))
    assert reach(game, "town_crier").actors == (4,)


# -- 7. the Pyromaniac's fire ----------------------------------------------------------------------------------------

def test_fire_burns_one_werewolf_when_the_pack_and_the_big_bad_wolf_attack_the_house() -> None:
    """Two attacks on the burning house: its owner lives and one werewolf burns, the first to its right."""
    roles = ["werewolf", "big_bad_wolf", "pyromaniac", "villager", "villager", "villager", "villager"]
    game = village(roles, {5: "farmer"})
    drive(game, ("pyromaniac", 5), ("werewolves", 5))
    reach(game, "big_bad_wolf")
    assert refused(game, 5).key == "refusal.same_victim"
    game = village(roles, {5: "farmer"})
    drive(game, ("pyromaniac", 5), ("werewolves", 5), ("big_bad_wolf", 6))
    assert eliminated(game) == [(2, "fire"), (6, "big_bad_wolf")]


# -- 8. the Angel's opening day -----------------------------------------------------------------------------------------

def test_angels_opening_day_offers_the_town_crier_and_the_barber() -> None:
    """A day like the others: the Barber and the Town Crier are asked before the opening vote."""
    roles = ["angel", "werewolf", *["villager"] * 5]
    game = village(roles, {4: "barber"}, sheriff=True, town_crier=True)
    drive(game, ("sheriff_election", 3), ("town_crier_appoint", 5))
    assert reach(game, "barber").number == 0
    drive(game, ("barber", None))
    assert reach(game, "town_crier").number == 0
    drive(game, ("town_crier", None))
    assert reach(game, "vote").number == 0
    assert "growl" not in call_ids(game, "day", 0)


# -- 9. the Villager-Villager is public -----------------------------------------------------------------------------------

def lines_of(game: Game, language: str) -> list[Line]:
    """Returns the lines said and shown for the running call."""
    said: list[Line] = []
    call = game.call
    assert call is not None
    Narrator(load_voice(language), said.append).begin(call)
    return said


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_villager_villager_is_said_aloud_before_the_first_night(language: str) -> None:
    """'两面都是“村民”图案的身份，一眼便可看出他的正直思想': with the program's deal, his seat is said aloud, first."""
    game = new_game(["werewolf", "seer", "villager_villager", "villager", "villager", "villager"])
    call = game.calls[0]
    assert call.id == "villager_villager" and [dict(f.values) for f in call.facts] == [{"seat": 3}]
    said = [line for line in lines_of(game, language) if line.channel == VOICE]
    assert [line.key for line in said] == ["villager_villager.call", "villager_villager.seat"]
    assert load_voice(language).seat(3, ()).lower() in said[-1].text.lower()


def test_villager_villager_is_said_before_the_angels_opening_vote() -> None:
    """With an opening day he is said before its vote (and before the election)."""
    game = new_game(["angel", "werewolf", "villager_villager", *["villager"] * 4], sheriff=True)
    assert [c.id for c in game.calls] == ["villager_villager"]
    drive(game, ("sheriff_election", 4))
    assert reach(game, "vote").number == 0


def test_villager_villager_in_the_centre_is_said_to_lie_there() -> None:
    """His card among the Thief's two shows itself there: the narrator says so, and no seat."""
    game = new_game(["thief", "werewolf", *["villager"] * 4], centre=["villager_villager", "villager"])
    assert [f.key for f in game.calls[0].facts] == ["villager_villager.centre"]


def test_villager_villager_with_real_cards_is_not_said() -> None:
    """With real cards (deal: cards) his card shows itself: nothing is said."""
    roles = ("werewolf", "seer", "villager_villager", "villager", "villager", "villager")
    game = Game(Table(6, roles, Rules(sheriff=False), real_cards=True), Deal(roles))
    assert "villager_villager" not in call_ids(game)


# -- every new moment resumes ---------------------------------------------------------------------------------------

ROUND_3 = sorted(p for p in GAMES.glob("ruling_*.yaml") if any(rule in p.stem for rule in (
    "ballot_is_his_vote", "sits_first", "harvest", "servant_crier", "every_new_sheriff", "big_bad_wolfs_victim",
    "opening_day", "villager_villager")))


@pytest.mark.parametrize("path", ROUND_3, ids=[p.stem for p in ROUND_3])
def test_round_3_games_resume_at_every_call(path: Path) -> None:
    """A game stopped at any call of a ruling's game (the Barkeeper's ballot, the chain, the box, the Crier named
    again, the Villager-Villager's line...) is rebuilt from its journal making the same call, with the same facts."""
    script, _ = load_script(str(path))
    game, _ = dry_run(script)

    def shown(call: Any) -> tuple[Any, ...]:
        return call.id, call.phase, call.number, call.live, call.actors, call.seats, call.facts

    for k, call in enumerate(game.calls):
        again = Game(script.config.table, script.deal, game.journal[:k])
        assert again.call is not None and shown(again.call) == shown(call), (k, call.id)
