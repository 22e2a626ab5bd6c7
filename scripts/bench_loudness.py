"""Prints the peak, loudness and lead-in of a practice game's lines per language, before and after the audio hygiene.

Each language's practice game is dry-run with ``--audio-dir`` (the lines as the narrator plays them,
cleaned); the same lines are rendered again raw, with the hygiene left out, and cleaned here to time it.

    python scripts/bench_loudness.py [--languages en fr zh]
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
from narrator.speak import Pyttsx3Speaker, pyttsx3_backend  # noqa: E402
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


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", nargs="+", default=["en", "fr", "zh"])
    args = parser.parse_args()
    print("figures: min median max over the lines; loudness is the hygiene's speech-gated RMS")
    print(f"{'':13}{'lines':>6}  {'peak dBFS':^20}  {'loudness dBFS':^20}  {'lead-in ms':^20}  hygiene")
    for language in args.languages:
        with tempfile.TemporaryDirectory() as folder:
            with contextlib.redirect_stdout(io.StringIO()):  # the game's lines, printed as it is played
                failed = main(["dry-run", "--silent", "--audio-dir", folder,
                               str(EXAMPLES / f"practice-{language}.yaml")])
            if failed:
                sys.exit(f"the {language} practice game failed")
            index = (Path(folder) / "lines.txt").read_text(encoding="utf-8").splitlines()
            played = [measure(Sound.read(Path(folder) / line.split("\t")[0])) for line in index]
        setattr(pyttsx3_backend, "clean", lambda sound: sound)  # the raw renders, as before the hygiene
        speaker = Pyttsx3Speaker(language, cache=False)
        try:
            raw_sounds = [speaker.sound(line.split("\t", 1)[1]) for line in index]
        finally:
            speaker.close()
            setattr(pyttsx3_backend, "clean", clean)
        started = time.perf_counter()
        for sound in raw_sounds:
            clean(sound)
        elapsed = time.perf_counter() - started
        seconds = sum(len(s.frames) / (s.rate * s.channels * s.width) for s in raw_sounds)
        raw = [measure(s) for s in raw_sounds]
        for name, rows in (("raw", raw), ("played", played)):
            print(f"{language} {name:<10}{len(rows):>6}  {spread([r[0] for r in rows])}  "
                  f"{spread([r[1] for r in rows])}  {spread([r[2] for r in rows])}"
                  + (f"  {1000 * elapsed / seconds:.1f} ms per s of speech" if name == "raw" else ""))


if __name__ == "__main__":
    main_bench()
