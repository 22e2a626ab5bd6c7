"""Speech in: the Listener protocol; backends live beside it (vosk on a microphone, a WAV recording).

A listener hears one answer at a time, through a closed grammar: only the phrases
that can answer the running question (the legal seats as number words, yes, no,
done, undo, repeat, nobody), so that small offline models recognise them reliably.
"""

from __future__ import annotations

from typing import Protocol, Sequence


class Listener(Protocol):
    """Hears the table's spoken answers."""

    name: str
    """The backend's name, for messages."""

    def listen(self, phrases: Sequence[str], timeout: float) -> str | None:
        """Listens for one utterance restricted to ``phrases`` (the backend adds "[unk]" and distractors).

        Returns the recognised text, "" when only unknown words were heard, or None when nothing was
        said before ``timeout`` seconds passed.
        """

    def loading(self) -> bool:
        """Returns whether the speech model is still loading (listen() waits for it meanwhile)."""

    def mute(self) -> None:
        """Stops hearing: the narrator is speaking (its own voice must not be taken for an answer)."""

    def unmute(self, after: float = 0.4) -> None:
        """Hears again ``after`` seconds from now, with the queue cleared and the recognizer reset."""

    def close(self) -> None:
        """Releases the microphone and the model; closing again does nothing."""


class ModelListener(Listener, Protocol):
    """A listener opened with its speech model loaded (what start_listener's factory makes): it tells which words the
    model knows, for the vocabulary's check."""

    def known(self, word: str) -> bool:
        """Returns whether the model can recognise ``word`` (one word, as the model spells it)."""
