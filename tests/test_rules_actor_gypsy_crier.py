"""The Actor, the Gypsy and the Town Crier (the Chinese article: 演员, 吉普赛人, 公告员; the New Moon's
séance and event cards; docs/rules.md's call order: the Actor first after the Thief, the Gypsy after the Witch;
the article's day order: 3. the séance, 4. the Town Crier)."""

from __future__ import annotations

import io
from typing import Any

import pytest

from engine import Answer, Game, Kind, Phase
from engine.calls import call_kinds
from helpers import (
    Hears,
    call_ids,
    drive,
    eliminated,
    made,
    made_once,
    narrate,
    new_game,
    play_keys,
    reach,
    refused,
    said,
)
from keystrokes import ScriptedKeys, keys_for
from narrator.asking import KeypadAnswers
from narrator.config import Findings, config_from_journal, journal_table, read_table
from narrator.narration import VOICE, Line
from narrator.screen import PlainScreen
from narrator.voices import load_voice
from narrator.yamlfile import parse

NO_POTION = {"heal": False, "poison": None}


# -- the Actor -------------------------------------------------------------------------------------

ACTING = ["actor", "werewolf", "villager", "villager", "villager", "villager", "werewolf", "villager"]
CARDS = ["seer", "hunter", "witch"]


def acting(**rules: Any) -> Game:
    return new_game(ACTING, actor_cards=CARDS, **rules)


def test_actor_is_called_every_night_first_after_the_thief() -> None:
    """docs/rules.md: `thief`, then `actor`, every night; he answers the card's place, 1 to 3, or null."""
    game = new_game(["thief", *ACTING], ["villager", "villager"], actor_cards=CARDS)
    assert call_ids(game)[-1] == "nightfall"
    drive(game, ("thief", None))
    call = reach(game, "actor")
    assert call.actors == (2,) and call.kind is Kind.NUMBER and call.picks == 3 and call.optional
    assert call_kinds()["actor"] is Kind.NUMBER
    drive(game, ("actor", None), ("werewolves", 4), ("vote", None))
    assert call_ids(game, "night", 2)[:2] == ["nightfall", "actor"]


def test_actor_sees_the_middle_on_the_screen() -> None:
    """The three face-up cards are public; those awake see them with their places."""
    game = acting()
    call = reach(game, "actor")
    assert [(f.key, f.values["cards"], f.secret) for f in call.facts] == [("actor.middle", CARDS, True)]


def test_actor_takes_a_card_and_is_called_at_its_call_that_night() -> None:
    """The seed: 'the Actor gains that character's power': taking the Seer, he looks at a card that night."""
    game = acting()
    step = drive(game, ("actor", 1))[0]
    assert [(f.key, f.values["role"]) for f in step.facts] == [("actor.takes", "seer")]
    call = reach(game, "seer")
    assert call.live and call.actors == (1,)
    step = drive(game, ("seer", 2))[0]
    assert [(f.key, dict(f.values)) for f in step.facts] == [("seer.sees", {"seat": 2, "role": "werewolf"})]


def test_cards_of_the_middle_are_called_for_fair_play_when_nobody_holds_them() -> None:
    """A card of the middle may be the Actor's: its call is made every night, for fair play when he has
    not taken it, so the words never tell whether he did."""
    game = acting()
    drive(game, ("actor", None), ("werewolves", 4))
    for card in ("seer", "witch"):
        call = made_once(game, card, 1)
        assert not call.live


def test_actors_card_leaves_the_middle() -> None:
    """The seed: 'the card is removed from the table': the same place cannot be taken again (public)."""
    game = acting()
    drive(game, ("actor", 1), ("seer", 3), ("werewolves", 4), ("vote", None))
    assert game.middle == [None, "hunter", "witch"]
    reach(game, "actor")
    error = refused(game, 1)
    assert error.key == "refusal.card_gone" and not error.secret
    for bad in (0, 4, "two", [1]):
        assert refused(game, bad).key == "refusal.shape"


def test_actors_power_lasts_until_the_next_night_begins() -> None:
    """'the Actor has that power until the next night begins': the next night, taking nothing, the Seer's
    call is made for fair play only."""
    game = acting()
    drive(game, ("actor", 1), ("seer", 3), ("werewolves", 4), ("vote", None), ("actor", None))
    assert game.lent == {}
    drive(game, ("werewolves", 5))
    assert not made_once(game, "seer", 2).live


def test_actor_as_hunter_shoots_the_next_day() -> None:
    """The Hunter's power, taken at night, lasts through the next day: voted out, he shoots."""
    game = acting()
    drive(game, ("actor", 2), ("werewolves", 4), ("vote", 1))
    call = reach(game, "hunter")
    assert call.actors == (1,)
    drive(game, ("hunter", 2))
    assert eliminated(game) == [(4, "werewolves"), (1, "vote"), (2, "hunter")]


def test_actor_as_hunter_shoots_when_devoured_that_night() -> None:
    """Devoured the night he took the Hunter, he shoots at dawn."""
    game = acting()
    drive(game, ("actor", 2), ("werewolves", 1), ("hunter", 7))
    assert eliminated(game) == [(1, "werewolves"), (7, "hunter")]


def test_actor_no_longer_shoots_once_the_next_night_began() -> None:
    """Devoured the night after, without the Hunter's card, he does not shoot."""
    game = acting()
    drive(game, ("actor", 2), ("werewolves", 4), ("vote", None), ("actor", None), ("werewolves", 1))
    assert game.call is not None and game.call.id != "hunter"
    assert eliminated(game) == [(4, "werewolves"), (1, "werewolves")]


def test_actor_as_witch_has_her_own_fresh_potions() -> None:
    """The Witch's card from the middle comes with both potions: he sees the victim and may save them."""
    game = acting()
    drive(game, ("actor", 3), ("werewolves", 4))
    call = reach(game, "witch")
    assert call.live and call.actors == (1,)
    assert call.facts[0].values["potions"] == ["heal", "poison"]
    drive(game, ("witch", {"heal": True, "poison": None}))
    assert eliminated(game) == []


def test_actor_as_guard_protects_from_the_werewolves() -> None:
    """The Guard's card: his protection stops that night's bite."""
    game = new_game(ACTING, actor_cards=["guard", "fox", "seer"])
    drive(game, ("actor", 1), ("guard", 4), ("werewolves", 4))
    assert eliminated(game) == []


def test_actor_as_fox_sniffs() -> None:
    """The Fox's card: he is told whether a werewolf sits among three neighbours."""
    game = new_game(ACTING, actor_cards=["guard", "fox", "seer"])
    drive(game, ("actor", 2))
    step = drive(game, ("werewolves", 4), ("fox", 3))[1]
    assert [(f.key, f.values["werewolf"]) for f in step.facts] == [("fox.sign", True)]


def test_eliminated_actor_is_called_for_fair_play() -> None:
    """docs/rules.md, fair play: an eliminated Actor is still called, and his answer is ignored."""
    game = acting()
    drive(game, ("actor", None), ("werewolves", 1), ("vote", None))
    assert not made_once(game, "actor", 2).live


def test_actor_with_no_card_left_is_called_for_fair_play() -> None:
    """Once the three cards have left the middle, his call is made with the same words, answer ignored."""
    game = acting()
    drive(game, ("actor", 1), ("seer", None), ("werewolves", 4), ("vote", None),
          ("actor", 2), ("werewolves", 5), ("vote", None),
          ("actor", 3), ("werewolves", 6), ("witch", NO_POTION), ("vote", None))
    assert game.middle == [None, None, None]
    assert not made_once(game, "actor", 4).live


def test_actor_loses_his_power_with_the_elders_penalty() -> None:
    """A villager's special power: after the Elder's penalty the Actor's call is made for fair play only."""
    game = new_game(["actor", "werewolf", "elder", "villager", "villager", "villager", "werewolf", "villager"],
                    actor_cards=CARDS)
    drive(game, ("actor", None), ("werewolves", 4), ("vote", 3))
    assert not made_once(game, "actor", 2).live


@pytest.mark.parametrize("cards, problem", [
    ((), "the Actor needs actor_cards"),
    (("seer", "witch"), "the Actor needs actor_cards"),
    (("seer", "witch", "werewolf"), "is a werewolf card"),
    (("seer", "witch", "big_bad_wolf"), "is a werewolf card"),
    (("seer", "witch", "cupid"), "cannot play"),
    (("seer", "witch", "seer"), "named twice"),
    (("seer", "witch", "villager"), "cannot play"),
    (("seer", "witch", "nobody"), "unknown character"),
])
def test_actor_cards_are_three_unused_cards_with_powers_never_werewolves(cards: tuple[str, ...],
                                                                         problem: str) -> None:
    """The seed: three cards with powers, never werewolves, from the unused cards; without them, no game."""
    with pytest.raises(ValueError, match=problem):
        new_game(ACTING, actor_cards=cards)


def test_actor_cards_come_from_the_unused_cards() -> None:
    """The seed: the narrator picks them 'from the unused character cards': never a card of the deck."""
    with pytest.raises(ValueError, match="'seer' is in the deck"):
        new_game(["actor", "werewolf", "seer", *ACTING[3:]], actor_cards=CARDS)


def test_actor_cards_without_an_actor_are_refused() -> None:
    with pytest.raises(ValueError, match="no Actor"):
        new_game(["werewolf", *ACTING[1:]], actor_cards=CARDS)


def test_which_card_the_actor_takes_is_never_heard() -> None:
    """The Actor's identity is secret: whether he takes a card, and which, sounds the same aloud."""
    def actor_game(first: list[tuple[str, Answer]]) -> list[Line]:
        return narrate(acting(), [*first, ("werewolves", 4), ("vote", 2), ("actor", None), ("werewolves", 5),
                                  ("vote", 7)])

    took_seer = actor_game([("actor", 1), ("seer", 2)])
    took_none = actor_game([("actor", None)])
    voice = [[line.text for line in lines if line.channel == VOICE] for lines in (took_seer, took_none)]
    assert voice[0] == voice[1]
    assert [line.text for line in took_seer if line.channel != VOICE] != \
        [line.text for line in took_none if line.channel != VOICE]


# -- the Gypsy ------------------------------------------------------------------------------------

GYPSY = ["gypsy", "werewolf", "villager", "villager", "villager", "villager", "werewolf", "villager"]
SEANCE = {"card": 2, "question": 3, "asker": 5}


def test_gypsy_is_called_every_night_after_the_witch() -> None:
    """docs/rules.md: `witch`, then `gypsy`, then `fox`; her answer is {card, question, asker} or null."""
    game = new_game([*GYPSY[:-1], "witch", "fox", "villager"])
    drive(game, ("werewolves", 4), ("witch", NO_POTION))
    call = reach(game, "gypsy")
    assert call.actors == (1,) and call.kind is Kind.SEANCE and call.optional
    assert call_kinds()["gypsy"] is Kind.SEANCE
    nights = call_ids(game, "night", 1)
    assert nights.index("witch") < nights.index("gypsy") and nights[-1] == "gypsy"
    drive(game, ("gypsy", None), ("fox", None), ("vote", None), ("werewolves", 5), ("witch", NO_POTION))
    assert made_once(game, "gypsy", 2).live


def test_seance_takes_place_the_next_morning_after_the_victims() -> None:
    """The seed: 'the next morning the chosen player reads the chosen question aloud, and the first player
    eliminated answers yes or no' — after the victims (the article's day order, 3.)."""
    game = new_game(GYPSY)
    drive(game, ("werewolves", 4), ("gypsy", SEANCE))
    day = call_ids(game, "day", 1)
    assert day[:2] == ["dawn", "seance"]
    seance = made_once(game, "seance", 1, Phase.DAY)
    assert [(f.key, dict(f.values)) for f in seance.facts] == [
        ("seance.numbers", {"asker": 5, "card": 2, "question": 3, "spirit": 4})]


def test_seance_follows_the_bears_growl() -> None:
    """The article's day order: 2. the bear growls, 3. the séance."""
    game = new_game(["gypsy", "werewolf", "bear_tamer", "villager", "villager", "villager", "werewolf",
                     "villager"])
    drive(game, ("werewolves", 6), ("gypsy", SEANCE))
    assert call_ids(game, "day", 1)[:3] == ["dawn", "growl", "seance"]


def test_seance_reads_the_question_when_the_table_gives_the_texts() -> None:
    """With `seance_cards`, the narrator reads the chosen question itself."""
    texts = [[f"Card {c}, question {q}?" for q in range(1, 4)] for c in range(1, 6)]
    game = new_game(GYPSY, seance_cards=texts)
    drive(game, ("werewolves", 4), ("gypsy", SEANCE))
    (fact,) = made_once(game, "seance", 1, Phase.DAY).facts
    assert fact.key == "seance.read" and fact.values["text"] == "Card 2, question 3?"


def test_seance_question_must_be_on_the_card() -> None:
    """A question beyond the card's is refused (public: the texts are the table's)."""
    texts = [["Yes?", "No?"]] * 5
    game = new_game(GYPSY, seance_cards=texts)
    drive(game, ("werewolves", 4))
    reach(game, "gypsy")
    error = refused(game, SEANCE)
    assert error.key == "refusal.no_such_question" and not error.secret
    assert refused(game, {**SEANCE, "question": 10, "card": 1}).key == "refusal.no_such_question"
    assert refused(game, {**SEANCE, "card": 6}).key == "refusal.shape"
    assert refused(game, {**SEANCE, "question": 1, "asker": 99}).key == "refusal.no_such_seat"
    assert refused(game, {"card": 1}).key == "refusal.no_such_question"
    assert refused(game, 3).key == "refusal.shape"


def test_each_seance_card_is_used_once() -> None:
    """Each séance card once: the same card another night is refused, publicly (it was read aloud)."""
    game = new_game(GYPSY)
    drive(game, ("werewolves", 4), ("gypsy", SEANCE), ("vote", None), ("werewolves", 5))
    reach(game, "gypsy")
    error = refused(game, SEANCE)
    assert error.key == "refusal.seance_used" and not error.secret
    drive(game, ("gypsy", {**SEANCE, "card": 1}))


def test_seance_waits_while_nobody_is_eliminated() -> None:
    """Ruling taken: with nobody eliminated yet no spirit answers; the card is not spent."""
    game = new_game(GYPSY)
    drive(game, ("werewolves", None), ("gypsy", SEANCE))
    (fact,) = made_once(game, "seance", 1, Phase.DAY).facts
    assert fact.key == "seance.no_spirit"
    drive(game, ("vote", None), ("werewolves", None), ("gypsy", SEANCE))
    assert made_once(game, "seance", 2, Phase.DAY).facts[0].key == "seance.no_spirit"


def test_the_spirit_is_the_first_player_eliminated() -> None:
    """'the first player eliminated answers' — the first of the game, not the last."""
    game = new_game(GYPSY)
    drive(game, ("werewolves", 4), ("gypsy", None), ("vote", 3), ("werewolves", 6), ("gypsy", SEANCE))
    (fact,) = made_once(game, "seance", 2, Phase.DAY).facts
    assert fact.values["spirit"] == 4


def test_a_spiritualist_eliminated_in_the_night_is_replaced_by_his_left_neighbour() -> None:
    """Ruling taken: the asker devoured that night is replaced by the nearest living player on his left."""
    game = new_game(GYPSY)
    drive(game, ("werewolves", 5), ("gypsy", SEANCE))
    (fact,) = made_once(game, "seance", 1, Phase.DAY).facts
    assert fact.values["asker"] == 6 and fact.values["spirit"] == 5


def test_eliminated_gypsy_is_called_for_fair_play() -> None:
    """docs/rules.md, fair play: her call is still made, answer ignored."""
    game = new_game(GYPSY)
    drive(game, ("werewolves", 1), ("gypsy", None), ("vote", None), ("werewolves", 5))
    assert not made_once(game, "gypsy", 2).live


def test_gypsy_with_every_card_used_is_called_for_fair_play() -> None:
    """Five séance cards, each once: then her call is made with the same words, answer ignored."""
    game = new_game(GYPSY + ["villager"] * 4)
    drive(game, ("werewolves", 4), ("gypsy", None), ("vote", None))
    for card in range(1, 6):
        drive(game, ("werewolves", None), ("gypsy", {**SEANCE, "card": card}), ("vote", None))
    drive(game, ("werewolves", None))
    assert not made_once(game, "gypsy", 7).live


# -- the Town Crier -------------------------------------------------------------------------------

CRIER = ["werewolf", "villager", "villager", "villager", "villager", "villager", "werewolf", "villager"]


def crier_game(roles: list[str] = CRIER) -> Game:
    return new_game(roles, sheriff=True, town_crier=True)


def test_sheriff_names_the_town_crier_after_his_election() -> None:
    """The seed: 'the Sheriff names the Town Crier directly' — after the election, never himself."""
    game = crier_game()
    drive(game, ("sheriff_election", 3))
    call = reach(game, "town_crier_appoint")
    assert call.actors == (3,) and 3 not in call.seats and call.kind is Kind.SEAT
    assert refused(game, 3).key == "refusal.not_among"
    step = drive(game, ("town_crier_appoint", 5))[0]
    assert [(f.key, dict(f.values)) for f in step.facts] == [("town_crier.named", {"seat": 5})]


def test_no_town_crier_unless_the_table_wants_one() -> None:
    """Default false: he is not a card; `town_crier: true` brings him, and only with a Sheriff."""
    game = new_game(CRIER, sheriff=True)
    drive(game, ("sheriff_election", 3), ("werewolves", 4), ("vote", None))
    assert "town_crier_appoint" not in call_ids(game) and "town_crier" not in call_ids(game)
    with pytest.raises(ValueError, match="town_crier needs sheriff"):
        new_game(CRIER, town_crier=True)


def test_town_crier_may_announce_an_event_card_each_morning() -> None:
    """Each morning after the victims (day order 4., after the séance) he announces a card or none; the
    Sheriff's veto is a spoken reminder."""
    game = crier_game(["gypsy", *CRIER[1:]])
    drive(game, ("sheriff_election", 3), ("town_crier_appoint", 5), ("werewolves", 4), ("gypsy", SEANCE))
    assert call_ids(game, "day", 1)[:3] == ["dawn", "seance", "town_crier"]
    call = reach(game, "town_crier")
    assert call.actors == (5,) and call.kind is Kind.NUMBER and call.optional and call.picks == 36
    step = drive(game, ("town_crier", 12))[0]
    assert [f.key for f in step.facts] == ["town_crier.announces", "town_crier.veto"]
    assert step.facts[0].values == {"number": 12}
    drive(game, ("vote", None), ("werewolves", 6), ("gypsy", None))
    reach(game, "town_crier")
    assert refused(game, 12).key == "refusal.event_used"
    assert refused(game, 37).key == "refusal.shape"
    drive(game, ("town_crier", None))


def test_a_new_town_crier_is_named_when_the_crier_dies() -> None:
    """'When the Town Crier dies, the Sheriff names a new one.'"""
    game = crier_game()
    drive(game, ("sheriff_election", 3), ("town_crier_appoint", 5), ("werewolves", 5))
    call = reach(game, "town_crier_appoint")
    assert call.actors == (3,) and 5 not in call.seats
    drive(game, ("town_crier_appoint", 6))
    assert made_once(game, "town_crier", 1, Phase.DAY).actors == (6,)


def test_a_new_sheriff_names_his_town_crier_and_may_keep_him() -> None:
    """'A new Sheriff may choose a new Town Crier or keep him.'"""
    game = crier_game()
    drive(game, ("sheriff_election", 3), ("town_crier_appoint", 5), ("werewolves", 3),
          ("sheriff_successor", 2), ("town_crier_appoint", 5))
    assert said(game, "town_crier.named") == [{"seat": 5}, {"seat": 5}]
    assert made_once(game, "town_crier", 1, Phase.DAY).actors == (5,)


def test_a_town_crier_who_becomes_sheriff_names_another() -> None:
    """'If the Town Crier becomes Sheriff, he must name another Town Crier.'"""
    game = crier_game()
    drive(game, ("sheriff_election", 3), ("town_crier_appoint", 5), ("werewolves", 3),
          ("sheriff_successor", 5))
    call = reach(game, "town_crier_appoint")
    assert call.actors == (5,) and 5 not in call.seats


def test_town_crier_stays_without_a_sheriff() -> None:
    """Ruling taken: the Sheriff's office ending (the Idiot) leaves the Crier in office while he lives."""
    roles = ["idiot", *CRIER[1:]]
    game = crier_game(roles)
    drive(game, ("sheriff_election", 1), ("town_crier_appoint", 5), ("werewolves", 4), ("town_crier", None),
          ("vote", 1), ("werewolves", 6))
    assert game.sheriff is None
    assert made_once(game, "town_crier", 2, Phase.DAY).actors == (5,)


# -- the table config, the keypad, the voice files ----------------------------------------------------

def read(text: str) -> tuple[Any, Findings]:
    doc = parse(text, "table.yaml")
    found = Findings()
    return read_table(doc.data, doc, (), found), found


def test_config_reads_the_actor_cards_the_seance_cards_and_the_town_crier() -> None:
    """`actor_cards`, `seance_cards`, `town_crier`: read, checked and kept in the journal."""
    texts = "[" + ", ".join(['["Is it you?", "Were you a wolf?"]'] * 5) + "]"
    config, found = read("deck: [actor, gypsy, werewolf, werewolf, villager, villager, villager, villager]\n"
                         "actor_cards: [seer, hunter, witch]\n"
                         f"seance_cards: {texts}\n"
                         "town_crier: true\n")
    assert found.errors == []
    table = config.table
    assert table.actor_cards == ("seer", "hunter", "witch") and table.rules.town_crier
    assert table.seance_cards[4] == ("Is it you?", "Were you a wolf?")
    assert config_from_journal(journal_table(config), "journal").table == table


@pytest.mark.parametrize("text, where, problem", [
    ("deck: [actor, werewolf, werewolf, villager, villager, villager, villager, villager]\n", "table.yaml:1",
     "the Actor needs actor_cards"),
    ("deck: [actor, werewolf, werewolf, villager, villager, villager, villager, villager]\n"
     "actor_cards: [seer, werewolf, witch]\n", "table.yaml:2", "never werewolves"),
    ("deck: [actor, werewolf, werewolf, villager, villager, villager, villager, villager]\n"
     "actor_cards: seer\n", "table.yaml:2", "actor_cards: expected"),
    ("deck: [gypsy, werewolf, werewolf, villager, villager, villager, villager, villager]\n"
     "seance_cards: [[a], [b]]\n", "table.yaml:2", "5 cards are needed"),
    ("deck: [seer, werewolf, werewolf, villager, villager, villager, villager, villager]\n"
     "seance_cards: [[a], [b], [c], [d], [e]]\n", "table.yaml:2", "no Gypsy"),
    ("deck: [gypsy, werewolf, werewolf, villager, villager, villager, villager, villager]\n"
     "sheriff: false\ntown_crier: true\n", "table.yaml:3", "town_crier needs sheriff"),
    ("deck: [gypsy, werewolf, werewolf, villager, villager, villager, villager, villager]\n"
     "town_crier: 1\n", "table.yaml:2", "town_crier: expected true or false"),
])
def test_config_errors_name_the_key_and_the_line(text: str, where: str, problem: str) -> None:
    """Bad input: a clear message naming what and where, never a traceback."""
    config, found = read(text)
    assert config is None
    assert any(e.startswith(where) and problem in e for e in found.errors), found.errors


def keypad(keys: list[str]) -> KeypadAnswers:
    return KeypadAnswers(ScriptedKeys(keys), PlainScreen(io.StringIO()), load_voice("fr"),
                         say=lambda k, v: None, repeat=lambda: None)


def test_the_keypad_takes_the_actors_card_and_the_gypsys_three_numbers() -> None:
    """New answer shapes on the keypad: a card's place (0: none), and the séance's card, question, asker."""
    game = acting()
    call = reach(game, "actor")
    assert keys_for(call, 2) == ["2", "enter", "enter"]
    assert keypad(["4", "enter", "2", "enter", "enter"]).answer(call, game) == 2  # 4 is no card's place
    assert keypad(["0", "enter", "enter"]).answer(call, game) is None
    game = new_game(GYPSY)
    drive(game, ("werewolves", 4))
    call = reach(game, "gypsy")
    keys = keys_for(call, SEANCE)
    assert keys == ["2", "enter", "3", "enter", "5", "enter", "enter"]
    assert keypad(keys).answer(call, game) == SEANCE
    assert keypad(["2", "enter", "undo", "1", "enter", "3", "enter", "5", "enter", "enter"]).answer(call, game) \
        == {**SEANCE, "card": 1}
    assert keypad(["0", "enter", "enter"]).answer(call, game) is None


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_the_seance_and_the_crier_are_said_in_every_language(language: str) -> None:
    """The séance names the asker and the spirit as seats; the Crier's card by its number."""
    game = crier_game(["gypsy", *CRIER[1:]])
    lines = narrate(game, [("sheriff_election", 3), ("town_crier_appoint", 5), ("werewolves", 4),
                           ("gypsy", SEANCE), ("town_crier", 7), ("vote", 2), ("werewolves", 6),
                           ("gypsy", None), ("town_crier", None), ("vote", 7)], language)
    keys = [line.key for line in lines if line.channel == VOICE]
    for key in ("town_crier_appoint.call", "town_crier.named", "gypsy.wake", "seance.call", "seance.numbers",
                "town_crier.call", "town_crier.announces", "town_crier.veto"):
        assert key in keys, key
    voice = load_voice(language)
    seance = next(line.text for line in lines if line.key == "seance.numbers")
    assert voice.seat(5).lower() in seance.lower() and voice.seat(4) in seance and "{" not in seance
    assert made(game, "seance", 2, Phase.DAY) is None


@pytest.mark.parametrize("seed", range(4))
def test_a_whole_keypad_game_with_the_actor_the_gypsy_and_the_town_crier(seed: int, tmp_path: Any) -> None:
    """Deal, every call (the Actor's place, the Gypsy's three numbers, the Crier's card), the winner: the
    keypad game ends exactly as the same answers do in the engine."""
    from engine import Rules, Table
    from keystrokes import plan_keys
    from narrator.config import TableConfig
    from narrator.play import NewGame

    table = Table(10, ("actor", "gypsy", "werewolf", "werewolf", "seer", "villager", "villager", "villager",
                       "villager", "villager"), Rules(town_crier=True), actor_cards=("hunter", "witch", "guard"))
    config = TableConfig("fr", table, pause=(0.0, 0.0))
    keys, ahead = plan_keys(config, seed)
    game = play_keys(config, keys, seed=seed, start=NewGame(folder=tmp_path))
    assert game.outcome == ahead.outcome and game.eliminated == ahead.eliminated
    assert {"actor", "gypsy", "town_crier_appoint"} <= {c.id for c in game.calls}


def test_the_town_crier_may_answer_aloud() -> None:
    """A day answer may be spoken: "twelve" is read back as a card, not a seat; "nobody" announces none."""
    from narrator.hearing import PushbackKeys, VoiceAnswers
    from narrator.listen.understand import load_vocabulary

    game = crier_game()
    drive(game, ("sheriff_election", 3), ("town_crier_appoint", 5), ("werewolves", 4))
    call = reach(game, "town_crier")
    voice = load_voice("en")
    said: list[str] = []

    def answers(heard: list[str]) -> VoiceAnswers:
        return VoiceAnswers(Hears(heard), load_vocabulary("en"), PushbackKeys(ScriptedKeys([])),
                            say=lambda key, values: said.append(voice.text(key, values)), repeat=lambda: None,
                            seat_words=voice.seat, word=lambda w: voice.text(f"answer.{w}", {}),
                            card_words=lambda n: voice.text("answer.card", {"number": n}))

    assert answers(["twelve", "yes"]).answer(call) == 12
    assert said == ["Card twelve?"]  # the number said as a word, as it was heard
    assert answers(["nobody", "yes"]).answer(call) is None


def test_the_pact_order_calls_the_actor_second_and_the_gypsy_after_the_witch() -> None:
    """profile pact (the article's 第一夜 2. 叫醒演员 … 21. 叫醒吉普赛人): the same places as bestof's."""
    roles = ["thief", "actor", "gypsy", "werewolf", "villager", "villager", "witch", "werewolf", "villager"]
    game = new_game(roles, ["villager", "villager"], actor_cards=["seer", "fox", "guard"], profile="pact")
    drive(game, ("thief", None), ("actor", None), ("werewolves", 5), ("witch", NO_POTION), ("gypsy", None))
    night = call_ids(game, "night", 1)
    assert night[:3] == ["nightfall", "thief", "actor"]
    assert night.index("witch") + 1 == night.index("gypsy")
    assert night.index("seer") + 1 == night.index("fox")  # the pact: the Fox follows the Seer


def test_actor_as_knight_dooms_a_werewolf_when_devoured_that_night() -> None:
    """The Knight's card: devoured the night he took it, the first werewolf to his left dies of the rust."""
    game = new_game(ACTING, actor_cards=["knight", "bear_tamer", "seer"])
    drive(game, ("actor", 1), ("werewolves", 1), ("vote", None), ("werewolves", 4))
    assert eliminated(game) == [(1, "werewolves"), (2, "rust"), (4, "werewolves")]


def test_actor_as_bear_tamer_makes_the_bear_growl_the_next_morning() -> None:
    """The Bear Tamer's card: the next morning the bear growls if a werewolf is his neighbour; not after."""
    game = new_game(ACTING, actor_cards=["knight", "bear_tamer", "seer"])
    drive(game, ("actor", 2), ("werewolves", 4))
    assert made(game, "growl", 1, Phase.DAY) is not None
    drive(game, ("vote", None), ("actor", None), ("werewolves", 5))
    assert made(game, "growl", 2, Phase.DAY) is None
