"""One source for each fact (issue 15): the house rules declared once by engine.Rules, read by the table config,
`check --help`, docs/table-config.md and the table schema; one rule for what an undo takes back, in the game and in
the journal on disk."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

from engine import Rules, kept_after_undo
from engine.order import INTERVALS
from engine.table import house_rules
from helpers import drive, new_game
from narrator.table_keys import KEYS, readme_row
from narrator.journal import Journal, read_journal

ROOT = Path(__file__).resolve().parent.parent

NEW_RULE = """\
import dataclasses, sys
import engine, engine.table
from engine.table import _rule

# A house rule added to Rules and nowhere else: no line of narrator/config.py names it.
@dataclasses.dataclass(frozen=True)
class Rules(engine.table.Rules):
    owl_hoots: bool = _rule(False, "the Owl hoots at dawn over a werewolf's neighbour")
    owl_nights: int = _rule(3, "the Owl hoots every N nights", bounds=(1, 4))

engine.table.Rules = engine.Rules = Rules
from narrator.cli import main
from narrator.config import Findings, read_table
from narrator.yamlfile import load

if sys.argv[1] == "help":
    main(["check", "--help"])
else:
    doc = load(sys.argv[2])
    found = Findings()
    config = read_table(doc.data, doc, (), found)
    print(found.errors, config and (config.table.rules.owl_hoots, config.table.rules.owl_nights))
"""


def with_a_new_rule(tmp_path: Path, *args: str) -> str:
    """Runs NEW_RULE (Rules with two more fields) with ``args``; returns what it prints."""
    script = tmp_path / "new_rule.py"
    script.write_text(NEW_RULE)
    done = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, check=True)
    return done.stdout


def test_a_rule_added_to_rules_is_listed_by_check_help(tmp_path: Path) -> None:
    out = with_a_new_rule(tmp_path, "help")
    assert "  owl_hoots: true or false: the Owl hoots at dawn over a werewolf's neighbour (default false)" in out
    assert "  owl_nights: a number, 1 to 4: the Owl hoots every N nights (default 3)" in out


def test_a_rule_added_to_rules_is_read_from_a_table_config(tmp_path: Path) -> None:
    table = tmp_path / "table.yaml"
    table.write_text("deck: [werewolf, werewolf, seer, villager, villager, villager]\nowl_hoots: true\n"
                     "owl_nights: 2\n")
    assert with_a_new_rule(tmp_path, "read", str(table)).strip() == "[] (True, 2)"
    table.write_text("deck: [werewolf, werewolf, seer, villager, villager, villager]\nowl_nights: 9\n")
    out = with_a_new_rule(tmp_path, "read", str(table))
    assert "table.yaml:2: owl_nights: expected a number, 1 to 4: the Owl hoots every N nights (default 3); got 9" \
        in out


def test_every_field_of_rules_is_a_config_key_with_its_default_in_its_help() -> None:
    rules = house_rules()
    assert [r.name for r in rules] == [f.name for f in dataclasses.fields(Rules)]
    for rule in rules:
        assert rule.help and rule.name in KEYS and rule.default == getattr(Rules(), rule.name)
        assert KEYS[rule.name].endswith(")") and "(default " in KEYS[rule.name]


def test_the_docs_table_of_house_rules_is_the_declaration() -> None:
    """docs/table-config.md's rows of house rules are readme_row's, in Rules' order, under their header: edit
    engine.table.Rules, then run `python scripts/schemas.py`, which writes them (and the schemas)."""
    page = (ROOT / "docs" / "table-config.md").read_text(encoding="utf-8")
    rows = "\n".join(readme_row(rule) for rule in house_rules())
    assert "| key | what it changes | default |\n|---|---|---|\n" + rows + "\n" in page


def test_the_intervals_defaults_are_the_call_orders() -> None:
    assert Rules().intervals() == INTERVALS


def test_a_journal_with_undos_reads_back_what_the_game_keeps(tmp_path: Path) -> None:
    """The journal on disk takes back what Game.undo takes back: the last answer and the confirmations after it."""
    game = new_game(["werewolf", "seer", "villager", "villager", "werewolf", "villager"])
    journal = Journal(tmp_path / "game.jsonl", {"kind": "play"})
    drive(game, ("seer", 5), ("werewolves", 3))
    for call, value in zip(game.calls, game.journal):
        journal.record(call, value)
    assert game.undo()
    journal.record_undo()
    journal.close()
    _, entries = read_journal(str(tmp_path / "game.jsonl"))
    assert [e.answer for e in entries] == game.journal and [e.needs for e in entries] == game._answered
    assert game.journal[-1] == 5  # the werewolves' answer and what followed it are gone, the Seer's stays


def test_an_undo_with_no_answer_to_take_back_keeps_everything() -> None:
    assert kept_after_undo([False, False]) is None and kept_after_undo([]) is None
    assert kept_after_undo([True, False, True, False]) == 2
