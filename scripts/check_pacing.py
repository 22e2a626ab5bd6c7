"""Prints how long each character's empty calls last against its own living calls, before and after a resume.

Issue 22's timing check, on a simulated clock: tables of a slow Witch (about 22 s), a deliberating pack (about 15 s)
and a quick Seer (about 8 s), each dying on a random night, played through narrator.pacing as `play` paces them. Half
way, each game is stopped and resumed: its samples go through a real journal (Journal.record_pace, read_journal), as
`resume` reads them. For each character it prints the range of its living calls and of its empty calls, before and
after the resume, and how many empty calls lie within 25 % of its own living range (the issue asks for all of them).

    .venv/bin/python scripts/check_pacing.py [--games 200] [--nights 6] [--seed 1] [--forget]

``--forget`` resumes without the journaled samples, as the narrator did before issue 22: the control, whose empty calls
after the resume fall out of range.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from narrator.journal import Journal, read_journal  # noqa: E402
from narrator.pacing import Pacing  # noqa: E402

CHARACTERS = {"werewolves": 15.0, "seer": 8.0, "witch": 22.0}
"""The night's calls, in order, with each character's typical answer time (seconds)."""
FLOOR, FALLBACK = 5.0, (5.0, 15.0)


class Clock:
    """A clock that moves only when the pacing sleeps or a player takes time."""

    def __init__(self) -> None:
        self.now = 0.0

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def answer_time(rng: random.Random, median: float) -> float:
    """How long a living character takes: a log-normal spread around ``median``."""
    return rng.lognormvariate(math.log(median), 0.3)


def play(rng: random.Random, nights: int, folder: Path, forget: bool = False) -> dict[str, dict[str, list[float]]]:
    """One game: returns each character's call lengths, keyed "living", "empty before" and "empty after" the resume."""
    clock = Clock()
    journal = Journal(folder / "game.jsonl", {"kind": "play", "config": {}, "seed": 0, "buildings": []})
    pace = Pacing(FLOOR, FALLBACK, clock=lambda: clock.now, sleep=clock.sleep, rng=random.Random(rng.random()))
    pace.on_sample = journal.record_pace
    dies = {c: rng.randint(2, nights) for c in ("seer", "witch")}
    resume = nights // 2 + 1
    found: dict[str, dict[str, list[float]]] = {c: {"living": [], "empty before": [], "empty after": []}
                                                for c in CHARACTERS}
    for night in range(1, nights + 1):
        if night == resume:  # stopped, then resumed from the journal
            journal.close()
            header, _ = read_journal(str(folder / "game.jsonl"))
            journal = Journal(folder / "game.jsonl")
            pace = Pacing(FLOOR, FALLBACK, clock=lambda: clock.now, sleep=clock.sleep, rng=random.Random(rng.random()))
            pace.samples = {} if forget else {key: list(pool) for key, pool in header.get("pace", {}).items()}
            pace.on_sample = journal.record_pace
        for character, median in CHARACTERS.items():
            start = clock.now
            pace.open(character, object())
            if night >= dies.get(character, nights + 1):
                pace.wait(character)
                kind = "empty after" if night >= resume else "empty before"
            else:
                clock.sleep(answer_time(rng, median))
                kind = "living"
            pace.close()
            found[character][kind].append(clock.now - start)
    journal.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--nights", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--forget", action="store_true", help="resume without the journaled samples (the control)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    within = {c: {"empty before": [0, 0], "empty after": [0, 0]} for c in CHARACTERS}
    spans: dict[str, dict[str, list[float]]] = {c: {"living": [], "empty before": [], "empty after": []}
                                                for c in CHARACTERS}
    with tempfile.TemporaryDirectory() as folder:
        for game in range(args.games):
            played = play(rng, args.nights, Path(folder) / str(game), args.forget)
            for character, lengths in played.items():
                living = lengths["living"]
                for kind in ("empty before", "empty after"):
                    for took in lengths[kind]:
                        within[character][kind][1] += 1
                        within[character][kind][0] += min(living) * 0.75 <= took <= max(living) * 1.25
                for kind, values in lengths.items():
                    spans[character][kind] += values
    for character in CHARACTERS:
        parts = []
        for kind, values in spans[character].items():
            if values:
                median = sorted(values)[len(values) // 2]
                parts.append(f"{kind} {min(values):.1f}-{max(values):.1f} s (median {median:.1f})")
        print(f"{character}: " + "; ".join(parts))
        for kind, (good, total) in within[character].items():
            if total:
                print(f"  {kind}: {good} of {total} empty calls within 25 % of its own living calls")


if __name__ == "__main__":
    main()
