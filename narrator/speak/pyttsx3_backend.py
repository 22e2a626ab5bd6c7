"""Speech with pyttsx3: one thread owns the engine and renders each line to WAV; sounddevice plays it."""

from __future__ import annotations

import contextlib
import importlib
import itertools
import queue
import re
import sys
import tempfile
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence, TextIO, TypeVar, cast

from ..errors import UserError
from .audio import Sound, play, tone
from .cache import VoiceCache, line_key
from .console import print_to_stderr
from .hygiene import DEFAULT_RATE, clean

T = TypeVar("T")

# espeak-ng renders a line in ~15 ms: an engine silent for this long is stuck, not slow.
RENDER_TIMEOUT = 30.0
# The engine's queue: a line to be said now goes before every line rendered ahead, so rendering
# ahead never delays a line by more than the one render under way (~15 ms).
NOW, AHEAD, STOP = 0, 1, -1

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


class _WithoutSavedNotice:
    """Stdout minus pyttsx3's "Audio saved to …" notices.

    The espeak driver prints one per file from espeak-ng's own thread, not the caller's, so the
    notice is known by its text; everything else, from any thread, goes through.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._newline_owed: set[int] = set()

    def write(self, text: str) -> int:
        thread = threading.get_ident()
        if text.startswith("Audio saved to "):
            self._newline_owed.add(thread)
            return len(text)
        if text == "\n" and thread in self._newline_owed:  # print() writes its end separately
            self._newline_owed.discard(thread)
            return len(text)
        return self.stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


@contextlib.contextmanager
def _without_saved_notice() -> Iterator[None]:
    stream = sys.stdout
    if stream is None:  # pythonw: print() already goes nowhere
        yield
        return
    filtered = cast(TextIO, _WithoutSavedNotice(stream))
    sys.stdout = filtered
    try:
        yield
    finally:
        if sys.stdout is filtered:
            sys.stdout = stream


def _engine_problem(exc: Exception) -> str:
    if sys.platform.startswith("linux") and isinstance(exc, (RuntimeError, OSError)):
        return "the espeak-ng speech engine is not installed (sudo apt-get install espeak-ng)"
    return f"the speech engine cannot start ({type(exc).__name__}: {exc})"


class _Renderer:
    """The one thread that owns the pyttsx3 engine, shared by every speaker, for the life of the process.

    pyttsx3.init() hands every caller the same engine, which must stay in the thread that made it,
    and espeak-ng's voice and rate are global: so one thread renders every line, with the voice and
    rate that line asks for. The engine is never dropped: espeak-ng starts once per process, and an
    engine not yet collected comes back from pyttsx3.init() still holding its last line, which it
    renders again into a folder since removed [checked: it then hangs].
    """

    def __init__(self) -> None:
        self._jobs: queue.PriorityQueue[tuple[int, int, Callable[[], None] | None]] = queue.PriorityQueue()
        self._order = itertools.count()  # first come, first served within a priority
        self._engine: Any = None
        self.engine_version = "pyttsx3"
        self._errors: list[BaseException] = []
        self._settings: tuple[str, int] | None = None
        self._settle: Callable[[], object] | None = None
        self._late: Future[Any] | None = None
        self._folder = tempfile.TemporaryDirectory(prefix="werewolf-speech-", ignore_cleanup_errors=True)
        # A daemon, so that an engine stuck in its run loop cannot keep the program from exiting.
        self._thread = threading.Thread(target=self._work, name="pyttsx3-engine", daemon=True)
        self._thread.start()
        try:
            self.voices = self._run(self._start)
        except BaseException:
            self._jobs.put((STOP, next(self._order), None))
            raise

    def _work(self) -> None:
        while (job := self._jobs.get()[2]) is not None:
            job()

    def submit(self, task: Callable[[], T], priority: int = AHEAD) -> Future[T]:
        """Queues ``task`` for the engine's thread and returns its future at once."""
        future: Future[T] = Future()

        def job() -> None:
            if not future.set_running_or_notify_cancel():
                return  # cancelled while it waited
            try:
                future.set_result(task())
            except Exception as exc:
                future.set_exception(exc)

        self._jobs.put((priority, next(self._order), job))
        return future

    def _run(self, task: Callable[[], T]) -> T:
        """Runs ``task`` in the engine's thread and returns its result."""
        # Until a late task ends, nothing else can run; once it does, even late, the engine speaks again.
        if self._late is not None and not self._late.done():
            raise RuntimeError(f"the speech engine has not answered for {RENDER_TIMEOUT:.0f} s")
        future = self.submit(task, NOW)
        try:
            return future.result(RENDER_TIMEOUT)
        except TimeoutError:
            self._late = future
            raise RuntimeError(f"the speech engine has not answered for {RENDER_TIMEOUT:.0f} s") from None

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
        # pyttsx3 runs espeak-ng asynchronously, and its next runAndWait cancels whatever espeak-ng is
        # still doing: a new rate, even the new line [checked: rates applied at random, empty WAVs].
        # Waiting for espeak-ng to be idle before each run prevents it.
        self._settle = getattr(sys.modules.get("pyttsx3.drivers._espeak"), "Synchronize", None)
        self._engine = engine
        self.engine_version = _engine_version()
        return voices

    def _on_error(self, **event: object) -> None:
        error = event.get("exception")
        if isinstance(error, BaseException):
            self._errors.append(error)

    def render(self, text: str, voice: str, rate: int | None) -> Sound:
        """Returns ``text`` said by ``voice`` at ``rate`` words a minute (None: DEFAULT_RATE)."""
        return self._run(lambda: self._render(text, voice, rate or DEFAULT_RATE))

    def render_ahead(self, text: str, voice: str, rate: int | None,
                     wanted: Callable[[], bool] = lambda: True) -> Future[Sound | None]:
        """Renders ``text`` once the engine has nothing to say now; None if no longer ``wanted`` by then."""
        return self.submit(lambda: self._render(text, voice, rate or DEFAULT_RATE) if wanted() else None)

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
        with _without_saved_notice():
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
        return clean(Sound.read(path))


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


class Pyttsx3Speaker:
    """Says lines with pyttsx3 and sounddevice; a line that cannot be said is printed instead.

    Each line is rendered to WAV by one save_to_file and one runAndWait, never by say(), which
    loses or overwrites lines in pyttsx3 2.99; it is played on ``device`` (an index or part of a
    name; None: the default output), or handed to ``sink`` instead (the benchmarks' timestamping
    sink). Rendered lines are kept in ``cache`` (True: the user's cache folder; False: none), so a
    line said again, or rendered ahead by `prepare`, plays at once. Raises SpeechUnavailable if
    there is no engine or no voice.
    """

    name = "pyttsx3"

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
        self._renderer: _Renderer | None = renderer
        self.voice = chosen
        self.rate = rate
        self.device = device
        self.cache: VoiceCache | None = VoiceCache(warn=warn) if cache is True else (cache or None)
        self._sink = sink
        self._out = out
        self._warn = warn
        self._warned = False

    def key(self, text: str) -> str:
        """Returns the cache key of ``text`` said by this speaker's voice at its rate."""
        engine = self._renderer.engine_version if self._renderer else ""
        return line_key(self.name, engine, self.voice.id, self.rate or DEFAULT_RATE, text)

    def cached(self, text: str) -> bool:
        """Returns whether ``text`` is already rendered in the cache."""
        return self.cache is not None and self.cache.has(self.key(text))

    def sound(self, text: str) -> Sound:
        """Returns ``text`` rendered: from the cache, or by the engine (and then kept)."""
        if self._renderer is None:
            raise ValueError("the speaker is closed")
        if not text.strip():
            raise ValueError("an empty line has no sound")  # pyttsx3 would assert
        if self.cache is None:
            return self._renderer.render(text, self.voice.id, self.rate)
        key = self.key(text)
        sound = self.cache.get(key)
        if sound is None:
            sound = self._renderer.render(text, self.voice.id, self.rate)
            self.cache.put(key, sound)
        return sound

    def prepare(self, texts: Iterable[str]) -> int:
        """Renders ``texts`` ahead into the cache, in the engine's thread, after any line to be said now.

        Returns at once, with how many lines were queued (those not cached yet). Lines still queued
        when the speaker closes are dropped.
        """
        renderer, cache = self._renderer, self.cache
        if renderer is None or cache is None:
            return 0
        queued = 0
        for text in dict.fromkeys(t for t in texts if t.strip()):
            key = self.key(text)
            if cache.has(key):
                continue

            def wanted(key: str = key) -> bool:
                # Once the speaker is closed, or the line was said (so rendered) meanwhile, it is not rendered.
                return self._renderer is not None and cache is not None and not cache.has(key)

            def keep(future: Future[Sound | None], key: str = key) -> None:
                if not future.cancelled() and future.exception() is None and (sound := future.result()):
                    if cache is not None:
                        cache.put(key, sound, remember=False)  # the memory keeps the lines said lately

            renderer.render_ahead(text, self.voice.id, self.rate, wanted).add_done_callback(keep)
            queued += 1
        return queued

    def render(self, text: str, path: Path | str) -> None:
        """Renders ``text`` into the WAV file ``path`` without playing it."""
        self.sound(text).write(Path(path))

    def _play(self, sound: Sound) -> None:
        if self._sink is not None:
            self._sink(sound)
        else:
            play(sound, self.device)

    def say(self, text: str) -> None:
        """Says ``text`` and returns once it has been heard; prints it if it cannot be said."""
        if not text.strip():
            return
        try:
            self._play(self.sound(text))
        except Exception as exc:  # the game never stops for speech
            print(text, file=self._out or sys.stdout, flush=True)
            try:
                self._play(tone())  # a sign to read the line on the screen
            except Exception:
                pass  # no sound at all: the printed line is all there is
            if not self._warned:
                self._warned = True
                self._warn(f"a line could not be said ({exc or type(exc).__name__}): "
                           "lines that cannot be said are printed instead")

    def close(self) -> None:
        """Lets go of the engine, which stays idle for the next speaker; closing again does nothing."""
        self._renderer = None
