"""The voice files agree key for key, placeholder for placeholder, and name every character."""

from __future__ import annotations

import string

import pytest
import yaml

from engine import MAX_SEATS, ROLES
from engine.deaths import NIGHT_ORDER
from narrator.narration import Line, Narrator
from narrator.voices import VOICES_DIR, declared_lines, languages, load_voice

LANGUAGES = languages()


def raw(language: str) -> dict:  # type: ignore[type-arg]
    with open(VOICES_DIR / f"{language}.yaml", encoding="utf-8") as f:
        return yaml.safe_load(f)  # type: ignore[no-any-return]


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_three_languages_have_voice_files() -> None:
    """French, English and Chinese: a file each."""
    assert {"en", "fr", "zh"} <= set(LANGUAGES)


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_voice_files_have_the_same_keys(language: str) -> None:
    """Key for key the same in every language, including the number words and the causes."""
    en, other = raw("en"), raw(language)
    assert set(other) == set(en)
    for part in ("lines", "roles", "numbers", "causes"):
        assert set(other[part]) == set(en[part]), part


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_voice_files_have_the_same_placeholders(language: str) -> None:
    """A line has the same placeholders in every language."""
    en, other = raw("en"), raw(language)
    for key, text in en["lines"].items():
        assert placeholders(other["lines"][key]) == placeholders(text), key
    for key in ("seat", "seat_named"):
        assert placeholders(other[key]) == placeholders(en[key]), key


def test_every_declared_line_is_in_every_voice_file() -> None:
    """The voice files hold every line the engine's declaration needs (engine/contract.py): the wake and sleep of
    each night call, the call line of each day call, each fact's lines."""
    needed = declared_lines()
    assert {"seer.wake", "seer.sleep", "vote.call", "screen.seer_sees", "dawn.no_victim",
            "screen.wolf_hound_drawn_wolf", "answer.no_infect", "stuttering_judge.open"} <= set(needed)
    for language in LANGUAGES:
        assert set(needed) <= set(raw(language)["lines"]), language


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_character_is_named(language: str) -> None:
    """Every character of the engine, and the Sheriff, has a name in every language."""
    names = raw(language)["roles"]
    for role in [*ROLES, "sheriff"]:
        assert isinstance(names.get(role), str) and names[role].strip(), role


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_number_is_spoken_as_a_word(language: str) -> None:
    """Seats 1 to 47, and every number the keypad's two digits type (a seat refused aloud, "There is no seat
    ninety-nine"; a card), are said as words of the language, given as data."""
    numbers = raw(language)["numbers"]
    assert sorted(numbers) == list(range(1, 100)) and MAX_SEATS < 100
    assert all(isinstance(w, str) and not any(c.isdigit() for c in w) for w in numbers.values())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_cause_of_death_is_named(language: str) -> None:
    """The summary names each cause in the language."""
    causes = raw(language)["causes"]
    for cause in [*NIGHT_ORDER, "vote", "hunter", "grief"]:
        assert causes.get(cause), cause


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_line_fills_without_a_missing_placeholder(language: str) -> None:
    """Every line renders with sample values: no placeholder left, no empty text."""
    voice = load_voice(language)
    sample: dict[str, object] = {"seat": 7, "seats": [3, 5], "role": "seer", "first": "werewolf",
                                 "second": "villager", "number": 2, "count": 2, "answer": "x", "call": "x",
                                 "potions": "x", "reason": "x", "when": "x", "cause": "vote",
                                 "cards": "x", "asker": "x", "spirit": "x", "text": "x", "question": 3,
                                 "card": 2, "largest": 3, "time": "4:59", "votes": "x", "result": "x",
                                 "command": "werewolf-narrator", "why": "no sound output device found",
                                 "voice": "x", "fallback": "x", "signal": "SIGKILL", "status": 3,
                                 "path": "game.md", "table": "x", "where": "x", "language": "en", "answers": 3,
                                 "rate": "90.0%", "games": "2,000", "model": "hunt", "low": "88.6%", "high": "91.2%",
                                 "fair_low": "25%", "fair_high": "75%", "stuck": "12", "share": "0.6%",
                                 "calls": "2,000", "name": "'Ann'", "other": 1, "other_name": "'Anne'",
                                 "pause": "[1, 2]", "floor": "5", "wolves": 3, "players": 8, "advised": 2,
                                 "given": "x", "expected": "x", "got": "x", "want": "x", "found": "x",
                                 "reader": "x", "medium": "x", "recent": "x", "questions": "x", "margin": "2.8%"}
    for key in voice.lines:
        text = voice.text(key, sample)
        assert text.strip() and "{" not in text, (key, text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_names_of_players_are_said_with_their_seat(language: str) -> None:
    """With names, a seat is said with the player's name and its number."""
    voice = load_voice(language)
    said = voice.seat(2, ("Ann", "Ben"))
    assert "Ben" in said and voice.numbers[2] in said


def test_a_narrator_line_keeps_its_key_and_channel() -> None:
    """Lines carry their key in the voice file and their channel."""
    lines: list[Line] = []
    Narrator(load_voice("en"), lines.append).line("nightfall.call", "voice")
    assert lines == [Line("nightfall.call", "voice",
                          "It is night, the whole village falls asleep, players close your eyes.")]


def test_words_the_synthesiser_mispronounces_are_replaced_for_speech_only() -> None:
    """zh: espeak-ng reads 长 in 警长 as cháng; the spoken text gets 警掌, the shown text keeps 警长."""
    voice = load_voice("zh")
    shown = voice.text("sheriff.elected", {"seat": 3})
    assert "警长" in shown and "警掌" in voice.spoken(shown) and "警长" not in voice.spoken(shown)
    assert load_voice("en").spoken("Sheriff") == "Sheriff"
