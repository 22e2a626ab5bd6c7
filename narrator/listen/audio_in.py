"""Sound in: where a listener's audio comes from — a microphone, or WAV recordings played as one would be.

A source puts mono 16-bit blocks at its ``rate`` into the sink the listener gives it, from
its own thread; everything after the sink (the queue, the worker, the recognizer) is the
listener's, so a recording takes exactly the microphone's path.
"""

from __future__ import annotations

import array
import collections
import math
import os
import queue
import sys
import threading
import time
import wave
from typing import Any, Callable, Iterable, Protocol, Union

from ..errors import UserError
from ..hint import command
from ..speak.audio import device_arg, load_sounddevice
from .errors import MicrophoneLost

# Frames a block: a quarter of a second at 16 kHz, what vosk's own examples read at a time.
BLOCKSIZE = 4000
# A microphone that has delivered nothing for this long is gone (an unplugged USB microphone
# often stops calling back without any error); the floor keeps slow machines from false alarms.
STALL_SECONDS = 2.0

Recording = Union[str, os.PathLike[str], tuple[bytes, int], None]
"""A WAV file's path, or (mono 16-bit PCM, sample rate), or None: nothing said at that question."""


__all__ = ["BLOCKSIZE", "AudioSource", "ListenerUnavailable", "MicrophoneLost", "MicrophoneSource", "Recording",
           "WavSource", "pcm_duration", "read_wav", "resample", "trim_silence"]


class ListenerUnavailable(UserError):
    """Voice input cannot start here: the message says what is missing and what to do about it."""


class AudioSource(Protocol):
    """Puts sound into a listener."""

    name: str
    rate: int
    """Samples a second of every block."""

    def start(self, sink: Callable[[bytes], None]) -> None:
        """Starts putting blocks of mono 16-bit samples into ``sink``, from another thread."""

    def cue(self) -> None:
        """A question opens: a recording plays its next utterance; a microphone hears on."""

    def problem(self) -> str | None:
        """Returns why no more sound will come (the microphone is lost), or None."""

    def close(self) -> None:
        """Stops; closing again does nothing."""


class MicrophoneSource:
    """A sounddevice input stream (mono, 16-bit) on ``device`` (an index or part of a name; None: the default).

    ``samplerate`` None takes the device's own rate, which the recognizer is told (vosk resamples).
    Raises ListenerUnavailable when there is no sounddevice, no PortAudio, or no such microphone.
    """

    name = "microphone"

    def __init__(self, device: str | int | None = None, samplerate: int | None = None,
                 blocksize: int = BLOCKSIZE) -> None:
        try:
            sd = load_sounddevice()
        except ImportError:
            raise ListenerUnavailable("sounddevice is not installed (pip install sounddevice)") from None
        except OSError:
            hint = "sudo apt-get install libportaudio2" if sys.platform.startswith("linux") else \
                "pip install --force-reinstall sounddevice"
            raise ListenerUnavailable(f"the PortAudio library is missing ({hint})") from None
        self._sd: Any = sd
        self.device = device_arg(device)
        try:
            if not any(d["max_input_channels"] > 0 for d in sd.query_devices()):
                raise ListenerUnavailable("no microphone found")
            info = sd.query_devices(self.device, "input")
        except ValueError:
            raise ListenerUnavailable(f"no microphone matches {device!r} "
                                      f"({command()} devices lists them)") from None
        except sd.PortAudioError as exc:
            raise ListenerUnavailable(f"the microphone cannot be used ({exc})") from None
        self.rate = int(samplerate or info["default_samplerate"])
        self.blocksize = blocksize
        self.dropped = 0
        """How many times the system dropped sound it could not hand on in time (an overflow)."""
        self._stream: Any = None
        self._closing = False
        self._stopped = False
        self._last = 0.0

    def start(self, sink: Callable[[bytes], None]) -> None:
        """Opens the stream; raises ListenerUnavailable if PortAudio refuses it."""
        def callback(indata: Any, frames: int, when: Any, status: Any) -> None:
            # Only hand the block on: PortAudio's thread must never wait for the recognizer.
            # An overflow (status) means blocks were dropped, which the recognizer survives; counted, so that a
            # word missed on a busy machine can be told from a word misheard (the tests).
            self._last = time.monotonic()
            if status and getattr(status, "input_overflow", False):
                self.dropped += 1
            sink(bytes(indata))

        try:
            self._stream = self._sd.RawInputStream(
                samplerate=self.rate, blocksize=self.blocksize, device=self.device, channels=1,
                dtype="int16", callback=callback, finished_callback=self._finished)
            self._last = time.monotonic()
            self._stream.start()
        except self._sd.PortAudioError as exc:
            self.close()
            raise ListenerUnavailable(f"the microphone cannot be used ({exc})") from None

    def _finished(self) -> None:
        self._stopped = True

    def cue(self) -> None:
        """Does nothing: a microphone always hears."""

    def problem(self) -> str | None:
        """Returns why the microphone is lost: its stream ended, or it has gone silent for good."""
        if self._stream is None or self._closing:
            return None
        if self._stopped or not self._stream.active:
            return "the microphone stopped"
        stall = max(STALL_SECONDS, 8 * self.blocksize / self.rate)
        if time.monotonic() - self._last > stall:
            return f"the microphone has sent no sound for {stall:.0f} s"
        return None

    def close(self) -> None:
        """Closes the stream; closing again does nothing."""
        stream, self._stream = self._stream, None
        if stream is None:
            return
        self._closing = True
        try:
            stream.close()
        except self._sd.PortAudioError:
            pass  # a device already gone has nothing left to release


def read_wav(path: str | os.PathLike[str]) -> tuple[bytes, int]:
    """Returns a 16-bit WAV file's samples as mono PCM (channels averaged) and its sample rate."""
    try:
        with wave.open(os.fspath(path), "rb") as wav:
            width, channels, rate = wav.getsampwidth(), wav.getnchannels(), wav.getframerate()
            frames = wav.readframes(wav.getnframes())
    except (OSError, EOFError, wave.Error) as exc:
        raise UserError(f"{path}: cannot read this WAV file ({getattr(exc, 'strerror', None) or exc})") from None
    if width != 2:
        raise UserError(f"{path}: 16-bit PCM WAV expected, this one has {8 * width}-bit samples")
    if channels == 1:
        return frames, rate
    samples = array.array("h", frames)
    mono = array.array("h", (sum(samples[i:i + channels]) // channels for i in range(0, len(samples), channels)))
    return mono.tobytes(), rate


def resample(pcm: bytes, rate: int, to: int) -> bytes:
    """Returns mono 16-bit ``pcm`` at ``rate`` resampled to ``to`` by linear interpolation.

    >>> import array
    >>> list(array.array("h", resample(array.array("h", [0, 100, 200, 300]).tobytes(), 2, 4)))
    [0, 50, 100, 150, 200, 250, 300, 300]
    """
    if rate == to:
        return pcm
    samples = array.array("h", pcm)
    if not samples:
        return b""
    last = len(samples) - 1
    step = rate / to
    out = array.array("h")
    for i in range(int(len(samples) * to / rate)):
        pos = i * step
        k = min(int(pos), last)
        frac = pos - k
        nxt = samples[min(k + 1, last)]
        out.append(round(samples[k] + (nxt - samples[k]) * frac))
    return out.tobytes()


class WavSource:
    """Plays recordings into a listener as a microphone would hear them: one at each question.

    Each question (each ``cue``) plays the next recording: ``lead`` seconds of silence, the
    recording, then ``tail`` seconds of silence so that the recognizer sees the end of the
    utterance — cut short when the next question opens. Blocks come ``speed`` times faster
    than real time (1: as spoken; math.inf: as fast as the listener takes them). Every
    recording is brought to ``rate`` (None: the first recording's rate, else 16 kHz).
    """

    name = "wav"

    def __init__(self, recordings: Iterable[Recording] = (), *, speed: float = 1.0, rate: int | None = None,
                 lead: float = 0.3, tail: float = 2.5, blocksize: int = BLOCKSIZE) -> None:
        if speed <= 0:
            raise ValueError("speed must be positive")
        loaded = [self._load(r) for r in recordings]
        self.rate = rate or next((r[1] for r in loaded if r is not None), 16000)
        self.speed = speed
        self.lead = lead
        self.tail = tail
        self.blocksize = blocksize
        self.last_speech_end: float | None = None
        """When the last recording's final sample was heard, on time.monotonic()'s clock (for latency)."""
        self._pending: collections.deque[bytes | None] = collections.deque(
            None if r is None else resample(r[0], r[1], self.rate) for r in loaded)
        self._cues: queue.Queue[bool] = queue.Queue()
        self._sink: Callable[[bytes], None] | None = None
        self._thread: threading.Thread | None = None
        self._closed = False

    @staticmethod
    def _load(recording: Recording) -> tuple[bytes, int] | None:
        if recording is None:
            return None
        if isinstance(recording, tuple):
            return recording
        return read_wav(recording)

    def add(self, recording: Recording) -> None:
        """Queues ``recording`` for the question after those already queued."""
        loaded = self._load(recording)
        self._pending.append(None if loaded is None else resample(loaded[0], loaded[1], self.rate))

    def start(self, sink: Callable[[bytes], None]) -> None:
        """Starts the thread that plays a recording at each cue."""
        self._sink = sink
        self._thread = threading.Thread(target=self._play, name="wav-source", daemon=True)
        self._thread.start()

    def cue(self) -> None:
        """Plays the next recording (nothing, if there is none left or it is None)."""
        self._cues.put(True)

    def problem(self) -> str | None:
        """Returns None: recordings are never lost."""
        return None

    def close(self) -> None:
        """Stops playing; closing again does nothing."""
        self._closed = True
        self._cues.put(False)
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _play(self) -> None:
        silence = bytes(2 * self.blocksize)
        while self._cues.get() and not self._closed:
            pcm = self._pending.popleft() if self._pending else None
            if pcm is None:
                continue
            start = time.monotonic()
            sent = 0  # frames
            # A microphone delivers a block once its last frame is captured: so does this.
            audio = bytes(2 * round(self.lead * self.rate)) + pcm
            for offset in range(0, len(audio), 2 * self.blocksize):
                sent = self._send(audio[offset:offset + 2 * self.blocksize], start, sent)
                if self._closed:
                    return
            self.last_speech_end = start + sent / self.rate / self.speed
            for _ in range(math.ceil(self.tail * self.rate / self.blocksize)):
                if self._closed or not self._cues.empty():
                    break
                sent = self._send(silence, start, sent)

    def _send(self, block: bytes, start: float, sent: int) -> int:
        """Hands ``block`` on once it would have been heard; returns the frames sent so far."""
        sent += len(block) // 2
        delay = start + sent / self.rate / self.speed - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        assert self._sink is not None
        self._sink(block)
        return sent


def pcm_duration(pcm: bytes, rate: int) -> float:
    """Returns how many seconds mono 16-bit ``pcm`` lasts.

    >>> pcm_duration(bytes(32000), 16000)
    1.0
    """
    return len(pcm) / 2 / rate


def trim_silence(pcm: bytes, threshold: int = 100) -> bytes:
    """Returns mono 16-bit ``pcm`` without the quiet samples at its ends (at most ``threshold``).

    >>> import array
    >>> list(array.array("h", trim_silence(array.array("h", [0, 3, 500, -20, 700, 2, 0]).tobytes())))
    [500, -20, 700]
    """
    samples = array.array("h", pcm)
    loud = [i for i, s in enumerate(samples) if abs(s) > threshold]
    if not loud:
        return b""
    return samples[loud[0]:loud[-1] + 1].tobytes()
