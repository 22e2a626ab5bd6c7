"""What every speaker that renders lines shares: one engine thread with a queue, and say/cache/render-ahead.

A backend (pyttsx3, Piper) gives an `EngineThread` that renders one line (`_render`) and a
`RenderedSpeaker` that names its voice; the queue (a line to be said now before every line
rendered ahead), the timeout, the cache, playing and the printed fallback are here, once.
"""

from __future__ import annotations

import collections
import itertools
import queue
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence, TextIO, TypeVar

from .audio import Heard, Sound, play, tone
from .cache import CHEAP, VoiceCache, line_key
from .console import print_to_stderr
from .hygiene import DEFAULT_RATE, clean

T = TypeVar("T")

# An engine silent for this long is stuck, not slow (espeak-ng renders a line in ~15 ms, Piper in ~0.3 s here).
RENDER_TIMEOUT = 30.0
# Words a minute when the table sets none: espeak-ng's own default, an unhurried pace for a table.
# The engine's queue: a line to be said now goes before every line rendered ahead, so rendering
# ahead never delays a line by more than the one render under way.
NOW, AHEAD, STOP = 0, 1, -1


def finished(sound: Sound) -> Sound:
    """Returns a freshly rendered line as it is kept and played: the one place every rendered line goes through.

    Audio hygiene (lead-in silence, peak limit, loudness matched between backends: narrator/speak/hygiene.py).
    """
    return clean(sound)


class EngineThread:
    """One thread that owns a speech engine and renders lines in turn: lines to say now first, then lines ahead.

    Subclasses define `_start` (run once in the thread, before anything else) and `_render`. With
    ``starts_in_background``, `_start` runs in the thread while the constructor returns at once (`started`
    tells when it has ended); lines asked for meanwhile wait for it, in turn.
    """

    engine_version = ""
    """Names the engine and its version, for the cache key: a new engine renders lines anew."""
    render_timeout = RENDER_TIMEOUT
    """How long a render may take before the engine is taken for stuck (its start's wait included)."""
    starts_in_background = False

    def __init__(self, name: str) -> None:
        self._jobs: queue.PriorityQueue[tuple[int, int, Callable[[], None] | None]] = queue.PriorityQueue()
        self._order = itertools.count()  # first come, first served within a priority
        self._late: Future[Any] | None = None
        # A daemon, so that an engine stuck in its run loop cannot keep the program from exiting.
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()
        if self.starts_in_background:
            self.started: Future[object] = self.submit(self._start, NOW)
            return
        try:
            self.started = Future()
            self.started.set_result(self._run(self._start))
        except BaseException:
            self.stop()
            raise

    def _start(self) -> object:
        """Starts the engine, in its thread; raises SpeechUnavailable if it cannot."""
        return None

    def _render(self, text: str, voice: str, rate: int) -> Sound:
        raise NotImplementedError

    def _work(self) -> None:
        while (job := self._jobs.get()[2]) is not None:
            job()

    def idle(self, timeout: float = 5.0) -> None:
        """Waits for the line being rendered, if any (a line to say now goes before the lines queued ahead): a
        process that exits while onnxruntime renders is aborted. A stuck engine is not waited for."""
        try:
            self.submit(lambda: None, NOW).result(timeout)
        except Exception:
            pass  # the daemon thread cannot keep the program from exiting

    def stop(self) -> None:
        """Ends the thread once the jobs queued before have run."""
        self._jobs.put((STOP, next(self._order), None))

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
            raise RuntimeError(f"the speech engine has not answered for {self.render_timeout:.0f} s")
        future = self.submit(task, NOW)
        try:
            return future.result(self.render_timeout)
        except TimeoutError:
            self._late = future
            raise RuntimeError(f"the speech engine has not answered for {self.render_timeout:.0f} s") from None

    def run_now(self, task: Callable[[], T]) -> T:
        """Runs ``task`` in the engine's thread before any line queued ahead, and returns its result."""
        return self._run(task)

    def render(self, text: str, voice: str, rate: int | None) -> Sound:
        """Returns ``text`` said by ``voice`` at ``rate`` words a minute (None: DEFAULT_RATE)."""
        return self._run(lambda: finished(self._render(text, voice, rate or DEFAULT_RATE)))

    def render_here(self, text: str, voice: str, rate: int | None) -> Sound:
        """Returns ``text`` rendered, from the engine's own thread (a task it runs)."""
        return finished(self._render(text, voice, rate or DEFAULT_RATE))


class RenderedSpeaker:
    """Says lines rendered by an engine thread, played with sounddevice; a line that cannot be said is printed.

    Each line is played on ``device`` (an index or part of a name; None: the default output), or
    handed to ``sink`` instead (the benchmarks' timestamping sink). Rendered lines are kept in
    ``cache`` (True: the user's cache folder; False: none), so a line said again, or rendered ahead
    by `prepare`, plays at once. A backend sets ``_renderer``, ``voice_id`` and ``voice_name`` before anything is said.

    With a ``fallback`` speaker (Piper's: espeak-ng) and a cache, a line not rendered yet when it is due is
    said by the fallback at once, never waited for; its render goes on in the background for the next time.
    """

    name = "rendered"
    renders_ahead = True
    """`prepare` renders lines ahead into the cache (none without a cache: it hands over nothing)."""
    voice_id = ""
    """What the cache key names the voice by."""
    voice_name = ""
    """The voice's name, for messages."""
    language = ""
    """The table's language, for messages to the host (a backend sets it; none: English)."""
    engine_label = ""
    """The speech engine's name as the host knows it ("espeak-ng", "Piper"), for messages; none: ``name``."""
    render_command = ""
    """The command that renders the table's lines ahead (prepare_table sets it), told to the host when a line is
    not ready; none: ``voices render LANG``."""
    cheap = False
    """Whether a line costs next to nothing to render again (espeak-ng's): the voice cache deletes those first, and
    never a dear one to keep one of them (cache.CHEAP)."""
    pieces_word = "lines"
    """What the speaker renders a line as, for messages: "lines", or a slow engine's "clauses"."""
    seat_words: tuple[str, ...] = ()
    """How the table says each of its seats (prepare_table sets it): a slow engine renders a line naming several as
    pieces cut at each seat, rendered ahead, rather than whole when it is said (KokoroSpeaker.pieces)."""
    list_joins: tuple[str, ...] = ()
    """The words that join a list of seats in the table's language ("," and "and"; prepare_table sets them)."""
    render_lines: frozenset[str] | None = None
    """The lines `render_command` renders (None: any); a line outside them (one listing several seats) is
    rendered when said, and not being ready is no reason to run it."""

    def __init__(self, rate: int | None = None, device: str | int | None = None, *, out: TextIO | None = None,
                 warn: Callable[[str], None] = print_to_stderr, cache: VoiceCache | bool = True,
                 sink: Callable[[Sound], None] | None = None) -> None:
        self._renderer: EngineThread | None = None
        self.rate = rate
        self.device = device
        self.cache: VoiceCache | None = VoiceCache(warn=warn) if cache is True else (cache or None)
        self._sink = sink
        self._out = out
        self._warn = warn
        self._warned = False
        self.fallback: RenderedSpeaker | None = None
        self.not_ready = 0
        """How many lines the fallback said because they were not rendered yet (told to the host once, the first)."""
        self.not_ready_told = ""
        """What the host was told then: the game's end tells it again, once the full screen is gone."""
        # The lines to render ahead, one deque a `prepare`, the latest last: its lines go first. The engine's
        # thread takes them one at a time (`_pump`), so that a prepare costs its caller no more than a copy.
        self._wanted: list[collections.deque[str]] = []
        self._wanted_lock = threading.Lock()
        self._pumping = False
        self._settled = threading.Event()
        self._settled.set()

    @property
    def voice_label(self) -> str:
        """The voice as the voice log names it: its engine and its id ("kokoro:af_heart", "espeak-ng:gmw/en-us")."""
        return f"{(self.engine_label or self.name).lower()}:{self.voice_id}"

    def key(self, text: str) -> str:
        """Returns the cache key of ``text`` said by this speaker's voice at its rate (marked CHEAP if it is)."""
        engine = self._renderer.engine_version if self._renderer else ""
        return (CHEAP if self.cheap else "") + line_key(self.name, engine, self.voice_id, self.rate or DEFAULT_RATE,
                                                        text)

    def pieces(self, text: str) -> list[str]:
        """Returns what ``text`` is rendered and kept as: the line itself, or (a slow engine's) its clauses."""
        return [text]

    def joined(self, text: str, sounds: Sequence[Sound]) -> Sound:
        """Returns the line ``text`` from the sounds of its `pieces`, in order."""
        return sounds[0]

    def cached(self, text: str) -> bool:
        """Returns whether ``text`` is already rendered in the cache (every one of its pieces)."""
        return self.cache is not None and all(self.cache.has(self.key(piece)) for piece in self.pieces(text))

    def todo(self, texts: Iterable[str]) -> list[str]:
        """Returns the pieces of ``texts`` not rendered in the cache yet, each once, in order."""
        pieces = dict.fromkeys(piece for text in texts if text.strip() for piece in self.pieces(text))
        return [piece for piece in pieces if self.cache is None or not self.cache.has(self.key(piece))]

    def render_all(self, pieces: Iterable[str], advance: Callable[[], None], workers: int = 1) -> tuple[int, int]:
        """Renders ``pieces`` into the cache one after another (``workers``: how many engines may render side by
        side, where a backend can); calls ``advance`` after each; returns how many were rendered and failed."""
        rendered = failed = 0
        for piece in pieces:
            if self.cache is not None and not self.cache.writable:
                break  # the disk refused a line (full?): rendering the rest would keep nothing
            try:
                self._piece(piece)
                rendered += 1
            except Exception:  # one line the engine refuses does not stop the others
                failed += 1
            advance()
        return rendered, failed

    def sound(self, text: str) -> Sound:
        """Returns ``text`` rendered: from the cache, or by the engine (and then kept); piece by piece, joined."""
        if not text.strip():
            raise ValueError("an empty line has no sound")  # pyttsx3 would assert
        pieces = self.pieces(text)
        if len(pieces) == 1:
            return self._piece(pieces[0])
        return self.joined(text, [self._piece(piece) for piece in pieces])

    def _piece(self, text: str) -> Sound:
        """Returns one piece rendered: from the cache, or by the engine (and then kept)."""
        if self._renderer is None:
            raise ValueError("the speaker is closed")
        if self.cache is None:
            return self._renderer.render(text, self.voice_id, self.rate)
        key = self.key(text)
        sound = self.cache.get(key)
        if sound is None:
            sound = self._renderer.render(text, self.voice_id, self.rate)
            self.cache.put(key, sound)
        return sound

    def prepare(self, texts: Iterable[str]) -> int:
        """Renders ``texts`` ahead into the cache, in the engine's thread, in their order, after any line to be
        said now and before the lines of earlier calls not rendered yet (the game goes on: what it needs next
        changes). Lines already in the cache are passed over.

        Returns at once, with how many lines were handed over. Lines still waiting when the speaker closes
        are dropped.
        """
        lines = collections.deque(dict.fromkeys(piece for t in texts if t.strip() for piece in self.pieces(t)))
        if self._renderer is None or self.cache is None or not lines:
            return 0
        self._want(lambda wanted: wanted.append(lines))
        return len(lines)

    def wait_ahead(self, timeout: float | None = None) -> bool:
        """Waits until every line handed to `prepare` is rendered (or the speaker closed); False on ``timeout``."""
        return self._settled.wait(timeout)

    def _want(self, change: Callable[[list[collections.deque[str]]], None]) -> None:
        """Changes the lines wanted ahead, and has the engine's thread take them if it is not doing so already."""
        renderer = self._renderer
        if renderer is None:
            return
        with self._wanted_lock:
            change(self._wanted)
            start, self._pumping = not self._pumping, True
            self._settled.clear()
        if start:
            renderer.submit(self._pump)

    def _next_wanted(self) -> tuple[str, str] | None:
        """Returns the next line wanted ahead and not in the cache, with its key; None (and the pump stops) if
        none is left or the speaker has closed."""
        while True:
            with self._wanted_lock:
                while self._wanted and not self._wanted[-1]:
                    self._wanted.pop()
                if not self._wanted or self._renderer is None or self.cache is None:
                    self._wanted.clear()
                    self._pumping = False
                    self._settled.set()
                    return None
                text = self._wanted[-1].popleft()
            key = self.key(text)
            if not self.cache.has(key):  # said meanwhile, or rendered by an earlier game
                return text, key

    def _pump(self) -> None:
        """In the engine's thread: renders one line wanted ahead into the cache, then queues itself again, after
        any line to be said now."""
        renderer = self._renderer
        found = self._next_wanted()
        if renderer is None or found is None:
            return
        text, key = found
        try:
            sound = renderer.render_here(text, self.voice_id, self.rate)
            if self.cache is not None:
                self.cache.put(key, sound, remember=False)  # the memory keeps the lines said lately
        except Exception:
            pass  # a line the engine cannot render is rendered, and told, when it is said
        renderer.submit(self._pump)

    def render(self, text: str, path: Path | str) -> None:
        """Renders ``text`` into the WAV file ``path`` without playing it."""
        self.sound(text).write(Path(path))

    def _play(self, sound: Sound) -> Heard:
        """Plays ``sound`` (or hands it to the sink); returns this voice, and when it began."""
        heard = Heard(self.voice_label, time.time())
        if self._sink is not None:
            self._sink(sound)
        else:
            play(sound, self.device)
        return heard

    def say(self, text: str) -> Heard | None:
        """Says ``text`` and returns once it has been heard, with the voice that said it (the fallback's, when it
        did) and when it began; prints it if it cannot be said ("console")."""
        if not text.strip():
            return None
        if self.fallback is not None and self.cache is not None and self._renderer is not None \
                and not self.cached(text):
            return self._not_ready(text, self.fallback)
        try:
            return self._play(self.sound(text))
        except Exception as exc:  # the game never stops for speech
            printed = Heard("console", time.time())
            print(text, file=self._out or sys.stdout, flush=True)
            try:
                self._play(tone())  # a sign to read the line on the screen
            except Exception:
                pass  # no sound at all: the printed line is all there is
            if not self._warned:
                self._warned = True
                self._warn(self._told("screen.line_printed",
                                      "a line could not be said ({why}): lines that cannot be said are printed instead",
                                      why=exc or type(exc).__name__))
            return printed

    def _told(self, key: str, english: str, **values: object) -> str:
        """A message to the host in the table's language (the voice file's ``key``); in English without one."""
        if not self.language:
            return english.format(**values)
        from ..voices import load_voice  # the voice files are loaded once, and only for a table's speaker

        return load_voice(self.language).text(key, dict(values))

    def _not_ready(self, text: str, fallback: RenderedSpeaker) -> Heard | None:
        """Says ``text``, not rendered yet, with ``fallback`` at once; renders it in the background for the next
        time (before the lines ahead, as a `prepare` of its own). The host is told once, at the first such line,
        with the command that renders the table's lines before the next game: on a first game, or a busy machine,
        it would otherwise be told at most lines of the night. An engine that could not start has said why once:
        the fallback then says every line, unannounced."""
        started = self._renderer.started if self._renderer is not None else None
        if started is not None and started.done() and (started.cancelled() or started.exception() is not None):
            return fallback.say(text)
        self._want(lambda wanted: wanted.append(collections.deque(self.pieces(text))))  # the next rendered
        if self.render_lines is not None and text not in self.render_lines:
            return fallback.say(text)
        self.not_ready += 1
        if self.not_ready == 1:
            from ..hint import render_hint

            self.not_ready_told = self._told(
                "screen.not_rendered", "Lines not rendered yet are said by {fallback}. Before the next game, run: "
                "{command}", fallback=fallback.engine_label or fallback.name,
                command=self.render_command or render_hint(self.language or "en"))
            self._warn(self.not_ready_told)
        return fallback.say(text)

    def close(self) -> None:
        """Lets go of the engine, which stays idle for the next speaker; closing again does nothing. The lines still
        queued ahead are dropped, and the one being rendered is waited for (see EngineThread.idle)."""
        renderer, self._renderer = self._renderer, None
        if renderer is not None:
            renderer.idle()
        if self.fallback is not None:
            self.fallback.close()
