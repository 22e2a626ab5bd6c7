"""Issue 11, fair play at night: only the calls are said aloud; an answer is checked before it is read back;
no raw placeholder is ever said or shown; eyes are closed before a night call outside the normal flow."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Callable

import pytest

from engine import Call, Deal, Game, IllegalAnswer, Phase, Rules, Table
from helpers import drive, new_game, reach, refused
from narrator.narration import SCREEN, VOICE, Line, Narrator
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
    "card_gone": lambda: (at(new_game(ACTING, actor_cards=("seer", "hunter", "witch")), "actor", ("actor", 1), ("seer", 3),
                             ("werewolves", 4), ("vote", None)), 1),
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
                    keys.add(key.value)
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
    renderings = [(where, key, given) for where, key, given in literal_renderings() if key in voice.lines]
    assert len(renderings) > 50  # the scan sees the narrator's lines
    missing = [(where, key, sorted(placeholders(voice.lines[key]) - given)) for where, key, given in renderings
               if not placeholders(voice.lines[key]) <= given]
    assert missing == []
