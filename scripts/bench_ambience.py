"""Prints what the night ambience costs and how it sounds by the numbers: the loop's generation time, level,
peak and where its energy lies, and the mix's share of a core while it plays under lines (ducking, fading).

    python scripts/bench_ambience.py [--seconds 60]
"""

from __future__ import annotations

import argparse
import array
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from narrator.speak.ambience import BLOCK, RATE, AmbienceMix, night_loop  # noqa: E402
from narrator.speak.audio import tone  # noqa: E402
from narrator.speak.hygiene import TARGET_DBFS  # noqa: E402


def dbfs(value: float) -> float:
    return 20 * math.log10(value / 32768) if value else -math.inf


def bands(samples: array.array[int]) -> list[tuple[str, float]]:
    """Returns the share of the loop's energy (dB) under and over a few edges, by one-pole filters (no numpy)."""
    total = sum(s * s for s in samples)
    shares = []
    for edge in (150, 700, 1500, 3000):
        a = 1 - math.exp(-2 * math.pi * edge / RATE)
        low = 0.0
        energy = 0.0
        for s in samples:
            low += a * (s - low)
            energy += low * low
        shares.append((f"under {edge} Hz", 10 * math.log10(energy / total)))
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of mix to time (default 60)")
    args = parser.parse_args()

    night_loop.cache_clear()
    began = time.process_time()
    loop = night_loop()
    generated = time.process_time() - began
    samples = array.array("h", loop.frames)
    rms = math.sqrt(sum(s * s for s in samples) / len(samples))
    print(f"loop: {len(samples) / RATE:.0f} s at {RATE} Hz, {len(loop.frames) / 1e6:.2f} MB, generated in "
          f"{generated:.2f} s of CPU")
    print(f"level: RMS {dbfs(rms):.1f} dBFS ({TARGET_DBFS - dbfs(rms):.1f} dB under the voice's lines), "
          f"peak {dbfs(max(map(abs, samples))):.1f} dBFS")
    print("energy (one-pole low-pass, 6 dB an octave): " + ", ".join(f"{name} {db:.1f} dB"
                                                                       for name, db in bands(samples[:RATE * 4])))

    mix = AmbienceMix()
    mix.set_loop(loop)
    mix.start()
    line = array.array("h", tone(seconds=2.0, rate=RATE).frames)
    blocks = round(args.seconds * RATE / BLOCK)
    worst = 0.0
    began = time.process_time()
    for i in range(blocks):
        if i % 90 == 0:  # a line every 4 s: ducked, said, back
            mix.duck()
            mix.add(line)
        elif i % 90 == 45:
            mix.unduck()
        start = time.perf_counter()
        mix.fill(BLOCK)
        worst = max(worst, time.perf_counter() - start)
    spent = time.process_time() - began
    print(f"mix: {1000 * spent / blocks:.2f} ms of CPU a block of {BLOCK} ({1000 * BLOCK / RATE:.0f} ms of sound), "
          f"{100 * spent / args.seconds:.1f} % of a core; slowest block {1000 * worst:.2f} ms")


if __name__ == "__main__":
    main()
