"""A data folder this account may not use (made with sudo, another account's) and a name too long for the
system are told with the path and what to do, wherever the program meets them — never as an internal error."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOBODY = 65534


@pytest.fixture
def closed_data() -> Iterator[tuple[Path, dict[str, str]]]:
    """A data folder whose werewolf-narrator folder belongs to another account (0700), and the environment of an
    account that may not enter it: this one when it is not root (the folder closed to it), else nobody."""
    base = Path(tempfile.mkdtemp(prefix="wn-closed-"))
    try:
        base.chmod(0o755)
        (base / "home").mkdir(mode=0o777)
        (base / "home").chmod(0o777)
        (base / "data" / "werewolf-narrator" / "games").mkdir(parents=True)
        (base / "data").chmod(0o755)
        (base / "data" / "werewolf-narrator").chmod(0o700 if os.geteuid() == 0 else 0o000)
        yield base, {**os.environ, "HOME": str(base / "home"), "XDG_DATA_HOME": str(base / "data")}
    finally:
        (base / "data" / "werewolf-narrator").chmod(0o700)
        shutil.rmtree(base)


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    as_nobody = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"] if os.geteuid() == 0 else []
    return subprocess.run([*as_nobody, sys.executable, "-m", "narrator", *args], cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args", [["resume"], ["resume", "--last"], ["models", "list"],
                                  ["dry-run", "examples/practice-fr.yaml", "--silent", "--journal", "JOURNAL"]])
def test_a_data_folder_of_another_account_is_named_with_what_to_do(
        closed_data: tuple[Path, dict[str, str]], args: list[str]) -> None:
    base, env = closed_data
    if os.geteuid() == 0 and (not shutil.which("setpriv") or run(["--help"], env).returncode != 0):
        pytest.skip("no account but root can run this checkout here")
    games = base / "data" / "werewolf-narrator" / "games"
    result = run([str(games / "j.jsonl") if a == "JOURNAL" else a for a in args], env)
    assert result.returncode == 1, result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert "this account may not use it (permission denied)" in result.stderr and "chown" in result.stderr
    assert str(base / "data" / "werewolf-narrator") in result.stderr


def test_a_folder_name_too_long_for_the_system_is_named(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "narrator", "resume", "--journal-dir", "a" * 300], cwd=tmp_path,
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert f"error: {'a' * 300}: a name too long for this system" in result.stderr
