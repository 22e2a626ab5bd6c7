"""Kokoro's English phonemes (narrator/speak/kokoro_en.py): misaki's lexicons read as data, numbers spelled out,
espeak-ng's IPA (the real program) for a word the lexicons lack, and never a sign the model does not know.

No model here: the real renders and the judge are in tests/test_kokoro.py (the audio lane).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from narrator.config import load_config
from narrator.play import STARTER
from narrator.speak import kokoro_backend as kokoro
from narrator.speak.ahead import lines_ahead, said_keys
from narrator.speak.kokoro_en import English, espeak_to_misaki, number_words
from narrator.voices import load_voice, placeholders
from test_kokoro import EXAMPLES


class Espeak:
    """The espeak-ng program, noting the words it was asked for."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, text: str, voice: str) -> str:
        self.asked.append(text)
        return kokoro._espeak_ipa(text, voice)


@pytest.fixture(scope="module")
def english() -> English:
    return English(Espeak())


def unknown_signs(phonemes: str) -> set[str]:
    return set(phonemes) - set(kokoro.vocabulary())


def test_the_narrators_words_come_from_misakis_lexicon_not_espeak_ng() -> None:
    espeak = Espeak()
    said = English(espeak)("The Seer wakes up and points at a player.")
    assert said == "ðə sˈɪɹ wˈAks ˌʌp ænd pˈYnts æt ɐ plˈAəɹ."  # "wakes": the lexicon's wake and its -s
    assert espeak.asked == []


def test_weak_forms_follow_the_next_word() -> None:
    phonemes = English(Espeak())
    assert phonemes("the eyes").startswith("ði ") and phonemes("the night").startswith("ðə ")
    assert phonemes("to open").startswith("tʊ ") and phonemes("to sleep").startswith("tə ")


def test_suffixes_of_words_the_lexicon_holds() -> None:
    phonemes = English(Espeak())
    assert phonemes("voted") == "vˈOɾᵻd"  # the American flap
    assert phonemes("eliminated").endswith("ɾᵻd")
    assert phonemes("Witch's") == "wˈɪʧᵻz"


def test_numbers_are_said_as_words(english: English) -> None:
    assert english("Seat 7.") == english("Seat seven.") == "sˈit sˈɛvən."
    assert english("21 players") == english("twenty-one players")
    voice = load_voice("en")
    for number in range(1, 100):  # as the voice file writes every number it may say
        assert number_words(number) == voice.numbers[number], number


def test_a_name_the_lexicons_lack_is_read_by_espeak_ng_in_kokoros_signs() -> None:
    espeak = Espeak()
    said = English(espeak)("Siobhan, wake up.")
    assert espeak.asked == ["Siobhan"]
    assert said.startswith("ʃɪvˈɔn,") and not unknown_signs(said)
    assert espeak_to_misaki("ˈaɪ ˈeɪ ˈaʊ ˈɔɪ ˈoʊ ɚ ɜː dʒ tʃ") == "ˈI ˈA ˈW ˈY ˈO əɹ ɜɹ ʤ ʧ"


def test_every_english_line_name_and_seat_has_only_signs_the_model_knows(english: English) -> None:
    """Every line the English starter tables may say (the examples' and the built-in one, with their players'
    names), every line of the voice file (placeholders filled), every character's name and seats 1 to 20: phonemes
    the model knows, within its length, each clause something to say."""
    voice = load_voice("en")
    texts = list(lines_ahead(voice, STARTER.table.seats, STARTER.names, STARTER.table.deck, STARTER.table))
    for path in sorted(EXAMPLES.glob("*-en.yaml")):
        config = load_config(str(path))[0] if "practice" not in path.name else None
        if config is not None:
            texts += lines_ahead(voice, config.table.seats, config.names, config.table.deck, config.table)
    values = {"seat": 4, "seats": [2, 5], "role": "witch", "first": "seer", "second": "hunter", "count": 2,
              "number": 3, "cause": "vote", "answer": voice.seat(7)}
    texts += [voice.spoken(voice.text(key, {name: values.get(name, 1) for name in placeholders(voice.lines[key])}))
              for key in said_keys(voice)]
    texts += [voice.role(role) for role in voice.roles] + [voice.seat(seat) for seat in range(1, 21)]
    clauses = dict.fromkeys(clause for text in dict.fromkeys(texts) for clause, _ in kokoro.clauses(text))
    assert len(clauses) > 300
    for clause in clauses:
        said = english(clause)
        assert said and not unknown_signs(said), (clause, said)
        assert len(said) <= kokoro.MAX_TOKENS, clause


def test_punctuation_stays_as_kokoros_marks_for_its_pauses(english: English) -> None:
    said = english("Seat four, wake up! «Really?» Yes…")
    assert said.count(",") == 1 and "!" in said and "?" in said and said.endswith("…")
    assert "«" not in said and "»" not in said


def test_misakis_english_module_and_spacy_are_never_imported() -> None:
    """misaki's English G2P imports spaCy, which downloads its model at run time: only its lexicons are read."""
    code = ("import sys\nfrom narrator.speak.kokoro_backend import Phonemes\nprint(Phonemes('en')('The village.'))\n"
            "print(sorted(m for m in sys.modules if m.startswith(('misaki', 'spacy', 'phonemizer'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    said, imported = done.stdout.splitlines()
    assert said == "ðə vˈɪlɪʤ." and imported == "[]"
