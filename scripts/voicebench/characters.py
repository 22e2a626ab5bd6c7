"""The French and Chinese lines scored against what the judge heard: characters normalised alike on both sides
(numbers in words, Chinese numerals, simplified characters), character errors, and for Chinese toneless pinyin
syllable errors."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Iterable

from .words import align, normalise


_FR_UNITS = ("zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize dix-sept "
             "dix-huit dix-neuf").split()
_FR_TENS = "_ dix vingt trente quarante cinquante soixante soixante quatre-vingt quatre-vingt".split()


def french_cardinal(n: int) -> str:
    """Returns ``n`` (0 to 999,999,999) in French words, hyphens as the 1990 spelling joins them.

    >>> french_cardinal(21), french_cardinal(71), french_cardinal(80), french_cardinal(92), french_cardinal(200)
    ('vingt-et-un', 'soixante-et-onze', 'quatre-vingts', 'quatre-vingt-douze', 'deux-cents')
    """
    if n < 20:
        return _FR_UNITS[n]
    if n < 100:
        tens, unit = divmod(n, 10)
        if tens in (7, 9):
            tens, unit = tens - 1, unit + 10
        head = _FR_TENS[tens]
        if unit == 0:
            return head + ("s" if n == 80 else "")
        return f"{head}-{'et-' if unit in (1, 11) and tens < 8 else ''}{_FR_UNITS[unit]}"
    for size, name in ((1_000_000, "million"), (1000, "mille"), (100, "cent")):
        if n >= size:
            count, rest = divmod(n, size)
            words = name if count == 1 and size < 1_000_000 else f"{french_cardinal(count)}-{name}"
            if count > 1 and rest == 0 and size != 1000:
                words += "s"
            return words + ("" if rest == 0 else "-" + french_cardinal(rest))
    raise AssertionError(n)


def french_ordinal(n: int, feminine: bool = False) -> str:
    """Returns ``n`` as a French ordinal ("premier", "vingt-et-unième").

    >>> french_ordinal(1), french_ordinal(1, True), french_ordinal(5), french_ordinal(9), french_ordinal(21)
    ('premier', 'première', 'cinquième', 'neuvième', 'vingt-et-unième')
    """
    if n == 1:
        return "première" if feminine else "premier"
    head, _, last = french_cardinal(n).removesuffix("s").rpartition("-")  # quatre-vingts: quatre-vingtième
    last = {"cinq": "cinqu", "neuf": "neuv"}.get(last, last).removesuffix("e")
    return (head + "-" if head else "") + last + "ième"


_CN_DIGITS = "零一二三四五六七八九"


def chinese_number(n: int) -> str:
    """Returns ``n`` (0 to 99,999,999) in Chinese numerals, as the voice file writes seats ("二十一", "十二").

    >>> chinese_number(7), chinese_number(12), chinese_number(20), chinese_number(105), chinese_number(2026)
    ('七', '十二', '二十', '一百零五', '二千零二十六')
    """
    if n < 10:
        return _CN_DIGITS[n]
    if n < 20:
        return "十" + ("" if n == 10 else _CN_DIGITS[n - 10])
    if n >= 10_000:
        head, rest = divmod(n, 10_000)
        return chinese_number(head) + "万" + ("" if rest == 0 else ("零" if rest < 1000 else "") + _small(rest))
    return _small(n)


def _small(n: int) -> str:
    out, zero = "", False
    for size, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = n // size % 10
        if digit:
            out += ("零" if zero and out else "") + _CN_DIGITS[digit] + unit
            zero = False
        else:
            zero = True
    return out


def simplified(text: str) -> str:
    """Returns ``text`` in simplified characters: Whisper may write what it hears in traditional ones (號 for 号)."""
    from opencc import OpenCC  # type: ignore[import-untyped]

    global _OPENCC
    if _OPENCC is None:
        _OPENCC = OpenCC("t2s")
    return str(_OPENCC.convert(text))


_OPENCC: Any = None


def characters(text: str, language: str) -> list[str]:
    """Returns the characters of ``text`` as the character error rate compares them: no case, punctuation or space,
    numbers in words (French) or Chinese numerals (Chinese: 7号 is 七号), Chinese in simplified characters."""
    text = unicodedata.normalize("NFKC", text).lower().replace("’", "'")
    if language == "zh":
        text = simplified(text)
        text = re.sub(r"\d{1,8}", lambda m: chinese_number(int(m.group())), text)
    elif language == "fr":
        text = text.replace("œ", "oe").replace("æ", "ae")  # Sœur, soeur
        text = re.sub(r"(?<=\d)[  .](?=\d{3}\b)", "", text)  # 1 000
        text = re.sub(r"\b(\d{1,9})(?:er|re|ère|e|ème|nd|nde)\b",
                      lambda m: " " + french_ordinal(int(m.group(1)), m.group().endswith(("re", "nde"))) + " ", text)
        text = re.sub(r"\d{1,9}", lambda m: " " + french_cardinal(int(m.group())) + " ", text)
    else:
        return list("".join(normalise(text)))
    return [c for c in text if c.isalpha() or c.isdigit()]


def pinyin(text: str) -> list[str]:
    """Returns the toneless pinyin syllables of ``text`` (normalised as `characters`): a homophone the judge writes
    is no error. Whisper sometimes writes what it hears in Latin letters ("Shen Fen" for 身份): a Latin word made of
    pinyin syllables counts as those syllables; any other Latin letter is a syllable of its own ("T", the key).

    >>> pinyin("九号 Shen Fen Shilifa, T键")
    ['jiu', 'hao', 'shen', 'fen', 'shi', 'li', 'fa', 't', 'jian']
    """
    from pypinyin import Style, lazy_pinyin

    text = unicodedata.normalize("NFKC", text).lower().replace("ü", "v")
    text = re.sub(r"\d{1,8}", lambda m: chinese_number(int(m.group())), text)
    found: list[str] = []
    for word in re.findall(r"[a-z]+|[^\W\d_a-z]+", text):  # Latin words, and runs of characters
        if word.isascii():
            found += pinyin_syllables(word) or list(word)
        else:
            said = lazy_pinyin("".join(characters(word, "zh")), style=Style.NORMAL,
                               errors=lambda chunk: " ".join(chunk))
            found += [syllable for item in said for syllable in item.split()]
    return found


_SYLLABLES: frozenset[str] = frozenset()


def pinyin_syllables(word: str) -> list[str] | None:
    """Returns ``word`` (lower-case Latin letters) cut into the fewest toneless pinyin syllables, or None when it is
    not made of them.

    >>> pinyin_syllables("shilifa"), pinyin_syllables("xian"), pinyin_syllables("kill")
    (['shi', 'li', 'fa'], ['xian'], None)
    """
    global _SYLLABLES
    if not _SYLLABLES:
        from pypinyin.pinyin_dict import pinyin_dict

        _SYLLABLES = frozenset("".join(c for c in unicodedata.normalize("NFD", said).replace("u\u0308", "v")
                                       if not unicodedata.combining(c))
                               for value in pinyin_dict.values() for said in value.split(","))
    best: list[list[str] | None] = [[]] + [None] * len(word)  # best[i]: the fewest syllables that make word[:i]
    for end in range(1, len(word) + 1):
        for start in range(max(0, end - 6), end):
            head = best[start]
            if head is not None and word[start:end] in _SYLLABLES:
                if best[end] is None or len(head) + 1 < len(best[end] or ()):
                    best[end] = head + [word[start:end]]
    return best[-1]


@dataclass
class Scored:
    """One line said by one backend in French or Chinese, what the judge heard and how it told the language."""

    text: str
    heard: str
    characters: int
    errors: int
    syllables: int
    syllable_errors: int
    probability: float
    detected: str


def score(text: str, heard: str, language: str, probability: float = 0.0, detected: str = "") -> Scored:
    """Compares a line with its transcript: character errors, and in Chinese toneless pinyin syllable errors."""
    reference = characters(text, language)
    errors = align(reference, characters(heard, language))[0]
    syllables = syllable_errors = 0
    if language == "zh":
        said = pinyin(text)
        syllables, syllable_errors = len(said), align(said, pinyin(heard))[0]
    return Scored(text, heard, len(reference), errors, syllables, syllable_errors, probability, detected)


def cer(results: Iterable[Scored]) -> float:
    """Returns the character error rate of ``results``: all their character errors over all their characters."""
    items = list(results)
    return sum(r.errors for r in items) / max(1, sum(r.characters for r in items))


def syllable_error_rate(results: Iterable[Scored]) -> float:
    """Returns the toneless pinyin syllable error rate of ``results``."""
    items = list(results)
    return sum(r.syllable_errors for r in items) / max(1, sum(r.syllables for r in items))
