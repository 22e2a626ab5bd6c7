"""Prints what reading YAML costs, and what a hostile file costs before it is refused: the voice files and a table
config through libyaml's parser and PyYAML's Python one, a file past the size cap, and a list or an alias bomb
past the value bound with the cap lifted (--max-size). Each figure is the best of a few runs, with the peak
memory of the process so far.

    python scripts/bench_yaml.py [--megabytes 100]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from narrator import yamlfile  # noqa: E402
from narrator.yamlfile import LOADER, PYTHON_LOADER, YamlError, load, parse  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def best(action: Callable[[], object], runs: int = 3) -> tuple[float, str]:
    """Returns the best time of ``runs`` runs of ``action`` and what it gave (ok, or the refusal's reason)."""
    times, outcome = [], ""
    for _ in range(runs):
        start = time.perf_counter()
        try:
            action()
            outcome = "read"
        except YamlError as exc:
            outcome = "refused: " + re.sub(r"^\S*?:(\d+:)*\s*", "", str(exc)).split(" (")[0]
        times.append(time.perf_counter() - start)
    return min(times), outcome


def peak_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=int, default=100, help="the hostile list's size (default 100)")
    args = parser.parse_args()
    rows: list[tuple[str, float, str]] = []
    for path in [ROOT / "voices" / "fr.yaml", ROOT / "examples" / "classic-12-en.yaml"]:
        text = path.read_text(encoding="utf-8")
        for name, loader in (("libyaml", LOADER), ("python", PYTHON_LOADER)):
            rows.append((f"{path.name} ({len(text):,} characters), {name}", *best(lambda: parse(text, path.name,
                                                                                             loader))))
    with tempfile.TemporaryDirectory() as folder:
        huge = Path(folder) / "huge.yaml"
        with huge.open("w", encoding="utf-8") as out:
            line = "- werewolf\n" * 10_000
            for _ in range(args.megabytes * 1_000_000 // len(line)):
                out.write(line)
        rows.append((f"a {args.megabytes} MB list, default cap", *best(lambda: load(huge))))
        yamlfile.max_bytes = huge.stat().st_size
        rows.append((f"a {args.megabytes} MB list, --max-size {yamlfile.max_bytes}", *best(lambda: load(huge), 1)))
        yamlfile.max_bytes = yamlfile.MAX_BYTES
        bomb = ["l0: &l0 [" + ", ".join(["lol"] * 10) + "]"]
        bomb += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, 10)]
        rows.append(("a billion laughs (10^9 values)", *best(lambda: parse("\n".join(bomb), "bomb.yaml"))))
        deep = "[" * 100_000 + "]" * 100_000
        rows.append(("100,000 brackets deep", *best(lambda: parse(deep, "deep.yaml"))))
    width = max(len(name) for name, _, _ in rows)
    for name, seconds, outcome in rows:
        print(f"{name:<{width}}  {seconds * 1000:9.1f} ms  {outcome}")
    print(f"peak memory {peak_mb()} MB")


if __name__ == "__main__":
    main()
