"""The named twin pairs played in a real terminal (tmux), through `python -m narrator play CONFIG
--seed S --voice-log FILE` at the keypad, in English, French and Chinese: the voice logs are the same line for
line, and the screen (capture-pane) is the same whenever the narrator rests while nobody holds the secret.

In a real terminal only the moments the narrator rests can be captured: a key awaited, and a dead or powerless
character's call (its pause, set to 1.5 s here so that the screen can be read during it). Each twin is first
played in-process (tests/twins.py): where it rests, after how many lines and keys, and whether its screen
must match its twin's there. Every game of a language runs side by side.
"""

from __future__ import annotations

import json
import shutil
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from test_twins import NAMED, TABLE

from narrator.voices import load_voice
from tmux import Tmux
from twins import Moment, Played, Twin, comparable, play_twin, voice_difference

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by scripts/setup.sh --test")

PAUSE = 3.0
"""A dead character's call rests this long: the only rest while every eye is closed, long enough to read (1.5 s was
overtaken on a loaded machine: the screen settled after the call's sleep line was said)."""


@dataclass
class Game:
    """One twin in its tmux window: what the in-process game said, where to read the screen, what it showed."""

    name: str
    twin: Twin
    model: Played
    log: Path
    rests: dict[int, Moment] = field(default_factory=dict)  # lines said before -> the first rest there
    panes: dict[int, str] = field(default_factory=dict)
    overtaken: set[int] = field(default_factory=set)  # rests the game had left before its screen settled: not read
    error: str = ""

    def said(self) -> list[tuple[str, str]]:
        if not self.log.exists():
            return []
        lines = self.log.read_text(encoding="utf-8").splitlines()
        return [(e["key"], e["text"]) for e in map(json.loads, lines)]


def wait_said(game: Game, lines: int, seconds: float = 60, more: bool = False) -> None:
    """Waits until the game has said ``lines`` lines (or ``more``); fails if it says more (it would be past the
    rest)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        said = len(game.said())
        if more and said >= lines:
            return
        if said > lines:
            raise AssertionError(f"{game.name}: {said} lines said, the rest was expected after {lines}")
        if said == lines:
            return
        time.sleep(0.03)
    raise AssertionError(f"{game.name}: {len(game.said())} lines said after {seconds} s, {lines} expected")


def settled(tmux: Tmux, target: str) -> str:
    """Returns the pane once it has not changed for 0.4 s (the screen is drawn). Two captures 80 ms apart were not
    enough on a loaded machine: the footer came a moment after the panel, and one twin was read in between."""
    shown, still = tmux.screen(target), 0
    for _ in range(60):
        time.sleep(0.08)
        again = tmux.screen(target)
        still = still + 1 if again == shown else 0
        if still == 5:
            return shown
        shown = again
    return shown


def drive(tmux: Tmux, game: Game) -> None:
    """Presses the twin's keys, stopping at each rest to read the screen."""
    try:
        wait_said(game, 1, more=True)  # the deal has begun: the keypad reads keys from here on
        keys, sent = game.model.keys, 0
        for said, rest in sorted(game.rests.items()):
            tmux.send(keys[sent:rest.keys], game.name)
            sent = rest.keys
            wait_said(game, said)
            shown = settled(tmux, game.name)
            if len(game.said()) == said:
                game.panes[said] = shown
            else:  # the game went on while the screen was read: not a screen at rest, in neither twin
                game.overtaken.add(said)
        tmux.send(keys[sent:], game.name)
        wait_said(game, len(game.model.voice))
    except Exception as exc:  # reported by the test, with the screen
        game.error = f"{exc}\n{tmux.screen(game.name)}"


def rests(model: Played, wanted: list[int]) -> dict[int, Moment]:
    """Returns, for each stretch in ``wanted``, the first moment the narrator rests in it (a key, a pause)."""
    found: dict[int, Moment] = {}
    for m in model.moments:
        if m.kind != "said" and m.said in wanted and m.said not in found:
            found[m.said] = m
    return found


_played: dict[str, dict[str, tuple[Game, Game]]] = {}


def play_side_by_side(folder: Path, language: str) -> dict[str, tuple[Game, Game]]:
    """Plays every named pair's twins in ``language``, each in its own tmux window, all at once (once per run)."""
    if language in _played:
        return _played[language]
    config = folder / "table.yaml"
    config.write_text(TABLE.format(language=language, pause=PAUSE), encoding="utf-8")
    games: dict[tuple[int, tuple[str, ...]], Game] = {}
    pairs: dict[str, tuple[Game, Game]] = {}
    for pair, twins in sorted(NAMED.items()):
        played = [play_twin(twin, language) for twin in twins]
        wanted = comparable(*played)
        two = []
        for twin, model in zip(twins, played):
            same = games.get((twin.seed, tuple(model.keys)))  # a twin of two pairs is played once
            if same is None:
                name = f"g{len(games)}"
                same = games[twin.seed, tuple(model.keys)] = Game(name, twin, model, folder / f"{name}.jsonl")
            same.rests.update(rests(model, wanted))
            two.append(same)
        pairs[pair] = (two[0], two[1])
    tmux = Tmux(f"wn-twins-{language}-{folder.name}")
    try:
        for game in games.values():
            command = (f"{sys.executable} -m narrator play {config} --seed {game.twin.seed} --voice-log {game.log} "
                       f"--journal-dir {folder / game.name}; sleep 60")
            tmux.run("new-session", "-d", "-s", game.name, "-x", "110", "-y", "40", command)
        drivers = [threading.Thread(target=drive, args=(tmux, game)) for game in games.values()]
        for thread in drivers:
            thread.start()
        for thread in drivers:
            thread.join()
    finally:
        tmux.close()
    _played[language] = pairs
    return pairs


@pytest.mark.parametrize("pair", sorted(NAMED))
@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_named_twins_in_a_real_terminal(tmp_path_factory: pytest.TempPathFactory, language: str, pair: str) -> None:
    """A named pair, played at the keypad in a terminal, says the same lines in the same order, and
    shows the same screen whenever it rests while nobody holds the secret."""
    one, other = play_side_by_side(tmp_path_factory.mktemp(f"twins-{language}"), language)[pair]
    for game in (one, other):
        assert not game.error, f"{game.name} ({game.twin.seed}): {game.error}"
        assert game.said() == game.model.voice, f"{game.name}: the terminal's game is not the harness's"
    difference = voice_difference(Played(one.said(), [], []), Played(other.said(), [], []))
    assert not difference, difference
    rested = comparable(one.model, other.model)
    read = [said for said in rested if said in one.panes and said in other.panes]
    assert read, "no screen read at a rest while nobody holds the secret"
    # A rest is left unread only when the game went on while its screen was being read (a loaded machine).
    assert all(said in one.overtaken | other.overtaken for said in rested
               if said in one.rests and said in other.rests and said not in read)
    # What is compared holds the eyes banner and the seating circle (its seat 9 among the others).
    voice = load_voice(language)
    banners = (voice.text("screen.eyes_closed"), voice.text("screen.eyes_open"))
    assert all(any(b in one.panes[said] for b in banners) and " 9" in one.panes[said] for said in read)
    differences = [f"after {said} lines the screens differ:\n{one.panes[said]}\n{other.panes[said]}"
                   for said in read if one.panes[said] != other.panes[said]]
    assert not differences, "\n\n".join(differences)
