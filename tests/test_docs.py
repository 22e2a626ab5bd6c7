"""The documentation holds together: every link of the README and of docs/ leads to a file of the repository (and
its #anchor to a heading of it), the README stays a front door (under 200 lines), every message that
docs/troubleshooting.md quotes is still one the program prints, and the boot service of docs/raspberry-pi.md
parses, names real commands and starts a game."""

from __future__ import annotations

import ast
import os
import re
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import yaml

from narrator.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
UNIT = ROOT / "scripts" / "werewolf-narrator.service"

FENCE = re.compile(r"^(```|~~~)")
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


# -- links ------------------------------------------------------------------------------------------------------

def prose(text: str, code: bool = False) -> list[str]:
    """Returns the page's lines, those of fenced code blocks blank, and inline code blanked out too (a link there
    is text) unless ``code``."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            lines.append("")
            continue
        lines.append("" if fenced else line if code else re.sub(r"`[^`]*`", "``", line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, inline code and links reduced to their text, punctuation dropped
    (but hyphens and underscores), each space a hyphen."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Returns every anchor of a Markdown page's headings (a repeated heading gets -1, -2… as on GitHub)."""
    seen: dict[str, int] = {}
    found = set()
    for line in prose(page.read_text(encoding="utf-8"), code=True):
        match = HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """Returns what is wrong with each relative link of ``page``: a missing file, a file outside ``root``, an
    anchor that names no heading. Links to the web (https:, mailto:) are not followed."""
    problems = []
    for number, line in enumerate(prose(page.read_text(encoding="utf-8")), start=1):
        for target in LINK.findall(line):
            where = f"{page.relative_to(root)}:{number}: {target}"
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                if not target.startswith(("https:", "http:", "mailto:")):
                    problems.append(f"{where}: not a link to the web nor to a file")
                continue
            path_part, _, anchor = target.partition("#")
            linked = (page.parent / path_part).resolve() if path_part else page.resolve()
            if not linked.is_relative_to(root.resolve()):
                problems.append(f"{where}: outside the repository")
                continue
            if not linked.exists():
                problems.append(f"{where}: no such file")
                continue
            if anchor:
                if linked.suffix != ".md":
                    problems.append(f"{where}: an anchor into a file that is not Markdown")
                elif anchor not in anchors(linked):
                    problems.append(f"{where}: no heading of {linked.name} has this anchor")
    return problems


def test_the_pages_are_there() -> None:
    """The README and the pages it is the door to (a page named here and missing is a failure, not a skip)."""
    names = {page.name for page in DOCS.glob("*.md")}
    assert {"README.md", "playing.md", "simulate.md", "voices.md", "raspberry-pi.md", "performance.md",
            "troubleshooting.md", "development.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_leads_to_a_file_of_the_repository_and_its_anchor_to_a_heading(page: Path) -> None:
    assert broken_links(page) == []


def test_every_page_of_docs_is_in_its_index() -> None:
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    linked = {target.partition("#")[0] for line in prose(index) for target in LINK.findall(line)}
    assert sorted(page.name for page in DOCS.glob("*.md") if page.name != "README.md") == \
        sorted(name for name in linked if name.endswith(".md") and "/" not in name)


def test_the_link_check_finds_a_missing_page_a_missing_anchor_and_a_file_outside(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "there.md").write_text("# A page\n\n## Is my deck fair? `simulate`\n")
    page = tmp_path / "README.md"
    page.write_text("[ok](docs/there.md#is-my-deck-fair-simulate) [self](#the-door)\n# The door\n"
                    "[gone](docs/gone.md) [anchor](docs/there.md#no-such-heading) [out](../outside.md)\n"
                    "`[code](docs/gone.md)` [web](https://example.org/x.md)\n"
                    "```\n[in a block](docs/gone.md)\n```\n")
    (tmp_path.parent / "outside.md").write_text("# Outside\n")
    assert broken_links(page, tmp_path) == [
        "README.md:3: docs/gone.md: no such file",
        "README.md:3: docs/there.md#no-such-heading: no heading of there.md has this anchor",
        "README.md:3: ../outside.md: outside the repository",
    ]


def test_slugs_are_githubs() -> None:
    assert slug("4. Loudspeaker and microphone") == "4-loudspeaker-and-microphone"
    assert slug("Voices, sound and speech models") == "voices-sound-and-speech-models"
    assert slug("What the budgets mean on a Pi 4 or a Pi 5") == "what-the-budgets-mean-on-a-pi-4-or-a-pi-5"


def test_the_readme_is_a_front_door() -> None:
    """Under 200 lines, with the two commands of the quick start exactly as they are run."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 200
    assert "scripts/setup.sh && .venv/bin/werewolf-narrator play" in readme
    assert "\nscripts/test.sh " in readme


def test_no_page_refers_to_a_document_outside_the_repository() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for name in ("spec/", "shared/", "rulings.md", "dry-run.md", "speech.md", "final.md",
                     "table-protocol.md", "style.md"):
            assert not re.search(rf"(?<![\w.-]){re.escape(name)}(?!\w)", text), f"{page.relative_to(ROOT)} names {name}"


OUTSIDE = ("spec/", "shared/", "rulings.md", "dry-run.md", "speech.md", "final.md", "table-protocol.md", "style.md",
           "seeds/", "000_", "001_", "002_", "003_", "004_")
"""The names of the documents the project was built from, which a clone does not hold."""


def test_no_file_of_the_repository_refers_to_a_document_outside_it() -> None:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    found = []
    for name in listed:
        path = ROOT / name
        if name in ("tests/test_docs.py", "tests/test_docs_rules.py") or not path.is_file():
            continue  # the tests that list the names
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # not text
        for number, line in enumerate(text.splitlines(), start=1):
            for outside in OUTSIDE:
                end = r"(?!\w)" if outside[-1].isalnum() else ""
                if re.search(rf"(?<![\w.-]){re.escape(outside)}{end}", line):
                    found.append(f"{name}:{number}: {outside}")
    assert found == []


# -- the messages quoted in troubleshooting.md -----------------------------------------------------------------

def literal_pieces() -> str:
    """Returns every piece of literal text the program prints from: each string of narrator/ and engine/ (each
    literal run of an f-string apart) and each line of the English voice file (its {placeholders} cut out),
    lower case, each piece between NULs."""
    pieces: list[str] = []
    for path in sorted([*(ROOT / "narrator").rglob("*.py"), *(ROOT / "engine").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                pieces.append(node.value)  # an f-string's literal runs are Constants too: each is a piece

    def strings(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, dict):
            return [s for value in node.values() for s in strings(value)]
        if isinstance(node, list):
            return [s for value in node for s in strings(value)]
        return []

    voice = yaml.safe_load((ROOT / "voices" / "en.yaml").read_text(encoding="utf-8"))
    for line in strings(voice):
        pieces.extend(re.split(r"\{[^}]*\}", line))
    return "\0" + "\0".join(piece.lower() for piece in pieces if piece and "\0" not in piece) + "\0"


MIDDLE = 10
"""The shortest whole piece a quoted fragment may hold between two others: a constant printed inside an f-string
("error: " "no microphone found" ": nothing to test…"), never words pieced together from short strings."""


def printed_from(fragment: str, pieces: str) -> bool:
    """Whether ``fragment`` is text the program prints: inside one literal piece, or the end of one piece followed
    by the start of another (a constant, then an f-string's run: "no microphone found" "; play goes on with the
    keypad"), maybe with one whole piece of MIDDLE characters or more between them."""
    text = fragment.lower()
    if text in pieces:
        return True
    for k in range(1, len(text)):
        if text[:k] + "\0" not in pieces:
            continue
        if "\0" + text[k:] in pieces:
            return True
        for end in range(k + MIDDLE, len(text)):
            if "\0" + text[k:end] + "\0" in pieces and "\0" + text[end:] in pieces:
                return True
    return False


def quoted_messages() -> list[str]:
    """Returns each line of the ```text blocks of troubleshooting.md: the messages it quotes."""
    messages, inside = [], False
    for line in (DOCS / "troubleshooting.md").read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("```"):
            inside = line.strip() == "```text" if not inside else False
            continue
        if inside and line.strip():
            messages.append(line.strip())
    return messages


def fragments(message: str) -> list[str]:
    """The parts of a message that are the program's words: between the … that stand for what changes (a
    quoted '…' is one such part, its quotes the repr's)."""
    return [part for part in message.replace("'…'", "…").split("…") if part.strip()]


def test_troubleshooting_quotes_messages_for_every_problem() -> None:
    page = (DOCS / "troubleshooting.md").read_text(encoding="utf-8")
    for heading in ("No sound", "No microphone", "The speech model will not load", "The voice will not load",
                    "A game that will not resume", "A bad config"):
        assert f"\n## {heading}\n" in page
    assert len(quoted_messages()) >= 40


def test_every_message_quoted_in_troubleshooting_is_still_the_programs() -> None:
    pieces = literal_pieces()
    missing = [message for message in quoted_messages()
               if not all(printed_from(part, pieces) for part in fragments(message))]
    assert missing == []


def test_the_message_check_refuses_words_the_program_does_not_print() -> None:
    pieces = literal_pieces()
    assert all(printed_from(part, pieces) for part in fragments(
        "No sound output device found: the narrator's lines are printed instead"))
    assert all(printed_from(part, pieces) for part in fragments(
        "…: not a Piper voice config (…); nothing was installed"))
    assert not all(printed_from(part, pieces) for part in fragments(
        "No sound output device found: the narrator's lines are whispered instead"))
    assert not all(printed_from(part, pieces) for part in fragments("error: …: the journal is on fire"))
    assert all(printed_from(part, pieces) for part in fragments(  # a constant between two runs of an f-string
        "error: no microphone found: nothing to test; `…` lists the sound devices"))


# -- the boot service of raspberry-pi.md ------------------------------------------------------------------------

def unit_settings() -> dict[str, list[str]]:
    """Returns the unit's settings, ``Section.Key`` → its values in order (comments and blank lines left out)."""
    settings: dict[str, list[str]] = {}
    section = ""
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            assert line.endswith("]"), line
            section = line[1:-1]
            continue
        key, equals, value = line.partition("=")
        assert equals and section, f"not a setting: {line}"
        settings.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return settings


def game_command(settings: dict[str, list[str]]) -> list[str]:
    """The command the unit types into its tmux session: send-keys' text, as the shell splits it."""
    [post] = settings["Service.ExecStartPost"]
    words = shlex.split(post)
    assert words[:4] == ["/usr/bin/tmux", "send-keys", "-t", "werewolf-narrator"] and words[-1] == "Enter"
    return shlex.split(words[4])


def test_the_boot_service_names_real_commands() -> None:
    settings = unit_settings()
    assert settings["Unit.Description"] and settings["Install.WantedBy"] == ["default.target"]
    assert settings["Service.Type"] == ["forking"]
    assert settings["Service.WorkingDirectory"] == ["%h/werewolf-narrator"]
    for key in ("Service.ExecStart", "Service.ExecStartPost", "Service.ExecStop"):
        program = shlex.split(settings[key][0])[0]
        assert program == "/usr/bin/tmux" and shutil.which("tmux") == program
    command = game_command(settings)
    # The clone of ~/werewolf-narrator is this one: the command is its console script, and the narrator reads it.
    assert command[0] == ".venv/bin/werewolf-narrator" and (ROOT / command[0]).is_file()
    assert 'werewolf-narrator = "narrator.cli:entry"' in (ROOT / "pyproject.toml").read_text()
    args = build_parser().parse_args(command[1:])
    assert args.command == "play" and args.config == "table.yaml"


def test_systemd_accepts_the_boot_service(tmp_path: Path) -> None:
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "HOME": str(tmp_path)}
    done = subprocess.run(["systemd-analyze", "verify", "--user", str(UNIT)], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    broken = tmp_path / "broken.service"
    broken.write_text(UNIT.read_text().replace("Type=forking", "Type=forkin"))
    done = subprocess.run(["systemd-analyze", "verify", "--user", str(broken)], capture_output=True, text=True,
                          env=env, timeout=60)
    assert "Failed to parse service type" in done.stderr


@pytest.mark.terminal
def test_the_boot_service_starts_a_game_in_its_tmux_session(tmp_path: Path) -> None:
    """The unit's own tmux commands, run as systemd would run them in a home whose ~/werewolf-narrator is this
    clone (its .venv) with a table.yaml, on a tmux server of the test's own: the game's first call comes up."""
    home = tmp_path / "home"
    clone = home / "werewolf-narrator"
    clone.mkdir(parents=True)
    (clone / ".venv").symlink_to(ROOT / ".venv")
    shutil.copy(ROOT / "examples" / "starter-en.yaml", clone / "table.yaml")
    settings = unit_settings()
    server = f"frontdoor-{os.getpid()}"
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / ".local" / "share"),
           "XDG_CACHE_HOME": str(home / ".cache")}

    def run(key: str, check: bool = True) -> None:
        words = shlex.split(settings[key][0].replace("%h", str(home)))
        subprocess.run([words[0], "-L", server, *words[1:]], check=check, env=env, cwd=clone, timeout=30,
                       capture_output=True)

    try:
        run("Service.ExecStart")
        run("Service.ExecStartPost")
        end, shown = time.monotonic() + 60, ""
        while time.monotonic() < end and "come and see your card" not in shown:
            time.sleep(0.2)
            shown = subprocess.run(["tmux", "-L", server, "capture-pane", "-p", "-J", "-t", "werewolf-narrator"],
                                   capture_output=True, text=True).stdout
        assert "Ann, seat number one, come and see your card" in shown, shown
    finally:
        run("Service.ExecStop", check=False)
        subprocess.run(["tmux", "-L", server, "kill-server"], capture_output=True)


@pytest.mark.parametrize(("options", "selection"), [
    ([], ["-m", "not (terminal or audio or browser or bench)", "-n", "auto",
          "-m", "pytest", "-m", "(terminal or audio or browser) and not bench"]),
    (["--fast"], ["-m", "not (slow or terminal or audio or browser or bench)", "-n", "auto"]),
    (["--bench"], ["-m", "bench"]),
    (["tests/test_play.py", "-x"], ["-m", "not bench", "tests/test_play.py", "-x"]),
])
def test_the_test_command_runs_its_lane_after_the_set_up(tmp_path: Path, options: list[str], selection: list[str]) -> None:
    """scripts/test.sh (CI, the README) leaves out only the benchmarks' checks, in two runs: on every core what needs
    no terminal, sound or browser of its own, then those one at a time; --fast (on every core) and --bench are the
    other lanes (docs/development.md); what follows goes to pytest, in one run. Run with a set-up and a Python that
    only say what they got."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "test.sh", tmp_path / "scripts" / "test.sh")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    for path, text in ((tmp_path / "scripts" / "setup.sh", 'echo "setup $*" >> "$(dirname "$0")/../ran"\n'),
                       (tmp_path / ".venv" / "bin" / "python", 'printf "%s\\n" "$@" >> "$(dirname "$0")/../../ran"\n')):
        path.write_text("#!/bin/sh\n" + text)
        path.chmod(0o755)
    subprocess.run([str(tmp_path / "scripts" / "test.sh"), *options], check=True, timeout=60)
    assert (tmp_path / "ran").read_text().splitlines() == ["setup --test", "-m", "pytest", *selection]


@pytest.mark.parametrize(("first", "second", "status"), [(1, 0, 1), (0, 1, 1), (5, 0, 0), (0, 5, 0), (2, 1, 2)])
def test_the_whole_suite_fails_when_either_of_its_runs_fails(tmp_path: Path, first: int, second: int,
                                                             status: int) -> None:
    """Both runs go, and the command fails with the first failure's status; a run that selected nothing (pytest's
    5) is no failure."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "test.sh", tmp_path / "scripts" / "test.sh")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    python = 'n=$(cat "$(dirname "$0")/../../runs" 2>/dev/null || echo 0); echo $((n + 1)) > "$(dirname "$0")/../../runs"\n'
    python += f'[ "$n" -eq 0 ] && exit {first}\nexit {second}\n'
    for path, text in ((tmp_path / "scripts" / "setup.sh", "true\n"), (tmp_path / ".venv" / "bin" / "python", python)):
        path.write_text("#!/bin/sh\n" + text)
        path.chmod(0o755)
    done = subprocess.run([str(tmp_path / "scripts" / "test.sh")], timeout=60)
    assert (done.returncode, (tmp_path / "runs").read_text().strip()) == (status, "2")
