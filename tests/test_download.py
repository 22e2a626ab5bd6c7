"""The shared downloader against a server on loopback: the size limit, redirects, https only, a full disk."""

from __future__ import annotations

import errno
import hashlib
import os
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, BinaryIO, Iterator

import pytest

from narrator import download as downloader
from narrator.cli import main
from narrator.download import check_url, download, redirect_allowed
from narrator.errors import UserError
from narrator.listen.models import fetch as fetch_model


class Server:
    """Serves files over HTTP on 127.0.0.1: with Range, redirects, a first response cut short, an endless stream,
    a Content-Length that lies (``claimed``), a body dripped 100 bytes at a time (``drip``: the seconds between
    them), or none sent at all (``silent``)."""

    def __init__(self, files: dict[str, bytes], redirects: dict[str, str] | None = None,
                 endless: tuple[str, ...] = (), cut_first: tuple[str, ...] = (),
                 claimed: dict[str, int] | None = None, drip: dict[str, float] | None = None,
                 silent: tuple[str, ...] = ()) -> None:
        self.files = files
        self.redirects = redirects or {}
        self.requests: list[tuple[str, str | None]] = []  # each request's path and Range header
        self.stop = threading.Event()
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
                if self.path in silent:
                    server.stop.wait(30)  # headers, then nothing, until the test ends
                    return
                if self.path in (drip or {}):
                    try:
                        for start in range(0, len(body), 100):
                            self.wfile.write(body[start:start + 100])
                            self.wfile.flush()
                            if server.stop.wait((drip or {})[self.path]):
                                return
                    except OSError:
                        pass  # the client gave up
                    return
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
        self.stop.set()
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


@pytest.mark.parametrize("url", ["http://[::1", "http://127.0.0.1:99999/f", "http://127.0.0.1:port/f",
                                 "http://127.0.0.1:0/f", "https://", "", "http://127.0.0.1/a b",
                                 "http://127.0.0.1/f\r\nX-Header: y", "https://exämple.org/f", "https://127.0.0.1/\0"])
def test_a_malformed_address_is_refused_with_a_message(url: str) -> None:
    with pytest.raises(UserError, match="not an address that can be downloaded from|only https addresses"):
        check_url(url)


def test_a_host_name_the_resolver_cannot_encode_is_a_failed_download_not_a_crash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def resolver(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        return address[0].encode("idna")  # type: ignore[return-value]  # what the resolver does first

    monkeypatch.setattr(socket, "create_connection", resolver)
    with pytest.raises(UserError, match=r"the download of f from https://a\.\.b/f failed \(.*label empty or too long"):
        download("https://a..b/f", tmp_path / "f.part", "f", 1000, progress=False)


@pytest.mark.parametrize("command", ["models", "voices"])
@pytest.mark.parametrize("url", ["http://[::1", "https://[zz]", "http://127.0.0.1:99999"])
def test_fetch_with_a_malformed_url_says_so_without_an_internal_error(
        command: str, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main([command, "fetch", "en", "--url", url]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {url}") and "not an address that can be downloaded from" in err, err


def test_a_content_length_larger_than_what_comes_keeps_the_part_to_resume(tmp_path: Path, serve: Any) -> None:
    server = serve({"/f": PAYLOAD[:1000]}, claimed={"/f": 5000})
    with pytest.raises(UserError, match="stopped after 1000 of 5000 bytes; run the command again to resume"):
        download(f"{server.url}/f", tmp_path / "f.part", "f", 5000, progress=False)
    assert (tmp_path / "f.part").read_bytes() == PAYLOAD[:1000]


def test_a_content_length_smaller_than_what_comes_leaves_the_rest_unread_for_the_checksum(
        tmp_path: Path, serve: Any) -> None:
    server = serve({"/f": PAYLOAD}, claimed={"/f": 1000})
    with pytest.raises(UserError, match="does not match its checksum"):
        fetch_model("en", tmp_path, url=f"{server.url}/f", sha256=hashlib.sha256(PAYLOAD).hexdigest(),
                    size=len(PAYLOAD), progress=False)
    assert list(tmp_path.iterdir()) == []


def test_a_redirect_loop_is_given_up_with_one_line(tmp_path: Path, serve: Any) -> None:
    server = serve({})
    server.redirects.update({"/a": f"{server.url}/b", "/b": f"{server.url}/a"})
    with pytest.raises(UserError) as refused:
        download(f"{server.url}/a", tmp_path / "f.part", "f", 1000, progress=False)
    assert "sent it on from address to address (a loop, or more than 10 redirects)" in str(refused.value)
    assert "\n" not in str(refused.value)
    assert len(server.requests) < 12


def test_an_endless_chain_of_redirects_is_given_up(tmp_path: Path, serve: Any) -> None:
    server = serve({})
    server.redirects.update({f"/r{i}": f"{server.url}/r{i + 1}" for i in range(50)})
    with pytest.raises(UserError, match="more than 10 redirects"):
        download(f"{server.url}/r0", tmp_path / "f.part", "f", 1000, progress=False)
    assert len(server.requests) == 11


def test_a_server_that_drips_under_1_kb_a_second_is_given_up_as_stalled_and_the_part_kept(
        tmp_path: Path, serve: Any) -> None:
    server = serve({"/f": PAYLOAD}, drip={"/f": 0.2})  # 500 bytes a second: each read comes well within the timeout
    with pytest.raises(UserError, match=r"stalled \(less than 1 KB a second for 0.5 s\); run the command again to "
                                        r"resume \(.*f.part keeps the [1-9]\d* bytes"):
        download(f"{server.url}/f", tmp_path / "f.part", "f", len(PAYLOAD), progress=False, timeout=0.5)


def test_a_slow_server_over_1_kb_a_second_is_waited_for(tmp_path: Path, serve: Any) -> None:
    server = serve({"/f": PAYLOAD[:3000]}, drip={"/f": 0.01})  # 10 KB a second, over three windows of 0.1 s
    download(f"{server.url}/f", tmp_path / "f.part", "f", 3000, progress=False, timeout=0.1)
    assert (tmp_path / "f.part").read_bytes() == PAYLOAD[:3000]


def test_a_server_that_sends_nothing_after_its_headers_is_given_up_as_stalled(tmp_path: Path, serve: Any) -> None:
    server = serve({"/f": PAYLOAD}, silent=("/f",))
    with pytest.raises(UserError, match=r"stalled \(less than 1 KB a second for 0.3 s\); run the command again to "
                                        "retry"):
        download(f"{server.url}/f", tmp_path / "f.part", "f", len(PAYLOAD), progress=False, timeout=0.3)


@pytest.mark.parametrize("kind", ["folder", "symlink", "fifo"])
def test_a_part_that_is_not_a_plain_file_is_refused(tmp_path: Path, kind: str) -> None:
    part = tmp_path / "f.part"
    if kind == "folder":
        part.mkdir()
    elif kind == "symlink":
        part.symlink_to(tmp_path / "elsewhere")
    else:
        os.mkfifo(part)
    with pytest.raises(UserError, match="f.part is not a file .*remove it and run the command again"):
        download("http://127.0.0.1:9/f", part, "f", 1000, progress=False)
    assert not (tmp_path / "elsewhere").exists()
