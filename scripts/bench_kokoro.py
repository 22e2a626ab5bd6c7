"""Measures Kokoro's budgets for French and Chinese tables (docs/performance.md).

For each language, in a fresh cache folder (the model joined once beforehand, as setup leaves it):

1. **The pre-render of a table**: `werewolf-narrator voices render LANG --config TABLE` for a 12-seat table (the
   classic deck; French with the players' names), as a host runs it before a first game: wall time, CPU time,
   clauses rendered, peak memory; and the same figure for a Raspberry Pi 4, estimated with --pi-factor (how many
   times slower a Pi 4's core is than this machine's at onnxruntime's int8 kernels: an assumption, said as one).
2. **A whole practice game after its table's pre-render**: the lines of examples/practice-LANG.yaml said in order
   by a KokoroSpeaker, as `play` makes it (its table's lines prepared ahead), into a sink that notes each line:
   the cold start to the first line heard (from the process's start, imports included), the peak memory, and
   how many lines espeak-ng said instead (its sample rate tells them apart); pinned to one core (--core), the
   Raspberry Pi's proxy, as scripts/bench_startup.py does.

    python scripts/bench_kokoro.py [--lang fr zh] [--seats 12] [--workers 2] [--pi-factor 3.5]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_render import spoken_lines  # noqa: E402  (this script's folder is on the path)

NAMES = {"fr": "[Alice, Bruno, Chloé, David, Emma, François, Gaëlle, Hugo, Inès, Jules, Karim, Léa]"}

GAME = r"""
import json, sys, time
start = time.monotonic()
from narrator.speak import KokoroSpeaker, prepare_table
from narrator.script import load_script
language, script_path, lines = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
heard = []
speaker = KokoroSpeaker(language, sink=lambda sound: heard.append((time.monotonic() - start, sound.rate)))
script, _ = load_script(script_path)
table = script.config.table
prepare_table(speaker, language, table.seats, script.config.names, table.deck, script_path, table)
for line in lines:
    speaker.say(line)
speaker.close()
print(json.dumps({"first": heard[0][0], "lines": len(heard),
                  "espeak": sum(1 for _, rate in heard if rate != 24000), "told": speaker.not_ready}))
"""


def run(command: list[str], env: dict[str, str]) -> tuple[float, float, float, str]:
    """Runs ``command``; returns its wall time, CPU time (user + system) and peak memory (MB), and its output."""
    start = time.monotonic()
    child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = child.stdout.read() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{out}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", nargs="+", default=["fr", "zh"], choices=["fr", "zh"])
    parser.add_argument("--seats", type=int, default=12, help="the table's seats (default 12)")
    parser.add_argument("--workers", default="2", help="engines side by side for the pre-render (default 2)")
    parser.add_argument("--pi-factor", type=float, default=3.5,
                        help="how many times slower a Raspberry Pi 4 core is than this machine's (default 3.5)")
    parser.add_argument("--skip-table", action="store_true", help="only the practice game")
    parser.add_argument("--core", default="0", help="the core the practice game is pinned to, the Pi's proxy "
                        "(taskset -c; 'none' to not pin)")
    args = parser.parse_args()

    from narrator.speak.kokoro_backend import MODEL_NAME, model_file

    joined = model_file()  # joined once, in the user's cache, as a first game leaves it
    python = sys.executable
    command = [python, "-m", "narrator"]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"machine: {cores} cores, load {os.getloadavg()[0]:.1f}; workers {args.workers}")
    for language in args.lang:
        with tempfile.TemporaryDirectory() as folder:
            cache = Path(folder) / "cache"
            kokoro = cache / "werewolf-narrator" / "kokoro"
            kokoro.mkdir(parents=True)
            if joined.stat().st_dev == kokoro.stat().st_dev:
                os.link(joined, kokoro / MODEL_NAME)
            else:
                shutil.copy2(joined, kokoro / MODEL_NAME)
            info = (kokoro / MODEL_NAME).stat()
            (kokoro / f"{MODEL_NAME}.ok").write_text(f"{info.st_size} {info.st_mtime_ns}", encoding="ascii")
            env = {**os.environ, "XDG_CACHE_HOME": str(cache), "XDG_DATA_HOME": str(Path(folder) / "data"),
                   "WEREWOLF_NARRATOR_RENDER_WORKERS": args.workers}
            if not args.skip_table:
                table = Path(folder) / "table.yaml"
                seats = NAMES.get(language, str(args.seats)) if args.seats == 12 else str(args.seats)
                table.write_text(f"language: {language}\nseats: {seats}\npreset: classic\nspeaker: kokoro\n",
                                 encoding="utf-8")
                wall, cpu, memory, out = run([*command, "voices", "render", language, "--config", str(table)], env)
                print(f"{language}: pre-render of a {args.seats}-seat table: {wall / 60:.1f} min wall, "
                      f"{cpu / 60:.1f} min CPU, peak {memory:.0f} MB; Raspberry Pi 4 (4 cores, x{args.pi_factor} "
                      f"a core, estimated): {cpu * args.pi_factor / 4 / 60:.0f} min")
                print("   ", out.strip().splitlines()[-1])
            script = ROOT / "examples" / f"practice-{language}.yaml"
            run([*command, "voices", "render", language, "--config", str(script)], env)
            _, lines = spoken_lines(script)
            pin = ["taskset", "-c", args.core] if args.core != "none" and shutil.which("taskset") else []
            wall, cpu, memory, out = run([*pin, python, "-c", GAME, language, str(script), json.dumps(lines)], env)
            result = json.loads(out.strip().splitlines()[-1])
            print(f"{language}: practice game after its pre-render: {result['lines']} lines, first heard "
                  f"{result['first']:.2f} s after the start, espeak-ng said {result['espeak']} "
                  f"(host told {result['told']}), peak {memory:.0f} MB, {wall:.1f} s wall")


if __name__ == "__main__":
    main()
