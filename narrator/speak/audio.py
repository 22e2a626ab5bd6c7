"""Sound: rendered lines as WAV data, and playing them with sounddevice (no numpy needed)."""

from __future__ import annotations

import array
import atexit
import importlib
import math
import sys
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# sounddevice's name for the sample format of each WAV sample width (8-bit WAV is unsigned).
_DTYPES = {1: "uint8", 2: "int16", 3: "int24", 4: "int32"}
# Seconds of sound the output buffer holds. A line is written whole at once, so a deep buffer delays nothing (its
# first frame plays as soon as it is written) and rides out a busy CPU: with PortAudio's default through
# PulseAudio (35 ms) a loaded machine broke lines mid-word [measured with tests/pulse.py's sound card].
OUTPUT_LATENCY = 0.2


@dataclass(frozen=True)
class Heard:
    """Who said a line and when it began to play: the voice log's ``voice`` ("kokoro:af_heart", "espeak-ng:gmw/en-us",
    "console" for a printed line) and ``heard`` (epoch seconds)."""

    voice: str
    at: float


@dataclass(frozen=True)
class Sound:
    """A rendered line: PCM frames and how to play them."""

    frames: bytes
    rate: int
    channels: int
    width: int

    @classmethod
    def read(cls, path: Path) -> Sound:
        """Reads a WAV file."""
        with wave.open(str(path), "rb") as wav:
            return cls(wav.readframes(wav.getnframes()), wav.getframerate(), wav.getnchannels(),
                       wav.getsampwidth())

    def write(self, path: Path) -> None:
        """Writes the sound as a WAV file."""
        with wave.open(str(path), "wb") as wav:
            wav.setnchannels(self.channels)
            wav.setsampwidth(self.width)
            wav.setframerate(self.rate)
            wav.writeframes(self.frames)


def load_sounddevice() -> Any:
    """Imports sounddevice; raises ImportError without it, OSError without the PortAudio library."""
    quiet_alsa()
    return importlib.import_module("sounddevice")


_alsa_handler: Any = None  # kept alive for as long as ALSA may call it


def quiet_alsa() -> None:
    """Stops ALSA's library printing its messages on the terminal ("ALSA lib pcm.c:…: underrun occurred").

    alsa-lib writes them straight to the process's stderr, across the full-screen view the table reads (seen in
    play through PulseAudio: an underrun scrolled the screen by a line). They are for developers, and an underrun
    the buffer rode out is already heard or not; the narrator says in its own words what keeps sound from playing.
    Does nothing where there is no ALSA (macOS, Windows).
    """
    global _alsa_handler
    if _alsa_handler is not None or not sys.platform.startswith("linux"):
        return
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("asound")
    try:
        alsa = ctypes.CDLL(name or "libasound.so.2")
    except OSError:
        return  # no ALSA: nothing prints
    # snd_lib_error_handler_t is variadic; a handler that reads only the fixed arguments (and ignores them) is safe.
    handler_type = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                    ctypes.c_char_p)
    _alsa_handler = handler_type(lambda *_: None)
    alsa.snd_lib_error_set_handler(_alsa_handler)
    # ALSA's own default again at exit, registered before sounddevice is imported so that it runs after
    # sounddevice has stopped PortAudio (atexit runs last-in first-out): no Python called back once finalizing.
    atexit.register(alsa.snd_lib_error_set_handler, None)


def device_arg(device: str | int | None) -> str | int | None:
    """Returns the device as sounddevice takes it: "3" from a config or a command line is index 3."""
    if isinstance(device, str) and device.strip().isdigit():
        return int(device)
    return device


NO_OUTPUT = "no sound output device found"
"""The commonest reason there is no sound at a table (no loudspeaker plugged in): the one the host's screen says in the
table's language (``sound.no_output``); the others name a package or a device as the system does."""


def output_problem(device: str | int | None = None) -> str | None:
    """Returns what keeps sound from playing on ``device`` (and what to install), or None if it can play."""
    try:
        sd = load_sounddevice()
    except ImportError:
        return "sounddevice is not installed (pip install sounddevice)"
    except OSError:
        if sys.platform.startswith("linux"):
            return "the PortAudio library is missing (sudo apt-get install libportaudio2)"
        return "the PortAudio library is missing (pip install --force-reinstall sounddevice)"
    try:
        if not any(d["max_output_channels"] > 0 for d in sd.query_devices()):
            return NO_OUTPUT
        sd.query_devices(device_arg(device), "output")
    except ValueError:
        return f"no sound output device matches {device!r} (python -m sounddevice lists them)"
    except sd.PortAudioError as exc:
        return f"the sound output device cannot be used ({exc})"
    return None


def tone(hertz: float = 880.0, seconds: float = 0.25, rate: int = 16000) -> Sound:
    """Returns a short sine tone: the sign, when a line could not be said, to read the screen.

    >>> t = tone(seconds=0.1); (t.rate, t.channels, t.width, len(t.frames))
    (16000, 1, 2, 3200)
    """
    count = int(seconds * rate)
    samples = array.array("h", (int(12000 * math.sin(2 * math.pi * hertz * i / rate)) for i in range(count)))
    return Sound(samples.tobytes(), rate, 1, 2)


def play(sound: Sound, device: str | int | None = None) -> None:
    """Plays ``sound`` on ``device`` and returns once it has been heard."""
    sd = load_sounddevice()
    with sd.RawOutputStream(samplerate=sound.rate, channels=sound.channels, dtype=_DTYPES[sound.width],
                            device=device_arg(device), latency=OUTPUT_LATENCY) as stream:
        stream.write(sound.frames)
        # Stopping the stream may drop what is still buffered (through PulseAudio's ALSA plugin it drops up to
        # the whole buffer: the end of the line): what it drops is this silence, written once the line is.
        frames = math.ceil(stream.latency * sound.rate)
        stream.write((b"\x80" if sound.width == 1 else bytes(sound.width)) * (frames * sound.channels))
