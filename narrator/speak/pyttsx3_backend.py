"""Speech with pyttsx3: one thread owns the engine and renders each line to WAV; sounddevice plays it."""

from __future__ import annotations

import importlib
import re
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from ..errors import UserError
from .audio import Sound
from .cache import VoiceCache
from .console import print_to_stderr
from .hygiene import DEFAULT_RATE
from .rendered import AHEAD, NOW, EngineThread, RenderedSpeaker

# Not read from the engine: pyttsx3 binds espeak-ng's GetParameter without its second argument,
# so the rate it reports is now the default, now the current one [checked]; DEFAULT_RATE is espeak-ng's own.
__all__ = ["AHEAD", "DEFAULT_RATE", "NOW", "Pyttsx3Speaker", "SpeechUnavailable", "VoiceInfo", "choose_voice",
           "install_hint", "installed_voices", "language_name"]

LANGUAGE_NAMES = {"en": "English", "fr": "French", "zh": "Mandarin Chinese"}

# The language tags each narrator language prefers, best first. Any other tag with one of the
# FIRST_SUBTAGS matches after these: Chinese is Mandarin, tagged zh or cmn, never Cantonese (yue).
# espeak-ng's plain "cmn" voice reads Chinese characters as pinyin spelt out in English ("tian one,
# hei one"); its "cmn-latn-pinyin" voice says them with their tones, so it comes first.
PREFERRED_TAGS = {"en": ("en-us", "en-gb", "en"), "fr": ("fr-fr", "fr"),
                  "zh": ("cmn-latn-pinyin", "cmn", "zh-cn", "zh-hans", "zh", "zh-tw")}
FIRST_SUBTAGS = {"zh": ("zh", "cmn")}


class SpeechUnavailable(UserError):
    """This machine cannot speak: the message says what is missing and what to install."""


@dataclass(frozen=True)
class VoiceInfo:
    """A voice of the speech engine, with its language tags ("en-us", "fr-fr", "cmn")."""

    id: str
    name: str
    languages: tuple[str, ...]


def language_name(language: str) -> str:
    """Returns the language's name in English ("French"), or its code if unknown."""
    return LANGUAGE_NAMES.get(language, language)


def install_hint(language: str) -> str:
    """Returns how to add a voice for ``language`` on this system."""
    name = language_name(language)
    if sys.platform == "darwin":
        return f"add a {name} voice in System Settings → Accessibility → Spoken Content → System Voice"
    if sys.platform == "win32":
        return f"add the {name} language pack with its speech voice in Settings → Time & language → Language"
    return "sudo apt-get install espeak-ng"


def _language_tags(raw: Any) -> tuple[str, ...]:
    tags = []
    for item in raw or ():
        text = item.decode("utf-8", "ignore") if isinstance(item, bytes) else str(item)
        # Older espeak drivers give bytes led by a priority byte; macOS writes en_US.
        tags.append(re.sub(r"[\x00-\x1f]", "", text).replace("_", "-").lower())
    return tuple(tags)


def _rank(voice: VoiceInfo, language: str) -> int | None:
    """Returns how well ``voice`` speaks ``language`` (0 is best), or None if it does not."""
    preferred = PREFERRED_TAGS.get(language, (language,))
    firsts = FIRST_SUBTAGS.get(language, (language,))
    # Windows ids often name the locale ("…\TTS_MS_FR-FR_HORTENSE_11.0"): trusted after the languages.
    id_tags = tuple(re.split(r"[/\\._]", voice.id.lower()))
    for offset, tags in ((0, voice.languages), (len(preferred) + 1, id_tags)):
        for i, tag in enumerate(preferred):
            if tag in tags:
                return offset + i
        if any(tag.split("-")[0] in firsts for tag in tags):
            return offset + len(preferred)
    return None


def choose_voice(voices: Sequence[VoiceInfo], language: str, override: str | None = None) -> VoiceInfo | None:
    """Returns the voice for ``language``, or the one ``override`` names (its id, or part of its name or id).

    >>> voices = [VoiceInfo("gmw/en", "English (Great Britain)", ("en-gb",)),
    ...           VoiceInfo("gmw/en-us", "English (America)", ("en-us",)),
    ...           VoiceInfo("sit/yue", "Chinese (Cantonese)", ("yue",)),
    ...           VoiceInfo("sit/cmn", "Chinese (Mandarin, latin as English)", ("cmn",)),
    ...           VoiceInfo("sit/cmn-latn-pinyin", "Chinese (Mandarin, latin as Pinyin)", ("cmn-latn-pinyin",))]
    >>> choose_voice(voices, "en").id, choose_voice(voices, "zh").id, choose_voice(voices, "fr")
    ('gmw/en-us', 'sit/cmn-latn-pinyin', None)
    >>> choose_voice(voices, "en", "britain").id
    'gmw/en'
    """
    if override:
        wanted = override.casefold()
        exact = [v for v in voices if v.id.casefold() == wanted]
        return next(iter(exact or [v for v in voices if wanted in v.name.casefold() or wanted in v.id.casefold()]),
                    None)
    ranked = [(rank, i) for i, v in enumerate(voices) if (rank := _rank(v, language)) is not None]
    return voices[min(ranked)[1]] if ranked else None


def _print_but_saved_notice(*values: object, **options: Any) -> None:
    """print() for pyttsx3's espeak driver: everything but its "Audio saved to …" notice, one per line rendered."""
    if values and isinstance(values[0], str) and values[0].startswith("Audio saved to "):
        return
    print(*values, **options)


def _silence_saved_notices() -> None:
    """Silences pyttsx3's "Audio saved to …" notices, which its espeak driver prints from espeak-ng's thread.

    The driver's own print() is replaced, never the process's sys.stdout: replaced around each render, in the
    engine's thread, the stand-in was freed while the game's print() in the main thread still wrote to it (print()
    holds sys.stdout without a reference of its own: CPython issue 130163). That crashed about one practice game in
    ten with SIGSEGV, or with a TypeError from the freed object's reused memory [checked: the core's main thread in
    the stand-in's __getattr__, under print() in cli.emit].
    """
    driver = sys.modules.get("pyttsx3.drivers.espeak")
    if driver is not None:
        driver.print = _print_but_saved_notice  # type: ignore[attr-defined]


def _engine_problem(exc: Exception) -> str:
    if sys.platform.startswith("linux") and isinstance(exc, (RuntimeError, OSError)):
        return "the espeak-ng speech engine is not installed (sudo apt-get install espeak-ng)"
    return f"the speech engine cannot start ({type(exc).__name__}: {exc})"


class _Renderer(EngineThread):
    """The one thread that owns the pyttsx3 engine, shared by every speaker, for the life of the process.

    pyttsx3.init() hands every caller the same engine, which must stay in the thread that made it,
    and espeak-ng's voice and rate are global: so one thread renders every line, with the voice and
    rate that line asks for. The engine is never dropped: espeak-ng starts once per process, and an
    engine not yet collected comes back from pyttsx3.init() still holding its last line, which it
    renders again into a folder since removed [checked: it then hangs].
    """

    def __init__(self) -> None:
        self._engine: Any = None
        self.engine_version = "pyttsx3"
        self._errors: list[BaseException] = []
        self._settings: tuple[str, int] | None = None
        self._settle: Callable[[], object] | None = None
        self._folder = tempfile.TemporaryDirectory(prefix="werewolf-speech-", ignore_cleanup_errors=True)
        self.voices: tuple[VoiceInfo, ...] = ()
        super().__init__("pyttsx3-engine")

    def _start(self) -> tuple[VoiceInfo, ...]:
        try:
            pyttsx3 = importlib.import_module("pyttsx3")
        except ImportError:
            raise SpeechUnavailable("pyttsx3 is not installed (pip install pyttsx3)") from None
        try:
            engine = pyttsx3.init()
            voices = tuple(VoiceInfo(str(v.id), str(v.name or v.id), _language_tags(v.languages))
                           for v in engine.getProperty("voices"))
            # A fresh engine queues its commands until the first runAndWait, which then runs its own
            # endLoop before the synthesis and returns at once: the file is not written yet, and the
            # "Audio saved" notice comes later. An empty first run leaves it where runAndWait waits.
            engine.runAndWait()
        except Exception as exc:  # each platform's driver fails its own way
            raise SpeechUnavailable(_engine_problem(exc)) from None
        # pyttsx3 swallows errors raised in its command queue (a voice it refuses) and only reports them here.
        engine.connect("error", self._on_error)
        _tell_espeak_the_true_length()
        _silence_saved_notices()
        # pyttsx3 runs espeak-ng asynchronously, and its next runAndWait cancels whatever espeak-ng is
        # still doing: a new rate, even the new line [checked: rates applied at random, empty WAVs].
        # Waiting for espeak-ng to be idle before each run prevents it.
        self._settle = getattr(sys.modules.get("pyttsx3.drivers._espeak"), "Synchronize", None)
        self._engine = engine
        self.engine_version = _engine_version()
        self.voices = voices
        return voices

    def _on_error(self, **event: object) -> None:
        error = event.get("exception")
        if isinstance(error, BaseException):
            self._errors.append(error)

    def _render(self, text: str, voice: str, rate: int) -> Sound:
        engine = self._engine
        self._errors.clear()
        if self._settings != (voice, rate):
            engine.setProperty("voice", voice)
            engine.setProperty("rate", rate)
            self._settings = (voice, rate)
        # One save_to_file per runAndWait: with two, pyttsx3 writes only the last file.
        path = Path(self._folder.name) / "line.wav"
        path.unlink(missing_ok=True)
        engine.save_to_file(text, str(path))
        if self._settle:
            self._settle()
        engine.runAndWait()
        if self._settle:
            # runAndWait returns from espeak-ng's own thread's last callback, which may still be winding down:
            # wait for it here too, so that espeak-ng is idle whenever this thread leaves it.
            self._settle()
        if self._errors:
            self._settings = None
            raise self._errors[0]
        if not path.exists():
            raise RuntimeError("the speech engine wrote no sound")
        return Sound.read(path)


def _tell_espeak_the_true_length() -> None:
    """Has pyttsx3's espeak driver give espeak-ng the true size of each line's text.

    pyttsx3 (2.99) passes ten times the length of the text as its size, and espeak-ng copies that many bytes: it
    read up to nine times a line's length past its end, and crashed the process (SIGSEGV in espeak_ng_Synthesize's
    memcpy) whenever a line ended near the end of a mapping [checked: valgrind's invalid reads in every render;
    a line before an unmapped page crashes every time; pyttsx3 issue #448]. The size espeak-ng needs is the text's
    with its final NUL, as pyttsx3's own Synth_Mark passes.
    """
    espeak = sys.modules.get("pyttsx3.drivers._espeak")
    synthesize = getattr(espeak, "cSynth", None)
    if espeak is None or synthesize is None:
        return  # another driver (macOS, Windows) or another pyttsx3: nothing of this bug to mend

    def synth(text: str | bytes, position: int = 0, position_type: int = espeak.POS_CHARACTER,
              end_position: int = 0, flags: int = 0, user_data: Any = None) -> int:
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        return int(synthesize(data, len(data) + 1, position, position_type, end_position, flags, None, user_data))

    espeak.Synth = synth  # type: ignore[attr-defined]


def _engine_version() -> str:
    """Returns the speech engine's version (espeak-ng's), so that a new engine renders lines anew."""
    # Not pyttsx3's own version: importlib.metadata would cost ~30 ms of the start on one core.
    info = getattr(sys.modules.get("pyttsx3.drivers._espeak"), "Info", None)
    if info is not None:
        try:
            raw = info()
            return "espeak-ng " + (raw.decode("ascii", "replace") if isinstance(raw, bytes) else str(raw))
        except Exception:
            pass
    return "pyttsx3"


# The process's renderer, started by the first speaker (see _Renderer for why only one).
_shared: _Renderer | None = None
_shared_lock = threading.Lock()


def _renderer() -> _Renderer:
    """Returns the process's renderer, starting it on first use; raises SpeechUnavailable."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = _Renderer()
        return _shared


def installed_voices() -> tuple[VoiceInfo, ...]:
    """Returns the speech engine's voices; raises SpeechUnavailable if it cannot start."""
    return _renderer().voices


class Pyttsx3Speaker(RenderedSpeaker):
    """Says lines with pyttsx3 and sounddevice; a line that cannot be said is printed instead.

    Each line is rendered to WAV by one save_to_file and one runAndWait, never by say(), which
    loses or overwrites lines in pyttsx3 2.99; playing, the cache and rendering ahead are
    RenderedSpeaker's. Raises SpeechUnavailable if there is no engine or no voice.
    """

    name = "pyttsx3"
    # pyttsx3 drives espeak-ng on Linux, the system's own voices on macOS (NSSpeechSynthesizer) and Windows (SAPI5).
    engine_label = "espeak-ng" if sys.platform.startswith("linux") else "pyttsx3"
    cheap = True  # ~15 ms a line: the voice cache never keeps one of these at the cost of a neural voice's

    def __init__(self, language: str, voice: str | None = None, rate: int | None = None,
                 device: str | int | None = None, *, out: TextIO | None = None,
                 warn: Callable[[str], None] = print_to_stderr, cache: VoiceCache | bool = True,
                 sink: Callable[[Sound], None] | None = None) -> None:
        renderer = _renderer()
        chosen = choose_voice(renderer.voices, language, voice)
        if chosen is None:
            if voice:
                raise SpeechUnavailable(f"no installed voice matches {voice!r}")
            raise SpeechUnavailable(f"no {language_name(language)} voice is installed ({install_hint(language)})")
        super().__init__(rate, device, out=out, warn=warn, cache=cache, sink=sink)
        self.language = language
        self._renderer = renderer
        self.voice = chosen
        self.voice_id = chosen.id
        self.voice_name = chosen.name
