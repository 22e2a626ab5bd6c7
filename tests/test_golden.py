"""Golden transcripts: one practice game in each language, every line as the table hears and sees it.

Regenerate after an intended change of wording with: UPDATE_GOLDEN=1 scripts/test.sh tests/test_golden.py
(then read the diff before committing it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from narrator.practice import dry_run, report
from narrator.script import load_script

GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_golden_transcript(language: str) -> None:
    """The practice game's report (calls, eliminations, winner, lines) is exactly the reviewed one."""
    script, _ = load_script(str(GOLDEN / f"game_{language}.yaml"))
    game, lines = dry_run(script)
    got = report(game, lines, language)
    path = GOLDEN / f"game_{language}.json"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    want = json.loads(path.read_text(encoding="utf-8"))
    assert got["lines"] == want["lines"]
    assert got == want
