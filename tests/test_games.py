"""Every practice script of tests/games played through the command line, and its report's contract
(docs/practice-scripts.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

GAMES = sorted((Path(__file__).resolve().parent / "games").glob("*.yaml"))
WINNERS = {"village", "werewolves", "lovers", "white_werewolf", "piper", "angel", "prejudiced_manipulator", "nobody"}
PHASES = ("night", "day")


def is_int(value: Any) -> bool:
    return type(value) is int


def test_there_are_practice_games() -> None:
    """The scenario suite holds whole games (scenario tests are practice scripts)."""
    assert len(GAMES) >= 10


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_practice_game_plays_to_its_expected_end(path: Path, tmp_path: Path) -> None:
    """A script plays to the end it expects and writes the report of the contract (docs/practice-scripts.md,
    "The game report")."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#"), "a game says what it shows in its first line"
    expect = yaml.safe_load(text)["expect"]
    report = tmp_path / "report.json"
    result = subprocess.run([sys.executable, "-m", "narrator", "dry-run", str(path), "--silent",
                             "--report", str(report)],
                            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert result.returncode == 0, result.stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    assert {"winner", "winners", "calls", "eliminated", "lines"} <= set(data)
    assert data["winner"] in WINNERS and data["winner"] == expect["winner"]
    assert isinstance(data["winners"], list) and all(is_int(s) for s in data["winners"])
    assert [e["seat"] for e in data["eliminated"]] == expect["eliminated"]
    assert set(data) <= {"winner", "reason", "winners", "calls", "eliminated", "lines"}
    assert data.get("reason") == expect.get("reason", data.get("reason"))  # nobody won: why
    assert ("reason" in data) is (data["winner"] == "nobody")
    for call in data["calls"]:
        assert set(call) == {"phase", "number", "call"}
        assert call["phase"] in PHASES and is_int(call["number"]) and isinstance(call["call"], str)
    for e in data["eliminated"]:
        assert set(e) == {"seat", "role", "phase", "number", "cause"}
        assert is_int(e["seat"]) and isinstance(e["role"], str) and isinstance(e["cause"], str)
        assert e["phase"] in PHASES and is_int(e["number"])
    assert data["calls"] and data["lines"]
    for line in data["lines"]:
        assert {"key", "channel", "text"} <= set(line) and line["channel"] in ("voice", "screen")
        assert isinstance(line["key"], str) and isinstance(line["text"], str) and line["text"]
