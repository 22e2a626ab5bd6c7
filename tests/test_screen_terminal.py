"""The host's full screen in a real terminal (tmux) at 80×24 and 200×60 — the seating circle with the
players' names, the eyes banner (open, closed, paused), the debate's countdown and the last words of a player voted
out, read on the screen at each of these moments."""

from __future__ import annotations

import random
import shutil
import sys
import time
from pathlib import Path

import pytest

from engine import Game, deal_cards
from engine.types import Kind, Phase
from keystrokes import after, keys_for
from narrator.config import TableConfig, load_config
from tmux import Tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by scripts/setup.sh --test")

NAMES = ["Ann", "Bruno", "Chloé", "David", "Emma", "Farid", "Gilles", "Hélène", "Inès", "Jules", "Karim", "Léa"]
TABLE = f"""\
language: en
seats: [{", ".join(NAMES)}]
preset: classic
speaker: console
pause: [0, 0]
call_floor: 0
debate_timer: 75
last_words: 20
"""


def plan(config: TableConfig) -> tuple[int, list[str], int, int]:
    """Finds a seed whose game votes a player out before its end; returns it, the keys up to that vote (its last
    words not ended), where the first night call awaiting a key begins and where the debate before the vote does."""
    for seed in range(1, 100):
        game = Game(config.table, deal_cards(config.table, seed))
        rng = random.Random(seed)
        keys, night, debate = ["enter"] * 3 * config.table.seats, 0, 0
        while not game.over:
            call = game.call
            assert call is not None
            value = rng.choice(game.legal()) if call.needs_answer else None
            answer = keys_for(call, value)
            if call.phase is Phase.NIGHT and answer and not night:
                night = len(keys)
            if call.id == "debate":
                debate = len(keys)
            keys += answer
            step = game.answer(value)
            keys += after(step)
            if (call.kind is Kind.VOTE and not game.over
                    and any(f.key == "death" and f.values.get("cause") == "vote" for f in step.facts)):
                return seed, keys, night, debate
    raise AssertionError("no seed votes a player out")


def countdown(shown: str) -> str:
    return next(line for line in shown.splitlines() if "Debate:" in line).strip(" │")


@pytest.mark.parametrize("width, height", [(80, 24), (200, 60)])
def test_the_circle_the_banner_and_the_countdown_on_the_full_screen(tmp_path: Path, width: int, height: int) -> None:
    path = tmp_path / "table.yaml"
    path.write_text(TABLE, encoding="utf-8")
    seed, keys, night, debate = plan(load_config(str(path))[0])
    tmux = Tmux(f"wn-screen-{width}-{tmp_path.name}")
    tmux.start(f"{sys.executable} -m narrator play {path} --seed {seed} --journal-dir {tmp_path / 'j'}; sleep 60",
               width, height)
    try:
        deal = tmux.wait_for("come and see your card")
        assert "EYES OPEN" in deal
        assert all(f"{n} {name}" in deal for n, name in enumerate(NAMES, start=1)), deal  # the circle, named
        tmux.send(keys[:night])
        # The panel turns to Night 1 a moment before the line that closes the eyes is said: the banner follows that line.
        shown = tmux.wait_for(lambda screen: "Night 1" in screen and "EYES CLOSED" in screen)
        assert "EYES OPEN" not in shown, shown
        assert "[Sheriff]" in shown, shown  # elected before the first night: the badge is public
        tmux.send(keys[night:debate])
        first = countdown(tmux.wait_for("Debate: 1:1"))
        time.sleep(1.2)
        assert countdown(tmux.screen()) != first, "the countdown stands still"
        tmux.send(["menu", "3"])
        paused = tmux.wait_for("PAUSED")
        assert "EYES" not in paused  # the pause banner stands over the eyes banner
        time.sleep(1.2)
        assert countdown(tmux.screen()) == countdown(paused), "the countdown ran during the pause"
        tmux.send(["enter"])
        tmux.wait_for(lambda screen: "EYES OPEN" in screen and "PAUSED" not in screen)
        tmux.send(keys[debate:])
        words = tmux.wait_for("Last words: 0:")
        assert "✝" in words, words  # the player voted out sits in the circle, out of the game
        assert "Enter end the last words" in words  # the footer: what Enter ends, the keys that work now
    finally:
        tmux.close()
