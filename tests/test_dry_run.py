"""Practice scripts through the command line, and the report's contract (spec/dry-run.md)."""

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
