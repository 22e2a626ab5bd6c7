"""Twin games — pairs that differ only in a secret must sound the same and show the same while
nobody who holds the secret is looking (the rule is tests/twins.py's). Every character with a night call
gets its twins; a new one fails test_every_night_call_has_its_twins until it has them."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

import pytest

from engine import Answer, Deal, Rules, Table
from engine.table import deal_events
from engine.order import PROFILES
from helpers import STARTER_TABLE, play_keys
from keystrokes import Recorder, plan_keys
from narrator.cli import main
from narrator.config import TableConfig, load_config
from narrator.journal import Journal, read_journal
from narrator.narration import CLOSE_EYES, OPEN_EYES
from narrator.play import NewGame, Resumed
from narrator.speak import VoiceCache
from narrator.speak.audio import Sound
from narrator.speak.rendered import EngineThread, RenderedSpeaker
from narrator.table_narrator import TableNarrator
from narrator.voices import load_voice
from twins import (
    AWAKE,
    CLOSED,
    EYES,
    REFUSAL,
    SEATS,
    Moment,
    Played,
    Twin,
    comparable,
    first_difference,
    panels,
    plan,
    play_twin,
    screen_differences,
    stretches,
    voice_difference,
)

# -- the four pairs the issue names, at a table dealt by the app ----------------------------------------

TABLE = """\
language: {language}
seats: 9
deck: [angel, werewolf, werewolf, seer, witch, cupid, villager, villager, villager]
deal: app
sheriff: false
reveal_roles: false
speaker: console
pause: [{pause}, {pause}]
call_floor: {pause}
"""
"""The named pairs' table: the Angel opens with a day, so a vote can eliminate a character before night 1;
cards are not revealed, so that who died stays a secret (revealed, it would be public, not a leak)."""

SEEDS = {
    # seat:        1      2         3       4      5         6      7         8         9
    3776: ("angel", "werewolf", "seer", "witch", "werewolf", "cupid", "villager", "villager", "villager"),
    1830: ("angel", "werewolf", "villager", "witch", "werewolf", "cupid", "seer", "villager", "villager"),
    59785: ("angel", "werewolf", "cupid", "witch", "werewolf", "seer", "villager", "villager", "villager"),
    14935: ("angel", "werewolf", "villager", "witch", "werewolf", "seer", "cupid", "villager", "villager"),
}
"""The app's deals the pairs are built on: twins differ by two seats swapped (3776/1830: the Seer and a
villager; 59785/14935: Cupid and a villager), or not at all (the Witch's pairs differ in her answers)."""

SEER_AT_3, SEER_AT_7, CUPID_AT_3, CUPID_AT_7 = 3776, 1830, 59785, 14935


def table_config(language: str = "en", pause: float = 0) -> TableConfig:
    """The named pairs' table, read from its YAML as `play` reads it (the deck's order makes the deal)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table.yaml"
        path.write_text(TABLE.format(language=language, pause=pause), encoding="utf-8")
        return load_config(str(path))[0]


OPENING = {("vote", 0): None, "cupid": [8, 9], "seer": 2}
"""The course both twins share: nobody voted out on the opening day, Cupid binds seats 8 and 9, the Seer
looks at seat 2."""


def named(seed: int, horizon: int = 1, **answers: Any) -> Twin:
    return Twin(table_config(), seed=seed, answers={**OPENING, **{_key(k): v for k, v in answers.items()}},
                horizon=("vote", horizon))


def _key(name: str) -> Any:
    """"witch_1" is the Witch on night 1; "vote_0" the opening day's vote."""
    call, _, number = name.rpartition("_")
    return (call, int(number)) if number.isdigit() else name


SEAT_3_VOTED_OUT = {"vote_0": 3}

MENU_AT_NIGHT = ["menu", "1", "menu", "4", "enter"]
"""The host's keys at a night call: the menu, 1 (not in the night's menu), the menu again, 4 the village, back."""

KEYPAD_AT_NIGHT = ["repeat", "menu", "2", "menu", "3", "enter", "menu", "6", "enter"]
"""A living character's keys at its call: repeat, the host menu's repeat, its pause, its 6 (refused at night)."""

NAMED: dict[str, tuple[Twin, Twin]] = {
    # A living vs a dead Seer: seat 3, voted out on the opening day, held the Seer or a villager.
    "seer_living_or_dead": (named(SEER_AT_3, **SEAT_3_VOTED_OUT), named(SEER_AT_7, **SEAT_3_VOTED_OUT)),
    # A Witch with and without potions: she spent both on night 1 (healed the pack's victim, poisoned seat 3)
    # or none (the pack devoured seat 3): seat 3 dies either way; on night 2 she has both or none.
    "witch_with_or_without_potions": (
        named(SEER_AT_3, 2, werewolves_1=7, witch_1={"heal": True, "poison": 3}),
        named(SEER_AT_3, 2, werewolves_1=3)),
    # Which death was the poison: the devoured and the poisoned in swapped seats (3 and 7).
    "which_death_was_the_poison": (
        named(SEER_AT_3, werewolves_1=3, witch_1={"heal": False, "poison": 7}),
        named(SEER_AT_3, werewolves_1=7, witch_1={"heal": False, "poison": 3})),
    # An illegal then a legal answer vs a dead character's call: a living Seer types the eliminated seat 3,
    # then seat 99, then seat 2; Cupid names seat 8 twice, then the eliminated seat 3, then seat 99 (refused as typed).
    "seer_refused_or_dead": (
        named(SEER_AT_3, **SEAT_3_VOTED_OUT),
        replace(named(SEER_AT_7, **SEAT_3_VOTED_OUT), typed={"seer": ["3", "enter", "enter",
                                                                     "9", "9", "enter", "enter"]})),
    "cupid_refused_or_dead": (
        named(CUPID_AT_3, **SEAT_3_VOTED_OUT),
        replace(named(CUPID_AT_7, **SEAT_3_VOTED_OUT), typed={"cupid": ["8", "enter", "8", "enter", "enter",
                                                                       "3", "enter", "8", "enter", "enter",
                                                                       "9", "9", "enter"]})),
    # A key pressed while the narrator reads none, at every wait of the night (the living Seer's floor, her call made
    # for the dead, the werewolves' floor): dropped as the next call opens, never the next character's answer.
    "stray_keys_living_or_dead": (
        replace(named(SEER_AT_3, **SEAT_3_VOTED_OUT), config=table_config(pause=1), stray=("5",)),
        replace(named(SEER_AT_7, **SEAT_3_VOTED_OUT), config=table_config(pause=1), stray=("5",))),
    # The host menu opened at night (at the pack's call, live in both): 1, the take-back, is not in the night's
    # menu (a wrong key's hint), 4 shows the village; whether the Seer before them lived changes none of it.
    "host_menu_at_night": (
        replace(named(SEER_AT_3, **SEAT_3_VOTED_OUT), typed={"werewolves": MENU_AT_NIGHT}),
        replace(named(SEER_AT_7, **SEAT_3_VOTED_OUT), typed={"werewolves": MENU_AT_NIGHT})),
    # A Witch who tries the poison she spent vs one who still holds it and answers no: on night 1 she poisoned the
    # pack's victim (seat 3) or did nothing, seat 3 dies either way; on night 2 the one whose poison is spent is asked
    # her heal alone, types seat 5 there (refused on the screen: the poison is spent), then passes; the other passes
    # both questions.
    "witch_refused_or_spent": (
        replace(named(SEER_AT_3, 2, werewolves_1=3, witch_1={"heal": False, "poison": 3}, werewolves_2=7),
                typed={("witch", 2): ["5", "enter"]}),
        named(SEER_AT_3, 2, werewolves_1=3, werewolves_2=7)),
    # What only someone awake at the keypad does at night — repeat, the menu's repeat, its pause, its 6 (show
    # a card) — is never heard: the living Seer's call sounds as her call made for the dead.
    "keypad_at_night_living_or_dead": (
        named(SEER_AT_3, **SEAT_3_VOTED_OUT),
        replace(named(SEER_AT_7, **SEAT_3_VOTED_OUT), typed={"seer": KEYPAD_AT_NIGHT})),
}

CONFESSOR_DECK = ("werewolf", "villager", "villager", "villager", "villager", "villager", "werewolf", "villager")
CONFESSOR_TABLE = TableConfig("en", Table(8, CONFESSOR_DECK, Rules(sheriff=False, reveal_roles=False),
                                          buildings=("confessor",)), pause=(0.0, 0.0))


def confessed(roles: tuple[str, ...]) -> Twin:
    """The Confessor (seat 2) hears seat 7, a werewolf or a villager: the pack devours seat 8 on night 1."""
    return Twin(CONFESSOR_TABLE, deal=Deal(roles, (), ((2, "confessor"),)),
                answers={"werewolves": 8, "confessor": 7}, horizon=("vote", 1))


VV_DECK = ("angel", "werewolf", "seer", "villager", "werewolf", "villager", "villager", "villager", "villager_villager")
VV_TABLE = TableConfig("en", Table(9, VV_DECK, Rules(sheriff=False, reveal_roles=False)), pause=(0.0, 0.0))


def villager_villager_at_9(seer: int) -> Twin:
    """The Villager-Villager at seat 9, said aloud before the opening vote; the Seer at ``seer`` (3 or 7, a villager
    in the other seat): the pack devours seat 4 on night 1."""
    roles = list(VV_DECK)
    roles[2], roles[seer - 1] = roles[seer - 1], roles[2]
    return Twin(VV_TABLE, deal=Deal(tuple(roles)), answers={("vote", 0): None, "seer": 2, "werewolves": 4},
                horizon=("vote", 1))


KEYPAD_ONLY: dict[str, tuple[Twin, Twin]] = {
    # The Villager-Villager's public line (deal: app): said at the same moment, in the same words, whoever holds the
    # secret cards around him.
    "villager_villager_said_alike": (villager_villager_at_9(3), villager_villager_at_9(7)),
    # With deal: app the Confessor sees the card on the screen, the table's eyes closed: whose card it is
    # shows nowhere else.
    "confessor_sees_a_werewolf_or_a_villager": (
        confessed(CONFESSOR_DECK),
        confessed(("werewolf", "villager", "werewolf", "villager", "villager", "villager", "villager", "villager"))),
    # Enters typed ahead while the deal's lines are said (the player before pressing four times): dropped as
    # each screen asks, they show no card to nobody, whichever cards the seats hold.
    "deal_typed_ahead": (replace(named(SEER_AT_3), typed_ahead=["enter"] * 4),
                         replace(named(SEER_AT_7), typed_ahead=["enter"] * 4)),
    # A game stopped at the pack's call of night 2 and resumed from its journal, with a Witch who has her
    # potions or none: the table closes its eyes again, and every call after sounds alike.
    "resumed_mid_night": (
        replace(named(SEER_AT_3, 2, werewolves_1=7, witch_1={"heal": True, "poison": 3}),
                resume_at=("werewolves", 2)),
        replace(named(SEER_AT_3, 2, werewolves_1=3), resume_at=("werewolves", 2))),
}
"""Pairs under a mistake test_twins_terminal cannot make (it types a whole game at once): played at the keypad only."""


def test_the_named_pairs_are_dealt_as_they_say() -> None:
    """The app's deal from each seed is the one the pairs are built on (a changed shuffle says so here)."""
    config = table_config()
    for seed, roles in SEEDS.items():
        assert Twin(config, seed=seed).cards().roles == roles, seed


# -- every character with a night call ----------------------------------------------------------------

@dataclass(frozen=True)
class Character:
    """How a character's twins are built: ``holders`` copies of ``card`` sit at seats 3, 4, 6 in one twin
    (eliminated: voted out on the Angel's opening day, devoured on night 1, voted out on day 1) and at seats
    7, 8, 9 in the other (alive), villagers sitting where they do not; its call is compared on night
    ``night``, where it is live in one twin only and answered ``answer`` (None: harmlessly)."""

    card: str
    answer: Answer = None
    holders: int = 1
    night: int = 1
    centre: tuple[str, ...] = ()
    actor_cards: tuple[str, ...] = ()
    rules: Mapping[str, Any] = field(default_factory=dict)


CHARACTERS: dict[str, Character] = {
    "thief": Character("thief", None, centre=("villager", "villager")),
    "actor": Character("actor", None, actor_cards=("seer", "guard", "fox")),
    "cupid": Character("cupid", [8, 9]),  # and its lovers' call
    "seer": Character("seer", 2),
    "stuttering_judge": Character("stuttering_judge"),
    "sisters": Character("sister", holders=2, night=2, rules={"sisters_wake": True}),
    "brothers": Character("brother", holders=3, night=2, rules={"sisters_wake": True}),
    "wild_child": Character("wild_child", 8),
    "wolf_hound": Character("wolf_hound", "village"),
    "bear_tamer": Character("bear_tamer"),  # at seat 7 between villagers: his bear is silent either way
    "raven": Character("raven", None),  # his mark would be public at dawn: he passes
    "pyromaniac": Character("pyromaniac", None),  # so would his fire
    "guard": Character("guard", 8),
    "werewolves": Character("werewolf", None),  # one of the pack voted out, or a villager
    "white_werewolf": Character("white_werewolf", None, night=2),
    "infected_father": Character("infected_father", False),
    "big_bad_wolf": Character("big_bad_wolf", None),
    "witch": Character("witch", {"heal": False, "poison": None}),
    "gypsy": Character("gypsy", None),  # her séance would be public the next day: she passes
    "fox": Character("fox", 1),
    "piper": Character("piper", [8, 9]),  # and his charmed's call
}
"""Each night call, with how its character's twins are built."""

COVERED = {
    "lovers": "cupid",  # no Cupid, no lovers: his twins make both calls
    "charmed": "piper",
    "baker": None,  # a building: its token is dealt aloud, so whether its holder lives is public, no secret
}
"""Night calls compared in another's twins, or with no secret to keep (None)."""

VICTIMS = {0: ("vote", 0), 1: ("werewolves", 1), 2: ("vote", 1)}
"""How the holders at seats 3, 4 and 6 are eliminated before the compared night, in both twins."""


def character_twins(call: str) -> tuple[Twin, Twin]:
    """Returns the twins of the character making ``call``: eliminated (or absent) vs alive at that call."""
    c = CHARACTERS[call]
    base = ["angel", "werewolf", "villager", "villager", "werewolf", "villager", "villager", "villager", "villager"]
    gone, alive = list(base), list(base)
    for n, (v, w) in enumerate(zip((3, 4, 6), (7, 8, 9))):
        if n < c.holders:
            gone[v - 1] = alive[w - 1] = c.card
    deck = tuple(gone) + c.centre
    rules = Rules(**{"sheriff": False, "reveal_roles": False, **c.rules})
    config = TableConfig("en", Table(9, deck, rules, actor_cards=c.actor_cards), speaker="console", pause=(0, 0))
    answers: dict[Any, Answer] = {} if c.answer is None else {call: c.answer}  # else a pass (or "no")
    for n in range(c.holders):
        answers[VICTIMS[n]] = (3, 4, 6)[n]
    horizon = ("vote", c.night)
    return (Twin(config, Deal(tuple(gone), c.centre), answers=answers, horizon=horizon),
            Twin(config, Deal(tuple(alive), c.centre), answers=answers, horizon=horizon))


def test_every_night_call_has_its_twins() -> None:
    """A character whose night call has no twins (a new one) fails here until it gets them."""
    calls = {entry.call for profile in PROFILES.values() for entry in profile}
    missing = sorted(calls - set(CHARACTERS) - set(COVERED))
    assert not missing, f"night calls without twins: {missing} (add them to CHARACTERS in tests/test_twins.py)"


@pytest.mark.parametrize("call", sorted(CHARACTERS))
def test_each_character_twins_differ_in_its_call_only(call: str) -> None:
    """The pair is what it claims: the call is made once in both twins, for the dead in one and live in the
    other (the werewolves': for a pack one smaller)."""
    gone, alive = (plan(twin).game for twin in character_twins(call))
    night = CHARACTERS[call].night
    made = [[(c.live, len(c.actors)) for c in g.calls if c.id == call and c.number == night] for g in (gone, alive)]
    holders = CHARACTERS[call].holders
    assert made == ([[(True, 2)], [(True, 3)]] if call == "werewolves" else [[(False, 0)], [(True, holders)]]), made


DRAW_SEED = 7
"""The seed of the morning draw's pile in both twins of a pair (the cards' deal is each twin's own)."""


def drawing(twin: Twin, *cards: str, order: str = "shuffled") -> Twin:
    """Returns ``twin`` at a table whose narrator turns the event ``cards`` each morning (the morning draw), its
    pile shuffled by DRAW_SEED (or in the ``order`` listed): the same in both twins, whatever their cards."""
    table = twin.config.table
    table = replace(table, rules=replace(table.rules, events=cards, events_order=order))
    return replace(twin, config=replace(twin.config, table=table),
                   deal=replace(twin.cards(), events=deal_events(table, DRAW_SEED)))


DRAW_CARDS = ("seance_1", "sunshine", "black_monday", "seance_4")

DRAWN: dict[str, tuple[Twin, Twin]] = {
    # The card's reader is the last of the dawn's victims told, in seat order: the devoured and the poisoned in
    # swapped seats (3 and 7) are read for by seat 7 alike, and the séance's medium and spirit are the same.
    "draw_reader_whichever_death_was_the_poison": tuple(  # type: ignore[assignment]
        drawing(named(SEER_AT_3, werewolves_1=v, witch_1={"heal": False, "poison": p}), *DRAW_CARDS)
        for v, p in ((3, 7), (7, 3))),
    # A living or dead Seer (seat 3 voted out on the opening day held her card or a villager's): the same cards turned
    # from the same pile, read by the same players, for two nights.
    "draw_seer_living_or_dead": tuple(  # type: ignore[assignment]
        drawing(named(seed, 2, **SEAT_3_VOTED_OUT), "seance_2", "sunshine", "black_monday", order="listed")
        for seed in (SEER_AT_3, SEER_AT_7)),
    # A Witch with and without potions, Sunshine turned on the first morning: the Cult from night 2 sounds alike.
    "draw_witch_with_or_without_potions": (
        drawing(named(SEER_AT_3, 2, werewolves_1=7, witch_1={"heal": True, "poison": 3}), "sunshine", "seance_3",
                order="listed"),
        drawing(named(SEER_AT_3, 2, werewolves_1=3), "sunshine", "seance_3", order="listed")),
}
"""The morning draw's twins: every line it says is public, and neither the card, its reader nor the séance may
depend on a secret."""

PAIRS: dict[str, tuple[Twin, Twin]] = {**NAMED, **KEYPAD_ONLY, **DRAWN, **{f"{call}_alive_or_eliminated": character_twins(call)
                                                  for call in CHARACTERS}}

_played: dict[tuple[str, str], tuple[Played, Played]] = {}


def played(pair: str, language: str = "en") -> tuple[Played, Played]:
    """Plays a pair's twins once per test run (both tests of a pair read them)."""
    if (pair, language) not in _played:
        one, other = PAIRS[pair]
        _played[pair, language] = (play_twin(one, language), play_twin(other, language))
    return _played[pair, language]


def test_the_draws_twins_turn_cards_and_name_readers() -> None:
    """The morning draw's pairs are what they claim: a card turned each morning of their course, read by a player."""
    for pair in DRAWN.values():
        for twin in pair:
            game = plan(twin).game
            turned = [f for c in game.calls if c.id == "event" for f in c.facts if f.key == "event.drawn"]
            assert turned and all("reader" in f.values for f in turned), turned


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_twin_games_say_the_same_lines_in_the_same_order(pair: str) -> None:
    """Every line said aloud, in order, is the same in both twins."""
    one, other = played(pair)
    difference = voice_difference(one, other)
    assert not difference, difference


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_twin_games_render_the_same_lines_ahead_in_the_same_order(pair: str) -> None:
    """The lines rendered first (a line not ready is said in another voice) are the same, in the same
    order and at the same moment, in both twins."""
    one, other = played(pair)
    assert len(one.ahead) > 5 and all(texts for _, texts in one.ahead)  # asked at every call
    at = first_difference(one.ahead, other.ahead)
    assert at is None, f"rendered ahead differently after line {one.ahead[min(at, len(one.ahead) - 1)][0]}"


def waited(game: Played, budget: int) -> list[int]:
    """Returns which lines (by their place in the game) would wait for their render with a voice that renders
    ``budget`` lines while one is said: a model of RenderedSpeaker's queue (the latest `prepare` first) and of
    KokoroSpeaker's wait (a line due and not ready is rendered then)."""
    spoken = load_voice("en").spoken
    queued: list[list[str]] = []
    ready: set[str] = set()
    prepares = list(game.ahead)
    found = []
    for place, (_, text) in enumerate(game.voice):
        while prepares and prepares[0][0] <= place:  # asked before this line was said
            queued.append(list(prepares.pop(0)[1]))
        if spoken(text) not in ready:
            found.append(place)
            ready.add(spoken(text))
        rendered = 0
        while rendered < budget and queued:
            if not queued[-1]:
                queued.pop()
                continue
            line = queued[-1].pop(0)
            if line not in ready:
                ready.add(line)
                rendered += 1
    return found


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_a_line_that_waits_for_its_render_waits_alike_in_both_twins(pair: str) -> None:
    """Issue 35: a line not ready waits for Kokoro rather than going to espeak-ng. Which lines wait (for a voice
    slower or faster than the game) depends on public knowledge only: at night only fixed calls are said."""
    one, other = played(pair)
    for budget in (0, 1, 3):
        assert waited(one, budget) == waited(other, budget), budget
    assert waited(one, 1) and waited(one, 3) != waited(one, 0)  # lines do wait, and fewer with a faster voice


def test_the_harness_tells_apart_twins_whose_lines_wait_by_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    """A narrator that rendered the next calls ahead only when the Seer sits at seat 3 would make the other twin's
    lines wait: the test above can fail."""
    ahead = TableNarrator.render_ahead

    def by_the_seers_seat(narrator: TableNarrator, call: Any) -> None:
        if narrator.game is not None and narrator.game.holders("seer") == (3,):
            ahead(narrator, call)

    monkeypatch.setattr(TableNarrator, "render_ahead", by_the_seers_seat)
    one, other = NAMED["seer_living_or_dead"]
    assert waited(play_twin(one), 3) != waited(play_twin(other), 3)


def test_at_each_call_its_own_lines_are_rendered_first_then_the_next_calls() -> None:
    one, _ = played("seer_living_or_dead")
    keys = [key for key, _ in one.voice]
    for call, after in (("seer", "werewolves"), ("werewolves", "witch")):
        at = keys.index(f"{call}.wake")
        texts = next(texts for said, texts in one.ahead if said == at)
        spoken = load_voice("en").spoken
        assert texts[0] == spoken(one.voice[at][1])
        assert texts.index(spoken(one.voice[keys.index(f"{after}.wake")][1])) < 6


def test_the_harness_tells_apart_twins_that_render_ahead_by_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    """A narrator that rendered the Seer's seat's lines first would be told apart: the test above can fail."""
    def by_the_seers_seat(narrator: TableNarrator, call: Any) -> None:
        if narrator.game is not None:
            narrator.speaker.prepare([f"Seat {seat}" for seat in narrator.game.holders("seer")])

    monkeypatch.setattr(TableNarrator, "render_ahead", by_the_seers_seat)
    one, other = NAMED["seer_living_or_dead"]
    assert first_difference(play_twin(one).ahead, play_twin(other).ahead) is not None


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_twin_games_show_the_same_screen_while_nobody_holds_the_secret(pair: str) -> None:
    """While every eye is closed (and by day), the screen is the same in both twins."""
    one, other = played(pair)
    differences = screen_differences(one, other)
    assert not differences, "\n".join(differences)


EMPTY_CALLS = ["seer_living_or_dead", "witch_with_or_without_potions",
               *(f"{call}_alive_or_eliminated" for call in CHARACTERS)]
"""The pairs where a character's call is live in one twin and made for nobody in the other (a dead Fortune Teller, a
Witch who spent both potions, each character eliminated)."""


@pytest.mark.parametrize("pair", EMPTY_CALLS)
def test_a_call_made_for_nobody_shows_the_panel_of_a_call_awaiting_its_answer(pair: str) -> None:
    """A glance at the screen during a night call tells nothing: made for nobody, it shows what a living call
    waiting for its answer shows — a question, the keys line, nothing typed — and waits for keys as it does. It
    showed no question and no keys, and read none (the host menu's key did nothing). The same question, but the
    Witch's, whose living call asks her heal or her poison as her potions and the night are."""
    one, other = played(pair)
    assert not voice_difference(one, other)
    questions = "witch" not in pair
    shown, other_shown = panels(one, questions), panels(other, questions)
    at = first_difference(shown, other_shown)
    assert at is None, f"the panels part at the call woken by {shown[min(at, len(shown) - 1)][0]}:\n" \
                       f"  {shown[at:at + 1]}\n  {other_shown[at:at + 1]}"
    assert shown and all(view is None or view[3] and view[-1] for _, view in shown)  # a question, its keys


@pytest.mark.parametrize("pair", sorted(NAMED))
def test_the_seating_circle_and_the_eyes_banner_are_among_the_screens_twins_show_alike(pair: str) -> None:
    """Every screen compared while nobody holds the secret carries the whole circle and the banner,
    some of them with every eye closed: a circle that showed a secret there would part the twins."""
    one, other = played(pair)
    compared = comparable(one, other)
    views = [view for said in compared for view in stretches(one)[said][1]]
    assert views and all(len(view[SEATS]) == 9 and view[EYES] for view in views)
    assert any(stretches(one)[said][0] == CLOSED for said in compared)


def test_a_circle_that_showed_the_living_players_cards_would_part_the_twins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness catches a leaking circle: shown the cards of the living, the Seer's twins (seat 3 or seat 7)
    differ while every eye is closed."""
    import narrator.table_narrator
    from narrator.circle import SeatView

    def leaking(voice: Any, seats: int, names: Any = (), game: Any = None) -> list[SeatView]:
        return [SeatView(n, None, True, game.card(n) if game else None) for n in range(1, seats + 1)]

    monkeypatch.setattr(narrator.table_narrator, "seating", leaking)
    one, other = (play_twin(twin) for twin in NAMED["seer_living_or_dead"])
    assert screen_differences(one, other)


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_twin_games_steer_the_night_ambience_alike(pair: str) -> None:
    """The ambience starts, ducks, comes back and stops after the same lines in both twins; it starts
    with a line that closes the table's eyes (nightfall) and stops with one that opens them (the dawn)."""
    one, other = played(pair)
    assert one.ambience == other.ambience
    events = [event for event, _ in one.ambience]
    assert events.count("duck") == events.count("unduck") == len(one.voice)
    starts = [one.voice[said][0] for event, said in one.ambience if event == "start"]
    stops = [one.voice[said][0] for event, said in one.ambience if event == "stop"]
    assert starts and set(starts) <= CLOSE_EYES
    assert stops and set(stops) <= OPEN_EYES


@pytest.mark.parametrize("language", ["fr", "zh"])
@pytest.mark.parametrize("pair", sorted({**NAMED, **DRAWN}))
def test_the_named_twins_sound_alike_in_every_language(pair: str, language: str) -> None:
    """The named pairs and the morning draw's in French and Chinese too (their refusals, read-backs and cards have
    their own words)."""
    one, other = played(pair, language)
    difference = voice_difference(one, other)
    assert not difference, difference
    differences = screen_differences(one, other)
    assert not differences, "\n".join(differences)


def test_the_host_menu_at_night_is_the_same_whoever_lives_and_leaves_out_the_take_back() -> None:
    """At night the menu shows only what can act (the take-back never applies there, and said so
    only as the day's), the same screens in both twins whether the Seer before the pack lived or not; 1 there
    is a key that does nothing (its hint)."""
    voice = load_voice("en")
    one, other = played("host_menu_at_night")
    assert not voice_difference(one, other)
    menus = [[m.view for m in played_.moments if m.view and m.view[3] == voice.text("menu.title_night", {})]
             for played_ in (one, other)]
    assert menus[0] and menus[0] == menus[1]
    assert all(view[-1] == voice.text("screen.keys_menu_night", {}) for view in menus[0])
    assert "1 take back" not in voice.text("menu.title_night", {}) and "1 take back" in voice.text("menu.title", {})
    flashes = [m.view[13] for m in one.moments if m.view]
    assert voice.text("screen.wrong_key", {}) in flashes


def test_a_twin_resumed_mid_night_says_the_game_goes_on_and_closes_the_eyes_again() -> None:
    """The resumed pair does resume: at the pack's call of night 2, "the game goes on", eyes closed, the pack woken."""
    one, other = played("resumed_mid_night")
    keys = [key for key, _ in one.voice]
    resumed = keys.index("notice.resumed")
    assert keys[resumed:resumed + 3] == ["notice.resumed", "notice.close_eyes", "werewolves.wake"]
    assert not voice_difference(one, other)


def test_a_calls_secrets_are_gone_as_its_sleep_line_starts() -> None:
    """The Seer's look, the Witch's victim and the pack's victim leave the screen as the sleep line begins,
    not once it is said (on a slow Pi, seconds later, while those awake are already closing their eyes)."""
    one = played("which_death_was_the_poison")[0]
    sleeps = [m for m in one.moments if m.kind == "said" and one.voice[m.said][0].endswith(".sleep")]
    assert {one.voice[m.said][0] for m in sleeps} >= {"seer.sleep", "witch.sleep", "werewolves.sleep"}
    assert all(m.view[2] == () and m.view[3] == "" for m in sleeps), [m.view for m in sleeps if m.view[2]]


def test_a_slip_at_the_servants_question_is_refused_unheard_and_names_no_card() -> None:
    """The host types seat 4 (the Seer's) where the Servant shows her card: refused on the screen, in words
    naming neither seat nor card; said aloud, "seat four does not hold the Devoted Servant card" told a fact about a
    card nobody showed. Twins whose seat 4 holds the Seer or a villager say and show the same."""
    deck = ("devoted_servant", "werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager",
            "villager")
    config = TableConfig("en", Table(9, deck, Rules(sheriff=False, reveal_roles=False)), pause=(0.0, 0.0))
    swapped = ("devoted_servant", "werewolf", "werewolf", "villager", "villager", "villager", "villager", "seer",
               "villager")

    def twin(roles: tuple[str, ...]) -> Twin:
        return Twin(config, deal=Deal(roles, ()), answers={("werewolves", 1): 5, ("werewolves", 2): 7, "vote": 6,
                                                             ("seer", 1): 2, ("seer", 2): 3, "devoted_servant": None},
                    typed={"devoted_servant": ["4", "enter"]}, horizon=("vote", 2))

    one, other = play_twin(twin(deck)), play_twin(twin(swapped))
    assert not [key for key, _ in one.voice if key.startswith("refusal.")]
    refusal = load_voice("en").text("refusal.not_servant", {})
    assert any(m.view[REFUSAL] == refusal for m in one.moments if m.view)
    assert not voice_difference(one, other)
    differences = screen_differences(one, other)
    assert not differences, "\n".join(differences)


def test_the_witch_who_tries_her_spent_poison_is_refused_on_the_screen_while_she_alone_is_awake() -> None:
    """The pair witch_refused_or_spent is what it says: on night 2 one Witch holds her heal alone, the other both
    potions; the first types a seat at her heal's question and is told, on the screen alone and while she is awake,
    that her poison is spent; the refusal is gone before her sleep line, and neither twin says it."""
    spent, holds = PAIRS["witch_refused_or_spent"]
    shown = [[dict(f.values)["potions"] for c in plan(twin).game.calls if c.id == "witch" and c.number == 2
              for f in c.facts if f.key == "victim_shown"] for twin in (spent, holds)]
    assert shown == [[["heal"]], [["heal", "poison"]]]
    one, other = played("witch_refused_or_spent")
    refusal = load_voice("en").text("refusal.poison_spent", {})
    refused = [m for m in one.moments if m.view and m.view[REFUSAL] == refusal]
    assert refused and all(m.eyes == AWAKE for m in refused)
    assert not [m for m in other.moments if m.view and m.view[REFUSAL]]
    assert not [key for key, _ in one.voice + other.voice if key.startswith("refusal.")]
    sleep = next(m for m in one.moments if m.kind == "said" and m.said > refused[-1].said - 1
                 and one.voice[m.said][0] == "witch.sleep")
    assert sleep.view[REFUSAL] == ""


def test_the_spent_poisons_refusal_said_aloud_would_part_the_twins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness hears a refusal said at night: the pair above can fail."""
    from narrator.asking import KeypadAnswers

    def aloud(self: KeypadAnswers, key: str, **values: object) -> None:
        self.say(key, values)
        self.screen.refusal(self.text(key, **values))

    monkeypatch.setattr(KeypadAnswers, "refuse", aloud)
    one, other = (play_twin(twin) for twin in PAIRS["witch_refused_or_spent"])
    assert "refusal.poison_spent" in voice_difference(one, other)


def test_a_keypad_that_kept_the_stray_keys_would_part_the_twins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kept, the "5" pressed during the Seer's floor (or her empty call) begins the werewolves' answer: the games leave
    their course (the keys run out elsewhere, a refusal is said)."""
    from keystrokes import ScriptedKeys

    monkeypatch.setattr(ScriptedKeys, "drain", lambda self: None)
    one, other = NAMED["stray_keys_living_or_dead"]
    with pytest.raises(AssertionError):
        play_twin(one)
    with pytest.raises(AssertionError):
        play_twin(other)


# -- the harness itself -----------------------------------------------------------------------------

def test_the_harness_hears_twins_whose_public_course_differs() -> None:
    """A pair that is not twins (the eliminated card revealed) is told apart: the harness can fail."""
    one, other = NAMED["seer_living_or_dead"]
    revealed = [replace(t, config=replace(t.config, table=replace(t.config.table, rules=replace(
        t.config.table.rules, reveal_roles=True)))) for t in (one, other)]
    difference = voice_difference(play_twin(revealed[0]), play_twin(revealed[1]))
    assert "the voices part" in difference and "death.vote" in difference


def test_the_harness_sees_a_screen_that_differs_while_every_eye_is_closed() -> None:
    """A secret left on the screen once eyes are closed is told apart; one seen by the awake is not."""
    voice = [("nightfall.call", "Night falls."), ("seer.wake", "Seer, wake up."), ("seer.sleep", "Seer, sleep.")]

    def game(secret: str, left: str) -> Played:
        moments = [Moment(1, CLOSED, 0, ("night",)), Moment(2, "awake", 0, ("night", secret)),
                   Moment(3, CLOSED, 0, ("night", left))]
        return Played(voice, moments, [], [])

    assert not screen_differences(game("seat 2: werewolf", ""), game("seat 2: villager", ""))
    assert screen_differences(game("seat 2: werewolf", "seat 2: werewolf"), game("seat 2: villager", ""))


# -- the voice log ----------------------------------------------------------------------------------



def starter(tmp_path: Path) -> TableConfig:
    path = tmp_path / "table.yaml"
    path.write_text(STARTER_TABLE.format(language="en"), encoding="utf-8")
    return load_config(str(path))[0]


def logged(log: io.StringIO | str) -> list[dict[str, object]]:
    text = log.getvalue() if isinstance(log, io.StringIO) else log
    return [json.loads(line) for line in text.splitlines()]


def test_the_voice_log_holds_every_line_said_aloud_as_it_is_heard(tmp_path: Path) -> None:
    """`play --voice-log`: one JSON line {key, text, at, heard, voice} for every line the loudspeaker says, in order,
    and no other; ``at`` the time it was asked for (epoch seconds, a float), so that a game's pacing can be checked
    afterwards; a speaker that cannot tell who said it (this Recorder) is named, and heard when asked."""
    import time

    config = starter(tmp_path)
    keys, _ = plan_keys(config, 5)
    log, speaker = io.StringIO(), Recorder()
    began = time.time()
    play_keys(config, keys, seed=5, start=NewGame(folder=tmp_path), speaker=speaker, voice_log=log)
    ended = time.time()
    entries = logged(log)
    spoken = load_voice("en").spoken
    assert [spoken(e["text"]) for e in entries] == speaker.said
    assert entries[0]["key"] == "deal.app_intro" and entries[-1]["key"].startswith("end.")
    assert all(set(e) == {"key", "text", "at", "heard", "voice"} and isinstance(e["at"], float) for e in entries)
    assert all(e["voice"] == "recorder" and e["heard"] == e["at"] for e in entries)
    times = [float(e["at"]) for e in entries]
    assert began <= times[0] and times == sorted(times) and times[-1] <= ended


TICK = Sound(b"\x00\x10" * 2400, 24000, 1, 2)  # a tenth of a second of sound


class FixedEngine(EngineThread):
    """An engine that renders every line as a tick, at once."""

    def __init__(self) -> None:
        super().__init__("fixed")

    def _render(self, text: str, voice: str, rate: int) -> Sound:
        return TICK


class RefusingEngine(EngineThread):
    """An engine that renders nothing: every line not in the cache is the fallback's."""

    engine_version = "refusing 1"

    def __init__(self) -> None:
        super().__init__("refusing")

    def _render(self, text: str, voice: str, rate: int) -> Sound:
        raise RuntimeError("not rendered in time")


def test_the_voice_log_names_the_voice_that_said_each_line_and_a_fallback(tmp_path: Path) -> None:
    """The voice log's ``voice``: the engine and voice that said the line (the first, rendered: Kokoro's af_heart),
    and the fallback's for each line not rendered when it was due (espeak-ng's); ``heard``, when it began to play,
    is never before it was asked for (``at``) nor after the next line was."""
    config = starter(tmp_path)
    keys, _ = plan_keys(config, 5)
    played: list[Sound] = []
    speaker = RenderedSpeaker(warn=lambda message: None, cache=VoiceCache(tmp_path / "lines"), sink=played.append)
    speaker._renderer, speaker.name, speaker.engine_label, speaker.voice_id = RefusingEngine(), "kokoro", "Kokoro", \
        "af_heart"
    fallback = RenderedSpeaker(cache=False, sink=played.append)
    fallback._renderer, fallback.engine_label, fallback.voice_id = FixedEngine(), "espeak-ng", "gmw/en-us"
    speaker.fallback = fallback
    first = load_voice("en").spoken(load_voice("en").text("deal.app_intro", {}))
    assert speaker.cache is not None
    for piece in speaker.pieces(first):
        speaker.cache.put(speaker.key(piece), TICK)
    log = io.StringIO()
    play_keys(config, keys, seed=5, start=NewGame(folder=tmp_path), speaker=speaker, voice_log=log)
    entries = logged(log)
    assert entries[0]["key"] == "deal.app_intro" and entries[0]["voice"] == "kokoro:af_heart"
    assert {e["voice"] for e in entries[1:]} == {"espeak-ng:gmw/en-us"}
    assert len(played) == len(entries)
    heard = [float(e["heard"]) for e in entries]
    assert all(float(e["at"]) <= float(e["heard"]) for e in entries)
    assert all(heard[i] <= float(entries[i + 1]["at"]) for i in range(len(entries) - 1))


def test_a_resumed_game_logs_what_it_says_not_its_silent_replay(tmp_path: Path) -> None:
    """`resume --voice-log`: the journaled part, replayed silently, is not in the log; what is said is."""
    config = starter(tmp_path)
    keys, _ = plan_keys(config, 5)
    with pytest.raises(EOFError):
        play_keys(config, keys[:60], seed=5, start=NewGame(folder=tmp_path))
    journal = next(tmp_path.glob("*.jsonl"))
    header, entries = read_journal(str(journal))
    log, speaker = io.StringIO(), Recorder()
    with pytest.raises(EOFError):  # a few keys more: the game goes on, then waits
        play_keys(config, keys[60:70], seed=5,
                  start=Resumed(Journal(journal), Deal(tuple(header["deal"]), tuple(header["centre"])), entries,
                                str(journal)),
                  speaker=speaker, voice_log=log)
    said = logged(log)
    assert said and [load_voice("en").spoken(e["text"]) for e in said] == speaker.said
    assert "notice.resumed" in [e["key"] for e in said]
    assert not any(e["key"].startswith("deal.") for e in said)  # the deal was replayed, not said again


def test_a_voice_log_that_cannot_be_written_is_refused_before_the_game(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A voice log in a missing folder: a clear error, before any terminal is touched, no traceback."""
    path = tmp_path / "no" / "such" / "voice.jsonl"
    assert main(["play", "--voice-log", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}: cannot write the voice log" in err and "Traceback" not in err


def test_a_dry_run_journal_is_not_resumed_with_a_voice_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`resume --voice-log` on a dry run's journal: a usage error that says why."""
    journal = tmp_path / "dry.jsonl"
    header = {"werewolf-narrator": 1, "kind": "dry-run", "script": "x.yaml", "sha256": "0"}
    journal.write_text(json.dumps(header) + "\n", encoding="utf-8")
    assert main(["resume", str(journal), "--voice-log", str(tmp_path / "v.jsonl")]) == 2
    assert "--voice-log is for a game at the table" in capsys.readouterr().err


def test_the_villager_villager_twins_say_his_seat_aloud_before_the_opening_vote() -> None:
    """His line is said in both twins (else the pair would prove nothing), before the opening day's vote."""
    for one in played("villager_villager_said_alike"):
        keys = [key for key, _ in one.voice]
        assert "villager_villager.seat" in keys and keys.index("villager_villager.seat") < keys.index("vote.call")
