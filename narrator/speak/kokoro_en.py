"""Kokoro's English phonemes: misaki's lexicons for the words they hold, espeak-ng's IPA for the others.

Kokoro-82M v1.0 was trained on misaki's English phoneme set (IPA with ``A I W Y O`` for the diphthongs eɪ aɪ aʊ
ɔɪ oʊ, ``ᵊ`` for a reduced vowel, ``ɾ`` for the American flap…). misaki's own English G2P imports spaCy, which
downloads a model at run time, so it is never imported; but the misaki wheel ships its American lexicons as data
(``misaki/data/us_gold.json``, then ``us_silver.json``: word → phonemes in that set, Apache-2.0), read here as
JSON. The narrator's lines are a closed vocabulary the lexicons hold; a word they lack (a player's name) is said
by the espeak-ng program's ``en-us`` IPA, mapped onto the same set. Numbers are spelled out first.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
from pathlib import Path
from typing import Callable

# misaki's American phonemes, and the marks Kokoro reads for its pauses and intonation: nothing else is said.
SIGNS = frozenset("AIOWYbdfhijklmnpstuvwzæðŋɑɔəɛɜɡɪɹɾʃʊʌʒʔʤʧˈˌθᵊᵻ")
MARKS = frozenset(';:,.!?—…"“”()')
# Marks Kokoro does not know, as the one it does that makes the same pause.
MARK_AS = {"«": "“", "»": "”", "„": "“", "‘": "", "’": "", "–": "—", "/": ",", "&": ""}
# A word (letters, with the apostrophes and hyphens inside it), a number, or one mark.
TOKEN = re.compile(r"[^\W\d_](?:[^\W\d_]|['’](?=[^\W\d_])|-(?=[^\W\d_]))*|\d+|[^\w\s]")
# espeak-ng's en-us IPA → misaki's set, longest first: its diphthongs as Kokoro's single signs, its r-coloured
# vowels as a vowel and ɹ, its length marks dropped (misaki's American set has none), the signs it never uses.
ESPEAK = (("ɚɹ", "əɹ"), ("ɝɹ", "ɜɹ"), ("ɜːɹ", "ɜɹ"), ("ɜː", "ɜɹ"), ("ɝ", "ɜɹ"), ("ɚ", "əɹ"),
          ("eɪ", "A"), ("aɪ", "I"), ("aʊ", "W"), ("ɔɪ", "Y"), ("oʊ", "O"), ("əʊ", "O"),
          ("tʃ", "ʧ"), ("dʒ", "ʤ"), ("ɪ̈", "ᵻ"), ("n̩", "ᵊn"), ("l̩", "ᵊl"), ("m̩", "ᵊm"),
          ("ː", ""), ("ˑ", ""), ("r", "ɹ"), ("ɐ", "ə"), ("ɒ", "ɑ"), ("a", "æ"), ("e", "ɛ"), ("o", "O"),
          ("x", "k"), ("ɬ", "l"), ("ɫ", "l"), ("ʲ", "j"), ("g", "ɡ"), ("ç", "h"), ("ɣ", "ɡ"), ("ɨ", "ᵻ"),
          ("y", "ju"), ("ø", "ʊ"), ("œ", "ʊ"), ("ʁ", "ɹ"), ("ɲ", "nj"), ("ʎ", "lj"), ("c", "k"), ("q", "k"))
VOWELS = frozenset("AIOWYaeiouæɑɔəɛɜɪʊʌᵊᵻ")
ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(number: int) -> str:
    """Returns ``number`` (0 to 999,999,999) as English words, as the voice file writes them (no "and").

    >>> number_words(7), number_words(20), number_words(42), number_words(1305)
    ('seven', 'twenty', 'forty-two', 'one thousand three hundred five')
    """
    if number < 20:
        return ONES[number]
    if number < 100:
        return TENS[number // 10] + (f"-{ONES[number % 10]}" if number % 10 else "")
    for size, name in ((1_000_000, "million"), (1000, "thousand"), (100, "hundred")):
        if number >= size:
            head, rest = divmod(number, size)
            if head >= 1000:
                break
            return f"{number_words(head)} {name}" + (f" {number_words(rest)}" if rest else "")
    return " ".join(ONES[int(digit)] for digit in str(number))  # a longer number, digit by digit


def misaki_data() -> Path | None:
    """Returns the misaki package's data folder, found without importing misaki (its English module imports spaCy),
    or None if it is not installed."""
    try:
        spec = importlib.util.find_spec("misaki")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "data"
    return folder if (folder / "us_gold.json").is_file() else None


@functools.lru_cache(maxsize=1)
def lexicon() -> dict[str, str]:
    """Returns misaki's American lexicon, gold over silver: word → phonemes (a word said differently by its part
    of speech keeps its DEFAULT); read once, on first use. Raises OSError or ValueError if it cannot be read."""
    folder = misaki_data()
    if folder is None:
        raise OSError("misaki's English lexicons are not installed")
    words: dict[str, str] = {}
    for name in ("us_silver.json", "us_gold.json"):  # gold last: it wins
        for word, said in json.loads((folder / name).read_text(encoding="utf-8")).items():
            chosen = said.get("DEFAULT") if isinstance(said, dict) else said
            if isinstance(chosen, str) and chosen:
                words[word] = chosen
    return words


def espeak_to_misaki(ipa: str) -> str:
    """Returns espeak-ng's en-us IPA in misaki's signs; any sign left that Kokoro's English does not know is dropped.

    >>> espeak_to_misaki("mˈælɚɹi"), espeak_to_misaki("ʃɪvˈɔːn"), espeak_to_misaki("tʃˈɜːtʃ")
    ('mˈæləɹi', 'ʃɪvˈɔn', 'ʧˈɜɹʧ')
    """
    for said, kokoro in ESPEAK:
        ipa = ipa.replace(said, kokoro)
    return " ".join("".join(sign for sign in word if sign in SIGNS) for word in ipa.split())


class English:
    """Turns an English clause into Kokoro's phonemes; ``espeak(text, voice)`` gives espeak-ng's IPA for a word the
    lexicons lack (the espeak-ng program, run per word and remembered)."""

    def __init__(self, espeak: Callable[[str, str], str]) -> None:
        self._espeak = espeak
        self._words = lexicon()
        self._unknown: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        tokens = [t for t in TOKEN.findall(text) if t.strip()]
        tokens = [word for t in tokens for word in (number_words(int(t)).split() if t.isdigit() else [t])]
        said: list[str] = []
        for index, token in enumerate(tokens):
            if not token[0].isalpha():
                mark = MARK_AS.get(token, token)
                if mark in MARKS and said:
                    said[-1] += mark  # Kokoro reads a mark after its word, unspaced, as misaki writes it
                elif mark in MARKS:
                    said.append(mark)
                continue
            following = next((t for t in tokens[index + 1:] if t[0].isalpha()), "")
            phonemes = self.word(token, following)
            if phonemes:
                said.append(phonemes)
        return " ".join(said)

    def word(self, word: str, following: str = "") -> str:
        """Returns one word's phonemes; ``following``, the next word, chooses the weak forms of "the", "a", "to"."""
        lower = word.lower().replace("’", "'")
        before_vowel = bool(following) and self._starts_with_vowel(following)
        if lower == "the":
            return "ði" if before_vowel else "ðə"
        if lower == "a" and word != "A":
            return "ɐ"
        if lower == "an":
            return "ɐn"
        if lower == "to":
            return "tʊ" if before_vowel else "tə"
        if word == "I":
            return "ˌI"
        found = self.lookup(word)
        if found is not None:
            return found
        if "-" in word:  # "Wolf-Father": each part, as the lexicons have them
            return " ".join(self.word(part) for part in word.split("-") if part)
        return self.guess(word)

    def lookup(self, word: str) -> str | None:
        """Returns the lexicons' phonemes for ``word`` (as written, in lower case, or by a suffix's rule on a word
        they hold: -s, -'s, -ed, -ing), or None."""
        words = self._words
        for form in dict.fromkeys((word, word.lower(), word.lower().replace("’", "'"))):
            if form in words:
                return words[form]
        lower = word.lower().replace("’", "'")
        if lower.endswith("'s") and lower[:-2] in words:
            return _plural(words[lower[:-2]])
        if lower.endswith("s") and len(lower) > 2:
            for stem in (lower[:-1], lower[:-2] if lower.endswith("es") else "",
                         lower[:-3] + "y" if lower.endswith("ies") else ""):
                if stem in words:
                    return _plural(words[stem])
        if lower.endswith("ed") and len(lower) > 3:
            for stem in (lower[:-1], lower[:-2], lower[:-3] if lower[-3:-2] == lower[-4:-3] else ""):
                if stem in words:
                    return _past(words[stem])
        if lower.endswith("ing") and len(lower) > 4:
            for stem in (lower[:-3], lower[:-3] + "e", lower[:-4] if lower[-4:-3] == lower[-5:-4] else ""):
                if stem in words:
                    said = words[stem]
                    return (said[:-1] + "ɾ" if said[-1] == "t" and said[-2:-1] in VOWELS else said) + "ɪŋ"
        return None

    def guess(self, word: str) -> str:
        """Returns espeak-ng's American reading of a word the lexicons lack, in misaki's signs."""
        if word not in self._unknown:
            self._unknown[word] = espeak_to_misaki(self._espeak(word, "en-us"))
        return self._unknown[word]

    def _starts_with_vowel(self, word: str) -> bool:
        found = self.lookup(word)
        sound = (found or self.guess(word)).lstrip("ˈˌ")
        return bool(sound) and sound[0] in VOWELS


def _plural(stem: str) -> str:
    """The -s ending after ``stem``'s last sound: s after a voiceless one, ᵻz after a hiss, z after the others."""
    if stem[-1] in "ptkfθ":
        return stem + "s"
    if stem[-1] in "szʃʒʧʤ":
        return stem + "ᵻz"
    return stem + "z"


def _past(stem: str) -> str:
    """The -ed ending after ``stem``'s last sound: t after a voiceless one, ᵻd after t or d (a flap after a vowel's
    t), d after the others."""
    if stem[-1] in "pkfθʃsʧ":
        return stem + "t"
    if stem[-1] == "t" and len(stem) > 1 and stem[-2] in VOWELS:
        return stem[:-1] + "ɾᵻd"  # the American flap: "voted", vˈOɾᵻd
    if stem[-1] in "td":
        return stem + "ᵻd"
    return stem + "d"
