"""The game's journal on disk: a header (what the game is), the deal as it goes, then one line per answer.

Each line is written and flushed to the disk (fsync) before the narrator says
anything more, so a crash, a pulled plug or Ctrl-C loses nothing confirmed. A
last line torn by a crash (no newline, or not whole JSON) is ignored on reading
and cut before writing, by one rule on the bytes (``whole_lines``): the game
resumes from the last whole line. One JSON object a line, in UTF-8, ending in a
newline (a carriage return before it, as a Windows editor saves, is ignored):

- The header: ``{"werewolf-narrator": 1, "kind": "play" or "dry-run", ...}``. A game at the table ("play") has
  its "config" (the table config as a file gives it, every key written: narrator.config.table_mapping), its
  "source" (the file's name), "seed" and "buildings", then either its whole "deal" (the cards seat by seat) and
  "centre" (the deal was over when the journal began, as in every journal written before the deal was journaled),
  or ``"dealing": true``: the journal began before the first card was shown, and the deal follows line by line:

  - ``{"seen": 5}`` (deal: app): seat 5 has seen its card and hidden it again. The cards are the header's
    "deal" and "centre", drawn from the seed before the first card was shown.
  - ``{"identified": "werewolf", "seats": [3, 7]}`` (deal: cards): a character has typed its seats (``[]`` when
    its cards lie in the centre); the Thief's line also has "centre", the two centre cards he typed.
  - ``{"again": 1}`` (deal: cards): the seats typed did not fit the deck; the lines since the last "again" (or the
    header) are void, the characters identify themselves again.
  - ``{"deal": [...], "centre": [...]}``: the deal is over; its cards, seat by seat, and the centre's.

- Then the answers: ``{"call": "seer", "phase": "night", "number": 1, "needs": true, "answer": 4}``, and
  ``{"undo": 1}`` when the host took back the last one.
- ``{"pace": "seer", "took": 12.5}``: a call made with eyes closed and answered by someone lasted 12.5 s
  (narrator.pacing's sample), so that a game resumed paces its empty calls as before; anywhere after the header, the
  deal's lines too.
- ``{"stopped": "host"}``: the host stopped the game (Ctrl-C confirmed, the host menu) at a table with the players'
  phones, which ends their links: the header's "phones" keep their address and port, not their "tokens".
- ``{"phones": {"bind": ..., "port": ..., "tokens": {...}}}``: the phones' new links, when the game went on after
  the host's stop, once the seats scanned them; they replace the header's "phones". Both anywhere after the
  header, the deal's lines too.
- Last, once the game is over: ``{"over": "village"}`` (the winner), so that `resume` lists only unfinished games.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import secrets
import shlex
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Callable

from .errors import UserError
from .hint import resume_hint

if TYPE_CHECKING:  # the supervisor names a game's journal without loading the engine
    from engine import Answer, Call, Deal

VERSION = 1
PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700
MAX_BYTES = 16 << 20
"""The largest journal read: a whole game's is tens of KB (a 20-player game with its config: under 100 KB); a file
larger is no journal of ours, and reading it whole (a torn "last line" of gigabytes) would exhaust a Pi's memory."""
MAX_DEPTH = 16
"""How deep lists and objects may nest in a journal line: the deepest written, a table's config, nests 3 deep."""


def default_folder() -> Path:
    """Returns the folder where games are journaled (XDG data home)."""
    from .folders import data_home

    return data_home() / "werewolf-narrator" / "games"


def journal_name() -> str:
    """Returns the file name of a new game's journal: the date and time it began, and a random token of its own.
    Never the seed: the seed deals every card, and the name shows (the hints to go on, `resume`'s list, `ps`)."""
    return f"game-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(4)}.jsonl"


@dataclass(frozen=True)
class Entry:
    """One journaled answer: the call it answered, whether it needed an answer, and the answer."""

    call: str
    phase: str
    number: int
    needs: bool
    answer: Answer
    line: int


class Journal:
    """An append-only file of JSON lines, each on the disk before the next line of the game is said.

    The journal holds every player's card: it is created 0600 in a folder of 0700, whatever the umask, never
    through a symbolic link, and locked (flock) while it is open, so that a second writer — the same game
    resumed twice at once — is refused instead of interleaving its lines with the first's.
    """

    def __init__(self, path: Path, header: dict[str, Any] | None = None,
                 fsync: Callable[[int], None] = os.fsync) -> None:
        """Starts a new journal with ``header``; with no header, opens an existing one to go on writing."""
        self.path = path
        self.fsync = fsync
        self.fd: int | None = None
        made = _private_folder(path.parent)
        self.fd = _open_private(path, new=header is not None)
        try:
            if header is not None:
                try:
                    self._append({"werewolf-narrator": VERSION, **header})
                except OSError as exc:
                    # Nothing was played: the file is ours (O_EXCL) and holds no whole line; left, `resume` would
                    # only say it is empty, and the command printed would not go on with anything.
                    self.close()
                    path.unlink(missing_ok=True)
                    raise UserError(f"{path}: the game's journal could not be begun ({exc.strerror or exc}): nothing "
                                    "was played; free some space there (or give another folder) and start again") \
                        from None
                _sync_folder(path.parent)  # the new journal's name on the disk, and each new folder's
                for folder in made:
                    _sync_folder(folder.parent)
            else:
                self._cut_torn_end()
        except BaseException:
            self.close()
            raise

    def _cut_torn_end(self) -> None:
        """Drops a last line left unfinished by a crash (read_journal ignores it by the same rule, whole_lines),
        so that new answers start on a line of their own."""
        assert self.fd is not None
        chunks = []
        os.lseek(self.fd, 0, os.SEEK_SET)
        while chunk := os.read(self.fd, 1 << 16):
            chunks.append(chunk)
        raw = b"".join(chunks)
        kept = sum(len(line) + 1 for line in whole_lines(raw))
        if kept < len(raw):
            try:
                os.ftruncate(self.fd, kept)
                self.fsync(self.fd)
            except OSError as exc:
                raise UserError(f"{self.path}: cannot cut the journal's torn last line ({exc.strerror or exc})") \
                    from None

    def _append(self, entry: dict[str, Any]) -> None:
        """Appends ``entry`` as a line and puts it on the disk; an OSError (a full disk) is the caller's to say."""
        assert self.fd is not None
        data = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
        while data:  # appended (O_APPEND): a write cut short by a full disk goes on where it stopped
            data = data[os.write(self.fd, data):]
        self.fsync(self.fd)

    def _write(self, entry: dict[str, Any]) -> None:
        try:
            self._append(entry)
        except OSError as exc:
            raise UserError(f"{self.path}: the journal could not be written ({exc.strerror or exc}): the game "
                            f"stops here; every answer before this one is saved; to go on:\n  "
                            f"{resume_hint(self.path)}") from None

    def record(self, call: Call, value: Answer) -> None:
        """Appends a confirmed answer; returns once it is on the disk."""
        self._write({"call": call.id, "phase": call.phase.value, "number": call.number,
                     "needs": call.needs_answer, "answer": value if call.needs_answer else None})

    def record_deal(self, step: dict[str, Any]) -> None:
        """Appends a step of the deal (a card seen, a character identified, "again"); returns once it is on the disk."""
        self._write(step)

    def record_dealt(self, deal: Deal) -> None:
        """Appends the end of the deal: its cards, seat by seat, and the centre's."""
        self._write({"deal": list(deal.roles), "centre": list(deal.centre)})

    def record_pace(self, key: str, took: float) -> None:
        """Appends how long a living call ``key`` made with eyes closed lasted (narrator.pacing's sample)."""
        self._write({"pace": key, "took": round(took, 3)})

    def record_over(self, winner: str) -> None:
        """Appends the end of the game: its winner."""
        self._write({"over": winner})

    def record_stopped(self) -> None:
        """Appends the host's stop, which ends the players' phones' links (`read_journal`)."""
        self._write({"stopped": "host"})

    def record_phones(self, phones: dict[str, Any]) -> None:
        """Appends the players' phones' new links (their address, port and tokens), which replace the header's."""
        self._write({"phones": phones})

    def record_undo(self) -> None:
        """Appends the host's undo of the last answer."""
        self._write({"undo": 1})

    def close(self) -> None:
        """Closes the file, which lets another writer have it."""
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)


def _private_folder(folder: Path) -> list[Path]:
    """Makes the journal's folder and those above it that are missing (0700), and returns the folders it made; an
    existing default folder (ours) with looser permissions is made private too. A folder the user chose is theirs:
    open_to_others warns about it."""
    made = []
    for missing in reversed([folder, *folder.parents]):
        if missing.is_dir():
            continue
        try:
            missing.mkdir()
        except FileExistsError:
            if not missing.is_dir():  # is_dir() is False for a file in the way, and for a link to nowhere
                raise UserError(f"{missing}: not a folder: cannot write the game's journal in it") from None
            continue
        except OSError as exc:
            raise UserError(f"{missing}: cannot write the game's journal: its folder cannot be made "
                            f"({exc.strerror or exc})") from None
        made.append(missing)
    private = list(made)
    if folder not in made and _is_default(folder):
        private.append(folder)  # ours, made before journals were private
    try:
        for made_private in private:
            made_private.chmod(PRIVATE_FOLDER)  # not left to the umask: 0700 whatever it is (as XDG asks)
    except OSError as exc:
        raise UserError(f"{folder}: cannot make the journal's folder private ({exc.strerror or exc})") from None
    return made


def _is_default(folder: Path) -> bool:
    try:
        return folder.resolve() == default_folder().resolve()
    except (OSError, UserError, RuntimeError):  # no home to compare with: not the default folder
        return False


def open_to_others(folder: Path) -> str | None:
    """Returns a warning when journals would go in a folder the host chose (--journal-dir) that other accounts
    can read or enter: each journal is private (0600), but their names (the dates games began) show. The default
    folder, ours, is made private instead (``Journal``); a folder yet to be made is made private."""
    try:
        mode = folder.stat().st_mode
    except OSError:
        return None
    if not mode & 0o077 or _is_default(folder):
        return None
    return (f"{folder}: this folder is open to other accounts (mode {stat.S_IMODE(mode):o}); the journals in it "
            f"are private, but to keep even their names private: chmod 700 {shlex.quote(str(folder))}")


def _open_private(path: Path, new: bool) -> int:
    """Opens the journal to append (a new one: created 0600), never through a symbolic link, and locks it."""
    flags = os.O_RDWR | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC | (os.O_CREAT | os.O_EXCL if new else 0)
    if path.is_symlink():
        raise UserError(f"{path}: a symbolic link; a journal is never written through one (it could point at any "
                        "file of yours): give the file it points to") from None
    try:
        fd = os.open(path, flags, PRIVATE_FILE)
    except FileExistsError:
        raise UserError(f"{path}: a journal is already there; give another file") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # made a link after the look above
            raise UserError(f"{path}: a symbolic link; a journal is never written through one") from None
        raise UserError(f"{path}: cannot write the game's journal ({exc.strerror or exc})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UserError(f"{path}: not a regular file; a journal is a file of its own")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UserError(f"{path}: this game is open in another werewolf-narrator right now (its journal is "
                            "locked); a game has one narrator at a time: stop the other one first") from None
        except OSError:
            pass  # a file system without locks (some network ones): the game goes on, one writer at a time as before
        if stat.S_IMODE(os.fstat(fd).st_mode) != PRIVATE_FILE:
            try:
                os.fchmod(fd, PRIVATE_FILE)  # a new one whatever the umask; an older journal made private too
            except PermissionError:
                pass  # another account's file, which it opened for us: its permissions are its owner's
    except BaseException:
        os.close(fd)
        raise
    return fd


def _sync_folder(folder: Path) -> None:
    """Puts a folder's list of names on the disk (fsync): a file just created in it survives a pulled plug."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return  # a folder that cannot be opened for reading (mode 0300): its names are synced with the disk later
    try:
        os.fsync(fd)
    except OSError:
        pass  # a file system without fsync for folders; the journal itself is synced
    finally:
        os.close(fd)


def parse_line(line: bytes) -> Any:
    """Reads one line of a journal (without its newline); raises ValueError, saying why, when it is not a
    JSON value in UTF-8. A carriage return before the newline (a Windows editor's CRLF) and a byte order mark
    are ignored."""
    line = line.removeprefix(b"\xef\xbb\xbf").removesuffix(b"\r")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
    except ValueError:  # not JSON (JSONDecodeError), or a number too long to read
        raise ValueError("not JSON") from None
    if _depth(data) > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} deep")
    return data


def _depth(data: Any) -> int:
    """How deep lists and objects nest in ``data`` (counted without recursion)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                stack.extend((inner, depth + 1) for inner in (item.values() if isinstance(item, dict) else item))
    return deepest


def whole_lines(raw: bytes) -> list[bytes]:
    """The lines of a journal that count (without their newlines), by the one rule the reader and the writer
    share: what follows the last newline was torn by a crash; so was a last line, the header's excepted, that
    parse_line refuses (its bytes were written, not all of them were on the disk)."""
    lines = raw.split(b"\n")
    lines.pop()  # after the last newline: nothing, or a torn line
    if len(lines) > 1:
        try:
            parse_line(lines[-1])
        except ValueError:
            lines.pop()
    return lines


def open_regular(path: str) -> BinaryIO:
    """Opens a file to read, never waiting on a FIFO or a device at its path; raises OSError for what is not a
    regular file."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file")
    return open(fd, "rb")


def in_use(path: str | os.PathLike[str]) -> bool:
    """True when another narrator has the journal open to write (its lock is held): the game is being played now."""
    try:
        with open_regular(str(path)) as file:
            fcntl.flock(file.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False  # gone, unreadable, or a file system without locks: nothing says it is open
    return False  # the shared lock goes with the file, closed


def read_journal(path: str) -> tuple[dict[str, Any], list[Entry]]:
    """Reads a journal: its header and its answers (undos applied); a torn last line is ignored.

    The header comes back with the deal's last line merged in ("deal" and "centre"); while the deal is not
    over, with "progress" too: its lines so far ("seen", "identified", "again"), in order; once the game is over,
    with "over", its winner; with "pace", the calls' samples ({"seer": [12.5, ...]}), when there are any; with
    "phones" as the last "stopped" and "phones" lines leave them.
    """
    try:
        with open_regular(path) as file:
            raw = file.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise UserError(f"{path}: no such journal") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read the journal ({exc.strerror or exc})") from None
    except ValueError as exc:  # a NUL in the path
        raise UserError(f"{path}: cannot read the journal ({exc})") from None
    if len(raw) > MAX_BYTES:
        raise UserError(f"{path}: larger than {MAX_BYTES >> 20} MB: not a werewolf-narrator journal (a whole game's "
                        "holds some tens of KB)")
    lines = whole_lines(raw)
    if not lines:
        raise UserError(f"{path}: an empty journal: the game had not started")
    try:
        header = parse_line(lines[0])
    except ValueError as exc:
        raise UserError(f"{path}:1: not a werewolf-narrator journal ({exc})") from None
    if not isinstance(header, dict) or header.get("werewolf-narrator") != VERSION:
        raise UserError(f"{path}:1: not a werewolf-narrator journal (version {VERSION})")
    header.pop("over", None)  # only the game's last line says it is over
    header.pop("pace", None)  # the samples are read from their lines
    pace: dict[str, list[float]] = {}
    entries: list[Entry] = []
    progress: list[dict[str, Any]] | None = [] if header.get("dealing") is True else None
    for number, line in enumerate(lines[1:], start=2):
        where = f"{path}:{number}"
        try:
            data = parse_line(line)
        except ValueError as exc:
            raise UserError(f"{where}: damaged journal line ({exc}); {_go_on_before(path, number)}") from None
        if _pace_sample(data):
            pace.setdefault(data["pace"], []).append(float(data["took"]))
            continue
        if isinstance(data, dict) and data.keys() == {"stopped"} and data["stopped"] == "host":
            if isinstance(header.get("phones"), dict):  # their links ended: a game going on gives new ones
                header["phones"] = {key: value for key, value in header["phones"].items() if key != "tokens"}
            continue
        if isinstance(data, dict) and data.keys() == {"phones"} and isinstance(data["phones"], dict):
            header["phones"] = data["phones"]
            continue
        if progress is not None:
            if not _deal_step(data):
                raise UserError(f"{where}: damaged journal line (expected a step of the deal); "
                                f"{_go_on_before(path, number)}")
            if "deal" in data:
                header.update(deal=data["deal"], centre=data["centre"])
                progress = None
            else:
                progress.append(data)
            continue
        if isinstance(data, dict) and data.get("undo"):
            _undo(entries)
            continue
        if isinstance(data, dict) and isinstance(data.get("over"), str):
            header["over"] = data["over"]
            continue
        if (not isinstance(data, dict) or not isinstance(data.get("call"), str)
                or not isinstance(data.get("needs"), bool) or not isinstance(data.get("number"), int)):
            raise UserError(f"{where}: damaged journal line (expected a call and its answer); "
                            f"{_go_on_before(path, number)}")
        entries.append(Entry(data["call"], str(data.get("phase")), data["number"], data["needs"],
                             data.get("answer"), number))
    header.pop("progress", None)  # where the deal stands is read from its lines, never taken from the header
    if progress is not None:
        header["progress"] = progress
    if pace:
        header["pace"] = pace
    return header, entries


def _pace_sample(data: object) -> bool:
    """Returns whether a line is a call's length (narrator.pacing's sample): a call's key and a length in seconds."""
    return (isinstance(data, dict) and isinstance(data.get("pace"), str) and type(data.get("took")) in (int, float)
            and 0 <= data["took"] < 1e9)


def _go_on_before(path: str, number: int) -> str:
    """Says exactly how to go on from the lines before a damaged one, the journal kept as it is."""
    whole = Path(path)
    before = str(whole.with_name(f"{whole.stem}-to-line-{number - 1}{whole.suffix or '.jsonl'}"))
    return (f"the game can go on from the {number - 1} lines before it, in a copy (this file kept as it is): "
            f"head -n {number - 1} {shlex.quote(path)} > {shlex.quote(before)} && "
            f"werewolf-narrator resume {shlex.quote(before)}")


def _deal_step(data: object) -> bool:
    """Returns whether a line is one of the deal's: a card seen, a character identified, "again", the deal."""
    if not isinstance(data, dict):
        return False
    if "seen" in data:
        return type(data["seen"]) is int
    if "identified" in data:
        return isinstance(data["identified"], str) and isinstance(data.get("seats"), list)
    if "deal" in data:
        return isinstance(data["deal"], list) and isinstance(data.get("centre"), list)
    return data.get("again") == 1


def _undo(entries: list[Entry]) -> None:
    """Takes back the last answer, and the confirmations after it, as Game.undo does (one rule for both)."""
    from engine import kept_after_undo  # here: reading a journal without an undo needs no engine

    keep = kept_after_undo([entry.needs for entry in entries])
    if keep is not None:
        del entries[keep:]


def table_language(journal: str | os.PathLike[str]) -> str:
    """Returns the language of the table whose game ``journal`` keeps (its header's config); English when there is
    no header yet to say (nothing was saved: no table's language is known) or it cannot be read."""
    try:
        with open_regular(str(journal)) as file:
            header = parse_line(file.readline().removesuffix(b"\n"))
        language = header["config"]["language"]
    except (OSError, ValueError, KeyError, TypeError):
        return "en"
    # A name, never a path: the header is a file anyone may have edited.
    return language if isinstance(language, str) and language.isalnum() and language.isascii() else "en"
