"""The Harvest's Witch (米勒山谷收获季, the Chinese article; issue 6): 'the Witch has one chance left to use a potion;
once she names a player, the narrator tosses the box's lid and bottom to decide what the potion does' —
lid down, bottom down: heals; lid down, bottom up: heals and makes a simple villager; lid up, bottom down:
heals and makes a werewolf; lid up, bottom up: poisons. With no narrator, the program tosses the box: a
draw (call ``witch_toss``), journaled like any answer."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_variants import Enough, Until

from engine import Answer, Game, Kind, Phase, Team
from engine.calls import call_kinds
from engine.variants import TOSS, Box
from helpers import drive, eliminated, made, made_once, narrate, new_game, reach, refused
from keystrokes import ScriptedKeys, keys_for, seat
from narrator.asking import KeypadAnswers
from narrator.cli import main
from narrator.narration import SCREEN, VOICE, Line, Narrator, run
from narrator.screen import PlainScreen
from narrator.voices import load_voice
from test_properties import state

# The werewolves at seats 1 and 5: under the Harvest they may devour 2, 8, 4 or 6 only.
BOX = ["werewolf", "witch", "seer", "villager", "werewolf", "villager", "villager", "villager"]


def harvest(roles: list[str] = BOX, **rules: object) -> Game:
    return new_game(roles, variants=("harvest",), **rules)


def tossed(outcome: str, target: int, victim: int = 4, roles: list[str] = BOX) -> Game:
    """Night 1: the Seer passes, the pack devours ``victim``, the Witch names ``target``, the box falls so."""
    game = harvest(roles)
    drive(game, ("seer", None), ("werewolves", victim), ("witch", target), ("witch_toss", outcome))
    return game


# -- her call and the toss ------------------------------------------------------------------------------

def test_harvest_the_witch_names_one_player_or_nobody() -> None:
    """Under the Harvest she answers a seat (or null), shown the victim and her one potion on the screen."""
    game = harvest()
    drive(game, ("seer", None), ("werewolves", 4))
    call = reach(game, "witch")
    assert call.kind is Kind.SEAT and call.optional and call.actors == (2,)
    (shown,) = [f for f in call.facts if f.key == "victim_shown"]
    assert shown.secret and dict(shown.values) == {"seat": 4, "potions": ["box"]}
    assert refused(game, {"heal": True, "poison": None}).key == "refusal.shape"


def test_harvest_the_box_is_tossed_by_the_program_a_draw_of_four_faces() -> None:
    """Once she names a player, the toss is a draw among the four faces, which the program answers itself."""
    game = harvest()
    drive(game, ("seer", None), ("werewolves", 4), ("witch", 6))
    call = reach(game, "witch_toss")
    assert call.kind is Kind.DRAW and call.live and call.actors == (2,) and call.seats == ()
    assert call.options == tuple(TOSS) == ("heal", "villager", "werewolf", "poison")
    assert game.legal() == list(TOSS) and call_kinds()["witch_toss"] is Kind.DRAW
    keypad = KeypadAnswers(ScriptedKeys([]), PlainScreen(io.StringIO()), load_voice("en"),
                           say=lambda k, v: None, repeat=lambda: None, rng=random.Random(3), sleep=lambda s: None)
    assert keypad.answer(call, game) in TOSS


def test_harvest_the_witch_names_her_player_at_the_keypad_and_the_toss_takes_no_key() -> None:
    """At the keypad: a seat (0 for nobody) for her, then the program draws the face; no key is read."""
    game = harvest()
    drive(game, ("seer", None), ("werewolves", 4))
    keys = ScriptedKeys(seat(6))
    keypad = KeypadAnswers(keys, PlainScreen(io.StringIO()), load_voice("en"), say=lambda k, v: None,
                           repeat=lambda: None, rng=random.Random(1), sleep=lambda s: None)
    assert keypad.answer(reach(game, "witch"), game) == 6
    game.answer(6)
    face = keypad.answer(reach(game, "witch_toss"), game)
    assert face in TOSS and keys_for(game.call, face) == []  # type: ignore[arg-type]
    game.answer(face)
    assert game.kept(Box).spent


def test_harvest_a_toss_is_one_of_the_four_faces() -> None:
    """Bad input in a script or a journal: anything else is refused, naming the four faces."""
    game = harvest()
    drive(game, ("seer", None), ("werewolves", 4), ("witch", 6))
    error = refused(game, "lid up")
    assert error.key == "refusal.shape" and "heal, villager, werewolf, poison" in error.reason
    assert refused(game, 3).key == "refusal.shape"


# -- the four faces ---------------------------------------------------------------------------------------

def test_harvest_lid_down_bottom_down_heals_the_player() -> None:
    """Heals as the Witch's heal: the werewolves' victim survives."""
    game = tossed("heal", 4)
    assert game.alive(4) and eliminated(game) == []
    assert [f.key for f in made_once(game, "dawn", 1, Phase.DAY).facts] == ["no_victim"]
    assert game.side(4) is Team.VILLAGE and game.keeps_power(4)


def test_harvest_a_heal_on_a_player_the_werewolves_spared_does_nothing() -> None:
    """Healing a player nobody attacked changes nothing: the victim dies, the potion is spent."""
    game = tossed("heal", 7)
    assert eliminated(game) == [(4, "werewolves")] and game.kept(Box).spent


def test_harvest_lid_down_bottom_up_heals_and_makes_a_simple_villager() -> None:
    """A werewolf made a simple villager plays for the village: the last werewolf voted out, the village wins
    with him."""
    game = tossed("villager", 5)
    assert game.marked(5, "simple_villager") and game.side(5) is Team.VILLAGE and not game.is_werewolf(5)
    drive(game, ("vote", 1))
    assert game.outcome is not None and game.outcome.winner == "village" and 5 in game.outcome.winners


def test_harvest_a_player_made_a_simple_villager_loses_the_power_of_their_card() -> None:
    """The Seer made a simple villager is healed, and from then on called for fair play only."""
    game = tossed("villager", 3, victim=4)
    assert not game.keeps_power(3)
    drive(game, ("vote", None))
    seer = made_once(game, "seer", 2)
    assert not seer.live and seer.actors == ()


def test_harvest_the_simple_villager_heals_the_werewolves_victim_too() -> None:
    """Every face but the poison heals: the victim named by the Witch survives, a simple villager."""
    game = tossed("villager", 4)
    assert game.alive(4) and eliminated(game) == [] and game.marked(4, "simple_villager")


def test_harvest_lid_up_bottom_down_heals_and_makes_a_werewolf() -> None:
    """Healed, and a werewolf from the next night, exactly as the Infected Father's infection."""
    game = tossed("werewolf", 4)
    assert game.alive(4) and eliminated(game) == [] and game.marked(4, "infected")
    assert game.side(4) is Team.WEREWOLVES
    drive(game, ("vote", None), ("seer", None))
    assert reach(game, "werewolves").actors == (1, 4, 5)


def test_harvest_an_infected_player_made_a_simple_villager_plays_for_the_village() -> None:
    """The latest change wins: the Infected Father's victim, then the potion's simple villager, is a villager
    (ruling taken: the potion undoes the infection; an infection after it would win again)."""
    roles = ["werewolf", "witch", "infected_father", "villager", "werewolf", "villager", "villager", "villager"]
    game = harvest(roles)
    drive(game, ("werewolves", 4), ("infected_father", True), ("witch", 4), ("witch_toss", "villager"))
    assert game.alive(4) and game.side(4) is Team.VILLAGE and not game.marked(4, "infected")


def test_harvest_lid_up_bottom_up_poisons_the_player() -> None:
    """The poison: the player dies at dawn, with the werewolves' victim, cause 'poison'."""
    game = tossed("poison", 7)
    assert eliminated(game) == [(4, "werewolves"), (7, "poison")]


def test_harvest_the_poison_does_not_heal_the_victim() -> None:
    """Naming the werewolves' victim and drawing the poison: they die all the same."""
    game = tossed("poison", 4)
    assert eliminated(game) and not game.alive(4)


# -- one potion in the whole game ---------------------------------------------------------------------------

def test_harvest_the_witch_has_one_potion_in_the_whole_game() -> None:
    """Used once, whatever the box said: from the next night she is called for fair play only."""
    game = tossed("heal", 7)
    drive(game, ("vote", None), ("seer", None), ("werewolves", 6))
    for call_id in ("witch", "witch_toss", "witch_touched"):
        call = made_once(game, call_id, 2)
        assert not call.live and call.actors == ()


def test_harvest_the_witch_who_names_nobody_keeps_her_potion() -> None:
    """A pass spends nothing: the toss is made for nobody, and the next night she is asked again."""
    game = harvest()
    drive(game, ("seer", None), ("werewolves", 4), ("witch", None))
    assert not made_once(game, "witch_toss", 1).live and not made_once(game, "witch_touched", 1).live
    assert eliminated(game) == [(4, "werewolves")]
    drive(game, ("vote", None), ("seer", None), ("werewolves", 6))
    assert reach(game, "witch").live


def test_harvest_a_devoted_servant_taking_the_witchs_card_gets_a_fresh_potion() -> None:
    """'The new Witch has fresh potions' (the Devoted Servant): the Harvest's one potion too."""
    from engine.variants import Box

    assert Box.card == "witch" and Box.renewed


# -- secrets ---------------------------------------------------------------------------------------------

def test_harvest_the_player_the_potion_changed_learns_it_alone_on_the_screen() -> None:
    """Made a villager or a werewolf, the player is woken alone (call witch_touched) and reads it."""
    for outcome in ("villager", "werewolf"):
        game = harvest()
        steps = drive(game, ("seer", None), ("werewolves", 4), ("witch", 6), ("witch_toss", outcome))
        touched = made_once(game, "witch_touched", 1)
        assert touched.live and touched.actors == (6,)
        (fact,) = [f for f in touched.facts if f.key == "harvest.touched"]
        assert fact.secret and dict(fact.values) == {"outcome": outcome}
        (toss,) = [f for s in steps for f in s.facts if f.key == "harvest.toss"]
        assert toss.secret and dict(toss.values) == {"outcome": outcome, "seat": 6}
    for outcome in ("heal", "poison"):
        game = tossed(outcome, 6)
        assert not made_once(game, "witch_touched", 1).live


def test_harvest_the_witch_reads_how_the_box_fell_on_the_screen() -> None:
    """The outcome is shown to the Witch, awake again for the toss, and to nobody aloud."""
    game = harvest(["werewolf", "witch", "villager", "villager", "werewolf", "villager"])
    lines = narrate(game, [("werewolves", 4), ("witch", 1), ("witch_toss", "villager"), ("vote", 5)], "fr")
    shown = [line for line in lines if line.key.startswith("screen.harvest")]
    assert [(line.key, line.channel) for line in shown] == [("screen.harvest_toss_villager", SCREEN),
                                                            ("screen.harvest_touched_villager", SCREEN)]
    assert "Couvercle vers le bas, fond vers le haut" in shown[0].text
    assert game.outcome is not None and game.outcome.winner == "village"


def test_harvest_the_witch_is_woken_for_her_one_potion() -> None:
    """Aloud, every night of the Harvest, dead or alive: her one potion, whose effect the box decides."""
    for language, word in (("en", "box"), ("fr", "boîte"), ("zh", "盒子")):
        lines: list[Line] = []
        narrator = Narrator(load_voice(language), lines.append, rules=harvest().rules)
        game = harvest()
        drive(game, ("seer", None), ("werewolves", 4))
        narrator.begin(reach(game, "witch"))
        assert lines[0].key == "witch.wake_harvest" and lines[0].channel == VOICE and word in lines[0].text
    plain: list[Line] = []
    game = new_game(BOX)
    drive(game, ("seer", None), ("werewolves", 3))
    Narrator(load_voice("en"), plain.append).begin(reach(game, "witch"))
    assert plain[0].key == "witch.wake"


def night_heard(witch: Answer, toss: str | None, **rules: object) -> list[str]:
    """Returns the voice lines of night 1 and its dawn, until the vote, with the Witch's choice and the box."""
    answers: list[tuple[str, Answer]] = [("seer", 7), ("werewolves", 4), ("witch", witch)]
    if toss is not None:
        answers.append(("witch_toss", toss))
    lines: list[Line] = []
    with pytest.raises(Enough):
        run(harvest(**rules), Narrator(load_voice("en"), lines.append), Until(answers))
    heard = [line.text for line in lines if line.channel == VOICE]
    return heard[: heard.index(next(t for t in heard if t.startswith("It is morning")))]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([None, 1, 3, 4, 5, 6, 7, 8]), st.sampled_from(list(TOSS)), st.booleans())
def test_harvest_the_witchs_potion_and_the_box_are_never_heard(target: int | None, outcome: str,
                                                                call_dead: bool) -> None:
    """Whom she names, how the box falls, whom it changes: the night sounds the same as a pass."""
    toss = None if target is None else outcome
    assert night_heard(target, toss, call_dead=call_dead) == night_heard(None, None, call_dead=call_dead)


# -- replays ---------------------------------------------------------------------------------------------

def test_harvest_a_journal_with_the_toss_replays_to_the_identical_game() -> None:
    """The toss is an answer in the journal: a replay is exact, face and all."""
    for outcome in TOSS:
        game = tossed(outcome, 5)
        drive(game, ("vote", None))
        assert outcome in game.journal
        again = Game(game.table, game.deal, json.loads(json.dumps(game.journal)))
        assert state(again) == state(game)


GAMES = Path(__file__).resolve().parent / "games"


@pytest.mark.parametrize("kept", [2, 4])
def test_harvest_a_practice_run_with_the_toss_resumes_from_its_journal(tmp_path: Path, kept: int) -> None:
    """`- witch: 5` and `- witch_toss: villager` in a practice script; stopped and resumed, the same end."""
    script = tmp_path / "harvest.yaml"
    script.write_text((GAMES / "variants_harvest_witch.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    journal, whole = tmp_path / "whole.jsonl", tmp_path / "whole.json"
    assert main(["dry-run", str(script), "--silent", "--journal", str(journal), "--report", str(whole)]) == 0
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    assert any('"villager"' in line and "witch_toss" in line for line in lines)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[: 1 + kept]), encoding="utf-8")
    assert main(["resume", str(cut), "--silent", "--report", str(tmp_path / "resumed.json")]) == 0
    want = json.loads(whole.read_text(encoding="utf-8"))
    assert json.loads((tmp_path / "resumed.json").read_text(encoding="utf-8")) == want
    assert want["winner"] == "village"


def test_harvest_without_the_variant_the_witch_keeps_her_two_potions() -> None:
    """Default = the rulebook: no toss, her {heal, poison} answer."""
    game = new_game(BOX)
    drive(game, ("seer", None), ("werewolves", 3), ("witch", {"heal": True, "poison": None}))
    assert made(game, "witch_toss", 1) is None and game.alive(3)
