"""The voice cache: lines rendered once, kept as WAV files named by what they were rendered from.

A file's name is the SHA-256 of (backend, engine version, voice id, rate, text, and the version of the
audio hygiene every line goes through): a new voice, rate, wording, engine or hygiene makes a new name,
so a stale file is simply never read again. Files are written whole under a temporary name and renamed,
so a crash never leaves half a line under a real name.
The files take at most ``WEREWOLF_NARRATOR_VOICE_CACHE_MB`` megabytes (DISK_MB by default): once a line written
goes over, the lines least recently used (read, or found there by rendering ahead) are deleted, down to nine tenths
of it; a line deleted is rendered again when it is next needed. What a line costs to render again decides first:
cheap lines (espeak-ng's, ~15 ms each: their keys begin with CHEAP) have a bound of their own, CHEAP_SHARE of the
whole, and a cheap line written never deletes a dear one (Kokoro's, seconds a clause: issue 35 found 248 MB of
espeak-ng lines evicting Kokoro clauses that take minutes to render again); past the whole bound, the cheap lines
go before the dear.
Anything wrong with the cache (a full disk, an unreadable or damaged file) costs one warning and the
line is rendered live: the game never stops for its cache. A file is used only if it is a regular
file holding a whole PCM WAV such as the speakers write; anything else is deleted and rendered anew.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import json
import os
import stat
import sys
import tempfile
import threading
import wave
from pathlib import Path
from typing import Callable, Iterator

from ..folders import cache_home, home
from .audio import Sound
from .console import print_to_stderr
from .hygiene import VERSION as HYGIENE

# Bumped when the way lines are rendered changes in a way the key does not show.
FORMAT = 1
# Lines kept in memory too: a line said again (a repeated call, "Seat seven?") costs no disk read.
# About 100 KB a line at 22 kHz: 64 lines stay far below the Pi's memory budget.
MEMORY_LINES = 64
# And at most this many bytes of them, whatever the lines: a line may be up to LARGEST, and 64 planted large
# entries took the memory to 383 MB.
MEMORY_BYTES = 16 << 20
# What a cached line may be: what the speakers write (espeak-ng and Piper: mono, 16 bits, 16-22 kHz), with room
# for any other engine's PCM. A header outside these (a rate of 0, a width of 5) would never play.
CHANNELS = (1, 2)
RATES = range(8_000, 96_001)
WIDTHS = (1, 2, 3, 4)
LARGEST = 64 << 20  # bytes: more than five minutes of 48 kHz stereo; a line lasts seconds
DISK_MB = 512
"""The cache's bound on the disk by default: about 3,500 lines, a table's in two voices and a few more tables' names
(8 games left 1.4 GB with no bound)."""
CHEAP = "cheap-"
"""How the key of a line cheap to render again begins (RenderedSpeaker.key, for a speaker whose ``cheap`` is set)."""
CHEAP_SHARE = 4
"""The cheap lines' bound is the cache's divided by this: 128 MB of 512, the espeak-ng lines of two tables (a French
table's 602 are 61 MB: an eighth of the cache evicted a third of them as `voices render` wrote them)."""
DISK_MB_ENV = "WEREWOLF_NARRATOR_VOICE_CACHE_MB"
"""The variable that sets the bound, in megabytes (a positive number)."""


def disk_bound(warn: Callable[[str], None] = print_to_stderr) -> int:
    """Returns the cache's bound on the disk in bytes: ``$WEREWOLF_NARRATOR_VOICE_CACHE_MB`` megabytes, or DISK_MB's
    (a value that is not a positive number is warned about)."""
    value = os.environ.get(DISK_MB_ENV, "").strip()
    if value:
        try:
            megabytes = float(value)
        except ValueError:
            megabytes = 0.0
        if 0 < megabytes < float("inf"):
            return int(megabytes * (1 << 20))
        warn(f"{DISK_MB_ENV}={value!r} is not a positive number of megabytes: the voice cache keeps {DISK_MB} MB")
    return DISK_MB << 20


def default_folder() -> Path:
    """Returns where rendered lines are kept: the user's cache folder, as each platform names it."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.join(os.path.expanduser("~"), "AppData", "Local")
        return Path(base) / "werewolf-narrator" / "Cache" / "voices"
    if sys.platform == "darwin":
        return home() / "Library" / "Caches" / "werewolf-narrator" / "voices"
    return cache_home() / "werewolf-narrator" / "voices"


def line_key(backend: str, engine: str, voice: str, rate: int, text: str) -> str:
    """Returns the cache key of a line: changes with every one of its parts, and with the audio hygiene's VERSION.

    >>> a = line_key("pyttsx3", "espeak-ng 1.51", "gmw/en-us", 175, "It is night.")
    >>> len(a), a == line_key("pyttsx3", "espeak-ng 1.51", "gmw/en-us", 175, "It is night.")
    (64, True)
    >>> a == line_key("pyttsx3", "espeak-ng 1.51", "gmw/en-us", 180, "It is night.")
    False
    """
    parts = json.dumps([FORMAT, HYGIENE, backend, engine, voice, rate, text], ensure_ascii=False)
    return hashlib.sha256(parts.encode("utf-8")).hexdigest()


class VoiceCache:
    """Rendered lines on the disk (``folder``, default: the user's cache folder) and the last few in memory.

    Safe to use from several threads: the speaker reads, the engine's thread writes what it renders ahead.
    """

    def __init__(self, folder: Path | str | None = None, *, warn: Callable[[str], None] = print_to_stderr,
                 memory_lines: int = MEMORY_LINES, disk_bytes: int | None = None,
                 memory_bytes: int = MEMORY_BYTES) -> None:
        self.folder = Path(folder) if folder is not None else default_folder()
        self.disk_bytes = disk_bound(warn) if disk_bytes is None else disk_bytes
        self._on_disk: dict[bool, int] | None = None  # the lines' bytes, cheap or not, counted at the first written
        self._disk_lock = threading.Lock()
        self._warn = warn
        self._warned = False
        self._writable = True
        self._memory: collections.OrderedDict[str, Sound] = collections.OrderedDict()
        self._memory_lines = memory_lines
        self._memory_bytes = memory_bytes
        self._in_memory = 0
        self._lock = threading.Lock()

    def path(self, key: str) -> Path:
        """Returns the file that holds (or would hold) the line ``key``."""
        return self.folder / f"{key}.wav"

    @property
    def writable(self) -> bool:
        """False once the disk has refused a line: the cache then keeps lines in memory only."""
        return self._writable

    def problem(self) -> str | None:
        """Tries to write in the cache's folder now; returns why it cannot, or None if it can."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=self.folder, prefix=".probe-"):
                pass
        except OSError as exc:
            return _reason(exc)
        return None

    def has(self, key: str) -> bool:
        """Returns whether the line ``key`` is kept (in memory, or on the disk with a sound header that is whole).

        A damaged file is deleted (one warning), so it is rendered anew like a missing one.
        """
        with self._lock:
            if key in self._memory:
                return True
        path = self.path(key)
        try:
            _check_header(path)
        except (FileNotFoundError, NotADirectoryError):
            return False
        except (OSError, EOFError, wave.Error, ValueError) as exc:
            self._discard(path, exc)
            return False
        _used(path)
        return True

    def get(self, key: str) -> Sound | None:
        """Returns the line ``key``, or None if it is not kept or cannot be read (then it is rendered anew)."""
        with self._lock:
            sound = self._memory.get(key)
            if sound is not None:
                self._memory.move_to_end(key)
                return sound
        path = self.path(key)
        try:
            sound = _read(path)
        except (FileNotFoundError, NotADirectoryError):  # not kept (yet): writing it will say what is wrong
            return None
        except (OSError, EOFError, wave.Error, ValueError) as exc:
            self._discard(path, exc)
            return None
        _used(path)
        self._remember(key, sound)
        return sound

    def _discard(self, path: Path, exc: BaseException) -> None:
        """Deletes a damaged file, so the line is rendered and written again; warns once."""
        self._problem(f"{path} cannot be read ({_reason(exc)})")
        try:
            path.unlink()
        except OSError:
            pass

    def put(self, key: str, sound: Sound, *, remember: bool = True) -> None:
        """Keeps the line ``key``; a disk that refuses it costs one warning, and the cache stays in memory only.

        ``remember=False`` (a line rendered ahead, maybe said much later) keeps it on the disk only,
        unless the disk refuses it.
        """
        if remember or not self._writable:
            self._remember(key, sound)
        if not self._writable:
            return
        path = self.path(key)
        partial = path.with_name(f".{key}.{os.getpid()}.{threading.get_ident()}.part")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            sound.write(partial)
            os.replace(partial, path)
        except (OSError, wave.Error) as exc:
            self._writable = False
            self._remember(key, sound)
            try:
                partial.unlink()
            except OSError:
                pass
            self._problem(f"cannot write rendered lines to {self.folder} ({_reason(exc)})")
            return
        with contextlib.suppress(OSError):  # a line that cannot be counted or dropped is kept: the game goes on
            self._grew(path.stat().st_size, key.startswith(CHEAP))

    def _grew(self, size: int, cheap: bool) -> None:
        """A line of ``size`` bytes was written: past a bound, the least recently used lines go; a cheap line only
        ever makes cheap lines go."""
        with self._disk_lock:
            if self._on_disk is None:
                self._on_disk = {False: 0, True: 0}
                for _, size_on_disk, _, cheap_on_disk in self._lines():
                    self._on_disk[cheap_on_disk] += size_on_disk
            else:
                self._on_disk[cheap] += size
            cheap_bound = self.disk_bytes // CHEAP_SHARE
            if self._on_disk[True] > cheap_bound:
                self._drop(cheap_bound * 9 // 10, (True,), (True,))
            if sum(self._on_disk.values()) > self.disk_bytes:
                self._drop(self.disk_bytes * 9 // 10, (True, False), (True,) if cheap else (True, False))

    def _lines(self) -> list[tuple[int, int, str, bool]]:
        """Returns the lines on the disk: (last used, size, path, cheap), the least recently used first."""
        found = []
        with os.scandir(self.folder) as entries:
            for entry in entries:
                if entry.name.endswith(".wav") and not entry.name.startswith("."):
                    with contextlib.suppress(OSError):
                        info = entry.stat(follow_symlinks=False)
                        found.append((info.st_mtime_ns, info.st_size, entry.path, entry.name.startswith(CHEAP)))
        return sorted(found)

    def _drop(self, target: int, measured: tuple[bool, ...], kinds: tuple[bool, ...]) -> None:
        """Deletes lines of ``kinds`` (cheap or not), in that order, each the least recently used first, until the
        lines of the ``measured`` kinds take ``target`` bytes at most (or none of ``kinds`` is left)."""
        assert self._on_disk is not None
        for cheap in kinds:
            for _, size, path, _ in (line for line in self._lines() if line[3] == cheap):
                if sum(self._on_disk[kind] for kind in measured) <= target:
                    return
                with contextlib.suppress(OSError):
                    os.unlink(path)
                    self._on_disk[cheap] -= size

    def _remember(self, key: str, sound: Sound) -> None:
        """Keeps ``sound`` in memory too, the least recently used lines dropped past MEMORY_LINES or MEMORY_BYTES
        (a line larger than the bound alone is not kept in memory: it is read again from the disk)."""
        if len(sound.frames) > self._memory_bytes:
            return
        with self._lock:
            old = self._memory.pop(key, None)
            self._in_memory += len(sound.frames) - (len(old.frames) if old is not None else 0)
            self._memory[key] = sound
            while len(self._memory) > self._memory_lines or self._in_memory > self._memory_bytes:
                _, dropped = self._memory.popitem(last=False)
                self._in_memory -= len(dropped.frames)

    def _problem(self, message: str) -> None:
        with self._lock:  # the speaker's thread and the engine's may both find a problem
            if self._warned:
                return
            self._warned = True
        self._warn(f"voice cache: {message}; lines are rendered as they are said")


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[tuple[wave.Wave_read, int]]:
    """Opens a cached line; yields it and its file's size once its header is one the cache may keep.

    Raises wave.Error (or OSError) for anything but a regular file holding a PCM WAV the speakers could write.
    """
    # O_NONBLOCK: a FIFO put where a line should be opens at once instead of waiting for a writer forever.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise wave.Error("not a regular file")
        if info.st_size > LARGEST:
            raise wave.Error(f"{info.st_size} bytes, larger than any line")
        try:
            wav = wave.open(file)
        except RuntimeError:  # what wave raises when a chunk's size sends it past the end (Chunk.seek)
            raise wave.Error("its chunk sizes do not add up") from None
        with wav:
            if wav.getnchannels() not in CHANNELS:
                raise wave.Error(f"{wav.getnchannels()} channels")
            if wav.getframerate() not in RATES:
                raise wave.Error(f"a rate of {wav.getframerate()} Hz")
            if wav.getsampwidth() not in WIDTHS:
                raise wave.Error(f"a sample width of {wav.getsampwidth()} bytes")
            if not wav.getnframes():
                raise wave.Error("no sound in it")
            yield wav, info.st_size


def _used(path: Path) -> None:
    """Marks a line used now (its file's time): the bound on the disk drops the least recently used first."""
    with contextlib.suppress(OSError):
        os.utime(path)


def _sound_bytes(wav: wave.Wave_read) -> int:
    return wav.getnframes() * wav.getnchannels() * wav.getsampwidth()


def _check_header(path: Path) -> None:
    """Checks a cached line's header, and that its file is long enough for the sound it announces, reading no sound."""
    with _opened(path) as (wav, size):
        if size < _sound_bytes(wav):
            raise wave.Error(f"cut short: {size} bytes for {_sound_bytes(wav)} bytes of sound")


def _read(path: Path) -> Sound:
    """Reads a cached line whole, checked (see _opened)."""
    with _opened(path) as (wav, _):
        frames = wav.readframes(wav.getnframes())
        if len(frames) != _sound_bytes(wav):
            raise wave.Error(f"cut short: {len(frames)} of its {_sound_bytes(wav)} bytes of sound")
        return Sound(frames, wav.getframerate(), wav.getnchannels(), wav.getsampwidth())


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__
