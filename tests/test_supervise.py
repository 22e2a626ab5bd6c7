"""A secret never outlives its call: the supervising process of `play` and `resume`, and the names a table may use.

The kill trials in a real terminal are in test_kill_trials.py; here, the supervisor's decisions with a stand-in
for the game's process, and the command lines it builds.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from narrator.supervise import SEED_VARIABLE, SUPERVISED, Supervisor

TABLE = "language: en\nseats:\n{names}deck: [werewolf, seer, witch, villager, villager, villager]\n"
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def table_with(name: str) -> str:
    """A table whose fourth seat (line 6) has ``name``, written as a YAML double-quoted string."""
    names = [*NAMES[:3], name, *NAMES[4:]]
    return TABLE.format(names="".join(f"  - {json.dumps(n)}\n" for n in names))


@pytest.mark.parametrize("name, what", [
    ("Dee\x1b[2J", "an escape character"), ("Dee\nDum", "a line break"), ("Dee\u2028Dum", "a line break"),
    ("Dee\tDum", "a tab"), ("Dee\x07", "a control character"), ("Dee\x9b2J", "a control character"),
    ("Dee\x7f", "a control character"), ("Dee\u202eliveD", "a bidirectional text control"),
    ("\u2066Dee", "a bidirectional text control"), ("Dee\u200f", "a bidirectional text control"),
])
def test_a_player_name_with_a_control_character_is_refused_with_its_file_line_and_seat(
        tmp_path: Path, name: str, what: str) -> None:
    """`check` and `play` refuse it before anything is shown: it could redraw the screen or hide a secret."""
    (tmp_path / "table.yaml").write_text(table_with(name), encoding="utf-8")
    for refusal in refused_by_check_and_play(tmp_path):
        assert f"table.yaml:6: seats: seat 4's name {name!r} holds {what}" in refusal
        assert "\x1b" not in refusal  # the name is shown escaped


def refused_by_check_and_play(folder: Path) -> list[str]:
    """Runs `check` and `play` of ``folder``'s table.yaml; returns what each said, refusing it (exit 1)."""
    said = []
    for command in (["check", "--no-simulate", "table.yaml"], ["play", "table.yaml"]):
        result = subprocess.run([sys.executable, "-m", "narrator", *command], capture_output=True, text=True,
                                stdin=subprocess.DEVNULL, timeout=60, cwd=folder)
        assert result.returncode == 1 and "Traceback" not in result.stderr, result
        said.append(result.stderr)
    return said


def test_names_in_any_script_with_emoji_are_plain_text(tmp_path: Path) -> None:
    """Letters of any script, accents, emoji (joined by a zero-width joiner) are names like any other."""
    # Written as a host writes them (json.dumps would escape the emoji as a surrogate pair, which YAML refuses).
    names = "".join(f"  - {json.dumps(n, ensure_ascii=False)}\n"
                    for n in ["Zoë", "李雷", "Ωmega", "👩‍🌾", "O'Neil", "Ann-Marie"])
    (tmp_path / "table.yaml").write_text(TABLE.format(names=names), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "narrator", "check", "--no-simulate", "table.yaml"],
                            capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 0, result.stderr


SPY = """\
import os
import sys
import narrator.supervise as supervise

started = []  # the command lines this process was started again with (without_seed's exec)

def spy(args, journal, resume, environ=None):
    heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('engine', 'rich', 'yaml'))
    print({'args': list(args), 'journal': str(journal), 'resume': list(resume), 'heavy': heavy,
           'environ': environ or {}, 'started': started, 'left': os.environ.get(supervise.SEED_VARIABLE)})
    return 0

def again(argv, seed):
    started.append(list(argv))
    os.environ[supervise.SEED_VARIABLE] = str(seed)
    sys.exit(main(list(argv)))

supervise.wanted = lambda environ=None: True
supervise.supervise = spy
supervise.without_seed = again
from narrator.cli import main
sys.exit(main(sys.argv[1:]))
"""


def supervised(tmp_path: Path, *argv: str) -> dict[str, object]:
    """What the supervisor of ``werewolf-narrator ARGV`` would run (the game's and resume's command lines)."""
    result = subprocess.run([sys.executable, "-c", SPY, *argv], capture_output=True, text=True, timeout=60,
                            cwd=tmp_path, env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")})
    assert result.returncode == 0, result.stderr
    told: dict[str, object] = eval(result.stdout)  # the spy's own repr of plain lists and strings
    return told


def test_the_supervisor_gives_the_game_its_journal_and_every_option_of_the_table_and_the_seed_privately(
        tmp_path: Path) -> None:
    """The game's process gets the journal the supervisor chose and the host's options; a resume after a crash
    keeps the speaker, the plain screen and the model. The seed the host gave goes by the environment: a command
    line shows to every account (ps), and the seed deals every card."""
    told = supervised(tmp_path, "play", "table.yaml", "--speaker", "console", "--plain", "--model", "m",
                      "--journal-dir", "j", "--seed", "7")
    journal = told["journal"]
    assert isinstance(journal, str) and re.fullmatch(r"j/game-\d{8}-\d{6}-[0-9a-f]{8}\.jsonl", journal)
    options = ["--speaker", "console", "--plain", "--model", "m"]
    assert told["args"] == ["play", "--journal", journal, *options, "--journal-dir", "j", "--", "table.yaml"]
    assert told["resume"] == ["resume", *options, "--", journal]
    assert told["environ"] == {SEED_VARIABLE: "7"} and told["left"] is None  # for the game's first process alone
    # The seed left the supervisor's own command line at once: it started again without it.
    assert told["started"] == [["play", *options, "--journal-dir", "j", "--", "table.yaml"]]


def test_the_supervisor_names_a_journal_in_the_journal_folder_by_its_date_and_a_token_never_the_seed(
        tmp_path: Path) -> None:
    told = supervised(tmp_path, "play")
    journal = Path(str(told["journal"]))
    assert journal.parent == tmp_path / "data" / "werewolf-narrator" / "games"
    assert told["args"] == ["play", "--journal", str(journal)] and told["environ"] == {}  # the game draws a seed
    assert journal != Path(str(supervised(tmp_path, "play")["journal"]))  # a token of its own, not the time alone
    assert supervised(tmp_path, "play", "--journal", "mine.jsonl")["journal"] == "mine.jsonl"


def test_the_supervisor_loads_neither_the_engine_nor_rich(tmp_path: Path) -> None:
    """It must stay up whatever the game does: small, and nothing of the game's in it."""
    assert supervised(tmp_path, "play", "table.yaml")["heavy"] == []
    (tmp_path / "game.jsonl").write_text(json.dumps({"werewolf-narrator": 1, "kind": "play"}) + "\n")
    told = supervised(tmp_path, "resume", "game.jsonl", "--plain")
    assert told["args"] == told["resume"] == ["resume", "--plain", "--", "game.jsonl"]
    assert told["heavy"] == []


def test_a_game_at_a_terminal_is_supervised_but_not_the_game_s_own_process_nor_one_off_a_terminal() -> None:
    asked = [sys.executable, "-c", "from narrator.supervise import wanted; print(wanted())"]
    primary, terminal = os.openpty()
    try:
        at_terminal = subprocess.run(asked, stdin=terminal, capture_output=True, text=True, timeout=60)
        own = subprocess.run(asked, stdin=terminal, capture_output=True, text=True, timeout=60,
                             env={**os.environ, SUPERVISED: "1"})
    finally:
        os.close(primary)
        os.close(terminal)
    off = subprocess.run(asked, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert (at_terminal.stdout, own.stdout, off.stdout) == ("True\n", "False\n", "False\n")


def fake_python(tmp_path: Path, body: str) -> str:
    """A stand-in for `python -m narrator ARGS`: a shell script that does ``body``."""
    script = tmp_path / "python"
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)
    return str(script)


def run_supervisor(tmp_path: Path, body: str, journal: bool, capfd: pytest.CaptureFixture[str],
                   language: str | None = None) -> tuple[int, str]:
    """The supervisor of a stand-in game doing ``body``, its journal begun or not (its table's ``language``)."""
    path = tmp_path / "game.jsonl"
    header: dict[str, object] = {"werewolf-narrator": 1, "kind": "play"}
    if language:
        header["config"] = {"language": language}
    if journal:
        path.write_text(json.dumps(header) + "\n")
    status = Supervisor(path, ["resume", "--", str(path)], python=fake_python(tmp_path, body)).run(["play"])
    return status, capfd.readouterr().err


@pytest.mark.parametrize("code", [0, 1, 2, 130, 141])
def test_the_game_s_own_ends_pass_through_untouched(tmp_path: Path, code: int,
                                                    capfd: pytest.CaptureFixture[str]) -> None:
    """The game over, bad input, the host's stop: the game said what it had to; the supervisor adds nothing."""
    assert run_supervisor(tmp_path, f"exit {code}", True, capfd) == (code, "")


def test_a_killed_game_is_told_plainly_with_its_journal(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """Killed, with no terminal to ask whether to go on: the exact command to resume it."""
    status, said = run_supervisor(tmp_path, "kill -9 $$", True, capfd)
    assert status == 128 + signal.SIGKILL
    assert "The game stopped unexpectedly (its process was killed by SIGKILL)" in said
    assert "Every confirmed answer is saved" in said
    assert f"To go on later:\r\n  werewolf-narrator resume {tmp_path / 'game.jsonl'}\r\n" in said  # on its own line


@pytest.mark.parametrize("language, crashed, saved, later", [
    ("fr", "La partie s’est arrêtée de façon inattendue (son processus a été tué par SIGKILL).",
     "Chaque réponse confirmée est enregistrée dans son journal :", "Pour reprendre plus tard :"),
    ("zh", "游戏意外停止（进程被 SIGKILL 终止）。", "每个确认过的回答都保存在记录文件中：", "以后继续："),
    ("xx", "The game stopped unexpectedly (its process was killed by SIGKILL).",
     "Every confirmed answer is saved in its journal:", "To go on later:")])
def test_a_killed_game_is_told_in_its_table_s_language(tmp_path: Path, capfd: pytest.CaptureFixture[str],
                                                       language: str, crashed: str, saved: str, later: str) -> None:
    """The journal's header says the table's language: the supervisor speaks it, as the game's screen did (a
    language with no voice file, English)."""
    status, said = run_supervisor(tmp_path, "kill -9 $$", True, capfd, language)
    assert status == 128 + signal.SIGKILL
    assert said.startswith(f"{crashed}\r\n{saved}\r\n  {tmp_path / 'game.jsonl'}\r\n"), said
    assert f"{later}\r\n  werewolf-narrator resume {tmp_path / 'game.jsonl'}\r\n" in said
    if language != "xx":
        assert "The game" not in said and "Press Enter" not in said and "To go on" not in said, said


def test_the_crash_message_is_cleared_once_the_host_goes_on(tmp_path: Path, capfd: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """"killed by SIGKILL... Press Enter to go on" stayed on the main screen under the resumed game's full
    screen, and came back when that game later stopped cleanly: Enter clears it before the game goes on."""
    from narrator.supervise import CLEAN

    monkeypatch.setattr(Supervisor, "_enter", lambda self, question: (self._write(question), True)[1])
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps({"werewolf-narrator": 1, "kind": "play"}) + "\n")
    count = tmp_path / "runs"
    python = fake_python(tmp_path, f'echo run >> {count}; [ "$(wc -l < {count})" -gt 1 ] && exit 0; kill -9 $$')
    supervisor = Supervisor(path, ["resume", "--", str(path)], python=python)
    supervisor.screen = True
    assert supervisor.run(["play"]) == 0
    said = capfd.readouterr().err
    asked = said.index("Press Enter")
    assert CLEAN.replace("\n", "\r\n") in said[asked:]  # after the question, before the game went on


def test_a_game_killed_before_its_journal_had_not_begun(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    status, said = run_supervisor(tmp_path, "kill -9 $$", False, capfd)
    assert status == 128 + signal.SIGKILL
    assert "before it had begun: nothing was saved" in said and "resume" not in said


def test_an_internal_error_is_a_crash_whose_message_stays(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    status, said = run_supervisor(tmp_path, "exit 3", True, capfd)
    assert status == 3
    assert "ended with status 3" in said and "werewolf-narrator resume" in said


def test_a_game_that_cannot_be_started_is_an_error_not_a_traceback(tmp_path: Path,
                                                                   capfd: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    status = Supervisor(path, [], python=str(tmp_path / "no-python")).run(["play"])
    assert status == 1
    assert "error: the game could not be started" in capfd.readouterr().err


SUPERVISOR = """\
import sys
from pathlib import Path
from narrator.supervise import Supervisor
sys.exit(Supervisor(Path(sys.argv[1]), ['resume'], python=sys.argv[2]).run(['play']))
"""


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_are_passed_to_the_game_and_never_offer_to_resume(tmp_path: Path, stop: int) -> None:
    """The stop was wanted: the game gets the signal (and stops as on a confirmed Ctrl-C); no question after."""
    (tmp_path / "game.jsonl").write_text(json.dumps({"werewolf-narrator": 1, "kind": "play"}) + "\n")
    got = tmp_path / "got"
    python = fake_python(tmp_path, f"trap 'echo stopped > {got}; exit 130' TERM HUP\necho started > {got}\n"
                                   "while true; do sleep 0.05; done")
    supervisor = subprocess.Popen([sys.executable, "-c", SUPERVISOR, str(tmp_path / "game.jsonl"), python],
                                  stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 30
    while not (got.exists() and got.read_text()) and time.monotonic() < end:
        time.sleep(0.05)
    supervisor.send_signal(stop)
    _, said = supervisor.communicate(timeout=30)
    assert supervisor.returncode == 130
    assert said == "" and got.read_text().strip() == "stopped"  # the game's own stop, and nothing more


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])
def test_the_keypad_turns_sigterm_and_sighup_into_the_host_s_stop(stop: int) -> None:
    """Where the game waits for a key, SIGTERM or SIGHUP raises the host menu's stop (its journal kept, as on
    a confirmed Ctrl-C); closed, the keypad gives the terminal and the signals back as they were."""
    import termios

    from narrator.keypad import HostStop
    from narrator.keypad import TerminalKeys

    primary, terminal = os.openpty()
    before = termios.tcgetattr(terminal)
    handler = signal.getsignal(stop)
    try:
        keys = TerminalKeys(terminal)
        os.kill(os.getpid(), stop)
        with pytest.raises(HostStop):
            keys.read()
        keys.close()
        assert termios.tcgetattr(terminal) == before and signal.getsignal(stop) == handler
    finally:
        os.close(primary)
        os.close(terminal)


def test_the_game_takes_the_host_s_seed_from_its_environment_and_keeps_it_from_what_it_starts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from narrator.cli import _supervisor_seed
    from narrator.errors import UserError

    monkeypatch.setenv(SEED_VARIABLE, "7")
    assert _supervisor_seed() == 7 and SEED_VARIABLE not in os.environ
    assert _supervisor_seed() is None  # no seed given: the game draws its own
    monkeypatch.setenv(SEED_VARIABLE, "-1")
    with pytest.raises(UserError, match=f"{SEED_VARIABLE}: '-1' is not"):
        _supervisor_seed()


def test_ctrl_z_suspends_nothing_and_ctrl_backslash_asks_as_ctrl_c_does_while_the_keypad_is_open() -> None:
    """A game suspended leaves its screen, a secret on it, and hands the table's keyboard to the shell."""
    from narrator.keypad import TerminalKeys

    primary, terminal = os.openpty()
    before = {s: signal.getsignal(s) for s in (signal.SIGTSTP, signal.SIGTTOU, signal.SIGTTIN, signal.SIGQUIT)}
    try:
        keys = TerminalKeys(terminal)
        assert all(signal.getsignal(s) == signal.SIG_IGN for s in (signal.SIGTSTP, signal.SIGTTOU, signal.SIGTTIN))
        os.kill(os.getpid(), signal.SIGTSTP)  # not ignored, this would stop the test's own process
        os.kill(os.getpid(), signal.SIGQUIT)
        assert keys.read(5) == "interrupt"
        keys.close()
        assert {s: signal.getsignal(s) for s in before} == before
    finally:
        os.close(primary)
        os.close(terminal)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_stop_the_game_within_two_seconds_even_while_it_waits_out_a_call_s_floor(
        stop: int) -> None:
    """Not only at a key read: a call's floor (up to 120 s), a line being said, the stop comes within a second."""
    from narrator.keypad import HostStop
    from narrator.keypad import TerminalKeys

    primary, terminal = os.openpty()
    try:
        keys = TerminalKeys(terminal)
        began = time.monotonic()
        os.kill(os.getpid(), stop)
        with pytest.raises(HostStop):
            time.sleep(10)  # as Pacing waits out a floor
        assert time.monotonic() - began < 2
        keys.close()
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        os.close(primary)
        os.close(terminal)


ORPHAN = """\
import os, signal, subprocess, sys, time
from narrator.supervise import SUPERVISED
got = sys.argv[1]
child = subprocess.Popen([sys.executable, '-c', '''
import signal, sys, time
from narrator.supervise import die_with_supervisor
signal.signal(signal.SIGHUP, lambda *a: (open(sys.argv[1], "w").write("stopped"), sys.exit(130)))
die_with_supervisor()
open(sys.argv[1], "w").write("playing")
while True:
    time.sleep(0.05)
''', got], env={**os.environ, SUPERVISED: str(os.getpid())})
child.wait()
"""


@pytest.mark.parametrize("fate", [signal.SIGKILL, signal.SIGSTOP])
def test_the_game_stops_as_on_sighup_when_its_supervisor_is_killed_or_stopped(tmp_path: Path, fate: int) -> None:
    """Left alone (its supervisor killed, or stopped and the terminal given to the shell), the game would keep its
    secret under the shell's prompt and its journal locked, and die later of an internal error (the terminal
    gone). Linux's parent-death signal, and a watch on the supervisor's state, stop it as a closed window does."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the parent-death signal and /proc are Linux's")
    got = tmp_path / "got"
    supervisor = subprocess.Popen([sys.executable, "-c", ORPHAN, str(got)])
    try:
        end = time.monotonic() + 60
        while not (got.exists() and got.read_text()) and time.monotonic() < end:
            time.sleep(0.02)
        assert got.read_text() == "playing"
        supervisor.send_signal(fate)
        while got.read_text() != "stopped" and time.monotonic() < end:
            time.sleep(0.02)
        assert got.read_text() == "stopped"
    finally:
        supervisor.send_signal(signal.SIGCONT)
        supervisor.kill()
        supervisor.wait()


def test_a_game_whose_supervisor_is_gone_already_stops_at_once() -> None:
    script = "from narrator.supervise import die_with_supervisor; die_with_supervisor(); print('went on')"
    # SIGHUP as a game gets it (a suite run under nohup would hand its children SIGHUP ignored).
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                            env={**os.environ, SUPERVISED: "99999999"},
                            preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL))
    assert result.returncode == -signal.SIGHUP and result.stdout == ""


@pytest.mark.parametrize("code", [0, 130])
def test_keys_typed_for_the_game_never_reach_the_shell_after_it_ends(tmp_path: Path, code: int) -> None:
    """Typed ahead and not read when the game stops, they would run as the shell's commands."""
    import select

    (tmp_path / "game.jsonl").write_text(json.dumps({"werewolf-narrator": 1, "kind": "play"}) + "\n")
    typed = tmp_path / "typed"
    python = fake_python(tmp_path, f"while [ ! -e {typed} ]; do sleep 0.02; done\nexit {code}")
    primary, terminal = os.openpty()
    try:
        supervisor = subprocess.Popen([sys.executable, "-c", SUPERVISOR, str(tmp_path / "game.jsonl"), python],
                                      stdin=terminal, stderr=subprocess.DEVNULL)
        os.write(primary, b"echo typed-ahead\n")
        typed.touch()
        assert supervisor.wait(timeout=60) == code
        assert select.select([terminal], [], [], 0)[0] == []
    finally:
        os.close(primary)
        os.close(terminal)


def test_the_keypad_closed_drops_the_keys_typed_for_the_game_and_never_read() -> None:
    """Unsupervised too (the game's own process, `--plain` in a pipe's terminal): what the table typed for the game
    is not left for the shell, which would run it as commands."""
    import select

    from narrator.keypad import TerminalKeys

    primary, terminal = os.openpty()
    try:
        keys = TerminalKeys(terminal)
        os.write(primary, b"echo typed-ahead\n")
        assert select.select([terminal], [], [], 5)[0] == [terminal]  # typed, and waiting to be read
        keys.close()
        assert select.select([terminal], [], [], 0)[0] == []
    finally:
        os.close(primary)
        os.close(terminal)


def test_a_terminal_taken_away_stops_the_game_as_a_closed_window_does() -> None:
    """The terminal hung up, or given to the shell (the supervisor killed or stopped): reading it fails (EIO). The
    game stopped with an internal error (Input/output error); it stops as on SIGHUP, its journal kept."""
    from narrator.keypad import HostStop
    from narrator.keypad import TerminalKeys

    primary, terminal = os.openpty()
    try:
        keys = TerminalKeys(terminal)
        os.close(primary)
        primary = -1
        with pytest.raises(HostStop):
            keys.read(5)
        keys.close()
    finally:
        if primary >= 0:
            os.close(primary)
        os.close(terminal)


LATE_FLUSH = """\
import os, select, sys, termios
from pathlib import Path
from narrator.supervise import Supervisor

# A loaded machine at its worst: the host reads the question and presses Enter before the supervisor's next
# flush of the terminal's input. A flush that comes after the question was written, before it was answered,
# waits for that key first.
asked = False
real_write, real_read, real_flush = os.write, os.read, termios.tcsetattr
def write(fd, data):
    global asked
    asked = asked or b"Press Enter" in data
    return real_write(fd, data)
def read(fd, size):
    global asked
    asked = False
    return real_read(fd, size)
def flush(fd, when, attrs):
    global asked
    if when == termios.TCSAFLUSH and asked:
        select.select([fd], [], [], 60)
        asked = False
    real_flush(fd, when, attrs)
os.write, os.read, termios.tcsetattr = write, read, flush
sys.exit(Supervisor(Path(sys.argv[1]), ['resume'], python=sys.argv[2]).run(['play']))
"""


def test_the_supervisor_drops_keys_typed_before_its_question_and_takes_the_enter_pressed_as_it_shows(
        tmp_path: Path) -> None:
    """Killed mid-game, the game's keys typed ahead ('x') do not answer "Press Enter to go on": they are dropped
    before the question is written, never after, or an Enter pressed as soon as it shows was dropped with them and
    the host waited for a game that waited for a key (a kill trial on a loaded machine)."""
    import select

    (tmp_path / "game.jsonl").write_text(json.dumps({"werewolf-narrator": 1, "kind": "play"}) + "\n")
    typed, runs = tmp_path / "typed", tmp_path / "runs"
    python = fake_python(tmp_path, f'echo run >> {runs}; [ "$(wc -l < {runs})" -gt 1 ] && exit 0\n'
                                   f"while [ ! -e {typed} ]; do sleep 0.02; done\nkill -9 $$")
    primary, terminal = os.openpty()
    try:
        supervisor = subprocess.Popen([sys.executable, "-c", LATE_FLUSH, str(tmp_path / "game.jsonl"), python],
                                      stdin=terminal, stdout=terminal, stderr=terminal)
        os.write(primary, b"x")  # a key for the game, never read by it
        typed.touch()
        shown = b""
        while b"Press Enter" not in shown:
            assert select.select([primary], [], [], 60)[0], shown
            shown += os.read(primary, 4096)
        os.write(primary, b"\r")
        assert supervisor.wait(timeout=60) == 0  # the Enter was taken: the game went on, and ended
        assert runs.read_text().count("run") == 2
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
        os.close(primary)
        os.close(terminal)


@pytest.mark.parametrize("given", [[], ["--speaker", "console", "--plain", "--model", "m", "--voice-log", "v.jsonl",
                                        "--max-size", "2000000"]])
def test_the_options_a_game_keeps_reach_play_s_and_resume_s_processes_as_given(given: list[str]) -> None:
    """The supervisor hands `play`'s options on as the command lines of the game's process and of each `resume`
    after a crash: parsed there, they are the same options (the table goes by the journal, the seed by the
    environment, neither by these)."""
    from narrator.cli import build_parser
    from narrator.commands.game import TableOptions

    kept = TableOptions.given(build_parser().parse_args(["play", *given, "table.yaml"]))
    assert kept.argv() == given
    resumed = build_parser().parse_args(kept.resume("-game.jsonl"))
    assert TableOptions.given(resumed) == kept and resumed.journal == "-game.jsonl"


def test_the_seed_is_in_no_command_line_while_play_seed_runs_under_its_supervisor(tmp_path: Path) -> None:
    """Every account reads every process's command line (/proc/PID/cmdline, ps): `play --seed N` starts itself again
    without it, and hands it to the game's process by the environment; the game deals by it all the same."""
    import threading

    seed = "7392816450"
    (tmp_path / "table.yaml").write_text(table_with("Dee"), encoding="utf-8")
    primary, terminal = os.openpty()
    output = bytearray()
    reader = threading.Thread(target=_drain, args=(primary, output), daemon=True)
    reader.start()
    play = subprocess.Popen([sys.executable, "-m", "narrator", "play", "table.yaml", "--seed", seed,
                             "--journal-dir", "j", "--speaker", "console"], cwd=tmp_path,
                            stdin=terminal, stdout=terminal, stderr=terminal)
    try:
        end = time.monotonic() + 120  # a bound for a hang on a loaded machine, not a pace
        journals: list[Path] = []
        while not journals and time.monotonic() < end and play.poll() is None:
            journals = [j for j in (tmp_path / "j").glob("*.jsonl") if j.read_bytes().endswith(b"\n")]
            time.sleep(0.05)
        assert journals, bytes(output).decode(errors="replace")
        assert json.loads(journals[0].read_text().splitlines()[0])["seed"] == int(seed)  # dealt by the seed given
        assert _descendants(play.pid), "the supervisor runs the game in a child process"
        holding = []
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            try:
                if seed.encode() in cmdline.read_bytes():
                    holding.append(cmdline.parent.name)
            except OSError:
                continue  # a process gone meanwhile
        assert holding == [], [Path(f"/proc/{pid}/cmdline").read_bytes() for pid in holding]
        assert b"--seed" not in Path(f"/proc/{play.pid}/cmdline").read_bytes()
    finally:
        play.send_signal(signal.SIGTERM)
        play.wait(timeout=60)
        os.close(terminal)
        os.close(primary)


def _drain(fd: int, into: bytearray) -> None:
    """Reads the terminal's output until it closes, so that the game never waits on a full terminal."""
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:
            return
        if not data:
            return
        into += data


def _descendants(pid: int) -> list[int]:
    try:
        children = [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []
    return [d for c in children for d in (c, *_descendants(c))]
