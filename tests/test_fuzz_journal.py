"""Issue 5.3: a malformed journal gets a clear message naming the file (and line), never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from narrator.errors import UserError
from narrator.journal import read_journal

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
