"""Lines worded as the rulebook words them (issue 13): each fix rendered in the three languages."""

from __future__ import annotations

import io

import pytest

from engine import ROLES, Call, Game
from helpers import Printed, drive, new_game
from keystrokes import ScriptedKeys
from narrator.asking import KeypadAnswers
from narrator.voices import load_voice

NAMES = ("Ann", "Bruno", "Chloé")


@pytest.mark.parametrize(("language", "role", "shown"), [
    ("en", "cupid", "You are Cupido."), ("en", "witch", "You are the Witch."),
    ("en", "werewolf", "You are a Simple Werewolf."),
    ("fr", "witch", "Vous êtes la Sorcière."), ("fr", "cupid", "Vous êtes Cupidon."),
    ("fr", "elder", "Vous êtes l’Ancien."), ("fr", "hunter", "Vous êtes le Chasseur."),
    ("zh", "witch", "你是女巫。"), ("zh", "cupid", "你是丘比特。"),
])
def test_a_player_is_told_their_character_with_the_rulebooks_article(language: str, role: str, shown: str) -> None:
    """"You are the Cupido" and « Vous êtes Sorcière » were wrong: the name takes the article the rulebook gives
    it (Cupido, Cupidon: none; a card of which the village has several: "a")."""
    assert load_voice(language).text("deal.app_show", {"role": role}).startswith(shown)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_character_has_its_name_with_an_article(language: str) -> None:
    """Every character of the rules (the buildings' and the Sheriff too) is named with its article in en and
    fr: none falls back to the bare name in "You are …"."""
    voice = load_voice(language)
    assert set(voice.named_roles) == set(voice.roles) >= set(ROLES) | {"sheriff"}
    assert all(voice.named_roles[r].endswith(voice.roles[r]) for r in voice.named_roles)


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Bruno, seat number two, is the Sheriff."),
    ("fr", "Bruno, joueur deux, devient Capitaine."),
    ("zh", "Bruno（二号）当选警长。"),
])
def test_a_named_seat_is_heard_as_one_before_its_verb(language: str, said: str) -> None:
    """« Bruno, joueur deux devient Capitaine » read "joueur deux" as the subject: the name and its seat are
    closed as one unit before the verb; a seat that ends its sentence, or one without a name, is unchanged."""
    voice = load_voice(language)
    assert voice.text("sheriff.elected", {"seat": 2}, NAMES) == said
    assert voice.text("sheriff.elected", {"seat": 2}) == voice.text("sheriff.elected", {"seat": 2}, (None, None))
    assert ",," not in voice.text("death.vote_hidden", {"seat": 2}, NAMES)
    assert not voice.text("sheriff_tiebreak.call", {"seats": [1, 2]}, NAMES).endswith(",.")


def test_the_ravens_mark_names_the_house_of_a_named_seat_whole() -> None:
    """The same fault in another line: "before Chloé, seat number three's house" split the unit with a possessive."""
    assert load_voice("en").text("raven.marked", {"seat": 3}, NAMES).startswith(
        "The Raven's mark stands before the house of Chloé, seat number three: two votes")


@pytest.mark.parametrize(("language", "must", "may"), [
    ("en", "eliminate another player", " may "), ("fr", "éliminez un autre joueur", "pouvez"),
    ("zh", "你必须开枪", "可以"),
])
def test_the_hunter_is_told_he_must_shoot(language: str, must: str, may: str) -> None:
    """Rulings: "whatever the cause of his elimination, he shoots immediately"; the engine refuses a pass, so
    the call never says he may (「你可以开枪」 did)."""
    line = load_voice(language).text("hunter.call")
    assert must in line and may not in line


@pytest.mark.parametrize(("language", "heal", "keep", "no_poison"), [
    ("en", "Save seat number two?", "Do not save seat number two?", "No poison?"),
    ("fr", "Sauver joueur deux ?", "Ne pas sauver joueur deux ?", "Pas de poison ?"),
    ("zh", "救二号？", "不救二号？", "不使用毒药？"),
])
def test_the_witchs_heal_is_read_back_as_saving_the_victim(language: str, heal: str, keep: str,
                                                            no_poison: str) -> None:
    """The Witch's heal was read back "Yes?": it is read back as what it does, for the victim shown to her,
    "Save seat number two?" (Backspace, then "Do not save seat number two?"), and her poison for nobody as "No poison?"."""
    game = new_game(["werewolf", "villager", "witch", "villager", "villager", "werewolf"])
    drive(game, ("werewolves", 2))
    assert game.call is not None and game.call.id == "witch"
    shown = io.StringIO()
    keys = ["1", "enter", "back", "0", "enter", "enter", "0", "enter", "enter"]
    answers = KeypadAnswers(ScriptedKeys(keys), Printed(shown), load_voice(language), say=lambda k, v: None,
                            repeat=lambda: None)
    assert answers.answer(game.call, game) == {"heal": False, "poison": None}
    text = shown.getvalue().replace("\xa0", " ")  # the screen keeps French spaces before ? unbroken
    assert heal in text and keep in text and no_poison in text
    assert load_voice(language).text("answer.yes") + "?" not in text.replace("？", "?")


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "Designate one player.", "Designate two players."),
    ("fr", "Désignez un joueur.", "Désignez deux joueurs."),
    ("zh", "请选择一名玩家。", "请选择两名玩家。"),
])
def test_a_count_of_one_is_said_in_the_singular(language: str, one: str, two: str) -> None:
    """"Designate one players": a count of one takes the line's singular (the Piper with one player left to
    charm); the counts map says the number ("one", « un », 一)."""
    voice = load_voice(language)
    assert voice.text("refusal.count", {"count": 1}) == one
    assert voice.text("refusal.count", {"count": 2}) == two
    assert voice.text("prompt.seats", {"count": 1}) == voice.text("prompt.seats_one")


def yes_then_no(game: Game, call: Call, language: str) -> str:
    """Answers yes at the keypad, takes it back at the read-back, answers no and confirms; returns what the screen
    showed (both read-backs)."""
    shown = io.StringIO()
    answers = KeypadAnswers(ScriptedKeys(["1", "enter", "back", "0", "enter", "enter"]), Printed(shown),
                            load_voice(language), say=lambda k, v: None, repeat=lambda: None)
    assert answers.answer(call, game) is False
    return shown.getvalue().replace("\xa0", " ")


@pytest.mark.parametrize(("language", "infect", "spare"), [
    ("en", "Infect seat number two?", "Do not infect seat number two?"),
    ("fr", "Infecter joueur deux ?", "Ne pas infecter joueur deux ?"),
    ("zh", "感染二号？", "不感染二号？"),
])
def test_the_infected_fathers_answer_is_read_back_as_infecting_the_victim(language: str, infect: str,
                                                                          spare: str) -> None:
    """The Witch's fault in another line: the Infected Father's yes was read back "Yes?" too; it reads back
    what it does to the victim the screen shows him."""
    game = new_game(["infected_father", "villager", "werewolf", "villager", "villager", "villager"])
    drive(game, ("werewolves", 2))
    assert game.call is not None and game.call.id == "infected_father"
    text = yes_then_no(game, game.call, language)
    assert infect in text and spare in text


@pytest.mark.parametrize(("language", "many", "few"), [
    ("en", "More than one candle went out?", "One candle at most went out?"),
    ("fr", "Plus d’une bougie s’est éteinte ?", "Une bougie au plus s’est éteinte ?"),
    ("zh", "不止一根蜡烛熄灭了？", "至多一根蜡烛熄灭了？"),
])
def test_the_candles_answer_is_read_back_as_what_the_table_saw(language: str, many: str, few: str) -> None:
    """The Witch's fault in the Moonlight option: the table's yes to "has more than one candle gone out?" was read
    back "Yes?", which tells the table nothing to check against the candles; it reads back what the table saw."""
    game = new_game(["werewolf", "villager", "villager", "villager", "werewolf", "villager"],
                    variants=("moonlight_wolves",))
    drive(game, ("werewolves", 3))
    assert game.call is not None and game.call.id == "candles"
    text = yes_then_no(game, game.call, language)
    assert many in text and few in text
    assert load_voice(language).text("answer.yes") + "?" not in text.replace("？", "?")


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_the_deal_card_says_once_how_to_hide_it(language: str) -> None:
    """The card read "…Remember it, then press Enter to hide your card." above the prompt "Press Enter to hide it.":
    the card names the character, the prompt alone says which key hides it."""
    voice = load_voice(language)
    card, hide = voice.text("deal.app_show", {"role": "seer"}), voice.text("prompt.hide_card")
    enter = {"en": "Enter", "fr": "Entrée", "zh": "回车"}[language]
    assert enter in hide and enter not in card and voice.role("seer") in card


SCREEN_WORDS = {"en": ("screen", "Enter"), "fr": ("écran", "Entrée"), "zh": ("屏幕", "回车")}
"""How each language names the screen and the Enter key in a line said."""


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_the_bakers_and_the_lovers_wake_lines_say_who_comes_to_the_screen(language: str) -> None:
    """"Baker, open your eyes, quickly." left the Baker wondering what to do, and the table waiting for an Enter nobody
    knew to press: who comes to the screen is named, and what to do there (the Baker presses Enter: nothing else to
    answer). The lovers' call already said it: they come to see whom they are bound to."""
    voice = load_voice(language)
    screen, enter = SCREEN_WORDS[language]
    baker, lovers = voice.text("baker.wake"), voice.text("lovers.wake")
    assert voice.role("baker") in baker.split(",")[0]  # named first: « Le Boulanger ouvre les yeux »
    assert screen in baker and enter in baker
    assert screen in lovers


def test_the_rules_say_the_baker_comes_to_the_screen_and_presses_enter() -> None:
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    paragraph = page[page.index("The Baker is a building token"):].split("\n\n")[0]
    assert "comes to the screen and presses Enter" in " ".join(paragraph.split())
