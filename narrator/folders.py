"""Where the narrator keeps its files: the user's home and the XDG base folders, found one way everywhere.

Journals, speech models, Piper voices and the voice cache all ask here, so that an odd environment gives the
same answer to each: as the XDG Base Directory spec says, an empty or relative XDG_DATA_HOME or XDG_CACHE_HOME
is ignored (a relative one with a warning), and the default under the home folder is used; an empty or relative
HOME (which would put the files under / or under the current folder) gives way to the account's home folder
from the password database, with a warning, or is refused when there is none.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .errors import UserError

_told: set[str] = set()


def _warn_once(name: str, message: str) -> None:
    if name not in _told:
        _told.add(name)
        print(f"warning: {message}", file=sys.stderr, flush=True)


def home() -> Path:
    """Returns the user's home folder: $HOME when it is an absolute path, else the account's own."""
    given = os.environ.get("HOME")
    if given is not None and os.path.isabs(given):
        return Path(given)
    if given is None and sys.platform == "win32":
        return Path(os.path.expanduser("~"))  # USERPROFILE
    try:
        import pwd

        account = pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError, AttributeError):
        account = ""
    if not os.path.isabs(account):
        raise UserError(f"HOME is {'not set' if given is None else repr(given)} and this account has no home "
                        "folder: set HOME (or XDG_DATA_HOME and XDG_CACHE_HOME) to an absolute path")
    if given is not None:
        _warn_once("HOME", f"HOME={given!r} is not an absolute path: ignored, the account's home {account} is used")
    return Path(account)


def settle_home() -> None:
    """Puts the home folder ``home`` finds into $HOME when HOME is set but empty or relative, so that the libraries
    the narrator loads (PulseAudio's client under espeak-ng) find the same folder instead of each printing that
    it has none. Said once, as ``home`` says it; with no home at all nothing changes, and what needs one refuses."""
    given = os.environ.get("HOME")
    if given is None or os.path.isabs(given):
        return
    try:
        os.environ["HOME"] = str(home())
    except UserError:
        pass


def _xdg(name: str, default: tuple[str, ...]) -> Path:
    given = os.environ.get(name, "")
    if os.path.isabs(given):
        return Path(given)
    fallback = home().joinpath(*default)
    if given:
        _warn_once(name, f"{name}={given!r} is not an absolute path: ignored as the XDG spec says, {fallback} "
                         "is used")
    return fallback


def data_home() -> Path:
    """Returns $XDG_DATA_HOME, or ~/.local/share: journals, speech models and Piper voices go under it."""
    return _xdg("XDG_DATA_HOME", (".local", "share"))


def cache_home() -> Path:
    """Returns $XDG_CACHE_HOME, or ~/.cache: the voice cache goes under it."""
    return _xdg("XDG_CACHE_HOME", (".cache",))
