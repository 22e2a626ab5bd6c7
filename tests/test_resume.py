"""The write-ahead journal, `resume`, the host menu, and the faults a game survives."""

from __future__ import annotations

import errno
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import pytest

from engine import Answer, Call, Deal, Game, Phase, deal_cards
from helpers import play_keys
from keystrokes import Recorder, ScriptedKeys, after, keys_for, plan_keys
from narrator.cli import main
from narrator.config import TableConfig, config_from_journal
from narrator.errors import GameStopped, UserError
from narrator.journal import Entry, Journal, read_journal
from narrator.narration import in_the_dark
from narrator.play import STARTER, NewGame, Resumed, Timing, journal_header, play
from narrator.table import TableIO
from narrator.practice import dry_run
from narrator.practice import journal_header as practice_header
from narrator.screen import PlainScreen
from narrator.script import load_script
from narrator.voices import load_voice

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "tests" / "games"


def narrator_command(*args: str | Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Runs `werewolf-narrator ARGS` in a process of its own."""
    return subprocess.run([sys.executable, "-m", "narrator", *map(str, args)], cwd=ROOT, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def same_game(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert got["winner"] == want["winner"]
    assert got["eliminated"] == want["eliminated"]
    assert got["calls"] == want["calls"]
    assert got["lines"] == want["lines"]


def journaled_calls(path: Path) -> list[dict[str, object]]:
    """The calls a journal answers, as the report lists them."""
    return [{"phase": e.phase, "number": e.number, "call": e.call} for e in read_journal(str(path))[1]]


def has_whole_header(path: Path) -> bool:
    try:
        return b"\n" in path.read_bytes()
    except FileNotFoundError:
        return False


# -- 1. SIGKILL at random moments of practice games ----------------------------------------------

KILLED_GAMES = ("first_game", "infected_father_infects_the_seer", "mixed_lovers_win", "piper_wins",
                "sheriff_runoff_tiebreak_successor")
TRIALS = 64
PACE = 0.012  # ~40-60 lines a game: a paced run lasts about 0.5-1 s
MARGIN = 0.1


@dataclass(frozen=True)
class Practice:
    script: Path
    report: dict[str, Any]
    startup: float  # how long the unpaced run took: about the time before the first line

    @property
    def duration(self) -> float:
        return self.startup + len(self.report["lines"]) * PACE

    @property
    def last_answer(self) -> float:
        """About when the last answer is journaled: the winner and the summary are said after it."""
        ending = next(i for i, line in enumerate(self.report["lines"]) if line["key"].startswith("end."))
        return self.startup + ending * PACE


def uninterrupted(name: str, folder: Path) -> Practice:
    script = folder / f"{name}.yaml"
    shutil.copy(GAMES / f"{name}.yaml", script)
    started = time.monotonic()
    result = narrator_command("dry-run", script, "--silent", "--report", folder / f"{name}.json")
    assert result.returncode == 0, result.stderr
    return Practice(script, json.loads((folder / f"{name}.json").read_text()), time.monotonic() - started)


def journal_lines(journal: Path) -> int:
    """Returns how many whole lines the journal has now (0 before it exists)."""
    try:
        return journal.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def killed(command: list[str | Path], journal: Path, trial: int, rng: random.Random, practice: Practice,
           stops: Sequence[int], after: int = 0) -> int:
    """Runs `werewolf-narrator COMMAND --pace` and stops it at a random moment with the signals ``stops``, one
    right after the other; returns its status."""
    run = subprocess.Popen([sys.executable, "-m", "narrator", *map(str, command), "--pace", str(PACE)], cwd=ROOT,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if trial % 4:
        # Mostly mid-game, whatever this machine's speed: killed once a random number of answers is on
        # the disk (a little more may be written between the look and the kill); a resume, after ``after``.
        last = len(practice.report["calls"]) - 1
        target = rng.randint(min(after + 1, last), last)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and run.poll() is None and journal_lines(journal) <= target:
            time.sleep(0.002)
    else:
        time.sleep(rng.uniform(0, practice.duration + MARGIN))  # also before the journal, and after the end
    for stop in stops:  # not yet reaped, so the pid is still ours even if the run has finished
        run.send_signal(stop)
    status = run.wait(timeout=60)
    assert status in (0, *(-stop for stop in stops)), (trial, status)
    return status


def kill_and_resume(trial: int, practice: Practice, folder: Path, stops: Sequence[int] = (signal.SIGKILL,),
                    again: bool = False) -> str:
    """Kills a paced dry run at a random moment (with ``stops``; ``again``: its resume killed too), resumes its
    journal; returns how far the run had got."""
    rng = random.Random(trial)
    journal = folder / f"trial-{trial}.jsonl"
    resumed = folder / f"trial-{trial}.json"
    status = killed(["dry-run", practice.script, "--silent", "--journal", journal], journal, trial, rng, practice,
                    stops)
    started = has_whole_header(journal)
    entries = len(read_journal(str(journal))[1]) if started else 0
    if again and started:
        killed(["resume", journal, "--silent"], journal, trial, rng, practice, stops, after=journal_lines(journal))
    result = narrator_command("resume", journal, "--silent", "--report", resumed)
    assert "Traceback" not in result.stderr, (trial, result.stderr)
    if not started:
        assert result.returncode == 1, (trial, result.stderr)
        assert str(journal) in result.stderr, (trial, result.stderr)
        return "not started"
    assert result.returncode == 0, (trial, practice.script.name, result.stderr)
    same_game(json.loads(resumed.read_text()), practice.report)
    assert journaled_calls(journal) == practice.report["calls"], trial
    if status == 0 or entries == len(practice.report["calls"]):
        return "finished"
    return "mid-game" if entries else "header only"


@pytest.mark.slow
def test_a_practice_game_killed_at_any_moment_resumes_to_the_same_end(tmp_path: Path) -> None:
    """Issue 5, done when: SIGKILL at random moments of practice games (64 trials); each resumed game
    ends exactly as the uninterrupted run (winner, eliminations, calls, lines)."""
    practices = [uninterrupted(name, tmp_path) for name in KILLED_GAMES]
    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(lambda t: kill_and_resume(t, practices[t % len(practices)], tmp_path),
                                 range(TRIALS)))
    counts = {kind: outcomes.count(kind) for kind in ("not started", "header only", "mid-game", "finished")}
    print(f"SIGKILL trials: {counts}")
    assert counts["mid-game"] >= 40, counts


# -- 2. a torn last entry ------------------------------------------------------------------------

def finished_dry_run(folder: Path, name: str = "first_game") -> tuple[Path, Path, dict[str, Any]]:
    """A practice script copied to ``folder``, its whole journal and its report."""
    script = folder / f"{name}.yaml"
    shutil.copy(GAMES / f"{name}.yaml", script)
    journal, whole = folder / "whole.jsonl", folder / "whole.json"
    assert main(["dry-run", str(script), "--silent", "--journal", str(journal), "--report", str(whole)]) == 0
    return script, journal, json.loads(whole.read_text())


@pytest.mark.parametrize("kept", [0, 6, 13])
@pytest.mark.parametrize("tear", ["half a line", "half a line and its newline"])
def test_a_torn_last_entry_is_ignored_and_cut_before_the_game_goes_on(tmp_path: Path, kept: int, tear: str,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A torn last entry is ignored; the game resumes from the last whole one, ends as the
    uninterrupted run, and its answers follow the whole lines (the journal reads back whole)."""
    _, whole, want = finished_dry_run(tmp_path)
    lines = whole.read_text().splitlines(keepends=True)
    torn = lines[1 + kept]
    journal = tmp_path / "torn.jsonl"
    journal.write_text("".join(lines[: 1 + kept]) + torn[: len(torn) // 2] + ("\n" if "newline" in tear else ""))
    assert len(read_journal(str(journal))[1]) == kept
    assert main(["resume", str(journal), "--silent", "--report", str(tmp_path / "resumed.json")]) == 0, \
        capsys.readouterr().err
    same_game(json.loads((tmp_path / "resumed.json").read_text()), want)
    assert read_journal(str(journal))[1] == read_journal(str(whole))[1]
    assert journal.read_text() == whole.read_text()


def test_a_finished_practice_game_resumed_says_it_had_ended(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """It printed nothing at all (every line replayed silently); its report is still the game's."""
    _, whole, want = finished_dry_run(tmp_path)
    capsys.readouterr()
    assert main(["resume", str(whole), "--silent", "--report", str(tmp_path / "again.json")]) == 0
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.startswith(f"{whole}: this practice game had ended already (the winner: {want['winner']}): "
                              "nothing is left to play"), out.err
    same_game(json.loads((tmp_path / "again.json").read_text()), want)


# -- 3. journals that cannot be resumed ----------------------------------------------------------

def replace_line(number: int, text: str) -> Callable[[Path, Path], None]:
    def damage(journal: Path, script: Path) -> None:
        lines = journal.read_text().splitlines(keepends=True)
        lines[number - 1] = text + "\n"
        journal.write_text("".join(lines))
    return damage


def edit_entry(number: int, **changes: object) -> Callable[[Path, Path], None]:
    def damage(journal: Path, script: Path) -> None:
        lines = journal.read_text().splitlines(keepends=True)
        lines[number - 1] = json.dumps({**json.loads(lines[number - 1]), **changes}) + "\n"
        journal.write_text("".join(lines))
    return damage


def first_answer_line(journal: Path) -> int:
    """The line of the journal's first answer that is a seat (first_game: Cupid's pair is first)."""
    for number, line in enumerate(journal.read_text().splitlines()[1:], start=2):
        if isinstance(json.loads(line).get("answer"), int):
            return number
    raise AssertionError("no seat answered")


def seat_changed(journal: Path, script: Path) -> None:
    number = first_answer_line(journal)
    lines = journal.read_text().splitlines(keepends=True)
    entry = json.loads(lines[number - 1])
    lines[number - 1] = json.dumps({**entry, "answer": entry["answer"] % 8 + 1}) + "\n"
    journal.write_text("".join(lines))


def script_edited(journal: Path, script: Path) -> None:
    script.write_text(script.read_text() + "# edited after the dry run\n")


def script_removed(journal: Path, script: Path) -> None:
    script.unlink()


def rewrite(text: str | bytes) -> Callable[[Path, Path], None]:
    def damage(journal: Path, script: Path) -> None:
        journal.write_bytes(text.encode() if isinstance(text, str) else text)
    return damage


def practice_script_instead(journal: Path, script: Path) -> None:
    journal.write_bytes(script.read_bytes())


def removed(journal: Path, script: Path) -> None:
    journal.unlink()


def a_folder(journal: Path, script: Path) -> None:
    journal.unlink()
    journal.mkdir()


BROKEN = {
    "a line in the middle not JSON": (replace_line(4, '{"call": "seer", "pha'), [":4:", "damaged"]),
    "a line in the middle with no call": (replace_line(4, '{"answer": 3}'), [":4:", "damaged"]),
    "a line in the middle not an object": (replace_line(3, "[1, 2]"), [":3:", "damaged"]),
    "an answer for another call": (edit_entry(3, call="seer"), [":3:", "not this game's"]),
    "an answer the script did not give": (seat_changed, ["not the script's"]),
    "its script changed since": (script_edited, ["changed since"]),
    "its script removed": (script_removed, ["first_game.yaml"]),
    "a header of an unknown kind": (replace_line(1, '{"werewolf-narrator": 1, "kind": "chess"}'), [":1:"]),
    "a header of another version": (replace_line(1, '{"werewolf-narrator": 99, "kind": "dry-run"}'), [":1:"]),
    "a practice script, not a journal": (practice_script_instead, [":1:", "not a werewolf-narrator journal"]),
    "JSON, not a journal": (rewrite('{"hello": "world"}\n'), [":1:", "not a werewolf-narrator journal"]),
    "bytes, not a journal": (rewrite(b"\xff\xfe\x00\x01garbage\n\x80\n"), [":1:", "not a werewolf-narrator journal"]),
    "an empty file": (rewrite(""), ["empty journal"]),
    "a torn header alone": (rewrite('{"werewolf-narrator": 1, "ki'), ["empty journal"]),
    "a missing file": (removed, ["no such journal"]),
    "a folder": (a_folder, ["cannot read"]),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_journal_that_cannot_be_resumed_is_named_with_its_fault(tmp_path: Path, case: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A damaged, foreign, empty or missing journal (or one whose script changed) stops `resume`
    with exit 1 and a message naming the file (and the line), never a traceback."""
    script, whole, _ = finished_dry_run(tmp_path)
    journal = tmp_path / "cut.jsonl"
    journal.write_text("".join(whole.read_text().splitlines(keepends=True)[:8]))  # stopped after 7 answers
    damage, expected = BROKEN[case]
    damage(journal, script)
    capsys.readouterr()
    status = main(["resume", str(journal), "--silent", "--report", str(tmp_path / "resumed.json")])
    err = capsys.readouterr().err
    assert status == 1, err
    assert "Traceback" not in err and "internal error" not in err
    assert str(journal) in err or (case == "its script removed" and str(script) in err), err
    for part in expected:
        assert part in err, err
    assert not (tmp_path / "resumed.json").exists()


# -- 4. a game at the table stopped part-way and resumed -----------------------------------------

CONFIG = TableConfig("en", STARTER.table, pause=(0.0, 0.0))
SEED = 3
DEAL_KEYS = 3 * CONFIG.table.seats


@dataclass(frozen=True)
class Planned:
    """One call of the planned game: its answer and the keys the table presses for it."""

    call: Call
    value: Answer
    keys: tuple[str, ...]


def plan(seed: int = SEED) -> tuple[list[Planned], Game]:
    """The game plan_keys plays ahead, call by call."""
    game = Game(CONFIG.table, deal_cards(CONFIG.table, seed))
    rng = random.Random(seed)
    steps = []
    while not game.over:
        call = game.call
        assert call is not None
        value = rng.choice(game.legal()) if call.needs_answer else None
        steps.append(Planned(call, value, tuple(keys_for(call, value) + after(game.answer(value)))))
    keys, _ = plan_keys(CONFIG, seed)
    assert keys == ["enter"] * DEAL_KEYS + keys_of(steps)  # the same game as plan_keys
    return steps, game


def keys_of(steps: list[Planned]) -> list[str]:
    return [key for step in steps for key in step.keys]


def answered(entries: list[Entry]) -> list[tuple[str, int, Answer]]:
    return [(e.call, e.number, e.answer) for e in entries]


def planned(steps: list[Planned]) -> list[tuple[str, int, Answer]]:
    return [(s.call.id, s.call.number, s.value if s.call.needs_answer else None) for s in steps]


def table_game(keys: list[str], folder: Path, screen: PlainScreen | None = None, out: io.StringIO | None = None,
               start: Resumed | None = None, seed: int = SEED) -> Game:
    folder.mkdir(exist_ok=True)
    return play_keys(CONFIG, keys, seed=seed, start=start or NewGame(folder=folder), screen=screen, out=out)


def the_journal(folder: Path) -> Path:
    journals = list(folder.glob("*.jsonl"))
    assert len(journals) == 1, journals
    return journals[0]


def resume_table_game(journal: Path, keys: list[str]) -> Game:
    """Goes on with a journaled game as `resume` does: the header's table and deal, the answers replayed."""
    header, entries = read_journal(str(journal))
    config = config_from_journal(header, f"{journal}:1")
    deal = Deal(tuple(header["deal"]), tuple(header["centre"]))
    return play_keys(config, keys, seed=header["seed"],
                     start=Resumed(Journal(journal), deal=deal, replay=entries, replay_from=str(journal)))


def keys_left(journal: Path, steps: list[Planned]) -> list[str]:
    """The keys of the calls the journal has not answered yet, checking it answered the others as planned."""
    entries = read_journal(str(journal))[1]
    assert answered(entries) == planned(steps)[: len(entries)]
    return keys_of(steps[len(entries):])


@pytest.mark.parametrize("stop", [DEAL_KEYS + 1, DEAL_KEYS + 14, DEAL_KEYS + 30, -2])
def test_a_table_game_stopped_part_way_resumes_to_the_same_end(tmp_path: Path, stop: int) -> None:
    """A game at the table that stops part-way (here the keys run out, even mid-answer) goes on
    from its journal and ends exactly as the uninterrupted game."""
    steps, ahead = plan()
    keys = ["enter"] * DEAL_KEYS + keys_of(steps)
    with pytest.raises(EOFError):
        table_game(keys[:stop], tmp_path / "game")
    journal = the_journal(tmp_path / "game")
    game = resume_table_game(journal, keys_left(journal, steps))
    assert game.outcome == ahead.outcome
    assert game.eliminated == ahead.eliminated
    assert answered(read_journal(str(journal))[1]) == planned(steps)


# -- 5. the host menu ----------------------------------------------------------------------------

def first_vote(steps: list[Planned]) -> int:
    return next(i for i, s in enumerate(steps) if s.call.id == "vote" and s.call.needs_answer)


def public_takeback(steps: list[Planned]) -> int | None:
    """Returns the first step answered by day with eyes open whose next call is too, the same day: the answer the
    host menu may take back while that next call runs (None: the game has none)."""
    for i in range(len(steps) - 1):
        done, running = steps[i].call, steps[i + 1].call
        if (done.needs_answer and done.phase is Phase.DAY and running.phase is Phase.DAY
                and done.number == running.number and not in_the_dark(done) and not in_the_dark(running)):
            return i
    return None


def test_the_host_menu_takes_back_the_days_answer_before_the_running_call(tmp_path: Path) -> None:
    """Issue 5 (host menu 1): while the call after a public answer of the day runs (the Hunter's shot after the
    vote), the host takes that answer back (confirmed with Enter); the journal says so, reads back without it, and
    the game goes on to the same end."""
    seed, steps, ahead, done = next((seed, steps, ahead, done) for seed in range(1, 300)
                                    for steps, ahead in [plan(seed)] if (done := public_takeback(steps)) is not None)
    keys = (["enter"] * DEAL_KEYS + keys_of(steps[:done + 1]) + ["menu", "1", "enter"] + keys_of(steps[done:]))
    game = table_game(keys, tmp_path / "game", seed=seed)
    assert game.outcome == ahead.outcome
    assert game.eliminated == ahead.eliminated
    journal = the_journal(tmp_path / "game")
    assert [json.loads(line) for line in journal.read_text().splitlines()].count({"undo": 1}) == 1
    assert answered(read_journal(str(journal))[1]) == planned(steps)


def test_the_host_menu_takes_back_no_night_answer_at_the_days_vote(tmp_path: Path) -> None:
    """At the day's vote the answer before it is the night's (the Witch's, or the pack's if she is out): the host
    menu offers nothing to take back, whoever answered — the game goes on, nothing undone."""
    steps, ahead = plan()
    vote = first_vote(steps)
    screen = PlainScreen(io.StringIO(), terminal=True)  # a terminal's screen shows the notice
    keys = ["enter"] * DEAL_KEYS + keys_of(steps[:vote]) + ["menu", "1"] + keys_of(steps[vote:])
    game = table_game(keys, tmp_path / "game", screen=screen)
    assert game.outcome == ahead.outcome and game.eliminated == ahead.eliminated
    journal = the_journal(tmp_path / "game")
    assert {"undo": 1} not in [json.loads(line) for line in journal.read_text().splitlines()]
    assert load_voice("en").text("menu.nothing_to_undo") in screen.out.getvalue()  # type: ignore[attr-defined]


def seers_look(steps: list[Planned]) -> int:
    """Returns the first step where the Seer, alive, is shown what she asked for (then Enter closes it)."""
    return next(i for i, s in enumerate(steps) if s.call.id == "seer" and s.call.needs_answer)


def test_the_host_menu_cannot_take_back_the_seers_answer_once_she_has_seen(tmp_path: Path) -> None:
    """The Seer's look is on the screen, waiting for Enter: the host menu takes nothing back (asked again, she
    would see a second player's card); the game goes on to the same end, nothing undone."""
    steps, ahead = plan()
    seer = seers_look(steps)
    assert steps[seer].keys[-1] == "enter"  # the Enter that closes her look
    keys = (["enter"] * DEAL_KEYS + keys_of(steps[:seer]) + list(steps[seer].keys[:-1]) + ["menu", "1", "enter"]
            + keys_of(steps[seer + 1:]))
    game = table_game(keys, tmp_path / "game")
    assert game.outcome == ahead.outcome and game.eliminated == ahead.eliminated
    journal = the_journal(tmp_path / "game")
    assert {"undo": 1} not in [json.loads(line) for line in journal.read_text().splitlines()]
    assert answered(read_journal(str(journal))[1]) == planned(steps)


def test_ctrl_c_while_the_seers_look_is_on_the_screen_stops_the_game_saved(tmp_path: Path) -> None:
    """Ctrl-C confirmed while the Seer reads her look: the game stops with her answer saved, and goes on from
    the call after hers."""
    steps, ahead = plan()
    seer = seers_look(steps)
    keys = ["enter"] * DEAL_KEYS + keys_of(steps[:seer]) + list(steps[seer].keys[:-1]) + ["interrupt", "enter"]
    with pytest.raises(GameStopped):
        table_game(keys, tmp_path / "game")
    journal = the_journal(tmp_path / "game")
    assert answered(read_journal(str(journal))[1]) == planned(steps[:seer + 1])


def test_the_host_menu_shows_who_is_alive_the_sheriff_and_the_day(tmp_path: Path) -> None:
    """Issue 5 (host menu 4): the public state — who is alive, the Sheriff, the day — is shown on the
    screen until Enter; then the game goes on."""
    steps, ahead = plan()
    vote = first_vote(steps)
    keys = ["enter"] * DEAL_KEYS + keys_of(steps[:vote]) + ["menu", "4", "enter"] + keys_of(steps[vote:])
    screen = PlainScreen(io.StringIO())
    shown: list[str] = []
    original = screen.entry

    def entry(text: str) -> None:
        shown.append(text)
        original(text)

    screen.entry = entry  # type: ignore[method-assign]
    game = table_game(keys, tmp_path / "game", screen=screen)
    assert game.outcome == ahead.outcome
    then = Game(CONFIG.table, deal_cards(CONFIG.table, SEED), [s.value for s in steps[:vote]])
    assert then.sheriff is not None and then.call is not None and then.call.phase.value == "day"
    alive = " ".join(map(str, then.living()))
    state = [text for text in shown if f"Alive: {alive}" in text]
    assert state, shown
    assert f"Sheriff: {then.sheriff}" in state[0]
    assert f"day {then.call.number}" in state[0].lower(), state[0]


@pytest.mark.parametrize("stop", [["menu", "5", "enter"], ["interrupt", "enter"]])
def test_ending_the_game_saves_it_and_prints_the_command_that_resumes(tmp_path: Path, stop: list[str]) -> None:
    """Issue 5 (host menu 5, and Ctrl-C confirmed): the game stops, every answer so far is saved, the
    command that resumes is printed; resumed, it ends as the uninterrupted game."""
    steps, ahead = plan()
    vote = first_vote(steps)
    out = io.StringIO()
    with pytest.raises(GameStopped) as stopped:
        table_game(["enter"] * DEAL_KEYS + keys_of(steps[:vote]) + stop, tmp_path / "game", out=out)
    journal = the_journal(tmp_path / "game")
    assert f"werewolf-narrator resume {journal}" in out.getvalue() + str(stopped.value)  # the CLI prints it
    assert answered(read_journal(str(journal))[1]) == planned(steps[:vote])
    game = resume_table_game(journal, keys_left(journal, steps))
    assert game.outcome == ahead.outcome
    assert game.eliminated == ahead.eliminated


def test_ctrl_c_then_another_key_goes_on_with_the_game(tmp_path: Path) -> None:
    """Ctrl-C asks for confirmation; any key but Enter goes on with the game."""
    steps, ahead = plan()
    vote = first_vote(steps)
    keys = ["enter"] * DEAL_KEYS + keys_of(steps[:vote]) + ["interrupt", "back"] + keys_of(steps[vote:])
    game = table_game(keys, tmp_path / "game")
    assert game.outcome == ahead.outcome
    assert game.eliminated == ahead.eliminated


def test_ctrl_c_stops_a_dry_run_saved_and_prints_the_command_that_resumes(tmp_path: Path) -> None:
    """Ctrl-C during a dry run saves it and prints `werewolf-narrator resume JOURNAL`; resumed,
    it ends as the uninterrupted run."""
    script, _, want = finished_dry_run(tmp_path)
    journal = tmp_path / "interrupted.jsonl"
    # A slow pace (0.3 s a line): on a loaded machine the run must still be going when the signal comes. Ctrl-C
    # reaches a foreground program, which never ignores it; a suite run in the background (`scripts/test.sh &`)
    # hands its children SIGINT ignored, and Python keeps it so: the run would play on to its end.
    run = subprocess.Popen([sys.executable, "-m", "narrator", "dry-run", str(script), "--silent", "--journal",
                            str(journal), "--pace", "0.3"], cwd=ROOT, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 30
    while (not journal.exists() or journal.read_text().count("\n") < 4) and time.monotonic() < deadline:
        time.sleep(0.01)
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert f"werewolf-narrator resume {journal}" in err
    assert "Traceback" not in err
    result = narrator_command("resume", journal, "--silent", "--report", tmp_path / "resumed.json")
    assert result.returncode == 0, result.stderr
    same_game(json.loads((tmp_path / "resumed.json").read_text()), want)


# -- 6. the disk full ----------------------------------------------------------------------------

def disk_full_at(write: int) -> Callable[[int], None]:
    """An fsync that fails with ENOSPC on the ``write``-th write (the header is the first)."""
    count = [0]

    def fsync(fd: int) -> None:
        count[0] += 1
        if count[0] >= write:
            raise OSError(errno.ENOSPC, "No space left on device")
        os.fsync(fd)
    return fsync


def assert_says_the_journal_failed(message: str, journal: Path) -> None:
    assert "could not be written" in message
    assert "No space left on device" in message
    assert "every answer before" in message and "saved" in message
    assert f"werewolf-narrator resume {journal}" in message


@pytest.mark.parametrize("failing", [2, 9])
def test_a_full_disk_stops_the_table_game_cleanly_and_loses_no_confirmed_answer(tmp_path: Path,
                                                                                failing: int) -> None:
    """Issue 5 (faults): the disk full while journaling stops the game with a message that says so, and
    every answer confirmed before is saved: resumed, the game ends as the uninterrupted one."""
    steps, ahead = plan()
    deal = deal_cards(CONFIG.table, SEED)
    journal = tmp_path / "game.jsonl"
    writer = Journal(journal, journal_header(CONFIG, SEED, deal), fsync=disk_full_at(failing))
    with pytest.raises(UserError) as stopped:
        table_game(keys_of(steps), tmp_path / "game", start=Resumed(writer, deal))
    assert not isinstance(stopped.value, GameStopped)
    assert_says_the_journal_failed(str(stopped.value), journal)
    header, entries = read_journal(str(journal))
    paced = sum(len(pool) for pool in header.get("pace", {}).values())  # the calls' lengths, journaled too
    assert len(entries) + paced >= failing - 2  # the lines whose write had returned
    game = resume_table_game(journal, keys_left(journal, steps))
    assert game.outcome == ahead.outcome
    assert game.eliminated == ahead.eliminated


def test_a_full_disk_stops_a_dry_run_cleanly_and_loses_no_confirmed_answer(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]
                                                                           ) -> None:
    """Issue 5 (faults): a dry run whose journal hits a full disk stops saying so; resumed, it ends as the
    uninterrupted run."""
    script_path, _, want = finished_dry_run(tmp_path)
    script, _ = load_script(str(script_path))
    journal = tmp_path / "full.jsonl"
    writer = Journal(journal, practice_header(script), fsync=disk_full_at(7))
    with pytest.raises(UserError) as stopped:
        dry_run(script, journal=writer)
    writer.close()
    assert_says_the_journal_failed(str(stopped.value), journal)
    assert len(read_journal(str(journal))[1]) >= 5
    assert main(["resume", str(journal), "--silent", "--report", str(tmp_path / "resumed.json")]) == 0, \
        capsys.readouterr().err
    same_game(json.loads((tmp_path / "resumed.json").read_text()), want)


class ClockedKeys(ScriptedKeys):
    """Keys that each take four seconds to press, on a clock that moves only with them and with the game's sleeps."""

    def __init__(self, keys: list[str], now: list[float]) -> None:
        super().__init__(keys)
        self.now = now

    def read(self, timeout: float | None = None) -> str | None:
        self.now[0] += 4.0
        return super().read(timeout)


class ClockedSpeaker(Recorder):
    """Notes when each line is said."""

    def __init__(self, now: list[float]) -> None:
        super().__init__()
        self.now = now
        self.when: list[float] = []

    def say(self, text: str) -> None:
        super().say(text)
        self.when.append(self.now[0])


def test_a_game_resumed_mid_night_keeps_its_pace_and_gives_the_table_time_to_close_its_eyes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The living calls' lengths are journaled, so that the empty calls after a resume are drawn from them
    (a dead Seer went from 23 s alive to 6 s after a resume); resumed at a night call, the table is told to close its
    eyes and given the call floor to do so before the call is said (it had 1.5 s)."""
    import dataclasses

    import narrator.play
    from narrator.narration import wakes
    from narrator.pacing import Pacing

    made: list[Pacing] = []

    class Kept(Pacing):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(narrator.play, "Pacing", Kept)
    config = dataclasses.replace(CONFIG, pause=(1.0, 1.0), call_floor=5.0)
    steps, ahead = plan()
    night2 = next(i for i, step in enumerate(steps) if wakes(step.call) and step.call.number == 2)
    keys = ["enter"] * DEAL_KEYS + keys_of(steps)
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    timing = Timing(sleep=sleep, clock=lambda: now[0])
    (tmp_path / "game").mkdir()
    with pytest.raises(EOFError):
        stop = DEAL_KEYS + len(keys_of(steps[:night2]))
        play(config, TableIO(ClockedKeys(keys[:stop], now), PlainScreen(io.StringIO()), Recorder()), seed=SEED,
             start=NewGame(folder=tmp_path / "game"), timing=timing, out=io.StringIO())
    journal = the_journal(tmp_path / "game")
    header, entries = read_journal(str(journal))
    before = made[-1].samples
    assert header["pace"] == {key: [round(s, 3) for s in pool] for key, pool in before.items()} and before
    speaker = ClockedSpeaker(now)
    game = play(config, TableIO(ClockedKeys(keys_of(steps[night2:]), now), PlainScreen(io.StringIO()), speaker),
                seed=SEED, timing=timing, out=io.StringIO(),
                start=Resumed(Journal(journal), deal=Deal(tuple(header["deal"]), tuple(header["centre"])),
                              replay=entries, replay_from=str(journal), pace=header["pace"]))
    assert game.outcome == ahead.outcome
    after = made[-1].samples
    assert all(after[key][:len(pool)] == pool for key, pool in header["pace"].items())
    voice = load_voice("en")
    closing = speaker.said.index(voice.spoken(voice.text("notice.close_eyes", {})))
    assert speaker.said[closing - 1] == voice.spoken(voice.text("notice.resumed", {}))
    assert speaker.when[closing + 1] - speaker.when[closing] >= 5.0  # the call floor, before the call's line


class SeatsAndLines(PlainScreen):
    """Notes, in one list with the lines said, each seating the screen is given."""

    def __init__(self, events: list[tuple[str, Any]]) -> None:
        super().__init__(io.StringIO())
        self.events = events

    def seating(self, seats: Sequence[Any]) -> None:
        super().seating(seats)
        self.events.append(("seating", {s.number: (s.alive, s.marks) for s in seats}))


class Noted(Recorder):
    def __init__(self, events: list[tuple[str, Any]]) -> None:
        super().__init__()
        self.events = events

    def say(self, text: str) -> None:
        super().say(text)
        self.events.append(("said", text))


def test_a_resumed_game_shows_the_dead_and_the_sheriff_before_it_says_the_game_goes_on(tmp_path: Path) -> None:
    """Resumed mid-night, the seats showed the deal's state (everyone alive, no Sheriff's badge) until the call's
    line: the public state the journal rebuilt is on the screen when the table is told the game goes on."""
    steps, _ = plan()
    night2 = next(i for i, step in enumerate(steps) if step.call.phase is Phase.NIGHT and step.call.number == 2)
    keys = ["enter"] * DEAL_KEYS + keys_of(steps)
    (tmp_path / "game").mkdir()
    with pytest.raises(EOFError):
        play(CONFIG, TableIO(ScriptedKeys(keys[:DEAL_KEYS + len(keys_of(steps[:night2]))]),
                             PlainScreen(io.StringIO()), Recorder()),
             seed=SEED, start=NewGame(folder=tmp_path / "game"), out=io.StringIO(), timing=Timing(sleep=lambda s: None))
    journal = the_journal(tmp_path / "game")
    header, entries = read_journal(str(journal))
    events: list[tuple[str, Any]] = []
    game = play(CONFIG, TableIO(ScriptedKeys(keys_of(steps[night2:])), SeatsAndLines(events), Noted(events)),
                seed=SEED, out=io.StringIO(), timing=Timing(sleep=lambda s: None),
                start=Resumed(Journal(journal), deal=Deal(tuple(header["deal"]), tuple(header["centre"])),
                              replay=entries, replay_from=str(journal), pace=header.get("pace", {})))
    voice = load_voice("en")
    resumed = events.index(("said", voice.spoken(voice.text("notice.resumed", {}))))
    shown = [seats for kind, seats in events[:resumed] if kind == "seating"][-1]
    replayed = Game(CONFIG.table, Deal(tuple(header["deal"]), tuple(header["centre"])))
    for step in steps[:night2]:
        replayed.answer(step.value if step.call.needs_answer else None)
    assert replayed.sheriff and replayed.eliminated, "the plan must reach night 2 with a Sheriff and a death"
    sheriff = voice.text("screen.mark.sheriff", {})
    assert [n for n, (alive, _) in shown.items() if not alive] == sorted(e.seat for e in replayed.eliminated)
    assert [n for n, (_, marks) in shown.items() if sheriff in marks] == [replayed.sheriff]
    assert game.outcome is not None


def test_the_calls_lengths_are_read_back_from_the_journal_among_the_deals_lines_too(tmp_path: Path) -> None:
    """The identification's samples (deal: cards) come among the deal's lines: read as samples, not as a damaged step;
    one that is not a length (a negative one, a string) is a damaged line."""
    path = tmp_path / "game.jsonl"
    journal = Journal(path, {"kind": "play", "config": {}, "seed": 1, "buildings": [], "dealing": True})
    journal.record_deal({"identified": "seer", "seats": [3]})
    journal.record_pace("identify", 7.25)
    journal.record_pace("identify", 9.0)
    journal.close()
    header, _ = read_journal(str(path))
    assert header["pace"] == {"identify": [7.25, 9.0]} and header["progress"] == [{"identified": "seer", "seats": [3]}]
    with path.open("a", encoding="utf-8") as file:
        file.write('{"pace": "seer", "took": -1}\n')
    with pytest.raises(UserError, match="damaged journal line"):
        read_journal(str(path))
