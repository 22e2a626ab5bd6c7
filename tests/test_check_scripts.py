"""`check` on a practice script plays it as `dry-run --silent` does (docs/practice-scripts.md): a script whose answers
come in the wrong order, or that the rules refuse, is not "ok"; what went wrong is said in the script's language, with
the line and the answer as written; a deal names its characters as a deck may."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PRACTICE = {language: (EXAMPLES / f"practice-{language}.yaml").read_text(encoding="utf-8")
            for language in ("en", "fr", "zh")}


def check(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "script.yaml"
    path.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "narrator", "check", "script.yaml"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120, cwd=tmp_path)


def line_of(text: str, piece: str) -> int:
    return text.splitlines().index(piece) + 1


def test_check_passes_a_sound_script() -> None:
    result = subprocess.run([sys.executable, "-m", "narrator", "check", *(str(EXAMPLES / f"practice-{language}.yaml")
                                                                          for language in PRACTICE)],
                            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n") == 3 and result.stderr == ""


@pytest.mark.parametrize("language, words", [
    ("en", ("the answer 'werewolves: 4' is for 'werewolves'", "the narrator calls 'seer' (night 1)", "'- seer: ...'")),
    ("fr", ("la réponse « werewolves: 4 » est pour « werewolves »", "le narrateur appelle « seer » (nuit 1)",
            "« - seer: ... »")),
    ("zh", ("回答“werewolves: 4”是给“werewolves”的", "呼叫的是“seer”（第1夜）", "“- seer: ...”")),
])
def test_check_plays_the_script_and_refuses_answers_in_the_wrong_order(tmp_path: Path, language: str,
                                                                       words: tuple[str, ...]) -> None:
    """The Seer's look and the pack's victim swapped: every answer is well formed, but not in the order asked."""
    text = PRACTICE[language].replace("  - seer: 2\n  - werewolves: 4\n", "  - werewolves: 4\n  - seer: 2\n")
    result = check(tmp_path, text)
    assert result.returncode == 1 and result.stdout == ""
    where = f"script.yaml:{line_of(text, '  - werewolves: 4')}"  # the Seer is called first: the pack's is out of place
    assert where in result.stderr and all(word in result.stderr for word in words), result.stderr


@pytest.mark.parametrize("language, heading, reason", [
    ("en", "dry run stopped: ", "expected true or false"),
    ("fr", "partie d’entraînement arrêtée : ", "ne correspond pas à la question"),
    ("zh", "练习对局已停止：", "不符合"),
])
def test_check_refuses_a_potion_answered_in_words(tmp_path: Path, language: str, heading: str, reason: str) -> None:
    """``heal: non`` is no yes/no of a script (true or false): read as text, refused at its line, in the language."""
    text = PRACTICE[language].replace("heal: false, poison: null", "heal: non, poison: null")
    result = check(tmp_path, text)
    assert result.returncode == 1
    assert result.stderr.startswith(heading) and reason in result.stderr, result.stderr
    assert f"script.yaml:{line_of(text, '  - witch: {heal: non, poison: null}')}" in result.stderr


@pytest.mark.parametrize("language, reason", [("en", "seat 11"), ("fr", "joueur onze"), ("zh", "十一号")])
def test_check_refuses_a_poison_for_a_seat_the_table_lacks(tmp_path: Path, language: str, reason: str) -> None:
    text = PRACTICE[language].replace("heal: false, poison: null", "heal: false, poison: 11")
    result = check(tmp_path, text)
    assert result.returncode == 1 and reason in result.stderr, result.stderr


def test_check_names_a_difference_from_what_the_script_expects(tmp_path: Path) -> None:
    result = check(tmp_path, PRACTICE["fr"].replace("winner: village", "winner: werewolves"))
    assert result.returncode == 1
    assert "le script attend la victoire de « werewolves » ; la partie s’est terminée par « village »" \
        in result.stderr, result.stderr


def test_a_deal_names_its_characters_as_a_deck_may(tmp_path: Path) -> None:
    """A deck takes Voyante or 女巫 for seer or witch: so does the deal; a name it does not know is still refused."""
    text = PRACTICE["fr"].replace("  5: seer", "  5: Voyante").replace("  7: witch", "  7: 女巫")
    assert check(tmp_path, text).returncode == 0
    result = check(tmp_path, PRACTICE["fr"].replace("  5: seer", "  5: Voyant"))
    assert result.returncode == 1 and "unknown character 'Voyant'; did you mean 'Voyante'?" in result.stderr
