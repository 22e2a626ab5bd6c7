"""Adding a character is adding its file and its voice lines, nothing else. A throw-away character, the
Sleepwalker, is written into a copy of the project — one module in engine/roles/ and a few lines in each voice file
— and played there: called at night in its place, its state kept and its hook taking effect, in English, French and
Chinese, through the narrator's own practice runner. No other file of the copy is touched."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SLEEPWALKER = '''"""The Sleepwalker (a character made up by the tests): once a game, at night, she may walk in her sleep; the
werewolves' bite that night does not find her in her bed."""

from __future__ import annotations

from dataclasses import dataclass

from .. import answers
from ..role import CallSpec, Flow, Play, Role
from ..state import Kept
from ..types import Kind


@dataclass(frozen=True)
class Walk(Kept):
    """Whether she has walked in her sleep (once a game)."""

    card = "sleepwalker"
    renewed = True
    walked: bool = False


@dataclass(frozen=True)
class Away(Kept):
    """She is out of her bed tonight."""

    card = "sleepwalker"
    nightly = True
    away: bool = False


class Sleepwalker(Role):
    id = "sleepwalker"
    villager_power = True
    death_order = -4

    def survives(self, game: Play, seat: int, cause: str) -> bool:
        return cause == "werewolves" and game.card(seat) == self.id and game.kept(Away).away


def sleepwalker(game: Play) -> Flow:
    """Asked every night while she has not walked; she may pass."""
    seat = game.actor("sleepwalker")
    if seat is None or game.kept(Walk).walked:
        yield from game.idle("sleepwalker", Kind.YES_NO)
        return
    walks = yield game.ask("sleepwalker", Kind.YES_NO, actors=(seat,), check=answers.yes_no)
    if walks:
        game.keep(Walk(walked=True))
        game.keep(Away(away=True))


ROLE = Sleepwalker()
CALLS = (CallSpec("sleepwalker", Kind.YES_NO, frozenset({"sleepwalker"}), sleepwalker, after="werewolves"),)
'''

LINES = {
    "en": {"roles": "Sleepwalker", "named_roles": "the Sleepwalker",
           "lines": {"sleepwalker.wake": "Sleepwalker, wake up. Will you walk in your sleep tonight?",
                     "sleepwalker.sleep": "Sleepwalker, go back to sleep."}},
    "fr": {"roles": "Somnambule", "named_roles": "la Somnambule",
           "lines": {"sleepwalker.wake": "La Somnambule se réveille. Va-t-elle marcher cette nuit ?",
                     "sleepwalker.sleep": "La Somnambule se rendort."}},
    "zh": {"roles": "梦游者", "named_roles": "梦游者",
           "lines": {"sleepwalker.wake": "梦游者请睁眼。今晚你要梦游吗？", "sleepwalker.sleep": "梦游者请闭眼。"}},
}

SCRIPT = """\
table: {{language: {language}, deck: [werewolf, werewolf, seer, sleepwalker, villager, villager, villager, villager],
        sheriff: false}}
deal: {{1: werewolf, 2: sleepwalker, 3: seer, 4: villager, 5: werewolf, 6: villager, 7: villager, 8: villager}}
answers:
  - seer: 1
  - werewolves: 2
  - sleepwalker: yes
  - vote: 1
  - seer: 5
  - werewolves: 2
  - vote: 5
expect: {{winner: village, eliminated: [1, 2, 5]}}
"""


def insert(text: str, section: str, entries: dict[str, str]) -> str:
    """Returns the voice file ``text`` with ``entries`` added at the top of its mapping ``section``."""
    header = f"\n{section}:\n"
    at = text.index(header) + len(header)
    return text[:at] + "".join(f"  {key}: {json.dumps(value, ensure_ascii=False)}\n" for key, value in entries.items()) \
        + text[at:]


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project with the Sleepwalker added: its module and its voice lines, nothing else."""
    root = tmp_path_factory.mktemp("sleepwalker")
    for folder in ("engine", "narrator", "voices"):
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "engine" / "roles" / "sleepwalker.py").write_text(SLEEPWALKER, encoding="utf-8")
    for language, lines in LINES.items():
        voice = root / "voices" / f"{language}.yaml"
        text = voice.read_text(encoding="utf-8")
        text = insert(text, "roles", {"sleepwalker": lines["roles"]})
        if "\nnamed_roles:\n" in text:
            text = insert(text, "named_roles", {"sleepwalker": lines["named_roles"]})
        voice.write_text(insert(text, "lines", lines["lines"]), encoding="utf-8")
    return root


def changed_files(copy: Path) -> list[str]:
    """Returns the copy's files that differ from the project's, or that the project lacks."""
    changed = []
    for path in sorted(copy.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            original = ROOT / path.relative_to(copy)
            if not original.is_file() or original.read_bytes() != path.read_bytes():
                changed.append(path.relative_to(copy).as_posix())
    return changed


def run(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, timeout=120)


def test_the_sleepwalker_touches_her_own_file_and_the_voice_files_only(copy: Path) -> None:
    assert changed_files(copy) == ["engine/roles/sleepwalker.py", "voices/en.yaml", "voices/fr.yaml",
                                   "voices/zh.yaml"]


def test_the_sleepwalker_is_known_to_the_engine_in_her_place_in_the_night(copy: Path) -> None:
    probe = run(copy, "-c", "import engine, engine.calls as c; from engine import Table, Deal, Game, Rules; "
                            "deck = ('werewolf', 'sleepwalker') + ('villager',) * 4; "
                            "g = Game(Table(6, deck, Rules(sheriff=False)), Deal(deck)); "
                            "print(engine.ROLES['sleepwalker'].id, c.call_kinds()['sleepwalker'].value, "
                            "g.night_order(1), g.night_order(2))")
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split()[:2] == ["sleepwalker", "yes_no"]
    assert "('werewolves', 'sleepwalker')" in probe.stdout  # right after the werewolves, every night


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_the_sleepwalker_plays_a_practice_game_in_each_language(copy: Path, tmp_path: Path, language: str) -> None:
    script = tmp_path / f"sleepwalker-{language}.yaml"
    script.write_text(SCRIPT.format(language=language), encoding="utf-8")
    report = tmp_path / "report.json"
    done = run(copy, "-m", "narrator", "dry-run", str(script), "--report", str(report))
    assert done.returncode == 0, done.stdout + done.stderr
    played = json.loads(report.read_text(encoding="utf-8"))
    calls = [c["call"] for c in played["calls"]]
    # Her call follows the werewolves' on both nights (on the second made for fair play only: she has walked).
    assert [calls[i - 1] for i, call in enumerate(calls) if call == "sleepwalker"] == ["werewolves", "werewolves"]
    # Night 1 she walked: the bite did not find her, and nobody died; night 2 she was in her bed.
    assert [(e["seat"], e["cause"]) for e in played["eliminated"]] == [(1, "vote"), (2, "werewolves"), (5, "vote")]
    said = [line["text"] for line in played["lines"] if line["key"] == "sleepwalker.wake"]
    assert said == [LINES[language]["lines"]["sleepwalker.wake"]] * 2
