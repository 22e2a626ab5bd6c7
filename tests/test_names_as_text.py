"""A name is text wherever it goes: rich's markup ("[/]" crashed the game, "[blink reverse]" restyled its title,
"[link=x]" made a terminal hyperlink), HTML ("<img src=x onerror=...>" survived into the recap's file), Markdown
("**bold**", "[a](b)", "|", "#"), a right-to-left script and emoji. `check` warns about the markup-like ones, with
their line, and the game shows and writes every one as it is written."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from engine import Game, deal_cards
from helpers import play_keys
from keystrokes import after, answered_ahead, keys_for, plan_keys
from tmux import PATIENCE
from narrator.config import TableConfig
from narrator.play import STARTER, NewGame, show_recap
from narrator.recap import build_recap, escaped, markdown
from narrator.voices import load_voice

NAMES = ("[/]", "[blink reverse]", "[link=x]", "<img src=x onerror=f()>", "**bold** _x_ [a](b) | # ",
         "שלום", "🐺", "Hugo")
"""The starter table's eight seats, named as a curious player would (none over 24 characters)."""

MARKUP_LIKE = (1, 2, 3, 4, 5)
"""The seats whose names look like markup: `check` warns about them, and only them."""

TABLE = ("language: en\nseats: [{names}]\ndeck: [werewolf, werewolf, seer, witch, hunter, cupid, villager, villager]\n"
         "deal: app\nsheriff: true\nspeaker: console\npause: [0, 0]\ncall_floor: 0\n")

SEED = 3

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def table_file(folder: Path) -> Path:
    path = folder / "table.yaml"
    # Written as a host writes them (json.dumps would escape the emoji as a surrogate pair, which YAML refuses).
    path.write_text(TABLE.format(names=", ".join(json.dumps(n, ensure_ascii=False) for n in NAMES)), encoding="utf-8")
    return path


def flat(text: str) -> str:
    """The text as a reader sees it: colours gone, every run of spaces one (a long line wraps between words)."""
    return " ".join(ANSI.sub("", text).split())


def test_check_warns_about_names_that_look_like_markup_with_their_line_and_passes(tmp_path: Path) -> None:
    table_file(tmp_path)
    result = subprocess.run([sys.executable, "-m", "narrator", "check", "--no-simulate", "table.yaml"],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    voice = load_voice("en")
    warned = [line for line in result.stderr.splitlines() if "looks like markup" in line]
    assert len(warned) == len(MARKUP_LIKE), result.stderr
    for seat, line in zip(MARKUP_LIKE, warned):
        said = voice.text("screen.advice_markup_name", {"number": seat, "name": repr(NAMES[seat - 1])},
                          fragment=True)
        assert line == f"warning: table.yaml:2: seats: {said}"


def test_the_host_screen_shows_every_name_as_written_in_its_title_circle_and_lines() -> None:
    """The deal's panel is titled by the seat's name: rich read it as markup ("[/]": MarkupError, exit 3)."""
    from rich.console import Console

    from narrator.circle import seating
    from narrator.screen import RichScreen

    screen = RichScreen("werewolf-narrator")
    drawn = ""
    try:
        screen.console = Console(file=io.StringIO(), width=200, height=60, record=True, color_system="truecolor",
                                 force_terminal=True)
        screen.seating(seating(load_voice("en"), len(NAMES), NAMES))
        for name in NAMES:
            screen.show_call(name, "")
            screen.public(f"{name}, come to the screen.")
            screen.console.print(screen._render())
            drawn += screen.console.export_text(styles=True, clear=False)
            shown = screen.console.export_text()
            assert name.strip() in shown.splitlines()[0], shown  # the panel's title, as written
            assert f"{name}, come to the screen." in shown and f"{len(NAMES)} Hugo" in shown
    finally:
        screen.close()
    assert "\x1b]8;" not in drawn  # no hyperlink ("[link=x]")
    assert "\x1b[5m" not in drawn  # nothing blinks ("[blink reverse]")


def test_the_recap_file_escapes_names_for_html_and_markdown_and_the_screen_shows_them(tmp_path: Path) -> None:
    """The file to share holds no HTML and no Markdown of a player's: a viewer shows each name as written; the
    recap on the screen (the same Markdown, drawn by rich) shows each name too (it dropped "<img ...>")."""
    config = dataclasses.replace(TableConfig("en", STARTER.table, pause=(0.0, 0.0)), names=NAMES)
    keys, _ = plan_keys(config, 3)
    game = play_keys(config, keys, seed=3, start=NewGame(folder=tmp_path))
    journal = next(tmp_path.glob("game-*.jsonl"))
    written = journal.with_suffix(".md").read_text(encoding="utf-8")
    assert written == markdown(build_recap(game, load_voice("en"), NAMES))
    assert "<img" not in written and escaped(NAMES[3]) in written and "&lt;img src=x onerror=f()&gt;" in written
    assert r"\*\*bold\*\* \_x\_ \[a\](b) \| \#" in written
    page = MarkdownIt("commonmark").enable("table").render(written)
    assert "<img" not in page and "<strong>" not in page and "<em>" not in page and "<a " not in page
    assert "<table" not in page and page.count("<h1>") == 1
    text = re.sub(r"<[^>]+>", "", page).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
    for name in NAMES:
        assert name.strip() in text.replace("&amp;", "&"), name

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    shown = Terminal()
    show_recap(game, load_voice("en"), NAMES, tmp_path / "again.jsonl", shown)
    on_screen = flat(shown.getvalue())
    for name in NAMES:
        assert flat(name) in on_screen, name
    assert "\x1b]8;" not in shown.getvalue()  # "[a](b)" made no link


@pytest.mark.terminal
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by scripts/setup.sh --test")
def test_a_game_with_such_names_plays_resumes_after_a_crash_and_ends_in_a_real_terminal(tmp_path: Path) -> None:
    """`play` in tmux through the deal and the first night's calls, killed (SIGKILL), gone on with the supervisor's
    `resume` of its journal, to the winner: never an internal error, the names shown as written."""
    from narrator.config import load_config
    from narrator.journal import read_journal
    from tmux import Tmux

    config = load_config(str(table_file(tmp_path)))[0]
    game = Game(config.table, deal_cards(config.table, SEED))
    chunks = [["enter"] * 3 * config.table.seats]  # the deal: each seat sees its card, hides it, and leaves
    calls = []
    for call, value, step in answered_ahead(game, random.Random(SEED)):
        chunks.append(keys_for(call, value) + after(step))
        calls.append(call)
    stop = next(i for i, call in enumerate(calls) if call.phase.value == "night") + 3  # three night calls answered
    voice = load_voice("en")
    tmux = Tmux(f"wn-names-{tmp_path.name}")
    tmux.start(f"cd {tmp_path} && {sys.executable} -m narrator play table.yaml --seed {SEED} --journal-dir j; "
               "echo exit=$?; sleep 600", width=120, height=40)
    try:
        shown = tmux.wait_for(voice.text("deal.app_turn", {"seat": 1}, NAMES)[:30])
        assert voice.seat(1, NAMES) in shown  # the deal's panel is titled by the name, as written: "[/], seat ..."
        tmux.send([key for chunk in chunks[:stop + 1] for key in chunk])

        def answered() -> int:
            journals = list((tmp_path / "j").glob("*.jsonl"))
            return len(read_journal(str(journals[0]))[1]) if journals else 0

        end = time.monotonic() + PATIENCE
        while answered() < stop and time.monotonic() < end:
            time.sleep(0.1)
        assert answered() == stop, tmux.screen()
        os.kill(tmux.game_process(), signal.SIGKILL)
        tmux.wait_for("Press Enter")
        tmux.send(["enter"])
        tmux.wait_for(voice.text("notice.resumed", {}))
        tmux.send([key for chunk in chunks[stop + 1:] for key in chunk])
        final = tmux.wait_for("exit=", seconds=PATIENCE * 2)
        everything = tmux.everything()
    finally:
        tmux.close()
    assert "exit=0" in final, final
    assert "internal error" not in everything and "Traceback" not in everything
    recap = next((tmp_path / "j").glob("*.md")).read_text(encoding="utf-8")
    assert "<img" not in recap and escaped(NAMES[3]) in recap and escaped(NAMES[0]) in recap
    assert flat(NAMES[5]) in flat(everything) and NAMES[6] in everything  # the recap on the screen names them
