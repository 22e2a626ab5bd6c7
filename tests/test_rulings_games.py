"""The practice games of the rulings changed for issue 23 (tests/games/ruling_*.yaml), each quoting the seed sentence
it plays, played to their expected end in every language: the same answers, the same end, every line filled and
no digit said aloud."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from narrator.practice import dry_run
from narrator.script import load_script

GAMES = sorted((Path(__file__).resolve().parent / "games").glob("ruling_*.yaml"))


def test_every_changed_ruling_has_its_practice_game() -> None:
    """Wild Child, the Elder, Moonlight, the Servant's lovers, the Barkeeper, the Vagabond, the stalemate."""
    names = {p.stem for p in GAMES}
    for ruling in ("wild_child", "elder", "moonlight", "servant", "barkeeper", "vagabond", "stalemate"):
        assert any(ruling in name for name in names), ruling


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_ruling_game_plays_to_its_end_in_every_language(path: Path, language: str) -> None:
    """The script's expect (winner, eliminations, and a stalemate's reason) holds whatever the table's language."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# ") and '"' in text.splitlines()[0], "a ruling's game quotes its seed sentence"
    script, _ = load_script(str(path))
    script = dataclasses.replace(script, config=dataclasses.replace(script.config, language=language))
    game, lines = dry_run(script)  # raises RunFailed on any difference from its expect
    assert game.outcome is not None and game.outcome.winner == script.expect_winner
    said = [line for line in lines if line.channel == "voice"]
    assert said and all(line.text and "{" not in line.text for line in said)
    assert not any(ch.isascii() and ch.isdigit() for line in said for ch in line.text)
    if script.expect_reason == "stalemate":
        assert said[-1].key == "end.stalemate"
