"""Practice scripts through the command line, and the report's contract (docs/practice-scripts.md)."""

import json
import subprocess
import sys
from pathlib import Path

GAMES = Path(__file__).resolve().parent / "games"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "narrator", *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)


def test_dry_run_writes_the_report_of_the_contract(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    result = run_cli("dry-run", str(GAMES / "first_game.yaml"), "--silent", "--report", str(report))
    assert result.returncode == 0, result.stderr
    data = json.loads(report.read_text())
    assert data["winner"] == "village"
    assert data["winners"] == [1, 3, 4, 5, 6, 7]
    assert [e["seat"] for e in data["eliminated"]] == [4, 2, 3, 8, 6, 1]
    assert data["eliminated"][0] == {"seat": 4, "role": "villager", "phase": "night", "number": 1,
                                     "cause": "werewolves"}
    assert data["calls"][0] == {"phase": "night", "number": 1, "call": "nightfall"}
    assert {"phase": "day", "number": 1, "call": "vote"} in data["calls"]
    assert data["lines"][0]["key"] == "nightfall.call"
    assert data["lines"][0]["channel"] == "voice"
    assert data["lines"][0]["text"].startswith("It is night, the whole village falls asleep")
    assert {line["channel"] for line in data["lines"]} == {"voice", "screen"}


def test_audio_dir_writes_every_spoken_line_as_a_wav_in_order(tmp_path: Path) -> None:
    """dry-run --audio-dir: one WAV per voice line, in order, with the list of lines beside them."""
    report = tmp_path / "report.json"
    audio = tmp_path / "audio"
    script = tmp_path / "first_game.yaml"  # espeak-ng's files, 15 ms each (Kokoro's English: tests/test_kokoro.py)
    script.write_text((GAMES / "first_game.yaml").read_text(encoding="utf-8")
                      .replace("table:\n", "table:\n  speaker: pyttsx3\n", 1), encoding="utf-8")
    result = run_cli("dry-run", str(script), "--silent", "--report", str(report), "--audio-dir", str(audio))
    assert result.returncode == 0, result.stderr
    said = [line["text"] for line in json.loads(report.read_text())["lines"] if line["channel"] == "voice"]
    wavs = sorted(audio.glob("*.wav"))
    assert len(wavs) == len(said)
    assert all(w.stat().st_size > 1000 for w in wavs)
    listed = [row.split("\t", 1)[1] for row in (audio / "lines.txt").read_text(encoding="utf-8").splitlines()]
    assert listed == said


def test_voices_names_a_voice_for_each_language() -> None:
    """`werewolf-narrator voices` says which voice each language gets here."""
    result = run_cli("voices")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for language in ("en", "fr", "zh"):
        assert any(line.startswith(f"{language}: ") for line in lines), result.stdout
