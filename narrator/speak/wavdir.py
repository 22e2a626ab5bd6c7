"""A folder of WAV files, one per line: what `dry-run --audio-dir` leaves for a host to listen to."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, TextIO

from ..errors import UserError
from .choice import rendering_speaker
from .console import print_to_stderr
from .pyttsx3_backend import SpeechUnavailable


class WavDirSpeaker:
    """Renders every line, in order, as 0001.wav, 0002.wav, … in ``folder``, listed in lines.txt.

    lines.txt has one line per file: "0001.wav<TAB>text". Numbered WAV files left by an earlier
    run are removed first, so that the folder holds this run only. The lines are rendered as the
    table's ``backend`` would say them ('console' renders as 'auto' does). Raises SpeechUnavailable
    if there is no speech engine or no voice for ``language``.
    """

    name = "wav"
    renders_ahead = False
    not_ready_told = ""

    def __init__(self, folder: Path | str, language: str, voice: str | None = None, rate: int | None = None,
                 *, backend: str = "auto", warn: Callable[[str], None] = print_to_stderr) -> None:
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():  # said before a voice is loaded (Kokoro: seconds)
            raise UserError(f"{self.folder}: not a folder; --audio-dir names a folder to write the lines in")
        try:
            self._speaker = rendering_speaker("auto" if backend == "console" else backend, language, voice, rate,
                                              warn=warn)
        except SpeechUnavailable as exc:
            raise SpeechUnavailable(f"cannot render the lines into {self.folder}: {exc}") from None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            for old in self.folder.glob("[0-9][0-9][0-9][0-9].wav"):
                old.unlink()
            self._index: TextIO | None = open(self.folder / "lines.txt", "w", encoding="utf-8")
        except OSError as exc:
            self._speaker.close()
            raise UserError(f"{self.folder}: cannot write the lines there ({exc.strerror or exc})") from None
        self._count = 0
        self._warn = warn
        self._warned = False

    def say(self, text: str) -> None:
        """Renders ``text`` as the next numbered file (an empty line is skipped)."""
        if self._index is None:
            raise ValueError("the speaker is closed")
        if not text.strip():
            return
        name = f"{self._count + 1:04d}.wav"
        try:
            self._speaker.render(text, self.folder / name)
        except Exception as exc:  # a dry run never stops for speech
            if not self._warned:
                self._warned = True
                self._warn(f"a line could not be rendered ({exc or type(exc).__name__}): "
                           f"lines that cannot be rendered are missing from {self.folder}")
            return
        self._count += 1
        self._index.write(f"{name}\t{' '.join(text.split())}\n")  # one line per file, whatever the text holds
        self._index.flush()

    def prepare(self, texts: Iterable[str]) -> int:
        """Renders nothing ahead: each line is rendered into its file as it comes, in order."""
        return 0

    def close(self) -> None:
        """Closes lines.txt and releases the engine; closing again does nothing."""
        if self._index is not None:
            self._index.close()
            self._index = None
            self._speaker.close()
