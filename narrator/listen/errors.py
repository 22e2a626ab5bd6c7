"""What can go wrong with listening, as the play loop needs to tell it apart."""

from __future__ import annotations

from ..errors import UserError


class MicrophoneLost(UserError):
    """The microphone stopped mid-game: the keypad answers from now on."""
