"""Spoken answers at the table: heard through a closed grammar, read back, confirmed by voice or key.

Voice and keypad are live together: while the narrator listens, any key pressed
takes over and the keypad answers. Silence (or words that fit no answer) asks
again once; a second silence leaves the answer to the keypad. At night only the call is said aloud: the
read-back and the narrator's other words are on the screen, for those awake.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Sequence

from engine import Answer, Call

from .asking import KEYPAD, QuietDevice
from .errors import UserError
from .keypad import Keys
from .listen import Listener, ModelListener
from .listen.errors import MicrophoneLost
from .listen.understand import Allowed, Vocabulary, phrases, understand
from .narration import CALLS, eyes_closed, in_the_dark
from .shapes import SHAPES

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

    def meanwhile(self, seconds: float) -> str | None:
        if self.pending:
            return self.pending.pop(0)
        return self.keys.meanwhile(seconds)

    def drain(self) -> None:
        self.pending.clear()
        self.keys.drain()

    def close(self) -> None:
        self.keys.close()


class KeyPressed(Exception):
    """A key was pressed while listening: the keypad takes over."""


class SpokenAnswers(QuietDevice):
    """The microphone as one of the table's answer devices (asking.AnswerDevice): asked in the phases the table
    config gives voice to, never for a call made with eyes closed (a voice would say who is awake). Once the
    microphone is lost, or its model failed (``drop``), it takes no call: the keypad answers the rest of the game."""

    def __init__(self, voice: VoiceAnswers, phases: frozenset[str], on_lost: Callable[[], None] = lambda: None) -> None:
        self.voice: VoiceAnswers | None = voice
        self.phases = phases
        self.on_lost = on_lost

    def takes(self, call: Call) -> bool:
        return self.voice is not None and call.phase.value in self.phases and not eyes_closed(call)


    def answer(self, call: Call, legal: Callable[[Answer], bool]) -> Answer | object:
        assert self.voice is not None
        try:
            return self.voice.answer(call, legal)
        except MicrophoneLost:
            self.drop()
            self.on_lost()
            return KEYPAD

    def drop(self) -> None:
        """Leaves the rest of the game to the keypad."""
        self.voice = None


class VoiceAnswers:
    """Hears one answer to a call, or says to fall back to the keypad (by returning ``KEYPAD``)."""

    KEYPAD = KEYPAD

    def __init__(self, listener: Listener, vocabulary: Vocabulary, keys: PushbackKeys,
                 say: Callable[[str, dict[str, object]], None], repeat: Callable[[], None],
                 seat_words: Callable[[int], str], word: Callable[[str], str], timeout: float = 8.0,
                 card_words: Callable[[int], str] = str,
                 show: Callable[[str, dict[str, object]], None] = lambda key, values: None,
                 show_awake: Callable[[str, dict[str, object]], None] = lambda key, values: None) -> None:
        self.listener = listener
        self.show = show  # a line on the screen only: "the speech model is still loading"
        self.show_awake = show_awake  # what would be said by day, at night: on the screen, for those awake
        self.dark = False  # the running call is made with everyone's eyes closed
        self._told_loading = False
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
        spoken = SHAPES[call.kind].spoken  # how the call's shape is answered aloud (narrator/shapes)
        if spoken is None or not call.live or CALLS[call.id].traits.announces:
            return None  # an announcement (dawn) asks nothing: the keypad goes on at once, so must the voice
        seats, words = spoken.heard(call, max(self.vocabulary.numbers))
        return Allowed(seats, words)

    def _hear(self, allowed: Allowed) -> str | None:
        """Listens once, while watching the keypad; raises KeyPressed if a key comes first."""
        if self._busy is not None:
            self._busy.join()  # a listen abandoned for the keypad must end before the next one
        while self.listener.loading():
            # The model still loads (BackgroundListener): wait for it here, where a key ends the wait,
            # rather than in a listen that would be left behind for the next one to join.
            key = self.keys.read(timeout=0.05)
            if key is not None:
                self.keys.unread(key)
                raise KeyPressed()
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
                self._tell("voice.again", {})
        return None

    def _tell(self, key: str, values: dict[str, object]) -> None:
        """Says a line by day; at night shows it to those awake only."""
        (self.show_awake if self.dark else self.say)(key, values)

    def answer(self, call: Call, legal: Callable[[Answer], bool] = lambda value: True) -> Answer | object:
        """Returns the answer heard and confirmed, or KEYPAD when the keypad is to answer. An answer that is
        not ``legal`` is returned unread, for the engine to refuse (nothing refused is ever read back)."""
        self.dark = in_the_dark(call)
        allowed = self.allowed(call)
        spoken = SHAPES[call.kind].spoken  # what the words heard answer, and how it is read back (narrator/shapes)
        if allowed is None or spoken is None:
            return self.KEYPAD
        if not self._told_loading and self.listener.loading():
            # Listening waits for the model; the keypad answers meanwhile. Said once, on the screen only.
            self._told_loading = True
            self.show("voice.loading", {})
        try:
            while True:
                heard = self._understood(allowed)
                if heard is None:
                    self._tell("voice.keypad", {})
                    return self.KEYPAD
                if heard == "undo":
                    continue
                value, said = spoken.understood(self, heard)
                if said is None:
                    return value  # taken as said ("done"): nothing to confirm
                if not legal(value):
                    return value
                if self._confirmed(said):
                    return value
        except KeyPressed:
            return self.KEYPAD

    def _confirmed(self, said: str) -> bool:
        """Reads the answer back; yes (or Enter) confirms, no (or Backspace) asks again."""
        self._tell("answer.heard", {"answer": said})
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


class SpeechModelFailed(MicrophoneLost):
    """The speech model could not be loaded, or its vocabulary check failed, in the background.

    ``fatal`` is the vocabulary check's failure: the game stops loudly, as it did when the check ran
    before the first line. Otherwise the keypad answers, with the warning that says why.
    """

    def __init__(self, message: str, fatal: bool) -> None:
        super().__init__(message)
        self.fatal = fatal


class VocabularyUnheard(UserError):
    """An answer of the vocabulary that the speech model cannot hear in any form: a loud error."""


class BackgroundListener:
    """A listener whose speech model loads in a background thread, so that the first lines come at once.

    ``load`` opens the real listener (the model first, then the stream: no sound piles up while a slow model
    loads) and checks the vocabulary; it runs once, in a daemon thread. Until it ends, mute() and unmute() are noted and
    listen() waits for it (a mute() ends that wait, as it ends a question). Its failure is kept, never
    raised in the thread: listen() raises it as SpeechModelFailed, and ``failure`` tells it at any safe
    point. close() never waits for the load: a listener that arrives after it is closed at once.
    """

    name = "vosk"

    def __init__(self, load: Callable[[], Listener]) -> None:
        self._cond = threading.Condition()
        self._listener: Listener | None = None
        self._failure: SpeechModelFailed | None = None
        self._done = False
        self._closed = False
        self._mutes = 0
        self._muted = False
        self._hear_from = 0.0
        self._fresh = True  # the loaded listener has not been unmuted yet
        self._thread = threading.Thread(target=self._load, args=(load,), name="speech-model", daemon=True)
        self._thread.start()

    def _load(self, load: Callable[[], Listener]) -> None:
        listener: Listener | None = None
        failure: SpeechModelFailed | None = None
        try:
            listener = load()
            listener.mute()  # heard only once the narrator unmutes it: it may have started mid-line
        except VocabularyUnheard as error:
            failure = SpeechModelFailed(str(error), fatal=True)
        except UserError as error:
            failure = SpeechModelFailed(f"{error}; play goes on with the keypad", fatal=False)
        except Exception as error:  # never a traceback from a thread: the table hears of it at a safe point
            failure = SpeechModelFailed(f"the speech model could not be loaded ({type(error).__name__}: {error}); "
                                        "play goes on with the keypad", fatal=False)
        with self._cond:
            closed = self._closed
            if not closed:
                self._listener, self._failure = listener, failure
            self._done = True
            self._cond.notify_all()
        if closed and listener is not None:
            listener.close()  # the game ended while the model loaded

    def loading(self) -> bool:
        """Returns whether the model is still loading."""
        with self._cond:
            return not self._done

    def wait(self, timeout: float | None = None) -> bool:
        """Waits for the load to end (at most ``timeout`` seconds); returns whether it has."""
        with self._cond:
            return self._cond.wait_for(lambda: self._done, timeout)

    @property
    def failure(self) -> SpeechModelFailed | None:
        """Why the model could not serve, once the load has ended; None while it loads or when it is ready."""
        with self._cond:
            return self._failure

    def listen(self, phrases: Sequence[str], timeout: float) -> str | None:
        """Waits for the model (a mute() or close() ends the wait: None), then listens as the real listener."""
        with self._cond:
            mutes = self._mutes
            self._cond.wait_for(lambda: self._done or self._closed or self._mutes != mutes)
            if self._failure is not None:
                raise self._failure
            listener = self._listener
            if listener is None or self._closed or self._mutes != mutes:
                return None
            if self._fresh and not self._muted:
                # Unmuted while it loaded: it still waits for the echo of the last line to die down.
                self._fresh = False
                listener.unmute(max(0.0, self._hear_from - time.monotonic()))
        return listener.listen(phrases, timeout)

    def mute(self) -> None:
        with self._cond:
            self._mutes += 1
            self._muted = True
            listener = self._listener
            self._cond.notify_all()
        if listener is not None:
            listener.mute()

    def unmute(self, after: float = 0.4) -> None:
        with self._cond:
            self._muted = False
            self._hear_from = time.monotonic() + after
            listener = self._listener
            self._fresh = self._fresh and listener is None
        if listener is not None:
            listener.unmute(after)

    def close(self) -> None:
        """Closes the loaded listener; a load still under way is not waited for (its daemon thread closes
        what it loads)."""
        with self._cond:
            self._closed = True
            listener, self._listener = self._listener, None
            self._cond.notify_all()
        if listener is not None:
            listener.close()


ListenerFactory = Callable[..., ModelListener]
"""Makes a listener: (model folder, device=, language=, distractors=) like VoskListener."""


def _no_model(language: str) -> str:
    """Says there is no speech model and how to fetch one, in the table's language: it stays in the screen's status
    line through the game (narrator.listen.models' English message for a language with no voice file)."""
    from .hint import command
    from .listen.models import MODELS, no_model_message
    from .voices import languages, load_voice

    if language not in languages() or not any(model.language == language for model in MODELS):
        return no_model_message(language)
    return load_voice(language).text("screen.no_model", {"command": f"{command()} models fetch {language}"})


def start_listener(language: str, model_dir: str | None, microphone: str | int | None,
                   warn: Callable[[str], None],
                   factory: ListenerFactory | None = None) -> tuple[BackgroundListener | None, Vocabulary | None]:
    """Starts loading the language's speech model in the background; returns its listener and vocabulary.

    What is quick is checked at once: with no model, says so and returns (None, None); a malformed
    vocabulary is a UserError. The model, the microphone and the vocabulary check against the model
    take seconds: they run in the background (BackgroundListener), and their failure reaches the table
    at the next safe point.
    """
    from .listen.devices import pick
    from .listen.models import model_for
    from .listen.understand import check_vocabulary, distractor_phrases, load_vocabulary

    path = model_for(language, model_dir)
    if path is None:
        warn(_no_model(language))
        return None, None
    vocabulary = load_vocabulary(language)

    def load() -> Listener:
        make: ListenerFactory
        if factory is None:
            from .listen.vosk_backend import VoskListener
            make = VoskListener
        else:
            make = factory
        listener = make(path, device=pick(microphone, "input"), language=language,
                        distractors=distractor_phrases(vocabulary))
        try:
            check_vocabulary(vocabulary, Allowed.anything(), listener.known)
        except UserError as error:
            listener.close()
            raise VocabularyUnheard(str(error)) from None
        return listener

    return BackgroundListener(load), vocabulary


def open_listener(language: str, model_dir: str | None, microphone: str | int | None,
                  warn: Callable[[str], None]) -> tuple[Listener | None, Vocabulary | None]:
    """Opens the microphone with the language's speech model, its vocabulary checked against the model,
    and waits for it (start_listener does not wait).

    With no model or no microphone, says so once and returns (None, None): the keypad answers.
    A vocabulary answer the model cannot hear in any form is a loud error (UserError).
    """
    listener, vocabulary = start_listener(language, model_dir, microphone, warn)
    if listener is None:
        return None, None
    listener.wait()
    failure = listener.failure
    if failure is None:
        return listener, vocabulary
    listener.close()
    if failure.fatal:
        raise UserError(str(failure))
    warn(str(failure))
    return None, None
