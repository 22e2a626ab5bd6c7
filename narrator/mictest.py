"""`werewolf-narrator mic-test`: a live level meter and what the narrator hears, to set up a table."""

from __future__ import annotations

import array
import math
import sys
import threading
import time
from typing import Any, Callable, TextIO

from .errors import UserError
from .hint import command


def level(block: bytes) -> float:
    """Returns a block's loudness from 0 (silence) to 1 (full scale), as RMS of 16-bit samples.

    >>> level(b"\\x00\\x00" * 4), round(level(array.array("h", [16384, -16384]).tobytes()), 2)
    (0.0, 0.5)
    """
    samples = array.array("h", block[: len(block) - len(block) % 2])
    if not samples:
        return 0.0
    return math.sqrt(sum(s * s for s in samples) / len(samples)) / 32768


def meter(value: float, width: int = 40) -> str:
    """Returns a level as a bar: "[#######.................]  -18 dB".

    >>> meter(0.0, 10)
    '[..........]  silence'
    """
    if value <= 0:
        return "[" + "." * width + "]  silence"
    db = 20 * math.log10(value)
    filled = max(0, min(width, round(width * (db + 60) / 60)))
    return "[" + "#" * filled + "." * (width - filled) + f"]  {db:4.0f} dB"


class Metered:
    """A microphone source that also keeps the loudness of the last block it heard."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.level = 0.0
        self.name = source.name
        self.rate = source.rate

    def start(self, sink: Callable[[bytes], None]) -> None:
        def metered(block: bytes) -> None:
            self.level = level(block)
            sink(block)

        self.source.start(metered)

    def cue(self) -> None:
        self.source.cue()

    def problem(self) -> str | None:
        problem: str | None = self.source.problem()
        return problem

    def close(self) -> None:
        self.source.close()


def mic_test(language: str, model_dir: str | None, microphone: str | int | None, seconds: float,
             out: TextIO = sys.stdout, warn: Callable[[str], None] = print) -> int:
    """Shows the microphone's level and, with a speech model, every answer it understands."""
    from .listen.audio_in import ListenerUnavailable, MicrophoneSource
    from .listen.models import model_for, no_model_message
    from .listen.understand import (
        Allowed,
        distractor_phrases,
        load_vocabulary,
        phrases,
        understand,
    )
    from .listen.vosk_backend import VoskListener

    try:
        source = Metered(MicrophoneSource(microphone))
    except ListenerUnavailable as error:
        raise UserError(f"{error}: nothing to test; `{command()} devices` lists the sound devices") from None
    vocabulary = load_vocabulary(language)
    path = model_for(language, model_dir)
    listener: VoskListener | None = None
    if path is None:
        warn(no_model_message(language) + " (the meter still works)")
        source.start(lambda block: None)
    else:
        listener = VoskListener(path, source=source, distractors=distractor_phrases(vocabulary), language=language)
    stop = time.monotonic() + seconds
    heard: list[str] = []

    def keep_listening(listener: VoskListener) -> None:
        grammar = phrases(vocabulary, Allowed.anything())
        while time.monotonic() < stop:
            text = listener.listen(grammar, timeout=max(0.1, stop - time.monotonic()))
            if text:
                answer = understand(vocabulary, text)
                heard.append(f"heard {text!r}: {answer if answer is not None else 'nothing that answers'}")

    try:
        if listener is not None:
            threading.Thread(target=keep_listening, args=(listener,), name="mic-test", daemon=True).start()
        print("Speak: a seat number, yes, no. Ctrl-C stops.", file=out)
        while time.monotonic() < stop:
            while heard:
                print("\n" + heard.pop(0), file=out)
            print("\r" + meter(source.level), end="", file=out, flush=True)
            time.sleep(0.1)
        print(file=out)
    except KeyboardInterrupt:
        print(file=out)
    finally:
        if listener is not None:
            listener.close()
        source.close()
    return 0
