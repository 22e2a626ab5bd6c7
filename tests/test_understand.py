"""The grammar of a question and the snapping of what vosk heard to one answer.

The texts are written as the small vosk models write them: lower-case words separated by spaces,
French numbers with or without hyphens, Chinese in the model's own space-separated words.
"""

from __future__ import annotations

import json

import pytest

from engine import MAX_SEATS
from narrator.errors import UserError
from narrator.listen.understand import (
    WORDS,
    Allowed,
    Vocabulary,
    check_vocabulary,
    distractor_phrases,
    load_vocabulary,
    phrases,
    seat_phrases,
    understand,
    understand_command,
    vocabulary_from,
)
from narrator.yamlfile import parse

LANGUAGES = ("en", "fr", "zh")
EN, FR, ZH = (load_vocabulary(lang) for lang in LANGUAGES)
VOCABULARIES = {"en": EN, "fr": FR, "zh": ZH}
EVERYTHING = Allowed.anything()


def heard(vocab: Vocabulary, text: str, allowed: Allowed = EVERYTHING) -> int | str | None:
    return understand(vocab, text, allowed)


@pytest.mark.parametrize("text, seat", [
    ("seven", 7), ("number seven", 7), ("seat seven", 7), ("player seven", 7), ("player number seven", 7),
    ("twenty one", 21), ("number twenty one", 21), ("forty seven", 47), ("twenty", 20),
    ("  Number   SEVEN ", 7), ("twenty-one", 21),
])
def test_english_seats_are_heard_with_and_without_number(text: str, seat: int) -> None:
    """"number seven" and "seven" both mean seat 7; spacing and case do not matter."""
    assert heard(EN, text) == seat


@pytest.mark.parametrize("text, seat", [
    ("sept", 7), ("joueur sept", 7), ("le joueur sept", 7), ("numéro sept", 7), ("le sept", 7),
    ("numéro vingt-et-un", 21), ("numéro vingt et un", 21), ("vingt-et-un", 21), ("le joueur vingt et un", 21),
    ("dix-sept", 17), ("dix sept", 17), ("la joueuse quarante-deux", 42), ("quarante deux", 42),
    ("trente et un", 31), ("numero sept", 7),
])
def test_french_seats_are_heard_in_every_hyphenation(text: str, seat: int) -> None:
    """« joueur sept », « numéro vingt-et-un » and « vingt et un » mean their seat."""
    assert heard(FR, text) == seat


@pytest.mark.parametrize("text, seat", [
    ("七", 7), ("七号", 7), ("七 号", 7), ("七号 玩家", 7), ("七 号 玩家", 7), ("我 投 七号", 7),
    ("二十一", 21), ("二十 一", 21), ("二 十 一", 21), ("二 十一", 21), ("二十一号", 21), ("二 十 一 号", 21),
    ("十七", 17), ("十 七 号", 17), ("四十七号", 47), ("二十", 20),
])
def test_chinese_seats_are_heard_in_every_segmentation(text: str, seat: int) -> None:
    """「七号」 and 「七 号」 mean seat 7; 「二十一」「二十 一」「二 十 一」 all mean seat 21."""
    assert heard(ZH, text) == seat


@pytest.mark.parametrize("language, text, word", [
    ("en", "yes", "yes"), ("en", "yeah", "yes"), ("en", "no", "no"), ("en", "nope", "no"),
    ("en", "done", "done"), ("en", "that's all", "done"), ("en", "undo", "undo"), ("en", "go back", "undo"),
    ("en", "repeat", "repeat"), ("en", "say that again", "repeat"), ("en", "nobody", "none"),
    ("en", "no one", "none"),
    ("fr", "oui", "yes"), ("fr", "ouais", "yes"), ("fr", "non", "no"), ("fr", "c'est fini", "done"),
    ("fr", "terminé", "done"), ("fr", "annuler", "undo"), ("fr", "répète", "repeat"),
    ("fr", "répétez", "repeat"), ("fr", "personne", "none"), ("fr", "aucun", "none"),
    ("zh", "是", "yes"), ("zh", "是的", "yes"), ("zh", "是 的", "yes"), ("zh", "不是", "no"), ("zh", "不 要", "no"),
    ("zh", "好了", "done"), ("zh", "撤销", "undo"), ("zh", "再说 一遍", "repeat"), ("zh", "再 说 一 遍", "repeat"),
    ("zh", "没有人", "none"), ("zh", "没有 人", "none"), ("zh", "没 人", "none"),
])
def test_yes_no_done_undo_repeat_and_nobody_are_heard(language: str, text: str, word: str) -> None:
    """Yes, no, done, undo, repeat and nobody answer in every language."""
    assert heard(VOCABULARIES[language], text) == word


@pytest.mark.parametrize("language, text", [
    ("en", "seven eight"), ("en", "yes no"), ("en", "seven yes"), ("fr", "sept huit"), ("fr", "oui non"),
    ("zh", "七 八"), ("zh", "是 不是"), ("zh", "七号 八号"),
])
def test_two_different_answers_are_no_answer(language: str, text: str) -> None:
    """Null when nothing fits; two answers at once do not fit one question."""
    assert heard(VOCABULARIES[language], text) is None


def test_the_same_answer_twice_is_that_answer() -> None:
    """A player who repeats a seat still names one seat."""
    assert heard(EN, "seven seven") == 7
    assert heard(ZH, "七号 七号") == 7
    assert heard(FR, "oui oui") == "yes"


@pytest.mark.parametrize("language, text", [
    ("en", "banana"), ("en", "seven banana"), ("fr", "sept bananes"), ("zh", "七 香蕉"), ("zh", "你好"),
    ("en", ""), ("en", "   "), ("en", "[unk]"), ("zh", "[unk] [unk]"),
])
def test_unknown_words_and_silence_are_no_answer(language: str, text: str) -> None:
    """Null when nothing fits: an unknown word, or only [unk], or nothing at all."""
    assert heard(VOCABULARIES[language], text) is None


@pytest.mark.parametrize("language, text", [
    ("en", "the"), ("en", "um i think"), ("fr", "euh alors"), ("fr", "bonjour"), ("zh", "嗯"), ("zh", "什么"),
    ("en", "number"), ("fr", "le joueur"), ("zh", "号"),
])
def test_distractors_and_a_bare_prefix_are_no_answer(language: str, text: str) -> None:
    """Distractor words are there so that chatter answers nothing; "number" alone names no seat."""
    assert heard(VOCABULARIES[language], text) is None


def test_a_result_with_a_distractor_or_unk_is_discarded() -> None:
    """A closed grammar forces chatter onto its words, so a result holding a distractor or
    [unk] is discarded (and the answer asked again) rather than snapped to the answer beside it."""
    assert heard(EN, "um i think seven") is None
    assert heard(FR, "euh joueur sept") is None
    assert heard(ZH, "嗯 七号") is None
    assert heard(EN, "[unk] seven") is None
    assert heard(ZH, "[unk] 七号") is None


@pytest.mark.parametrize("language, text", [("en", "number nine"), ("fr", "joueur neuf"), ("zh", "九号")])
def test_a_seat_not_allowed_is_no_answer(language: str, text: str) -> None:
    """Only the legal seats of the running question may answer it."""
    vocab = VOCABULARIES[language]
    allowed = Allowed(seats=(3, 7), words=("none",))
    assert heard(vocab, text, allowed) is None
    assert heard(vocab, text) == 9


def test_a_longer_number_is_not_read_as_the_allowed_shorter_one() -> None:
    """"twenty one" is seat 21, not seats 20 and 1, even when only 20 and 1 are legal."""
    allowed = Allowed(seats=(1, 20))
    assert heard(EN, "twenty one", allowed) is None
    assert heard(ZH, "二十 一", allowed) is None
    assert heard(FR, "vingt et un", allowed) is None


def test_a_word_not_allowed_is_no_answer() -> None:
    """"undo" answers nothing where the question does not take it."""
    assert heard(EN, "undo", Allowed(seats=(1, 2), words=("yes", "no"))) is None
    assert heard(EN, "yes", Allowed(seats=(1, 2), words=("yes", "no"))) == "yes"


def test_allowed_refuses_a_word_that_is_no_answer() -> None:
    """The words that can answer are yes, no, done, undo, repeat and nobody."""
    with pytest.raises(ValueError, match="maybe"):
        Allowed(words=("maybe",))


@pytest.mark.parametrize("language", LANGUAGES)
def test_phrases_hold_exactly_what_can_answer(language: str) -> None:
    """A grammar per question: only what can answer the running call, in all its forms."""
    vocab = VOCABULARIES[language]
    allowed = Allowed(seats=(3, 21), words=("yes", "none"))
    grammar = phrases(vocab, allowed)
    assert {heard(vocab, phrase) for phrase in grammar} == {3, 21, "yes", "none"}
    for seat in (3, 21):
        assert set(vocab.numbers[seat]) <= set(grammar)
        assert {f"{prefix} {vocab.numbers[seat][0]}" for prefix in vocab.prefixes} <= set(grammar)
    for word in ("yes", "none"):
        assert set(vocab.words[word]) <= set(grammar)
    assert not set(distractor_phrases(vocab)) & set(grammar)
    assert len(grammar) == len(set(grammar))


def test_chinese_phrases_carry_hao_joined_and_apart() -> None:
    """「七号」 and 「七 号」 are both in the grammar (the model keeps the form it knows)."""
    grammar = phrases(ZH, Allowed(seats=(7, 21)))
    assert {"七", "七号", "七 号", "七号 玩家", "二十一号", "二十 一 号", "二 十 一"} <= set(grammar)


def test_french_phrases_carry_both_hyphenations() -> None:
    """French numbers with and without hyphens: vingt-deux, vingt deux, vingt et un, vingt-et-un."""
    grammar = phrases(FR, Allowed(seats=(21, 22)))
    assert {"vingt-deux", "vingt deux", "vingt et un", "vingt-et-un", "numéro vingt-et-un",
            "joueur vingt deux"} <= set(grammar)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_phrase_of_every_answer_is_heard_as_that_answer(language: str) -> None:
    """Whatever form of the grammar the model writes, it snaps back to its answer."""
    vocab = VOCABULARIES[language]
    for seat in range(1, MAX_SEATS + 1):
        for phrase in seat_phrases(vocab, seat):
            assert heard(vocab, phrase) == seat, phrase
    for word in WORDS:
        for phrase in phrases(vocab, Allowed(words=(word,))):
            assert heard(vocab, phrase) == word, phrase


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_can_say_seats_1_to_47_and_every_word(language: str) -> None:
    """The vocabulary lives in voices/<lang>.yaml and names every seat of the largest table."""
    vocab = VOCABULARIES[language]
    assert sorted(vocab.numbers) == list(range(1, MAX_SEATS + 1))
    assert all(vocab.numbers[seat] for seat in vocab.numbers)
    assert set(vocab.words) == set(WORDS) and all(vocab.words.values())
    assert len(vocab.distractors) >= 5
    assert check_vocabulary(vocab, EVERYTHING, lambda word: True) == phrases(vocab, EVERYTHING)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_form_is_written_as_vosk_writes_it(language: str) -> None:
    """Lower-case words, single spaces, no digits or punctuation but the hyphen and apostrophe."""
    vocab = VOCABULARIES[language]
    forms = [*phrases(vocab, EVERYTHING), *vocab.distractors]
    for form in forms:
        assert form == form.lower() == " ".join(form.split()), form
        assert all(c.isalpha() or c in " -'" for c in form), form


def test_unknown_words_are_dropped_from_the_grammar() -> None:
    """Every token is checked against the model's vocabulary: forms it lacks are left out."""
    kept = check_vocabulary(EN, Allowed(seats=(7,)), lambda word: word != "player")
    assert "seven" in kept and "number seven" in kept
    assert not [phrase for phrase in kept if "player" in phrase]


def test_chinese_forms_the_model_lacks_leave_the_ones_it_knows() -> None:
    """With 二十一 and 七号 unknown to the model, 二十 一 and 七 号 remain."""
    kept = check_vocabulary(ZH, Allowed(seats=(7, 21)), lambda word: word not in ("二十一", "七号"))
    assert "二十 一" in kept and "七 号" in kept
    assert "二十一" not in kept and "七号" not in kept


def test_a_seat_left_with_no_form_is_a_loud_error() -> None:
    """An answer left with no recognisable form is a loud error, naming the answer."""
    with pytest.raises(UserError, match=r"seat 21 .*twenty one"):
        check_vocabulary(EN, Allowed(seats=(7, 21)), lambda word: word != "twenty")


def test_a_word_left_with_no_form_is_a_loud_error() -> None:
    """A model that knows no form of "yes" cannot take that answer by voice."""
    with pytest.raises(UserError, match=r"'yes'.*en\.yaml|en\.yaml.*'yes'"):
        check_vocabulary(EN, Allowed(seats=(7,), words=("yes",)), lambda word: word in ("seven", "no"))


def test_a_seat_the_vocabulary_lacks_is_a_loud_error() -> None:
    """A seat with no number word at all cannot be heard."""
    with pytest.raises(UserError, match="seat 48"):
        check_vocabulary(EN, Allowed(seats=(48,)), lambda word: True)


def test_distractors_the_model_lacks_are_left_out() -> None:
    """Distractor words are checked against the model's vocabulary too."""
    assert distractor_phrases(EN, lambda word: word != "the") == [d for d in EN.distractors if d != "the"]


ASR_OK = """\
asr:
  numbers: {1: ["one"], 2: ["two"]}
  prefixes: ["number"]
  suffixes: []
  glued: false
  "yes": ["yes"]
  "no": ["no"]
  done: ["done"]
  undo: ["undo"]
  repeat: ["repeat"]
  none: ["nobody"]
  distractors: ["the"]
"""


def test_a_well_formed_asr_section_is_read() -> None:
    """The vocabulary is data in the voice file."""
    vocab = vocabulary_from(parse(ASR_OK, "voices/xx.yaml"), "xx")
    assert vocab.numbers == {1: ("one",), 2: ("two",)}
    assert understand(vocab, "number two") == 2


@pytest.mark.parametrize("text, message", [
    ("language: xx\n", r"voices/xx\.yaml.*'asr'"),
    (ASR_OK.replace('"no": ["no"]', "no: [no]"), r"voices/xx\.yaml:7: .*\"no\" in quotes"),
    (ASR_OK.replace('"yes": ["yes"]', '"yes": [yes]'), r"voices/xx\.yaml:6: .*asr: yes.*true and false"),
    (ASR_OK.replace('  done: ["done"]\n', ""), r"'asr: done' is missing"),
    (ASR_OK.replace('undo: ["undo"]', "undo: []"), r"asr: undo.*at least one form"),
    (ASR_OK.replace("{1: [\"one\"], 2: [\"two\"]}", "[one, two]"), r"asr: numbers.*seat numbers"),
    (ASR_OK.replace("glued: false", "glued: maybe"), r"asr: glued.*true or false"),
    (ASR_OK.replace('none: ["nobody"]', 'none: ["no"]'), r"'no' is a form of both 'no' and 'none'"),
    (ASR_OK.replace('distractors: ["the"]', 'distractors: ["two"]'), r"'two' is a form of both"),
])
def test_a_malformed_asr_section_is_a_user_error_naming_file_and_key(text: str, message: str) -> None:
    """A malformed vocabulary is a clear message naming the file and the key, not a traceback."""
    with pytest.raises(UserError, match=message):
        vocabulary_from(parse(text, "voices/xx.yaml"), "xx")


def test_a_language_without_a_voice_file_is_a_user_error() -> None:
    """`understand --lang LANG` names the languages there are."""
    with pytest.raises(UserError, match="'xx'.*en, fr"):
        load_vocabulary("xx")


def test_understand_command_gives_one_answer_per_text() -> None:
    """{"text": ..., "answer": ...} per text, answer null when nothing fits, Chinese kept as is."""
    results = understand_command("zh", ["七号", "二十 一", "是", "没有 人", "香蕉"])
    assert [r["answer"] for r in results] == [7, 21, "yes", "none", None]
    assert json.dumps(results[0], ensure_ascii=False) == '{"text": "七号", "answer": 7}'
