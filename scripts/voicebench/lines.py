"""The lines the bench says: the distinct lines of the English practice games (with a seat wording tried), and
a fixed sample of a voice file's lines for French and Chinese."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Iterable, Sequence
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent.parent

# The players' names of a table that names them, for a seat wording with a {name}.
NAMES = ("Alice", "Bruno", "Chloe", "David", "Emma", "Felix", "Grace", "Hugo", "Iris", "Jules", "Karim", "Lena",
         "Marco", "Nina", "Oscar", "Paula", "Quentin", "Rosa", "Simon", "Tara")


def english_scripts() -> list[Path]:
    """Returns the English practice scripts that play through: examples/practice-*-en and tests/games."""
    from narrator.errors import UserError
    from narrator.script import load_script

    found = []
    for path in sorted(ROOT.glob("examples/practice*-en.yaml")) + sorted(ROOT.glob("tests/games/*.yaml")):
        try:
            script = load_script(str(path))[0]
        except UserError:
            continue
        if script.config.language == "en":
            found.append(path)
    return found


def game_lines(paths: Sequence[Path], wording: str | None = None) -> list[list[str]]:
    """Returns, per script, the lines its game says aloud as the speech engine gets them; with ``wording``, seats
    said that way instead of the voice file's way (a wording with a {name}: the table gives its players names)."""
    from narrator import practice
    from narrator.narration import VOICE
    from narrator.script import load_script
    from narrator.voices import load_voice

    voice = load_voice("en")
    if wording is not None:
        if "{name}" in wording:
            voice = dataclasses.replace(voice, seat_named=wording)
        else:
            voice = dataclasses.replace(voice, seat_word=wording)
    names = wording is not None and "{name}" in wording
    games = []
    # dry_run loads the language's voice itself: the bench hands it the one with the wording tried.
    with mock.patch.object(practice, "load_voice", lambda language: voice):
        for path in paths:
            script = load_script(str(path))[0]
            if script.config.language != "en":
                raise SystemExit(f"{path}: a {script.config.language!r} game; the judge, Whisper tiny.en, hears "
                                 "English only")
            if names:
                config = dataclasses.replace(script.config, names=NAMES[:script.config.table.seats])
                script = dataclasses.replace(script, config=config)
            _, lines = practice.dry_run(script)
            games.append([voice.spoken(line.text) for line in lines if line.channel == VOICE])
    return games


def distinct(games: Iterable[Sequence[str]]) -> list[str]:
    return list(dict.fromkeys(line for game in games for line in game))


def seat_lines(paths: Sequence[Path], count: int) -> list[int]:
    """Returns where the lines that name a seat are in the distinct lines (said the voice file's way), ``count``
    of them spread evenly: lines that change when the seat wording does."""
    plain, probe = game_lines(paths), game_lines(paths, "probe {number}")
    order = distinct(plain)
    carrying = list(dict.fromkeys(order.index(a) for ga, gb in zip(plain, probe) for a, b in zip(ga, gb) if a != b))
    carrying.sort()
    step = max(1, len(carrying) // max(1, count))
    return carrying[::step][:count]


def spread(items: Sequence[str], count: int) -> list[str]:
    """Returns ``count`` of ``items`` spread evenly from the first, in their order (all of them when fewer).

    >>> spread(list("abcdefghij"), 3)
    ['a', 'd', 'h']
    """
    if count >= len(items):
        return list(items)
    return [items[round(i * len(items) / count)] for i in range(count)]


SAMPLE_SEATS = 12


def voice_sample(language: str, count: int) -> list[tuple[str, str]]:
    """Returns ``count`` lines of the language's voice file, each as written and as the speech engine gets it: half
    of them fixed lines (the calls), half about a seat or a character at a 12-seat table whose first eight players
    have the names of examples/starter-LANG.yaml, with every character of the voice file; spread evenly, the same
    every run."""
    from narrator.config import load_config
    from narrator.speak import fixed_lines, table_lines
    from narrator.voices import load_voice

    voice = load_voice(language)
    plain = dataclasses.replace(voice, speech=())  # the lines as written: what the listener should understand
    starter = ROOT / "examples" / f"starter-{language}.yaml"
    names = list(load_config(str(starter))[0].names) if starter.is_file() else []
    names = (names + [None] * SAMPLE_SEATS)[:SAMPLE_SEATS]
    fixed = fixed_lines(plain)
    about = table_lines(plain, SAMPLE_SEATS, names, list(voice.roles))
    chosen = spread(fixed, count - count // 2) + spread(about, count // 2)
    return [(text, voice.spoken(text)) for text in chosen]
