"""`check` names the keys closest to an unknown one, not all of them; `simulate` shows its progress on a
terminal, and only there."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from engine import ROLES, Table
from narrator.cli import main
from narrator.table_keys import KEYS
from narrator.simulate import simulate


def checked(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> str:
    (tmp_path / "table.yaml").write_text(text, encoding="utf-8")
    assert main(["check", "--no-simulate", str(tmp_path / "table.yaml")]) == 1
    return capsys.readouterr().err


def test_an_unknown_key_is_told_with_the_closest_keys_not_all(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    err = checked(tmp_path, "language: en\npreset: classic\nseats: 8\ndebate_timr: 30\n", capsys)
    line = next(line for line in err.splitlines() if "debate_timr" in line)
    assert "table.yaml:4: unknown key 'debate_timr'; did you mean 'debate_timer'?" in line
    assert f"(`check --help` lists all {len(KEYS)})" in line
    assert "'language'" not in line and "microphone" not in line  # not the whole list


def test_an_unknown_key_close_to_several_names_them_all(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = checked(tmp_path, "language: en\npreset: classic\nseats: 8\nsheriff_vote: true\n", capsys)
    assert "unknown key 'sheriff_vote'; did you mean 'sheriff_double_vote', 'sheriff_elected' or 'sheriff'?" in err


def test_an_unknown_key_close_to_none_says_where_every_key_is_listed(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    err = checked(tmp_path, "language: en\npreset: classic\nseats: 8\nzzz: 1\n", capsys)
    assert f"unknown key 'zzz' (`check --help` lists all {len(KEYS)})" in err


def test_an_unknown_character_is_told_with_the_closest_ones_not_all(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    err = checked(tmp_path, "language: en\nseats: 8\ndeck: [werewolf, werewolf, seer, witch, hunter, villager,\n"
                            "  villager, villagr]\n", capsys)
    line = next(line for line in err.splitlines() if "villagr'" in line)
    assert f"table.yaml:4: deck: unknown character 'villagr'; did you mean 'villager'? (`check --help` lists all " \
           f"{len(ROLES)})" in line
    assert "cupid" not in line and "wolf_hound" not in line  # not the whole list


def test_an_unknown_character_close_to_none_says_where_every_character_is_listed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = checked(tmp_path, "language: en\nseats: 8\ndeck: [werewolf, werewolf, seer, witch, hunter, villager, "
                            "villager, zzz]\n", capsys)
    assert f"unknown character 'zzz' (`check --help` lists all {len(ROLES)})" in err


def test_a_deck_may_name_its_characters_as_any_voice_file_does(tmp_path: Path) -> None:
    """Our docs say 'the Salvateur', the French cards 'Voyante', the Chinese 女巫: a deck may name its cards so,
    in any of the three languages and case aside, and the table holds the engine's ids."""
    from narrator.config import load_config

    (tmp_path / "table.yaml").write_text("language: fr\nseats: 8\ndeck: [werewolf, loup-garou, salvateur, "
                                         "VOYANTE, 女巫, Cupido, villager, Simple Villager]\n",
                                         encoding="utf-8")
    config, _ = load_config(str(tmp_path / "table.yaml"))
    assert config.table.deck == ("werewolf", "werewolf", "guard", "seer", "witch", "cupid", "villager", "villager")


def test_check_knows_the_salvateur(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`check` of a deck that names the Defender as our docs do (the Salvateur) is sound, and simulates it."""
    (tmp_path / "table.yaml").write_text("language: fr\nseats: 8\ndeck: [werewolf, werewolf, Salvateur, seer, "
                                         "witch, villager, villager, villager]\n", encoding="utf-8")
    assert main(["check", "--no-simulate", str(tmp_path / "table.yaml")]) == 0
    assert "correct (configuration de table : 8 joueurs, langue fr)" in capsys.readouterr().out


def test_an_unknown_name_says_where_and_the_closest_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A name that is no character's is told with its file, line and key, and the names closest to it (the voice
    files' names too, case aside), not all of them."""
    err = checked(tmp_path, "language: fr\nseats: 8\ndeck: [werewolf, werewolf, Voyant, witch, hunter, villager,\n"
                            "  villager, salvatuer]\n", capsys)
    assert f"{tmp_path / 'table.yaml'}:3: deck: unknown character 'Voyant'; did you mean 'Voyante'? (`check --help` " \
           f"lists all {len(ROLES)})" in err
    assert "table.yaml:4: deck: unknown character 'salvatuer'; did you mean 'Salvateur'?" in err


def test_no_name_in_the_voice_files_names_two_characters() -> None:
    """A name a deck may give is one character's in every language (else which card it stands for would depend on
    the order the voice files are read in)."""
    from narrator.names import fold_name, written_names

    named: dict[str, set[str]] = {}
    for name, role in written_names():
        named.setdefault(fold_name(name), set()).add(role)
    for role in ROLES:
        named.setdefault(fold_name(role), set()).add(role)
    assert len(named) > 2 * len(ROLES) and all(len(roles) == 1 for roles in named.values()), \
        {name: roles for name, roles in named.items() if len(roles) > 1}


def test_check_help_lists_every_character(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    listed = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("Characters"))
    assert set(listed.split(": ", 1)[1].split(", ")) == set(ROLES)


def test_simulate_names_the_closest_character_to_an_unknown_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--deck", "werewolf*2,seer,wich,villager*4"]) == 1
    err = capsys.readouterr().err
    assert "--deck: unknown character 'wich'; did you mean 'witch'? (`werewolf-narrator check --help` lists all" in err
    assert "cupid" not in err


TABLE = Table(8, ("werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager"))


@pytest.mark.parametrize("jobs", [1, 2])
def test_simulate_tells_its_progress_chunk_by_chunk_up_to_every_game(jobs: int) -> None:
    told: list[int] = []
    simulate(TABLE, 50, seed=1, jobs=jobs, progress=told.append)
    assert sum(told) == 50 and len(told) > 1


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [True, False])
def test_simulate_shows_a_progress_bar_on_a_terminal_only(terminal: bool, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    err = Terminal() if terminal else io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    assert main(["simulate", "--deck", "werewolf*2,seer,villager*5", "--games", "40", "--jobs", "1"]) == 0
    assert ("hunt: games" in err.getvalue()) is terminal
    assert "hunt" in capsys.readouterr().out  # the report, on the standard output either way


LOPSIDED = "language: {language}\nseats: 6\ndeck: [werewolf, werewolf, werewolf, werewolf, seer, villager]\n"
"""Four werewolves among six players: `check` warns, and the config is still sound."""


@pytest.mark.parametrize("language, verdict, warning", [
    ("en", "table.yaml: ok (table config: 6 players, language en)", "warning: "),
    ("fr", "table.yaml : correct (configuration de table : 6 joueurs, langue fr)", "attention : "),
    ("zh", "table.yaml：检查通过（牌桌配置：6名玩家，语言 zh）", "警告："),
])
def test_check_gives_its_verdict_and_warnings_in_the_tables_language(language: str, verdict: str, warning: str,
                                                                   tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A Chinese table's `check` said "ok (table config: …)" and "the werewolves win …" in English: its verdict and its
    warnings are in the table's language (the errors, in a file that may name no language, stay in English)."""
    from narrator.voices import load_voice

    (tmp_path / "table.yaml").write_text(LOPSIDED.format(language=language), encoding="utf-8")
    assert main(["check", str(tmp_path / "table.yaml")]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip().endswith(verdict)
    said = [line for line in captured.err.splitlines() if line]
    lopsided = load_voice(language).text("screen.check_lopsided_werewolves", {
        "rate": "100.0%", "margin": "1.8%", "games": "100", "model": "hunt", "low": "96.3%", "high": "100.0%",
        "fair_low": "25%", "fair_high": "75%", "command": "werewolf-narrator"}, fragment=True)
    assert f"{warning}{tmp_path / 'table.yaml'}: {lopsided}" in said
    assert len(said) == 2 and all(line.startswith(warning) for line in said)  # and the deck's quarter of werewolves
