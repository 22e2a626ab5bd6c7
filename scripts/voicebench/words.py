"""The English lines scored against what the judge heard: words normalised alike on both sides (numbers and
ordinals in words), word errors, and the seat numbers heard in their place."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from narrator.speak.kokoro_en import ONES as _UNITS
from narrator.speak.kokoro_en import TENS as _TENS
from narrator.speak.kokoro_en import number_words
_ORDINALS = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
             "nine": "ninth", "twelve": "twelfth"}
NUMBER_WORDS = frozenset(_UNITS) | frozenset(_TENS[2:])


def cardinal(n: int) -> str:
    """Returns ``n`` (0 to 999,999,999) in English words, as the voice file says numbers: no "and", no hyphen.

    >>> cardinal(7), cardinal(21), cardinal(105), cardinal(2026)
    ('seven', 'twenty one', 'one hundred five', 'two thousand twenty six')
    """
    return number_words(n).replace("-", " ")


def ordinal(n: int) -> str:
    """Returns ``n`` as an ordinal in words ("twenty first").

    >>> ordinal(1), ordinal(12), ordinal(20), ordinal(23)
    ('first', 'twelfth', 'twentieth', 'twenty third')
    """
    words = cardinal(n).split()
    last = words[-1]
    words[-1] = _ORDINALS.get(last) or (last[:-1] + "ieth" if last.endswith("y") else last + "th")
    return " ".join(words)


def normalise(text: str) -> list[str]:
    """Returns the words of ``text`` as the word error rate compares them: lower case, no punctuation, no
    apostrophe, hyphens and letter-digit joins split, numbers and ordinals in words ("C2" is "c two")."""
    text = text.lower().replace("’", "'")
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)  # 1,000
    text = re.sub(r"\b(\d{1,9})(st|nd|rd|th)\b", lambda m: " " + ordinal(int(m.group(1))) + " ", text)
    text = re.sub(r"\d{1,9}", lambda m: " " + cardinal(int(m.group())) + " ", text)
    text = text.replace("'", "")
    return re.sub(r"[^a-z0-9]+", " ", text).split()


def align(reference: Sequence[str], heard: Sequence[str]) -> tuple[int, list[int | None]]:
    """Returns the word errors (substitutions, deletions, insertions) from ``reference`` to ``heard``, and for each
    reference word the index of the heard word it matched exactly, or None (substituted or deleted).

    >>> align("seat two is out".split(), "c two is out now".split())
    (2, [None, 1, 2, 3])
    """
    rows, cols = len(reference), len(heard)
    cost = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(rows + 1):
        cost[i][0] = i
    for j in range(cols + 1):
        cost[0][j] = j
    for i in range(1, rows + 1):
        for j in range(1, cols + 1):
            same = reference[i - 1] == heard[j - 1]
            cost[i][j] = min(cost[i - 1][j - 1] + (0 if same else 1), cost[i - 1][j] + 1, cost[i][j - 1] + 1)
    matched: list[int | None] = [None] * rows
    i, j = rows, cols
    while i > 0 and j > 0:  # back through the table, a match first: the words kept are those the listener got
        if reference[i - 1] == heard[j - 1] and cost[i][j] == cost[i - 1][j - 1]:
            matched[i - 1] = j - 1
            i, j = i - 1, j - 1
        elif cost[i][j] == cost[i - 1][j - 1] + 1:
            i, j = i - 1, j - 1
        elif cost[i][j] == cost[i - 1][j] + 1:
            i -= 1
        else:
            j -= 1
    return cost[rows][cols], matched


def anchor(wording: str) -> str:
    """Returns the word said just before the seat's number in a seat wording ("seat" in "{name}, seat {number}")."""
    before = normalise(wording.split("{number}")[0].replace("{name}", " "))
    if not before:
        raise ValueError(f"{wording!r}: a seat wording names the seat with a word before its number")
    return before[-1]


def seat_mentions(reference: Sequence[str], word: str) -> list[list[int]]:
    """Returns the positions of the number of each seat mention in ``reference``: the number words after ``word``.

    >>> seat_mentions("the winners seat one seat twenty one and seat number".split(), "seat")
    [[3], [5, 6]]
    """
    found = []
    for i, token in enumerate(reference[:-1]):
        if token == word:
            run = []
            for k in range(i + 1, len(reference)):
                if reference[k] not in NUMBER_WORDS:
                    break
                run.append(k)
            if run:
                found.append(run)
    return found


@dataclass
class Heard:
    """One line said by one backend and what the judge heard."""

    text: str
    heard: str
    words: int
    errors: int
    seats: int
    seats_heard: int


def judge(text: str, heard: str, word: str) -> Heard:
    """Compares a line with its transcript: word errors, and the seat mentions (after ``word``) whose number came
    back in its place."""
    reference, got = normalise(text), normalise(heard)
    errors, matched = align(reference, got)
    mentions = seat_mentions(reference, word)
    kept = sum(all(matched[k] is not None for k in run) for run in mentions)
    return Heard(text, heard, len(reference), errors, len(mentions), kept)


def wer(results: Iterable[Heard]) -> float:
    """Returns the word error rate of ``results``: all their word errors over all their reference words."""
    items = list(results)
    return sum(r.errors for r in items) / max(1, sum(r.words for r in items))


def seat_share(results: Iterable[Heard]) -> tuple[int, int]:
    """Returns how many seat mentions came back right, and how many there were."""
    items = list(results)
    return sum(r.seats_heard for r in items), sum(r.seats for r in items)
