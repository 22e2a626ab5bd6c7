"""Adding a character is adding its file and its voice lines, nothing else. A throw-away character, the
Sleepwalker, is written into a copy of the project — one module in engine/roles/ and a few lines in each voice file
— and played there: called at night in its place, its state kept and its hook taking effect, in English, French and
Chinese, through the narrator's own practice runner. No other file of the copy is touched.

A character whose call takes an answer of a new shape adds one module more: the Weathervane points the wind left or
right, a shape no other call has. Her module declares the kind (engine.Kind, with the answers of its shape) and a
module of narrator/shapes/ how the keypad reads it and how a practice script writes it; she is played in a copy at
the keypad and in practice games, in the three languages, and no other file is touched."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

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


WEATHERVANE = '''"""The Weathervane (a character made up by the tests): each night she points the wind to her left or to her
right; the werewolves' bite does not find her living neighbour on that side."""

from __future__ import annotations

from dataclasses import dataclass

from ..answers import shown
from ..role import CallSpec, Flow, Play, Role
from ..state import Kept
from ..types import IllegalAnswer, Kind

WIND = Kind("wind", lambda call: ["left", "right"])
"""Where the wind blows: a shape of answer no seeds' character has."""

KINDS = (WIND,)


@dataclass(frozen=True)
class Blows(Kept):
    """Where she pointed the wind tonight."""

    card = "weathervane"
    nightly = True
    towards: str = ""


def wind(value: object) -> str:
    if value in ("left", "right"):
        return str(value)
    raise IllegalAnswer(f"expected left or right, got {shown(value)}", key="refusal.shape")


class Weathervane(Role):
    id = "weathervane"
    villager_power = True
    death_order = -4

    def survives(self, game: Play, seat: int, cause: str) -> bool:
        towards = game.kept(Blows).towards
        holder = game.actor(self.id)
        if cause != "werewolves" or not towards or holder is None:
            return False
        left, right = (game.neighbours(holder) * 2)[:2]
        return seat == (left if towards == "left" else right)


def weathervane(game: Play) -> Flow:
    seat = game.actor("weathervane")
    if seat is None:
        yield from game.idle("weathervane", WIND)
        return
    towards = yield game.ask("weathervane", WIND, actors=(seat,), check=wind)
    game.keep(Blows(towards))


ROLE = Weathervane()
CALLS = (CallSpec("weathervane", WIND, frozenset({"weathervane"}), weathervane, after="seer"),)
'''

WIND_SHAPE = '''"""Where the wind blows (the Weathervane's): left or right."""

from __future__ import annotations

from engine import KINDS, Answer, Call

from . import Pad, Shape


def wind(pad: Pad, call: Call) -> Answer:
    return pad.choice("prompt.wind", {1: ("left", pad.text("answer.left")), 2: ("right", pad.text("answer.right"))})


SHAPES = (Shape(KINDS["wind"], wind, "`left` or `right`", {"enum": ["left", "right"]}),)
'''

VANE_LINES = {
    "en": {"roles": "Weathervane", "named_roles": "the Weathervane",
           "lines": {"weathervane.wake": "Weathervane, wake up. Where does the wind blow tonight?",
                     "weathervane.sleep": "Weathervane, go back to sleep.",
                     "prompt.wind": "1 for your left, 2 for your right, then Enter.",
                     "answer.left": "to the left", "answer.right": "to the right"}},
    "fr": {"roles": "Girouette", "named_roles": "la Girouette",
           "lines": {"weathervane.wake": "La Girouette se réveille. D'où souffle le vent cette nuit ?",
                     "weathervane.sleep": "La Girouette se rendort.",
                     "prompt.wind": "1 pour ta gauche, 2 pour ta droite, puis Entrée.",
                     "answer.left": "vers la gauche", "answer.right": "vers la droite"}},
    "zh": {"roles": "风向标", "named_roles": "风向标",
           "lines": {"weathervane.wake": "风向标请睁眼。今晚风往哪边吹？", "weathervane.sleep": "风向标请闭眼。",
                     "prompt.wind": "1 是你的左边，2 是你的右边，然后按回车。",
                     "answer.left": "向左", "answer.right": "向右"}},
}

VANE_SCRIPT = """\
table: {{language: {language}, deck: [werewolf, werewolf, seer, weathervane, villager, villager, villager, villager],
        sheriff: false}}
deal: {{1: werewolf, 2: villager, 3: weathervane, 4: seer, 5: werewolf, 6: villager, 7: villager, 8: villager}}
answers:
  - seer: 1
  - weathervane: right
  - werewolves: 2
  - vote: 1
  - seer: 5
  - weathervane: right
  - werewolves: 4
  - vote: 5
expect: {{winner: village, eliminated: [1, 4, 5]}}
"""


def insert(text: str, section: str, entries: dict[str, str]) -> str:
    """Returns the voice file ``text`` with ``entries`` added at the top of its mapping ``section``."""
    header = f"\n{section}:\n"
    at = text.index(header) + len(header)
    return text[:at] + "".join(f"  {key}: {json.dumps(value, ensure_ascii=False)}\n" for key, value in entries.items()) \
        + text[at:]


def copy_with(root: Path, modules: dict[str, str], voice_lines: dict[str, dict[str, Any]]) -> Path:
    """Makes in ``root`` a copy of the project with ``modules`` (path: text) and ``voice_lines`` added, nothing else."""
    for folder in ("engine", "narrator", "voices"):
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for path, text in modules.items():
        (root / path).write_text(text, encoding="utf-8")
    for language, lines in voice_lines.items():
        voice = root / "voices" / f"{language}.yaml"
        text = voice.read_text(encoding="utf-8")
        text = insert(text, "roles", lines["roles"])
        if "\nnamed_roles:\n" in text:
            text = insert(text, "named_roles", lines["named_roles"])
        voice.write_text(insert(text, "lines", lines["lines"]), encoding="utf-8")
    return root


def card_lines(card: str, lines: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Returns a character's voice lines by language, its names keyed by its card."""
    return {language: {"roles": {card: said["roles"]}, "named_roles": {card: said["named_roles"]},
                       "lines": said["lines"]} for language, said in lines.items()}


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project with the Sleepwalker added: its module and its voice lines, nothing else."""
    return copy_with(tmp_path_factory.mktemp("sleepwalker"), {"engine/roles/sleepwalker.py": SLEEPWALKER},
                     card_lines("sleepwalker", LINES))


@pytest.fixture(scope="module")
def vane(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project with the Weathervane added: her module, her shape's module, her voice lines."""
    return copy_with(tmp_path_factory.mktemp("weathervane"), {"engine/roles/weathervane.py": WEATHERVANE,
                                                              "narrator/shapes/wind.py": WIND_SHAPE},
                     card_lines("weathervane", VANE_LINES))


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


def practice(copy: Path, folder: Path, script: str) -> dict[str, Any]:
    """Plays the practice ``script`` in the ``copy`` of the project; returns its report."""
    path = folder / "script.yaml"
    path.write_text(script, encoding="utf-8")
    report = folder / "report.json"
    done = run(copy, "-m", "narrator", "dry-run", str(path), "--report", str(report))
    assert done.returncode == 0, done.stdout + done.stderr
    played: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    return played


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_the_sleepwalker_plays_a_practice_game_in_each_language(copy: Path, tmp_path: Path, language: str) -> None:
    played = practice(copy, tmp_path, SCRIPT.format(language=language))
    calls = [c["call"] for c in played["calls"]]
    # Her call follows the werewolves' on both nights (on the second made for fair play only: she has walked).
    assert [calls[i - 1] for i, call in enumerate(calls) if call == "sleepwalker"] == ["werewolves", "werewolves"]
    # Night 1 she walked: the bite did not find her, and nobody died; night 2 she was in her bed.
    assert [(e["seat"], e["cause"]) for e in played["eliminated"]] == [(1, "vote"), (2, "werewolves"), (5, "vote")]
    said = [line["text"] for line in played["lines"] if line["key"] == "sleepwalker.wake"]
    assert said == [LINES[language]["lines"]["sleepwalker.wake"]] * 2


def test_a_new_shape_of_answer_is_one_module_more_and_nothing_else(vane: Path) -> None:
    assert changed_files(vane) == ["engine/roles/weathervane.py", "narrator/shapes/wind.py", "voices/en.yaml",
                                   "voices/fr.yaml", "voices/zh.yaml"]


def test_the_weathervanes_kind_has_its_answers_and_the_engine_checks_them(vane: Path) -> None:
    probe = run(vane, "-c", "from engine import Table, Deal, Game, Rules, IllegalAnswer; "
                            "deck = ('werewolf', 'weathervane') + ('villager',) * 4; "
                            "g = Game(Table(6, deck, Rules(sheriff=False)), Deal(deck)); g.answer(None); "
                            "print(g.call.id, g.call.kind.value, g.candidates(), g.legal());\n"
                            "try: g.answer('up')\nexcept IllegalAnswer as e: print(e.key)")
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.splitlines() == ["weathervane wind ['left', 'right'] ['left', 'right']", "refusal.shape"]


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_the_weathervane_plays_a_practice_game_in_each_language(vane: Path, tmp_path: Path, language: str) -> None:
    played = practice(vane, tmp_path, VANE_SCRIPT.format(language=language))
    # The wind blew to her right both nights: seat 2 (on her right) was not found; the Seer on her left was.
    assert [(e["seat"], e["cause"]) for e in played["eliminated"]] == [(1, "vote"), (4, "werewolves"), (5, "vote")]
    said = [line["text"] for line in played["lines"] if line["key"] == "weathervane.wake"]
    assert said == [VANE_LINES[language]["lines"]["weathervane.wake"]] * 2


KEYPAD_GAME = """
import sys
from engine import deal_cards, Game
from keystrokes import keys_for, after
from helpers import play_keys
from narrator.config import load_config
from narrator.play import NewGame

config, _ = load_config(sys.argv[1])
game = Game(config.table, deal_cards(config.table, 3))
keys = ["enter"] * 3 * config.table.seats
WIND = ["9", "enter", "2", "enter", "enter"]  # a number that is no option first (refused), then 2: to her right
while not game.over:
    call = game.call
    value = "right" if call.id == "weathervane" and call.live else (game.legal()[0] if call.needs_answer else None)
    keys += WIND if call.id == "weathervane" and call.live else keys_for(call, value)
    keys += after(game.answer(value))
played = play_keys(config, keys, seed=3, start=NewGame())
print(played.journal == game.journal, [v for c, v in zip(played.calls, played.journal) if c.id == "weathervane"])
"""


def test_the_weathervane_answers_at_the_keypad(vane: Path, tmp_path: Path) -> None:
    config = tmp_path / "table.yaml"
    config.write_text("language: zh\ndeck: [werewolf, weathervane, seer, villager, villager, villager]\n"
                      "sheriff: false\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": f"{vane}{os.pathsep}{ROOT / 'tests'}", "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", KEYPAD_GAME, str(config)], cwd=vane, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    same, answers = done.stdout.split(" ", 1)
    assert same == "True"  # the keys the plan typed made the very game planned: 9 refused, then 2 read as "right"
    assert "right" in answers and "left" not in answers
