"""The table's devices, opened once for a game and handed to it whole: the keypad, the screen, the loudspeaker,
maybe a microphone with the words it hears, and the night's ambience."""

from __future__ import annotations

import dataclasses
import sys
from typing import Callable, Iterable, Protocol, Sequence

from .asking import AnswerDevice
from .config import TableConfig
from .errors import UserError
from .hearing import ListenerFactory, start_listener
from .keypad import Keys
from .listen import Listener
from .listen.understand import Vocabulary
from .screen import Screen
from .speak import Speaker
from .voices import load_voice


class Ambience(Protocol):
    """The night's ambience (narrator.speak.ambience.NightAmbience): under the lines while the eyes are closed."""

    def start(self) -> None:
        """Fades in: the table has closed its eyes."""

    def stop(self) -> None:
        """Fades out: the table opens its eyes."""

    def duck(self) -> None:
        """Lowers it under a line."""

    def unduck(self) -> None:
        """Raises it again after the line."""

    def close(self) -> None:
        """Stops it for good."""


class QuietSpeaker:
    """Says nothing: for a full screen that shows the lines itself."""

    name = "quiet"
    renders_ahead = False
    not_ready_told = ""

    def say(self, text: str) -> None:
        pass

    def prepare(self, texts: Iterable[str]) -> int:
        return 0

    def close(self) -> None:
        pass


class QuietAmbience:
    """No night ambience: ``ambience: false``, or no loudspeaker to play it on."""

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def duck(self) -> None:
        pass

    def unduck(self) -> None:
        pass

    def close(self) -> None:
        pass


@dataclasses.dataclass(frozen=True)
class TableIO:
    """What a game at the table talks through: keys, screen, speaker, and maybe a microphone (a ``listener``
    and the ``vocabulary`` it hears) and the night's ``ambience``."""

    keys: Keys
    screen: Screen
    speaker: Speaker
    listener: Listener | None = None
    vocabulary: Vocabulary | None = None
    ambience: Ambience | None = None
    devices: tuple[AnswerDevice, ...] = ()
    """Devices the table answers on besides the keypad and the microphone, each asked first for the calls it takes."""
    card_shown: Callable[[int, str], None] = lambda seat, role: None
    """Told each seat's card (its role's id) while the program shows it at the deal: the players' phones (their QR
    codes on the screen beside it, the card on the seat's phone)."""
    cards_known: Callable[[Sequence[str]], None] = lambda roles: None
    """Told every seat's card (their roles' ids, seat by seat) once the players' own cards are identified (deal:
    cards), and after every call as the game has them then (the Thief's as taken): the players' phones, each
    holding its own."""
    phones: bool = False
    """The players' phones are at the table: the host's stop ends their links (journaled)."""
    code_shown: Callable[[int], None] | None = None
    """Shows a seat's QR code on the screen, for its phone to join: at the deal with the players' own cards (deal:
    cards), and when a game going on has new links (the host's stop ended the old ones). None without phones, or
    when the host hands the links out (``--phone-links``)."""


def open_table(config: TableConfig, *, plain: bool, model: str | None, warn: Callable[[str], None],
               listener_factory: ListenerFactory | None = None, warnings: Sequence[str] = ()) -> TableIO:
    """Opens the keypad, the loudspeaker (or the console), the screen, the night ambience if the table wants it
    (and a loudspeaker says the lines: with the console there is none, and no other warning) and, if the table
    wants it, the microphone. ``warnings`` found before (the journal's folder open to others) are told as its own.

    The speech model loads in the background (it takes seconds): the first lines need not wait for it.
    """
    from .keypad import TerminalKeys
    from .screen import PlainScreen, RichScreen
    from .speak import make_speaker, open_ambience, prepare_table

    full_screen = sys.stdout.isatty() and not plain
    told_before: list[str] = []
    opened: list[RichScreen] = []  # the full screen, once open (the keypad is opened first: it owns the signals)
    try:  # a resized terminal draws the full screen again, once there is one
        keys = TerminalKeys(on_resize=lambda: opened[0].redraw() if opened else None)
    except OSError as exc:
        raise UserError(str(exc)) from None

    def told(message: str) -> None:
        """A warning printed before the full screen opens is hidden by it: it is kept for its status line too;
        once it is open, a warning (a line that could not be said) goes to its status line, not across it."""
        if opened:
            opened[0].notice(message)
            return
        told_before.append(message)
        warn(message)

    for message in warnings:
        told(message)

    ambience = open_ambience(config.device, told, config.language) if config.ambience and config.speaker != "console" else None
    speaker = make_speaker(config.speaker, config.language, config.voice, config.rate, config.device, warn=told,
                           sink=ambience.play if ambience is not None else None)
    if ambience is not None and speaker.name == "console":
        ambience.close()  # the lines are printed: no loudspeaker to play it on
        ambience = None
    if speaker.name == "console":
        speaker.close()
        # The screen already shows every line said (the full screen, or --plain's one a line): printing it would tear
        # the full screen, and print each line twice with --plain.
        speaker = QuietSpeaker()
    listener, vocabulary = None, None
    if config.voice_phases():
        try:  # before the lines are rendered ahead: the model loads meanwhile, and while the first are said
            listener, vocabulary = start_listener(config.language, model or config.model, config.microphone, told,
                                                  listener_factory)
        except UserError:
            keys.close()
            speaker.close()
            if ambience is not None:
                ambience.close()
            raise
    # While the deal goes on, every line of this table is rendered ahead: no call waits for its voice.
    prepare_table(speaker, config.language, config.table.seats, config.names, config.table.deck,
                  config.source, config.table, config.deal, config.phones)
    screen: Screen = PlainScreen()
    if full_screen:
        rich = RichScreen(load_voice(config.language).text("screen.title"))
        rich.notice(" · ".join(told_before))
        opened.append(rich)
        screen = rich
    return TableIO(keys, screen, speaker, listener, vocabulary, ambience)
