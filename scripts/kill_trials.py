"""Kill trials (issue 14): games killed at random moments by SIGKILL, SIGTERM, SIGHUP or twice, each resumed to its
end and compared with the same game never interrupted; prints the figures (docs/development.md).

- Practice games (`dry-run --journal`, paced; tests/test_resume.py's trials): killed at a random moment (mostly
  once a random number of answers is on the disk) by SIGKILL, SIGTERM, SIGHUP (a dry run has no handler: killed
  outright), SIGTERM then SIGKILL at once, or SIGKILL and its resume killed again; then `resume --report`: the
  report must be the uninterrupted run's (winner, eliminations, calls, every line) and the journal its answers.
- Games at the table in real terminals (tmux, under the supervisor; tests/test_kill_trials.py's trials): SIGKILL
  while a night secret shows, then Enter (or quit and the command printed); SIGTERM or SIGHUP to the game's
  process (it stops as on the host's confirmed Ctrl-C, exit 130; resumed with the command it printed); SIGTERM
  then SIGKILL at once. The terminal must be clean, and the resumed game play on to the winner of the game played
  ahead, its journal holding every answer.

Too slow for the default suite (minutes); run it after a change to the journal, the supervisor or the keypad:
    .venv/bin/python scripts/kill_trials.py [--practice 100] [--table 100] [--jobs 2]
It exits 1 if any trial failed, naming each with its seed.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

# The tests' own settings (their data and cache folders, the hints' command) and their trials, not a copy; the
# tests are not among the folders mypy checks, so their names are untyped here.
import conftest  # type: ignore[import-not-found]  # noqa: E402,F401
from test_kill_trials import night_trial, stopped_trial  # type: ignore[import-not-found]  # noqa: E402
from test_resume import KILLED_GAMES, Practice, kill_and_resume, uninterrupted  # type: ignore[import-not-found]  # noqa: E402

KILL, TERM, HUP = signal.SIGKILL, signal.SIGTERM, signal.SIGHUP
PRACTICE_KINDS: dict[str, tuple[Sequence[int], bool]] = {
    "SIGKILL": ((KILL,), False), "SIGTERM": ((TERM,), False), "SIGHUP": ((HUP,), False),
    "SIGTERM+SIGKILL": ((TERM, KILL), False), "SIGKILL, resume SIGKILLed too": ((KILL,), True),
}
TABLE_KINDS: dict[str, Callable[[int, Path], str]] = {
    "SIGKILL": night_trial,
    "SIGTERM": lambda n, root: stopped_trial(n, root, (TERM,)),
    "SIGHUP": lambda n, root: stopped_trial(n, root, (HUP,)),
    "SIGTERM+SIGKILL": lambda n, root: stopped_trial(n, root, (TERM, KILL)),
}


def practice_trial(number: int, practices: list[Practice], root: Path) -> tuple[str, str, str]:
    """Trial ``number``: its game and its kind drawn in turn; returns its kind, how far the game had got, and its
    failure (empty when the resume ended as the uninterrupted run)."""
    kind = list(PRACTICE_KINDS)[number % len(PRACTICE_KINDS)]
    stops, again = PRACTICE_KINDS[kind]
    try:
        return kind, kill_and_resume(number, practices[number // len(PRACTICE_KINDS) % len(practices)], root,
                                     stops, again), ""
    except Exception as failure:  # told with the others' failures, by trial
        return kind, "failed", f"practice trial {number} ({kind}): {failure!r}"


def table_trial(number: int, root: Path) -> tuple[str, str]:
    kind = list(TABLE_KINDS)[number % len(TABLE_KINDS)]
    return kind, TABLE_KINDS[kind](number, root)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--practice", type=int, default=100, help="practice games killed (default 100)")
    parser.add_argument("--table", type=int, default=100, help="games at the table killed, in tmux (default 100)")
    parser.add_argument("--jobs", type=int, default=2, help="trials side by side (default 2)")
    args = parser.parse_args()
    if args.table and shutil.which("tmux") is None:
        parser.error("the trials at the table need tmux (scripts/setup.sh --test installs it), or --table 0")
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="kill-trials-") as folder, ThreadPoolExecutor(args.jobs) as pool:
        root = Path(folder)
        started = time.monotonic()
        practices = [uninterrupted(name, root) for name in KILLED_GAMES]
        got = list(pool.map(lambda n: practice_trial(n, practices, root), range(args.practice)))
        failures += [failure for _, _, failure in got if failure]
        took = time.monotonic() - started
        begun = [where for _, where, _ in got if where not in ("not started", "failed")]
        print(f"practice games: {args.practice} trials in {took:.0f} s; {len(begun)} begun, each resumed to the "
              f"uninterrupted run's end; {sum(where == 'not started' for _, where, _ in got)} killed before "
              "their journal's header, refused by resume with a clear message")
        for kind in PRACTICE_KINDS:
            reached = Counter(where for k, where, _ in got if k == kind)
            print(f"  {kind:<31} {sum(reached.values()):>4} trials: " +
                  ", ".join(f"{count} {where}" for where, count in sorted(reached.items())))
        started = time.monotonic()
        table = list(pool.map(lambda n: table_trial(n, root), range(args.table)))
        failures += [failure for _, failure in table if failure]
        took = time.monotonic() - started
        print(f"games at the table (tmux): {args.table} trials in {took:.0f} s, "
              f"{sum(not failure for _, failure in table)} resumed to the game's end, terminal clean")
        for kind in TABLE_KINDS:
            done = [failure for k, failure in table if k == kind]
            print(f"  {kind:<31} {len(done):>4} trials: {sum(not f for f in done)} resumed, "
                  f"{sum(bool(f) for f in done)} failed")
    total = args.practice + args.table
    print(f"total: {total} trials, {len(failures)} failed")
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
