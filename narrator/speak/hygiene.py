"""Audio hygiene: every rendered line, whatever the backend, gets the same lead-in, peak limit and loudness.

espeak-ng and Piper start speech within a few milliseconds of the first sample [checked: espeak-ng
0 to 49 ms], so a sound device that wakes slowly clips the first syllable; both may peak at 0 dBFS;
and their levels differ, so a line said by the fallback would jump in volume next to one said by
Piper. `clean` fixes all three on the rendered line, before it enters the voice cache; a backend's
renderer calls it on each line it renders, and `VERSION` is part of every cache key (see cache.py),
so lines cached before a change here are rendered anew rather than played raw.

Pure Python on `array` (no numpy, no audioop, which Python 3.13 removed): ~15 ms a second of speech
(scripts/bench_loudness.py), in the renderer's thread, mostly while lines are rendered ahead.
"""

from __future__ import annotations

import array
import math
import operator
import sys

from .audio import Sound

# Bumped whenever `clean` changes what it makes of a line: it is part of the voice cache's key.
VERSION = 1
# Silence before the speech: long enough for a sound device to wake, short enough not to be heard as a pause.
LEAD_IN = 0.075
# At least this much silence after the speech (espeak-ng leaves ~300 ms of its own, kept as its pause).
TAIL = 0.05
# No sample above this: the headroom keeps a resampling sound card or a DAC's filter from clipping.
PEAK_DBFS = -1.0
# The loudness every line is brought to: speech-gated RMS, dB relative to full scale (a full-scale sine is -3).
# espeak-ng's lines measure -24 to -15, their peaks 12 to 20 dB above (median 17.5) [checked, 900 lines
# en/fr/zh]: at -21, every one of them comes out between -22.0 and -20.4, the peak limit holding few back.
TARGET_DBFS = -21.0
# The most a line is amplified: a line far too quiet is broken, and amplifying it more only raises its noise.
MAX_GAIN_DB = 24.0
# Loudness is measured on 50 ms blocks: those under the absolute gate (silence, the engine's noise floor) and
# those more than RELATIVE_GATE_DB under the speech's mean (pauses between words) do not count.
BLOCK = 0.05
ABSOLUTE_GATE_DBFS = -60.0
RELATIVE_GATE_DB = -20.0
# Leading samples at most this loud are silence: trimmed, then replaced by exactly LEAD_IN of zeros.
SILENT_DBFS = -60.0
# Words a minute when the table sets none: espeak-ng's own default, an unhurried pace for a table.
# Not read from the engine: pyttsx3 binds espeak-ng's GetParameter without its second argument,
# so the rate it reports is now the default, now the current one [checked].
DEFAULT_RATE = 175


def _ratio(db: float) -> float:
    return float(10 ** (db / 20))


# 8-bit WAV is unsigned: flipping the top bit makes it signed, and flipping it again makes it unsigned.
_FLIP_8BIT = bytes(i ^ 0x80 for i in range(256))


def _decode(frames: bytes, width: int) -> array.array[int]:
    """Returns the samples as signed integers (24-bit ones shifted up into 32 bits)."""
    if width == 1:
        return array.array("b", frames.translate(_FLIP_8BIT))
    if width == 3:  # no 3-byte array type: each sample becomes the top three bytes of a 32-bit one
        padded = bytearray(len(frames) // 3 * 4)
        for i in range(3):
            padded[i + 1::4] = frames[i::3]
        frames = bytes(padded)
    samples = array.array("h" if width == 2 else "i", frames)
    if sys.byteorder == "big" and width > 1:  # WAV is little-endian
        samples.byteswap()
    return samples


def _encode(samples: array.array[int], width: int) -> bytes:
    if width == 1:
        return samples.tobytes().translate(_FLIP_8BIT)
    if sys.byteorder == "big":
        samples.byteswap()
    raw = samples.tobytes()
    if width != 3:
        return raw
    packed = bytearray(len(raw) // 4 * 3)
    for i in range(3):
        packed[i::3] = raw[i + 1::4]
    return bytes(packed)


def loudness(samples: array.array[int], channels: int, rate: int) -> float | None:
    """Returns the speech's gated RMS as a fraction of full scale, or None if there is no sound above the gate.

    A simplified EBU R128 gating, on 50 ms blocks rather than 400 ms (a call lasts one or two seconds),
    without its K-weighting filter: both backends say speech, whose spectra differ far less than
    the programmes R128 levels, and a filter in pure Python would cost more than the rest. Plain RMS
    would count the pauses: a line with long silences (espeak-ng's 300 ms tail) would be pushed louder.
    Channels are averaged, so a mono line and the same line in stereo measure the same.

    >>> loudness(array.array("h", [0] * 2205), 1, 22050) is None
    True
    >>> round(20 * math.log10(loudness(array.array("h", [16384, -16384] * 2205), 1, 22050)), 1)
    -6.0
    """
    full = float(2 ** (8 * samples.itemsize - 1))
    size = max(1, round(rate * BLOCK)) * channels
    blocks = []  # (mean square, samples): the last block is short, and weighs only as much as it lasts
    for start in range(0, len(samples), size):
        block = samples[start:start + size]
        blocks.append((sum(map(operator.mul, block, block)) / len(block) / (full * full), len(block)))
    loud = [(p, n) for p, n in blocks if p > _ratio(ABSOLUTE_GATE_DBFS) ** 2]
    if not loud:
        return None
    floor = sum(p * n for p, n in loud) / sum(n for _, n in loud) * _ratio(RELATIVE_GATE_DB) ** 2
    speech = [(p, n) for p, n in loud if p >= floor]
    return math.sqrt(sum(p * n for p, n in speech) / sum(n for _, n in speech))


def clean(sound: Sound) -> Sound:
    """Returns ``sound`` with LEAD_IN of silence before it, TAIL at least after it, at TARGET_DBFS, peaks ≤ PEAK_DBFS.

    The gain brings the speech's gated loudness to TARGET_DBFS, but never more than MAX_GAIN_DB and never
    so much that a peak passes PEAK_DBFS: a line whose peaks stand out is left a little quieter rather than
    distorted by a limiter. The near-silence before the speech (under SILENT_DBFS) is replaced by
    exactly LEAD_IN of zeros; silence after it is kept, topped up to TAIL. A silent or empty line comes
    out as LEAD_IN + TAIL of silence. Any sample rate, any number of channels, 8- to 32-bit samples.
    """
    if sound.width not in (1, 2, 3, 4) or sound.channels < 1 or sound.rate < 1:
        raise ValueError(f"cannot clean a sound of {sound.channels} channels, {sound.width}-byte samples "
                         f"at {sound.rate} Hz")
    samples = _decode(sound.frames, sound.width)
    channels = sound.channels
    del samples[len(samples) // channels * channels:]  # a torn last frame
    full = 2 ** (8 * samples.itemsize - 1)
    level = loudness(samples, channels, sound.rate)
    peak = max(max(samples, default=0), -min(samples, default=0))
    gain = min(_ratio(TARGET_DBFS) / level if level else 1.0, _ratio(MAX_GAIN_DB))
    ceiling = math.floor(full * _ratio(PEAK_DBFS))
    if peak * gain > ceiling:
        gain = ceiling / peak
    if gain != 1.0:  # int() rounds towards zero: no sample passes the ceiling
        samples = array.array(samples.typecode, [int(s * gain) for s in samples])
    silent = full * _ratio(SILENT_DBFS)
    first = next((i for i, s in enumerate(samples) if abs(s) > silent), len(samples)) // channels * channels
    last = next((i for i in range(len(samples) - 1, first - 1, -1) if abs(samples[i]) > silent), first - 1)
    trailing = (len(samples) - 1 - last) // channels
    out = array.array(samples.typecode, bytes(round(sound.rate * LEAD_IN) * channels * samples.itemsize))
    out.extend(samples[first:])
    out.extend(array.array(samples.typecode, bytes(max(0, round(sound.rate * TAIL) - trailing) * channels
                                                   * samples.itemsize)))
    return Sound(_encode(out, sound.width), sound.rate, channels, sound.width)


def length_scale(rate: int | None, voice_scale: float = 1.0) -> float:
    """Returns Piper's length_scale for ``rate`` words a minute (None: the voice's own pace).

    pyttsx3 takes a rate in words a minute, Piper a length scale (2.0: twice as long, so half as fast);
    DEFAULT_RATE is each voice's own pace, ``voice_scale`` (the voice's .onnx.json ``inference.length_scale``),
    and a faster rate shortens it in proportion. A Piper voice's own pace is not exactly DEFAULT_RATE
    words a minute: the table's rate is relative to it, as the same setting is relative to espeak-ng's.

    >>> length_scale(None), length_scale(175), length_scale(350), length_scale(140, 1.25)
    (1.0, 1.0, 0.5, 1.5625)
    """
    return voice_scale if rate is None else voice_scale * DEFAULT_RATE / rate
