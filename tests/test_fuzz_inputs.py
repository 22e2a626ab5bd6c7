"""Hostile inputs (issue 14): YAML files that are bombs, too deep, too large, special files or binary junk, and
odd command-line values — each gets a clear refusal naming the file or the option, never an internal error
(exit 3), a traceback or a hang. The output's own failures (a full disk, an encoding that cannot show Chinese)
go through a real process, as a host meets them.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator import folders, yamlfile
from narrator.cli import build_parser, main
from narrator.errors import UserError
from narrator.yamlfile import LOADER, MAX_DEPTH, MAX_VALUES, PYTHON_LOADER, YamlError, load, parse, read_capped

ROOT = Path(__file__).resolve().parent.parent
PRACTICE_ZH = ROOT / "examples" / "practice-zh.yaml"
TABLE = "deck: [werewolf, werewolf, seer, villager, villager, villager]\nsheriff: false\n"
LOADERS = pytest.mark.parametrize("loader", [LOADER, PYTHON_LOADER], ids=["libyaml", "python"])


def run(*args: str, env: dict[str, str] | None = None, stdout: object = subprocess.PIPE,
        cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Runs the command line in a real process, with nothing on stdin to wait for."""
    return subprocess.run([sys.executable, "-m", "narrator", *args], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, stdin=subprocess.DEVNULL, timeout=60, cwd=cwd,
                          env={**os.environ, **(env or {})})


def no_internal_error(output: str) -> None:
    assert "Traceback" not in output, output
    assert "internal error" not in output, output


def refusal(path: Path, loader: type = LOADER) -> str:
    """Parses ``path`` and returns the YamlError's message, which must name the file."""
    with pytest.raises(YamlError) as caught:
        parse(path.read_text(encoding="utf-8"), str(path), loader) if path.is_file() else load(path)
    assert str(caught.value).startswith(str(path)), caught.value
    return str(caught.value)


# -- YAML: bombs, depth, size ---------------------------------------------------------------------


@LOADERS
def test_a_billion_laughs_stops_at_the_value_bound(tmp_path: Path, loader: type) -> None:
    lines = ["l0: &l0 [" + ", ".join(["lol"] * 10) + "]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, 10)]
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert f"more than {MAX_VALUES} values" in refusal(tmp_path / "bomb.yaml", loader)


@LOADERS
def test_an_alias_inside_itself_is_refused_as_too_deep(tmp_path: Path, loader: type) -> None:
    (tmp_path / "loop.yaml").write_text("deck: &a [werewolf, *a]\n", encoding="utf-8")
    assert "nested more than" in refusal(tmp_path / "loop.yaml", loader)


@LOADERS
def test_aliases_chained_deeper_than_written_are_refused(tmp_path: Path, loader: type) -> None:
    """Each anchor is written 40 deep (under the bound), but each holds the one before: 400 deep once expanded."""
    lines = ["a0: &a0 x"] + [f"a{i}: &a{i} " + "[" * 40 + f"*a{i - 1}" + "]" * 40 for i in range(1, 11)]
    (tmp_path / "chain.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert "nested more than" in refusal(tmp_path / "chain.yaml", loader)


@LOADERS
@pytest.mark.parametrize("text", [
    "[" * 10_000 + "]" * 10_000,
    "{a: " * 5_000 + "1" + "}" * 5_000,
    "- " * 5_000 + "x\n",
    "".join(f"{'  ' * i}k:\n" for i in range(2_000)) + "  " * 2_000 + "v\n",
], ids=["flow-lists", "flow-maps", "block-lists", "block-maps"])
def test_nesting_past_the_bound_is_refused_while_composing(tmp_path: Path, loader: type, text: str) -> None:
    (tmp_path / "deep.yaml").write_text(text, encoding="utf-8")
    message = refusal(tmp_path / "deep.yaml", loader)
    # libyaml's scanner may look ahead in a line of brackets and meet its own bound (1,000) first.
    assert f"nested more than {MAX_DEPTH} deep" in message or "exceeded maximum nesting depth" in message
    assert re.search(r"deep.yaml:\d+:", message), message


def test_nesting_within_the_bound_is_read(tmp_path: Path) -> None:
    doc = parse("[" * MAX_DEPTH + "]" * MAX_DEPTH, "ok.yaml")
    assert doc.data is not None


def test_a_list_of_too_many_items_stops_at_the_node_that_goes_over() -> None:
    """Counted as composed: the error names the line of the first item past the bound, not the file's end."""
    text = "".join(f"- {i}\n" for i in range(MAX_VALUES + 50))
    with pytest.raises(YamlError, match=f"^many.yaml:{MAX_VALUES}: more than {MAX_VALUES} values"):
        parse(text, "many.yaml")


def test_the_python_loader_reads_what_libyaml_reads() -> None:
    """The fallback (PyYAML without libyaml) gives the same documents and the same lines."""
    for path in [*sorted((ROOT / "examples").glob("*.yaml")), *sorted((ROOT / "voices").glob("*.yaml"))]:
        text = path.read_text(encoding="utf-8")
        fast, slow = parse(text, path.name, LOADER), parse(text, path.name, PYTHON_LOADER)
        assert (fast.data, fast.lines) == (slow.data, slow.lines), path


def test_a_file_over_the_cap_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    (tmp_path / "huge.yaml").write_text("- werewolf\n" * 200_000, encoding="utf-8")  # 2.2 MB
    start = time.perf_counter()
    with pytest.raises(YamlError, match=r"huge.yaml: larger than 1,000,000 bytes.*--max-size"):
        load(tmp_path / "huge.yaml")
    assert time.perf_counter() - start < 1  # refused by its size: nothing parsed


def test_a_file_whose_size_lies_is_read_no_further_than_the_cap() -> None:
    """/proc files say they hold 0 bytes: reading stops at cap + 1 bytes."""
    with pytest.raises(YamlError, match="larger than 10 bytes"):
        read_capped("/proc/self/status", 10)
    assert read_capped("/proc/self/status", 100_000).startswith(b"Name:")


def test_max_size_lets_a_larger_file_through_to_the_value_bound(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "huge.yaml").write_text("- werewolf\n" * 200_000, encoding="utf-8")
    assert main(["check", "--max-size", "3000000", str(tmp_path / "huge.yaml")]) == 1
    assert f"huge.yaml:{MAX_VALUES}: more than {MAX_VALUES} values" in capsys.readouterr().err
    assert yamlfile.max_bytes == yamlfile.MAX_BYTES  # the next command reads with the default again


# -- YAML: special files and junk -----------------------------------------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "table.yaml"
    os.mkfifo(path)
    return path


def test_a_fifo_is_refused_without_waiting_for_a_writer(fifo: Path) -> None:
    done = threading.Event()
    outcome: list[str] = []

    def read() -> None:
        try:
            load(fifo)
        except YamlError as exc:
            outcome.append(str(exc))
        done.set()

    threading.Thread(target=read, daemon=True).start()
    assert done.wait(10), "load waited on a FIFO"
    assert outcome == [f"{fifo}: is a FIFO, not a regular YAML file"]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_a_device_is_refused(device: str) -> None:
    with pytest.raises(YamlError, match=f"^{device}: is a device, not a regular YAML file$"):
        load(device)


@pytest.mark.parametrize("command", [["check"], ["dry-run", "--silent"]])
@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "folder", "huge"])
def test_a_scripts_config_that_is_not_a_small_regular_file_is_refused(tmp_path: Path, command: list[str],
                                                                       target: str) -> None:
    """A script's `config:` is bounded like any YAML file: through a real process, with a timeout for a hang."""
    if target == "fifo":
        os.mkfifo(tmp_path / "fifo")
    elif target == "folder":
        (tmp_path / "folder").mkdir()
    elif target == "huge":
        (tmp_path / "huge").write_text("# x\n" * 300_000, encoding="utf-8")
    deal = "".join(f"  {i}: {r}\n" for i, r in enumerate(["werewolf", "werewolf", "seer"] + ["villager"] * 3, 1))
    (tmp_path / "script.yaml").write_text(f"config: {target}\ndeal:\n{deal}answers: []\n", encoding="utf-8")
    result = run(*command[:1], str(tmp_path / "script.yaml"), *command[1:], cwd=tmp_path)
    no_internal_error(result.stdout + result.stderr)
    assert result.returncode == 1, result.stderr
    assert f"script.yaml:1: config: {tmp_path / target if target != '/dev/zero' else target}" in result.stderr


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_binary_junk_is_read_or_refused_naming_the_file(tmp_path_factory: pytest.TempPathFactory,
                                                        junk: bytes) -> None:
    path = tmp_path_factory.mktemp("junk") / "junk.yaml"
    path.write_bytes(junk)
    try:
        load(path)
    except YamlError as exc:
        assert str(exc).startswith(str(path)), exc


# -- the command line: every value typed ----------------------------------------------------------

FREE_TEXT = {"--lang", "--microphone", "--url", "--voice", "--preset", "--deck", "texts", "language",
             "action"}
"""Values that are free text on purpose: the command itself checks them."""
ODD = ["", " ", "-1", "0", "-0", "nan", "NaN", "inf", "-inf", "1e309", "1e-320", "9" * 30, "0x10", "1_000", "١٢",
       "５", "1.5", "abc", "\x00", "a\x00b", "-", "--", "~", "\n", "é", "狼", "\udcff", "/dev/zero", "/"]


def typed_options() -> list[tuple[str, str, argparse.Action]]:
    """Every option or argument of every command that takes a value: (command, name, action)."""
    found = []
    for command, parser in build_parser()._subparsers._group_actions[0].choices.items():  # type: ignore[union-attr]
        parsers = [(command, parser)]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers = [(f"{command} {name}", sub) for name, sub in action.choices.items()]
        for name, sub in parsers:
            for action in sub._actions:
                if action.nargs != 0 and not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                    found.append((name, action.option_strings[0] if action.option_strings else action.dest, action))
    return found


def test_every_value_on_the_command_line_has_a_type_or_choices() -> None:
    """A number or a path read as a bare string fails later, often as an internal error: each gets a type."""
    untyped = [f"{command} {name}" for command, name, action in typed_options()
               if action.type is None and action.choices is None and name not in FREE_TEXT]
    assert not untyped


@pytest.mark.parametrize("command,name,action", [(c, n, a) for c, n, a in typed_options() if a.type is not None],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_odd_values_are_refused_by_their_type_or_read_as_they_say(command: str, name: str,
                                                                  action: argparse.Action) -> None:
    """Each odd value: an argparse error (a clear message, exit 2) or a value of the type, in range."""
    assert callable(action.type)
    for value in ODD:
        try:
            got = action.type(value)
        except argparse.ArgumentTypeError as exc:
            assert repr(value) in str(exc) or not value and "empty" in str(exc), (name, value, exc)
            continue
        if isinstance(got, float):
            assert got == got and abs(got) != float("inf"), (name, value)
        assert got is not None and got != "" and "\x00" not in str(got), (name, value)


@pytest.mark.parametrize("argv", [
    ["dry-run", "x.yaml", "--pace", "-1"], ["dry-run", "x.yaml", "--pace", "nan"],
    ["dry-run", "x.yaml", "--pace", "inf"], ["dry-run", "x.yaml", "--pace", "1e300"],
    ["resume", "j.jsonl", "--pace=-inf"], ["play", "--seed", "-1"], ["play", "--seed", "9" * 5000],
    ["simulate", "--preset", "classic", "--seats", "0"], ["simulate", "--games", "0"], ["simulate", "--jobs", "-2"],
    ["simulate", "--seed", "1e3"], ["mic-test", "--seconds", "nan"], ["models", "fetch", "en", "--size", "-5"],
    ["check", ""], ["dry-run", ""], ["play", "--journal-dir", ""], ["play", "--model", ""], ["check", "--max-size",
                                                                                              "1e6", "x.yaml"],
    ["dry-run", "x.yaml", "--audio-dir", ""], ["devices", ""], ["voices", "add", "en", ""], ["check", "a\x00b"],
    ["models", "fetch", "en", "--sha256", "00"], ["voices", "fetch", "en", "--sha256", "g" * 64],
])
def test_a_bad_value_exits_2_naming_its_option(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    no_internal_error(err)
    assert "error: argument" in err and ("is not" in err or "an empty name" in err), err


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null", "/", "-", "~", "\n", "x" * 5000, "no/such/folder/x.yaml",
                                  "é\udcff.yaml", "fifo"])
@pytest.mark.parametrize("argv", [["check", "{}"], ["dry-run", "{}", "--silent"],
                                  ["simulate", "--config", "{}", "--games", "1", "--jobs", "1"]],
                         ids=["check", "dry-run", "simulate"])
def test_odd_paths_are_refused_with_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str], path: str, argv: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    os.mkfifo(tmp_path / "fifo")
    assert main([a.replace("{}", path) for a in argv]) == 1
    out = capsys.readouterr()
    no_internal_error(out.out + out.err)
    assert "error: " in out.err


# -- the output: a full disk, an encoding without Chinese -----------------------------------------


@pytest.mark.parametrize("argv", [["dry-run", str(PRACTICE_ZH), "--silent"], ["check", "--no-simulate", str(PRACTICE_ZH)],
                                  ["--help"], ["check", "--help"], ["models", "fetch", "--help"], ["voices", "-h"]],
                         ids=["dry-run", "check", "--help", "check-help", "models-fetch-help", "voices-help"])
def test_stdout_on_a_full_device_is_said_plainly(argv: list[str]) -> None:
    # A help too: argparse itself ignores a failed write (the help was lost and the exit status 0).
    with open("/dev/full", "w") as full:
        result = run(*argv, stdout=full)
    no_internal_error(result.stderr)
    assert result.returncode == 1
    assert result.stderr.strip().endswith("cannot write the output (No space left on device)"), result.stderr


@pytest.mark.parametrize("argv", [["check", "--no-simulate", str(PRACTICE_ZH)], ["check", "--help"]],
                         ids=["check", "help"])
def test_a_closed_stdout_is_said_plainly(argv: list[str]) -> None:
    result = subprocess.run([sys.executable, "-m", "narrator", *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL, timeout=60, cwd=ROOT,
                            preexec_fn=lambda: os.close(1))  # as `>&-` in a shell
    no_internal_error(result.stderr)
    assert result.returncode == 1
    assert result.stderr.strip().endswith("cannot write the output (the standard output is closed)"), result.stderr


def test_a_usage_mistake_with_a_full_stderr_is_still_exit_2() -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "narrator", "check", "--bogus"], stdout=subprocess.PIPE,
                                stderr=full, stdin=subprocess.DEVNULL, timeout=60, cwd=ROOT)
    assert result.returncode == 2


def test_a_voice_log_fifo_without_a_reader_is_refused_not_waited_for(tmp_path: Path) -> None:
    """Opening it for writing waited for a reader: the game hung on a blank screen before it began."""
    os.mkfifo(tmp_path / "fifo")
    code = ("from narrator.cli import _voice_log\nfrom narrator.errors import UserError\ntry:\n"
            f"    with _voice_log({str(tmp_path / 'fifo')!r}): pass\nexcept UserError as exc:\n    print(exc)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30, cwd=ROOT)
    assert result.stdout.strip().endswith("a FIFO that no program reads: start its reader first)"), result


def test_a_report_fifo_without_a_reader_is_refused_not_waited_for(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    result = run("dry-run", str(PRACTICE_ZH), "--silent", "--report", str(tmp_path / "fifo"))
    no_internal_error(result.stderr)
    assert result.returncode == 1
    assert result.stderr.strip().endswith("cannot write the report (a FIFO that no program reads: start its reader "
                                          "first)"), result.stderr


def test_the_chinese_game_in_a_latin1_terminal_is_played_with_question_marks() -> None:
    result = run("dry-run", str(PRACTICE_ZH), "--silent", env={"PYTHONIOENCODING": "latin-1"})
    no_internal_error(result.stdout + result.stderr)
    assert result.returncode == 0, result.stderr
    assert "?" in result.stdout and "cannot show some characters" in result.stderr
    assert result.stderr.count("cannot show") == 1


# -- HOME and XDG ---------------------------------------------------------------------------------


@pytest.fixture
def fresh_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(folders, "_told", set())


def every_folder() -> list[Path]:
    from narrator.journal import default_folder as journals
    from narrator.listen.models import data_folder
    from narrator.speak.cache import default_folder as cache
    from narrator.speak.piper_backend import voices_folder

    return [journals(), data_folder(), voices_folder(), cache()]


@pytest.mark.parametrize("home", ["", "relative/home"])
def test_an_empty_or_relative_home_gives_way_to_the_accounts_home_everywhere(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fresh_warnings: None, home: str) -> None:
    import pwd

    monkeypatch.setenv("HOME", home)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    account = Path(pwd.getpwuid(os.getuid()).pw_dir)
    assert [p.relative_to(account).parts[:2] for p in every_folder()] == [
        (".local", "share"), (".local", "share"), (".local", "share"), (".cache", "werewolf-narrator")]
    assert capsys.readouterr().err.count("HOME=") == 1  # said once, however many folders are found


@pytest.mark.parametrize("variable", ["XDG_DATA_HOME", "XDG_CACHE_HOME"])
@pytest.mark.parametrize("value", ["", "relative/data"])
def test_an_empty_or_relative_xdg_folder_is_ignored_everywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str],
                                                              fresh_warnings: None, variable: str,
                                                              value: str) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv(variable, value)
    assert every_folder() == [tmp_path / ".local/share/werewolf-narrator/games",
                              tmp_path / ".local/share/werewolf-narrator/models",
                              tmp_path / ".local/share/werewolf-narrator/voices",
                              tmp_path / ".cache/werewolf-narrator/voices"]
    assert ("not an absolute path" in capsys.readouterr().err) == bool(value)


def test_absolute_xdg_folders_are_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert every_folder() == [tmp_path / "data/werewolf-narrator/games", tmp_path / "data/werewolf-narrator/models",
                              tmp_path / "data/werewolf-narrator/voices", tmp_path / "cache/werewolf-narrator/voices"]


def test_no_home_at_all_is_refused_with_what_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    import pwd

    monkeypatch.setenv("HOME", "")
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: (_ for _ in ()).throw(KeyError(uid)))
    with pytest.raises(UserError, match="HOME is '' and this account has no home folder: set HOME"):
        folders.data_home()


def test_models_list_with_an_empty_home_names_the_accounts_folder() -> None:
    """Through a real process: the folder models are looked for in is under the account's home, not under /."""
    result = run("models", "list", env={"HOME": "", "XDG_DATA_HOME": ""})
    no_internal_error(result.stdout + result.stderr)
    assert result.returncode == 0
    assert "HOME='' is not an absolute path" in result.stderr


@pytest.mark.parametrize("home", ["", "relative/home"])
def test_an_empty_or_relative_home_is_settled_for_the_libraries_too(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fresh_warnings: None, home: str) -> None:
    import pwd

    monkeypatch.setenv("HOME", home)
    folders.settle_home()
    assert os.environ["HOME"] == pwd.getpwuid(os.getuid()).pw_dir
    folders.data_home()
    assert capsys.readouterr().err.count("HOME=") == 1


def test_voices_with_a_relative_home_prints_no_library_complaint() -> None:
    """PulseAudio's client (loaded by espeak-ng) printed "Failed to get the home directory" for a relative HOME."""
    result = run("voices", env={"HOME": "relative/home"})
    no_internal_error(result.stdout + result.stderr)
    assert result.returncode == 0
    assert result.stderr.strip().splitlines() == [
        f"warning: HOME='relative/home' is not an absolute path: ignored, the account's home "
        f"{__import__('pwd').getpwuid(os.getuid()).pw_dir} is used"], result.stderr


def test_a_long_text_repeated_by_aliases_is_refused_before_it_is_checked(tmp_path: Path) -> None:
    """800 KB of text named 1,000 times: 800 MB to check for control characters, refused at once instead, at the
    line of the text."""
    text = "x" * 800_000
    (tmp_path / "table.yaml").write_text(f"{TABLE}names: &a {text}\nseats: [{', '.join(['*a'] * 1_000)}]\n",
                                         encoding="utf-8")
    with pytest.raises(YamlError, match=r"table.yaml:3: aliases repeat more than 1,000,000 characters of text"):
        load(tmp_path / "table.yaml")
