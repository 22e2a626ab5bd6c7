"""The journal holds every player's card — private (0600 in a 0700 folder, never through a symbolic
link), one writer at a time (a lock), and read by one torn-end rule on bytes: a CRLF journal, stray bytes and
deep nesting are read and written alike, with a clear message where the game cannot go on."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from test_resume import GAMES, ROOT, finished_dry_run, has_whole_header, narrator_command, same_game

from narrator.cli import main
from narrator.errors import UserError
from narrator.journal import Journal, default_folder, read_journal
from narrator.supervise import table_journal


@pytest.fixture
def umask() -> Iterator[None]:
    """Runs the test with the usual umask (022), restored after."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def resumed(journal: Path, report: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """Resumes a dry run's journal to its end; returns its report."""
    status = main(["resume", str(journal), "--silent", "--report", str(report)])
    assert status == 0, capsys.readouterr().err
    return dict(json.loads(report.read_text()))


def refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Runs a command that must stop with a clear message (exit 1); returns the message."""
    capsys.readouterr()
    status = main(args)
    err = capsys.readouterr().err
    assert status == 1, err
    assert "Traceback" not in err and "internal error" not in err
    return err


# -- private -------------------------------------------------------------------------------------

@pytest.mark.parametrize("mask", [0o022, 0o000, 0o277], ids=["022", "000", "277"])
def test_a_new_journal_is_0600_in_a_0700_folder_whatever_the_umask(tmp_path: Path, mask: int) -> None:
    """With umask 022 (the usual), 000 (everything open) or 277 (not even writable by its owner), a fresh journal
    and the folders made for it are private."""
    script = tmp_path / "first_game.yaml"
    shutil.copy(GAMES / "first_game.yaml", script)
    journal = tmp_path / "games" / "new" / "game.jsonl"
    old = os.umask(mask)
    try:
        assert main(["dry-run", str(script), "--silent", "--journal", str(journal)]) == 0
    finally:
        os.umask(old)
    assert mode(journal) == 0o600
    assert mode(journal.parent) == 0o700
    assert mode(journal.parent.parent) == 0o700


def test_the_default_folder_and_an_older_journal_in_it_are_made_private(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, umask: None, capsys: pytest.CaptureFixture[str]) -> None:
    """Journals written before this change (0644 in a 0755 folder): the next resume makes both private."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    _, whole, want = finished_dry_run(tmp_path)
    folder = default_folder()
    folder.mkdir(parents=True)
    folder.chmod(0o755)
    journal = folder / "game-old.jsonl"
    journal.write_bytes(whole.read_bytes())
    journal.chmod(0o644)
    same_game(resumed(journal, tmp_path / "resumed.json", capsys), want)
    assert mode(folder) == 0o700 and mode(journal) == 0o600
    assert "warning" not in capsys.readouterr().err


def test_a_journal_folder_the_host_chose_open_to_others_is_warned_about_not_changed(tmp_path: Path,
                                                                                      umask: None) -> None:
    """`play --journal-dir DIR` with DIR 0755: the host is told once (and how to close it); the folder is theirs."""
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o755)
    keypad, terminal = os.openpty()  # the game wants a terminal for its keypad; stdout and stderr are read here
    play = subprocess.Popen([sys.executable, "-m", "narrator", "play", "--journal-dir", str(folder), "--seed", "1",
                             "--speaker", "console", "--plain"], cwd=ROOT, stdin=terminal, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not any(has_whole_header(journal) for journal in folder.iterdir()) and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        play.send_signal(signal.SIGTERM)  # stops the game as a confirmed Ctrl-C does
        _, err = play.communicate(timeout=30)
        os.close(keypad)
        os.close(terminal)
    assert err.count("open to other accounts") == 1, err
    assert f"chmod 700 {folder}" in err
    assert mode(folder) == 0o755
    journals = list(folder.iterdir())
    assert len(journals) == 1 and mode(journals[0]) == 0o600


@pytest.mark.parametrize("command", ["dry-run", "resume"])
def test_a_journal_is_never_written_through_a_symbolic_link(tmp_path: Path, command: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A link at the journal's path (another account could point it at any file of the player's) is refused,
    and the file it points to is left as it was."""
    script, whole, _ = finished_dry_run(tmp_path)
    target = tmp_path / ("target.jsonl" if command == "resume" else "not-there.jsonl")
    if command == "resume":
        target.write_bytes(whole.read_bytes()[:-5])  # a torn end the writer would cut
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    before = target.read_bytes() if target.exists() else None
    args = ["resume", str(link), "--silent"] if command == "resume" else ["dry-run", str(script), "--silent",
                                                                          "--journal", str(link)]
    err = refused(args, capsys)
    assert str(link) in err and "symbolic link" in err, err
    assert (target.read_bytes() if target.exists() else None) == before


# -- one writer ----------------------------------------------------------------------------------

def test_a_second_writer_of_a_journal_is_refused_at_once_naming_it(tmp_path: Path) -> None:
    """The same game resumed twice at once (two processes): the second stops at once with a clear message;
    the first plays on to the same end as the uninterrupted run, its journal whole."""
    _, whole, want = finished_dry_run(tmp_path)
    journal = tmp_path / "game.jsonl"
    journal.write_bytes(b"".join(whole.read_bytes().splitlines(keepends=True)[:3]))
    first = subprocess.Popen([sys.executable, "-m", "narrator", "resume", str(journal), "--silent", "--pace", "0.05",
                              "--report", str(tmp_path / "first.json")], cwd=ROOT, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while journal.read_bytes().count(b"\n") < 4 and time.monotonic() < deadline:  # the first is writing
            time.sleep(0.01)
        second = narrator_command("resume", journal, "--silent", "--report", tmp_path / "second.json")
        assert first.poll() is None, "the first writer ended before the second began: the test proves nothing"
    finally:
        _, first_err = first.communicate(timeout=60)
    assert second.returncode == 1, second.stderr
    assert f"{journal}: this game is open in another werewolf-narrator" in second.stderr
    assert "Traceback" not in second.stderr
    assert not (tmp_path / "second.json").exists()
    assert first.returncode == 0, first_err
    same_game(json.loads((tmp_path / "first.json").read_text()), want)
    assert read_journal(str(journal))[1] == read_journal(str(whole))[1]


def test_a_journal_whose_header_cannot_be_written_is_removed_saying_nothing_was_played(tmp_path: Path) -> None:
    """A full disk at the header: the command printed said to resume a file that `resume` then called empty."""
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    journal = tmp_path / "games" / "game.jsonl"
    with pytest.raises(UserError) as caught:
        Journal(journal, {"kind": "dry-run"}, fsync=full)
    assert str(caught.value) == (f"{journal}: the game's journal could not be begun (No space left on device): "
                                 "nothing was played; free some space there (or give another folder) and start again")
    assert not journal.exists()
    Journal(journal, {"kind": "dry-run"}).close()  # the name is free again for the next game
    assert read_journal(str(journal)) == ({"werewolf-narrator": 1, "kind": "dry-run"}, [])


def test_an_answer_that_cannot_be_written_stops_the_game_saying_how_to_go_on(tmp_path: Path) -> None:
    writes = []

    def full_after_the_header(fd: int) -> None:
        writes.append(fd)
        if len(writes) > 1:
            raise OSError(errno.ENOSPC, "No space left on device")

    journal = Journal(tmp_path / "game.jsonl", {"kind": "dry-run"}, fsync=full_after_the_header)
    with pytest.raises(UserError, match="the journal could not be written .No space left on device.: the game stops "
                                        "here; every answer before this one is saved; to go on:"):
        journal.record_over("village")
    journal.close()


def test_a_journal_larger_than_any_game_is_refused_unread_and_left_as_it_is(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A "torn last line" of 300 MB was read whole (900 MB of memory) and then cut away by the writer."""
    _, whole, _ = finished_dry_run(tmp_path)
    journal = tmp_path / "huge.jsonl"
    with journal.open("wb") as file:
        file.write(whole.read_bytes().splitlines(keepends=True)[0])
        file.truncate(17 << 20)  # sparse: a header, then 17 MB of NUL bytes
    err = refused(["resume", str(journal), "--silent"], capsys)
    assert f"{journal}: larger than 16 MB: not a werewolf-narrator journal" in err
    assert journal.stat().st_size == 17 << 20


def test_a_journal_closed_by_its_writer_can_be_opened_again() -> None:
    """The lock goes with the writer: a game stopped and resumed in one process opens its journal again."""
    folder = Path(os.environ["XDG_DATA_HOME"]) / "lock-again"
    journal = Journal(folder / "game.jsonl", {"kind": "dry-run"})
    with pytest.raises(UserError, match="open in another"):
        Journal(journal.path)
    journal.close()
    Journal(journal.path).close()


# -- one torn-end rule, on bytes -----------------------------------------------------------------

def crlf(data: bytes) -> bytes:
    return data.replace(b"\n", b"\r\n")


@pytest.mark.parametrize("torn", [b"", b'{"call": "se', b'{"call": "se\r'])
def test_a_crlf_journal_resumes_twice_to_the_same_game(tmp_path: Path, torn: bytes,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A journal saved by a Windows editor (CRLF), torn or not: the first resume and the second both end as the
    uninterrupted run, and the journal keeps every answer (the CRLF lines as they were)."""
    _, whole, want = finished_dry_run(tmp_path)
    kept = crlf(b"".join(whole.read_bytes().splitlines(keepends=True)[:8]))
    journal = tmp_path / "windows.jsonl"
    journal.write_bytes(kept + torn)
    same_game(resumed(journal, tmp_path / "once.json", capsys), want)
    assert journal.read_bytes().startswith(kept)
    same_game(resumed(journal, tmp_path / "twice.json", capsys), want)
    assert read_journal(str(journal))[1] == read_journal(str(whole))[1]


STRAY = b"\xff\xfe\x80"
NESTED = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize("line", [b'{"call": "seer", "answer": "' + STRAY + b'"}', NESTED, b"[" * 17 + b"]" * 17],
                         ids=["stray bytes", "nested 100000 deep", "nested 17 deep"])
def test_a_last_line_of_stray_bytes_or_deep_nesting_is_torn_for_the_reader_and_the_writer(
        tmp_path: Path, line: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    """The last line unreadable: ignored by `resume` and cut before it writes, so the journal reads back whole."""
    _, whole, want = finished_dry_run(tmp_path)
    kept = b"".join(whole.read_bytes().splitlines(keepends=True)[:8])
    journal = tmp_path / "odd.jsonl"
    journal.write_bytes(kept + line + b"\n")
    assert len(read_journal(str(journal))[1]) == 7
    same_game(resumed(journal, tmp_path / "resumed.json", capsys), want)
    assert journal.read_bytes() == whole.read_bytes()


@pytest.mark.parametrize("line, why", [(b'{"call": "seer", "answer": "' + STRAY + b'"}', "not UTF-8 text"),
                                       (NESTED, "nested more than 16 deep"), (b'{"call": "se', "not JSON")],
                         ids=["stray bytes", "deep nesting", "half a line"])
def test_a_damaged_line_in_the_middle_says_exactly_how_to_go_on_from_the_lines_before_it(
        tmp_path: Path, line: bytes, why: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Exit 1 naming the file, the line and what is wrong, and the commands that go on from the lines before it
    in a copy: run as said, they end the game as the uninterrupted run (the damaged journal left as it was)."""
    _, whole, want = finished_dry_run(tmp_path)
    lines = whole.read_bytes().splitlines(keepends=True)
    damaged = b"".join(lines[:5]) + line + b"\n" + b"".join(lines[6:])
    journal = tmp_path / "damaged.jsonl"
    journal.write_bytes(damaged)
    err = refused(["resume", str(journal), "--silent"], capsys)
    assert f"{journal}:6: damaged journal line ({why})" in err, err
    command = err[err.index("head -n"):].strip()
    assert command == (f"head -n 5 {journal} > {tmp_path}/damaged-to-line-5.jsonl && "
                       f"werewolf-narrator resume {tmp_path}/damaged-to-line-5.jsonl")
    shell = subprocess.run(command.replace("werewolf-narrator", f"{sys.executable} -m narrator") + " --silent",
                           shell=True, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert shell.returncode == 0, shell.stderr
    assert journal.read_bytes() == damaged
    copy = tmp_path / "damaged-to-line-5.jsonl"
    assert read_journal(str(copy))[1] == read_journal(str(whole))[1]
    same_game(resumed(copy, tmp_path / "resumed.json", capsys), want)


@pytest.mark.parametrize("first", [b'{"werewolf-narrator": 1, "kind": "play"}\r\n', NESTED + b"\n",
                                   b'{"werewolf-narrator": 1, "kind": "pl\xffay"}\n'], ids=["crlf", "nested", "stray"])
def test_the_supervisor_reads_a_journals_header_as_resume_does(tmp_path: Path, first: bytes) -> None:
    """The supervisor looks at the header before `resume` reads it: the same bytes never crash it."""
    journal = tmp_path / "j.jsonl"
    journal.write_bytes(first)
    assert table_journal(str(journal)) == first.startswith(b'{"werewolf-narrator": 1, "kind": "play"}')


def test_a_fifo_at_the_journal_path_is_refused_at_once_never_waited_on(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """`resume FIFO` (and the supervisor's look at it) would wait forever for a writer: refused at once."""
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    assert not table_journal(str(fifo))
    err = refused(["resume", str(fifo), "--silent"], capsys)
    assert f"{fifo}: cannot read the journal (" in err and "not a regular file" in err, err


# -- empty names on the command line -------------------------------------------------------------

@pytest.mark.parametrize("args", [["dry-run", "x.yaml", "--journal", ""], ["dry-run", "x.yaml", "--report", ""],
                                  ["resume", "j.jsonl", "--report", ""], ["resume", ""], ["play", "--journal", ""],
                                  ["play", "--journal-dir", ""]], ids=" ".join)
def test_an_empty_file_name_is_a_usage_error_not_ignored(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """`--journal ''` once played a game with no journal: now exit 2, naming the option."""
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    option = args[-2] if args[-2].startswith("--") else "journal"
    assert f"argument {option}: an empty name" in err, err

