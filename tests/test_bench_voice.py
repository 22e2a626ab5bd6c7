"""The intelligibility bench's arithmetic: words normalised alike on both sides, word errors, seat numbers heard."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_voice", ROOT / "scripts" / "bench_voice.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_voice", module)  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


bench = load_bench()


@pytest.mark.parametrize(("written", "words"), [
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
def test_normalise_writes_numbers_as_words_without_case_or_punctuation(written: str, words: str) -> None:
    assert bench.normalise(written) == words.split()


def test_a_line_heard_in_digits_has_no_word_error() -> None:
    heard = bench.judge("The winners: seat one, seat three and seat seven.", "The winners, seat 1, seat 3 and seat 7.",
                        "seat")
    assert (heard.errors, heard.words, heard.seats, heard.seats_heard) == (0, 9, 3, 3)


def test_word_errors_count_substitutions_deletions_and_insertions() -> None:
    assert bench.align("a b c d".split(), "a x c d".split())[0] == 1
    assert bench.align("a b c d".split(), "a c d".split())[0] == 1
    assert bench.align("a b c d".split(), "a b b c d e".split())[0] == 2
    assert bench.align("a b".split(), [])[0] == 2
    assert bench.align([], "a".split())[0] == 1


def test_a_seat_number_counts_as_heard_only_in_its_place() -> None:
    # "seat two" heard "C2": the number came back; "seat to": it did not; "two" heard elsewhere is not the seat's.
    assert bench.judge("Seat two is eliminated.", "C2 is eliminated.", "seat").seats_heard == 1
    assert bench.judge("Seat two is eliminated.", "Seat to is eliminated.", "seat").seats_heard == 0
    missed = bench.judge("Seat two votes for the two sisters.", "See you votes for the two sisters.", "seat")
    assert (missed.seats, missed.seats_heard) == (1, 0)


def test_a_seat_mention_is_the_number_after_the_wordings_own_word() -> None:
    assert bench.anchor("seat {number}") == "seat"
    assert bench.anchor("seat number {number}") == "number"
    assert bench.anchor("{name}, seat {number}") == "seat"
    words = bench.normalise("Player twenty-one and player three; type your seat number, player")
    assert bench.seat_mentions(words, "player") == [[1, 2], [5]]
    with pytest.raises(ValueError, match="a word before its number"):
        bench.anchor("{number}")


def test_the_word_error_rate_weighs_lines_by_their_words() -> None:
    short = bench.judge("Seat two.", "C2.", "seat")
    long = bench.judge("It is night, the whole village falls asleep.", "It is night, the whole village falls asleep.",
                       "seat")
    assert bench.wer([short, long]) == pytest.approx(1 / 10)
    assert bench.seat_share([short, long]) == (1, 1)


def test_the_noisy_room_is_the_same_every_run_and_at_the_ratio_asked() -> None:
    speech = np.zeros(16000, dtype=np.float32)
    speech[3200:12800] = 0.3 * np.sin(np.arange(9600) / 5)  # 0.6 s of tone after a lead-in silence
    noisy = bench.with_noise(speech, 5.0, 3)
    assert np.array_equal(noisy, bench.with_noise(speech, 5.0, 3))
    noise = noisy - speech
    ratio = 10 * np.log10(np.mean(speech[3200:12800] ** 2) / np.mean(noise ** 2))
    assert ratio == pytest.approx(5.0, abs=0.1)
