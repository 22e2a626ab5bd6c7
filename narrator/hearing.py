"""Spoken answers at the table: heard through a closed grammar, read back, confirmed by voice or key.

Voice and keypad are live together: while the narrator listens, any key pressed
takes over and the keypad answers. Silence (or words that fit no answer) asks
again once; a second silence leaves the answer to the keypad.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from engine import Answer, Call, Kind

from .asking import KEYPAD
from .keypad import Keys
from .listen import Listener
from .listen.understand import Allowed, Vocabulary, phrases, understand

WORDS_BY_KIND = {Kind.SEAT: ("undo", "repeat"), Kind.VOTE: ("undo", "repeat"), Kind.ELECTION: ("undo", "repeat"),
                 Kind.YES_NO: ("yes", "no", "undo", "repeat"), Kind.NONE: ("done", "repeat"),
                 Kind.NUMBER: ("undo", "repeat")}
"""The calls a voice may answer, and the words it may use besides seats."""


class PushbackKeys:
    """Keys with one-key pushback: a key that interrupted listening is read again by the keypad."""

    def __init__(self, keys: Keys) -> None:
        self.keys = keys
        self.pending: list[str] = []

    def read(self, timeout: float | None = None) -> str | None:
        if self.pending:
            return self.pending.pop(0)
        return self.keys.read(timeout)

    def unread(self, key: str) -> None:
        self.pending.insert(0, key)

    def close(self) -> None:
        self.keys.close()


class KeyPressed(Exception):
    """A key was pressed while listening: the keypad takes over."""


class VoiceAnswers:
    """Hears one answer to a call, or says to fall back to the keypad (by returning ``KEYPAD``)."""

    KEYPAD = KEYPAD

    def __init__(self, listener: Listener, vocabulary: Vocabulary, keys: PushbackKeys,
                 say: Callable[[str, dict[str, object]], None], repeat: Callable[[], None],
                 seat_words: Callable[[int], str], word: Callable[[str], str], timeout: float = 8.0,
                 card_words: Callable[[int], str] = str) -> None:
        self.listener = listener
        self.vocabulary = vocabulary
        self.keys = keys
        self.say = say
        self.repeat = repeat
        self.seat_words = seat_words
        self.card_words = card_words  # how a numbered card is read back (the Town Crier's event card)
        self.word = word
        self.timeout = timeout
        self._busy: threading.Thread | None = None

    def allowed(self, call: Call) -> Allowed | None:
        """Returns what may answer ``call`` by voice, or None when the keypad alone answers it."""
        if call.kind not in WORDS_BY_KIND or not call.live:
            return None
        words = list(WORDS_BY_KIND[call.kind])
        seats: tuple[int, ...] = ()
        if call.kind in (Kind.SEAT, Kind.VOTE, Kind.ELECTION):
            seats = tuple(call.seats)
            if call.optional:
                words.append("none")
        elif call.kind is Kind.NUMBER:  # a card's number, said as a number ("twelve")
            seats = tuple(range(1, min(call.picks, max(self.vocabulary.numbers)) + 1))
            if call.optional:
                words.append("none")
        return Allowed(seats, tuple(words))

    def _hear(self, allowed: Allowed) -> str | None:
        """Listens once, while watching the keypad; raises KeyPressed if a key comes first."""
        if self._busy is not None:
            self._busy.join()  # a listen abandoned for the keypad must end before the next one
        heard: dict[str, Any] = {}
        grammar = phrases(self.vocabulary, allowed)

        def listen() -> None:
            try:
                heard["text"] = self.listener.listen(grammar, self.timeout)
            except Exception as error:  # raised again below, in the narrator's thread
                heard["error"] = error

        worker = threading.Thread(target=listen, name="listen", daemon=True)
        worker.start()
        while worker.is_alive():
            key = self.keys.read(timeout=0.05)
            if key is not None:
                self.keys.unread(key)
                self._busy = worker
                raise KeyPressed()
        self._busy = None
        if "error" in heard:
            raise heard["error"]
        text: str | None = heard.get("text")
        return text

    def _understood(self, allowed: Allowed) -> object | None:
        """Returns the first answer understood within two tries, or None (silence or noise twice)."""
        for attempt in range(2):
            text = self._hear(allowed)
            answer = None if text is None else understand(self.vocabulary, text, allowed)
            if answer == "repeat":
                self.repeat()
                continue
            if answer is not None:
                return answer
            if attempt == 0:
                self.say("voice.again", {})
        return None

    def answer(self, call: Call) -> Answer | object:
        """Returns the answer heard and confirmed, or KEYPAD when the keypad is to answer."""
        allowed = self.allowed(call)
        if allowed is None:
            return self.KEYPAD
        try:
            while True:
                heard = self._understood(allowed)
                if heard is None:
                    self.say("voice.keypad", {})
                    return self.KEYPAD
                if heard == "undo":
                    continue
                if call.kind is Kind.NONE:
                    return None
                value: Answer
                if call.kind is Kind.YES_NO:
                    value = heard == "yes"
                    said = self.word("yes" if value else "no")
                elif heard == "none":
                    value, said = None, self.word("none")
                else:
                    assert isinstance(heard, int)
                    value = heard
                    said = self.card_words(heard) if call.kind is Kind.NUMBER else self.seat_words(heard)
                if self._confirmed(said):
                    return value
        except KeyPressed:
            return self.KEYPAD

    def _confirmed(self, said: str) -> bool:
        """Reads the answer back; yes (or Enter) confirms, no (or Backspace) asks again."""
        self.say("answer.heard", {"answer": said})
        try:
            reply = self._understood(Allowed((), ("yes", "no", "undo")))
        except KeyPressed:
            key = self.keys.read()
            if key in ("enter", "back"):
                return key == "enter"
            self.keys.unread(key or "")
            raise
        if reply is None:
            raise KeyPressed()  # nobody confirmed aloud: the keypad takes over
        return reply == "yes"


def open_listener(language: str, model_dir: str | None, microphone: str | int | None,
                  warn: Callable[[str], None]) -> tuple[Listener | None, Vocabulary | None]:
    """Opens the microphone with the language's speech model, its vocabulary checked against the model.

    With no model or no microphone, says so once and returns (None, None): the keypad answers.
    A vocabulary answer the model cannot hear in any form is a loud error (UserError).
    """
    from .errors import UserError
    from .listen.devices import pick
    from .listen.models import model_for, no_model_message
    from .listen.understand import (
        Allowed,
        check_vocabulary,
        distractor_phrases,
        load_vocabulary,
    )
    from .listen.vosk_backend import VoskListener

    path = model_for(language, model_dir)
    if path is None:
        warn(no_model_message(language))
        return None, None
    vocabulary = load_vocabulary(language)
    try:
        listener = VoskListener(path, device=pick(microphone, "input"), language=language,
                                distractors=distractor_phrases(vocabulary))
    except UserError as error:
        warn(f"{error}; play goes on with the keypad")
        return None, None
    try:
        check_vocabulary(vocabulary, Allowed.anything(), listener.known)
    except UserError:
        listener.close()
        raise
    return listener, vocabulary
