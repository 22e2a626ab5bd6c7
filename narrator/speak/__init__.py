"""Speech out: the Speaker protocol and its backends (pyttsx3 with sounddevice, the console, WAV files).

pyttsx3 and sounddevice are imported only when a speaker needs them, so the rest of the narrator
runs on machines without either.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence

from ..voices import languages, load_voice
from .ahead import fixed_lines, lines_ahead, table_lines
from .audio import output_problem
from .cache import VoiceCache, default_folder
from .console import ConsoleSpeaker, print_to_stderr
from .pyttsx3_backend import (
    Pyttsx3Speaker,
    SpeechUnavailable,
    VoiceInfo,
    choose_voice,
    install_hint,
    installed_voices,
)
from .wavdir import WavDirSpeaker

__all__ = ["BACKENDS", "ConsoleSpeaker", "Pyttsx3Speaker", "Speaker", "SpeechUnavailable", "VoiceCache", "VoiceInfo",
           "WavDirSpeaker", "default_folder", "describe_voices", "fixed_lines", "lines_ahead", "make_speaker",
           "prepare_table", "print_to_stderr", "table_lines"]

BACKENDS = ("auto", "pyttsx3", "console")


class Speaker(Protocol):
    """Says the narrator's lines."""

    name: str
    """The backend's name, for messages."""

    def say(self, text: str) -> None:
        """Says one line and returns once it has been heard (the microphone is off meanwhile)."""

    def close(self) -> None:
        """Releases everything; closing again does nothing."""


def make_speaker(backend: str, language: str, voice: str | None = None, rate: int | None = None,
                 device: str | int | None = None, warn: Callable[[str], None] = print_to_stderr) -> Speaker:
    """Returns the speaker ``backend`` names ('pyttsx3', 'console', or 'auto': pyttsx3 if this machine can).

    Without a speech engine, a voice for ``language`` or a sound output, it returns the console,
    after one warning that says what is missing and what to install.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown speech backend {backend!r}; one of {', '.join(BACKENDS)}")
    if backend == "console":
        return ConsoleSpeaker()
    problems = []
    speaker = None
    try:
        speaker = Pyttsx3Speaker(language, voice, rate, device, warn=warn)
    except SpeechUnavailable as exc:
        problems.append(str(exc))
    missing = output_problem(device)
    if missing:
        problems.append(missing)
    if speaker is not None:
        if not problems:
            return speaker
        speaker.close()
    warn(f"{'; '.join(problems)}: the narrator's lines are printed instead")
    return ConsoleSpeaker()


def prepare_table(speaker: Any, language: str, seats: int, names: Sequence[str | None] = (),
                  roles: Sequence[str] = ()) -> int:
    """Has ``speaker`` render ahead, in the background, every line this table may hear; returns how many.

    Speakers that cannot render ahead (the console) are left alone. The fixed lines go first: the
    calls of the first night are ready within a second or two of the start.
    """
    prepare = getattr(speaker, "prepare", None)
    if prepare is None:
        return 0
    return int(prepare(lines_ahead(load_voice(language), seats, names, roles)))


def describe_voices() -> list[dict[str, str | None]]:
    """Returns, for every language with a voice file, the voice it would get here, or a hint to add one.

    Each entry has ``language``, ``voice`` ("name [id]", or None), ``id``, ``name`` and ``hint``
    (what to install, when there is no voice).
    """
    wanted = sorted({"en", "fr", "zh", *languages()})
    try:
        voices = installed_voices()
    except SpeechUnavailable as exc:
        return [{"language": lang, "voice": None, "id": None, "name": None, "hint": str(exc)} for lang in wanted]
    entries: list[dict[str, str | None]] = []
    for lang in wanted:
        chosen = choose_voice(voices, lang)
        entries.append({
            "language": lang,
            "voice": f"{chosen.name} [{chosen.id}]" if chosen else None,
            "id": chosen.id if chosen else None,
            "name": chosen.name if chosen else None,
            "hint": None if chosen else install_hint(lang),
        })
    return entries
