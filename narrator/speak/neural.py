"""What the neural voices (Piper, Kokoro) share: an engine that loads in the background, and espeak-ng beside it.

A neural voice takes seconds to load and a fraction of a second (Piper) to seconds (Kokoro) to render a line;
espeak-ng says at once the lines it has not rendered yet, from the same cache, and says every line if the voice
could not load.
"""

from __future__ import annotations

import sys
from concurrent.futures import Future
from typing import Callable, TextIO

from .audio import Sound
from .pyttsx3_backend import Pyttsx3Speaker, SpeechUnavailable
from .rendered import EngineThread, RenderedSpeaker


class NeuralSpeaker(RenderedSpeaker):
    """A RenderedSpeaker whose engine loads in the background, with espeak-ng as its fallback."""

    def _attach(self, engine: EngineThread, language: str, rate: int | None, device: str | int | None,
                out: TextIO | None, warn: Callable[[str], None], sink: Callable[[Sound], None] | None,
                fallback: bool) -> None:
        """Speaks with ``engine``; with ``fallback`` (and a cache), espeak-ng says the lines not rendered yet."""
        self._renderer = engine
        if fallback and self.cache is not None:
            try:  # the same cache: its lines are kept under espeak-ng's own keys
                self.fallback = Pyttsx3Speaker(language, None, rate, device, out=out, warn=warn, cache=self.cache,
                                               sink=sink)
            except SpeechUnavailable:
                self.fallback = None  # lines not ready wait for the voice, as they would without a fallback
        engine.started.add_done_callback(self._loaded)

    def _loaded(self, started: Future[object]) -> None:
        failure = None if started.cancelled() else started.exception()
        if failure is not None:
            instead = f"{self.fallback.voice_name} says the lines" if self.fallback else "the lines are printed"
            try:
                self._warn(f"{failure}: {instead} instead")
            except Exception:  # a warning that cannot be worded (no memory left) is printed as it is, no traceback
                print(f"warning: {failure}: {instead} instead", file=sys.stderr)
