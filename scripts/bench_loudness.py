"""Prints the peak, loudness and lead-in of a practice game's lines per language and backend, before and after the
audio hygiene, and how far apart the backends' loudness is.

Each language's practice game is dry-run to list the lines it says; each line is rendered raw (the hygiene left
out) by espeak-ng, and by Piper where a Piper voice of the language is installed, then cleaned here as the
narrator cleans every line it keeps and plays (narrator/speak/hygiene.py), which is timed.

    python scripts/bench_loudness.py [--languages en fr zh] [--limit N]
"""

from __future__ import annotations

import argparse
import array
import contextlib
import io
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from narrator.cli import main  # noqa: E402
from narrator.speak import PiperSpeaker, Pyttsx3Speaker, RenderedSpeaker, SpeechUnavailable, rendered  # noqa: E402
from narrator.speak.audio import Sound  # noqa: E402
from narrator.speak.hygiene import clean, loudness  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def measure(sound: Sound) -> tuple[float, float, float]:
    """Returns a 16-bit sound's peak and gated loudness (dBFS) and its lead-in of zero samples (ms)."""
    samples = array.array("h", sound.frames)
    if sys.byteorder == "big":
        samples.byteswap()
    peak = max(max(samples, default=0), -min(samples, default=0))
    level = loudness(samples, sound.channels, sound.rate)
    first = next((i for i, s in enumerate(samples) if s), len(samples)) // sound.channels
    return (20 * math.log10(peak / 32768) if peak else -math.inf, 20 * math.log10(level) if level else -math.inf,
            1000 * first / sound.rate)


def spread(values: list[float]) -> str:
    return f"{min(values):6.1f} {statistics.median(values):6.1f} {max(values):6.1f}"


def raw_renders(speaker: RenderedSpeaker, texts: list[str]) -> list[Sound]:
    """Renders ``texts`` as the engine gives them: every rendered line goes through `rendered.finished`, whose
    hygiene is left out meanwhile."""
    setattr(rendered, "clean", lambda sound: sound)
    try:
        return [speaker.sound(text) for text in texts]
    finally:
        setattr(rendered, "clean", clean)
        speaker.close()


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", nargs="+", default=["en", "fr", "zh"])
    parser.add_argument("--limit", type=int, default=0, help="the first N lines of each game only (0: all)")
    args = parser.parse_args()
    print("figures: min median max over the lines; loudness is the hygiene's speech-gated RMS")
    print(f"{'':22}{'lines':>6}  {'peak dBFS':^20}  {'loudness dBFS':^20}  {'lead-in ms':^20}  hygiene")
    for language in args.languages:
        with tempfile.TemporaryDirectory() as folder:
            with contextlib.redirect_stdout(io.StringIO()):  # the game's lines, printed as it is played
                failed = main(["dry-run", "--silent", "--audio-dir", folder,
                               str(EXAMPLES / f"practice-{language}.yaml")])
            if failed:
                sys.exit(f"the {language} practice game failed")
            index = (Path(folder) / "lines.txt").read_text(encoding="utf-8").splitlines()
        texts = list(dict.fromkeys(line.split("\t", 1)[1] for line in index))[:args.limit or None]
        speakers: list[tuple[str, RenderedSpeaker]] = [("espeak-ng", Pyttsx3Speaker(language, cache=False))]
        try:
            speakers.append(("Piper", PiperSpeaker(language, cache=False, fallback=False)))
        except SpeechUnavailable as exc:
            print(f"{language} Piper: not measured ({exc})")
        levels: dict[str, float] = {}
        for backend, speaker in speakers:
            raw_sounds = raw_renders(speaker, texts)
            started = time.perf_counter()
            played_sounds = [clean(sound) for sound in raw_sounds]
            elapsed = time.perf_counter() - started
            seconds = sum(len(s.frames) / (s.rate * s.channels * s.width) for s in raw_sounds)
            for name, sounds in (("raw", raw_sounds), ("played", played_sounds)):
                rows = [measure(sound) for sound in sounds]
                print(f"{language} {backend + ' ' + name:<19}{len(rows):>6}  {spread([r[0] for r in rows])}  "
                      f"{spread([r[1] for r in rows])}  {spread([r[2] for r in rows])}"
                      + (f"  {1000 * elapsed / seconds:.1f} ms per s of speech" if name == "raw" else ""))
            levels[backend] = statistics.median(measure(sound)[1] for sound in played_sounds)
        if len(levels) == 2:
            print(f"{language} played: Piper's median loudness is {levels['Piper'] - levels['espeak-ng']:+.1f} dB "
                  "from espeak-ng's")


if __name__ == "__main__":
    main_bench()
