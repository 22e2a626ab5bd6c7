"""Downloads of pinned files (speech models, Piper voices): resumable, size-limited, https only, checked.

A download goes to a ``.part`` file beside where it will be installed, continues from there when
run again (HTTP Range), never writes more than the size it was told to expect (a server that
streams forever is stopped there and the part removed), follows redirects only to https on the
hosts it was given (and only within the same host otherwise), and is checked against its SHA-256
before anything uses it. A full disk removes the part and says so. Every failure is a UserError.
"""

from __future__ import annotations

import errno
import hashlib
import http.client
import urllib.error
import urllib.parse
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any, BinaryIO

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
TIMEOUT = 30.0  # seconds without a byte before a download counts as stalled
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
    parts = urllib.parse.urlsplit(url)
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


def download(url: str, part: Path, name: str, limit: int, hosts: frozenset[str] = frozenset(),
             progress: bool = True, offline: str = "") -> None:
    """Fetches ``url`` into ``part``, continuing what ``part`` already holds when the server allows it.

    Writes at most ``limit`` bytes in all: a server that sends more is cut off there and ``part``
    deleted. A ``part`` that already holds ``limit`` bytes is left for the checksum to judge,
    without a connection. ``offline`` ends the message when the server cannot be reached at all.
    """
    check_url(url)
    if limit <= 0:
        raise UserError(f"--size {limit}: a download's size is a positive number of bytes")
    offset = part.stat().st_size if part.exists() else 0
    if offset > limit:
        part.unlink()  # not a beginning of the expected file: start over
        offset = 0
    if offset == limit:
        return
    request = urllib.request.Request(url, headers={"User-Agent": "werewolf-narrator"})
    if offset:
        request.add_header("Range", f"bytes={offset}-")
    opener = urllib.request.build_opener(_Redirects(hosts))
    try:
        with ExitStack() as stack:
            try:
                response = stack.enter_context(opener.open(request, timeout=TIMEOUT))
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
            received = _copy(response, out, name, offset, total, limit, progress)
    except RedirectRefused as exc:
        raise UserError(f"could not download {name} from {url}: {exc.reason}") from None
    except urllib.error.HTTPError as exc:
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
    except http.client.HTTPException as exc:
        raise UserError(f"the download of {name} from {url} failed ({exc or type(exc).__name__}){_again(part)}") \
            from None
    if received > limit:
        part.unlink(missing_ok=True)
        raise UserError(f"the server sent more than the {limit} bytes {name} should be, from {url}: it was stopped "
                        "there and the partial download removed")
    if total is not None and received < total:
        raise UserError(f"the download of {name} from {url} stopped after {received} of {total} bytes{_again(part)}")


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
          progress: bool) -> int:
    """Copies the response into ``out``, never past ``limit`` bytes; returns the bytes now in ``out``.

    Reading one byte past the limit tells a server that sends too much from one that sent it all;
    that byte is never written. The progress bar goes to stderr if asked.
    """
    with ExitStack() as stack:
        bar = None
        if progress:
            bar = stack.enter_context(Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(),
                                               TransferSpeedColumn(), TimeRemainingColumn(),
                                               console=Console(stderr=True)))
            task = bar.add_task(name, total=total or limit, completed=done)
        while chunk := response.read(min(CHUNK, limit - done + 1)):
            if done + len(chunk) > limit:
                return done + len(chunk)
            out.write(chunk)
            done += len(chunk)
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
