"""The JSON Schemas of docs/schemas/ (issue 16): generated from the program's own knowledge and published up to
date; every example config, every practice game and every report validates; a typo is flagged by the schema and
by `check` with the same key; the schemas and `check` agree on each key's values; every answer the engine takes in
random games fits the script schema's shape for its call."""

from __future__ import annotations

import importlib.util
import json
import random
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from engine import KINDS, ROLES, Kind, Table, call_kinds
from engine.strategy import play
from engine.variants import INCOMPATIBLE, VARIANTS
from narrator.cli import main
from narrator.config import Findings, read_table
from narrator.table_keys import KEYS
from narrator.names import written_names
from narrator.yamlfile import load

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
PRACTICE_EXAMPLES = [p for p in EXAMPLES if p.name.startswith("practice-")]
CONFIG_EXAMPLES = [p for p in EXAMPLES if p not in PRACTICE_EXAMPLES]
GAMES = sorted((ROOT / "tests" / "games").glob("*.yaml"))
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.yaml"))
SCRIPTS = PRACTICE_EXAMPLES + GAMES + GOLDEN


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location("schemas_script", ROOT / "scripts" / "schemas.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


schemas = _generator()


def published(name: str) -> dict[str, Any]:
    return json.loads((DOCS / "schemas" / name).read_text(encoding="utf-8"))


def validator(name: str) -> jsonschema.protocols.Validator:
    schema = published(name)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


TABLE = validator("table.schema.json")
SCRIPT = validator("practice-script.schema.json")
REPORT = validator("report.schema.json")


def as_json(data: object) -> Any:
    """Returns YAML data as an editor's language server sees it: JSON, whose keys are text (a seat's 1: is "1")."""
    return json.loads(json.dumps(data))


def errors(check: jsonschema.protocols.Validator, data: object) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in check.iter_errors(as_json(data))]


# -- published and up to date --------------------------------------------------------------------------------------


def test_the_published_schemas_and_generated_tables_are_what_the_program_gives_now() -> None:
    """docs/schemas/*.json and the generated parts of docs/*.md are scripts/schemas.py's output: after changing the
    config reader, Rules, the characters or the calls, run `python scripts/schemas.py`."""
    for path, text in schemas.expected().items():
        assert path.exists(), f"{path.relative_to(ROOT)} is missing: run python scripts/schemas.py"
        assert path.read_text(encoding="utf-8") == text, f"{path.relative_to(ROOT)}: run python scripts/schemas.py"
    assert schemas.main(["--check"]) == 0


def test_check_names_a_stale_file_and_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(DOCS, tmp_path / "docs")
    stale = tmp_path / "docs" / "schemas" / "table.schema.json"
    stale.write_text(stale.read_text().replace('"sheriff"', '"sherif"'))
    page = tmp_path / "docs" / "table-config.md"
    page.write_text(page.read_text().replace("| `elder_lives` |", "| `elder_life` |"))
    monkeypatch.setattr(schemas, "ROOT", tmp_path)
    monkeypatch.setattr(schemas, "SCHEMAS", tmp_path / "docs" / "schemas")
    assert schemas.main(["--check"]) == 1
    said = capsys.readouterr().err
    assert "docs/schemas/table.schema.json: is not up to date" in said and "docs/table-config.md" in said
    assert "report.schema.json" not in said
    assert '"sherif"' in stale.read_text()
    assert schemas.main([]) == 0 and schemas.main(["--check"]) == 0
    assert '"sherif"' not in stale.read_text() and "| `elder_lives` |" in page.read_text()


def test_the_table_schema_knows_every_key_and_refuses_others() -> None:
    table = published("table.schema.json")
    assert list(table["properties"]) == list(KEYS)
    assert table["additionalProperties"] is False
    # The ids, and the names the voice files give them, which a deck may write instead (narrator.config).
    assert set(table["properties"]["deck"]["items"]["enum"]) == set(ROLES) | {name for name, _ in written_names()}
    assert {"Salvateur", "Voyante", "女巫"} <= set(table["properties"]["deck"]["items"]["enum"])
    assert table["properties"]["elder_lives"] == {"description": KEYS["elder_lives"], "type": "integer",
                                                  "minimum": 1, "maximum": 5, "default": 2}
    assert published("practice-script.schema.json")["$defs"]["table"]["properties"] == table["properties"]


def test_every_call_a_script_answers_has_its_shape_in_the_schema_and_the_page() -> None:
    """A call added to the engine is in the script schema and in docs/practice-scripts.md's table (generated), and
    a call that needs no answer in neither."""
    answers = published("practice-script.schema.json")["$defs"]["answer"]["properties"]
    page = (DOCS / "practice-scripts.md").read_text(encoding="utf-8")
    for call, kind in call_kinds().items():
        if kind is Kind.NONE:
            assert call not in answers
        else:
            assert call in answers and re.search(rf"^\| `{call}` \| .+ \|$", page, re.M), call
    for kind in KINDS.values():
        assert kind is Kind.NONE or kind in schemas.KIND_SHAPES, f"scripts/schemas.py: the shape of {kind}"


# -- every file validates ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", CONFIG_EXAMPLES, ids=[p.name for p in CONFIG_EXAMPLES])
def test_every_example_config_validates(path: Path) -> None:
    assert errors(TABLE, load(path).data) == []


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.relative_to(ROOT).as_posix() for p in SCRIPTS])
def test_every_practice_script_and_its_table_validate(path: Path) -> None:
    data = load(path).data
    assert errors(SCRIPT, data) == []
    assert errors(TABLE, data["table"]) == []


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.relative_to(ROOT).as_posix() for p in SCRIPTS])
def test_every_practice_games_report_validates(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.json"
    assert main(["dry-run", str(path), "--silent", "--report", str(report)]) == 0, capsys.readouterr().err
    data = json.loads(report.read_text(encoding="utf-8"))
    assert errors(REPORT, data) == []
    assert {line["channel"] for line in data["lines"]} == {"voice", "screen"}


def test_the_golden_reports_validate() -> None:
    golden = sorted((ROOT / "tests" / "golden").glob("*.json"))
    assert golden
    for path in golden:
        assert errors(REPORT, json.loads(path.read_text(encoding="utf-8"))) == [], path.name


# -- typos, and what the schemas refuse ----------------------------------------------------------------------------

BASE = {"language": "en", "deck": ["werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager",
                                   "villager"]}


@pytest.mark.parametrize("typo, value, meant", [("sherif", "true", "sheriff"), ("debate_timr", "60", "debate_timer"),
                                                ("elder_live", "3", "elder_lives")])
def test_a_typo_is_flagged_by_the_schema_and_by_check_with_the_same_key(
        typo: str, value: str, meant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.yaml"
    config.write_text(f"# yaml-language-server: $schema=../docs/schemas/table.schema.json\nlanguage: en\n"
                      f"deck: {BASE['deck']}\n{typo}: {value}\n".replace("'", ""))
    data = load(config).data
    flagged = list(TABLE.iter_errors(as_json(data)))
    assert len(flagged) == 1 and flagged[0].validator == "additionalProperties" and f"'{typo}'" in flagged[0].message
    assert main(["check", "--no-simulate", str(config)]) == 1
    said = capsys.readouterr().err
    assert f"table.yaml:4: unknown key '{typo}'; did you mean '{meant}'?" in said
    script = {"table": {**BASE, typo: True}, "deal": {i + 1: r for i, r in enumerate(BASE["deck"])}}
    assert any(f"'{typo}'" in e for e in errors(SCRIPT, script))


def test_the_script_schema_refuses_what_a_script_may_not_hold() -> None:
    deal = {i + 1: r for i, r in enumerate(BASE["deck"])}
    assert errors(SCRIPT, {"table": BASE, "deal": deal, "answers": [{"seer": 2}, {"vote": {"ballots": {1: 2}}}],
                           "expect": {"winner": "village", "eliminated": [2]}}) == []
    assert errors(SCRIPT, {"config": "table.yaml", "deal": deal}) == []
    refused = [
        {"table": BASE, "config": "t.yaml", "deal": deal},  # both
        {"deal": deal},  # neither
        {"table": BASE, "deal": {**deal, 0: "seer"}},  # no seat 0
        {"table": BASE, "deal": {**deal, 9: "seerr"}},  # no such character
        {"table": BASE, "deal": deal, "answers": [{"lovers": None}]},  # confirmed by the runner
        {"table": BASE, "deal": deal, "answers": [{"seer": 2, "vote": 3}]},  # one call an item
        {"table": BASE, "deal": deal, "answers": [{"witch": {"heal": "yes"}}]},
        {"table": BASE, "deal": deal, "answers": [{"cupid": 3}]},
        {"table": BASE, "deal": deal, "answers": [{"vote": {"tie": [3]}}]},
        {"table": BASE, "deal": deal, "expect": {"winner": "wolves"}},
        {"table": BASE, "deal": deal, "expects": {}},
    ]
    for script in refused:
        assert errors(SCRIPT, script), script


PROBES: list[object] = [None, True, False, 0, 1, 2, 3, 5, 9, 10, 11, 60, 61, 79, 80, 120, 121, 400, 401, 600, 601,
                        3600, 3601, -1, 2.5, 60.5, "x", "en", "xx", "auto", "piper", "bestof", "pact", "first_day",
                        "harvest", [], [5, 15], [15, 5], [0, 120], [0, 121], [5], [1, 2, 3], ["harvest"],
                        ["harvest", "harvest"], ["nope"], {}, {"night": ["keypad"]}, {"day": ["voice", "keypad"]},
                        {"night": []}, {"dusk": ["keypad"]}, {"night": ["keyboard"]},
                        {"night": ["keypad", "keypad"]}, "5", "start", "console", ["keypad"], ["harvest", "cult"]]
"""Values tried for every key whose value `check` judges alone (not against the deck or the seats)."""

ALONE = [key for key in KEYS if key not in ("seats", "deck", "preset", "groups", "actor_cards", "seance_cards",
                                             "buildings")]


@pytest.mark.parametrize("key", ALONE)
def test_the_schema_and_check_agree_on_a_keys_values(key: str, tmp_path: Path) -> None:
    """For each value tried, the schema refuses it exactly when `check` names the key: the bounds and choices the
    generator writes are the reader's."""
    for value in PROBES:
        if key == "pause" and value == [15, 5]:
            continue  # [max, min]: out of order, which only `check` sees
        found = Findings()
        path = tmp_path / "t.yaml"
        path.write_text(json.dumps({**BASE, key: value}))
        doc = load(path)
        read_table(doc.data, doc, (), found)
        by_check = any(re.match(rf"\S+: {key}: ", e) for e in found.errors)
        by_schema = any(e.absolute_path and e.absolute_path[0] == key for e in TABLE.iter_errors(as_json(doc.data)))
        assert by_schema == by_check, (key, value, found.errors)


# -- random games: every answer the engine takes fits its call's shape ---------------------------------------------


def random_tables(count: int, seed: int) -> list[Table]:
    """Returns tables of 8 to 14 players with random characters, house rules and variants that go together."""
    from engine import Rules, check_deck, check_extras, check_groups

    rng = random.Random(seed)
    specials = sorted(r for r in ROLES if ROLES[r].copies == (0, 1) and r not in ("werewolf", "villager"))
    tables: list[Table] = []
    while len(tables) < count:
        seats = rng.randint(8, 14)
        variants = tuple(v for v in VARIANTS if rng.random() < 0.2)
        if any(pair <= set(variants) for pair in INCOMPATIBLE):
            continue
        wolves = 0 if "black_death" in variants else 2
        cards = rng.sample([r for r in specials if not ROLES[r].wolf_card or not wolves], rng.randint(2, 6))
        deck = (["werewolf"] * wolves + cards + ["villager"] * seats)[:seats]
        if "thief" in deck:
            deck += ["villager", "villager"]
        if "actor" in deck or "prejudiced_manipulator" in deck:
            continue  # their cards and groups are set by hand in the games of tests/games
        rules = Rules(wolf_hound_random=rng.random() < 0.5, sheriff=rng.random() < 0.7, variants=variants,
                      sheriff_breaks_ties=rng.random() < 0.5, votes_may_be_skipped=rng.random() < 0.7)
        table = Table(seats, tuple(deck), rules)
        if check_deck(seats, deck, variants)[0] or check_groups(seats, deck, ()) or check_extras(table):
            continue
        tables.append(table)
    return tables


def test_every_answer_the_engine_takes_in_random_games_fits_the_script_schema() -> None:
    """Random games of random decks, rules and variants (engine.strategy): each answer the engine took is an item
    the script schema accepts for its call, whatever shape a variant or a house rule gave it."""
    answer = jsonschema.validators.validator_for(SCRIPT.schema)(
        {**SCRIPT.schema["$defs"]["answer"], "$defs": SCRIPT.schema["$defs"]})
    seen: set[tuple[str, str]] = set()
    for n, table in enumerate(random_tables(120, 16)):
        game = play(table, n, "random")
        for call, value, needed in zip(game.calls, game.journal, game._answered):
            if not needed:
                continue
            seen.add((call.id, call.kind.value))
            problems = [e.message for e in answer.iter_errors(as_json({call.id: value}))]
            assert problems == [], (call.id, call.kind, value, problems)
    for drawn in (("werewolves", "draw"), ("witch", "seat"), ("wolf_hound", "draw"), ("witch_toss", "draw")):
        assert drawn in seen, drawn  # the shapes the variants and rules give were met


# -- the editor's line ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_names_its_schema_for_the_editor(path: Path) -> None:
    """An example's first line points the YAML language server at its schema, by a path that exists."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    name = "practice-script" if path in PRACTICE_EXAMPLES else "table"
    assert first == f"# yaml-language-server: $schema=../docs/schemas/{name}.schema.json"
    assert (path.parent / first.split("=", 1)[1]).resolve() == DOCS / "schemas" / f"{name}.schema.json"


def doc_examples() -> list[tuple[str, int, str]]:
    """Returns the YAML examples of docs/ that name a schema: (page, number, text)."""
    found = []
    for page in sorted(DOCS.glob("*.md")):
        blocks = re.findall(r"```yaml\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
        found += [(page.name, i, b) for i, b in enumerate(blocks)
                  if b.startswith("# yaml-language-server:") and b.count("\n") > 1]  # not the line alone
    return found


@pytest.mark.parametrize("page, number, text", doc_examples(), ids=lambda v: str(v)[:24])
def test_the_docs_examples_validate_and_check_and_play(page: str, number: int, text: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The whole examples the pages show (those with the editor's line) pass their schema and `check`, and a
    script plays to the end it expects: the line changes nothing for the program."""
    folder = tmp_path / "examples"
    folder.mkdir()
    path = folder / f"{page}-{number}.yaml"
    path.write_text(text, encoding="utf-8")
    script = "practice-script" in text.splitlines()[0]
    assert errors(SCRIPT if script else TABLE, load(path).data) == []
    assert main(["check", "--no-simulate", str(path)]) == 0, capsys.readouterr().err
    if script:
        assert main(["dry-run", str(path), "--silent"]) == 0, capsys.readouterr().err


def test_the_report_the_page_shows_validates() -> None:
    page = (DOCS / "practice-scripts.md").read_text(encoding="utf-8")
    (shown,) = re.findall(r"```json\n(.*?)```", page, re.S)
    assert errors(REPORT, json.loads(shown)) == []


def test_the_table_config_page_names_every_key() -> None:
    page = (DOCS / "table-config.md").read_text(encoding="utf-8")
    for key in KEYS:
        assert f"`{key}`" in page, key


def test_the_docs_examples_exist() -> None:
    assert {page for page, _, _ in doc_examples()} == {"table-config.md", "practice-scripts.md"}


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
