"""Lines that are heard well: rules over every line of every voice file, filled with a range of values.

A line said aloud never holds a digit (espeak-ng reads 「请选择2名玩家」 as èr míng), a Chinese count before a measure
word is 两, not 二, and no filled line has stray punctuation ("Undone. Answer again.?") or a sentence beginning
lower-case ("... pays for it. seat number seven ...").
"""

from __future__ import annotations

import re
import shutil
import wave
from pathlib import Path
from typing import Iterator, Sequence

import pytest

from engine import ROLES
from narrator.speak.ahead import table_lines
from narrator.speak.wavdir import WavDirSpeaker
from narrator.voices import Voice, languages, load_voice, placeholders, said_aloud

LANGUAGES = languages()
SEATS = range(1, 21)
COUNTS = range(1, 6)
NAMES = ("ann", "Ben", None, "zoé", "李")  # a name typed lower-case begins a sentence too

# A sentence end followed by another mark, a mark after a space, doubled marks or spaces (an ellipsis aside).
STRAY_MARKS = re.compile(r"[.!?。！？]\s*[?？.。!！]| [,.，。]|,,|，，|  |^\s|\s$")


def stray(text: str) -> bool:
    """Returns whether ``text`` has stray punctuation or spaces; "Grrr..." and "吼……" are an ellipsis, not stray."""
    return bool(STRAY_MARKS.search(text.replace("...", "…")))


# A sentence that begins lower-case: after . ! ? and a space, a lower-case letter.
LOWER_START = re.compile(r"[.!?]\s+[a-zà-ÿ]")
# Chinese measure words a count stands before ("两名玩家", "两个座位号", "两张牌", "两票").
MEASURE = "名个张位次票只根条人瓶幢"
# 二 as a count before a measure word: not in 十二, 二十二 (a number's last digit) nor after 第 (an ordinal).
ER_COUNT = re.compile(rf"(?<![第十零一二三四五六七八九])二[{MEASURE}]")


def sample(voice: Voice, name: str) -> Sequence[object]:
    """Returns the values a placeholder ``name`` is filled with at play, over the ranges of the rules."""
    if name == "seat":
        return list(SEATS)
    if name == "seats":
        return [[s] for s in SEATS] + [[1, 2], [3, 5, 20]]
    if name in ("role", "first", "second"):
        return sorted(ROLES)
    if name == "count":
        return list(COUNTS)
    if name in ("number", "card", "question"):
        return list(range(1, 37))
    if name == "cause":
        return list(voice.causes)
    if name in ("asker", "spirit", "reader", "medium", "recent"):  # the séances' and the draw's seats, said as seats
        return [voice.seat(s, NAMES) for s in SEATS]
    if name == "answer":  # what a read-back repeats: the answers' own lines, filled
        return [voice.text(key, {"seat": 2, "seats": [2, 5], "number": 2, "card": 2, "question": 3}, NAMES)
                for key in voice.lines if key.startswith("answer.") and key not in ("answer.heard",
                                                                                  "answer.confirmed", "answer.undone")]
    if name == "text":
        return ["Is the Seer still alive?"]
    if name == "questions":  # a séance card's questions, as the morning draw says them
        return ["Is the Seer still alive? Was I killed by a werewolf?"]
    return ["x"]


def filled(voice: Voice) -> Iterator[tuple[str, str, bool]]:
    """Yields (key, text, said aloud) for every line, each placeholder in turn over its values (the others at their
    first), with and without names."""
    for key, template in voice.lines.items():
        wanted = sorted(placeholders(template))
        first = {name: sample(voice, name)[0] for name in wanted}
        for names in ((), NAMES):
            yield key, voice.text(key, first, names), said_aloud(key)
            for name in wanted:
                for value in sample(voice, name)[1:]:
                    yield key, voice.text(key, {**first, name: value}, names), said_aloud(key)


@pytest.fixture(scope="module", params=LANGUAGES)
def lines(request: pytest.FixtureRequest) -> tuple[Voice, list[tuple[str, str, bool]]]:
    voice = load_voice(request.param)
    return voice, list(filled(voice))


def test_no_line_said_aloud_holds_a_digit(lines: tuple[Voice, list[tuple[str, str, bool]]]) -> None:
    """Seats, counts, card and question numbers are said as words; only lines never said keep digits."""
    voice, rendered = lines
    bad = {key: text for key, text, said in rendered if said and re.search(r"\d", text)}
    assert not bad, bad


def test_lines_shown_only_keep_their_digits() -> None:
    """A keypad prompt keeps the digits typed on the keypad: numbers become words only where they are said."""
    voice = load_voice("en")
    assert voice.text("prompt.number", {"largest": 36}) == \
        "Type a number from 1 to 36, then Enter; 0 and Enter for none."
    assert voice.text("summary.night", {"number": 2}) == "Night 2"
    assert voice.text("town_crier.announces", {"number": 12}).startswith("The Town Crier announces event card twelve:")


def test_chinese_counts_take_liang_before_a_measure_word() -> None:
    """zh: 请选择两名玩家, not 二名; an ordinal stays 二 (第二张牌), and so does a seat (二号)."""
    voice = load_voice("zh")
    assert voice.text("refusal.count", {"count": 2}) == "请选择两名玩家。"
    assert voice.text("refusal.count", {"count": 3}) == "请选择三名玩家。"
    assert voice.text("answer.card", {"number": 2}) == "第二张牌"
    assert voice.text("refusal.eliminated", {"seat": 2}) == "二号已经出局了。"
    assert voice.text("refusal.no_such_question", {"number": 2, "count": 2}) == "第二张招魂仪式卡只有两个问题。"


def test_no_chinese_count_is_said_with_er(lines: tuple[Voice, list[tuple[str, str, bool]]]) -> None:
    """Every Chinese line, filled with counts 1 to 5 and numbers, says a count of two 两 (两名, 两个, 两张)."""
    voice, rendered = lines
    bad = {key: text for key, text, _ in rendered if ER_COUNT.search(text)}
    assert not bad, bad


def test_every_chinese_count_stands_before_a_measure_word() -> None:
    """zh: ``{count}`` is a count (两 for 2), so it is never an ordinal (第{count}) and a measure word follows it."""
    for key, template in load_voice("zh").lines.items():
        for match in re.finditer(r"\{count\}", template):
            assert template[match.start() - 1:match.start()] != "第", key
            assert template[match.end():match.end() + 1] in MEASURE, key


def test_no_line_has_stray_punctuation_or_spaces(lines: tuple[Voice, list[tuple[str, str, bool]]]) -> None:
    """No ".?", "?.", "。？", "..", " ,", double spaces, once filled."""
    voice, rendered = lines
    bad = {key: text for key, text, _ in rendered if stray(text)}
    assert not bad, bad


def test_no_sentence_begins_lower_case(lines: tuple[Voice, list[tuple[str, str, bool]]]) -> None:
    """A sentence that begins with a filled value (a seat, a name) begins with a capital, as the line does;
    in a language without capitals (zh) a name is left as typed."""
    voice, rendered = lines
    if voice.sentence_case:
        bad = {key: text for key, text, _ in rendered if LOWER_START.search(text) or text[:1].islower()}
    else:
        bad = {key: text for key, text, _ in rendered if "Ann" in text or "Zoé" in text}
    assert not bad, bad


def test_a_value_after_a_sentence_end_is_capitalised() -> None:
    """en: "... pays for it. Seat number seven is eliminated."; fr the same; zh has no capitals to give."""
    assert load_voice("en").text("death.scapegoat_hidden", {"seat": 7}) == \
        "A tie: the Scapegoat pays for it. Seat number seven is eliminated."
    assert load_voice("fr").text("death.scapegoat_hidden", {"seat": 3}, ("", "", "éva")) == \
        "Égalité : le Bouc émissaire en fait les frais. Éva, joueur trois, quitte la partie."
    assert load_voice("zh").text("death.scapegoat_hidden", {"seat": 1}, ("ann",)) == "平票：替罪羊代为受死。ann（一号）出局了。"


@pytest.mark.parametrize("language", LANGUAGES)
def test_lines_rendered_ahead_are_heard_well(language: str) -> None:
    """The lines the speaker renders ahead for a table of twenty (every character) follow the same rules:
    no digit, no "Undone. Answer again.?" (a line said alone, read back as an answer)."""
    voice = load_voice(language)
    ahead = table_lines(voice, 20, NAMES, sorted(ROLES))
    assert ahead
    assert not [t for t in ahead if re.search(r"\d", t) or stray(t) or LOWER_START.search(t)
                or ER_COUNT.search(t)]


# Lines fixed by the rules above, as espeak-ng gets them: a count, a card, a read-back, a sentence after a seat.
RENDERED = {
    "zh": [("refusal.count", {"count": 2}), ("refusal.no_such_question", {"number": 2, "count": 2}),
           ("town_crier.announces", {"number": 12})],
    "en": [("death.scapegoat_hidden", {"seat": 7}), ("refusal.count", {"count": 2}),
           ("refusal.no_such_seat", {"seat": 99})],
    "fr": [("death.scapegoat_hidden", {"seat": 7}), ("refusal.count", {"count": 2})],
}


@pytest.mark.parametrize("language", sorted(RENDERED))
def test_fixed_lines_render_to_sound_with_espeak(language: str, tmp_path: Path) -> None:
    """The real espeak-ng (as `dry-run --audio-dir` renders) makes sound of the fixed lines, given words, no digit."""
    if shutil.which("espeak-ng") is None:
        pytest.fail("espeak-ng is missing: scripts/setup.sh installs it")
    voice = load_voice(language)
    said = [voice.spoken(voice.text(key, values)) for key, values in RENDERED[language]]
    said.append(voice.spoken(voice.text("answer.heard", {"answer": voice.text("answer.card", {"number": 2})})))
    speaker = WavDirSpeaker(tmp_path, language, backend="pyttsx3")
    try:
        for text in said:
            speaker.say(text)
    finally:
        speaker.close()
    listed = (tmp_path / "lines.txt").read_text(encoding="utf-8").splitlines()
    assert [line.split("\t", 1)[1] for line in listed] == [" ".join(text.split()) for text in said]
    assert not [text for text in said if re.search(r"\d", text)]
    for line in listed:
        with wave.open(str(tmp_path / line.split("\t", 1)[0])) as w:
            assert w.getnframes() / w.getframerate() > 0.3, line  # a spoken sentence, not an empty file


@pytest.mark.parametrize("language, tie", [("en", "tie"), ("fr", "galité"), ("zh", "平票")])
def test_a_tied_election_says_tie_twice_not_three_times(language: str, tie: str) -> None:
    """French said « Égalité » three times in a row: the tie read back, the tie told (vote.tie), then the
    run-off's call. The run-off's call says only what to do."""
    voice = load_voice(language)
    assert tie in voice.lines["answer.tie"].lower() and tie in voice.lines["vote.tie"].lower()
    assert tie not in voice.lines["sheriff_runoff.call"].lower()
