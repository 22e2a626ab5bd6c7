"""Fuzzing the readers: whatever a host writes or answers, the narrator answers with findings or a clear
error (YamlError, UserError, IllegalAnswer) — never another exception, never an internal error.

Generated structures are built from the real keys, character ids and call ids, so that many of them
get past the first checks and deep into the others.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import KINDS, PROFILES, ROLES, Game, IllegalAnswer, Kind, call_kinds, check_deck
from helpers import new_game
from narrator.cli import main
from narrator.config import Findings, read_table
from narrator.table_keys import KEYS
from narrator.errors import UserError
from narrator.script import TOP_KEYS, WINNERS, read_script
from narrator.yamlfile import Document, YamlError, parse

ROLE_IDS = sorted(ROLES)
CALL_IDS = sorted(call_kinds())
WOLF_CARDS = sorted(r for r in ROLES if ROLES[r].wolf_card)
SINGLES = sorted(r for r in ROLES if ROLES[r].copies == (0, 1))
WORDS = ROLE_IDS + CALL_IDS + list(KEYS) + list(TOP_KEYS) + list(WINNERS) + [
    "centre", "seerr", "Werewolf", "sherif", "classic", "en", "wolf", "village", "heal", "poison", "tie", "ballots",
    "night", "day", "keypad"]

# -- values ---------------------------------------------------------------------------------------

HUGE = 10 ** 5000
"""A number YAML reads from `0x` and a few thousand hex digits: Python will not print it (over 4300 digits).
Hypothesis cannot print it either, so it is given to the readers by name below, not generated."""

keys = st.one_of(st.sampled_from(WORDS), st.text(max_size=6), st.integers(-3, 50), st.booleans(), st.none())
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10, 60), st.integers(), st.floats(),
                    st.text(max_size=10), st.sampled_from(WORDS))
junk = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(keys, inner, max_size=4)), max_leaves=6)
"""Any value a YAML file can hold: scalars, lists and mappings of them, nested."""


def maybe(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A value of the right shape, or anything."""
    return st.one_of(good, good, bad)


seat_like = st.one_of(st.integers(-2, 20), st.integers(), st.floats(),
                      st.sampled_from(["3", " 4 ", "+2", "seat 3", "²", "٣", "9" * 5000, "", "null", "true"]))
answer_values = st.recursive(
    st.one_of(st.none(), st.booleans(), seat_like, st.text(max_size=6),
              st.sampled_from(["wolf", "village", "heal", "poison", "tie", "ballots"])),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(["heal", "poison", "tie", "ballots"]), seat_like), inner,
                        max_size=3),
        st.fixed_dictionaries({"heal": inner, "poison": inner}),
        st.fixed_dictionaries({"tie": st.lists(inner, max_size=4)}),
        st.fixed_dictionaries({"ballots": st.dictionaries(seat_like, inner, max_size=5)}),
    ),
    max_leaves=10)
"""Answers of every shape of docs/practice-scripts.md's table, and of none: ints, bools, None, odd strings, nested."""

# -- decks, tables, scripts -----------------------------------------------------------------------


@st.composite
def decks(draw: st.DrawFn) -> list[str]:
    """A deck that is often sound: some werewolves, distinct characters, villagers to fill the seats."""
    seats = draw(st.integers(4, 14))
    cards = draw(st.lists(st.sampled_from(WOLF_CARDS), max_size=3))
    cards += draw(st.lists(st.sampled_from(SINGLES), unique=True, max_size=6))
    cards += draw(st.sampled_from([[], [], ["sister", "sister"], ["sister"]]))
    cards += ["villager"] * max(0, seats - len(cards))
    if "thief" in cards and draw(st.integers(0, 4)):
        cards += draw(st.lists(st.sampled_from(["villager", "werewolf", "seer"]), min_size=2, max_size=2))
    if not draw(st.integers(0, 9)):
        cards.append(draw(st.sampled_from(["seerr", "Werewolf", "", "wolf"])))
    return list(draw(st.permutations(cards)))


def table_values() -> dict[str, st.SearchStrategy[Any]]:
    """A value of the right shape (or anything) for every table config key."""
    good: dict[str, st.SearchStrategy[Any]] = {
        "language": st.sampled_from(["en", "fr", "zh", "de", ""]),
        "seats": st.one_of(st.integers(4, 50), st.lists(st.text(max_size=5), min_size=5, max_size=12)),
        "deck": decks(),
        "preset": st.sampled_from(["classic", "classic", "modern"]),
        "deal": st.sampled_from(["app", "cards"]),
        "sheriff": st.booleans(), "call_dead": st.booleans(), "reveal_roles": st.booleans(),
        "sisters_wake": st.booleans(),
        "profile": st.sampled_from(sorted(PROFILES) + ["classic"]),
        "speaker": st.sampled_from(["auto", "pyttsx3", "console", "loud"]),
        "voice": st.text(max_size=10),
        "rate": st.integers(50, 450),
        "device": st.one_of(st.integers(0, 5), st.text(max_size=5)),
        "pause": st.lists(st.floats(0, 130), min_size=2, max_size=2),
        "call_floor": st.floats(-1, 70),
        "debate_timer": st.integers(-1, 4000),
        "inputs": st.dictionaries(st.sampled_from(["night", "day", "dusk"]),
                                  st.lists(maybe(st.sampled_from(["keypad", "voice"]), junk), max_size=2), max_size=2),
        "sheriff_elected": st.sampled_from(["start", "first_day", "dawn"]),
        "votes_may_be_skipped": st.booleans(), "skip_idle_calls": st.booleans(),
        "wolf_hound_random": st.booleans(), "idiot_dies_with_elder": st.booleans(),
        "white_werewolf_interval": st.integers(-1, 12), "sisters_interval": st.integers(-1, 12),
        "elder_lives": st.integers(0, 6), "piper_charms": st.integers(0, 4),
    }
    return {key: maybe(good.get(key, junk), junk) for key in KEYS}


def tables() -> st.SearchStrategy[Any]:
    """Table config mappings from the real keys, a few unknown keys among them; sometimes not a mapping."""
    known = st.fixed_dictionaries({}, optional=table_values())
    unknown = st.dictionaries(st.one_of(st.sampled_from(["sherif", "seat", "decks", "Language"]), keys), junk,
                              max_size=2)
    mapping = st.tuples(known, unknown, st.integers(0, 4)).map(lambda t: {**t[0], **t[1]} if not t[2] else t[0])
    return maybe(mapping, junk)


@st.composite
def deals(draw: st.DrawFn) -> Any:
    """A deal of a deck (often sound), sometimes spoilt: a seat missing or added, a card changed, a bad key."""
    deck = draw(decks())
    seats = len(deck) - (2 if "thief" in deck and len(deck) > 2 else 0)
    deal: dict[Any, Any] = {i + 1: card for i, card in enumerate(deck[:seats])}
    if deck[seats:] or not draw(st.integers(0, 9)):
        deal["centre"] = list(deck[seats:])
    spoil = draw(st.integers(0, 6))
    if spoil == 1 and deal:
        dealt: list[Any] = sorted(k for k in deal if isinstance(k, int)) or ["centre"]
        deal.pop(draw(st.sampled_from(dealt)), None)
    elif spoil == 2:
        deal[draw(st.integers(-2, 60))] = draw(maybe(st.sampled_from(ROLE_IDS), junk))
    elif spoil == 3:
        deal[draw(keys)] = draw(junk)
    elif spoil == 4:
        deal["centre"] = draw(junk)
    return deal if draw(st.integers(0, 9)) else draw(junk)


def answer_lists() -> st.SearchStrategy[Any]:
    """Lists of {call: answer} items with real and misspelt call ids; sometimes other items, or not a list."""
    item = st.one_of(st.dictionaries(st.sampled_from(CALL_IDS + ["seeer", "wolves"]), answer_values,
                                     min_size=1, max_size=1),
                     st.dictionaries(st.sampled_from(CALL_IDS), junk, min_size=1, max_size=1), junk)
    return maybe(st.lists(item, max_size=6), junk)


@st.composite
def scripts(draw: st.DrawFn) -> Any:
    """Practice script mappings: table or config (or both, or neither), deal, answers, expect."""
    deal = draw(deals())
    script: dict[Any, Any] = {}
    source = draw(st.integers(0, 9))
    if source <= 5:
        table = draw(tables())
        if source <= 3 and isinstance(table, dict) and isinstance(deal, dict):
            table.pop("seats", None)
            table.pop("preset", None)
            centre = deal.get("centre")
            cards = [v for k, v in deal.items() if isinstance(k, int)] + (centre if isinstance(centre, list) else [])
            if source <= 1:
                table.pop("deck", None)  # the deal gives the deck
            else:
                table["deck"] = cards
        script["table"] = table
    if source >= 5:
        script["config"] = draw(maybe(st.sampled_from(["table.yaml", "bad.yaml", "list.yaml", "missing.yaml", ".",
                                                       ""]), junk))
    if draw(st.integers(0, 9)):
        script["deal"] = deal
    script["answers"] = draw(answer_lists())
    if draw(st.booleans()):
        script["expect"] = draw(maybe(st.fixed_dictionaries({}, optional={
            "winner": maybe(st.sampled_from(list(WINNERS) + ["wolves"]), junk),
            "eliminated": maybe(st.lists(st.integers(1, 12), max_size=6), junk)}), junk))
    if not draw(st.integers(0, 9)):
        script[draw(st.one_of(st.sampled_from(["expects", "tables", "answer"]), keys))] = draw(junk)
    return script if draw(st.integers(0, 19)) else draw(junk)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the table configs generated scripts may point to."""
    path = tmp_path_factory.mktemp("fuzz")
    (path / "table.yaml").write_text("language: en\nsheriff: false\n", encoding="utf-8")
    (path / "bad.yaml").write_text("sherif: false\nseats: many\n", encoding="utf-8")
    (path / "list.yaml").write_text("- werewolf\n", encoding="utf-8")
    return path


# -- narrator.yamlfile.parse ---------------------------------------------------------------------

FRAGMENTS = ["- ", ": ", "{", "}", "[", "]", ", ", "&a ", "*a", "&b ", "*b", "!!int ", "!!float ", "!!bool ",
             "!!binary ", "!!timestamp ", "!!set ", "!!omap ", "!!str ", "!!python/object:os.system ", "!x ",
             "? ", "<<: ", "\n", "\n  ", "\n    ", "\t", "# ", "'", '"', "|", ">", "---\n", "...\n",
             "%YAML 1.1\n", "%TAG ! tag:x,2000:\n", "2024-13-45", "2024-01-02", "12:30:00", "0x1F", "0o17",
             "0b101", "1e9", "1_000", ".nan", ".inf", "~", "null", "yes", "no", "on", "deck", "seats", "werewolf",
             "table", "deal", "answers", "centre", "1", "99", "-1", "\\0", "\\x07", "é", "狼", "\u200b", "\ufeff",
             "\u2028", "\x85", "\x00", "\x1b", "\x7f", "\ud7ff", "\U0001f43a"]
yamlish = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), max_size=40).map("".join)


@st.composite
def nested(draw: st.DrawFn) -> str:
    """Text nested deep: flow sequences and mappings, block mappings and sequences, unclosed brackets."""
    n = draw(st.integers(1, 3000))
    form = draw(st.integers(0, 4))
    if form == 0:
        n = min(n, 700)  # past the recursion limit, PyYAML's flow scanner slows with the depth
        return "[" * n + "]" * n
    if form == 1:
        return "{a: " * n + "1" + "}" * n
    if form == 2:
        n = min(n, 600)
        return "".join(f"{'  ' * i}k{i}:\n" for i in range(n)) + "  " * n + "v\n"
    if form == 3:
        return "- " * n + "werewolf\n"
    return "&a [" * n


def assert_parses_or_refuses(text: str) -> None:
    """parse returns a document whose lines are real, or raises YamlError — nothing else."""
    try:
        doc = parse(text, "fuzz.yaml")
    except YamlError as exc:
        assert str(exc).startswith("fuzz.yaml"), str(exc)
        return
    assert all(isinstance(line, int) and line >= 1 for line in doc.lines.values())


@settings(max_examples=1000, deadline=None)
@given(st.text())
def test_parse_of_random_text_raises_only_yaml_errors(text: str) -> None:
    """Any text: a document or a YamlError naming the file."""
    assert_parses_or_refuses(text)


@settings(max_examples=1000, deadline=None)
@given(yamlish)
def test_parse_of_yaml_fragments_raises_only_yaml_errors(text: str) -> None:
    """YAML-ish text (tags, anchors, dates, odd numbers, control characters): a document or a YamlError."""
    assert_parses_or_refuses(text)


@settings(max_examples=50, deadline=None)
@given(nested())
def test_parse_of_deeply_nested_text_raises_only_yaml_errors(text: str) -> None:
    """Nesting thousands deep: a document or a YamlError, never a RecursionError."""
    assert_parses_or_refuses(text)


# -- narrator.config.read_table and narrator.script.read_script ----------------------------------


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(tables())
def test_read_table_returns_findings_or_a_sound_table(data: Any) -> None:
    """read_table records problems (or raises a UserError); a table it returns has a sound deck."""
    found = Findings()
    try:
        config = read_table(data, Document("table.yaml", data), (), found)
    except (YamlError, UserError):
        return
    if config is None:
        assert found.errors, "refused without saying why"
    else:
        assert check_deck(config.table.seats, config.table.deck)[0] == []


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(scripts())
def test_read_script_returns_findings_or_a_playable_script(folder: Path, data: Any) -> None:
    """read_script records problems (or raises a UserError); a script it accepts can be played."""
    try:
        script, found = read_script(Document(str(folder / "script.yaml"), data))
    except (YamlError, UserError):
        return
    if script is None:
        assert found.errors, "refused without saying why"
    else:
        assert not found.errors
        Game(script.config.table, script.deal)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scripts())
def test_check_of_generated_scripts_exits_0_or_1(folder: Path, capsys: pytest.CaptureFixture[str],
                                                 data: Any) -> None:
    """`check` on a generated script file: ok (0) or a problem with the input (1), never internal (3)."""
    path = folder / "script.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    code = main(["check", str(path)])
    _, err = capsys.readouterr()
    assert code in (0, 1), err


GAME = yaml.safe_load((Path(__file__).parent / "games" / "first_game.yaml").read_text(encoding="utf-8"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, len(GAME["answers"]) - 1), answer_values)
def test_dry_run_with_one_answer_spoilt_exits_0_or_1(folder: Path, capsys: pytest.CaptureFixture[str],
                                                     k: int, value: Any) -> None:
    """A dry run whose k-th answer is anything: played or stopped (1), never an internal error (3)."""
    script = dict(GAME, answers=list(GAME["answers"]))
    (call,) = script["answers"][k]
    script["answers"][k] = {call: value}
    path = folder / "spoilt.yaml"
    path.write_text(yaml.safe_dump(script, allow_unicode=True, sort_keys=False), encoding="utf-8")
    code = main(["dry-run", str(path), "--silent"])
    _, err = capsys.readouterr()
    assert code in (0, 1), err


@pytest.mark.parametrize("data", [
    {"seats": HUGE, "deck": ["werewolf", "werewolf", "seer", "villager", "villager", "villager"]},
    {"sheriff": HUGE}, {"deck": [HUGE]}, {HUGE: True}, {"language": HUGE}, {"preset": HUGE, "seats": 8},
], ids=["seats", "sheriff", "deck", "key", "language", "preset"])
def test_read_table_names_a_huge_number_as_a_finding(data: dict[Any, Any]) -> None:
    """A number YAML reads from 0x and four thousand digits is a finding, not a ValueError."""
    found = Findings()
    assert read_table(data, Document("table.yaml", data), (), found) is None
    assert found.errors


@pytest.mark.parametrize("data", [
    {"table": {"language": "en"}, "deal": {1: "villager", HUGE: "werewolf"}},
    {"table": {"language": "en"}, "deal": {1: "villager", 2: HUGE}},
    {"table": {"language": "en"}, "deal": {1: "villager"}, "answers": [{HUGE: 1}]},
    {"table": {"language": "en"}, "deal": {1: "villager"}, "expect": {"winner": HUGE}},
    {"table": {"language": "en"}, "deal": {1: "villager"}, HUGE: 1},
], ids=["seat", "card", "call", "winner", "key"])
def test_read_script_names_a_huge_number_as_a_finding(data: dict[Any, Any]) -> None:
    """A huge number anywhere in a script is a finding, not a ValueError (nor a hang over its seats)."""
    script, found = read_script(Document("script.yaml", data))
    assert script is None and found.errors


# -- engine games: every kind of call ------------------------------------------------------------

SETUPS: list[dict[str, Any]] = [
    {"roles": ["thief", "cupid", "seer", "werewolf", "infected_father", "witch", "hunter", "villager"],
     "centre": ["werewolf", "villager"], "sheriff": True},
    {"roles": ["wolf_hound", "wild_child", "fox", "big_bad_wolf", "white_werewolf", "piper", "bear_tamer", "elder",
               "knight", "little_girl", "sister", "sister", "werewolf", "villager", "angel"], "sheriff": False},
    {"roles": ["werewolf", "seer", "witch", "hunter", "villager", "villager"], "sheriff": True},
    {"roles": ["actor", "gypsy", "werewolf", "villager", "villager", "villager", "werewolf", "villager"],
     "actor_cards": ["seer", "witch", "hunter"], "sheriff": True, "town_crier": True},
    # the variants' draws (engine/variants.py)
    {"roles": ["seer", "witch", "hunter", "villager", "villager", "villager"], "sheriff": False,
     "variants": ("black_death", "graffiti")},
]
"""Decks whose games make every kind of call (see test_the_setups_make_every_kind_of_call)."""


def start(setup: dict[str, Any]) -> Game:
    """Returns a new game of a setup."""
    return new_game(setup["roles"], setup.get("centre", ()), sheriff=setup["sheriff"],
                    actor_cards=setup.get("actor_cards", ()), town_crier=setup.get("town_crier", False),
                    variants=setup.get("variants", ()))


def test_the_setups_make_every_kind_of_call() -> None:
    """The fuzzed games below reach every kind of answer the engine takes (a check on the fuzzing itself)."""
    kinds: set[Kind] = set()
    for seed in range(30):
        rng = random.Random(seed)
        for setup in SETUPS:
            game = start(setup)
            while not game.over and len(game.journal) < 200:
                if game.call is not None and game.call.needs_answer:
                    kinds.add(game.call.kind)
                game.answer(rng.choice(game.legal()))
    assert kinds == set(KINDS.values()) - {Kind.NONE}


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SETUPS), st.data())
def test_a_bad_answer_raises_illegal_answer_and_leaves_the_game_untouched(setup: dict[str, Any],
                                                                          data: st.DataObject) -> None:
    """game.check and game.answer raise only IllegalAnswer for any value, and a refused answer changes nothing."""
    game = start(setup)
    while not game.over and len(game.journal) < 80:
        call = game.call
        assert call is not None
        if not call.needs_answer:
            game.answer(None)
            continue
        value = data.draw(answer_values, label=call.id)
        journal, calls = len(game.journal), len(game.calls)
        try:
            game.check(value)
            legal = True
        except IllegalAnswer:
            legal = False
        try:
            game.answer(value)
        except IllegalAnswer:
            assert not legal, f"check accepted {value!r} at {call.id}, answer refused it"
            assert game.call is call and len(game.journal) == journal and len(game.calls) == calls
            choices = game.legal()
            assert choices, f"no legal answer at {call.id}"
            game.answer(data.draw(st.sampled_from(choices), label="legal"))
        else:
            assert legal, f"check refused {value!r} at {call.id}, answer took it"


@pytest.mark.parametrize("value", ["²", "9" * 5000, HUGE, [1, HUGE], {"tie": [HUGE, 2]}, {"ballots": {1: HUGE}}],
                         ids=["superscript-two", "5000-digit-string", "huge-int", "huge-in-list", "huge-in-tie",
                              "huge-ballot"])
def test_odd_numbers_are_refused_as_illegal_answers(value: Any) -> None:
    """Answers that look like numbers but are no seat are refused with IllegalAnswer, the game untouched."""
    setups = {"seer": SETUPS[2], "cupid": SETUPS[0], "vote": SETUPS[2]}
    for call_id, setup in setups.items():
        game = start(setup)
        while game.call is not None and game.call.id != call_id:
            game.answer(game.legal()[0])
        call, journal = game.call, len(game.journal)
        with pytest.raises(IllegalAnswer):
            game.answer(value)
        assert game.call is call and len(game.journal) == journal
