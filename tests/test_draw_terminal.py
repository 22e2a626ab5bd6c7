"""The New Moon's morning draw at a real table (tmux): the game's process killed with SIGKILL as a morning's event
card waits to be read, resumed with Enter: the same card turned, read by the same player, then the game to its
end (docs/rules.md, "The New Moon's morning draw")."""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

import pytest

from narrator.config import load_config
from narrator.journal import read_journal
from narrator.narration import VOICE, Line, Narrator
from test_kill_trials import CONFIG as KILL_TRIALS_TABLE
from test_kill_trials import ASK, EN, ended, game_command, keys_of, plan, signal_game, terminal_settings
from tmux import PATIENCE, Tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by scripts/setup.sh --test")

CONFIG = KILL_TRIALS_TABLE + "events: [sunshine, seance_2, black_monday, seance_5]\n"
"""The kill trials' table, with the morning draw."""
SEED = 11


def test_a_game_killed_as_a_card_waits_turns_the_same_card_when_resumed(tmp_path: Path) -> None:
    """SIGKILL while the first morning's card waits for its Enter: Enter resumes, the same card line is said again."""
    folder = tmp_path / "draw"
    folder.mkdir()
    (folder / "table.yaml").write_text(CONFIG, encoding="utf-8")
    config, _ = load_config(str(folder / "table.yaml"))
    turns, ahead = plan(config, SEED)
    at = next(i for i, turn in enumerate(turns) if turn.call.id == "event")
    lines: list[Line] = []
    Narrator(EN, lines.append).begin(turns[at].call)
    (card,) = [line.text for line in lines if line.channel == VOICE and line.key.startswith("event.drawn")]
    tmux = Tmux(f"wn-draw-{tmp_path.name}", joined=True)
    tmux.start(game_command(folder, "play", "table.yaml", "--seed", str(SEED), "--journal-dir", "j"))
    try:
        tmux.wait_for(EN.text("deal.app_turn", {"seat": 1}))
        tmux.send(["enter"] * 3 * config.table.seats + keys_of(turns[:at]))
        tmux.wait_for(card)  # the card turned, its reader named: the call waits for its Enter
        signal_game(tmux, signal.SIGKILL)
        tmux.wait_for(ASK)
        assert card not in tmux.screen()
        tmux.send(["enter"])
        resumed = EN.text("notice.resumed", {})
        tmux.wait_for(lambda shown: resumed in shown and card in shown[shown.index(resumed):])
        tmux.send(keys_of(turns[at:]))
        final = tmux.wait_for(ended, seconds=2 * PATIENCE)
    finally:
        tmux.close()
    assert "exit=0" in final, final
    assert terminal_settings(final) == {"echo", "icanon"}, final
    outcome = ahead.outcome
    assert outcome is not None and EN.text(f"end.{outcome.winner}", {})[:15] in final
    (journal,) = (folder / "j").glob("*.jsonl")
    _, entries = read_journal(str(journal))
    assert [entry.answer for entry in entries] == ahead.journal
