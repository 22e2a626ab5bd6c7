"""The pacing of a game played in a real terminal (tmux), read from its voice log afterwards: a 9-seat game played
through six nights at the keypad, `play --voice-log`, its process killed with SIGKILL at night 5 and the game gone on
with `resume`. Each character's empty calls (the character dead, or its powers spent) must last as long as its own
living calls did: within 0.75 × the shortest to 1.25 × the longest, before the resume and after it (the living calls'
lengths come back from the journal).

A call lasts from its wake line to its sleep line, by the ``at`` of each in the voice log. The living answer after a
player's thinking time (a second and a half to three seconds, drawn): that is what sets the pace the empty calls must
keep. A loaded machine delays the game's own work (two CPU hogs and other suites on 2 cores: up to seconds), on either
side of the comparison: the thinking is long beside it, the game is played with `--plain` (no full screen to draw)
and its journal, synced at each answer, is kept in memory. Everything else waits on the voice log or the screen.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import pytest

from engine import Call, Game, Phase, deal_cards
from keystrokes import after, keys_for
from narrator.config import TableConfig, load_config
from narrator.voices import load_voice
from tmux import PATIENCE, Tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by scripts/setup.sh --test")

CONFIG = """\
language: en
seats: 9
deck: [werewolf, seer, witch, guard, fox, villager, villager, villager, villager]
deal: app
sheriff: false
speaker: console
call_floor: 0.5
pause: [10, 12]
"""
"""One werewolf, so that the game lasts past its six nights; a short floor, so that the living's thinking sets the pace; a
fallback range far above it, so that an empty call paced by it (its living calls' lengths lost at the resume) is out
of range."""

SEED = 1
KILLED_AT = ("werewolves", 5)
"""The call the game's process is killed at: the pack's, on night 5, as it waits for its answer."""
HORIZON = ("vote", 6)
"""The call the game is left at: day 6's vote, after six nights (the game would go on to a werewolf's win at night 8:
two more nights of the same calls)."""
PAIRED = ("seer", "guard", "witch", "fox")
"""The characters whose empty calls are checked: each answers before it dies or spends its powers."""
THINKING = (1.5, 3.0)
"""How long a living character thinks before the keys of its answer are typed (seconds)."""


@dataclass
class Planned:
    """The game played ahead: the deal's keys, then each call with the keys that answer it and the thinking time
    before them (None: the keys go at once, no one thinks: a day's call, a call nobody answers)."""

    deal: list[str]
    calls: list[tuple[Call, list[str], float | None]] = field(default_factory=list)


def plan(config: TableConfig) -> Planned:
    """Plays the game ahead to its horizon: the pack devours a villager, then a second (healed by the Witch, who poisons
    a third), the Seer, the Guard, the second again, the Fox; the Fox misses on night 1 and loses his power; nobody is
    voted out."""
    deal = deal_cards(config.table, SEED)
    seat = {role: n for n, role in enumerate(deal.roles, start=1) if role != "villager"}
    villagers = [n for n, role in enumerate(deal.roles, start=1) if role == "villager"]
    wolf = seat["werewolf"]
    victims = {1: villagers[0], 2: villagers[1], 3: seat["seer"], 4: seat["guard"], 5: villagers[1], 6: seat["fox"]}
    game = Game(config.table, deal)
    planned = Planned(["enter"] * 3 * config.table.seats)  # the deal: each seat sees its card, hides it
    rng = random.Random(SEED)
    while True:
        call = game.call
        assert call is not None, f"the game ended ({game.outcome}) before its horizon {HORIZON}"
        if (call.id, call.number) == HORIZON:
            return planned
        night = call.number
        value: object = None
        if not call.needs_answer:
            value = None
        elif call.id == "werewolves":
            value = victims[night]
        elif call.id == "witch":
            value = {"heal": night == 2, "poison": villagers[2] if night == 2 else None}
        elif call.id == "guard":
            value = wolf if night % 2 else seat["witch"]  # never the same seat two nights running
        elif call.id == "seer":
            value = wolf
        elif call.id == "fox":  # three seats without the werewolf: he misses, and loses his power
            value = next(s for s in game.legal() if all((s + d - 1) % 9 + 1 != wolf for d in (-1, 0, 1)))
        elif call.id != "vote":
            value = game.legal()[0]
        typed = keys_for(call, value)
        thinking = rng.uniform(*THINKING) if call.phase is Phase.NIGHT and call.live and typed else None
        planned.calls.append((call, typed + after(game.answer(value)), thinking))


@dataclass(frozen=True)
class Said:
    """A line of the voice log: its key and when it began."""

    key: str
    at: float


class VoiceLog:
    """The voice log as the game writes it, read as it grows: only what was added since the last look (the test's own
    CPU, read again and again, would be taken from the game it times)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: list[Said] = []
        self.done = 0  # the bytes read so far, up to the last whole line

    def look(self) -> list[Said]:
        """Returns the lines written whole so far."""
        if self.path.exists():
            with open(self.path, "rb") as log:
                log.seek(self.done)
                added = log.read()
            whole = added[:added.rfind(b"\n") + 1]
            self.done += len(whole)
            self.lines += [Said(entry["key"], entry["at"]) for entry in map(json.loads, whole.decode().splitlines())]
        return self.lines

    def wait(self, key: str, count: int = 1) -> None:
        """Waits until the log holds ``count`` lines ``key`` (a wake line: the call is open, its answer awaited)."""
        end = time.monotonic() + PATIENCE
        while sum(line.key == key for line in self.look()) < count:
            assert time.monotonic() < end, f"{key} number {count} never came; the log ends {self.lines[-3:]}"
            time.sleep(0.05)


def lengths(lines: list[Said]) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Returns each night call's lengths, from its wake line to its sleep line, in order, before the resume and after
    it (a call opened when the game was killed, with no sleep line, is left out: it is opened again after)."""
    before: dict[str, list[float]] = {}
    after_: dict[str, list[float]] = {}
    found, opened = before, {}
    for line in lines:
        if line.key == "notice.resumed":
            found, opened = after_, {}
        name, _, kind = line.key.rpartition(".")
        if kind == "wake":
            opened[name] = line.at
        elif kind == "sleep" and name in opened:
            found.setdefault(name, []).append(line.at - opened.pop(name))
    return before, after_


def game_command(folder: Path, *args: str) -> str:
    # --plain: the full screen's redraws are CPU that a loaded machine turns into noise in the lengths measured.
    return f"cd {folder} && {sys.executable} -m narrator {' '.join(args)} --plain; echo exit=$?; sleep 600"


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    """The game's folder (its config, journal and voice log): in memory where the system has it (/dev/shm), since the
    journal is synced to disk at each answer, and a wait on a disk other work shares is noise in the lengths measured."""
    memory = Path("/dev/shm")
    if not memory.is_dir():
        yield tmp_path
        return
    made = Path(tempfile.mkdtemp(prefix="werewolf-pacing-", dir=memory))
    try:
        yield made
    finally:
        shutil.rmtree(made, ignore_errors=True)


def test_empty_calls_keep_the_pace_of_their_own_characters_living_calls_in_a_real_terminal(folder: Path) -> None:
    """Each key of a living call is typed once its wake line is in the voice log and its player has thought; the game
    is killed as the pack's call of night 5 waits, and resumed; then every call's length is read from the log."""
    (folder / "table.yaml").write_text(CONFIG, encoding="utf-8")
    config = load_config(str(folder / "table.yaml"))[0]
    planned = plan(config)
    log = VoiceLog(folder / "voice.jsonl")
    tmux = Tmux(f"wn-pacing-{folder.name}")
    tmux.start(game_command(folder, "play", "table.yaml", "--seed", str(SEED), "--voice-log", str(log.path),
                            "--journal-dir", "j"), 100, 30)
    wakes: dict[str, int] = {}  # each call's wake lines said so far, the one said again at the resume too
    try:
        log.wait("deal.app_intro")  # the deal has begun: the keypad reads keys from here on
        pending = list(planned.deal)
        for call, keys, thinking in planned.calls:
            if thinking is not None:
                tmux.send(pending)
                pending = []
                wakes[call.id] = wakes.get(call.id, 0) + 1
                log.wait(f"{call.id}.wake", wakes[call.id])
                if (call.id, call.number) == KILLED_AT:
                    os.kill(tmux.game_process(), signal.SIGKILL)
                    tmux.wait_for(load_voice("en").text("screen.crash_ask"))
                    journal, = (folder / "j").glob("*.jsonl")
                    tmux.respawn(game_command(folder, "resume", "--voice-log", str(log.path), str(journal)))
                    wakes[call.id] += 1  # the running call is opened again: its wake line is said again
                    log.wait(f"{call.id}.wake", wakes[call.id])
                time.sleep(thinking)  # the player thinks: how long the living take is what the empty calls follow
            pending += keys
        tmux.send(pending)
        log.wait(f"{HORIZON[0]}.call", HORIZON[1])  # the game waits there
    finally:
        tmux.close()

    lines = log.look()
    before, after_ = lengths(lines)
    assert [line.key for line in lines].count("notice.resumed") == 1
    made = {name: [c for c, _, _ in planned.calls if c.id == name and c.phase is Phase.NIGHT] for name in PAIRED}
    report = []
    empties = {"before": 0, "after": 0}
    for name in PAIRED:
        took = before.get(name, []) + after_.get(name, [])
        assert len(took) == len(made[name]), f"{name}: {len(took)} calls in the voice log, {len(made[name])} made"
        living = [t for t, c in zip(took, made[name]) if c.live]
        low, high = 0.75 * min(living), 1.25 * max(living)
        for part, found in (("before", before.get(name, [])), ("after", after_.get(name, []))):
            start = 0 if part == "before" else len(before.get(name, []))
            empty = [t for t, c in zip(found, made[name][start:]) if not c.live]
            empties[part] += len(empty)
            report.append(f"{name} {part}: living {min(living):.2f}-{max(living):.2f} s, empty "
                          + (f"{min(empty):.2f}-{max(empty):.2f} s ({len(empty)})" if empty else "none"))
            out = [round(t, 2) for t in empty if not low <= t <= high]
            assert not out, f"{name}'s empty calls {part} the resume out of {low:.2f}-{high:.2f} s: {out}\n" + \
                "\n".join(report)
    print("\n".join(report))
    assert empties == {"before": 8, "after": 6}, empties
