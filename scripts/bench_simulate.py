"""Plays `simulate`'s games on one core, each strategy in turn, and prints ``N games/s`` for each.

The deck is the classic preset (the French rules' table) for ``--seats`` players. Run it pinned to one
core, on a quiet machine, to compare with ``werewolf-narrator simulate`` on every core:

    taskset -c 0 python scripts/bench_simulate.py [--seats 8] [--games N] [--rounds R]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine import Table, preset  # noqa: E402
from engine.strategy import MODELS, game_seed, play  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=8, help="players, 6 to 18 (default 8)")
    parser.add_argument("--games", type=int, default=1000, help="games a round (default 1000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the fastest is reported (default 3)")
    args = parser.parse_args()
    table = Table(args.seats, preset("classic", args.seats))
    play(table, 0, "random")  # warm up imports and caches
    for model in MODELS:
        rates, cpu = [], []
        for r in range(args.rounds):
            start, used = time.perf_counter(), time.process_time()
            for i in range(args.games):
                play(table, game_seed(r, i), model)
            rates.append(args.games / (time.perf_counter() - start))
            cpu.append(args.games / (time.process_time() - used))
        # The fastest round is the one least disturbed by the rest of the machine (as timeit does); the
        # processor time tells what a core would do alone, on a machine others share.
        print(f"{model:>6}: {max(rates):.0f} games/s  (rounds: {', '.join(f'{x:.0f}' for x in rates)}; "
              f"{max(cpu):.0f} games per second of processor time)")


if __name__ == "__main__":
    main()
