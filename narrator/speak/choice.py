"""Which speech backend says a language: the neural voices in the order an independent judge ranks them, then
espeak-ng. Apart from the package's __init__ so that the speakers built on a backend (the WAV folder's) can choose
one without importing the package that imports them."""

from __future__ import annotations

from typing import Any, Callable

from .console import print_to_stderr
from .kokoro_backend import KokoroSpeaker, kokoro_problem
from .piper_backend import PiperSpeaker, piper_problem
from .pyttsx3_backend import Pyttsx3Speaker
from .rendered import RenderedSpeaker

BACKENDS = ("auto", "kokoro", "piper", "pyttsx3", "console")
# The neural voices `speaker: auto` tries for a language, best first, by how well an independent judge
# (Whisper, scripts/bench_voice.py) understands them: Kokoro's French and Chinese are heard with a tenth of
# espeak-ng's errors, and its English (af_heart) with fewer errors than Piper's joe (docs/voices.md), which a host
# must fetch.
AUTO_ORDER = {"fr": ("kokoro", "piper"), "zh": ("kokoro", "piper"), "en": ("kokoro", "piper")}
DEFAULT_AUTO_ORDER = ("piper",)
PROBLEMS: dict[str, Callable[[str, str | None], str | None]] = {"kokoro": kokoro_problem, "piper": piper_problem}


def rendering_speaker(backend: str, language: str, voice: str | None = None, rate: int | None = None,
                      device: str | int | None = None, warn: Callable[[str], None] = print_to_stderr,
                      **options: Any) -> RenderedSpeaker:
    """Returns the speaker that renders lines for ``backend``: 'kokoro', 'piper', 'pyttsx3', or 'auto' (the voice
    the judge understands best among those installed for ``language``: see `auto_backend`); raises
    SpeechUnavailable.

    In 'auto', a ``voice`` that names no Kokoro or Piper voice is a pyttsx3 voice (an espeak-ng id).
    """
    chosen = auto_backend(language, voice) if backend == "auto" else backend
    if chosen == "kokoro":
        return KokoroSpeaker(language, voice, rate, device, warn=warn, **options)
    if chosen == "piper":
        return PiperSpeaker(language, voice, rate, device, warn=warn, **options)
    return Pyttsx3Speaker(language, voice, rate, device, warn=warn, **options)


def auto_backend(language: str, voice: str | None = None) -> str:
    """Returns the backend `speaker: auto` gives ``language`` here: the first of AUTO_ORDER's that can say it (with
    ``voice``, when one is named), else pyttsx3 (espeak-ng)."""
    for backend in AUTO_ORDER.get(language, DEFAULT_AUTO_ORDER):
        if PROBLEMS[backend](language, voice) is None:
            return backend
    return "pyttsx3"


def why_not(language: str, backend: str, voice: str | None = None) -> str | None:
    """Returns why ``backend`` cannot say ``language`` here, or None if it can."""
    return PROBLEMS[backend](language, voice)
