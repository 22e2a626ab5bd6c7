"""The engine is fully typed: mypy --strict over engine/ (and the narrator) must stay clean."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_is_clean() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "engine", "narrator", "scripts"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


WRITES = [
    "game.tonight.attacks += ((4, 'werewolves'),)",
    "game.players.append(game.players[0])",
    "player = game.players[2]\nplayer.alive = False",
    "game.players[2].marks.add('infected')",
    "game.sheriff = 3",
    "game.night += 1",
    "game.tokens[5] = 'vagabond'",
    "game.eliminated.append(game.eliminated[0])",
    "game.lent.clear()",
    "game.centre[0] = 'thief'",
    "game.spent.add(2)",
    "game.hooked['at_dusk'] = ()",
]
"""Writes to the village's state a character might try, each outside engine/state.py."""


def test_the_type_checker_refuses_every_write_to_the_state_but_through_its_methods(tmp_path: Path) -> None:
    """A character sees the game as a Play: every attribute read only, every value a frozen record or a read-only
    view, so each write of WRITES fails to type-check, and the same change through the state's methods passes."""
    lines = ["from engine.role import Play", ""]
    starts = []
    for number, write in enumerate(WRITES):
        starts.append(len(lines) + 2)
        lines += [f"def write_{number}(game: Play) -> None:", *(f"    {line}" for line in write.split("\n")), ""]
    lines += ["def through_the_state(game: Play) -> None:",
              "    game.attack(4, 'werewolves'); game.kill(2, 'vote'); game.mark(2, 'infected'); game.appoint(3)"]
    character = tmp_path / "character.py"
    character.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(character)],
                            cwd=ROOT, capture_output=True, text=True, env={"MYPYPATH": str(ROOT), "PATH": ""})
    refused = {int(line.split(":")[1]) for line in result.stdout.splitlines() if ": error:" in line}
    spans = [set(range(start, start + write.count("\n") + 1)) for start, write in zip(starts, WRITES)]
    for span, write in zip(spans, WRITES):
        assert refused & span, f"mypy let this write through: {write}\n{result.stdout}"
    assert refused <= set().union(*spans), result.stdout  # the methods' changes type-check
