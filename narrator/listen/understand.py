"""Understanding: the words a vosk grammar may hear for a question, and what the recognised text answers.

Each language's voice file lists, under ``asr:``, the forms a small vosk model writes for every answer
(seat numbers, yes, no, done, undo, repeat, none), the words said around a seat number, and a few
distractors. From them come the grammar of a question (only what can answer it) and the snapping of
recognised text to one allowed answer, or to nothing.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Union

from engine import MAX_SEATS

from ..errors import UserError
from ..voices import voice_document
from ..yamlfile import Document

WORDS = ("yes", "no", "done", "undo", "repeat", "none")
"""The answers that are not seats, by the keys the voice files give their forms under."""

Answer = Union[int, str]
"""A seat number, or one of WORDS."""

_Meaning = Union[int, str, None]  # None: a word that answers nothing (a distractor, "number" alone)

_UNK = re.compile(r"\[unk\]|<unk>", re.IGNORECASE)
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_LETTER = rf"(?:(?![{_CJK}])\w)"
# A Chinese character is a unit on its own, because the model's segmentation varies (二十一, 二十 一,
# 二 十 一 are one answer); other scripts split on spaces and hyphens (vingt-et-un, vingt et un).
_UNIT = re.compile(rf"[{_CJK}]|{_LETTER}+(?:'{_LETTER}+)*")


def units(text: str) -> tuple[str, ...]:
    """Returns ``text`` as the units understanding compares: lower case, accents, [unk] and punctuation gone.

    >>> units("Vingt-et-un [unk]"), units("二十 一号"), units("C’est  répété")
    (('vingt', 'et', 'un'), ('二', '十', '一', '号'), ("c'est", 'repete'))
    """
    text = _UNK.sub(" ", text).lower().replace("\u2019", "'")
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return tuple(_UNIT.findall(unicodedata.normalize("NFC", bare)))


@dataclass(frozen=True)
class Vocabulary:
    """One language's spoken forms of every answer, as its vosk model writes them (space-separated words)."""

    language: str
    numbers: Mapping[int, tuple[str, ...]]
    """Each seat's forms ("twenty one"; "vingt et un", "vingt-et-un"; "二十一", "二十 一")."""
    words: Mapping[str, tuple[str, ...]]
    """The forms of yes, no, done, undo, repeat and none, by those names."""
    prefixes: tuple[str, ...] = ()
    """Said before a seat number: "number", « joueur »."""
    suffixes: tuple[str, ...] = ()
    """Said after a seat number: 「号」."""
    glued: bool = False
    """Whether a suffix may also be written joined to the number, as Chinese words are (七号)."""
    distractors: tuple[str, ...] = ()
    """Common words that answer nothing, so that chatter is not forced onto an answer."""
    source: str = "the vocabulary"
    """Where the vocabulary comes from (a voice file), for messages."""
    meanings: Mapping[tuple[str, ...], _Meaning] = field(init=False, repr=False, compare=False)
    """What each known sequence of units means (answers, and None for words that answer nothing)."""

    def __post_init__(self) -> None:
        meanings: dict[tuple[str, ...], _Meaning] = {}

        def add(form: str, meaning: _Meaning) -> None:
            key = units(form)
            if not key:
                raise UserError(f"{self.source}: the form {form!r} ({_label(meaning)}) has no word in it")
            if meaning != meanings.setdefault(key, meaning):
                raise UserError(f"{self.source}: {form!r} is a form of both {_label(meanings[key])} and "
                                f"{_label(meaning)}; keep it under one of them")

        for word in self.words:
            if word not in WORDS:
                raise UserError(f"{self.source}: {word!r} is no answer; the answers are {', '.join(WORDS)}")
        for form in (*self.prefixes, *self.suffixes, *self.distractors):
            add(form, None)
        for seat in self.numbers:
            for phrase in seat_phrases(self, seat):
                add(phrase, seat)
        for word, forms in self.words.items():
            for form in forms:
                add(form, word)
        object.__setattr__(self, "meanings", meanings)


def _label(meaning: _Meaning) -> str:
    if meaning is None:
        return "the words that answer nothing (prefixes, suffixes, distractors)"
    return f"seat {meaning}" if isinstance(meaning, int) else repr(meaning)


@dataclass(frozen=True)
class Allowed:
    """What may answer the running question: some seats, and some of WORDS."""

    seats: tuple[int, ...] = ()
    words: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        unknown = [w for w in self.words if w not in WORDS]
        if unknown:
            raise ValueError(f"not answers: {', '.join(unknown)}; the answers are {', '.join(WORDS)}")

    @classmethod
    def anything(cls, seats: int = MAX_SEATS) -> Allowed:
        """Returns what allows every seat from 1 to ``seats`` and every word."""
        return cls(tuple(range(1, seats + 1)), WORDS)

    def permits(self, answer: Answer) -> bool:
        """Says whether ``answer`` may answer."""
        return answer in self.seats if isinstance(answer, int) else answer in self.words


def seat_phrases(vocab: Vocabulary, seat: int) -> list[str]:
    """Returns every phrase that names ``seat``: each form alone, after a prefix, before a suffix.

    >>> seat_phrases(Vocabulary("zh", {7: ("七",)}, {}, suffixes=("号",), glued=True), 7)
    ['七', '七 号', '七号']
    """
    phrases = []
    for form in vocab.numbers.get(seat, ()):
        for prefix in ("", *vocab.prefixes):
            head = f"{prefix} {form}" if prefix else form
            phrases.append(head)
            for suffix in vocab.suffixes:
                phrases.append(f"{head} {suffix}")
                if vocab.glued:
                    phrases.append(head + suffix)
    return _unique(phrases)


def phrases(vocab: Vocabulary, allowed: Allowed) -> list[str]:
    """Returns every phrase that can answer: the grammar of the question (the backend adds "[unk]").

    >>> phrases(load_vocabulary("en"), Allowed((7,), ("yes",)))
    ['seven', 'number seven', 'seat seven', 'player seven', 'seat number seven', 'player number seven', 'yes', 'yeah', 'yep', 'correct']
    """
    found = [phrase for seat in allowed.seats for phrase in seat_phrases(vocab, seat)]
    found += [form for word in allowed.words for form in vocab.words.get(word, ())]
    return _unique(found)


def distractor_phrases(vocab: Vocabulary, known: Callable[[str], bool] | None = None) -> list[str]:
    """Returns the distractors to add to every grammar; only those whose words are all ``known``, if given."""
    return [d for d in vocab.distractors if known is None or all(known(w) for w in d.split())]


def understand(vocab: Vocabulary, text: str, allowed: Allowed | None = None) -> Answer | None:
    """Snaps recognised ``text`` to the one allowed answer it says: a seat number or one of WORDS.

    Returns None when nothing fits: silence, an unknown word, two different answers, an answer not
    allowed, only words that answer nothing — and whenever [unk] or a distractor
    was heard: with a closed grammar, chatter is forced onto grammar words, and a distractor or [unk]
    is the sign of it (the answer is asked again). Stray prefixes are ignored; case, accents, hyphens
    and the spacing of Chinese words do not matter.

    >>> en = load_vocabulary("en")
    >>> understand(en, "number seven"), understand(en, "[unk] no one"), understand(en, "seven eight")
    (7, None, None)
    >>> understand(en, "seven", Allowed((3, 4)))
    """
    if _UNK.search(text) or _has_distractor(vocab, units(text)):
        return None
    found = _answers(vocab, units(text))
    if found is None or len(found) != 1:
        return None
    answer = found.pop()
    return answer if allowed is None or allowed.permits(answer) else None


def _has_distractor(vocab: Vocabulary, heard: tuple[str, ...]) -> bool:
    """Returns whether a distractor phrase was heard."""
    for phrase in vocab.distractors:
        words = units(phrase)
        n = len(words)
        if n and any(heard[i:i + n] == words for i in range(len(heard) - n + 1)):
            return True
    return False


def _answers(vocab: Vocabulary, heard: tuple[str, ...]) -> set[Answer] | None:
    """Returns the answers said in ``heard``, longest phrase first; None if a word is unknown."""
    longest = max(map(len, vocab.meanings), default=0)
    answers: set[Answer] = set()
    start = 0
    while start < len(heard):
        for end in range(min(len(heard), start + longest), start, -1):
            if heard[start:end] in vocab.meanings:
                meaning = vocab.meanings[heard[start:end]]
                if meaning is not None:
                    answers.add(meaning)
                start = end
                break
        else:
            return None
    return answers


def check_vocabulary(vocab: Vocabulary, allowed: Allowed, known: Callable[[str], bool]) -> list[str]:
    """Returns the phrases of ``allowed`` whose every word the model knows (``known``).

    ``known(word)`` is ``model.vosk_model_find_word(word) >= 0`` with vosk, which silently drops the
    words it lacks. An allowed answer left with no form the model knows is a UserError naming it.
    """
    cache: dict[str, bool] = {}  # a word recurs in many phrases; ask the model once

    def knows(phrase: str) -> bool:
        words = phrase.split()
        cache.update((w, known(w)) for w in words if w not in cache)
        return all(cache[w] for w in words)

    kept: list[str] = []
    answers: list[tuple[str, list[str]]] = [(f"seat {s} (asr: numbers: {s})", seat_phrases(vocab, s))
                                            for s in allowed.seats]
    answers += [(f"{w!r} (asr: {w})", list(vocab.words.get(w, ()))) for w in allowed.words]
    for label, forms in answers:
        good = [form for form in forms if knows(form)]
        if not good:
            tried = f"none of {', '.join(repr(f) for f in forms)}" if forms else "no form is given"
            raise UserError(f"{vocab.source}: the speech model cannot hear {label}: {tried}; "
                            "add a form made of words the model knows")
        kept += good
    return _unique(kept)


def load_vocabulary(language: str) -> Vocabulary:
    """Loads the ``asr:`` section of ``voices/<language>.yaml``; a malformed one is a UserError naming the key.

    >>> load_vocabulary("fr").numbers[21]
    ('vingt et un', 'vingt-et-un')
    """
    return vocabulary_from(voice_document(language), language)


def vocabulary_from(doc: Document, language: str) -> Vocabulary:
    """Reads a vocabulary from a voice file's document (its ``asr:`` mapping)."""
    data = doc.data.get("asr") if isinstance(doc.data, dict) else None
    if not isinstance(data, dict):
        raise UserError(f"{doc.where('asr')}: the key 'asr' (the words speech recognition listens for) "
                        "is missing or not a mapping")

    def forms(value: object, *path: object, empty: bool = True) -> tuple[str, ...]:
        place, name = doc.where("asr", *path), ": ".join(str(k) for k in ("asr", *path))
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise UserError(f"{place}: '{name}' must be a list of words in quotes, like [\"a\", \"b c\"] "
                            "(bare yes, no, on and off are read as true and false)")
        if not value and not empty:
            raise UserError(f"{place}: '{name}' needs at least one form")
        return tuple(" ".join(v.split()) for v in value)

    for key in data:
        if isinstance(key, bool):
            raise UserError(f"{doc.where('asr', key)}: write the keys \"yes\" and \"no\" in quotes "
                            "(bare, YAML reads them as true and false)")
    for key in ("numbers", "prefixes", "suffixes", "glued", *WORDS, "distractors"):
        if key not in data:
            raise UserError(f"{doc.where('asr')}: the key 'asr: {key}' is missing")
    numbers = data["numbers"]
    if not isinstance(numbers, dict) or not all(isinstance(k, int) and not isinstance(k, bool) and k > 0
                                                for k in numbers):
        raise UserError(f"{doc.where('asr', 'numbers')}: 'asr: numbers' maps seat numbers to lists of forms")
    if not isinstance(data["glued"], bool):
        raise UserError(f"{doc.where('asr', 'glued')}: 'asr: glued' is true or false")
    return Vocabulary(
        language=language,
        numbers={seat: forms(numbers[seat], "numbers", seat, empty=False) for seat in sorted(numbers)},
        words={word: forms(data[word], word, empty=False) for word in WORDS},
        prefixes=forms(data["prefixes"], "prefixes"),
        suffixes=forms(data["suffixes"], "suffixes"),
        glued=data["glued"],
        distractors=forms(data["distractors"], "distractors"),
        source=doc.path,
    )


def understand_command(language: str, texts: list[str]) -> list[dict[str, Answer | None]]:
    """Returns, for ``werewolf-narrator understand``, each text with its answer, every seat and word allowed.

    >>> understand_command("zh", ["七 号", "你好"])
    [{'text': '七 号', 'answer': 7}, {'text': '你好', 'answer': None}]
    """
    vocab = load_vocabulary(language)
    return [{"text": text, "answer": understand(vocab, text, Allowed.anything())} for text in texts]


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
