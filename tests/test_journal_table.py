"""The table a game's journal keeps (issue 25): the table config's own mapping, every key written, read back by the
reader of a table config file; a journal in the shape before (config_to_dict's: the names apart, the house rules
nested) still resumes, read as it was."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from engine import Deal, deal_cards
from helpers import OLD_HEADER, old_header
from narrator.config import TableConfig, config_from_journal, journal_table, load_config, table_mapping
from narrator.journal import read_journal
from narrator.play import STARTER, journal_header
from narrator.table_keys import KEYS

ROOT = Path(__file__).resolve().parent.parent
RICH = OLD_HEADER.with_suffix(".yaml")
"""The table the old journal's header was written from: every kind of key given."""


def rich() -> TableConfig:
    config, warnings = load_config(str(RICH.relative_to(ROOT)))
    # Its buildings go to two seats of ten on purpose (given by seat): the one warning, that eight get no token.
    assert len(warnings) == 1 and "8 of them will get no building token" in warnings[0], warnings
    return config


def test_the_journal_keeps_every_key_but_the_preset_as_a_file_writes_it() -> None:
    """Every key is written, in the order `check --help` lists them (a preset only as the deck it gave): a later
    version's new defaults change nothing in a game already begun."""
    written = table_mapping(rich())
    assert list(written) == [key for key in KEYS if key != "preset"]
    assert written["seats"] == ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo"]
    assert written["buildings"] == {2: "noble", 5: "baker"} and written["variants"] == ["harvest"]
    assert written["pause"] == [1.0, 3.5] and written["inputs"] == {"day": ["keypad"], "night": ["keypad"]}
    assert table_mapping(STARTER)["seats"] == 8 and table_mapping(STARTER)["groups"] is None


def test_the_journal_s_table_is_a_table_config_file_check_accepts_and_reads_the_same(tmp_path: Path) -> None:
    """The header's config, saved as a YAML file, is the same table to `check` and to load_config."""
    config = rich()
    saved = tmp_path / "journaled.yaml"
    saved.write_text(yaml.safe_dump(table_mapping(config), allow_unicode=True, sort_keys=False), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "narrator", "check", "--no-simulate", str(saved)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "ok" in done.stdout, done.stderr
    again, _ = load_config(str(saved))
    assert dataclasses.replace(again, source=config.source) == config


def test_a_journal_gives_back_its_table_through_json() -> None:
    config = rich()
    header = json.loads(json.dumps(journal_header(config, 7, deal_cards(config.table, 7))))
    assert header["source"] == str(RICH.relative_to(ROOT)) and "source" not in header["config"]
    assert config_from_journal(header, "game.jsonl:1") == config
    assert config_from_journal({**header, "source": "(the built-in starter table)"}, "j:1").source.startswith("(")


def test_a_seat_key_json_wrote_as_text_is_a_seat_again_and_nothing_else_is() -> None:
    header = json.loads(json.dumps(journal_table(rich())))
    assert config_from_journal(header, "j:1").buildings_dealt == ((2, "noble"), (5, "baker"))
    header["config"]["buildings"] = {"2": "noble", "5x": "baker"}
    try:
        config_from_journal(header, "j:1")
    except Exception as exc:
        assert "j:1: buildings: expected" in str(exc)
    else:
        raise AssertionError("a building given to seat '5x' was taken")


def test_a_journal_of_the_shape_before_reads_as_the_table_it_was_written_from() -> None:
    """tests/journals/headers/rich_table.jsonl: the header config_to_dict wrote (commit 4cca2fd) for
    rich_table.yaml, read now as the same table, its source included."""
    assert config_from_journal(old_header(), "old.jsonl:1") == rich()


def test_a_journal_of_the_shape_before_still_resumes(tmp_path: Path) -> None:
    """`resume` takes it as far as the keypad (which needs a terminal): every check of its header passed."""
    journal = tmp_path / "game.jsonl"
    shutil.copy(OLD_HEADER, journal)
    journal.chmod(0o600)
    header, _ = read_journal(str(journal))
    assert "rules" in header["config"] and "source" not in header  # the old shape indeed
    done = subprocess.run([sys.executable, "-m", "narrator", "resume", str(journal), "--plain"], cwd=tmp_path,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert "the keypad needs a terminal" in done.stderr, done.stderr
    assert "resume in a terminal window" in done.stderr, done.stderr  # the command run, not `play`


def test_a_journal_of_either_shape_is_listed_with_its_table_and_its_players(tmp_path: Path) -> None:
    from narrator.unfinished import listed, unfinished_games

    old = old_header()
    config = config_from_journal(old, "j:1")
    new: dict[str, Any] = {"werewolf-narrator": 1, **journal_header(config, 7, Deal(tuple(old["deal"])))}
    for name, header in (("old", old), ("new", new)):
        (tmp_path / f"{name}.jsonl").write_text(json.dumps(header) + "\n", encoding="utf-8")
    shown = listed(unfinished_games(tmp_path))
    assert shown.count("rich_table.yaml") == 2 and shown.count("10 players") == 2, shown

