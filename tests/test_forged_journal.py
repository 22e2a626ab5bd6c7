"""A journal's header is a file like any other, and may have been changed: it is checked as a table config
is (every key's type and bounds, the language, the names), and its deal against its seed's shuffle, with a message
that names the journal's line — never an internal error, a hang, an escape sequence on the table's terminal, nor a
deal other than the one the seed gives."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from narrator.config import config_from_journal, journal_table
from narrator.unfinished import listed, unfinished_games

ROOT = Path(__file__).resolve().parent.parent
OLD = ROOT / "tests" / "journals" / "deal_starter.jsonl"  # a table's game stopped during the deal (deal: app)
# OLD keeps its table in the shape before the table config's own (config_to_dict's); today_s() rewrites it in
# today's shape, to forge that one too.


def forged(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    lines = OLD.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    change(header)
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    path.chmod(0o600)
    return path


def set_config(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    return lambda header: header["config"].__setitem__(key, value)


def today_s(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    """Returns ``change`` made to OLD's header rewritten as journals write it today (journal_table's)."""
    def changed(header: dict[str, Any]) -> None:
        header.update(journal_table(config_from_journal(header, "old")))
        change(header)
    return changed


def swap_cards(header: dict[str, Any]) -> None:
    deal = header["deal"]
    first = next(i for i, card in enumerate(deal) if card != deal[0])
    deal[0], deal[first] = deal[first], deal[0]


CASES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "an escape in a name": (set_config("names", ["Ann\x1b[2J", *"BCDEFGH"]), "holds an escape character"),
    "a language that is a path": (set_config("language", "../x"), "language: no voice file for '../x'"),
    "a floor of a billion seconds": (set_config("call_floor", 1e9), "call_floor: expected"),
    "a pause that is not a number": (set_config("pause", [math.nan, 1]), "pause: expected"),
    "seats as text": (set_config("seats", "8"), "seats: expected"),
    "a rule of another kind": (lambda h: h["config"]["rules"].__setitem__("sheriff", "yes"), "sheriff: expected"),
    "a rule nobody knows": (lambda h: h["config"]["rules"].__setitem__("xyz", 1), "unknown key 'xyz'"),
    "an escape in the table's source": (set_config("source", "t\x1b]0;x\x07.yaml"), "source: expected"),
    "a table that is no mapping": (lambda h: h.__setitem__("config", [1]), "the journal's table is damaged"),
    "a seed as text": (lambda h: h.__setitem__("seed", "5"), "the journal's seed is damaged"),
    "a seed out of range": (lambda h: h.__setitem__("seed", -1), "the journal's seed is damaged"),
    "a deal its seed does not give": (swap_cards, "the journal's deal is not the one its seed deals"),
    "today's: an escape in a name": (today_s(set_config("seats", ["Ann\x1b[2J", *"BCDEFGH"])),
                                     "holds an escape character"),
    "today's: a language that is a path": (today_s(set_config("language", "../x")), "language: no voice file"),
    "today's: a rule of another kind": (today_s(set_config("sheriff", "yes")), "sheriff: expected"),
    "today's: a key nobody knows": (today_s(set_config("xyz", 1)), "unknown key 'xyz'"),
    "today's: a building given to a seat the table lacks": (today_s(set_config("buildings", {"9": "baker"})),
                                                            "buildings: seat 9 is not at this table of 8"),
    "today's: an escape in the table's source": (today_s(lambda h: h.__setitem__("source", "t\x1b]0;x\x07.yaml")),
                                                 "source: expected"),
    "today's: a table that is no mapping": (today_s(lambda h: h.__setitem__("config", [1])),
                                            "the journal's table is damaged"),
    "today's: a deal its seed does not give": (today_s(swap_cards), "the journal's deal is not the one its seed deals"),
}


@pytest.mark.parametrize("case", CASES)
def test_a_changed_journal_header_is_refused_with_its_line_and_what_is_wrong(tmp_path: Path, case: str) -> None:
    change, message = CASES[case]
    journal = forged(tmp_path, change)
    result = subprocess.run([sys.executable, "-m", "narrator", "resume", str(journal), "--plain"], cwd=tmp_path,
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert f"{journal}:1" in result.stderr and message in result.stderr, result.stderr
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr


@pytest.mark.parametrize("shape", ["old", "today's"])
def test_the_unchanged_journal_goes_on_as_far_as_the_keypad(tmp_path: Path, shape: str) -> None:
    """The cases above change one thing each: the journal as written passes every check."""
    journal = forged(tmp_path, (lambda header: None) if shape == "old" else today_s(lambda header: None))
    result = subprocess.run([sys.executable, "-m", "narrator", "resume", str(journal), "--plain"], cwd=tmp_path,
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert "the keypad needs a terminal" in result.stderr, result.stderr


def test_resume_s_list_shows_a_table_s_name_escaped_never_as_terminal_controls(tmp_path: Path) -> None:
    forged(tmp_path, set_config("source", "/t/evil\x1b[2J\u202e.yaml"))
    shown = listed(unfinished_games(tmp_path))
    assert "evil\\x1b[2J\\u202e.yaml" in shown and "\x1b" not in shown and "\u202e" not in shown


ODD = [None, True, -1, 10**30, math.nan, math.inf, "", "../x", "\x1b[2J", [], [1], {"a": 1}]
"""Values of every kind and none that fits: each key of a journal's table given each, one at a time."""


@pytest.mark.slow
def test_every_key_of_a_journal_s_table_given_any_odd_value_is_refused_or_played_never_an_internal_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The review's forged journals, as a campaign: no internal error, no hang, no escape on the terminal."""
    import narrator.supervise
    from narrator.cli import main

    monkeypatch.setattr(narrator.supervise, "wanted", lambda *a, **k: False)
    base = json.loads(OLD.read_text(encoding="utf-8").splitlines()[0])
    faults = []
    today = {**base}
    today_s(lambda header: None)(today)
    keys = [*base["config"], *(f"rules.{rule}" for rule in base["config"]["rules"]),
            *(f"today.{key}" for key in today["config"])]
    for key in keys:
        for value in ODD:
            def change(header: dict[str, Any], key: str = key, value: object = value) -> None:
                if key.startswith("today."):
                    today_s(set_config(key.removeprefix("today."), value))(header)
                    return
                table = header["config"]["rules"] if key.startswith("rules.") else header["config"]
                table[key.removeprefix("rules.")] = value
            journal = forged(tmp_path, change)
            status = main(["resume", str(journal), "--plain"])
            said = capsys.readouterr().err
            if status != 1 or "internal error" in said or "\x1b" in said:
                faults.append(f"{key}={value!r}: exit {status}: {said[:200]}")
    assert faults == []
