"""docs/rules.md, the rules as played, cannot drift from the engine: every character, building, variant and call-order
profile has its place in it, and its generated parts (the call order, the house rules, the powers the Elder's
penalty takes) are what the engine's data makes of them now (scripts/rules_doc.py)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import yaml

from engine import order
from engine.roles import ROLES
from engine.table import house_rules
from engine.variants import VARIANTS
from engine.village import TOKENS

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "rules.md"
SCRIPT = ROOT / "scripts" / "rules_doc.py"


def rules_doc() -> ModuleType:
    """Returns scripts/rules_doc.py as a module."""
    spec = importlib.util.spec_from_file_location("rules_doc", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def headings(text: str) -> list[str]:
    """Returns the page's headings, without their #s."""
    return [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]


def table_rows(text: str) -> list[str]:
    """Returns the page's table rows."""
    return [line for line in text.splitlines() if line.startswith("|")]


def uncovered(ids: list[str], lines: list[str]) -> list[str]:
    """Returns the ids that no line names as `id` (in backquotes)."""
    return [i for i in ids if not any(f"`{i}`" in line for line in lines)]


def test_every_character_has_a_heading_with_its_card_id_and_english_name() -> None:
    text = PAGE.read_text(encoding="utf-8")
    names = yaml.safe_load((ROOT / "voices" / "en.yaml").read_text(encoding="utf-8"))["roles"]
    assert uncovered(list(ROLES), headings(text)) == []
    for card in ROLES:
        heading = next(h for h in headings(text) if f"`{card}`" in h)
        assert names[card] in heading, (card, heading)


def test_the_town_crier_an_office_not_a_card_has_a_heading() -> None:
    assert any("Town Crier" in h and "`town_crier" in h for h in headings(PAGE.read_text(encoding="utf-8")))


def test_every_building_token_has_a_row() -> None:
    assert uncovered(list(TOKENS), table_rows(PAGE.read_text(encoding="utf-8"))) == []


def test_every_variant_has_a_heading() -> None:
    assert uncovered(list(VARIANTS), headings(PAGE.read_text(encoding="utf-8"))) == []


def test_every_profile_and_house_rule_is_named() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert uncovered(list(order.PROFILES), text.splitlines()) == []
    assert uncovered([r.name for r in house_rules()], text.splitlines()) == []


def test_a_character_left_out_of_the_page_is_found() -> None:
    """The check above can fail: the page without the Fox's heading leaves the Fox uncovered."""
    text = PAGE.read_text(encoding="utf-8")
    without = "\n".join(line for line in text.splitlines() if not (line.startswith("#") and "`fox`" in line))
    assert uncovered(list(ROLES), headings(without)) == ["fox"]


def test_the_generated_parts_are_the_engines() -> None:
    """The generated parts (the call order, the house rules, the powers the Elder's penalty takes) equal what
    scripts/rules_doc.py makes of the engine's data now."""
    text = PAGE.read_text(encoding="utf-8")
    again, differ = rules_doc().generated(text)
    assert differ == [], f"docs/rules.md is out of date ({differ}): run python scripts/rules_doc.py"
    assert again == text


def test_the_call_order_block_lists_each_profile_in_the_engines_order() -> None:
    """Read back from the page, each profile's table is engine.order's list, call for call."""
    text = PAGE.read_text(encoding="utf-8")
    block = text.split("<!-- BEGIN generated: call-order")[1].split("<!-- END generated: call-order")[0]
    tables = re.split(r"\*\*`(\w+)`\*\*", block)[1:]
    found = {tables[i]: re.findall(r"^\| \d+ \| `(\w+)` \|", tables[i + 1], re.M) for i in range(0, len(tables), 2)}
    assert found == {name: [e.call for e in entries] for name, entries in order.PROFILES.items()}


def test_the_powers_lost_are_the_cards_with_a_villagers_power() -> None:
    text = PAGE.read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("**Powers lost**"))
    assert re.findall(r"`(\w+)`", line) == [card for card, role in ROLES.items() if role.villager_power]


def test_the_pact_changes_are_generated_from_the_two_orders() -> None:
    assert rules_doc().moves("bestof", "pact") == [
        "`fox` comes right after `seer`", "`lovers` comes right after `fox`", "`wolf_hound` comes right after `guard`"]


def test_check_fails_on_a_page_that_drifted(tmp_path: Path) -> None:
    """`--check` exits 1, naming the part, when the call order on the page is not the engine's."""
    page = tmp_path / "rules.md"
    page.write_text(PAGE.read_text(encoding="utf-8").replace("| `witch` |", "| `fox` |", 1), encoding="utf-8")
    done = subprocess.run([sys.executable, str(SCRIPT), "--check", "--page", str(page)], capture_output=True,
                          text=True)
    assert done.returncode == 1 and "call-order" in done.stderr
    ok = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr


def test_the_page_names_no_document_outside_the_repository() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for outside in ("spec/", "rulings.md", "shared/", "seeds", "dry-run.md", "000_", "001_", "002_", "003_", "004_"):
        assert outside not in text, outside
