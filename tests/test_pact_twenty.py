"""A 20-player game in the Chinese article's complete order (profile `pact`), with characters of the New Moon,
Characters and Village expansions, played at the keypad to the end in each language as a new table would
(examples/pact-20-en.yaml)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from helpers import play_keys
from keystrokes import plan_keys
from narrator.config import load_config
from narrator.journal import read_journal
from narrator.play import NewGame

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "pact-20-en.yaml"


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
@pytest.mark.parametrize("seed", [5, 7])
def test_a_twenty_player_pact_game_with_expansion_characters_plays_to_the_end(tmp_path: Path, language: str,
                                                                             seed: int) -> None:
    """The deal on the screen, every call of the pact order answered on the keypad (the buildings announced,
    the Sheriff, the Judge's eyes-closed question, the Servant's offer, the farmers, the Schoolteacher), the
    winner: the keypad game ends exactly as the same answers do in the engine, with every answer journaled."""
    config, _ = load_config(str(EXAMPLE))
    config = dataclasses.replace(config, language=language, speaker="console", pause=(0.0, 0.0))
    assert config.table.seats == 20 and config.table.rules.profile == "pact"
    keys, ahead = plan_keys(config, seed)
    game = play_keys(config, keys, seed=seed, start=NewGame(folder=tmp_path))
    assert game.over and game.outcome == ahead.outcome and game.eliminated == ahead.eliminated
    made = {c.id for c in game.calls}
    assert {"buildings", "brothers", "stuttering_judge", "raven", "guard", "baker", "big_bad_wolf"} <= made
    night_one = [c.id for c in game.calls if c.phase.value == "night" and c.number == 1]
    assert night_one.index("seer") + 1 == night_one.index("fox")  # the pact: the Fox follows the Seer
    (journal,) = tmp_path.glob("*.jsonl")
    assert [entry.answer for entry in read_journal(str(journal))[1]] == game.journal
