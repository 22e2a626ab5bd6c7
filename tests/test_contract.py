"""The contract between engine and narrator (engine/contract.py): every call and fact the engine makes is declared
once, with its owner, keeps to its declaration, and a voice file lacking a declared line is refused at start-up."""

from __future__ import annotations

import ast
import random
import re
import shutil
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import given, settings

from engine import Answer, Call, Fact, Game, Phase, Rules, Table, deal_cards
from engine.calls import declared_calls, declared_facts
from engine.contract import AsSeat, FactSpec, Listed, Piece, Told, Value
from narrator import voices
from narrator.cli import main
from narrator.errors import UserError
from narrator.script import load_script
from narrator.voices import load_voice
from test_properties import FAST, pick, seeds, tables

GAMES = sorted((Path(__file__).resolve().parent / "games").glob("*.yaml"))


def departures(call: Call, facts: tuple[Fact, ...]) -> list[str]:
    """Returns how ``call`` and ``facts`` depart from the engine's declaration."""
    calls, known = declared_calls(), declared_facts()
    found: list[str] = []
    decl = calls.get(call.id)
    if decl is None:
        return [f"the call {call.id!r} is not declared"]
    if call.phase is Phase.NIGHT and call.actors and not decl.night:
        found.append(f"the call {call.id!r} wakes {call.actors} at night but is not declared a night call")
    if call.phase is Phase.DAY and not (decl.day or decl.traits.announces or decl.night):
        found.append(f"the call {call.id!r} is made by day but is declared for the night only")
    for fact in (*call.facts, *facts):
        spec = known.get(fact.key)
        found += [f"the fact {fact.key!r} is not declared"] if spec is None else spec.problems(fact)
    return found


def play_checked(game: Game, answer: Callable[[Game], Answer]) -> list[str]:
    """Plays ``game`` with the answers ``answer(game)`` gives until it ends (or they run out: StopIteration);
    returns every departure from the declaration."""
    found: list[str] = []
    while not game.over:
        call = game.call
        assert call is not None
        value = answer(game)
        if value is StopIteration:
            break
        step = game.answer(value)
        found += departures(call, step.facts)
    return found


@settings(FAST, max_examples=60)
@given(tables(), seeds)
def test_every_call_and_fact_of_random_games_keeps_to_the_declaration(table: Table, seed: int) -> None:
    """Random legal games (every deck, house rules, buildings): each call is declared with its phase, each fact
    with its values' shapes and its secrecy."""
    game = Game(table, deal_cards(table, seed))
    rng = random.Random(seed)
    assert play_checked(game, lambda g: pick(g, rng)) == []


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_every_call_and_fact_of_the_practice_games_keeps_to_the_declaration(path: Path) -> None:
    """The practice games (the variants, the Village, every character): each call and fact is declared."""
    script, _ = load_script(str(path))
    answers = iter(item.value for item in script.answers)

    def answer(game: Game) -> Answer:
        assert game.call is not None
        return next(answers, StopIteration) if game.call.needs_answer else None

    assert play_checked(Game(script.config.table, script.deal), answer) == []


def lacking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str, line: str) -> None:
    """Puts copies of the voice files in ``tmp_path``, the ``language`` one without ``line``, and reads them."""
    for path in voices.VOICES_DIR.glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    text = (tmp_path / f"{language}.yaml").read_text(encoding="utf-8")
    cut = re.sub(rf"(?m)^  {re.escape(line)}: .*\n", "", text)
    assert cut != text
    (tmp_path / f"{language}.yaml").write_text(cut, encoding="utf-8")
    monkeypatch.setattr(voices, "VOICES_DIR", tmp_path)


def test_a_voice_file_lacking_a_declared_line_is_refused_when_loaded(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A voice file without the Seer's wake line fails when it is loaded, naming the file, the language, the line
    and the character; the others, whole, load."""
    lacking(tmp_path, monkeypatch, "fr", "seer.wake")
    with pytest.raises(UserError) as refused:
        load_voice("fr")
    message = str(refused.value)
    assert "'fr'" in message and "'seer.wake'" in message and "Voyante" in message and "fr.yaml" in message
    load_voice("en")


def test_a_game_with_a_voice_file_lacking_a_line_stops_before_its_first_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A French practice game whose voice file lacks the Piper's sleep line (no Piper at that table) stops at once with
    the message and exit status 1, not mid-game with a KeyError: no line said, no report written."""
    lacking(tmp_path, monkeypatch, "fr", "piper.sleep")
    report = tmp_path / "report.json"
    game = Path(__file__).resolve().parent / "games" / "actor_gypsy_crier_fr.yaml"
    assert main(["dry-run", str(game), "--report", str(report)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and not report.exists()
    assert err.startswith("error: ") and "'piper.sleep'" in err and "Joueur de Flûte" in err and "Traceback" not in err


def test_a_character_owns_its_facts_and_calls() -> None:
    """The registry fills in each declaration's owner: the character's module, or the part of the game."""
    facts, calls = declared_facts(), declared_calls()
    assert facts["fox.sign"].owner == "fox" and facts["victim_shown"].owner == "witch"
    assert facts["town_crier.announces"].owner == "town_crier" and facts["harvest.toss"].owner == "variants"
    assert calls["werewolves"].owner == "werewolf" and calls["growl"].owner == "bear_tamer"
    assert calls["noble"].owner == "village" and calls["chain"].owner == "variants"


NARRATOR = Path(__file__).resolve().parent.parent / "narrator"
TOLD_BY_KEY: dict[str, set[str]] = {}
"""The ids the narrator still names: none. A fact declares the lines it is told with (FactSpec.told), and the lines a
house rule picks are declared with the call (CallTraits.ruled)."""


@pytest.mark.parametrize("rules, call, line", [
    (Rules(wolf_hound_random=True), "wolf_hound", "wake_drawn"), (Rules(), "wolf_hound", None),
    (Rules(variants=("harvest",)), "witch", "wake_harvest"), (Rules(), "witch", None),
    (Rules(sheriff_double_vote=False), "sheriff_election", "call_single"), (Rules(), "sheriff_election", None)])
def test_a_calls_ruled_line_is_picked_by_the_tables_rules(rules: Rules, call: str, line: str | None) -> None:
    traits = declared_calls()[call].traits
    assert traits.opening(rules) == line and (line is None or line in traits.ruled_lines)


@pytest.mark.parametrize("name", ["narration.py", "asking.py", "hearing.py"])
def test_the_narrator_names_no_call_or_fact_but_those_it_must(name: str) -> None:
    """The narration, the keypad and the hearing read the declaration: no list of call ids or fact keys of their
    own, beyond the few told by their key."""
    tree = ast.parse((NARRATOR / name).read_text(encoding="utf-8"))
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert strings & (set(declared_calls()) | set(declared_facts())) == TOLD_BY_KEY.get(name, set())


def test_a_fact_told_with_a_line_it_does_not_declare_departs_from_its_declaration() -> None:
    """The lines a fact's ``told`` picks are checked against its ``lines``, those the voice files are checked for."""
    sign = FactSpec("sign", {"seat": Value.SEAT}, lines=("sign.yes",),
                    told=lambda v: (Told("sign.yes", {"seat": v["seat"], "text": Piece("sign.why")}),))
    assert sign.problems(Fact("sign", {"seat": 2})) == ["sign: told with the undeclared line 'sign.why'"]
    assert FactSpec("sign", {"seat": Value.SEAT}, lines=("sign.yes", "sign.why"), told=sign.told).problems(
        Fact("sign", {"seat": 2})) == []


def test_a_fact_is_said_by_default_in_its_derived_line_each_value_as_its_shape_says() -> None:
    """With no ``told`` of its own, a fact is said in the line its key gives, a seat under another name as a seat
    and a list of cards as a list, and ``by`` a word picks the line."""
    spec = FactSpec("omen.read", {"asker": Value.SEAT, "roles": Value.ROLES, "seat": Value.SEAT}, secret=True)
    assert spec.tell({"asker": 2, "roles": ["seer", "witch"], "seat": 3}) == (
        Told("screen.omen_read", {"asker": AsSeat(2), "roles": Listed(("seer", "witch")), "seat": 3}),)
    drawn = FactSpec("omen.drawn", {"side": Value.WORD}, by="side", words=("wolf", "village"))
    assert drawn.tell({"side": "wolf"}) == (Told("omen.drawn_wolf", {}),)
    assert drawn.every_line == ("omen.drawn_wolf", "omen.drawn_village")
