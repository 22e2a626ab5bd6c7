"""Speech out: the Speaker protocol and its backends (Piper or pyttsx3 with sounddevice, the console, WAV files).

piper, pyttsx3 and sounddevice are imported only when a speaker needs them, so the rest of the
narrator runs on machines without them.
"""

from __future__ import annotations

from typing import Callable, Iterable, Protocol, Sequence

from engine import Table

from ..voices import languages, load_voice
from .ahead import fixed_lines, lines_ahead, seat_words, table_lines
from .ambience import NightAmbience, SoundDeviceOutput
from .audio import NO_OUTPUT, Heard, Sound, output_problem
from .cache import VoiceCache, default_folder
from .console import ConsoleSpeaker, print_to_stderr
from .kokoro_backend import KokoroSpeaker, choose_kokoro_voice
from .piper_backend import PiperSpeaker, choose_piper_voice
from .pyttsx3_backend import (
    Pyttsx3Speaker,
    SpeechUnavailable,
    VoiceInfo,
    choose_voice,
    install_hint,
    installed_voices,
)
from . import choice
from .choice import AUTO_ORDER, BACKENDS, DEFAULT_AUTO_ORDER, PROBLEMS, auto_backend, rendering_speaker, why_not
from .rendered import RenderedSpeaker
from .wavdir import WavDirSpeaker

__all__ = ["AUTO_ORDER", "BACKENDS", "DEFAULT_AUTO_ORDER", "PROBLEMS", "ConsoleSpeaker", "Heard", "KokoroSpeaker", "PiperSpeaker", "Pyttsx3Speaker", "RenderedSpeaker", "Speaker", "SpeechUnavailable", "VoiceCache", "VoiceInfo",
           "WavDirSpeaker", "auto_backend", "default_folder", "describe_voices", "fixed_lines", "lines_ahead", "make_speaker",
           "open_ambience", "prepare_table", "print_to_stderr", "rendering_speaker", "seat_words", "table_lines", "why_not"]

class Speaker(Protocol):
    """Says the narrator's lines."""

    name: str
    """The backend's name, for messages."""

    renders_ahead: bool
    """Whether `prepare` renders lines ahead: for a speaker that says each line as it comes (the console), the
    table's lines are not even listed."""

    not_ready_told: str
    """What the host was told when a line was due before it was rendered ("": never, or nothing is rendered ahead):
    the game's end tells it again, once the full screen is gone."""

    def say(self, text: str) -> Heard | None:
        """Says one line and returns once it has been heard (the microphone is off meanwhile), with the voice that
        said it and when it began (None: a speaker that cannot tell, or an empty line)."""

    def prepare(self, texts: Iterable[str]) -> int:
        """Renders ``texts`` ahead, in the background; returns how many were handed over (0 without `renders_ahead`)."""

    def close(self) -> None:
        """Releases everything; closing again does nothing."""


def make_speaker(backend: str, language: str, voice: str | None = None, rate: int | None = None,
                 device: str | int | None = None, warn: Callable[[str], None] = print_to_stderr,
                 sink: Callable[[Sound], None] | None = None) -> Speaker:
    """Returns the speaker ``backend`` names ('kokoro', 'piper', 'pyttsx3', 'console', or 'auto': see
    rendering_speaker).

    Without a speech engine, a voice for ``language`` or a sound output, it returns the console,
    after one warning that says what is missing and what to install. A ``sink`` plays the lines instead of
    a stream of their own (the night ambience's mix).
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown speech backend {backend!r}; one of {', '.join(BACKENDS)}")
    if backend == "console":
        return ConsoleSpeaker()
    problems = []
    speaker = None
    missing = output_problem(device)
    chosen = auto_backend(language, voice) if backend == "auto" else backend
    if missing and chosen in PROBLEMS:  # a neural voice is not loaded (seconds, 400 MB) only to print the lines
        problem = PROBLEMS[chosen](language, voice)
        problems.extend([problem] if problem else [])
    else:
        try:
            speaker = rendering_speaker(chosen, language, voice, rate, device, warn=warn, sink=sink)
        except SpeechUnavailable as exc:
            problems.append(str(exc))
    if missing:
        problems.append(load_voice(language).text("sound.no_output", {}) if missing == NO_OUTPUT else missing)
    if speaker is not None:
        if not problems:
            return speaker
        speaker.close()
    # In the table's language, as the rest of the screen; what is missing and what to install stay as the system
    # names them (a command to run, a package to install).
    warn(load_voice(language).text("screen.no_sound", {"why": "; ".join(problems)}))
    return ConsoleSpeaker()


def open_ambience(device: str | int | None = None, warn: Callable[[str], None] = print_to_stderr,
                  language: str = "en") -> NightAmbience | None:
    """Returns the night ambience playing (silent until the eyes close) on ``device``, or None: without a sound
    output, silently (make_speaker's warning says why the lines are printed); if its stream cannot open, after
    a warning (the lines are then said without it)."""
    if output_problem(device) is not None:
        return None
    try:
        return NightAmbience(SoundDeviceOutput(device))
    except Exception as exc:  # PortAudio's errors, a device that went away since it was checked
        warn(load_voice(language).text("screen.no_ambience", {"why": exc or type(exc).__name__}))
        return None


def prepare_table(speaker: Speaker, language: str, seats: int, names: Sequence[str | None] = (),
                  roles: Sequence[str] = (), source: str = "", table: Table | None = None, deal: str | None = None,
                  phones: bool | None = None) -> int:
    """Has ``speaker`` render ahead, in the background, every line this table may hear; returns how many.

    Speakers that cannot render ahead (the console) are left alone. The deal's lines go first, the
    first night's calls next, then the first day's (see lines_ahead). ``source`` is the table config's file: a
    line not ready when it is due tells the host the command that renders them all from it. With the ``table``,
    the lines of what it never plays are left out; with ``deal`` and ``phones``, those of the ways to deal it
    does not use.
    """
    if not speaker.renders_ahead:
        return 0
    voice = load_voice(language)
    lines = list(lines_ahead(voice, seats, names, roles, table, deal, phones))
    if isinstance(speaker, RenderedSpeaker):
        speaker.seat_words = seat_words(voice, seats, names)
        speaker.list_joins = (voice.separator.strip(), voice.last_separator.strip())
        from ..hint import render_hint

        speaker.render_command = render_hint(language, source)
        speaker.render_lines = frozenset(lines)
    return speaker.prepare(lines)


def describe_voices() -> list[dict[str, str | None]]:
    """Returns, for every language with a voice file, the voice it would get here with `speaker: auto`, and why.

    Each entry has ``language``, ``backend`` ("kokoro", "piper", "pyttsx3" or None), ``voice`` ("name [id]",
    or None), ``id``, ``name``, ``why`` (why not a better voice, when a lesser one speaks) and ``hint`` (what
    to install, when there is no voice).
    """
    wanted = sorted({"en", "fr", "zh", *languages()})
    entries: list[dict[str, str | None]] = []
    try:
        voices: tuple[VoiceInfo, ...] | None = installed_voices()
        engine_problem = None
    except SpeechUnavailable as exc:
        voices, engine_problem = None, str(exc)
    for lang in wanted:
        reasons = []
        for backend in choice.AUTO_ORDER.get(lang, choice.DEFAULT_AUTO_ORDER):
            reason = why_not(lang, backend)
            if reason is not None:
                reasons.append(reason)
                continue
            if backend == "kokoro":
                name = choose_kokoro_voice(lang) or ""
                entries.append({"language": lang, "backend": "kokoro", "voice": f"Kokoro {name} [kokoro-v1.0 int8]",
                                "id": name, "name": name, "why": "; ".join(reasons) or None, "hint": None})
            else:
                piper = choose_piper_voice(lang)
                assert piper is not None
                entries.append({"language": lang, "backend": "piper", "voice": f"Piper {piper.name} [{piper.model}]",
                                "id": piper.id, "name": piper.name, "why": "; ".join(reasons) or None,
                                "hint": None})
            break
        else:
            chosen = choose_voice(voices, lang) if voices is not None else None
            entries.append({
                "language": lang,
                "backend": "pyttsx3" if chosen else None,
                "voice": f"espeak-ng {chosen.name} [{chosen.id}]" if chosen else None,
                "id": chosen.id if chosen else None,
                "name": chosen.name if chosen else None,
                "why": "; ".join(reasons) or None,
                "hint": None if chosen else (engine_problem or install_hint(lang)),
            })
    return entries
