"""The night ambience (``ambience: true``): a soft wind under the night that masks the rustle of players moving.

The sound is generated here, from a fixed seed, so there is nothing to download and it is the same at every
table: noise shaped like wind (a soft hiss and a breathy band whose pitch and strength move slowly), one
loop of LOOP_SECONDS cached in memory, its seam crossfaded so that it never clicks. It plays at LEVEL_DBFS
(speech-gated RMS: the voice's lines are brought to hygiene.TARGET_DBFS, 13 dB louder), ducks by DUCK_DB under
each line the narrator says and comes back after, fades in when the table closes its eyes and out when it opens
them. What it hears of the game is only what the narrator said aloud (TableNarrator calls start, stop, duck and
unduck), so two games that sound alike have their ambience alike too.

One output stream plays both the ambience and the lines (`AmbienceMix` adds them up), rather than a second
stream beside the one each line opens (audio.play): on Linux a sound card opened directly through ALSA (a
Raspberry Pi's, or any `hw:` device) takes one stream at a time, so a line would fail, or wait, while the
ambience holds the device; PortAudio only mixes two streams where the system does (PulseAudio, PipeWire, dmix).
Lines through the mixer also start sooner: the stream is already running, not opened for each line.
With ``ambience: false`` (the default) nothing here runs and lines play as they always did.

The mix is counted in samples, not seconds: every ramp moves by samples the output has taken, so a test drives
it with a fake output and no clock. Pure Python on `array` (numpy is not a dependency): generating the loop
takes ~0.3 s (in the background, after the first line), mixing ~1 % of a core (scripts/bench_ambience.py).
"""

from __future__ import annotations

import array
import collections
import functools
import math
import random
import sys
import threading
import time
from typing import Any, Callable, Protocol

from .audio import Sound, device_arg, load_sounddevice
from .hygiene import _decode

RATE = 22050
"""The mix's sample rate: Piper's medium voices' and espeak-ng's; a line at another rate is resampled."""
LOOP_SECONDS = 20.0
"""How long the loop lasts before it repeats: long enough that nobody hears it come round."""
SEED = 1031
"""The loop's noise: fixed, so that every table hears the same wind (nothing in it depends on the game)."""
LEVEL_DBFS = -34.0
"""The ambience's RMS, dB relative to full scale: well under the voice (hygiene.TARGET_DBFS, -21)."""
PEAK_DBFS = -18.0
"""No sample of the loop above this: with the voice's peaks at -1 dBFS, the sum never reaches full scale."""
DUCK_DB = -15.0
"""How far the ambience goes down while a line is said."""
DUCK_DOWN = 0.15
"""Seconds to duck: over before the line's speech begins (hygiene.LEAD_IN is 75 ms of silence)."""
DUCK_UP = 0.3
"""Seconds to come back after a line."""
FADE_IN = 2.0
"""Seconds to fade in when the table closes its eyes."""
FADE_OUT = 1.5
"""Seconds to fade out when it opens them."""
HISS_HZ = 1200.0
"""The hiss softens above this (12 dB an octave): a breeze, not a radio between stations."""
FLOOR_HZ = 150.0
"""Nothing much under this: a laptop's speaker cannot play it, and it would only eat the headroom."""
BAND_HZ = (350.0, 900.0)
"""Where the breath of wind lies, from the lightest gust to the strongest."""
CROSSFADE = 2.0
"""Seconds of the loop's start blended with what would have followed its end: the seam is continuous."""
OUTPUT_LATENCY = 0.1
"""Seconds of sound queued ahead of the sound card: room for the callback to wait for the interpreter's lock."""
BLOCK = 512
"""Frames the output asks for at a time (23 ms): a line waits at most that long to begin; ~0.1 ms of CPU each."""


def _ratio(db: float) -> float:
    return float(10 ** (db / 20))


@functools.lru_cache(maxsize=2)
def night_loop(rate: int = RATE) -> Sound:
    """Returns the ambience's loop at ``rate``: mono, 16-bit, LOOP_SECONDS long; generated once, then kept.

    White noise from SEED, darkened above HISS_HZ and thinned under FLOOR_HZ, and through it a breath of wind
    (a band around BAND_HZ, the higher the stronger the gust): most of it between 300 Hz and 1.5 kHz, where a
    small loudspeaker plays and rustling is heard. The gusts follow slow waves that come round a
    whole number of times in the loop, so the loop's end leads into its start; the noise's own seam is hidden
    by an equal-power crossfade of CROSSFADE seconds with the noise that would have followed the end.
    """
    n = round(rate * LOOP_SECONDS)
    settle = rate  # the filters' first second is dropped: they start from silence
    fade = round(rate * CROSSFADE)
    total = settle + n + fade
    noise = array.array("b", random.Random(SEED).randbytes(total))

    def gust(i: int) -> float:  # 0.4 to 1.0: periodic in n, so it is the same on both sides of the seam
        t = 2 * math.pi * ((i - settle) % n) / n
        return 0.7 + 0.2 * math.sin(2 * t + 0.3) + 0.1 * math.sin(5 * t + 2.1)

    def pole(hertz: float) -> float:  # a one-pole filter's coefficient
        return 1 - math.exp(-2 * math.pi * hertz / rate)

    soft, deep = pole(HISS_HZ), pole(FLOOR_HZ)
    damping = 1 / 1.2  # the band's width: a soft resonance, wind rather than a whistle
    hiss = dark = floor = low = band = 0.0
    tune = strength = 0.0
    raw = [0.0] * total
    for i in range(total):
        if i % 32 == 0:  # the gusts are slow: their filter is retuned every 32 samples, not every one
            strength = gust(i)
            tune = 2 * math.sin(math.pi * (BAND_HZ[0] + (BAND_HZ[1] - BAND_HZ[0]) * (strength - 0.4) / 0.6) / rate)
        x = noise[i] / 128.0
        hiss += soft * (x - hiss)  # white noise darkened above HISS_HZ (twice: 12 dB an octave)...
        dark += soft * (hiss - dark)
        floor += deep * (dark - floor)  # ...with what lies under FLOOR_HZ taken away
        low += tune * band  # a state-variable filter's band-pass: the wind's breath
        band += tune * (dark - low - damping * band)
        raw[i] = (0.7 * (dark - floor) + band) * strength
    loop = raw[settle:settle + n]
    for i in range(fade):  # the start becomes what followed the end, and turns into itself by the fade's end
        w = (i / fade) * math.pi / 2
        loop[i] = raw[settle + n + i] * math.cos(w) + loop[i] * math.sin(w)
    rms = math.sqrt(sum(v * v for v in loop) / n)
    peak = max(abs(v) for v in loop)
    full = 32767
    gain = min(_ratio(LEVEL_DBFS) * full / rms, _ratio(PEAK_DBFS) * full / peak)
    samples = array.array("h", [round(v * gain) for v in loop])
    if sys.byteorder == "big":
        samples.byteswap()  # WAV is little-endian
    return Sound(samples.tobytes(), rate, 1, 2)


def mix_samples(sound: Sound, rate: int = RATE) -> array.array[int]:
    """Returns ``sound`` as the mix takes it: mono 16-bit samples at ``rate`` (channels averaged; another rate
    resampled by linear interpolation, good enough for the failure tone and the rare voice at 16 kHz)."""
    samples = _decode(sound.frames, sound.width)
    shift = 8 * samples.itemsize - 16  # 8-bit samples go up, 24- and 32-bit ones down, to 16 bits
    channels = max(1, sound.channels)
    mono = list(samples)
    if channels > 1:
        mono = [sum(mono[i:i + channels]) // channels for i in range(0, len(mono) - channels + 1, channels)]
    if shift > 0:
        mono = [s >> shift for s in mono]
    elif shift < 0:
        mono = [s << -shift for s in mono]
    if sound.rate != rate and mono:
        step = sound.rate / rate
        last = len(mono) - 1
        resampled = []
        for j in range(int(last / step) + 1):
            x = j * step
            i = int(x)
            frac = x - i
            after = mono[i + 1] if i < last else mono[i]
            resampled.append(round(mono[i] + (after - mono[i]) * frac))
        mono = resampled
    return array.array("h", mono)


class Ramp:
    """A gain that moves in a straight line to its target, sample by sample: it never jumps, so never clicks."""

    def __init__(self, value: float) -> None:
        self.value = self.target = value
        self._step = 0.0
        self._left = 0  # samples until the target

    def to(self, target: float, samples: int) -> None:
        """Heads for ``target``, reaching it in ``samples`` from where it stands now."""
        self.target = target
        self._left = max(1, samples) if target != self.value else 0
        self._step = (target - self.value) / max(1, samples)

    def take(self, count: int) -> float | list[float]:
        """Returns the next ``count`` values: one number while it holds still, else a list."""
        if not self._left:
            return self.value
        moving = min(count, self._left)
        values = [self.value + self._step * (i + 1) for i in range(moving)]
        self._left -= moving
        if not self._left:
            values[-1] = self.target  # exactly, whatever the rounding on the way
        values += [self.target] * (count - moving)
        self.value = values[-1]
        return values


class AmbienceMix:
    """The sound the output plays, block by block: the loop under its two gains (faded in or out, ducked or not)
    plus the line being said. Thread-safe: the output's thread fills, the game's thread steers."""

    def __init__(self, rate: int = RATE) -> None:
        self.rate = rate
        self.loop: array.array[int] | None = None  # silent until the loop is generated
        self.position = 0
        self.level = Ramp(0.0)  # 0 when the table's eyes are open, 1 when they are closed
        self.ducking = Ramp(1.0)  # 1, or DUCK_DB under a line
        self.played = 0  # samples taken by the output: the mix's clock
        self._lines: collections.deque[tuple[array.array[int], threading.Event]] = collections.deque()
        self._line_at = 0
        self._lock = threading.Lock()

    def set_loop(self, sound: Sound) -> None:
        """Gives the mix its loop. Until then nothing was heard: a fade begun meanwhile begins again, from
        silence (the loop does not burst in halfway up), and one that went down ends at once."""
        samples = mix_samples(sound, self.rate)
        with self._lock:
            self.loop = samples
            target, self.level = self.level.target, Ramp(0.0)
            if target > 0:
                self.level.to(target, self._seconds(FADE_IN))

    def _seconds(self, seconds: float) -> int:
        return round(seconds * self.rate)

    def start(self) -> None:
        with self._lock:
            self.level.to(1.0, self._seconds(FADE_IN))

    def stop(self) -> None:
        with self._lock:
            self.level.to(0.0, self._seconds(FADE_OUT))

    def duck(self) -> None:
        with self._lock:
            self.ducking.to(_ratio(DUCK_DB), self._seconds(DUCK_DOWN))

    def unduck(self) -> None:
        with self._lock:
            self.ducking.to(1.0, self._seconds(DUCK_UP))

    def fade_out(self, seconds: float) -> None:
        """Fades the ambience out over ``seconds`` (the game stops)."""
        with self._lock:
            self.level.to(0.0, self._seconds(seconds))

    def add(self, samples: array.array[int]) -> threading.Event:
        """Queues a line; the event is set once its last sample has been handed to the output."""
        done = threading.Event()
        with self._lock:
            if samples:
                self._lines.append((samples, done))
            else:
                done.set()
        return done

    def fill(self, count: int) -> bytes:
        """Returns the next ``count`` samples of the mix, as 16-bit PCM."""
        with self._lock:
            self.played += count
            mixed = self._ambience(count)
            while self._lines and count:
                line, done = self._lines[0]
                at = len(mixed) - count
                part = line[self._line_at:self._line_at + count]
                mixed[at:at + len(part)] = [max(-32768, min(32767, a + b)) for a, b in zip(mixed[at:], part)]
                self._line_at += len(part)
                count -= len(part)
                if self._line_at >= len(line):
                    self._lines.popleft()
                    self._line_at = 0
                    done.set()
            return array.array("h", mixed).tobytes()

    def _ambience(self, count: int) -> list[int]:
        level, ducking = self.level.take(count), self.ducking.take(count)
        loop = self.loop
        if loop is None or level == 0.0:
            return [0] * count
        start, end = self.position, self.position + count
        chunk = loop[start:end]
        while len(chunk) < count:  # round the loop's end
            chunk.extend(loop[:count - len(chunk)])
        self.position = end % len(loop)
        if isinstance(level, float) and isinstance(ducking, float):
            gain = level * ducking
            return [int(a * gain) for a in chunk]
        levels = [level] * count if isinstance(level, float) else level
        duckings = [ducking] * count if isinstance(ducking, float) else ducking
        return [int(a * g * d) for a, g, d in zip(chunk, levels, duckings)]


class Output(Protocol):
    """Where the mix goes: a sound card's stream (SoundDeviceOutput) or a test's fake."""

    latency: float
    """Seconds between a sample handed over and its being heard."""

    def start(self, fill: Callable[[int], bytes]) -> None:
        """Starts taking samples from ``fill``, BLOCK at a time, for as long as it is open."""

    def wait(self, done: threading.Event, timeout: float) -> bool:
        """Waits until ``done`` is set (a line handed over), at most ``timeout`` seconds; returns whether it was."""

    def close(self) -> None:
        """Stops taking samples."""


class SoundDeviceOutput:
    """A PortAudio output stream on ``device`` that pulls the mix from its callback, BLOCK frames at a time."""

    def __init__(self, device: str | int | None = None, rate: int = RATE) -> None:
        self.device = device
        self.rate = rate
        self.latency = 0.0
        self._stream: Any = None

    def start(self, fill: Callable[[int], bytes]) -> None:
        sd = load_sounddevice()

        def callback(outdata: Any, frames: int, when: Any, status: Any) -> None:
            outdata[:] = fill(frames)

        # A Python callback may wait for the interpreter's lock (a line being rendered, cleaned): with PortAudio's
        # 'high' latency (46 ms through PulseAudio) it came late, and ALSA's PulseAudio plugin then stalled for
        # 1.5 to 1.9 s of silence in the middle of the night; with OUTPUT_LATENCY it never did [checked].
        self._stream = sd.RawOutputStream(samplerate=self.rate, channels=1, dtype="int16", blocksize=BLOCK,
                                          latency=OUTPUT_LATENCY, device=device_arg(self.device),
                                          callback=callback)
        self._stream.start()
        self.latency = float(self._stream.latency)

    def wait(self, done: threading.Event, timeout: float) -> bool:
        if not done.wait(timeout):
            return False
        time.sleep(self.latency)  # handed over is not yet heard: the microphone stays muted until it is
        return True

    def close(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            stream.close()


class NightAmbience:
    """The ambience and the lines, through one output: what TableNarrator steers and the speaker plays into.

    `start` (eyes closed) and `stop` (eyes open) fade it in and out, `duck` and `unduck` surround every line
    said, `play` (the speaker's sink) says a line over it and returns once it has been heard. The loop
    (``loop``: given already) is generated in the background once the first line has been heard, or when the
    ambience starts if that comes first: not while the program starts, where it would delay the first line
    (0.3 s of CPU, holding the interpreter's lock); the ambience is silent until it is ready.
    A host's pause changes nothing: the eyes stay closed, so the wind goes on masking the room.
    """

    def __init__(self, output: Output, rate: int = RATE, loop: Sound | None = None) -> None:
        self.mix = AmbienceMix(rate)
        self._output = output
        self._broken = False
        self.generating: threading.Thread | None = None
        output.start(self.mix.fill)
        if loop is not None:
            self.mix.set_loop(loop)

    def _generate(self) -> None:
        if self.mix.loop is None and self.generating is None:
            rate = self.mix.rate
            self.generating = threading.Thread(target=lambda: self.mix.set_loop(night_loop(rate)), name="ambience",
                                               daemon=True)
            self.generating.start()

    def start(self) -> None:
        self._generate()
        self.mix.start()

    def stop(self) -> None:
        self.mix.stop()

    def duck(self) -> None:
        self.mix.duck()

    def unduck(self) -> None:
        self.mix.unduck()

    def play(self, sound: Sound) -> None:
        """Says ``sound`` over the ambience; returns once it has been heard. Raises RuntimeError if the output
        stopped taking samples (then every later line too, at once: the speaker prints them)."""
        if self._broken:
            raise RuntimeError("the sound output stopped playing")
        samples = mix_samples(sound, self.mix.rate)
        done = self.mix.add(samples)
        if not self._output.wait(done, len(samples) / self.mix.rate + 5.0):
            self._broken = True
            raise RuntimeError("the sound output stopped playing")
        self._generate()

    def close(self) -> None:
        """Fades the ambience out quickly (no click when a game stops at night) and closes the output."""
        if self.mix.level.value > 0.0 and not self._broken:
            self.mix.fade_out(0.1)
            self._output.wait(self.mix.add(array.array("h", bytes(2 * round(0.1 * self.mix.rate)))), 1.0)
        self._output.close()

