"""Downloads of pinned files (speech models, Piper voices): resumable, size-limited, https only, checked.

A download goes to a ``.part`` file beside where it will be installed, continues from there when
run again (HTTP Range), never writes more than the size it was told to expect (a server that
streams forever is stopped there and the part removed), follows redirects only to https on the
hosts it was given (and only within the same host otherwise), and is checked against its SHA-256
before anything uses it. A server that stalls (or drips) is given up on, the part kept to resume from.
A full disk removes the part and says so. One fetch at a time per target: ``fetch_lock`` holds a lock
file beside the part. Every failure is a UserError.
"""

from __future__ import annotations

import errno
import hashlib
import http.client
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Any, BinaryIO, Iterator

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from .errors import UserError

CHUNK = 64 * 1024
TIMEOUT = 30.0  # seconds: a download that brings less than SLOWEST bytes a second over that long is stalled
# A server that drips a byte now and then never lets a read time out; at 1 KB/s a 41 MB model would take 11 hours.
SLOWEST = 1024
# Plain http is only for a mirror on this very machine (a test's server, a local copy): nothing crosses a network.
LOOPBACK = ("127.0.0.1", "::1", "localhost")


class RedirectRefused(urllib.error.URLError):
    """A redirect to a host or a scheme the download may not follow."""


def check_url(url: str) -> None:
    """Refuses a URL that is not https (plain http only to this machine), saying why.

    >>> check_url("ftp://example.org/voice.onnx")
    Traceback (most recent call last):
    ...
    narrator.errors.UserError: ftp://example.org/voice.onnx: only https addresses are downloaded from \
(http only from this machine, 127.0.0.1 or localhost)
    """
    if not url.isascii() or not url.isprintable() or " " in url:
        raise UserError(f"{url!r}: not an address that can be downloaded from (it holds spaces, control characters "
                        "or letters beyond ASCII: %-encode them, and write the host name in punycode)")
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port  # one out of range, or not a number, is found here rather than deep in urllib
    except ValueError as exc:
        raise UserError(f"{url}: not an address that can be downloaded from ({exc})") from None
    if port == 0:
        raise UserError(f"{url}: not an address that can be downloaded from (port 0)")
    if parts.scheme == "https" and parts.hostname:
        return
    if parts.scheme == "http" and parts.hostname in LOOPBACK:
        return
    raise UserError(f"{url}: only https addresses are downloaded from (http only from this machine, 127.0.0.1 or "
                    "localhost)")


def redirect_allowed(current: str, target: str, hosts: frozenset[str]) -> bool:
    """Tells whether a download at ``current`` may follow a redirect to ``target``.

    Allowed: the same scheme, host and port (a move within the server), or https on one of ``hosts``
    (the repository's own hosts, e.g. its download network). Never a downgrade to http, never ftp or
    file, never another host.

    >>> hf = frozenset({"huggingface.co", "cas-bridge.xethub.hf.co"})
    >>> redirect_allowed("https://huggingface.co/a", "https://cas-bridge.xethub.hf.co/b", hf)
    True
    >>> redirect_allowed("https://huggingface.co/a", "http://cas-bridge.xethub.hf.co/b", hf)
    False
    >>> redirect_allowed("https://huggingface.co/a", "https://evil.example/b", hf)
    False
    """
    here, there = urllib.parse.urlsplit(current), urllib.parse.urlsplit(target)
    if (there.scheme, there.hostname, there.port) == (here.scheme, here.hostname, here.port):
        return there.scheme in ("http", "https")
    return there.scheme == "https" and (there.hostname or "") in hosts


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only where redirect_allowed says, keeping the Range header of a resumed download."""

    def __init__(self, hosts: frozenset[str]) -> None:
        super().__init__()
        self.hosts = hosts

    def http_error_302(self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str,
                       headers: Any) -> Any:
        # Checked before urllib looks at it: urllib refuses some schemes itself, with a message of its own.
        target = urllib.parse.urljoin(req.full_url, headers.get("Location") or headers.get("URI") or "")
        if not redirect_allowed(req.full_url, target, self.hosts):
            raise RedirectRefused(f"the server sent it on to {target}, which is not one of the hosts it may come "
                                  "from over https; nothing was downloaded from there")
        return super().http_error_302(req, fp, code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


class Stalled(Exception):
    """The server sent less than SLOWEST bytes a second for ``timeout`` seconds."""


@contextmanager
def fetch_lock(lock: Path, name: str) -> Iterator[None]:
    """Holds ``lock`` (a file beside the download) while one fetch of ``name`` runs; refuses a second one.

    The lock is the operating system's (flock), so a fetch that was killed leaves nothing that blocks
    the next. The file is removed on the way out; a fetch that opened it just before checks it still
    holds the file that is there, and takes the new one otherwise.
    """
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise UserError(f"cannot fetch {name}: {lock} cannot be created ({exc.strerror or exc})") from None
        try:
            if not _try_lock(fd):
                raise UserError(f"{name} is being fetched already by another werewolf-narrator (it holds {lock}); "
                                "wait for it to finish, or stop it, then run the command again")
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(lock))
            except FileNotFoundError:
                same = False
            if same:
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # the fetch before removed that file as this one opened it: take the new one
    try:
        yield
    finally:
        try:
            lock.unlink(missing_ok=True)  # while still held, so no one locks a file that is gone
        except OSError:
            pass  # Windows removes no open file: it stays behind, and locks nothing once closed
        os.close(fd)


def _try_lock(fd: int) -> bool:
    """Takes the lock on the open file ``fd`` without waiting; False if another process holds it."""
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:
        return True  # a file system without locks (some network shares): the fetch goes on, as it did before locks
    return True


def download(url: str, part: Path, name: str, limit: int, hosts: frozenset[str] = frozenset(),
             progress: bool = True, offline: str = "", timeout: float = TIMEOUT) -> None:
    """Fetches ``url`` into ``part``, continuing what ``part`` already holds when the server allows it.

    Writes at most ``limit`` bytes in all: a server that sends more is cut off there and ``part``
    deleted. A ``part`` that already holds ``limit`` bytes is left for the checksum to judge,
    without a connection. ``offline`` ends the message when the server cannot be reached at all.
    A server that brings less than SLOWEST bytes a second for ``timeout`` seconds is given up on.
    """
    check_url(url)
    if limit <= 0:
        raise UserError(f"--size {limit}: a download's size is a positive number of bytes")
    offset = _resume_from(part, name, limit)
    if offset == limit:
        return
    request = urllib.request.Request(url, headers={"User-Agent": "werewolf-narrator"})
    if offset:
        request.add_header("Range", f"bytes={offset}-")
    opener = urllib.request.build_opener(_Redirects(hosts))
    try:
        with ExitStack() as stack:
            try:
                response = stack.enter_context(opener.open(request, timeout=timeout))
            except urllib.error.HTTPError as exc:
                if exc.code == 416 and offset:
                    return  # the range starts at the end: the file had all arrived, the checksum will tell
                raise
            resumed = response.status == 206 and response.headers.get("Content-Range", "").startswith(
                f"bytes {offset}-")
            if not resumed:
                offset = 0  # the server sent the whole file: start the part over
            length = response.headers.get("Content-Length")
            total = offset + int(length) if length and length.isdigit() else None
            if total is not None and total > limit:
                part.unlink(missing_ok=True)
                raise UserError(f"the server offers {total} bytes for {name} at {url}, more than the {limit} it "
                                "should be: nothing was downloaded")
            out = stack.enter_context(_open_part(part, "ab" if resumed else "wb"))
            received = _copy(response, out, name, offset, total, limit, progress, timeout)
    except (Stalled, TimeoutError):
        raise UserError(f"the download of {name} from {url} stalled (less than {SLOWEST // 1024} KB a second for "
                        f"{timeout:g} s){_again(part)}") from None
    except RedirectRefused as exc:
        raise UserError(f"could not download {name} from {url}: {exc.reason}") from None
    except urllib.error.HTTPError as exc:
        if 300 <= exc.code < 400:  # urllib gives up on a loop, or after max_redirections, with a message of lines
            raise UserError(f"could not download {name} from {url}: the server sent it on from address to address "
                            f"(a loop, or more than {_Redirects.max_redirections} redirects){_again(part)}") from None
        raise UserError(f"could not download {name} from {url}: the server answered {exc.code} {exc.reason}"
                        f"{_again(part)}") from None
    except urllib.error.URLError as exc:
        raise UserError(f"could not download {name} from {url}: {exc.reason}{_again(part)}{offline}") from None
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            part.unlink(missing_ok=True)
            raise UserError(f"the disk is full: {name} could not be written to {part.parent} ({exc.strerror}); "
                            "the partial download was removed: free some space and run the command again") from None
        raise UserError(f"the download of {name} from {url} failed ({exc or type(exc).__name__}){_again(part)}") \
            from None
    except (http.client.HTTPException, ValueError) as exc:
        # ValueError: what urllib and the socket raise for an address they cannot use (a host name's label too long)
        raise UserError(f"the download of {name} from {url} failed ({exc or type(exc).__name__}){_again(part)}") \
            from None
    if received > limit:
        part.unlink(missing_ok=True)
        raise UserError(f"the server sent more than the {limit} bytes {name} should be, from {url}: it was stopped "
                        "there and the partial download removed")
    if total is not None and received < total:
        raise UserError(f"the download of {name} from {url} stopped after {received} of {total} bytes{_again(part)}")


def _resume_from(part: Path, name: str, limit: int) -> int:
    """Returns how many bytes of the download ``part`` already holds: 0 if none, or if they cannot be a beginning."""
    try:
        if part.is_symlink() or (part.exists() and not part.is_file()):
            raise UserError(f"{part} is not a file (a partial download of {name} goes there): remove it and run the "
                            "command again")
        offset = part.stat().st_size if part.exists() else 0
        if offset > limit:
            part.unlink()  # not a beginning of the expected file: start over
            offset = 0
    except OSError as exc:
        raise UserError(f"cannot download {name} into {part.parent}: {exc.strerror or exc}") from None
    return offset


def _open_part(part: Path, mode: str) -> BinaryIO:
    """Opens the partial download (a seam for the full-disk test)."""
    return part.open(mode)  # type: ignore[return-value]


def _again(part: Path) -> str:
    """Says what running the command again will do with the partial download."""
    kept = part.stat().st_size if part.exists() else 0
    if kept:
        return f"; run the command again to resume ({part} keeps the {kept} bytes that arrived)"
    return "; run the command again to retry"


def _copy(response: http.client.HTTPResponse, out: BinaryIO, name: str, done: int, total: int | None, limit: int,
          progress: bool, timeout: float) -> int:
    """Copies the response into ``out``, never past ``limit`` bytes; returns the bytes now in ``out``.

    Reading one byte past the limit tells a server that sends too much from one that sent it all;
    that byte is never written. Each read returns what has arrived (read1), so a server that drips
    is measured every ``timeout`` seconds, and raises Stalled under SLOWEST bytes a second. The
    progress bar goes to stderr if asked.
    """
    with ExitStack() as stack:
        bar = None
        if progress:
            bar = stack.enter_context(Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                                               DownloadColumn(), TransferSpeedColumn(), TimeRemainingColumn(),
                                               console=Console(stderr=True)))
            task = bar.add_task(name, total=total or limit, completed=done)
        since, then = done, time.monotonic()
        while chunk := response.read1(min(CHUNK, limit - done + 1)):
            if done + len(chunk) > limit:
                return done + len(chunk)
            out.write(chunk)
            done += len(chunk)
            if time.monotonic() - then >= timeout:
                if done - since < SLOWEST * timeout:
                    raise Stalled()
                since, then = done, time.monotonic()
            if bar is not None:
                bar.advance(task, len(chunk))
    return done


def verify(part: Path, name: str, source: str, expected: str) -> None:
    """Checks the SHA-256 of a finished download; deletes it and says so if it is not the one expected."""
    actual = sha256_of(part)
    if actual != expected.lower():
        part.unlink()
        raise UserError(f"the download of {name} from {source} does not match its checksum (SHA-256 {actual}, "
                        f"expected {expected.lower()}): it was deleted and nothing was installed")
