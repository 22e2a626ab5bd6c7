"""Times ``werewolf-narrator check`` of every example table (wall time, start-up included) and prints the figures.

With ``--simulate``, also ``simulate --games 10000`` of examples/village-zh.yaml (budget 5 s on two cores).

Each check runs as a host runs it: a new interpreter, every core (``check`` plays its games on all of them). With
``--against REV`` the same checks of revision REV (from a git worktree) run interleaved with ours, in the same run,
so that the rest of the machine weighs on both alike; the best of ``--rounds`` is reported for each.

    python scripts/bench_check.py [--rounds 3] [--against main] [examples/starter-en.yaml ...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


# As a host's machine runs it: the modules' bytecode cached (an environment that forbids writing it would time
# the compiler instead).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


SIMULATE = HERE / "examples" / "village-zh.yaml"
"""The table ``--simulate`` times: ``simulate --games 10000`` of it."""


def timed(root: Path, path: Path, simulate: bool = False) -> float:
    """Returns the wall time of one ``check`` of ``path`` (or ``simulate --games 10000`` of it) by the checkout at
    ``root``."""
    command = ["simulate", "--config", str(path), "--games", "10000"] if simulate else ["check", str(path)]
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "narrator", *command], cwd=root, check=True, env=ENV,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def tables() -> list[Path]:
    """Returns the examples that are table configs (not practice scripts)."""
    return [p for p in sorted((HERE / "examples").glob("*.yaml")) if "answers:" not in p.read_text(encoding="utf-8")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs of each check; the fastest is reported")
    parser.add_argument("--against", metavar="REV", help="also time REV's check, interleaved with ours")
    parser.add_argument("--simulate", action="store_true", help="also time simulate --games 10000 of village-zh")
    parser.add_argument("paths", nargs="*", type=Path, help="the tables (default: every example table)")
    args = parser.parse_args()
    paths = [p.resolve() for p in args.paths] or tables()
    with tempfile.TemporaryDirectory() as tmp:
        roots = {"now": HERE}
        if args.against:
            tree = Path(tmp) / "tree"
            subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", "-q", str(tree), args.against],
                           check=True)
            roots = {args.against: tree, "now": HERE}
        try:
            for root in roots.values():  # once untimed: the bytecode written, the files in the page cache
                timed(root, paths[0])
            best: dict[tuple[str, Path], float] = {}
            simulated: dict[str, float] = {}
            for _ in range(args.rounds):
                for path in paths:
                    for name, root in roots.items():  # interleaved: the same load weighs on both
                        seconds = timed(root, path)
                        best[name, path] = min(best.get((name, path), seconds), seconds)
                if args.simulate:
                    for name, root in roots.items():
                        seconds = timed(root, SIMULATE, simulate=True)
                        simulated[name] = min(simulated.get(name, seconds), seconds)
        finally:
            if args.against:
                subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(tree)], check=True)
    width = max(len(str(p.relative_to(HERE))) for p in paths)
    print(f"{'check of':<{width}}  " + "  ".join(f"{name:>10}" for name in roots) + "   (wall seconds, best of "
          f"{args.rounds})")
    for path in paths:
        print(f"{str(path.relative_to(HERE)):<{width}}  " + "  ".join(f"{best[n, path]:>9.2f}s" for n in roots))
    slowest = max(best["now", p] for p in paths)
    print(f"slowest check now: {slowest:.2f} s (budget 1 s)")
    if args.simulate:
        print("simulate --games 10000 examples/village-zh.yaml: " + ", ".join(
            f"{name} {simulated[name]:.2f} s" for name in roots) + " (budget 5 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
