"""Speech in with vosk: a closed grammar per question, fed by one worker thread from a microphone or recordings.

vosk and sounddevice are imported only when a listener starts, so the rest of the narrator runs
without them. Audio goes source → queue → worker → recognizer, whatever the source.
"""

from __future__ import annotations

import importlib
import json
import os
import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..errors import UserError
from ..hint import command
from .audio_in import AudioSource, ListenerUnavailable, MicrophoneSource, WavSource
from .errors import MicrophoneLost

__all__ = ["UNKNOWN", "ListenerUnavailable", "MicrophoneLost", "VoskListener", "VoskModel", "WavSource",
           "vocabulary_check"]

UNKNOWN = "[unk]"
# How often a waiting listen() looks at the source, to notice a lost microphone promptly.
POLL_SECONDS = 0.1


def vocabulary_check(model: Any, phrases: Iterable[str]) -> set[str]:
    """Returns the words of ``phrases`` that the vosk ``model`` does not know (a grammar would drop them).

    >>> class Model:
    ...     def vosk_model_find_word(self, word): return 7 if word in ("seven", "seat") else -1
    >>> sorted(vocabulary_check(Model(), ["seven", "seat seven", "number seven"]))
    ['number']
    """
    return {word for phrase in phrases for word in phrase.split() if model.vosk_model_find_word(word) < 0}


def _load_vosk() -> Any:
    try:
        vosk = importlib.import_module("vosk")
    except ImportError:
        raise ListenerUnavailable("vosk is not installed (pip install vosk)") from None
    except OSError as exc:  # its wheel brings libvosk; a broken install cannot load it
        raise ListenerUnavailable(f"vosk cannot load its library ({exc}): pip install --force-reinstall vosk") from None
    vosk.SetLogLevel(-1)
    return vosk


class VoskModel:
    """A vosk model, loaded from a local folder only (a small one takes seconds and ~500 MB: share it).

    ``language`` only names what to fetch in the message when the folder holds no model.
    Raises ListenerUnavailable when vosk is missing or the folder is not a vosk model.
    """

    def __init__(self, folder: str | os.PathLike[str], language: str | None = None) -> None:
        self.path = Path(folder)
        fetch = f"run {command()} models fetch {language or 'LANGUAGE'}"
        if not self.path.is_dir():
            raise ListenerUnavailable(f"no speech model at {self.path}: {fetch}")
        # vosk itself would only log "does not contain model files" and raise a bare "Failed to create a model".
        if not ((self.path / "am" / "final.mdl").is_file() or (self.path / "final.mdl").is_file()):
            raise ListenerUnavailable(f"{self.path} is not a vosk speech model (it has no am/final.mdl): {fetch}")
        self._vosk = _load_vosk()
        try:
            self.vosk = self._vosk.Model(str(self.path))  # a path, never lang=: that one downloads
        except Exception as exc:  # vosk raises a bare Exception
            raise ListenerUnavailable(f"{self.path}: vosk cannot load this speech model ({exc}): {fetch}") from None

    def known(self, word: str) -> bool:
        """Returns whether the model can recognise ``word`` (one word, as the model spells it)."""
        return bool(self.vosk.vosk_model_find_word(word) >= 0)

    def unknown(self, phrases: Iterable[str]) -> set[str]:
        """Returns the words of ``phrases`` that the model does not know."""
        return vocabulary_check(self.vosk, phrases)

    def recognizer(self, rate: int, grammar: Sequence[str]) -> Any:
        """Returns a vosk recognizer for audio at ``rate`` that hears only the phrases of ``grammar``."""
        # ensure_ascii=False: vosk drops every \\u-escaped word as "missing in vocabulary".
        return self._vosk.KaldiRecognizer(self.vosk, float(rate), json.dumps(list(grammar), ensure_ascii=False))


@dataclass
class _Question:
    """One listen(): its recognizer (fed by the worker only) and what it heard."""

    recognizer: Any
    noise: frozenset[str]
    text: str | None = None
    over: bool = False


class VoskListener:
    """Hears answers with vosk, from the microphone (``device``, ``samplerate``) or from ``source``.

    ``model`` is a model folder or a loaded VoskModel. ``distractors`` are words the grammar
    also holds so that other speech has somewhere to go; they never appear in what listen()
    returns. The microphone is checked before the model loads, and the model loads before the
    stream opens. Raises ListenerUnavailable with what is missing and what to do.
    """

    name = "vosk"

    def __init__(self, model: str | os.PathLike[str] | VoskModel, device: str | int | None = None,
                 samplerate: int | None = None, source: AudioSource | None = None, *,
                 distractors: Sequence[str] = (), language: str | None = None) -> None:
        self.source: AudioSource = source if source is not None else MicrophoneSource(device, samplerate)
        try:
            self._model: VoskModel | None = model if isinstance(model, VoskModel) else \
                VoskModel(model, language)
        except BaseException:
            self.source.close()
            raise
        self.distractors = [d for d in distractors if d.split() and not self._model.unknown([d])]
        self._queue: queue.Queue[tuple[float, bytes] | None] = queue.Queue()
        self._cond = threading.Condition()
        self._question: _Question | None = None
        self._muted = False
        self._hear_from = 0.0
        self._reset = False
        self._closed = False
        self._worker = threading.Thread(target=self._work, name="vosk-listener", daemon=True)
        self._worker.start()
        try:
            self.source.start(self._put)
        except BaseException:
            self.close()
            raise

    def known(self, word: str) -> bool:
        """Returns whether the model can recognise ``word``: check every phrase's words at start-up."""
        return self._open().known(word)

    def loading(self) -> bool:
        """Returns False: the model is loaded before the listener is made."""
        return False

    def _open(self) -> VoskModel:
        if self._model is None:
            raise ValueError("the listener is closed")
        return self._model

    def _put(self, block: bytes) -> None:
        # Stamped on arrival, so that a worker running behind still knows what was said while muted.
        self._queue.put((time.monotonic(), block))

    def listen(self, phrases: Sequence[str], timeout: float) -> str | None:
        """Hears one utterance of ``phrases`` (plus the distractors and [unk]) for at most ``timeout`` seconds.

        Returns the recognised words, or "" when [unk] or a distractor was among them — with a
        closed grammar, other speech is forced onto grammar words, and those are the sign
        of it, so the whole result is discarded — or None when nothing was said in time or mute()
        ended the question. A partial
        utterance still going on at the timeout counts as nothing. Phrases with words the model
        does not know are left out. Raises MicrophoneLost when the microphone goes.
        """
        model = self._open()
        heard = [p for p in dict.fromkeys(" ".join(p.split()) for p in phrases) if p and not model.unknown([p])]
        if not heard:
            raise UserError(f"the speech model knows none of {list(phrases)}: these answers cannot be heard")
        words = {w for p in heard for w in p.split()}
        noise = frozenset({UNKNOWN, *(w for d in self.distractors for w in d.split())} - words)
        grammar = [*heard, *(d for d in self.distractors if d not in heard)]
        if model.known(UNKNOWN):  # a model without it would log a warning for every question
            grammar.append(UNKNOWN)
        question = _Question(model.recognizer(self.source.rate, grammar), noise)
        with self._cond:
            if self._closed:
                raise ValueError("the listener is closed")
            if self._question is not None:
                raise RuntimeError("the listener is already listening")
            self._question = question
        self.source.cue()
        deadline = time.monotonic() + timeout
        with self._cond:
            try:
                while not question.over:
                    problem = self.source.problem()
                    if problem:
                        raise MicrophoneLost(problem)
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    self._cond.wait(min(left, POLL_SECONDS))
            finally:
                question.over = True
                if self._question is question:
                    self._question = None
        return question.text

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            stamp, block = item
            with self._cond:
                question = self._question
                if question is None or question.over or self._muted or stamp < self._hear_from:
                    continue
                reset, self._reset = self._reset, False
            recognizer = question.recognizer
            if reset:
                recognizer.Reset()
            if not recognizer.AcceptWaveform(block):
                continue
            said = json.loads(recognizer.Result()).get("text", "").split()
            if not said:  # the endpoint vosk declares after long silence alone: nothing said yet
                continue
            with self._cond:
                if not question.over:
                    question.text = "" if any(w in question.noise for w in said) else " ".join(said)
                    question.over = True
                    self._cond.notify_all()

    def mute(self) -> None:
        """Drops all sound from now on; a listen() under way returns None (the narrator speaks over it)."""
        with self._cond:
            self._muted = True
            if self._question is not None:
                self._question.over = True
            self._cond.notify_all()

    def unmute(self, after: float = 0.4) -> None:
        """Hears again ``after`` seconds from now (the room's echo dies down), with the queue cleared
        and the recognizer reset."""
        with self._cond:
            if self._closed:
                return
            self._muted = False
            self._hear_from = time.monotonic() + after
            self._reset = True
            # What was queued while muted is the narrator's own voice: drop it rather than feed a backlog.
            while True:
                try:
                    self._queue.get_nowait()
                except queue.Empty:
                    break

    def close(self) -> None:
        """Stops the microphone (or recording) and the worker and lets go of the model; closing again does nothing."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            if self._question is not None:
                self._question.over = True
            self._cond.notify_all()
            # Put under the lock, so that unmute() cannot drain it away.
            self._queue.put(None)
        self.source.close()
        self._worker.join()
        self._model = None
