"""The one error a user ever sees: a message that says what is wrong and where."""

from __future__ import annotations


class UserError(Exception):
    """Bad input (a config, a script, an answer, a file): the message names the place and what was expected."""


class RunFailed(UserError):
    """A practice run that went otherwise than its script said."""


class GameStopped(UserError):
    """The host stopped the game (Ctrl-C confirmed, or the host menu); its journal lets it go on later."""
