"""`resume` with no journal lists the unfinished games and goes on with the one chosen; `resume --last`;
every hint shows a command that works where the user is, on a line of its own."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len

from helpers import play_keys
from keystrokes import plan_keys
from narrator import cli
from narrator.config import TableConfig
from narrator.errors import GameStopped, UserError
from narrator.hint import COMMAND, command, fold
from narrator.play import STARTER, NewGame
from narrator.screen import PlainScreen
from narrator.unfinished import choose, unfinished_games

ROOT = Path(__file__).resolve().parent.parent
APP = TableConfig("en", STARTER.table, pause=(0.0, 0.0), source="/tables/friday.yaml")
SEED = 5
KEYS, AHEAD = plan_keys(APP, SEED)
DEAL = 3 * APP.table.seats


def journaled(folder: Path, name: str, keys: list[str], when: float) -> Path:
    """Plays ``keys`` of the game into the journal ``folder/name`` (stopping where they run out), dated ``when``."""
    path = folder / name
    folder.mkdir(exist_ok=True)
    try:
        play_keys(APP, keys, seed=SEED, start=NewGame(path=path))
    except EOFError:
        pass
    os.utime(path, (when, when))
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Journals of every kind: two unfinished games (mid-deal, by night 1), a finished one, a dry run's, a damaged
    one; the game stopped in the deal was played last."""
    games = tmp_path / "games"
    journaled(games, "game-finished.jsonl", KEYS, 3000)
    journaled(games, "game-night.jsonl", KEYS[:DEAL + 6], 1000)
    journaled(games, "game-deal.jsonl", KEYS[:7], 2000)
    (games / "dry.jsonl").write_text(json.dumps({"werewolf-narrator": 1, "kind": "dry-run"}) + "\n")
    (games / "damaged.jsonl").write_text("not a journal\n")
    return games


def test_only_unfinished_games_at_the_table_are_listed_the_most_recent_first(folder: Path) -> None:
    games = unfinished_games(folder)
    assert [g.path.name for g in games] == ["game-deal.jsonl", "game-night.jsonl"]
    assert [g.details for g in games] == ["friday.yaml, 8 players (the deal)", "friday.yaml, 8 players (night 1)"]
    assert {g.language for g in games} == {"en"}


def at_table(journal: Path, language: str, name: str) -> Path:
    """A copy of ``journal`` whose header says its table speaks ``language``, as a French or Chinese game's does."""
    first, rest = journal.read_text(encoding="utf-8").split("\n", 1)
    header = json.loads(first)
    header["config"]["language"] = language
    copy = journal.with_name(name)
    copy.write_text(json.dumps(header, ensure_ascii=False) + "\n" + rest, encoding="utf-8")
    os.utime(copy, (journal.stat().st_mtime,) * 2)
    return copy


def test_each_game_s_details_are_in_its_own_table_s_language(folder: Path) -> None:
    """The list may hold several tables' games: its frame stays in English, each game reads in its table's
    language, tagged with it; a header naming no voice file (edited by hand) falls back to English."""
    at_table(folder / "game-night.jsonl", "fr", "fr-game-night.jsonl")
    at_table(folder / "game-deal.jsonl", "zh", "zh-game-deal.jsonl")
    at_table(folder / "game-deal.jsonl", "../en", "edited.jsonl")
    details = {g.path.name: (g.language, g.details) for g in unfinished_games(folder)}
    assert details["fr-game-night.jsonl"] == ("fr", "friday.yaml, 8 joueurs (nuit 1)")
    assert details["zh-game-deal.jsonl"] == ("zh", "friday.yaml，8名玩家（发牌）")
    assert details["edited.jsonl"] == ("en", "friday.yaml, 8 players (the deal)")
    out = io.StringIO()
    choose(folder, last=False, out=out, interactive=False)
    assert "  [fr]  friday.yaml, 8 joueurs (nuit 1)\n" in out.getvalue()
    assert "  [zh]  friday.yaml，8名玩家（发牌）\n" in out.getvalue()


def test_a_finished_game_s_journal_ends_with_its_winner(folder: Path) -> None:
    last = (folder / "game-finished.jsonl").read_text().splitlines()[-1]
    assert AHEAD.outcome is not None and json.loads(last) == {"over": AHEAD.outcome.winner}


def test_without_a_terminal_the_list_is_printed_with_how_to_choose(folder: Path) -> None:
    out = io.StringIO()
    assert choose(folder, last=False, out=out, interactive=False) is None
    text = out.getvalue()
    assert text.index("game-deal.jsonl") < text.index("game-night.jsonl")
    assert "game-finished" not in text and "dry.jsonl" not in text
    assert "werewolf-narrator resume FILE" in text and "werewolf-narrator resume --last" in text
    assert f"\n       {folder / 'game-deal.jsonl'}\n" in text  # the path on a line of its own: never cut by the list


def test_the_game_is_chosen_by_its_number_at_the_prompt(folder: Path) -> None:
    answers = iter(["9", "x", "2"])
    out = io.StringIO()
    assert choose(folder, last=False, out=out, ask=lambda prompt: next(answers), interactive=True) == \
        folder / "game-night.jsonl"
    assert out.getvalue().count("Type a number from 1 to 2.") == 2
    assert choose(folder, False, io.StringIO(), ask=lambda prompt: "", interactive=True) == folder / "game-deal.jsonl"
    assert choose(folder, False, io.StringIO(), ask=lambda prompt: "q", interactive=True) is None


def test_no_unfinished_game_is_said_plainly(tmp_path: Path) -> None:
    journaled(tmp_path / "games", "game-finished.jsonl", KEYS, 3000)
    with pytest.raises(UserError, match="no unfinished game in .*games: `werewolf-narrator play` starts one"):
        choose(tmp_path / "games", last=True)


@pytest.mark.parametrize("argv, chosen", [(["--last"], "game-deal.jsonl"), ([], None)])
def test_resume_with_no_journal_goes_on_with_the_game_chosen(folder: Path, monkeypatch: pytest.MonkeyPatch,
                                                             argv: list[str], chosen: str | None) -> None:
    """`resume --last` goes on with the most recent unfinished game; `resume` alone, with no terminal to ask,
    lists them and goes on with none."""
    import narrator.play

    resumed: list[str] = []
    monkeypatch.setattr(narrator.play, "resume_play", lambda args, *rest, **more: resumed.append(args.journal))
    monkeypatch.setattr("narrator.supervise.wanted", lambda: False)
    monkeypatch.setattr("narrator.unfinished.os.isatty", lambda fd: False)
    assert cli.main(["resume", "--journal-dir", str(folder), *argv]) == 0
    assert resumed == ([str(folder / chosen)] if chosen else [])


def test_resume_takes_a_journal_or_last_not_both(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["resume", "--last", str(folder / "game-deal.jsonl")]) == 2
    assert "a journal or --last, not both" in capsys.readouterr().err


def test_the_list_from_the_command_line_without_a_terminal(folder: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "narrator", "resume", "--journal-dir", str(folder)], cwd=ROOT,
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "Unfinished games in" in run.stdout and "(the deal)" in run.stdout and "(night 1)" in run.stdout


# -- the command a hint shows ---------------------------------------------------------------------

def test_the_command_is_werewolf_narrator_when_it_is_on_the_path() -> None:
    assert command({}, "/x/.venv/bin/werewolf-narrator", which=lambda name: f"/usr/bin/{name}") == \
        "werewolf-narrator"


def test_the_command_is_the_script_running_by_its_shortest_path_when_not_on_the_path() -> None:
    def nowhere(name: str) -> None:
        return None

    assert command({}, "/home/ann/wn/.venv/bin/werewolf-narrator", which=nowhere, cwd="/home/ann/wn") == \
        ".venv/bin/werewolf-narrator"
    assert command({}, "/home/ann/wn/.venv/bin/werewolf-narrator", which=nowhere, cwd="/tmp") == \
        "/home/ann/wn/.venv/bin/werewolf-narrator"
    assert command({}, "/src/narrator/__main__.py", "/home/ann/wn/.venv/bin/python", which=nowhere,
                   cwd="/home/ann/wn") == ".venv/bin/python -m narrator"
    assert command({}, "/opt/my games/bin/werewolf-narrator", which=nowhere, cwd="/tmp") == \
        "'/opt/my games/bin/werewolf-narrator'"  # quoted: it works pasted


def test_the_command_chosen_by_the_first_process_is_the_one_its_children_show() -> None:
    assert command({COMMAND: ".venv/bin/werewolf-narrator"}, "/src/narrator/__main__.py",
                   which=lambda name: None) == ".venv/bin/werewolf-narrator"


def test_the_supervised_game_is_given_the_command_the_user_started_with(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from narrator.supervise import Supervisor

    monkeypatch.setenv(COMMAND, ".venv/bin/werewolf-narrator")
    seen = tmp_path / "seen"
    python = tmp_path / "python"
    python.write_text(f"#!/bin/sh\necho \"${COMMAND}\" > {seen}\n")
    python.chmod(0o755)
    assert Supervisor(tmp_path / "game.jsonl", ["resume"], python=str(python)).run(["play"]) == 0
    assert seen.read_text() == ".venv/bin/werewolf-narrator\n"


@pytest.mark.parametrize("language, said", [("en", "The game stopped; every answer so far is saved. To go on:"),
                                            ("fr", "Partie arrêtée ; toutes les réponses sont enregistrées. Pour reprendre :"),
                                            ("zh", "游戏已停止；目前所有回答都已保存。继续游戏：")])
def test_the_stop_hint_puts_the_command_on_a_line_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             language: str, said: str) -> None:
    """In the table's language, as its screen was (the keys are the same at a French or Chinese table)."""
    monkeypatch.setattr(sys.modules[__name__], "APP", dataclasses.replace(APP, language=language))
    with pytest.raises(GameStopped) as stopped:
        journaled(tmp_path, "game.jsonl", KEYS[:DEAL + 4] + ["interrupt", "enter"], 0)
    assert f"{said}\n  werewolf-narrator resume {tmp_path / 'game.jsonl'}" in str(stopped.value)
    assert cell_len(said) < 80  # printed as it is once the full screen is gone: the terminal would cut it


def test_a_warning_or_a_message_is_cut_between_words_never_mid_word() -> None:
    """fold: a French warning at 80 columns is cut at a space; a Chinese line counts two cells a character; a
    path wider than the line stays whole; without a terminal, nothing is cut."""
    warning = ("warning: Aucun modèle de reconnaissance vocale : répondez au clavier. Pour répondre de vive voix : "
               "/home/ann/wn/.venv/bin/python -m narrator models fetch fr")
    folded = fold(warning, 79)
    assert folded.replace("\n", " ") == warning and all(len(line) <= 79 for line in folded.splitlines())
    assert folded.splitlines()[0].endswith("Pour") and "répondre" in folded.splitlines()[1]
    chinese = "没有语音识别模型：请用键盘回答。要用语音回答，请运行 /home/ann/wn/.venv/bin/python -m narrator models fetch zh"
    assert all(cell_len(line) <= 79 for line in fold(chinese, 79).splitlines())
    path = "/very/" + "long/" * 30 + "game.jsonl"
    assert fold(f"see {path}", 79) == f"see\n{path}"
    assert fold(warning, None) == warning


def test_the_end_of_game_question_names_the_command(tmp_path: Path) -> None:
    screen = PlainScreen(io.StringIO(), terminal=True)
    with pytest.raises(GameStopped):
        play_keys(APP, KEYS[:DEAL + 4] + ["menu", "5", "enter"], seed=SEED, start=NewGame(path=tmp_path / "game.jsonl"),
                  screen=screen)
    assert "It can go on later with werewolf-narrator resume." in screen.out.getvalue()  # type: ignore[attr-defined]


@pytest.mark.terminal
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by scripts/setup.sh --test")
def test_in_an_80_column_terminal_the_game_chosen_goes_on_and_the_stop_hint_works_pasted(folder: Path) -> None:
    """In a real terminal, 80 columns, the program not on the PATH: `resume` alone lists the games, 2 picks the
    older; Ctrl-C stops it, and the hint's command, never cut mid-word, goes on with the same game where it stands."""
    from tmux import Tmux

    tmux = Tmux(f"wn-list-{folder.parent.name}")
    # The shell outlives Ctrl-C (its trap), to tell the game's exit status; the game gets Ctrl-C as usual.
    shell = f"trap true INT; cd {ROOT} && unset {COMMAND} COLUMNS LINES && PATH=/usr/bin:/bin"
    tmux.start(f"sh -c '{shell} {sys.executable} -m narrator resume --journal-dir {folder} --speaker console "
               f"--plain; echo exit=$?; sleep 60'", width=80, height=24)
    try:
        listed = tmux.wait_for("Which game?")
        assert "(the deal)" in listed and "(night 1)" in listed and "friday.yaml, 8 players" in listed
        tmux.send(["2", "enter"])
        tmux.wait_for("[Night 1]")  # the older game goes on, at Cupido's call (the other stopped in the deal)
        tmux.run("send-keys", "-t", tmux.target, "C-c")
        tmux.wait_for("Stop the game?")
        tmux.send(["enter"])
        stopped = tmux.wait_for("exit=130")
        shown = stopped[stopped.index("To go on:") + len("To go on:"):stopped.index("exit=130")].strip("\n")
        assert all(len(line) <= 80 for line in shown.splitlines())
        assert shown.count("\\\n") >= 2  # too wide for 80 columns: cut where a word or a folder ends
        hint = shown.replace("\\\n", "").strip()  # as the shell joins the lines pasted
        assert hint == f"{Path(sys.executable).relative_to(ROOT)} -m narrator resume {folder / 'game-night.jsonl'}"
        tmux.respawn(f"sh -c '{shell} {hint} --speaker console --plain; echo exit=$?; sleep 60'")
        tmux.wait_for("[Night 1]")
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True)


def test_the_voice_hints_name_the_command_that_works_where_the_user_is(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """No Piper voice installed, one that cannot be fetched: the hints show the command as the user typed it."""
    from narrator.speak.piper_backend import piper_problem
    from narrator.speak.voice_fetch import find_voice

    monkeypatch.setenv(COMMAND, ".venv/bin/werewolf-narrator")
    problem = piper_problem("fr", folder=tmp_path)
    assert problem is not None
    assert ".venv/bin/werewolf-narrator voices fetch fr downloads" in problem
    assert ".venv/bin/werewolf-narrator voices add fr FILE.onnx installs one you have" in problem
    assert "(.venv/bin/werewolf-narrator voices lists them)" in str(piper_problem("fr", "nobody", tmp_path))
    with pytest.raises(UserError, match=r"with \.venv/bin/werewolf-narrator voices add xx FILE\.onnx"):
        find_voice("xx")
    with pytest.raises(UserError, match=r"with \.venv/bin/werewolf-narrator voices add fr FILE\.onnx"):
        find_voice("fr", "nobody")


def test_in_a_terminal_of_80_columns_the_list_is_cut_between_words_and_names_the_home_as_tilde(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80 columns the terminal cut the title mid-word ("th" / "e most recent first") and the journals' full paths;
    the title is folded between words and a journal under the home folder is named ~/…."""
    import pty

    monkeypatch.setenv("HOME", str(folder.parent))
    primary, terminal = pty.openpty()
    try:
        os.set_blocking(primary, False)
        import fcntl
        import struct
        import termios

        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        with os.fdopen(os.dup(terminal), "w", encoding="utf-8") as out:
            long = folder.parent / ("a-folder-with-a-long-name-" * 2) / "games"
            shutil.copytree(folder, long)
            assert choose(long, last=False, out=out, interactive=False) is None
        import select

        got = b""  # the pty hands the bytes over a little later: read until the list's last line has come
        while b"--last)" not in got and select.select([primary], [], [], 10)[0]:
            got += os.read(primary, 65536)
        text = got.decode("utf-8").replace("\r\n", "\n")
    finally:
        os.close(primary)
        os.close(terminal)
    lines = text.splitlines()
    title = lines[:[line.lstrip().startswith("1.") for line in lines].index(True)]
    assert all(cell_len(line) <= 80 for line in title) and len(title) > 1
    assert " ".join(title) == f"Unfinished games in ~/{'a-folder-with-a-long-name-' * 2}/games, the most recent first:"
    assert "       ~/a-folder-with-a-long-name-a-folder-with-a-long-name-/games/game-deal.jsonl" in lines


def test_a_game_being_played_now_is_marked_and_last_passes_it_by(folder: Path) -> None:
    """Another narrator holds the newest game's journal (its lock): the list says it is being played, and
    `resume --last` goes on with the most recent game nobody is playing, rather than one it would be refused."""
    import fcntl

    with open(folder / "game-deal.jsonl", "rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a narrator playing it holds it
        out = io.StringIO()
        assert choose(folder, last=False, out=out, interactive=False) is None
        lines = out.getvalue().splitlines()
        deal = next(line for line in lines if "(the deal)" in line)
        night = next(line for line in lines if "(night 1)" in line)
        assert deal.endswith("(being played now, in another werewolf-narrator)")
        assert "being played" not in night
        assert choose(folder, last=True) == folder / "game-night.jsonl"
    assert choose(folder, last=True) == folder / "game-deal.jsonl"  # released: the most recent again
