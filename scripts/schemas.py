"""Writes the JSON Schemas of docs/schemas/ and the generated tables of docs/ from what the program itself knows:
the table config's keys and their help (narrator.config), the house rules as engine.Rules declares them, the
languages (the voice files), the presets, the character ids, the variants, the building tokens, and every call id
with the shape of its answer (engine.calls). Run it after changing any of those; the tests run it with --check.

    python scripts/schemas.py           # writes docs/schemas/*.schema.json and the tables in docs/*.md
    python scripts/schemas.py --check   # writes nothing; fails, naming each file, if one is not up to date

`werewolf-narrator check` stays the authority: a schema checks the shape of a file (its keys, their types, the
ids it may name) so that an editor can complete and flag it; whether a deck suits the seats, whether the Actor's
cards are in the deck or the answers follow the game is for `check` and `dry-run` to say.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine import MAX_SEATS, MIN_SEATS, PRESETS, ROLES, Kind  # noqa: E402
from engine.calls import call_kinds, declared_calls  # noqa: E402
from engine.roles import actor, gypsy  # noqa: E402
from engine.roles.wolf_hound import SIDES  # noqa: E402
from engine.table import HouseRule, house_rules  # noqa: E402
from engine.types import Phase  # noqa: E402
from engine.variants import TOSS, VARIANTS  # noqa: E402
from engine.village import TOKENS  # noqa: E402
from narrator.config import TableConfig  # noqa: E402
from narrator.table_keys import (  # noqa: E402
    _LIST_RULES, CALL_FLOOR, DEBATE_TIMER, KEYS, LAST_WORDS, PAUSE, RATE, SPEAKERS, readme_row)
from narrator.names import written_names  # noqa: E402
from narrator.script import REASONS, TOP_KEYS, WINNERS  # noqa: E402
from narrator.shapes import SEAT, SEAT_KEY, SHAPES, null_or  # noqa: E402
from narrator.voices import languages  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "docs" / "schemas"
DRAFT = "https://json-schema.org/draft/2020-12/schema"

# The inputs a phase may take (the numbers' bounds are narrator.table_keys's, declared once for the reader, the help
# and the schema; tests/test_schemas.py tries values on either side of each against `check`).
INPUTS = ("keypad", "voice")

def _json(value: object) -> object:
    """Returns a default as JSON writes it (tuples as lists)."""
    return json.loads(json.dumps(value))


# -- the table config --------------------------------------------------------------------------------------------


def rule_schema(rule: HouseRule) -> dict[str, Any]:
    """Returns the schema of a house rule's value, from its declaration in engine.Rules."""
    schema: dict[str, Any]
    if rule.name in _LIST_RULES:
        names = list(_LIST_RULES[rule.name])
        # config._variants: a list of names, each once; a single name without brackets; null for none.
        schema = {"anyOf": [{"type": "array", "items": {"enum": names}, "uniqueItems": True},
                            {"enum": names}, {"type": "null"}]}
    elif rule.kind is bool:
        schema = {"type": "boolean"}
    elif rule.choices:
        schema = {"enum": list(rule.choices)}
    else:
        assert rule.kind is int and rule.bounds is not None, f"Rules.{rule.name}: a number rule declares its bounds"
        schema = {"type": "integer", "minimum": rule.bounds[0], "maximum": rule.bounds[1]}
    return {**schema, "default": _json(rule.default)}


def _defaults() -> dict[str, object]:
    """Returns the defaults of the keys that TableConfig holds as they are written (speaker, pause...)."""
    found: dict[str, object] = {}
    for f in dataclasses.fields(TableConfig):
        if f.name in KEYS and f.default is not dataclasses.MISSING and f.default is not None:
            found[f.name] = f.default
    found["inputs"] = {phase: list(inputs) for phase, inputs in TableConfig.inputs}
    return found


def table_properties() -> dict[str, dict[str, Any]]:
    """Returns the schema of every key of a table config, in the order `check --help` lists them."""
    roles = sorted(ROLES)
    tokens = list(TOKENS)
    name = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    shapes: dict[str, dict[str, Any]] = {
        "language": {"enum": languages(), "default": "en"},
        "seats": {"anyOf": [{"type": "integer", "minimum": MIN_SEATS, "maximum": MAX_SEATS},
                            {"type": "array", "items": name, "minItems": MIN_SEATS, "maxItems": MAX_SEATS}]},
        # The ids, then the voice files' names as written (check takes them case aside: an enum cannot say so).
        "deck": {"type": "array", "items": {"enum": roles + sorted({n for n, _ in written_names()} - set(roles))},
                 "minItems": MIN_SEATS},
        "preset": {"enum": sorted(PRESETS)},
        "deal": {"enum": ["app", "cards"]},
        "groups": null_or({"type": "array", "minItems": 2, "maxItems": 2,
                            "items": {"type": "array", "minItems": 1, "items": SEAT}}),
        "actor_cards": {"type": "array", "items": {"enum": list(actor.LENDABLE)}, "maxItems": actor.CARDS,
                        "uniqueItems": True},
        "seance_cards": {"type": "array", "maxItems": gypsy.CARDS,
                         "items": {"type": "array", "minItems": 1, "maxItems": gypsy.QUESTIONS,
                                   "items": {"type": "string", "minLength": 1}}},
        "buildings": null_or({"anyOf": [
            {"type": "array", "items": {"enum": tokens}},
            {"type": "object", "patternProperties": {SEAT_KEY: {"enum": tokens}}, "additionalProperties": False}]}),
        "speaker": {"enum": list(SPEAKERS)},
        "voice": null_or({"type": "string"}),
        "rate": null_or(RATE.schema()),
        "device": null_or(name),
        "ambience": {"type": "boolean"},
        "phones": {"type": "boolean"},
        "call_floor": CALL_FLOOR.schema(),
        "pause": {"type": "array", "minItems": 2, "maxItems": 2,
                  "items": PAUSE.schema()},
        "debate_timer": DEBATE_TIMER.schema(),
        "last_words": LAST_WORDS.schema(),
        "inputs": {"type": "object", "additionalProperties": False,
                   "properties": {phase.value: {"type": "array", "minItems": 1, "items": {"enum": list(INPUTS)}}
                                  for phase in Phase}},
        "model": null_or({"type": "string"}),
        "microphone": null_or(name),
    }
    shapes.update({rule.name: rule_schema(rule) for rule in house_rules()})
    missing = set(KEYS) - set(shapes)
    assert not missing, f"scripts/schemas.py: give the schema of the new table keys {sorted(missing)}"
    defaults = _defaults()
    properties: dict[str, dict[str, Any]] = {}
    for key, help_text in KEYS.items():
        schema = {"description": help_text.replace("`", ""), **shapes[key]}
        if key in defaults and "default" not in schema:
            schema["default"] = _json(defaults[key])
        properties[key] = schema
    return properties


def table_schema() -> dict[str, Any]:
    """Returns the JSON Schema of a table config file."""
    return {
        "$schema": DRAFT,
        "title": "werewolf-narrator table config",
        "description": "A table of The Werewolves of Miller's Hollow for werewolf-narrator: language, seats, deck "
                       "(or preset), house rules, and how the narrator speaks and hears. Generated by "
                       "scripts/schemas.py; `werewolf-narrator check` is the authority.",
        "type": "object",
        "properties": table_properties(),
        "additionalProperties": False,
    }


# -- the practice script -----------------------------------------------------------------------------------------

KIND_SHAPES: dict[Kind, tuple[str, dict[str, Any]]] = {kind: (shape.written, shape.schema)
                                                   for kind, shape in SHAPES.items()}
"""The shape of the answer of each kind of call (engine.types.Kind), in words for the docs and as a schema."""

DRAW_WORDS: dict[str, tuple[str, ...]] = {"witch_toss": tuple(TOSS), "wolf_hound": SIDES}
"""The draws made among words rather than seats: how the Harvest's box fell, the Wolf Hound's side drawn."""

MORE_KINDS: dict[str, tuple[Kind, str]] = {
    "werewolves": (Kind.DRAW, "black_death"),  # the Black Death: the program draws the victim
    "witch": (Kind.SEAT, "harvest"),  # the Harvest's Witch: one player, or nobody
    "wolf_hound": (Kind.DRAW, "wolf_hound_random"),  # his side drawn
}
"""The calls whose answer takes another shape under a variant or a house rule (named) than the one engine.calls
declares (tests/test_schemas.py plays random games with every variant and checks each answer against the schema)."""


def answer_shape(call: str) -> tuple[str, dict[str, Any]]:
    """Returns the shape of a call's answer, in words and as a schema: its declared kind's, then the one a variant
    or a house rule gives it."""
    kinds = [(call_kinds()[call], "")] + ([MORE_KINDS[call]] if call in MORE_KINDS else [])
    words: list[str] = []
    schemas: list[dict[str, Any]] = []
    for kind, rule in kinds:
        text, schema = KIND_SHAPES[kind]
        if kind is Kind.DRAW and call in DRAW_WORDS:
            options = DRAW_WORDS[call]
            text = "the program's draw, written as the answer: " + ", ".join(f"`{w}`" for w in options)
            schema = {"enum": list(options)}
        words.append(f"with `{rule}`, {text}" if rule else text)
        if schema not in schemas:
            schemas.append(schema)
    return "; ".join(words), schemas[0] if len(schemas) == 1 else {"anyOf": schemas}


def answerable() -> list[str]:
    """Returns the ids of the calls a script answers, sorted (the others the runner confirms)."""
    return sorted(call for call, kind in call_kinds().items() if kind is not Kind.NONE)


def script_schema() -> dict[str, Any]:
    """Returns the JSON Schema of a practice script."""
    roles = sorted(ROLES)
    answer: dict[str, Any] = {
        "type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": False,
        "properties": {call: {"description": answer_shape(call)[0].replace("`", ""), **answer_shape(call)[1]}
                       for call in answerable()},
    }
    properties: dict[str, Any] = {
        "table": {"$ref": "#/$defs/table", "description": "the table config, as in a table config file"},
        "config": {"type": "string", "description": "instead of table: the path of a table config file, "
                                                    "from the script's folder"},
        "deal": {"type": "object", "description": "seat number: character id, one entry a seat (1 to N, none "
                                                  "missing); centre: the Thief's two centre cards; buildings: "
                                                  "{seat: token} for the Village's tokens",
                 "properties": {"centre": {"type": "array", "items": {"enum": roles}, "minItems": 2, "maxItems": 2},
                                "buildings": {"type": "object", "additionalProperties": False,
                                              "patternProperties": {SEAT_KEY: {"enum": list(TOKENS)}}}},
                 "patternProperties": {SEAT_KEY: {"enum": roles}}, "additionalProperties": False},
        "answers": null_or({"type": "array", "items": {"$ref": "#/$defs/answer"},
                             "description": "the table's answers, in the order the narrator asks: each "
                                            "{call id: answer}; calls that need no answer are not listed"}),
        "expect": {"type": "object", "additionalProperties": False,
                   "description": "what the game must end with, or the run fails naming the first difference",
                   "properties": {"winner": {"enum": list(WINNERS)},
                                  "reason": {"enum": list(REASONS), "description": "with winner: nobody, why: "
                                                                                   "nobody left alive, or a stalemate"},
                                  "eliminated": {"type": "array", "items": SEAT,
                                                 "description": "seats, in order of elimination"}}},
    }
    assert list(properties) == list(TOP_KEYS), "scripts/schemas.py: a script's keys changed (narrator.script)"
    table = table_schema()
    del table["$schema"]
    return {
        "$schema": DRAFT,
        "title": "werewolf-narrator practice script",
        "description": "A whole game decided in advance, for `werewolf-narrator dry-run`: the table, the deal and "
                       "the answers in the order the narrator asks for them. Generated by scripts/schemas.py; "
                       "`werewolf-narrator check` and `dry-run` are the authority.",
        "type": "object",
        "properties": properties,
        "required": ["deal"],
        "oneOf": [{"required": ["table"]}, {"required": ["config"]}],
        "additionalProperties": False,
        "$defs": {"table": table, "answer": answer},
    }


# -- the report --------------------------------------------------------------------------------------------------


def report_schema() -> dict[str, Any]:
    """Returns the JSON Schema of a dry run's report (narrator.practice.report)."""
    phase = {"enum": [p.value for p in Phase]}
    number = {"type": "integer", "minimum": 0}

    def record(properties: dict[str, Any], description: str) -> dict[str, Any]:
        return {"type": "object", "description": description, "properties": properties,
                "required": list(properties), "additionalProperties": False}

    report = {
        "$schema": DRAFT,
        "title": "werewolf-narrator game report",
        "description": "What `werewolf-narrator dry-run SCRIPT --report FILE` writes: the winner, every call, every "
                       "elimination and every line of the game. Generated by scripts/schemas.py.",
        **record({
            "winner": {"enum": list(WINNERS), "description": "the side (or loner) that won"},
            "winners": {"type": "array", "items": SEAT, "description": "the winning seats"},
            "calls": {"type": "array", "description": "every call made, in order, with those needing no answer "
                                                      "and those made for eliminated characters",
                      "items": record({"phase": phase, "number": number, "call": {"enum": sorted(call_kinds())}},
                                      "a call: the night or day it was made in, and its id")},
            "eliminated": {"type": "array", "description": "every elimination, in order",
                           "items": record({"seat": SEAT, "role": {"enum": sorted(ROLES)}, "phase": phase,
                                            "number": number, "cause": {"type": "string"}},
                                           "the seat, the card it held, when, and why (werewolves, vote, "
                                           "poison, hunter, grief, ...)")},
            "lines": {"type": "array", "description": "every line, in order",
                      "items": record({"key": {"type": "string"}, "channel": {"enum": ["voice", "screen"]},
                                       "text": {"type": "string"}, "language": {"enum": languages()}},
                                      "a line: its key in the voice file, its channel (voice: said aloud to the "
                                      "table; screen: shown to those awake), its final text and its language")},
        }, "the game report"),
    }
    # Only when nobody won: why (the report's other fields are always there).
    report["properties"] = {"winner": report["properties"]["winner"],
                            "reason": {"enum": list(REASONS), "description": "when nobody won, why: nobody left "
                                                                             "alive, or a stalemate"},
                            **{k: v for k, v in report["properties"].items() if k != "winner"}}
    return report


SCHEMA_FILES = {"table.schema.json": table_schema, "practice-script.schema.json": script_schema,
                "report.schema.json": report_schema}
"""The published schemas, by file name in docs/schemas/."""


def schema_text(name: str) -> str:
    """Returns a schema file's text as it is published."""
    return json.dumps(SCHEMA_FILES[name](), indent=2, ensure_ascii=False) + "\n"


# -- the generated tables of docs/ -------------------------------------------------------------------------------


def house_rules_table() -> str:
    """Returns docs/table-config.md's table of house rules: key, what it changes, default (Rules' declaration)."""
    return "\n".join(["| key | what it changes | default |", "|---|---|---|",
                      *(readme_row(rule) for rule in house_rules())])


def calls_table() -> str:
    """Returns docs/practice-scripts.md's table of the calls a script answers, with the shapes of their answers."""
    calls = declared_calls()
    rows = ["| call | answer | made by | when |", "|---|---|---|---|"]
    for call in answerable():
        decl = calls[call]
        when = " and ".join(w for w, made in (("night", decl.night), ("day", decl.day)) if made)
        rows.append(f"| `{call}` | {answer_shape(call)[0]} | {decl.owner} | {when} |")
    return "\n".join(rows)


def confirmed_list() -> str:
    """Returns docs/practice-scripts.md's list of the calls that need no answer."""
    return ", ".join(f"`{call}`" for call in sorted(c for c, kind in call_kinds().items() if kind is Kind.NONE))


GENERATED: dict[str, dict[str, Any]] = {
    "table-config.md": {"house rules": house_rules_table},
    "practice-scripts.md": {"calls": calls_table, "confirmed": confirmed_list},
}
"""The pages of docs/ with generated parts, by the part's name in its markers."""


def begin(part: str) -> str:
    return f"<!-- generated by scripts/schemas.py: {part} -->"


def end(part: str) -> str:
    return f"<!-- end of {part} -->"


def page_text(name: str, text: str) -> str:
    """Returns a page of docs/ with its generated parts as the program gives them now."""
    for part, make in GENERATED[name].items():
        pattern = re.compile(re.escape(begin(part)) + r"\n.*?" + re.escape(end(part)), re.S)
        assert pattern.search(text), f"docs/{name}: the markers of the generated part {part!r} are missing"
        text = pattern.sub(lambda _: f"{begin(part)}\n{make()}\n{end(part)}", text)
    return text


def expected() -> dict[Path, str]:
    """Returns every generated file with the text it must have."""
    files = {SCHEMAS / name: schema_text(name) for name in SCHEMA_FILES}
    for name in GENERATED:
        path = ROOT / "docs" / name
        files[path] = page_text(name, path.read_text(encoding="utf-8"))
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; fail if a file is not up to date")
    args = parser.parse_args(argv)
    stale = []
    for path, text in expected().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for path in stale:
        what = "is not up to date: run python scripts/schemas.py" if args.check else "written"
        print(f"{path.relative_to(ROOT)}: {what}", file=sys.stderr if args.check else sys.stdout)
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
