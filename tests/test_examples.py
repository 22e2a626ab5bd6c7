"""Every example in examples/ is a sound table config or practice script, in each of the three languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.cli import main

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.yaml"))


def test_examples_cover_the_three_languages() -> None:
    """Examples exist for French, English and Chinese tables."""
    text = " ".join(p.read_text(encoding="utf-8") for p in EXAMPLES)
    for language in ("en", "fr", "zh"):
        assert f"language: {language}" in text


@pytest.mark.slow
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_is_sound(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`werewolf-narrator check` accepts it, in the table's language."""
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(str(path)) and any(ok in out for ok in (": ok (", " : correct (", "：检查通过（"))


@pytest.mark.parametrize("path", [p for p in EXAMPLES if p.name.startswith("practice-")],
                         ids=lambda p: p.name)
def test_practice_example_plays_to_its_expected_end(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The practice examples run to the winner they expect."""
    assert main(["dry-run", str(path), "--silent"]) == 0
