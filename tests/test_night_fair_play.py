"""Fair play at night: only the calls are said aloud; an answer is checked before it is read back;
no raw placeholder is ever said or shown; eyes are closed before a night call outside the normal flow."""

from __future__ import annotations

import ast
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest

from engine import Call, Deal, Game, IllegalAnswer, Phase, Rules, Table
from helpers import Hears, Printed, drive, new_game, play_keys, reach, refused
from keystrokes import Recorder, ScriptedKeys, after, keys_for, legal_in, plan_keys
from narrator.asking import KEYPAD
from narrator.config import TableConfig, config_from_journal
from narrator.hearing import PushbackKeys, VoiceAnswers
from narrator.journal import Journal, read_journal
from narrator.listen.understand import load_vocabulary
from narrator.narration import SCREEN, VOICE, Line, Narrator, run
from narrator.play import STARTER, NewGame, Resumed
from narrator.table_narrator import TableNarrator
from narrator.screen import PlainScreen
from narrator.voices import UnfilledLine, load_voice, placeholders

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "fr", "zh")
VILLAGERS = ["villager"] * 6
EIGHT = ["werewolf", "villager", "villager", "villager", "villager", "villager", "werewolf", "villager"]


# -- no raw placeholder --------------------------------------------------------------------------

def test_a_line_with_a_value_missing_is_refused_never_said_with_a_raw_placeholder() -> None:
    """The narration layer refuses to produce "There is no seat {number}": a clear error, naming the line."""
    voice = load_voice("en")
    with pytest.raises(UnfilledLine) as error:
        voice.text("refusal.eliminated", {"number": 5})
    assert "refusal.eliminated" in str(error.value) and "'seat'" in str(error.value)
    lines: list[Line] = []
    with pytest.raises(UnfilledLine):
        Narrator(voice, lines.append).line("refusal.count", VOICE)
    assert lines == []


def village(roles: list[str], buildings: dict[int, str]) -> Game:
    table = Table(len(roles), tuple(roles), Rules(sheriff=False), buildings=tuple(buildings.values()))
    return Game(table, Deal(tuple(roles), (), tuple(sorted(buildings.items()))))


def at(game: Game, call_id: str, *answers: tuple[str, Any]) -> Game:
    """Plays ``answers``, then reaches the call ``call_id``."""
    drive(game, *answers)
    reach(game, call_id)
    return game


SEANCE = {"card": 2, "question": 3, "asker": 5}
GYPSY = ["gypsy", "werewolf", "villager", "villager", "villager", "villager", "werewolf", "villager"]
ACTING = ["actor", "werewolf", "villager", "villager", "villager", "villager", "werewolf", "villager"]
SERVANT = ["devoted_servant", "werewolf", "seer", "villager", "villager", "villager", "villager", "villager"]
WITCH = ["werewolf", "witch", *VILLAGERS]
PIPER = ["werewolf", "piper", "villager", "villager", "villager", "villager", "villager"]
HARVEST = ["werewolf", "villager", "seer", "villager", "guard", "hunter", "werewolf", "villager"]


def over_game() -> Game:
    """A game the village has won: no call is running."""
    game = new_game(["werewolf", "villager", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 2), ("vote", 1))
    assert game.over
    return game

REFUSALS: dict[str, Callable[[], tuple[Game, object]]] = {
    # public knowledge
    "need_seat": lambda: (at(new_game(EIGHT, variants=("not_him",)), "chain_draw", ("werewolves", 3)), None),
    "shape": lambda: (at(new_game(["werewolf", "seer", *VILLAGERS]), "seer"), "x"),
    "no_such_seat": lambda: (at(new_game(["werewolf", "seer", *VILLAGERS]), "seer"), 99),
    "eliminated": lambda: (at(new_game(["werewolf", "seer", *VILLAGERS]), "seer", ("seer", 3),
                              ("werewolves", 4), ("vote", None)), 4),
    "not_among": lambda: (at(new_game(EIGHT), "revote", ("werewolves", 3), ("vote", {"tie": [4, 5]})), 6),
    "count": lambda: (at(new_game(["werewolf", "cupid", *VILLAGERS]), "cupid"), [3]),
    "twice": lambda: (at(new_game(["werewolf", "cupid", *VILLAGERS]), "cupid"), [3, 3]),
    "twice_in_a_tie": lambda: (at(new_game(EIGHT), "vote", ("werewolves", 3)), {"tie": [4, 4, 5]}),
    "twice_a_ballot": lambda: (at(new_game(EIGHT), "vote", ("werewolves", 3)), {"ballots": {"4": 5, 4: 6}}),
    "self": lambda: (at(village(EIGHT, {4: "schoolteacher"}), "schoolteacher", ("werewolves", 8)), [4]),
    "vagabond": lambda: (at(village(EIGHT, {3: "vagabond", 4: "barber"}), "barber", ("werewolves", 8)), 3),
    "not_spent": lambda: (at(village(EIGHT, {2: "confessor", 3: "bone_setter"}), "bone_setter",
                             ("werewolves", 8), ("confessor", 7)), 4),
    "not_a_voter": lambda: (at(village(EIGHT, {4: "schoolteacher"}), "vote", ("werewolves", 8),
                               ("schoolteacher", [2, 3])), {"ballots": {2: 7, 5: 7}}),
    "must_vote": lambda: (at(new_game(EIGHT, votes_may_be_skipped=False), "vote", ("werewolves", 3)), None),
    "no_voters": lambda: (at(new_game(["scapegoat", *EIGHT[1:]]), "scapegoat", ("werewolves", 3),
                             ("vote", {"tie": [4, 5]})), []),
    "card_gone": lambda: (at(new_game(ACTING, actor_cards=("seer", "hunter", "witch")), "actor", ("actor", 1),
                             ("seer", 3), ("werewolves", 4), ("vote", None)), 1),
    "not_servant": lambda: (at(new_game(SERVANT), "devoted_servant", ("seer", 2), ("werewolves", 4),
                               ("vote", 3)), 5),
    "servant_condemned": lambda: (at(new_game(SERVANT), "devoted_servant", ("seer", 2), ("werewolves", 4),
                                     ("vote", 1)), 1),
    "seance_used": lambda: (at(new_game(GYPSY), "gypsy", ("werewolves", 4), ("gypsy", SEANCE), ("vote", None),
                               ("werewolves", 5)), SEANCE),
    "no_such_question": lambda: (at(new_game(GYPSY), "gypsy", ("werewolves", 4)), {**SEANCE, "question": 10,
                                                                                    "card": 1}),
    "event_used": lambda: (at(new_game(EIGHT, sheriff=True, town_crier=True), "town_crier",
                              ("sheriff_election", 3), ("town_crier_appoint", 5), ("werewolves", 4),
                              ("town_crier", 12), ("vote", None), ("werewolves", 6)), 12),
    "over": lambda: (over_game(), 3),
    "idiot_ballot": lambda: (at(new_game(["werewolf", "idiot", *VILLAGERS[:5]]), "vote", ("werewolves", 3),
                                ("vote", 2), ("werewolves", 4)), {"ballots": {2: 5, 5: 6}}),
    "barkeeper": lambda: (at(village(EIGHT, {3: "barkeeper"}), "vote", ("werewolves", 4), ("barkeeper", None)), 3),
    "barkeeper_secret": lambda: (at(village(EIGHT, {3: "barkeeper"}), "werewolves"), 3),
    "barkeeper_voted": lambda: (at(village(EIGHT, {3: "barkeeper"}), "vote", ("werewolves", 4), ("barkeeper", 1)),
                                {"ballots": {3: 1, 5: 1}}),
    # secret
    "self_secret": lambda: (at(new_game(["werewolf", "seer", *VILLAGERS]), "seer"), 2),
    "self_piper": lambda: (at(new_game(PIPER), "piper", ("werewolves", 3)), [2, 4]),
    "self_wild_child": lambda: (at(new_game(["werewolf", "wild_child", *VILLAGERS[:5]]), "wild_child"), 2),
    "vagabond_secret": lambda: (at(village(["raven", *EIGHT[1:]], {3: "vagabond", 4: "barkeeper"}), "raven"), 3),
    "count_secret": lambda: (at(new_game(PIPER), "piper", ("werewolves", 3), ("piper", [1, 4]), ("vote", 4),
                                ("werewolves", 5), ("piper", [5, 6]), ("vote", None), ("werewolves", 6)), [7, 3]),
    "charmed": lambda: (at(new_game(PIPER), "piper", ("werewolves", 7), ("piper", [3, 4]), ("vote", None),
                           ("werewolves", 5)), [3, 6]),
    "heal_spent": lambda: (at(new_game(WITCH), "witch", ("werewolves", 3), ("witch", {"heal": True, "poison": None}),
                              ("vote", None), ("werewolves", 4)), {"heal": True, "poison": None}),
    "poison_spent": lambda: (at(new_game(WITCH), "witch", ("werewolves", 3),
                                ("witch", {"heal": False, "poison": 5}), ("vote", None), ("werewolves", 4)),
                             {"heal": False, "poison": 6}),
    "no_victim": lambda: (at(new_game(WITCH), "witch", ("werewolves", None)), {"heal": True, "poison": None}),
    "one_potion": lambda: (at(new_game(WITCH, witch_potions=1), "witch", ("werewolves", 3)),
                           {"heal": True, "poison": 6}),
    "must_take": lambda: (at(new_game(["thief", "werewolf", *VILLAGERS[:4]], ["werewolf", "werewolf"]), "thief"),
                          None),
    "harvest_guard": lambda: (at(new_game(HARVEST, variants=("harvest",)), "guard", ("seer", None)), 3),
    "harvest_neighbour": lambda: (at(new_game(HARVEST, variants=("harvest",)), "werewolves", ("seer", None),
                                     ("guard", None)), 4),
    "guarded_twice": lambda: (at(new_game(["guard", "werewolf", *VILLAGERS]), "guard", ("guard", 3),
                                 ("werewolves", 4), ("vote", None)), 3),
    "no_house": lambda: (at(village(["pyromaniac", *EIGHT[1:]], {3: "vagabond", 5: "noble"}), "pyromaniac"), 4),
    "werewolf_target": lambda: (at(new_game(["werewolf", "werewolf", *VILLAGERS]), "werewolves"), 2),
    "cannot_infect": lambda: (at(new_game(["infected_father", "elder", *VILLAGERS]), "infected_father",
                                 ("werewolves", 2)), True),
    "servant_lover": lambda: (at(new_game(["devoted_servant", "werewolf", "cupid", *VILLAGERS[:5]]),
                                 "devoted_servant", ("cupid", [1, 4]), ("werewolves", 5), ("vote", 6)), 1),
    "not_werewolf": lambda: (at(new_game(["white_werewolf", "werewolf", *VILLAGERS]), "white_werewolf",
                                ("werewolves", 3), ("vote", None), ("werewolves", 4)), 5),
    "white_werewolf_waits": lambda: (at(new_game(["white_werewolf", "werewolf", "devoted_servant", *VILLAGERS]),
                                        "white_werewolf", ("werewolves", 5), ("vote", 1), ("devoted_servant", 3),
                                        ("werewolves", 6)), 2),
    "same_victim": lambda: (at(new_game(["werewolf", "big_bad_wolf", *VILLAGERS]), "big_bad_wolf",
                               ("werewolves", 3)), 3),
}


def engine_refusal_keys() -> set[str]:
    """Every refusal key the engine can give: the ``key=`` of each IllegalAnswer raised in engine/."""
    keys: set[str] = set()
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAnswer":
                key = next((k.value for k in node.keywords if k.arg == "key"), None)
                assert key is not None, f"{path}:{node.lineno}: an IllegalAnswer without a key has no line"
                if isinstance(key, ast.Constant):
                    keys.add(str(key.value))
    return keys


def every_refusal() -> list[tuple[str, Call, IllegalAnswer]]:
    """Raises every refusal of the catalogue through a real game; returns its call and its IllegalAnswer."""
    found = []
    for name, make in REFUSALS.items():
        game, value = make()
        error = refused(game, value)
        found.append((name, game.call or game.calls[-1], error))  # the game over: its last call
    return found


def test_the_catalogue_raises_every_refusal_the_engine_can_give() -> None:
    """Each key of engine/ (found in its source) is raised by a real game here, so that each is rendered below."""
    raised = {error.key for _, _, error in every_refusal()}
    assert engine_refusal_keys() - raised == set()
    assert {error.secret for _, _, error in every_refusal()} == {True, False}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_is_rendered_with_its_values_in_every_language(language: str) -> None:
    """Every IllegalAnswer key the engine can produce has its own line, filled from the engine's values (no
    raw placeholder), on the screen when the reason is secret or the call is made at night."""
    voice = load_voice(language)
    for name, call, error in every_refusal():
        lines: list[Line] = []
        Narrator(voice, lines.append).refuse(call, error)
        assert [line.key for line in lines] == [error.key], name
        text = lines[0].text
        assert text.strip() and "{" not in text and "}" not in text, (name, text)
        dark = error.secret or call.phase is Phase.NIGHT
        assert lines[0].channel == (SCREEN if dark else VOICE), name


NARRATOR_LINES = ("line", "text", "say", "show", "show_awake", "_tell")
"""The calls that render a voice line from a key: line(key, channel, **values), text(key, values or
**values), say(key, values)..."""


def literal_renderings() -> list[tuple[str, str, set[str]]]:
    """Finds in narrator/ every rendering of a literal key whose values can be known (no ``**`` splat, a
    dict literal): (where, key, the value names given)."""
    found = []
    for path in sorted((ROOT / "narrator").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            first = node.args[0]
            keys = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]  # "a" if x else "b"
            if name not in NARRATOR_LINES or not all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                                     for k in keys):
                continue
            if any(k.arg is None for k in node.keywords):
                continue  # **values: known only at run time (the engine's facts, its refusals)
            given = {k.arg for k in node.keywords if k.arg is not None}
            values = node.args[-1] if len(node.args) >= 2 else None
            if isinstance(values, ast.Dict):
                if any(k is None or not isinstance(k, ast.Constant) for k in values.keys):
                    continue
                given |= {str(k.value) for k in values.keys if isinstance(k, ast.Constant)}
            elif values is not None and not (isinstance(values, ast.Name) and values.id in ("VOICE", "SCREEN")):
                continue  # values in a variable
            found += [(f"{path.relative_to(ROOT)}:{node.lineno}", str(k.value), given) for k in keys
                      if isinstance(k, ast.Constant)]
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_line_is_given_the_values_its_placeholders_name(language: str) -> None:
    """Static: wherever the code renders a line by its key with values known in the source, every
    placeholder of the line is among them (the fault "{number}" where the engine gives seat= is found
    before a game says it)."""
    voice = load_voice(language)
    # A role given fills {the_role} too (its name with the article, Voice.text).
    renderings = [(where, key, given | ({"the_role"} if "role" in given else set()))
                  for where, key, given in literal_renderings() if key in voice.lines]
    assert len(renderings) > 50  # the scan sees the narrator's lines
    missing = [(where, key, sorted(placeholders(voice.lines[key]) - given)) for where, key, given in renderings
               if not placeholders(voice.lines[key]) <= given]
    assert missing == []


# -- at night only the calls are said aloud --------------------------------------------------------

SEER_TABLE = ["werewolf", "seer", "villager", "villager", "villager", "villager"]
WITCH_TABLE = ["werewolf", "witch", "villager", "villager", "villager", "villager", "villager"]
NO_POTION = {"heal": False, "poison": None}


def config(roles: list[str], **rules: Any) -> TableConfig:
    return TableConfig("en", Table(len(roles), tuple(roles), Rules(sheriff=False, **rules)), pause=(0.0, 0.0))


def keys_for_game(conf: TableConfig, answers: list[tuple[str, Any]],
                  first: dict[tuple[str, int], list[str]] | None = None) -> list[str]:
    """The keys that give ``answers`` (call id, value) in order, the quiet calls confirmed, until the answers
    run out; ``first`` maps (call id, number) to keys typed before that call's answer (a refused one)."""
    game = Game(conf.table, Deal(conf.table.deck))
    pressed: list[str] = []
    left = list(answers)
    while left and game.call is not None:
        call = game.call
        value = None
        if call.needs_answer:
            call_id, value = left.pop(0)
            assert call_id == call.id, (call_id, call.id, call.number)
            pressed += (first or {}).get((call.id, call.number), [])
        pressed += keys_for(call, value) + after(game.answer(value))
    return pressed


@dataclass
class Heard:
    """What a game at the table said aloud, and everything its screen printed, in order."""

    said: list[str]
    screen: str
    journal: Path | None = None


def at_the_table(conf: TableConfig, keys: list[str], folder: Path) -> Heard:
    """Plays ``conf``'s game (its deck dealt in order) at the keypad until the keys run out."""
    speaker, out = Recorder(), io.StringIO()
    folder.mkdir(exist_ok=True)
    with pytest.raises(EOFError):
        play_keys(conf, keys, seed=1, start=NewGame(folder=folder, deal=Deal(conf.table.deck)), screen=Printed(out),
                  speaker=speaker)
    journals = list(folder.glob("*.jsonl"))
    return Heard(speaker.said, out.getvalue(), journals[0] if journals else None)


SEER_NIGHTS = [("seer", 3), ("werewolves", 4), ("vote", 5), ("seer", 3), ("werewolves", 6)]


def test_a_night_refusal_is_shown_not_said(tmp_path: Path) -> None:
    """docs/rules.md: a living Seer who types an eliminated seat at night is refused on the screen only; the
    loudspeaker says nothing a dead Seer's call would not."""
    table = config(SEER_TABLE)
    heard = at_the_table(table, keys_for_game(table, SEER_NIGHTS, {("seer", 2): ["4", "enter"]}), tmp_path)
    assert "Seat number four has been eliminated." not in heard.said
    assert "  [screen] Seat number four has been eliminated." in heard.screen.splitlines()
    night_two = heard.screen[heard.screen.rindex("Fortune Teller, wake up"):]
    assert "Seat number four?" not in night_two  # refused before it is read back
    assert "Seat number three?" in night_two  # then asked again


def test_a_night_refusal_and_a_legal_answer_sound_the_same(tmp_path: Path) -> None:
    """Twins: a Seer who first types an eliminated seat, and one who types a living one at once: every line
    said aloud is the same, in the same order."""
    table = config(SEER_TABLE)
    refused_first = at_the_table(table, keys_for_game(table, SEER_NIGHTS, {("seer", 2): ["4", "enter"]}),
                                 tmp_path / "refused")
    straight = at_the_table(table, keys_for_game(table, SEER_NIGHTS), tmp_path / "straight")
    assert refused_first.said == straight.said


def test_a_living_seer_refused_sounds_like_a_dead_seers_call(tmp_path: Path) -> None:
    """Twins: on night 2 a living Seer typing an eliminated seat, and a dead Seer's call, say the same lines
    from her wake to her sleep."""
    table = config(SEER_TABLE)
    living = at_the_table(table, keys_for_game(table, SEER_NIGHTS, {("seer", 2): ["4", "enter"]}),
                          tmp_path / "living")
    dead = at_the_table(table, keys_for_game(table, [("seer", 3), ("werewolves", 2), ("vote", 5),
                                                      ("werewolves", 6)]), tmp_path / "dead")

    def second_seer_call(said: list[str]) -> list[str]:
        wakes = [i for i, text in enumerate(said) if text.startswith("Fortune Teller, wake up")]
        start = wakes[1]
        return said[start: said.index("Fortune Teller, go back to sleep.", start) + 1]

    assert second_seer_call(living.said) == second_seer_call(dead.said) == [
        "Fortune Teller, wake up. Indicate a player whose identity you want to know.",
        "Fortune Teller, go back to sleep."]


def test_a_refused_seat_is_never_read_back(tmp_path: Path) -> None:
    """Seat 9 at a table of six, at night: "There is no seat number nine at this table." on the screen as the 9 is
    typed (issue 22: it was at Enter), "Seat number nine?" never said nor shown, and the seat typed again."""
    table = config(SEER_TABLE)
    heard = at_the_table(table, keys_for_game(table, SEER_NIGHTS[:2], {("seer", 1): ["9", "9", "enter"]}),
                         tmp_path)
    assert "nine?" not in heard.screen and not any("nine" in text for text in heard.said)
    assert heard.screen.splitlines().count("  [screen] There is no seat number nine at this table.") == 2


def test_a_refused_tie_is_never_read_back_and_by_day_its_reason_is_said(tmp_path: Path) -> None:
    """By day a public refusal is said aloud, but only after nothing was read back: "A tie between seat
    three, seat number three and seat number seven?" is never said; "The same player is named twice." is, as the
    second three is typed (the seats before it kept), and undo leaves the tie."""
    table = config(WITCH_TABLE)
    twice = ["tie", "3", "enter", "3", "enter", "undo"]
    dead = ["tie", "4", "enter", "7", "enter", "0", "enter"]
    heard = at_the_table(table, keys_for_game(table, [("werewolves", 4), ("witch", NO_POTION), ("vote", 5)],
                                              {("vote", 1): twice + dead}), tmp_path)
    assert not any(text.startswith("A tie between") for text in heard.said)
    assert "tie between" not in heard.screen
    assert "The same player is named twice." in heard.said
    assert "Seat number four has been eliminated." in heard.said  # the tie with a dead seat, refused aloud by day
    # asked again
    assert heard.said.index("Seat number four has been eliminated.") < heard.said.index("Seat number five?")


def test_a_witch_answer_is_checked_whole_before_its_read_back(tmp_path: Path) -> None:
    """A Witch who heals, then types the eliminated seat 3 to poison: her whole answer is refused on the screen before
    "poison seat number three?" is read back, and she answers again from the start (the heal asked again)."""
    table = config(WITCH_TABLE)
    heal_then_3 = ["1", "enter", "enter", "3", "enter"]
    heard = at_the_table(table, keys_for_game(table, [("werewolves", 3), ("witch", NO_POTION), ("vote", 5),
                                                      ("werewolves", 4), ("witch", NO_POTION)],
                                              {("witch", 2): heal_then_3}), tmp_path)
    assert "  [screen] Seat number three has been eliminated." in heard.screen.splitlines()
    assert "Poison seat number three?" not in heard.screen
    assert heard.screen.count("Use the healing potion on the victim?") == 3  # night 1, and twice on night 2
    assert "Seat number four has been eliminated. Their card: Simple Villager." in heard.said  # the heal never counted


def test_the_table_undo_at_night_is_shown_not_said(tmp_path: Path) -> None:
    """Undo of the first lover at night ("Undone. Answer again.") is on the screen only."""
    table = config(["werewolf", "cupid", *VILLAGERS[:5]])
    heard = at_the_table(table, keys_for_game(table, [("cupid", [3, 4]), ("werewolves", 5)],
                                              {("cupid", 1): ["3", "enter", "undo", "undo"]}), tmp_path)
    assert "Undone. Answer again." in heard.screen
    assert "Undone. Answer again." not in heard.said


def test_a_refusal_in_the_judges_eyes_closed_call_is_shown_not_said() -> None:
    """The Stuttering Judge's day call is made with every eye closed: treated as night."""
    game = at(new_game(["stuttering_judge", *EIGHT[1:]]), "stuttering_judge", ("werewolves", 3), ("vote", 4))
    call = game.call
    assert call is not None and call.phase is Phase.DAY
    lines: list[Line] = []
    Narrator(load_voice("en"), lines.append).refuse(call, refused(game, "maybe"))
    assert [line.channel for line in lines] == [SCREEN]


class Given:
    """Answers from a list, refused ones included (a practice run's loop sees them as the table's)."""

    def __init__(self, answers: list[Any]) -> None:
        self.answers = list(answers)

    def answer(self, call: Call, game: Game) -> Any:
        return self.answers.pop(0) if call.needs_answer else None

    def refused(self, call: Call, value: Any, error: IllegalAnswer) -> None:
        pass


def test_the_narration_loop_shows_night_refusals_and_says_day_ones() -> None:
    """The same Narrator serves dry runs: a refusal at night is a screen line, by day a voice line."""
    lines: list[Line] = []
    game = new_game(["werewolf", "seer", *VILLAGERS])
    with pytest.raises(IndexError):  # the answers run out on night 2
        run(game, Narrator(load_voice("en"), lines.append), Given([3, 4, 99, 5, 4, 3]))
    refusals = [(line.key, line.channel) for line in lines if line.key.startswith("refusal.")]
    assert refusals == [("refusal.no_such_seat", VOICE), ("refusal.eliminated", SCREEN)]


# -- eyes closed before a night call outside the normal flow ---------------------------------------

CLOSE = "Everyone, close your eyes."
OPEN = "Everyone, open your eyes."
WITCH_WAKES = "Witch, wake up. Here is the Werewolves' victim. Will you use your healing potion, or your poison potion?"
VICTIM = "  [screen] The Werewolves' victim: seat number three."


def test_the_host_menu_takes_back_no_night_answer_by_day(tmp_path: Path) -> None:
    """At the day's vote the host menu offers nothing to take back: the answer before the vote is the night's (the
    Witch's here; the pack's with her out), and "take back the Witch's answer?" would tell the table her call was
    live, then wake her again in front of everyone. Nothing is undone; she is not called again."""
    table = config(WITCH_TABLE)
    night = [("werewolves", 3), ("witch", NO_POTION)]
    keys = keys_for_game(table, night)
    keys += ["enter", "menu", "1"]  # the debate, then the host menu at the vote: take back
    heard = at_the_table(table, keys, tmp_path)
    assert "Undone. Answer again." not in heard.said and "Undone. Answer again." not in heard.screen
    assert heard.said.count(WITCH_WAKES) == 1 and CLOSE not in heard.said
    assert heard.said[-1] == "Three, two, one: point!"  # the vote still runs, its signal given once


def test_the_host_menu_takes_back_no_day_answer_at_night(tmp_path: Path) -> None:
    """At night 2 the host menu takes back nothing, not even the day's vote: at night it is never the host who
    holds the keypad, but those awake, and the vote called again would open every eye."""
    table = config(SEER_TABLE)
    keys = keys_for_game(table, SEER_NIGHTS[:3])
    keys += ["menu", "1"]  # at the Seer's night-2 call
    heard = at_the_table(table, keys, tmp_path)
    assert "Undone. Answer again." not in heard.said and "Undone. Answer again." not in heard.screen
    assert OPEN not in heard.said
    assert heard.said[-1].startswith("Fortune Teller, wake up")


def test_a_game_resumed_mid_night_closes_eyes_before_the_call(tmp_path: Path) -> None:
    """`resume` of a game stopped at the Witch's call: "The game goes on.", "everyone close your eyes", then
    the Witch's call and only then her victim on the screen."""
    table = config(WITCH_TABLE)
    stopped = at_the_table(table, keys_for_game(table, [("werewolves", 3)]), tmp_path / "game")
    assert stopped.journal is not None
    header, entries = read_journal(str(stopped.journal))
    speaker, out = Recorder(), io.StringIO()
    with pytest.raises(EOFError):
        play_keys(config_from_journal(header, "journal"), ["0", "enter", "enter"], seed=header["seed"],
                  start=Resumed(Journal(stopped.journal), Deal(tuple(header["deal"])), entries, str(stopped.journal)),
                  screen=Printed(out), speaker=speaker)
    assert speaker.said[:3] == ["The game goes on.", CLOSE, WITCH_WAKES]
    screen = out.getvalue().splitlines()
    assert screen.index(CLOSE) < screen.index(VICTIM)


def test_a_game_resumed_by_day_needs_no_eyes_notice(tmp_path: Path) -> None:
    """Resumed at the day's vote, the table's eyes are open already: the vote is called at once."""
    table = config(WITCH_TABLE)
    stopped = at_the_table(table, keys_for_game(table, [("werewolves", 3), ("witch", NO_POTION)]) + ["enter"],
                           tmp_path / "game")
    assert stopped.journal is not None
    header, entries = read_journal(str(stopped.journal))
    speaker = Recorder()
    with pytest.raises(EOFError):
        play_keys(config_from_journal(header, "journal"), [], seed=header["seed"],
                  start=Resumed(Journal(stopped.journal), Deal(tuple(header["deal"])), entries, str(stopped.journal)),
                  speaker=speaker)
    assert speaker.said[0] == "The game goes on." and CLOSE not in speaker.said and OPEN not in speaker.said


def test_the_normal_flow_needs_no_eyes_notice(tmp_path: Path) -> None:
    """Nightfall closes the eyes and the dawn opens them: a whole game says neither notice."""
    conf = TableConfig("en", STARTER.table, pause=(0.0, 0.0))
    keys, ahead = plan_keys(conf, 3)
    speaker = Recorder()
    play_keys(conf, keys, seed=3, start=NewGame(folder=tmp_path), speaker=speaker)
    assert ahead.over and CLOSE not in speaker.said and OPEN not in speaker.said


def test_the_narrator_knows_whether_the_tables_eyes_are_open() -> None:
    """TableNarrator.eyes_open follows the lines said: open at first, closed by nightfall or "everyone close
    your eyes" (as the deal says before identifying real cards), open again at dawn."""
    narrator = TableNarrator(load_voice("en"), PlainScreen(io.StringIO()), Recorder())
    assert narrator.eyes_open
    narrator.line("notice.close_eyes", VOICE)
    assert not narrator.eyes_open
    narrator.line("notice.open_eyes", VOICE)
    narrator.line("nightfall.call", VOICE)
    assert not narrator.eyes_open
    narrator.line("dawn.call", VOICE)
    assert narrator.eyes_open
    narrator.line("stuttering_judge.call", VOICE)
    assert not narrator.eyes_open


# -- voice answers at night ------------------------------------------------------------------------

def by_voice(heard: list[str | None]) -> tuple[VoiceAnswers, list[str], list[str]]:
    """Voice answers in English; returns them, what they said aloud and what they showed those awake."""
    voice = load_voice("en")
    said: list[str] = []
    shown: list[str] = []
    answers = VoiceAnswers(Hears(heard), load_vocabulary("en"), PushbackKeys(ScriptedKeys([])),
                           say=lambda key, values: said.append(voice.text(key, values)), repeat=lambda: None,
                           seat_words=voice.seat, word=lambda w: voice.text(f"answer.{w}", {}),
                           show_awake=lambda key, values: shown.append(voice.text(key, values)))
    return answers, said, shown


def test_a_voice_answer_at_night_is_read_back_on_the_screen_only() -> None:
    """A table that answers by voice at night: "Seat number three?" is shown to those awake, never said; so are
    "say it again" and "use the keypad"."""
    game = at(new_game(["werewolf", "seer", *VILLAGERS]), "seer")
    answers, said, shown = by_voice(["three", "yes"])
    assert answers.answer(game.call) == 3  # type: ignore[arg-type]
    assert said == [] and shown == ["Seat number three?"]
    answers, said, shown = by_voice([None, None])
    assert answers.answer(game.call) is KEYPAD  # type: ignore[arg-type]
    assert said == [] and len(shown) == 2


def test_a_voice_answer_the_engine_refuses_is_never_read_back() -> None:
    """The pack names a werewolf aloud: the answer goes to the engine unread (which refuses it on the screen);
    "Seat number two?" is never said nor shown."""
    game = at(new_game(["werewolf", "werewolf", *VILLAGERS]), "werewolves")
    answers, said, shown = by_voice(["two", "yes"])
    assert answers.answer(game.call, legal_in(game)) == 2  # type: ignore[arg-type]
    assert said == [] and shown == []
