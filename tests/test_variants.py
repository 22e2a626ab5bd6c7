"""The variants of the Chinese article (变体规则; issue 6): moonlight, 'whatever he is, he is not
him', graffiti on the wall, the Harvest, the Black Death and the Werewolf cult — one scenario or more each,
the config key that chooses them, and the draws that keep a replay exact."""

from __future__ import annotations

import dataclasses
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    ROLES,
    Answer,
    Call,
    Deal,
    Game,
    Kind,
    Phase,
    Rules,
    Table,
    check_deck,
)
from engine.calls import call_kinds
from engine.table import deal_buildings
from engine.variants import INCOMPATIBLE, VARIANTS, check_variants
from helpers import Scripted, drive, eliminated, made, made_once, narrate, new_game, reach, refused
from keystrokes import ScriptedKeys
from narrator.asking import KeypadAnswers
from narrator.cli import main
from narrator.config import config_from_journal, journal_table, load_config
from narrator.errors import UserError
from narrator.narration import SCREEN, VOICE, Line, Narrator, run
from narrator.screen import PlainScreen
from narrator.voices import load_voice
from test_properties import WINNERS, pick, state, tables

NO_POTION = {"heal": False, "poison": None}
EIGHT = ["werewolf", "villager", "villager", "villager", "werewolf", "villager", "villager", "villager"]


def facts(call: Call | None, key: str) -> list[dict[str, object]]:
    assert call is not None
    return [dict(f.values) for f in call.facts if f.key == key]


def step_facts(steps: list[Any], key: str) -> list[dict[str, object]]:
    return [dict(f.values) for s in steps for f in s.facts if f.key == key]


# -- the config key -----------------------------------------------------------------------------------

def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "table.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


DECK = "deck: [werewolf, werewolf, seer, witch, villager, villager, villager, villager]\n"


def test_variants_default_to_none_the_rulebook() -> None:
    """Default = the rulebook: no variant."""
    assert Rules().variants == ()
    assert new_game(EIGHT).variants == frozenset()


def test_variants_are_read_from_the_table_config(tmp_path: Path) -> None:
    """`variants: [moonlight, cult]` is carried in Rules, sorted."""
    config, _ = load_config(write(tmp_path, DECK + "variants: [moonlight, cult]\n"))
    assert config.table.rules.variants == ("cult", "moonlight")


def test_an_unknown_variant_is_named_with_its_line_and_a_suggestion(tmp_path: Path) -> None:
    """Bad input: the unknown name, where it is, and 'did you mean'."""
    with pytest.raises(UserError) as info:
        load_config(write(tmp_path, DECK + "variants:\n  - moonlite\n"))
    message = str(info.value)
    assert "table.yaml:3" in message and "'moonlite'" in message and "did you mean 'moonlight'" in message


def test_variants_that_cannot_be_played_together_are_refused(tmp_path: Path) -> None:
    """The Black Death has no werewolves to seduce: black_death with cult is an error naming both."""
    with pytest.raises(UserError) as info:
        load_config(write(tmp_path, "deck: [seer, witch, villager, villager, villager, villager]\n"
                                    "variants: [cult, black_death]\n"))
    assert "black_death and cult cannot be played together" in str(info.value)
    assert all(len(pair) == 2 and pair <= set(VARIANTS) for pair in INCOMPATIBLE)
    assert check_variants(["moonlight", "moonlight"]) == ["a variant is named twice"]
    with pytest.raises(ValueError):
        new_game(["villager"] * 6, variants=("black_death", "cult"))


def test_variants_must_be_a_list_of_names(tmp_path: Path) -> None:
    """An ill-typed value names the key and what it expects."""
    with pytest.raises(UserError) as info:
        load_config(write(tmp_path, DECK + "variants: {moonlight: true}\n"))
    assert "variants: expected a list of the Chinese article's variants" in str(info.value)


def test_the_variants_are_journaled_and_read_back(tmp_path: Path) -> None:
    """journal_table / config_from_journal: a journal replays with the same variants."""
    config, _ = load_config(write(tmp_path, DECK + "variants: [not_him, graffiti, harvest]\n"))
    again = config_from_journal(json.loads(json.dumps(journal_table(config))), "journal")
    assert again == config and again.table.rules.variants == ("graffiti", "harvest", "not_him")


def test_check_lists_the_variants_with_their_default(capsys: pytest.CaptureFixture[str]) -> None:
    """`werewolf-narrator check --help` lists the key and its default."""
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    shown = capsys.readouterr().out
    assert "variants" in shown and "moonlight" in shown and "black_death" in shown


# -- moonlight -------------------------------------------------------------------------------------

def test_moonlight_the_candles_of_the_nights_victims_are_blown_out_at_dawn() -> None:
    """月光: 'each morning the narrator blows out the candle before each victim' — said after the victims."""
    game = new_game(EIGHT, variants=("moonlight",))
    drive(game, ("werewolves", 3))
    dawn = made_once(game, "dawn", 1, Phase.DAY)
    assert [f.key for f in dawn.facts] == ["victim", "moonlight.candles"]
    assert facts(dawn, "moonlight.candles") == [{"seats": [3]}]


def test_moonlight_the_candles_are_blown_out_in_seat_order_whatever_the_cause() -> None:
    """docs/rules.md: the dawn's dead in seat order — the candles too, or they would tell which was the poison."""
    game = new_game(["werewolf", "werewolf", "villager", "witch", "villager", "villager", "villager", "villager"],
                    variants=("moonlight",))
    drive(game, ("werewolves", 6), ("witch", {"heal": False, "poison": 3}))
    dawn = made_once(game, "dawn", 1, Phase.DAY)
    assert [f.values["seat"] for f in dawn.facts if f.key == "victim"] == [3, 6]
    assert facts(dawn, "moonlight.candles") == [{"seats": [3, 6]}]


def test_moonlight_no_candle_is_blown_out_after_a_night_without_victim() -> None:
    """No victim, no candle."""
    game = new_game(EIGHT, variants=("moonlight",))
    drive(game, ("werewolves", None))
    assert facts(made_once(game, "dawn", 1, Phase.DAY), "moonlight.candles") == []


def test_moonlight_the_candle_of_a_player_voted_out_goes_out_too() -> None:
    """'The survivors alone are seen in the dark': every player who leaves the game loses their candle."""
    game = new_game(EIGHT, variants=("moonlight",))
    steps = drive(game, ("werewolves", 3), ("vote", 2))
    assert step_facts(steps, "moonlight.candles") == [{"seats": [2]}]


def test_moonlight_the_narrator_says_which_candle_to_blow_out() -> None:
    """The line is said aloud (public: it follows the victims' announcement), in every language."""
    for language, word in (("en", "candle"), ("fr", "bougie"), ("zh", "蜡烛")):
        game = new_game(EIGHT, variants=("moonlight",))
        lines = narrate(game, [("werewolves", 3), ("vote", 1), ("werewolves", 2), ("vote", 5)], language)
        candles = [line for line in lines if line.key == "moonlight.candles"]
        assert len(candles) == 4 and all(line.channel == VOICE and word in line.text for line in candles)


# -- not_him: the chain of innocence -----------------------------------------------------------------

def test_not_him_replaces_the_vote_by_the_chain_of_innocence() -> None:
    """'Whatever he is, he is not him': no vote; the last one standing is eliminated as by the vote."""
    game = new_game(EIGHT, variants=("not_him",))
    drive(game, ("werewolves", 3), ("chain_draw", 6), ("chain", 5))
    assert made(game, "vote", 1, Phase.DAY) is None
    assert eliminated(game) == [(3, "werewolves"), (5, "vote")]
    assert call_kinds()["chain"] is Kind.SEAT and call_kinds()["chain_draw"] is Kind.DRAW


def test_not_him_the_first_chain_begins_with_a_player_drawn_at_random() -> None:
    """Nobody eliminated by the vote yet: the first to vouch is drawn (a draw among the living, journaled)."""
    game = new_game(EIGHT, variants=("not_him",))
    drive(game, ("werewolves", 3))
    call = reach(game, "chain_draw")
    assert call.kind is Kind.DRAW and call.live and call.needs_answer and 3 not in call.seats
    assert refused(game, 3).key == "refusal.eliminated"
    drive(game, ("chain_draw", 6))
    assert facts(game.call, "chain.first") == [{"seat": 6}]


def test_not_him_the_chain_begins_left_of_the_last_player_eliminated_by_the_vote() -> None:
    """'The player to the left of the last executed player' (clockwise, as Game.neighbours): no draw then."""
    game = new_game(EIGHT, variants=("not_him",))
    drive(game, ("werewolves", 3), ("chain_draw", 6), ("chain", 5), ("werewolves", 6))
    call = reach(game, "chain")
    assert made(game, "chain_draw", 2, Phase.DAY) is None
    assert facts(call, "chain.first") == [{"seat": 7}]  # seat 6, left of 5, was devoured: the next living


def test_not_him_the_chain_always_ends_on_one_seat() -> None:
    """The last one standing: a seat, never nobody nor a tie."""
    game = new_game(EIGHT, variants=("not_him",))
    drive(game, ("werewolves", 3), ("chain_draw", 6))
    assert refused(game, None).key == "refusal.need_seat"
    assert refused(game, {"tie": [1, 2]}).key == "refusal.shape"


# -- graffiti ---------------------------------------------------------------------------------------

def test_graffiti_before_each_nightfall_a_player_drawn_at_random_reads_the_notes() -> None:
    """墙上的涂鸦: after the vote, notes in the centre, a reader drawn at random, then night falls."""
    game = new_game(EIGHT, variants=("graffiti",))
    steps = drive(game, ("werewolves", 3), ("vote", 2), ("graffiti_draw", 4))
    day = [c.id for c in game.calls if c.phase is Phase.DAY and c.number == 1]
    assert day[-5:] == ["debate", "vote", "graffiti", "graffiti_draw", "graffiti_read"]
    assert step_facts(steps, "graffiti.reader") == [{"seat": 4}]
    assert game.call is not None and (game.call.id, game.call.number) == ("werewolves", 2)


def test_graffiti_the_reader_is_a_living_player() -> None:
    """The draw is among the living; the table confirms when every note is read."""
    game = new_game(EIGHT, variants=("graffiti",))
    drive(game, ("werewolves", 3), ("vote", 2))
    assert reach(game, "graffiti_draw").seats == (1, 4, 5, 6, 7, 8)
    assert refused(game, 2).key == "refusal.eliminated"
    game.answer(5)
    assert game.call is not None and game.call.id == "graffiti_read" and game.call.kind is Kind.NONE


def test_graffiti_no_notes_once_the_game_is_won() -> None:
    """The vote that ends the game ends it: no graffiti after."""
    game = new_game(["werewolf"] + ["villager"] * 5, variants=("graffiti",))
    drive(game, ("werewolves", 2), ("vote", 1))
    assert game.over and made(game, "graffiti", 1, Phase.DAY) is None


# -- the Harvest ------------------------------------------------------------------------------------

HARVEST = ["werewolf", "villager", "seer", "villager", "guard", "hunter", "werewolf", "villager"]


def test_harvest_werewolves_only_devour_a_neighbour_of_a_werewolf() -> None:
    """'Werewolves may only devour a player sitting beside a werewolf' — a secret: refused on the screen."""
    game = new_game(HARVEST, variants=("harvest",))
    drive(game, ("seer", None), ("guard", None))
    reach(game, "werewolves")
    error = refused(game, 4)
    assert error.secret and error.key == "refusal.harvest_neighbour"
    assert [s for s in game.legal() if s is not None] == [2, 6, 8]
    drive(game, ("werewolves", 8))
    assert eliminated(game) == [(8, "werewolves")]


def test_harvest_the_hunter_shoots_one_of_his_neighbours() -> None:
    """'The Hunter must choose his victim among his neighbours' — public: only they may be named."""
    game = new_game(HARVEST, variants=("harvest",))
    drive(game, ("seer", None), ("guard", None), ("werewolves", 6))
    call = reach(game, "hunter")
    assert call.seats == (7, 5)
    error = refused(game, 2)
    assert not error.secret and error.key == "refusal.not_among"
    drive(game, ("hunter", 7))
    assert eliminated(game) == [(6, "werewolves"), (7, "hunter")]


def test_harvest_the_guard_protects_himself_or_a_neighbour() -> None:
    """'The Guard may only protect himself or one of his neighbours' — refused on the screen only."""
    game = new_game(HARVEST, variants=("harvest",))
    drive(game, ("seer", None))
    reach(game, "guard")
    error = refused(game, 3)
    assert error.secret and error.key == "refusal.harvest_guard"
    assert [s for s in game.legal() if s is not None] == [4, 5, 6]


def test_harvest_the_seer_sees_three_cards_shuffled() -> None:
    """The chosen card and its two neighbours', shown sorted: no card tied to a seat."""
    game = new_game(HARVEST, variants=("harvest",))
    (step,) = drive(game, ("seer", 1))
    (seen,) = [f for f in step.facts if f.key == "seer.sees_shuffled"]
    assert seen.secret and dict(seen.values) == {"roles": ["villager", "villager", "werewolf"]}
    assert not [f for f in step.facts if f.key == "seer.sees"]


def test_harvest_the_seers_three_cards_are_shown_on_the_screen_only() -> None:
    """The narrator shows the three names on the screen; nothing of them is heard."""
    game = new_game(HARVEST, variants=("harvest",))
    lines = narrate(game, [("seer", 1), ("guard", None), ("werewolves", 2), ("vote", 1), ("seer", None),
                           ("guard", None), ("werewolves", 6), ("hunter", 7)])
    (shown,) = [line for line in lines if line.key == "screen.seer_sees_shuffled"]
    assert shown.channel == SCREEN and "Werewolf" in shown.text and "seat" not in shown.text.lower()


def test_harvest_the_piper_charms_one_player_a_night() -> None:
    """'The Piper charms only one player at a time.'"""
    game = new_game(["werewolf", "piper", "villager", "villager", "villager", "villager", "villager", "villager"],
                    variants=("harvest",))
    drive(game, ("werewolves", 8))
    call = reach(game, "piper")
    assert call.picks == 1
    assert refused(game, [4, 5]).key == "refusal.count"
    drive(game, ("piper", [4]))
    assert game.marked(4, "charmed") and not game.marked(5, "charmed")


def test_harvest_the_sheriff_votes_first() -> None:
    """'The Sheriff votes before all the players' — a spoken reminder at the vote."""
    game = new_game(HARVEST, sheriff=True, variants=("harvest",))
    drive(game, ("sheriff_election", 2), ("seer", None), ("guard", None), ("werewolves", 8))
    assert facts(reach(game, "vote"), "harvest.sheriff_first") == [{"seat": 2}]
    plain = new_game(HARVEST, sheriff=True)
    drive(plain, ("sheriff_election", 2), ("seer", None), ("guard", None), ("werewolves", 8))
    assert facts(reach(plain, "vote"), "harvest.sheriff_first") == []


GOAT = ["werewolf", "scapegoat", "villager", "villager", "werewolf", "villager", "villager", "villager"]


def test_harvest_the_scapegoat_dies_in_place_of_his_neighbour() -> None:
    """'The Scapegoat dies in place of his neighbour' (ruling: a neighbour voted out is spared, he dies)."""
    game = new_game(GOAT, variants=("harvest",))
    drive(game, ("werewolves", 4), ("vote", 3), ("scapegoat", [1, 3]))
    assert eliminated(game) == [(4, "werewolves"), (2, "scapegoat_neighbour")]
    assert game.alive(3)


def test_harvest_the_scapegoat_no_longer_takes_a_tie() -> None:
    """'No longer dies for a tie': a tie goes to the run-off as usual."""
    game = new_game(GOAT, variants=("harvest",))
    drive(game, ("werewolves", 4), ("vote", {"tie": [6, 7]}))
    assert game.alive(2) and reach(game, "revote").seats == (6, 7)


def test_harvest_advises_more_werewolves_without_a_warning() -> None:
    """'More werewolves than usual are advised': no quarter warning with the Harvest."""
    deck = ["werewolf"] * 3 + ["villager"] * 5
    assert check_deck(8, deck)[1] and check_deck(8, deck, ("harvest",)) == ([], [])


# -- the Black Death ----------------------------------------------------------------------------------

PLAGUE = ["seer", "villager", "villager", "witch", "villager", "villager", "villager", "villager"]


def test_black_death_a_deck_without_werewolves_is_accepted_only_with_the_variant() -> None:
    """'This rule adds no werewolves': the deck check accepts no werewolf card only then, and no werewolf then."""
    assert check_deck(8, PLAGUE)[0] and check_deck(8, PLAGUE, ("black_death",)) == ([], [])
    errors, _ = check_deck(8, EIGHT, ("black_death",))
    assert errors == ["the Black Death is played without werewolves; the deck has 2 werewolf cards"]
    with pytest.raises(ValueError):
        new_game(PLAGUE)


def test_black_death_the_program_draws_the_nights_victim() -> None:
    """'The next victim is chosen by the narrator': the werewolves' call, nobody awake, a draw among the living."""
    game = new_game(PLAGUE, variants=("black_death",))
    drive(game, ("seer", 2))
    call = reach(game, "werewolves")
    assert call.kind is Kind.DRAW and call.actors == () and call.live and call.seats == tuple(range(1, 9))
    drive(game, ("werewolves", 5), ("witch", NO_POTION))
    assert eliminated(game) == [(5, "werewolves")]


def test_black_death_the_voice_does_not_announce_the_variant() -> None:
    """'The narrator does not announce the variant': the night sounds like a night with werewolves."""
    wolves = ["seer", "villager", "villager", "witch", "werewolf", "villager", "villager", "villager"]
    plain = narrate(new_game(wolves), [("seer", 2), ("werewolves", 6), ("witch", NO_POTION), ("vote", 5)])
    plague = narrate(new_game(PLAGUE, variants=("black_death",)),
                     [("seer", 2), ("werewolves", 6), ("witch", NO_POTION), ("vote", None)])
    said = [line.text for line in plague if line.channel == VOICE]
    heard = [line.text for line in plain if line.channel == VOICE]
    assert said[: said.index(next(t for t in said if "vote" in t.lower())) + 1] == \
        heard[: heard.index(next(t for t in heard if "vote" in t.lower())) + 1]


def test_black_death_the_players_win_by_refusing_to_vote() -> None:
    """'The players win when all refuse to vote': a vote for nobody ends the game, every player winning."""
    game = new_game(PLAGUE, variants=("black_death",))
    drive(game, ("seer", 2), ("werewolves", 5), ("witch", NO_POTION), ("vote", None))
    assert game.over and game.outcome is not None
    assert game.outcome.winner == "village" and game.outcome.winners == tuple(range(1, 9))


def test_black_death_otherwise_the_game_runs_until_everyone_is_dead() -> None:
    """No side wins by numbers: the village alone is not a victory; the end is everyone dead."""
    game = new_game(PLAGUE, variants=("black_death",))
    for _ in range(400):
        call = game.call
        if call is None:
            break
        if not call.needs_answer:
            game.answer(None)
        elif call.id == "witch":
            game.answer(NO_POTION)
        else:
            game.answer([v for v in game.legal() if v is not None][0])
    assert game.outcome is not None and game.outcome.winner == "nobody" and game.living() == ()


# -- the Werewolf cult --------------------------------------------------------------------------------

CULT = ["werewolf", "seer", "villager", "villager", "werewolf", "hunter", "villager", "villager"]


def test_cult_the_werewolves_victim_is_seduced_not_killed() -> None:
    """狼人崇拜: 'the victim is no longer killed but loses their special power and is seduced' — silently."""
    game = new_game(CULT, variants=("cult",))
    drive(game, ("seer", 3), ("werewolves", 2))
    dawn = made_once(game, "dawn", 1, Phase.DAY)
    assert [f.key for f in dawn.facts] == ["no_victim"]
    assert game.alive(2) and game.marked(2, "seduced") and not game.keeps_power(2)
    drive(game, ("vote", None))
    seer = made_once(game, "seer", 2)
    assert not seer.live and seer.actors == ()


def test_cult_a_seduced_hunter_does_not_shoot() -> None:
    """The seduced lose their special power: the Hunter voted out fires no shot."""
    game = new_game(CULT, variants=("cult",))
    drive(game, ("seer", None), ("werewolves", 6), ("vote", 6))
    assert made(game, "hunter", 1, Phase.DAY) is None and eliminated(game) == [(6, "vote")]


def test_cult_a_seduced_player_voted_out_takes_every_seduced_player_along() -> None:
    """'When a seduced player is eliminated by the vote, every seduced player dies at once.'"""
    game = new_game(CULT, variants=("cult",))
    drive(game, ("seer", None), ("werewolves", 3), ("vote", None), ("seer", None), ("werewolves", 4),
          ("vote", 3))
    assert eliminated(game) == [(3, "vote"), (4, "cult")]


def test_cult_a_player_not_seduced_voted_out_takes_nobody_along() -> None:
    """Only a seduced player's fall brings the others down."""
    game = new_game(CULT, variants=("cult",))
    drive(game, ("seer", None), ("werewolves", 3), ("vote", 7))
    assert eliminated(game) == [(7, "vote")] and game.alive(3)


def test_cult_the_werewolves_win_when_one_villager_alone_is_not_seduced() -> None:
    """'When only one villager is left not seduced, the werewolves win.'"""
    game = new_game(["werewolf"] + ["villager"] * 5, variants=("cult",))
    for victim in (2, 3, 4):
        drive(game, ("werewolves", victim), ("vote", None))
    assert not game.over
    drive(game, ("werewolves", 5))
    assert game.outcome is not None and (game.outcome.winner, game.outcome.winners) == ("werewolves", (1,))


def test_cult_the_witchs_heal_saves_from_the_seduction() -> None:
    """The seduction is the werewolves' attack: healed, the victim is not seduced (ruling taken)."""
    game = new_game(["werewolf", "witch"] + ["villager"] * 6, variants=("cult",))
    drive(game, ("werewolves", 3), ("witch", {"heal": True, "poison": None}))
    assert not game.marked(3, "seduced")


def test_cult_the_seduced_who_fall_are_announced_aloud() -> None:
    """Their death is public: 'death.cult', with their card when cards are revealed."""
    game = new_game(CULT, variants=("cult",))
    lines = narrate(game, [("seer", None), ("werewolves", 3), ("vote", None), ("seer", None), ("werewolves", 4),
                           ("vote", 3), ("seer", None), ("werewolves", 7), ("vote", 1), ("seer", None),
                           ("werewolves", 8), ("vote", 5)])
    (fall,) = [line for line in lines if line.key == "death.cult"]
    assert fall.channel == VOICE and "seat number four" in fall.text.lower()


# -- draws: journaled, replayed exactly ------------------------------------------------------------

def test_a_draw_is_answered_by_the_program_at_the_keypad_and_paced_at_night() -> None:
    """No key is pressed for a draw: the program picks among the call's seats; at night it waits as long
    as a pack's choice might, so that the Black Death sounds like werewolves."""
    game = new_game(PLAGUE, variants=("black_death", "graffiti"))
    drive(game, ("seer", None))
    call = reach(game, "werewolves")
    waited: list[float] = []
    keypad = KeypadAnswers(ScriptedKeys([]), PlainScreen(io.StringIO()), load_voice("en"),
                           say=lambda k, v: None, repeat=lambda: None, rng=random.Random(4), sleep=waited.append)
    drawn = keypad.answer(call, game)
    assert drawn in call.seats and len(waited) == 1
    game.answer(drawn)
    drive(game, ("witch", NO_POTION), ("vote", 1))
    day = reach(game, "graffiti_draw")
    assert keypad.answer(day, game) in day.seats and len(waited) == 1  # by day, no pause


def test_a_journal_of_draws_replays_to_the_identical_game() -> None:
    """The engine draws nothing: the drawn seats are answers in the journal, and a replay is exact."""
    rng = random.Random(11)
    game = new_game(PLAGUE, variants=("black_death", "graffiti", "moonlight"))
    while not game.over:
        call = game.call
        assert call is not None
        if call.kind is Kind.DRAW:
            game.answer(rng.choice(call.seats))
        elif call.id == "vote":
            game.answer(rng.choice(call.seats))
        else:
            game.answer(pick(game, rng))
    again = Game(game.table, game.deal, game.journal)
    assert state(again) == state(game) and any(c.kind is Kind.DRAW for c in game.calls)


def test_a_practice_script_writes_a_draw_as_the_answer(tmp_path: Path) -> None:
    """In practice scripts a draw is written as its answer: `- werewolves: 5`, `- graffiti_draw: 3`."""
    from narrator.practice import dry_run
    from narrator.script import load_script

    path = tmp_path / "plague.yaml"
    path.write_text("""# The Black Death with graffiti
table: {language: en, deck: [seer, villager, villager, witch, villager, villager], sheriff: false,
        variants: [black_death, graffiti]}
deal: {1: seer, 2: villager, 3: villager, 4: witch, 5: villager, 6: villager}
answers:
  - seer: 2
  - werewolves: 5
  - witch: {heal: false, poison: null}
  - vote: 2
  - graffiti_draw: 3
  - seer: 3
  - werewolves: 6
  - witch: {heal: false, poison: null}
  - vote: null
expect: {winner: village, eliminated: [5, 2, 6]}
""", encoding="utf-8")
    script, _ = load_script(str(path))
    game, lines = dry_run(script)
    assert game.outcome is not None and game.outcome.winner == "village"
    assert [line.text for line in lines if line.key == "graffiti.reader"] == ["Seat number three, shuffle the notes "
                                                                             "and read them aloud, one by one."]


# -- every variant, random games ------------------------------------------------------------------

COMBINATIONS = [frozenset(c) for c in (("moonlight",), ("not_him",), ("graffiti",), ("harvest",), ("cult",),
                                       ("black_death",), ("moonlight_wolves", "cult"), ("moonlight", "graffiti", "harvest", "not_him"),
                                       ("cult", "harvest", "graffiti"), ("black_death", "moonlight", "graffiti"))]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.sampled_from(COMBINATIONS), st.integers(0, 2**31))
def test_every_variant_game_ends_and_replays_identically(table: Table, chosen: frozenset[str], seed: int) -> None:
    """Random legal games with the variants end with one of the winners, and their journals replay exactly."""
    deck = table.deck
    if "black_death" in chosen:
        deck = tuple("villager" if ROLES[c].wolf_card else c for c in deck)
    rules = Rules(sheriff=table.rules.sheriff, reveal_roles=table.rules.reveal_roles, variants=tuple(chosen))
    table = dataclasses.replace(table, deck=deck, rules=rules)  # its groups, Actor's cards, buildings kept
    rng = random.Random(seed)
    cards = list(deck)
    rng.shuffle(cards)
    game = Game(table, Deal(tuple(cards[: table.seats]), tuple(cards[table.seats:]), deal_buildings(table, seed)))
    while not game.over:
        assert len(game.calls) <= 2000
        game.answer(pick(game, rng))
    assert game.outcome is not None and game.outcome.winner in WINNERS
    assert state(Game(table, game.deal, game.journal)) == state(game)


# -- moonlight, the option: the werewolves blow out the candle -----------------------------------------

def test_moonlight_wolves_the_werewolves_are_told_aloud_to_blow_out_their_victims_candle() -> None:
    """'The narrator may let the werewolves blow out their victim's candle themselves' — said every night."""
    game = new_game(EIGHT, variants=("moonlight_wolves",))
    call = reach(game, "werewolves")
    (told,) = [f for f in call.facts if f.key == "moonlight.wolves"]
    assert not told.secret


def test_moonlight_wolves_more_than_one_candle_out_means_no_victim() -> None:
    """'If more than one candle is out, there is no victim that night': the table says so at dawn."""
    game = new_game(EIGHT, variants=("moonlight_wolves",))
    drive(game, ("werewolves", 3))
    call = reach(game, "candles")
    assert call.phase is Phase.DAY and call.kind is Kind.YES_NO and call.actors == ()
    drive(game, ("candles", True))
    assert game.alive(3) and [f.key for f in made_once(game, "dawn", 1, Phase.DAY).facts] == [
        "no_victim", "moonlight.relight"]


def test_moonlight_wolves_more_than_one_candle_out_no_werewolf_kills_at_all() -> None:
    """'如果不止一根蜡烛被熄灭，则当晚没有受害者' (docs/rules.md: no victim at all) — the Big Bad Wolf's second victim is
    spared too, not the pack's alone."""
    game = new_game(["werewolf", "big_bad_wolf"] + ["villager"] * 6, variants=("moonlight_wolves",))
    drive(game, ("werewolves", 3), ("big_bad_wolf", 4), ("candles", True))
    assert eliminated(game) == [] and game.alive(3) and game.alive(4)


def test_moonlight_wolves_one_candle_out_the_victim_is_devoured() -> None:
    """One candle out: the pack's victim dies as usual, their candle already out."""
    game = new_game(EIGHT, variants=("moonlight_wolves",))
    drive(game, ("werewolves", 3), ("candles", False))
    assert eliminated(game) == [(3, "werewolves")]
    assert [f.key for f in made_once(game, "dawn", 1, Phase.DAY).facts] == [
        "victim", "moonlight.candles", "moonlight.relight"]


def test_moonlight_wolves_the_candles_are_asked_about_every_dawn() -> None:
    """Asked whatever the pack did, so that the question gives nothing away."""
    game = new_game(EIGHT, variants=("moonlight_wolves",))
    drive(game, ("werewolves", None))
    assert reach(game, "candles").live


def test_moonlight_wolves_the_poison_is_not_spared_by_the_candles() -> None:
    """Only the pack's victim depends on the candles: the Witch's poison kills all the same."""
    game = new_game(["werewolf", "witch"] + ["villager"] * 6, variants=("moonlight_wolves",))
    drive(game, ("werewolves", 3), ("witch", {"heal": False, "poison": 4}), ("candles", True))
    assert eliminated(game) == [(4, "poison")]


# -- secrets stay secret ------------------------------------------------------------------------------

class Enough(Exception):
    """The scripted answers are spent: the narration stops there."""


class Until(Scripted):
    def answer(self, call: Call, game: Game) -> Answer:
        if call.needs_answer and not self.answers:
            raise Enough()
        return super().answer(call, game)


def heard(roles: list[str], variants: tuple[str, ...], answers: list[tuple[str, Answer]]) -> list[str]:
    """Returns the voice lines of a game narrated until its answers are spent."""
    lines: list[Line] = []
    with pytest.raises(Enough):
        run(new_game(roles, variants=variants), Narrator(load_voice("en"), lines.append), Until(answers))
    return [line.text for line in lines if line.channel == VOICE]


def test_the_cults_seduction_is_never_heard() -> None:
    """Whom the werewolves seduced is not said: two nights seducing different players sound the same."""
    one = heard(CULT, ("cult",), [("seer", 3), ("werewolves", 3), ("vote", 7), ("seer", 4), ("werewolves", 4)])
    other = heard(CULT, ("cult",), [("seer", 8), ("werewolves", 8), ("vote", 7), ("seer", 3), ("werewolves", 2)])
    assert one == other


def test_the_harvest_seers_three_cards_and_the_packs_refusal_are_never_heard() -> None:
    """The Seer's shuffled cards, and a victim refused for sitting beside no werewolf, stay on the screen."""
    lines: list[Line] = []
    game = new_game(HARVEST, variants=("harvest",))
    narrator = Narrator(load_voice("en"), lines.append)
    narrator.begin(reach(game, "seer"))
    narrator.end(game.call, game.answer(1))  # type: ignore[arg-type]
    drive(game, ("guard", None))
    narrator.refuse(game.call, refused(game, 4))  # type: ignore[arg-type]
    assert [line.key for line in lines if line.channel == SCREEN] == ["screen.seer_sees_shuffled",
                                                                      "refusal.harvest_neighbour"]


def test_black_death_is_named_only_once_the_village_has_won() -> None:
    """At the end, the narrator may say it: 'it was the Black Death'."""
    lines = narrate(new_game(PLAGUE, variants=("black_death",)),
                    [("seer", 2), ("werewolves", 6), ("witch", NO_POTION), ("vote", None)])
    ends = [line.key for line in lines if line.key.startswith("end.")]
    assert ends == ["end.black_death", "end.winners"]
    assert not any("Black Death" in line.text for line in lines if not line.key.startswith("end."))


GAMES = Path(__file__).resolve().parent / "games"


@pytest.mark.parametrize("kept", [0, 3, 6])
def test_a_practice_run_with_draws_resumes_from_its_journal_to_the_same_end(tmp_path: Path, kept: int) -> None:
    """The draws are journaled answers: a run stopped after ``kept`` answers resumes to the same report."""
    script = tmp_path / "plague.yaml"
    script.write_text((GAMES / "variants_black_death_graffiti.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    journal, whole = tmp_path / "whole.jsonl", tmp_path / "whole.json"
    assert main(["dry-run", str(script), "--silent", "--journal", str(journal), "--report", str(whole)]) == 0
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    assert any('"graffiti_draw"' in line for line in lines)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[: 1 + kept]), encoding="utf-8")
    assert main(["resume", str(cut), "--silent", "--report", str(tmp_path / "resumed.json")]) == 0
    want = json.loads(whole.read_text(encoding="utf-8"))
    got = json.loads((tmp_path / "resumed.json").read_text(encoding="utf-8"))
    assert got == want
