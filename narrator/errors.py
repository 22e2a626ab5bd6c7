"""The one error a user ever sees: a message that says what is wrong and where."""

from __future__ import annotations


class UserError(Exception):
    """Bad input (a config, a script, an answer, a file): the message names the place and what was expected."""


class RunFailed(UserError):
    """A practice run that went otherwise than its script said; ``heading``, which goes before the message, says so
    in the script's language."""

    def __init__(self, message: str, heading: str = "dry run stopped: ") -> None:
        super().__init__(message)
        self.heading = heading


class GameStopped(UserError):
    """The game stopped (Ctrl-C confirmed, the host menu, a shutdown); its journal lets it go on later. ``by_host``:
    the host chose it (not a signal nor a terminal gone), which ends the players' phones' links."""

    def __init__(self, message: str, by_host: bool = False) -> None:
        super().__init__(message)
        self.by_host = by_host
