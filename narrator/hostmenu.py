"""The host's menu on the keypad, and Ctrl-C's question: undo further back, repeat, pause, the village's public
state, end the game, show a seat its card. Opened from any question (asking.KeypadAnswers); what it needs of the
game at the table comes whole at construction (MenuHooks)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

from engine import Call, Phase

from .hint import command
from .keypad import HostStop
from .narration import in_the_dark
from .screen import Screen
from .shapes import HostUndo, Repeat
from .voices import Voice


@dataclass(frozen=True)
class MenuHooks:
    """What the host menu asks of the game at the table (play.TableSession's); the defaults, a game without one
    (the deal's screens, the tests)."""

    last_answered: Callable[[], str | None] = lambda: None
    """The call of the last answer the menu's undo would take back, said in the table's words (None: none)."""
    public_state: Callable[[], str] = lambda: ""
    """The village as everyone knows it (who lives, the Sheriff)."""
    card_again: Callable[[int], bool] = lambda seat: False
    """Shows a seat its card again, the table's eyes closed; False when there is no card to show there."""
    eyes_open: Callable[[], bool] | None = None
    """Whether the table's eyes are open, by the lines it heard (None: by the call asked, made in the dark or not)."""
    phones: bool = False
    """The players' phones are at the table: stopping ends their links, which the host is told before confirming."""


class MenuKeys(Protocol):
    """The keypad as the menu uses it (asking.KeypadAnswers)."""

    screen: Screen
    say: Callable[[str, dict[str, object]], None]
    asking: Call | None

    voice: Voice

    def read_key(self, timeout: float | None = None) -> str | None:
        """Reads a key (a refusal on the screen goes with it)."""

    def text(self, key: str, **values: object) -> str:
        """Returns the line ``key`` in the table's language."""

    def nothing_here(self) -> None:
        """Tells that the key pressed does nothing here."""


class HostMenu:
    """The host menu and the stop's confirmation, on ``keys``'s screen."""

    def __init__(self, keys: MenuKeys, hooks: MenuHooks) -> None:
        self.keys = keys
        self.hooks = hooks

    def eyes_open(self) -> bool:
        """Whether the table's eyes are open: with them closed, nothing the keypad or the menu does is heard, since
        only someone awake could have done it."""
        if self.hooks.eyes_open is not None:
            return self.hooks.eyes_open()
        asking = self.keys.asking
        return asking is None or not in_the_dark(asking)

    def night(self) -> bool:
        """Returns whether the game is in a night (the call last asked is a night's): public, the banner says it."""
        asking = self.keys.asking
        return asking is not None and asking.phase is Phase.NIGHT

    def shown(self) -> tuple[str, str]:
        """The prompt and the entry on the screen now: shown again once the host's menu or question is gone (a
        debate's "Press Enter when done", a read-back waiting for Enter), else the table would not know what to
        type."""
        state = self.keys.screen.state
        return state.prompt, state.entry

    def confirm_stop(self) -> None:
        """Ctrl-C: asks whether to stop; Enter stops (the game can go on later), any other key goes on."""
        screen = self.keys.screen
        prompt, _ = self.shown()
        screen.prompt(self.keys.text(self.keys.voice.worded("menu.stop_confirm", self.hooks.phones)))
        key = self.keys.read_key()
        if key in ("enter", "interrupt"):
            raise HostStop()
        screen.prompt(prompt)

    def open(self) -> None:
        """The menu: its title and keys, then what its entry does; the question under it is shown again after."""
        screen, text = self.keys.screen, self.keys.text
        prompt, entry = self.shown()
        footer = screen.state.keys
        # At night the take-back never applies (takeback: a night's answer is never taken back from the menu), so
        # the menu shows only what can act then; the same at every table's every night, it tells nothing.
        night = self.night()
        screen.prompt(text("menu.title_night" if night else "menu.title"))
        screen.keys(text("screen.keys_menu_night" if night else "screen.keys_menu"))  # not the call's
        try:
            self._entry(prompt, entry, night)
        finally:
            screen.keys(footer)

    def _entry(self, prompt: str, entry: str, night: bool = False) -> None:
        keys, screen, text, hooks = self.keys, self.keys.screen, self.keys.text, self.hooks
        key = keys.read_key()
        if key == "1" and night:
            keys.nothing_here()  # not in the night's menu: the hint, as for any key that does nothing
        elif key == "1":
            last = hooks.last_answered()
            if last is None:
                screen.notice(text("menu.nothing_to_undo"), flash=True)  # stays while the call runs
            elif self._yes("menu.undo_confirm", call=last):
                raise HostUndo()
        elif key == "2":
            raise Repeat()
        elif key == "3":
            heard = self.eyes_open()  # with eyes closed, a pause said aloud would tell that someone is awake
            if heard:
                keys.say("notice.paused", {})
            screen.prompt("")  # the banner says how to go on
            screen.keys(text("screen.keys_paused"))
            screen.paused(text("screen.paused"))
            while keys.read_key() != "enter":
                pass
            screen.paused("")
            if heard:
                keys.say("notice.resumed", {})
        elif key == "4":
            self._until_enter(hooks.public_state())
        elif key == "5" and self._yes(self.keys.voice.worded("menu.end_confirm", self.hooks.phones),
                                      command=command()):
            raise HostStop()
        elif key == "6" and not self.eyes_open():
            # Said aloud, "Everyone close your eyes, seat five come to the screen" in the middle of a call tells
            # that someone is awake at it: a card is shown again with eyes open (the deal, the day).
            self._until_enter(text("menu.card_not_now"))
        elif key == "6":
            seat = self._seat()
            if seat is not None and hooks.card_again(seat):
                raise Repeat()  # the running call again: its screen, its prompt, those awake woken again
            if seat is not None:
                self._until_enter(text("menu.no_card"))
        elif key == "interrupt":
            raise HostStop()
        screen.entry(entry)
        screen.prompt(prompt)

    def _yes(self, prompt_key: str, **values: object) -> bool:
        """Shows a yes/no question of the host's; Enter says yes, Backspace no."""
        self.keys.screen.prompt(self.keys.text(prompt_key, **values))
        while True:
            key = self.keys.read_key()
            if key in ("enter", "back"):
                return key == "enter"
            if key == "interrupt":
                raise HostStop()

    def _until_enter(self, shown: str) -> None:
        """Shows what a menu's entry answers until Enter, under a prompt that says so: under the menu's title, its
        other entries seemed to work, and did nothing."""
        self.keys.screen.entry(shown)
        self.keys.screen.prompt(self.keys.text("menu.back"))
        while self.keys.read_key() != "enter":
            pass

    def _seat(self) -> int | None:
        """Reads the seat the menu shows its card: digits, then Enter; Backspace with nothing typed goes back."""
        screen = self.keys.screen
        typed = ""
        while True:
            screen.prompt(self.keys.text("menu.card_seat"))
            screen.entry(typed)
            key = self.keys.read_key()
            if key == "interrupt":
                raise HostStop()
            if key is not None and key.isdigit() and len(typed) < 2:
                typed += key
            elif key == "back" and typed:
                typed = typed[:-1]
            elif key == "back" or (key == "enter" and not typed):
                return None
            elif key == "enter":
                return int(typed)
