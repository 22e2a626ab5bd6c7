"""The shared downloader against a server on loopback: the size limit, redirects, https only, a full disk."""

from __future__ import annotations

import errno
import hashlib
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, BinaryIO, Iterator

import pytest

from narrator import download as downloader
from narrator.download import check_url, download, redirect_allowed
from narrator.errors import UserError
from narrator.listen.models import fetch as fetch_model


class Server:
    """Serves files over HTTP on 127.0.0.1: with Range, redirects, a first response cut short, or an endless stream."""

    def __init__(self, files: dict[str, bytes], redirects: dict[str, str] | None = None,
                 endless: tuple[str, ...] = (), cut_first: tuple[str, ...] = (),
                 claimed: dict[str, int] | None = None) -> None:
        self.files = files
        self.redirects = redirects or {}
        self.requests: list[tuple[str, str | None]] = []  # each request's path and Range header
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                wanted = self.headers.get("Range")
                server.requests.append((self.path, wanted))
                if self.path in server.redirects:
                    self.send_response(302)
                    self.send_header("Location", server.redirects[self.path])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if self.path in endless:
                    self.send_response(200)
                    self.end_headers()
                    try:
                        while True:  # a server that never stops sending
                            self.wfile.write(b"x" * 65536)
                    except OSError:
                        return
                if self.path not in server.files:
                    self.send_error(404)
                    return
                body, status, start = server.files[self.path], 200, 0
                if wanted:
                    start = int(wanted.removeprefix("bytes=").split("-")[0])
                    if start >= len(body):
                        self.send_response(416)
                        self.send_header("Content-Range", f"bytes */{len(body)}")
                        self.end_headers()
                        return
                    status = 206
                self.send_response(status)
                if status == 206:
                    self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
                    body = body[start:]
                self.send_header("Content-Length", str((claimed or {}).get(self.path, len(body))))
                self.end_headers()
                first = sum(1 for path, _ in server.requests if path == self.path) == 1
                if self.path in cut_first and first:
                    self.wfile.write(body[:len(body) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.01,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Makes any connection beyond this machine fail the test: no test may touch the internet."""
    connect = socket.create_connection

    def guarded(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        assert address[0] in ("127.0.0.1", "localhost"), f"a test tried to reach {address[0]}"
        return connect(address, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", guarded)


@pytest.fixture
def serve() -> Iterator[Any]:
    servers: list[Server] = []

    def start(files: dict[str, bytes], **options: Any) -> Server:
        servers.append(Server(files, **options))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


PAYLOAD = bytes(range(256)) * 400  # 102,400 bytes


def test_a_download_within_its_limit_arrives_whole(tmp_path: Path, serve: Any) -> None:
    server = serve({"/f": PAYLOAD})
    download(f"{server.url}/f", tmp_path / "f.part", "f", len(PAYLOAD), progress=False)
    assert (tmp_path / "f.part").read_bytes() == PAYLOAD


def test_an_endless_stream_is_stopped_at_the_limit_and_the_part_removed(
        tmp_path: Path, serve: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[int] = []
    opened = downloader._open_part

    class Counting:
        """The part as the downloader writes it, counting the bytes written."""

        def __init__(self, part: Path, mode: str) -> None:
            self.file = opened(part, mode)

        def write(self, data: bytes) -> int:
            written.append(len(data))
            return self.file.write(data)

        def __enter__(self) -> Counting:
            return self

        def __exit__(self, *exc: object) -> None:
            self.file.close()

    monkeypatch.setattr(downloader, "_open_part", Counting)
    server = serve({}, endless=("/f",))
    with pytest.raises(UserError, match="sent more than the 5000 bytes f should be.*stopped there"):
        download(f"{server.url}/f", tmp_path / "f.part", "f", 5000, progress=False)
    assert sum(written) <= 5000  # never a byte past the limit
    assert list(tmp_path.iterdir()) == []


def test_a_server_offering_more_than_the_limit_is_refused_before_the_download(tmp_path: Path, serve: Any) -> None:
    server = serve({"/f": PAYLOAD})
    with pytest.raises(UserError, match=f"offers {len(PAYLOAD)} bytes for f.*more than the 1000"):
        download(f"{server.url}/f", tmp_path / "f.part", "f", 1000, progress=False)
    assert list(tmp_path.iterdir()) == []


def test_a_model_download_stops_at_the_models_size_limit(tmp_path: Path, serve: Any) -> None:
    server = serve({}, endless=("/model.zip",))
    with pytest.raises(UserError, match="sent more than the 4096 bytes"):
        fetch_model("en", tmp_path, url=f"{server.url}/model.zip", sha256="0" * 64, size=4096, progress=False)
    assert list(tmp_path.iterdir()) == []


def test_a_redirect_within_the_same_server_is_followed(tmp_path: Path, serve: Any) -> None:
    server = serve({"/b": PAYLOAD})
    server.redirects["/a"] = f"{server.url}/b"
    download(f"{server.url}/a", tmp_path / "f.part", "f", len(PAYLOAD), progress=False)
    assert (tmp_path / "f.part").read_bytes() == PAYLOAD
    assert [path for path, _ in server.requests] == ["/a", "/b"]


@pytest.mark.parametrize("target", ["http://localhost:{port}/b", "https://evil.example/b", "ftp://127.0.0.1/b",
                                    "file:///etc/passwd"])
def test_a_redirect_to_another_host_or_scheme_is_refused(tmp_path: Path, serve: Any, target: str) -> None:
    server = serve({"/b": PAYLOAD})
    server.redirects["/a"] = target.format(port=server.port)
    with pytest.raises(UserError, match="not one of the hosts it may come from over https; nothing was downloaded"):
        download(f"{server.url}/a", tmp_path / "f.part", "f", len(PAYLOAD), hosts=frozenset({"huggingface.co"}),
                 progress=False)
    assert [path for path, _ in server.requests] == ["/a"]  # the other address was never asked
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("current", "target", "allowed"), [
    ("https://huggingface.co/a", "https://cas-bridge.xethub.hf.co/b", True),
    ("https://huggingface.co/a", "https://huggingface.co/b", True),
    ("https://huggingface.co/a", "http://cas-bridge.xethub.hf.co/b", False),
    ("https://huggingface.co/a", "http://huggingface.co/b", False),
    ("https://huggingface.co/a", "ftp://huggingface.co/b", False),
    ("https://huggingface.co/a", "https://huggingface.co.evil.example/b", False),
    ("http://127.0.0.1:8000/a", "http://127.0.0.1:8001/b", False),
])
def test_redirects_go_only_to_https_on_the_repositorys_hosts(current: str, target: str, allowed: bool) -> None:
    assert redirect_allowed(current, target, frozenset({"huggingface.co", "cas-bridge.xethub.hf.co"})) is allowed


@pytest.mark.parametrize("url", ["http://example.org/f", "ftp://127.0.0.1/f", "file:///etc/passwd", "f.onnx"])
def test_only_https_is_downloaded_from_plain_http_only_from_this_machine(url: str) -> None:
    with pytest.raises(UserError, match="only https addresses"):
        check_url(url)
    check_url("https://huggingface.co/f")
    check_url("http://127.0.0.1:8000/f")


def test_a_full_disk_removes_the_part_and_says_so(tmp_path: Path, serve: Any,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    class FullDisk:
        """A file that takes 10,000 bytes, then fails as a full disk does."""

        def __init__(self, part: Path) -> None:
            self.file: BinaryIO = part.open("wb")

        def write(self, data: bytes) -> int:
            if self.file.tell() + len(data) > 10_000:
                raise OSError(errno.ENOSPC, "No space left on device")
            return self.file.write(data)

        def __enter__(self) -> FullDisk:
            return self

        def __exit__(self, *exc: object) -> None:
            self.file.close()

    monkeypatch.setattr(downloader, "_open_part", lambda part, mode: FullDisk(part))
    server = serve({"/f": PAYLOAD})
    with pytest.raises(UserError, match="the disk is full.*the partial download was removed"):
        download(f"{server.url}/f", tmp_path / "f.part", "f", len(PAYLOAD), progress=False)
    assert list(tmp_path.iterdir()) == []


def test_a_part_that_holds_the_whole_size_is_left_to_the_checksum_without_a_connection(tmp_path: Path) -> None:
    (tmp_path / "f.part").write_bytes(PAYLOAD)
    download("https://huggingface.co/f", tmp_path / "f.part", "f", len(PAYLOAD), progress=False)
    assert hashlib.sha256((tmp_path / "f.part").read_bytes()).digest() == hashlib.sha256(PAYLOAD).digest()


def test_a_part_longer_than_the_limit_is_started_over(tmp_path: Path, serve: Any) -> None:
    server = serve({"/f": PAYLOAD})
    (tmp_path / "f.part").write_bytes(b"x" * (len(PAYLOAD) + 1))
    download(f"{server.url}/f", tmp_path / "f.part", "f", len(PAYLOAD), progress=False)
    assert (tmp_path / "f.part").read_bytes() == PAYLOAD
    assert server.requests == [("/f", None)]


def test_a_size_that_is_not_positive_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="--size -5: a download's size is a positive number of bytes"):
        fetch_model("en", tmp_path, url="https://alphacephei.com/m.zip", sha256="0" * 64, size=-5, progress=False)
