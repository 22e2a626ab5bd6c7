"""The Village expansion (the Chinese article, 建筑牌 and 角色标记与建筑牌; Board Game Arena's guide): the
public building tokens, the Raven, the Pyromaniac and every building's power."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import Deal, Game, Rules, Table
from engine.calls import call_kinds
from engine.table import deal_buildings
from engine.types import Call, Fact, Kind, Phase, Step
from engine.village import TOKENS, check_buildings
from helpers import drive, eliminated, made, made_once, play_keys, reach, refused, said
from keystrokes import plan_keys
from narrator.cli import main
from narrator.config import Findings, TableConfig, config_from_journal, journal_table, read_table
from narrator.narration import VOICE, Line, Narrator
from narrator.play import NewGame
from narrator.script import read_script
from narrator.voices import load_voice
from narrator.yamlfile import parse

NO_POTION = {"heal": False, "poison": None}


def village(roles: list[str], buildings: dict[int, str], **rules: Any) -> Game:
    """Returns a game where seat i+1 holds roles[i] and the building tokens ``buildings`` (no Sheriff unless
    asked for)."""
    rules.setdefault("sheriff", False)
    table = Table(len(roles), tuple(roles), Rules(**rules), buildings=tuple(buildings.values()))
    return Game(table, Deal(tuple(roles), (), tuple(sorted(buildings.items()))))


EIGHT = ["werewolf", "villager", "villager", "villager", "villager", "villager", "werewolf", "villager"]


# -- the tokens ------------------------------------------------------------------------------------

def test_buildings_are_announced_aloud_before_anything_else() -> None:
    """'角色标记是向所有玩家公开的': the tokens are public; the narrator says who holds which first."""
    game = village(EIGHT, {2: "baker", 5: "farmer", 8: "vagabond"}, sheriff=True)
    first = game.calls[0]
    assert first.id == "buildings" and first.kind is Kind.NONE and first.phase is Phase.DAY
    assert [(f.key, dict(f.values), f.secret) for f in first.facts] == [
        ("building.dealt", {"seat": 2, "role": "baker"}, False),
        ("building.dealt", {"seat": 5, "role": "farmer"}, False),
        ("building.dealt", {"seat": 8, "role": "vagabond"}, False)]
    game.answer(None)
    assert game.call is not None and game.call.id == "sheriff_election"


def test_buildings_are_dealt_at_random_one_a_seat_the_same_for_the_same_seed() -> None:
    """The program deals the tokens at random, at most one a seat; the seed (journaled) deals them again."""
    table = Table(8, tuple(EIGHT), buildings=("baker", "farmer", "farmer", "noble", "vagabond"))
    dealt = deal_buildings(table, 11)
    assert dealt == deal_buildings(table, 11)
    assert sorted(t for _, t in dealt) == sorted(table.buildings)
    assert len({s for s, _ in dealt}) == 5 and all(1 <= s <= 8 for s, _ in dealt)
    assert any(deal_buildings(table, seed) != dealt for seed in range(12, 20))


def test_a_village_holds_one_of_each_building_but_farmers_and_vagabonds() -> None:
    """Several Farmers and Vagabonds, one of every other building, one token a seat at most."""
    assert check_buildings(8, ["farmer", "farmer", "vagabond", "vagabond", "noble"]) == []
    assert check_buildings(8, ["noble", "noble"]) == ["2 'noble' tokens: a village holds one"]
    assert check_buildings(6, ["farmer"] * 7) == ["7 building tokens for 6 players: one a seat at most"]


def test_the_deal_gives_the_tables_buildings() -> None:
    """A deal whose tokens are not the table's is refused before the game starts."""
    table = Table(8, tuple(EIGHT), Rules(sheriff=False), buildings=("baker",))
    with pytest.raises(ValueError, match="buildings"):
        Game(table, Deal(tuple(EIGHT), (), ((1, "noble"),)))
    with pytest.raises(ValueError, match="buildings"):
        Game(Table(8, tuple(EIGHT), Rules(), buildings=("baker", "noble")), Deal(tuple(EIGHT), (), ((1, "baker"), (1, "noble"))))


# -- the Raven -------------------------------------------------------------------------------------

RAVEN = ["raven", "werewolf", "villager", "villager", "villager", "villager", "werewolf", "villager"]


def test_raven_is_called_every_night_before_the_werewolves() -> None:
    """The Pact order: 12. 叫醒乌鸦 (night 4. on later nights), after the Seer, before the pack."""
    game = village(["seer", "werewolf", "raven", "villager", "villager", "villager", "werewolf", "villager"], {})
    drive(game, ("seer", 2))
    call = reach(game, "raven")
    assert call.actors == (3,) and call.optional and call_kinds()["raven"] is Kind.SEAT
    drive(game, ("raven", None), ("werewolves", 4), ("vote", None), ("seer", 7), ("raven", 5))
    ids = [c.id for c in game.calls if c.phase is Phase.NIGHT and c.number == 2]
    assert ids[:4] == ["nightfall", "seer", "raven", "werewolves"]


def test_raven_mark_is_announced_at_dawn_and_counts_two_votes() -> None:
    """'主持人将造谣标记放置在该玩家的建筑物前面。在接下来的投票环节，该玩家额外记两票': public at dawn, two
    votes against him in a roll call (a reported result already counts them)."""
    game = village(RAVEN, {})
    drive(game, ("raven", 3), ("werewolves", 4))
    dawn = made_once(game, "dawn", 1, Phase.DAY)
    assert [(f.key, dict(f.values), f.secret) for f in dawn.facts][0] == ("raven.marked", {"seat": 3}, False)
    # Seat 5 has two ballots, seat 3 one and the Raven's two: seat 3 is eliminated.
    drive(game, ("vote", {"ballots": {1: 5, 2: 5, 6: 3}}))
    assert eliminated(game) == [(4, "werewolves"), (3, "vote")]


def test_raven_mark_counts_at_the_next_vote_only() -> None:
    """'在接下来的投票环节': the mark counts at the day's vote, not at the next day's."""
    game = village(RAVEN, {})
    drive(game, ("raven", 3), ("werewolves", 4), ("vote", None), ("raven", None), ("werewolves", 5))
    drive(game, ("vote", {"ballots": {1: 6, 2: 6, 8: 3}}))
    assert eliminated(game)[-1] == (6, "vote")


def test_the_ravens_mark_counts_in_the_first_vote_only() -> None:
    """docs/rules.md: The Raven's mark adds two votes against its target in that day's first vote only: not in its
    run-off, nor in the Stuttering Judge's second vote."""
    game = village(["raven", "werewolf", "villager", "stuttering_judge", "villager", "villager", "werewolf",
                    "villager"], {})
    drive(game, ("raven", 3), ("werewolves", 8))
    # The first vote: seat 5 has three ballots, seat 3 one and the mark's two: a tie.
    drive(game, ("vote", {"ballots": {1: 5, 2: 5, 6: 5, 7: 3}}))
    assert game.call is not None and game.call.id == "revote" and game.call.seats == (3, 5)
    # The run-off: one ballot each, the mark not counted: a second tie, nobody.
    drive(game, ("revote", {"ballots": {1: 3, 2: 5}}), ("stuttering_judge", True))
    assert eliminated(game) == [(8, "werewolves")]
    # The Judge's second vote: seat 5 has two ballots, seat 3 one; with the mark he would have three.
    drive(game, ("vote", {"ballots": {1: 3, 2: 5, 6: 5}}))
    assert eliminated(game) == [(8, "werewolves"), (5, "vote")]


def test_raven_cannot_mark_a_vagabond() -> None:
    """'乌鸦无法选择流浪汉' — refused on the screen only: a refusal aloud at night would tell his choice."""
    game = village(RAVEN, {3: "vagabond", 4: "barkeeper"})
    reach(game, "raven")
    error = refused(game, 3)
    assert error.secret and error.key == "refusal.vagabond"
    drive(game, ("raven", 4), ("werewolves", 5))  # the Barkeeper may be marked
    assert said(game, "raven.marked") == [{"seat": 4}]


# -- the Pyromaniac --------------------------------------------------------------------------------

PYRO = ["pyromaniac", "werewolf", "villager", "villager", "villager", "villager", "werewolf", "villager"]


def test_pyromaniac_burns_a_building_and_its_owner_becomes_a_vagabond() -> None:
    """'在次日早晨，该建筑物会从游戏中移除，并且原住户会变成流浪汉' — announced at dawn, the owner lives on."""
    game = village(PYRO, {5: "noble", 6: "barber"})
    drive(game, ("pyromaniac", 5), ("werewolves", 4))
    assert said(game, "pyromaniac.burnt") == [{"seat": 5}]
    assert game.alive(5) and game.tokens[5] == "vagabond"
    assert eliminated(game) == [(4, "werewolves")]


def test_pyromaniac_burns_once_per_game() -> None:
    """'每局游戏限一次': after his fire he is called for fair play only."""
    game = village(PYRO, {5: "noble", 6: "schoolteacher"})
    drive(game, ("pyromaniac", 5), ("werewolves", 4), ("schoolteacher", None), ("vote", None))
    assert not made_once(game, "pyromaniac", 2).live


def test_pyromaniac_only_burns_a_building() -> None:
    """He chooses '一幢建筑物': a Vagabond or a player with no token has none (refused on the screen)."""
    game = village(PYRO, {3: "vagabond", 5: "noble"})
    reach(game, "pyromaniac")
    assert refused(game, 3).key == "refusal.no_house"
    error = refused(game, 4)
    assert error.secret and error.key == "refusal.no_house"
    drive(game, ("pyromaniac", None), ("werewolves", 4), ("vote", None))
    assert reach(game, "pyromaniac").live and made_once(game, "pyromaniac", 2).number == 2


def test_pyromaniac_fire_on_the_werewolves_target_burns_the_first_werewolf_to_his_right() -> None:
    """'如果被选中的玩家刚好是狼人的目标，则他不会死亡，作为替代，该玩家右手边第一个狼人会被烧死': to the right
    is counter-clockwise (docs/rules.md), the first of those who woke with the pack."""
    roles = ["pyromaniac", "werewolf", "villager", "werewolf", "villager", "villager", "werewolf", "villager"]
    game = village(roles, {5: "baker"})
    drive(game, ("pyromaniac", 5), ("werewolves", 5))
    assert eliminated(game) == [(4, "fire")]
    assert game.alive(5) and game.tokens[5] == "vagabond"


def test_pyromaniac_fire_burns_a_werewolf_even_when_the_witch_heals() -> None:
    """Ruling: the pack came to a burning house, so its victim survives and a werewolf burns, whatever the
    potions."""
    roles = ["pyromaniac", "werewolf", "witch", "villager", "villager", "villager", "werewolf", "villager"]
    game = village(roles, {6: "noble"})
    drive(game, ("pyromaniac", 6), ("werewolves", 6), ("witch", {"heal": True, "poison": None}))
    assert eliminated(game) == [(2, "fire")]


# -- the Baker -------------------------------------------------------------------------------------

def test_baker_wakes_right_after_the_werewolves() -> None:
    """'当主持人说出"……狼人请回去睡觉"后，面包师要马上睁开眼睛。几秒后，主持人让面包师回去睡觉'."""
    game = village(["werewolf", "villager", "witch", "villager", "villager", "villager", "werewolf", "villager"],
                   {4: "baker"})
    drive(game, ("werewolves", 2))
    baker = made_once(game, "baker", 1)
    assert baker.actors == (4,) and baker.kind is Kind.NONE and baker.facts == ()
    ids = [c.id for c in game.calls if c.phase is Phase.NIGHT and c.number == 1]
    assert ids == ["nightfall", "werewolves", "baker", "witch"]
    assert call_kinds()["baker"] is Kind.NONE


def test_baker_without_his_house_is_called_for_fair_play_only() -> None:
    """A burnt bakery: the call is still made, waking nobody (the rhythm stays)."""
    game = village(PYRO, {4: "baker"})
    drive(game, ("pyromaniac", 4), ("werewolves", 3), ("vote", None), ("werewolves", 5))
    assert made_once(game, "baker", 1).live and not made_once(game, "baker", 2).live


# -- the Vagabond ----------------------------------------------------------------------------------

def test_vagabond_cannot_be_chosen_by_the_barber_nor_the_schoolteacher() -> None:
    """'女教师、理发师、乌鸦和纵火狂的能力都对他无效' — public refusals (the tokens are public)."""
    game = village(EIGHT, {3: "vagabond", 4: "barber", 5: "schoolteacher"})
    drive(game, ("werewolves", 8))
    reach(game, "barber")
    error = refused(game, 3)
    assert not error.secret and error.key == "refusal.vagabond"
    drive(game, ("barber", None))
    reach(game, "schoolteacher")
    assert refused(game, [3]).key == "refusal.vagabond"


# -- the Bailiff -----------------------------------------------------------------------------------

def test_bailiff_moves_a_vagabond_into_an_emptied_house() -> None:
    """'当一座房子因屋主的死亡而被空出来时，执行官可以选择一名流浪汉住进这座房子' — with its power, afresh."""
    game = village(EIGHT, {2: "noble", 3: "bailiff", 4: "vagabond", 5: "vagabond"})
    drive(game, ("werewolves", 2))
    call = reach(game, "bailiff")
    assert call.actors == (3,) and call.seats == (4, 5) and call.optional
    assert said(game, "bailiff.house") == [{"role": "noble"}]
    assert refused(game, 6).key == "refusal.not_among"
    drive(game, ("bailiff", 5), ("vagabond", True))
    assert game.tokens[5] == "noble" and said(game, "bailiff.moves") == [{"seat": 5, "role": "noble"}]
    drive(game, ("vote", 6))
    assert made_once(game, "noble", 1, Phase.DAY).actors == (5,)


def test_bailiff_may_give_the_house_to_nobody() -> None:
    """'执行官可以选择一名流浪汉住进这座房子' — may: the Bailiff answers nobody; the house stays empty."""
    game = village(EIGHT, {2: "noble", 3: "bailiff", 4: "vagabond"})
    drive(game, ("werewolves", 2), ("bailiff", None))
    assert game.tokens.get(4) == "vagabond" and 2 not in game.tokens and made(game, "vagabond", 1, Phase.DAY) is None


def test_vagabond_may_refuse_the_bailiffs_house() -> None:
    """'流浪汉可以拒绝执行官的分配' (and BGA): the Vagabond the Bailiff chose is asked aloud; refusing, he stays a
    Vagabond and the house stays empty (docs/rules.md)."""
    game = village(EIGHT, {2: "noble", 3: "bailiff", 4: "vagabond"})
    drive(game, ("werewolves", 2), ("bailiff", 4))
    call = reach(game, "vagabond")
    assert call.phase is Phase.DAY and call.actors == (4,) and call.seats == (4,) and call.kind is Kind.YES_NO
    drive(game, ("vagabond", False))
    assert game.tokens.get(4) == "vagabond" and 2 not in game.tokens
    assert said(game, "vagabond.refuses") == [{"seat": 4}] and said(game, "bailiff.moves") == []


def test_no_house_is_given_once_the_bailiff_is_gone() -> None:
    """'如果执行官被消灭了，则不再有人进行房屋分配'."""
    game = village(EIGHT, {2: "noble", 3: "bailiff", 4: "vagabond"})
    drive(game, ("werewolves", 3), ("vote", 2))
    assert made(game, "bailiff", 1, Phase.DAY) is None and made(game, "bailiff", 1) is None


# -- the Farmers -----------------------------------------------------------------------------------

def test_farmers_choose_the_sheriff_on_the_second_day() -> None:
    """'从第二轮开始，农民们进行辩论并从中选出一个警长'."""
    game = village(EIGHT, {3: "farmer", 5: "farmer"}, sheriff=True)
    drive(game, ("sheriff_election", 8), ("werewolves", 4), ("vote", None), ("werewolves", 6))
    call = reach(game, "farmers")
    assert call.seats == (3, 5) and call.actors == (3, 5) and call.number == 2
    assert refused(game, 8).key == "refusal.not_among"
    drive(game, ("farmers", 5))
    assert game.sheriff == 5


def test_sheriffs_successor_must_be_a_farmer_and_none_when_the_farmers_are_gone() -> None:
    """'如果警长被消灭，他必须从剩下的农民中选出一个来继任警长。如果最后一个农民被消灭，则不再有警长产生'."""
    game = village(EIGHT, {3: "farmer", 5: "farmer"}, sheriff=True)
    drive(game, ("sheriff_election", 3), ("werewolves", 3))
    call = reach(game, "sheriff_successor")
    assert call.seats == (5,)
    drive(game, ("sheriff_successor", 5), ("vote", 5))
    assert game.sheriff is None and made(game, "sheriff_successor", 1, Phase.DAY) is not None
    assert [c.id for c in game.calls].count("sheriff_successor") == 1


# -- the Schoolteacher -----------------------------------------------------------------------------

def test_schoolteacher_bars_up_to_two_players_from_voting_and_never_votes() -> None:
    """'每天在投票之前，女教师可以禁止最多两名玩家参加这回合的投票。女教师从不投票'."""
    game = village(EIGHT, {4: "schoolteacher"})
    drive(game, ("werewolves", 8))
    call = reach(game, "schoolteacher")
    assert call.kind is Kind.SEATS and call.optional and call_kinds()["schoolteacher"] is Kind.SEATS
    assert refused(game, [2, 3, 5]).key == "refusal.count"
    assert refused(game, [4]).key == "refusal.self"
    drive(game, ("schoolteacher", [2, 3]))
    assert said(game, "schoolteacher.bars") == [{"seats": [2, 3]}]
    reach(game, "vote")
    assert refused(game, {"ballots": {2: 7, 5: 7}}).key == "refusal.not_a_voter"
    assert refused(game, {"ballots": {4: 7, 5: 7}}).key == "refusal.not_a_voter"
    drive(game, ("vote", {"ballots": {5: 7, 6: 7}}))
    assert eliminated(game)[-1] == (7, "vote")


# -- the Barkeeper ---------------------------------------------------------------------------------

def test_barkeeper_cannot_be_chosen_by_the_pack_refused_on_the_screen() -> None:
    """BGA: '人狼の襲撃対象として選ばれず' — while he keeps his token the pack cannot name him; refused on the screen
    only, as a werewolf target is (docs/rules.md)."""
    game = village(EIGHT, {3: "barkeeper"})
    reach(game, "werewolves")
    refusal = refused(game, 3)
    assert refusal.key == "refusal.barkeeper" and refusal.secret
    assert 3 not in game.legal() and 4 in game.legal()


def test_barkeeper_votes_first_and_alone_and_cannot_be_voted_refused_aloud() -> None:
    """'酒保必须在所有人之前单独投票'; BGA: '投票の対象にもならない' — a vote result, a tie or a ballot naming him is
    refused aloud (the token is public), and the vote call does not offer him."""
    game = village(EIGHT, {3: "barkeeper"})
    drive(game, ("werewolves", 4))
    call = reach(game, "barkeeper")
    assert call.actors == (3,) and call.optional
    drive(game, ("barkeeper", 5))
    vote = reach(game, "vote")
    assert 3 not in vote.seats and 5 in vote.seats
    for answer in (3, {"tie": [3, 5]}, {"ballots": {1: 3, 2: 5}}):
        refusal = refused(game, answer)
        assert refusal.key == "refusal.barkeeper" and not refusal.secret


def test_barkeeper_is_not_sheltered_from_the_other_powers() -> None:
    """The Chinese article: '所有的特殊能力仍然对他有效' — the poison still kills him."""
    game = village(["werewolf", "villager", "villager", "witch", "villager", "villager", "werewolf", "villager"],
                   {3: "barkeeper"})
    drive(game, ("werewolves", 2), ("witch", {"heal": False, "poison": 3}))
    assert not game.alive(3) and (3, "poison") in eliminated(game)


def test_barkeeper_left_alone_with_a_werewolf_the_vote_can_only_name_the_werewolf() -> None:
    """The stalemate the old reading made — the Barkeeper against a lone werewolf, the bite and the vote failing
    on him and the votes tying forever — is gone: the vote can name only the werewolf, and the village wins."""
    game = village(["werewolf", "villager", "villager", "villager", "villager", "villager"], {3: "barkeeper"})
    drive(game, ("werewolves", 2), ("barkeeper", None), ("vote", 4), ("werewolves", 5), ("barkeeper", None),
          ("vote", None), ("werewolves", 6))
    drive(game, ("barkeeper", 1))
    assert game.living() == (1, 3) and reach(game, "vote").seats == (1,)
    drive(game, ("vote", 1))
    assert game.outcome is not None and game.outcome.winner == "village"


def test_barkeeper_loses_his_token_when_he_voted_for_the_condemned() -> None:
    """'如果酒保投票的对象最后成为了处决对象（即使该玩家最后活了下来），则酒保失去他的角色标记和护身能力'."""
    game = village(EIGHT, {3: "barkeeper", 5: "noble"})
    drive(game, ("werewolves", 8), ("barkeeper", 6), ("vote", 6), ("noble", True))
    assert game.alive(6) and 3 in game.spent and said(game, "barkeeper.loses") == [{"seat": 3}]
    drive(game, ("werewolves", 3))
    assert made(game, "barkeeper", 2, Phase.DAY) is None and not game.alive(3)


# -- the Noble -------------------------------------------------------------------------------------

def test_noble_pardons_the_condemned_once_himself_included() -> None:
    """'在投票结束、即将处决之时，被处决的对象可以向贵族求情，而贵族则可以赦免该玩家。贵族可以赦免自己的处决'."""
    game = village(EIGHT, {5: "noble"})
    drive(game, ("werewolves", 8))
    drive(game, ("vote", 5))
    call = reach(game, "noble")
    assert call.actors == (5,) and call.seats == (5,) and call.kind is Kind.YES_NO
    drive(game, ("noble", True))
    assert game.alive(5) and said(game, "noble.pardons") == [{"seat": 5}]
    drive(game, ("werewolves", 6), ("vote", 5))
    assert made(game, "noble", 2, Phase.DAY) is None and eliminated(game)[-1] == (5, "vote")


# -- the Barber ------------------------------------------------------------------------------------

def test_barber_who_eliminates_a_werewolf_is_spared() -> None:
    """'如果他消灭的玩家是狼人的话，理发师会被全村庆祝，并且不会因为他的行为而受到处罚'; his razor is spent."""
    game = village(EIGHT, {3: "barber"})
    drive(game, ("werewolves", 8))
    reach(game, "barber")
    assert refused(game, 3).key == "refusal.self"
    drive(game, ("barber", 7), ("vote", None), ("werewolves", 6))
    assert eliminated(game) == [(8, "werewolves"), (7, "barber"), (6, "werewolves")]
    assert made(game, "barber", 2, Phase.DAY) is None


def test_barber_who_eliminates_an_innocent_is_executed_at_once() -> None:
    """'否则，理发师将被当场处决'."""
    game = village(EIGHT, {3: "barber"})
    drive(game, ("werewolves", 8), ("barber", 4))
    assert eliminated(game) == [(8, "werewolves"), (4, "barber"), (3, "execution")]


# -- the Confessor ---------------------------------------------------------------------------------

def test_confessor_has_a_player_show_their_card_in_secret() -> None:
    """'选择一名玩家，该玩家必须马上偷偷地向告解神父展示自己的身份': said aloud, the card never."""
    game = village(EIGHT, {2: "confessor"})
    drive(game, ("werewolves", 8), ("confessor", 7))
    assert said(game, "confessor.confesses") == [{"seat": 7}] and 2 in game.spent
    drive(game, ("vote", None), ("werewolves", 6))
    assert made(game, "confessor", 2, Phase.DAY) is None


# -- the Bone-setter -------------------------------------------------------------------------------

def test_bone_setter_gives_a_spent_power_one_more_use() -> None:
    """'接骨师都可以让一位已经使用过角色能力的玩家重新获得角色标记和一次使用能力的机会'."""
    game = village(EIGHT, {2: "confessor", 3: "bone_setter"})
    drive(game, ("werewolves", 8))
    reach(game, "confessor")  # nobody had spent a power before: the Bone-setter is not asked first
    drive(game, ("confessor", 7))
    reach(game, "bone_setter")
    assert refused(game, 4).key == "refusal.not_spent"
    drive(game, ("bone_setter", 2), ("vote", None), ("werewolves", 6), ("confessor", 1))
    assert made(game, "bone_setter", 2, Phase.DAY) is None
    assert said(game, "bone_setter.restores") == [{"seat": 2}] and 3 in game.spent
    assert said(game, "confessor.confesses") == [{"seat": 7}, {"seat": 1}]


# -- the config and the practice scripts ---------------------------------------------------------

def test_buildings_config_key_deals_a_list_or_takes_the_hosts_seats() -> None:
    """`buildings:` a list dealt at random, or {seat: token}; a bad token is named with its line."""
    found = Findings()
    doc = parse("deck: [werewolf, villager, villager, villager, villager, werewolf]\nbuildings: [baker, farmer]\n",
                "t.yaml")
    config = read_table(doc.data, doc, (), found)
    assert config is not None and config.table.buildings == ("baker", "farmer") and not found.errors
    journaled = json.loads(json.dumps(journal_table(config)))
    assert config_from_journal(journaled, "j").table.buildings == ("baker", "farmer")
    doc = parse("deck: [werewolf, villager, villager, villager, villager, werewolf]\nbuildings: {2: noble}\n",
                "t.yaml")
    config = read_table(doc.data, doc, (), found)
    assert config is not None and config.buildings_dealt == ((2, "noble"),)
    assert config_from_journal(json.loads(json.dumps(journal_table(config))), "j").buildings_dealt == ((2, "noble"),)
    doc = parse("deck: [werewolf, villager, villager, villager, villager, werewolf]\nbuildings: [bakery]\n",
                "t.yaml")
    assert read_table(doc.data, doc, (), found) is None
    assert any("t.yaml:2" in e and "unknown building 'bakery'" in e and "baker" in e for e in found.errors)


def test_every_player_gets_a_building_token_or_check_warns() -> None:
    """BGA: "ゲーム開始時に職業トークンが各プレイヤーにランダムに1枚配られます" — every player gets a token (Vagabonds
    among them). A table that gives fewer is warned, in its language, of what a seat without one is; a token for every
    seat is not."""
    deck = "deck: [werewolf, villager, villager, villager, villager, werewolf]\n"
    for language, buildings, words in (
            ("en", "[baker, farmer]", "6 players but 4 of them will get no building token"),
            ("fr", "{2: noble}", "6 joueurs, mais 5 d’entre eux n’auront pas de jeton de bâtiment"),
            ("zh", "[baker, farmer, farmer, vagabond, vagabond]", "6名玩家中有一人拿不到角色标记")):
        found = Findings()
        doc = parse(f"language: {language}\n{deck}buildings: {buildings}\n", "t.yaml")
        assert read_table(doc.data, doc, (), found) is not None and not found.errors
        (warned,) = [w for w in found.warnings if w.advice.key == "buildings_short"]
        assert warned.where == "t.yaml:3: buildings" and words in warned.text(load_voice(language))
    found = Findings()
    doc = parse(f"{deck}buildings: [baker, farmer, farmer, vagabond, vagabond, vagabond]\n", "t.yaml")
    assert read_table(doc.data, doc, (), found) is not None and not found.errors
    assert not [w for w in found.warnings if w.advice.key == "buildings_short"]


def test_practice_script_deals_buildings_by_seat() -> None:
    """`deal: buildings: {seat: token}` in a practice script; the table's buildings follow from it."""
    text = ("table: {sheriff: false}\n"
            "deal: {1: werewolf, 2: villager, 3: villager, 4: villager, 5: villager, 6: werewolf,\n"
            "       buildings: {2: baker, 3: vagabond}}\n"
            "answers: []\n")
    script, found = read_script(parse(text, "s.yaml"))
    assert script is not None, found.errors
    assert script.deal.buildings == ((2, "baker"), (3, "vagabond"))
    assert sorted(script.config.table.buildings) == ["baker", "vagabond"]
    script, found = read_script(parse(text.replace("vagabond}", "vagabon}"), "s.yaml"))
    assert script is None and any("did you mean 'vagabond'" in e for e in found.errors)


def test_a_whole_village_game_is_played_from_the_keypad_and_journaled(tmp_path: Path) -> None:
    """Every building's call answered on the keypad (the Schoolteacher's 0 at once: nobody); the journal keeps
    the tokens dealt, so that `resume` deals them again."""
    deck = ("raven", "pyromaniac", "werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager",
            "villager")
    table = Table(10, deck, Rules(sheriff=True), buildings=tuple(t for t in TOKENS if t != "farmer") + ("farmer",))
    config = TableConfig("en", table, pause=(0.0, 0.0))
    for seed in (1, 2, 3):
        keys, ahead = plan_keys(config, seed)
        folder = tmp_path / str(seed)
        game = play_keys(config, keys, seed=seed, start=NewGame(folder=folder))
        assert game.outcome == ahead.outcome and game.eliminated == ahead.eliminated
        assert game.deal.buildings == deal_buildings(table, seed) and len(game.deal.buildings) == 10
        journal = next(folder.glob("*.jsonl"))
        header = json.loads(journal.read_text(encoding="utf-8").splitlines()[0])
        assert [tuple(pair) for pair in header["buildings"]] == list(game.deal.buildings)


VILLAGE_FACTS = {"building.dealt": {"seat": 1, "role": "baker"}, "raven.marked": {"seat": 2},
                 "pyromaniac.burnt": {"seat": 3}, "confessor.confesses": {"seat": 4},
                 "bone_setter.restores": {"seat": 5}, "schoolteacher.bars": {"seats": [1, 2]},
                 "barkeeper.loses": {"seat": 6}, "noble.pardons": {"seat": 7},
                 "bailiff.house": {"role": "noble"}, "bailiff.moves": {"seat": 8, "role": "noble"},
                 "vagabond.refuses": {"seat": 8},
                 "sheriff.none": {}}


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_every_village_call_and_fact_has_its_lines(language: str) -> None:
    """Every line the Village adds is said in every language, filled (no placeholder left), and every
    death it causes has its words."""
    lines: list[Line] = []
    narrator = Narrator(load_voice(language), lines.append)
    for call_id in ("raven", "pyromaniac", "baker"):
        call = Call(call_id, Phase.NIGHT, 1, call_kinds()[call_id])
        narrator.begin(call)
        narrator.end(call, Step(call, None))
    for call_id in ("buildings", "farmers", "confessor", "bone_setter", "barber", "schoolteacher", "barkeeper",
                    "noble", "bailiff", "vagabond"):
        narrator.begin(Call(call_id, Phase.DAY, 1, call_kinds()[call_id], seats=(3,)))
    for key, values in VILLAGE_FACTS.items():
        narrator.fact(Fact(key, values))
    for cause in ("barber", "execution"):  # the fire's victim is told at dawn, with the night's
        narrator.fact(Fact("death", {"seat": 2, "role": "werewolf", "cause": cause}))
        narrator.fact(Fact("death", {"seat": 2, "role": None, "cause": cause}))
    assert len(lines) == 3 * 2 + 10 + len(VILLAGE_FACTS) + 4
    assert all(line.channel == VOICE and line.text and "{" not in line.text for line in lines)
    causes = load_voice(language).causes
    assert all(isinstance(causes.get(c), str) for c in ("barber", "execution", "fire"))
    assert not any(line.key.startswith("death.other") for line in lines)


def test_bad_buildings_are_named_with_their_file_line_and_key(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Nothing lost, bad input: every mistake in `buildings` is a clear message naming file, line and key."""
    deck = "deck: [werewolf, villager, villager, villager, villager, werewolf]\n"
    cases = {"buildings: 3\n": "buildings: expected the Village's building tokens",
             "buildings: [noble, noble]\n": "2 'noble' tokens: a village holds one",
             "buildings: {9: baker}\n": "seat 9 is not at this table of 6",
             "buildings: [farmer, farmer, farmer, farmer, farmer, farmer, farmer]\n": "one a seat at most",
             "buildings: [bakr]\n": "did you mean 'baker'?"}
    for i, (text, message) in enumerate(cases.items()):
        path = tmp_path / f"t{i}.yaml"
        path.write_text(deck + text, encoding="utf-8")
        assert main(["check", str(path)]) == 1
        err = capsys.readouterr().err
        assert f"t{i}.yaml:2" in err and message in err, err
    script = tmp_path / "s.yaml"
    script.write_text("table: {sheriff: false, buildings: [baker]}\n"
                      "deal: {1: werewolf, 2: villager, 3: villager, 4: villager, 5: villager, 6: werewolf,\n"
                      "       buildings: {7: baker}}\nanswers: []\n", encoding="utf-8")
    assert main(["check", str(script)]) == 1
    assert "there is no seat 7 at this table of 6" in capsys.readouterr().err
    script.write_text("table: {sheriff: false, buildings: [baker]}\n"
                      "deal: {1: werewolf, 2: villager, 3: villager, 4: villager, 5: villager, 6: werewolf}\n"
                      "answers: []\n", encoding="utf-8")
    assert main(["check", str(script)]) == 1
    assert "give deal: buildings: {seat: token}" in capsys.readouterr().err


def test_barkeeper_cannot_be_chosen_by_the_big_bad_wolf_either() -> None:
    """'酒保既不会被狼人消灭': the Big Bad Wolf cannot name him either, refused on the screen."""
    roles = ["big_bad_wolf", "villager", "villager", "villager", "villager", "villager", "werewolf", "villager"]
    game = village(roles, {3: "barkeeper"})
    drive(game, ("werewolves", 4))
    reach(game, "big_bad_wolf")
    refusal = refused(game, 3)
    assert refusal.key == "refusal.barkeeper" and refusal.secret


def test_barkeepers_ballot_counts_for_its_own_vote_only() -> None:
    """Barred the next day, the Barkeeper casts no ballot: yesterday's does not cost him his token."""
    game = village(EIGHT, {3: "barkeeper", 4: "schoolteacher"})
    drive(game, ("werewolves", 8), ("schoolteacher", None), ("barkeeper", 6), ("vote", None),
          ("werewolves", 2), ("schoolteacher", [3]), ("vote", 6))
    assert made(game, "barkeeper", 2, Phase.DAY) is None
    assert 3 not in game.spent and eliminated(game)[-1] == (6, "vote")


def test_the_pact_order_calls_the_raven_the_pyromaniac_and_the_baker_in_its_places() -> None:
    """The Pact: 12. 乌鸦, 13. 纵火狂, (14. 守卫, 15. 狼人), 17. 面包师快速睁眼，然后闭眼, then the Witch."""
    roles = ["raven", "werewolf", "pyromaniac", "guard", "witch", "seer", "werewolf", "villager"]
    game = village(roles, {8: "baker"}, profile="pact")
    drive(game, ("seer", 2), ("raven", None), ("pyromaniac", None), ("guard", None), ("werewolves", 8))
    ids = [c.id for c in game.calls if c.phase is Phase.NIGHT and c.number == 1]
    assert ids == ["nightfall", "seer", "raven", "pyromaniac", "guard", "werewolves", "baker", "witch"]
