"""A whole keypad game in a real terminal (tmux): from the deal on the screen to the winner."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from engine import Game
from helpers import STARTER_TABLE
from keystrokes import plan_keys
from narrator.config import load_config
from narrator.journal import read_journal
from narrator.voices import load_voice
from tmux import Tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by scripts/setup.sh --test")



def plan(config_path: Path, seed: int) -> tuple[list[str], Game]:
    """Plays the game ahead with random legal answers; returns every key the table will press."""
    config, _ = load_config(str(config_path))
    return plan_keys(config, seed)


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_keypad_game_from_the_deal_to_the_winner(tmp_path: Path, language: str) -> None:
    """The deal on the screen, every call answered on the keypad with read-back, the winner announced."""
    config = tmp_path / "table.yaml"
    config.write_text(STARTER_TABLE.format(language=language), encoding="utf-8")
    seed = 11
    keys, ahead = plan(config, seed)
    voice = load_voice(language)
    tmux = Tmux(f"wn-test-{language}-{tmp_path.name}")
    command = (f"{sys.executable} -m narrator play {config} --seed {seed} --journal-dir {tmp_path / 'j'}; "
               "echo exit=$?; sleep 60")
    tmux.run("new-session", "-d", "-s", tmux.target, "-x", "110", "-y", "45", command)
    try:
        tmux.wait_for(voice.text("deal.app_turn", {"seat": 1}))
        tmux.send(keys[:1])
        first_card = voice.text("deal.app_show", {"role": ahead.deal.roles[0]})
        assert first_card[:20] in tmux.wait_for(first_card[:20])  # seat 1 sees their card, alone
        tmux.send(keys[1:2])
        shown = tmux.wait_for(voice.text("deal.app_hidden", {})[:15])
        assert first_card[:20] not in shown  # hidden again before the next player comes
        tmux.send(keys[2:])
        final = tmux.wait_for("exit=", seconds=180)
    finally:
        tmux.close()
    assert "exit=0" in final, final
    outcome = ahead.outcome
    assert outcome is not None
    assert voice.text(f"end.{outcome.winner}", {})[:15] in final
    journals = list((tmp_path / "j").glob("*.jsonl"))
    assert len(journals) == 1
    header, entries = read_journal(str(journals[0]))
    assert header["seed"] == seed and header["deal"] == list(ahead.deal.roles)
    assert [e.answer for e in entries] == ahead.journal
