"""A malformed journal gets a clear message naming the file (and line), never a traceback; the
reader and the writer agree on where a torn journal ends."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_resume import GAMES

from narrator.cli import main
from narrator.errors import UserError
from narrator.journal import Entry, Journal, read_journal, whole_lines

HEADER = json.dumps({"werewolf-narrator": 1, "kind": "dry-run", "script": "x.yaml", "sha256": "0"})
ENTRY = st.fixed_dictionaries({
    "call": st.one_of(st.sampled_from(["seer", "vote", "werewolves"]), st.integers(), st.none()),
    "phase": st.sampled_from(["night", "day"]),
    "number": st.one_of(st.integers(-3, 9), st.text(max_size=3)),
    "needs": st.one_of(st.booleans(), st.none()),
    "answer": st.recursive(st.one_of(st.none(), st.integers(), st.text(max_size=4), st.booleans()),
                           lambda inner: st.lists(inner, max_size=3), max_leaves=5),
})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=400))
def test_random_bytes_are_a_clear_error_or_a_journal(tmp_path: Path, data: bytes) -> None:
    """Whatever the bytes, reading gives a journal or a UserError naming the file."""
    path = tmp_path / "j.jsonl"
    path.write_bytes(data)
    try:
        read_journal(str(path))
    except UserError as error:
        assert str(path) in str(error)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=st.lists(st.one_of(ENTRY, st.just({"undo": 1}), st.text(max_size=20)), max_size=8),
       torn=st.text(max_size=10))
def test_journal_lines_of_any_shape_are_read_or_refused_at_their_line(
        tmp_path: Path, entries: list[object], torn: str) -> None:
    """Entries of the wrong shape are refused naming their line; a torn last line is ignored."""
    path = tmp_path / "j.jsonl"
    lines = [HEADER] + [e if isinstance(e, str) else json.dumps(e) for e in entries]
    path.write_text("\n".join(lines) + "\n" + torn, encoding="utf-8")
    try:
        header, read = read_journal(str(path))
    except UserError as error:
        assert f"{path}:" in str(error)
        return
    assert header["kind"] == "dry-run"
    assert all(isinstance(e.call, str) and isinstance(e.needs, bool) for e in read)


# -- issue 14: real journals cut at every byte, changed at random, in CRLF, with stray bytes and deep nesting ----

@pytest.fixture(scope="module")
def journaled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """A practice game's whole journal (its script beside it, for `resume`)."""
    folder = tmp_path_factory.mktemp("journaled")
    script = folder / "first_game.yaml"
    shutil.copy(GAMES / "first_game.yaml", script)
    journal = folder / "whole.jsonl"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["dry-run", str(script), "--silent", "--journal", str(journal)]) == 0
    return folder, journal.read_bytes()


def no_fsync(fd: int) -> None:
    """Thousands of journals opened here: their cut is checked on the file, not on the disk."""


def read_then_written(path: Path) -> tuple[dict[str, Any], list[Entry]] | None:
    """Reads a journal, then opens it as `resume` does to go on writing (the torn end cut), and checks that the
    writer kept exactly the lines the reader read; returns what was read, or None when it cannot be resumed."""
    try:
        read = read_journal(str(path))
    except UserError as error:
        assert str(path) in str(error)
        return None
    Journal(path, fsync=no_fsync).close()
    assert read_journal(str(path)) == read
    raw = path.read_bytes()
    assert raw.endswith(b"\n") and whole_lines(raw) == raw.split(b"\n")[:-1]  # nothing torn left to write after
    return read


@pytest.mark.parametrize("newline", [b"\n", b"\r\n"], ids=["LF", "CRLF"])
def test_a_journal_cut_at_every_byte_is_read_and_cut_alike_by_the_reader_and_the_writer(
        tmp_path: Path, journaled: tuple[Path, bytes], newline: bytes) -> None:
    """A crash can stop the journal at any byte: each cut reads as the answers of its whole lines (an empty
    journal before the header's newline), and the writer keeps those lines and only those."""
    _, whole = journaled
    raw = b"".join(whole.splitlines(keepends=True)[:9]).replace(b"\n", newline)  # the header, 8 answers
    answers = [entry.answer for entry in read_journal_bytes(tmp_path, raw)[1]]
    path = tmp_path / "cut.jsonl"
    for end in range(len(raw) + 1):
        path.write_bytes(raw[:end])
        read = read_then_written(path)
        if read is None:
            assert raw.find(b"\n") >= end - 1, end  # only a journal without its whole header is refused
            continue
        assert [entry.answer for entry in read[1]] == answers[:len(read[1])], end


def read_journal_bytes(folder: Path, raw: bytes) -> tuple[dict[str, Any], list[Entry]]:
    path = folder / "read.jsonl"
    path.write_bytes(raw)
    return read_journal(str(path))


ODD = [b"\r", b"\n", b"\r\n", b"\x00", b"\x80", b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"[", b"{",
       b'"', b"\\", b"]", b"}", b"1e999999", b"-", b" "]
CHANGE = st.tuples(st.sampled_from(["insert", "replace", "delete", "line again", "nest"]), st.floats(0, 1),
                   st.one_of(st.sampled_from(ODD), st.binary(min_size=1, max_size=3)), st.integers(1, 40))


def changed(raw: bytes, changes: list[tuple[str, float, bytes, int]]) -> bytes:
    """``raw`` with each change made at its place (a fraction of the length)."""
    for kind, where, data, size in changes:
        at = int(where * len(raw))
        if kind == "insert":
            raw = raw[:at] + data + raw[at:]
        elif kind == "replace":
            raw = raw[:at] + data + raw[at + len(data):]
        elif kind == "delete":
            raw = raw[:at] + raw[at + size:]
        elif kind == "line again":  # a line written twice (two writers before the lock)
            start = raw.rfind(b"\n", 0, at) + 1
            end = raw.find(b"\n", at) + 1 or len(raw)
            raw = raw[:end] + raw[start:end] + raw[end:]
        else:  # a value nested 40 times more
            raw = raw[:at] + b"[" * size * 25 + raw[at:at + 1] + b"]" * size * 25 + raw[at + 1:]
    return raw


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(CHANGE, min_size=1, max_size=4), newline=st.sampled_from([b"\n", b"\r\n"]))
def test_a_journal_changed_at_random_is_read_and_cut_alike_or_refused_at_its_line(
        tmp_path: Path, journaled: tuple[Path, bytes], changes: list[tuple[str, float, bytes, int]],
        newline: bytes) -> None:
    """Bytes inserted, replaced or deleted (stray bytes, CRLF, a BOM, brackets), a line twice, a deep nesting: a
    journal, cut alike by the reader and the writer, or a UserError naming the file."""
    _, whole = journaled
    path = tmp_path / "changed.jsonl"
    path.write_bytes(changed(whole.replace(b"\n", newline), changes))
    read_then_written(path)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(CHANGE, min_size=1, max_size=3), newline=st.sampled_from([b"\n", b"\r\n"]))
def test_resume_of_a_journal_changed_at_random_is_a_game_or_a_clear_error_never_an_internal_one(
        journaled: tuple[Path, bytes], changes: list[tuple[str, float, bytes, int]], newline: bytes) -> None:
    """The whole `resume` (its script beside the journal): exit 0 or 1 with a message, never exit 3."""
    folder, whole = journaled
    path = folder / "resumed.jsonl"
    path.write_bytes(changed(whole.replace(b"\n", newline), changes))
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        status = main(["resume", str(path), "--silent"])
    assert status in (0, 1) and "internal error" not in err.getvalue(), err.getvalue()


@pytest.mark.parametrize("depth", [15, 16, 17, 990, 5000, 1_000_000])
@pytest.mark.parametrize("line", [5, -1], ids=["in the middle", "last"])
@pytest.mark.parametrize("shape", ["[", '{"a": '])
def test_a_deeply_nested_journal_line_is_read_or_refused_never_an_internal_error(
        journaled: tuple[Path, bytes], depth: int, line: int, shape: str) -> None:
    """Nesting past what a journal holds (16) is a damaged line, or a torn one when last; never exit 3."""
    folder, whole = journaled
    lines = whole.split(b"\n")[:-1]
    close = "]" if shape == "[" else "}"
    lines[line] = (shape * depth + "1" + close * depth).encode()
    path = folder / "nested.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        status = main(["resume", str(path), "--silent"])
    torn = line == -1 and depth > 16  # the game goes on from the line before
    assert status == (0 if torn else 1) and "internal error" not in err.getvalue(), err.getvalue()
    if line == 5 and depth > 16:
        assert f"{path}:6: damaged journal line (nested more than 16 deep)" in err.getvalue()
