"""The voice cache: lines rendered once, kept as WAV files named by what they were rendered from.

A file's name is the SHA-256 of (backend, engine version, voice id, rate, text, and the version of the
audio hygiene every line goes through): a new voice, rate, wording, engine or hygiene makes a new name,
so a stale file is simply never read again. Files are written whole under a temporary name and renamed,
so a crash never leaves half a line under a real name.
Anything wrong with the cache (a full disk, an unreadable or damaged file) costs one warning and the
line is rendered live: the game never stops for its cache.
"""

from __future__ import annotations

import collections
import hashlib
import json
import os
import sys
import threading
import wave
from pathlib import Path
from typing import Callable

from ..folders import cache_home, home
from .audio import Sound
from .console import print_to_stderr
from .hygiene import VERSION as HYGIENE

# Bumped when the way lines are rendered changes in a way the key does not show.
FORMAT = 1
# Lines kept in memory too: a line said again (a repeated call, "Seat seven?") costs no disk read.
# About 100 KB a line at 22 kHz: 64 lines stay far below the Pi's memory budget.
MEMORY_LINES = 64


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
                 memory_lines: int = MEMORY_LINES) -> None:
        self.folder = Path(folder) if folder is not None else default_folder()
        self._warn = warn
        self._warned = False
        self._writable = True
        self._memory: collections.OrderedDict[str, Sound] = collections.OrderedDict()
        self._memory_lines = memory_lines
        self._lock = threading.Lock()

    def path(self, key: str) -> Path:
        """Returns the file that holds (or would hold) the line ``key``."""
        return self.folder / f"{key}.wav"

    def has(self, key: str) -> bool:
        """Returns whether the line ``key`` is kept (in memory or on the disk)."""
        with self._lock:
            if key in self._memory:
                return True
        return self.path(key).is_file()

    def get(self, key: str) -> Sound | None:
        """Returns the line ``key``, or None if it is not kept or cannot be read (then it is rendered anew)."""
        with self._lock:
            sound = self._memory.get(key)
            if sound is not None:
                self._memory.move_to_end(key)
                return sound
        path = self.path(key)
        try:
            sound = Sound.read(path)
            if not sound.frames:
                raise wave.Error("no sound in it")
        except (FileNotFoundError, NotADirectoryError):  # not kept (yet): writing it will say what is wrong
            return None
        except (OSError, EOFError, wave.Error, ValueError) as exc:
            self._problem(f"{path} cannot be read ({_reason(exc)})")
            try:
                path.unlink()  # damaged: rendered and written again
            except OSError:
                pass
            return None
        self._remember(key, sound)
        return sound

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

    def _remember(self, key: str, sound: Sound) -> None:
        with self._lock:
            self._memory[key] = sound
            self._memory.move_to_end(key)
            while len(self._memory) > self._memory_lines:
                self._memory.popitem(last=False)

    def _problem(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            self._warn(f"voice cache: {message}; lines are rendered as they are said")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__
