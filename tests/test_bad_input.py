"""Bad input through the command line: "Bad input of any kind (config, script, answer) gets a clear
message that says what is wrong and where — never a traceback, never a hang."

Every file is written to tmp_path and checked from there, so the messages name it as `table.yaml` or
`script.yaml`, followed by the line (`table.yaml:2`).
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.voices import load_voice

MEMORY = 1 << 29
"""The address space a run may use: a sound run needs a small part of it; input that blows up memory
must then fail quickly rather than swamp the machine (and the test says so)."""

DECK6 = "[werewolf, werewolf, seer, villager, villager, villager]"
DECK8 = "[werewolf, werewolf, seer, witch, hunter, cupid, villager, villager]"

GAME_HEAD = f"""\
table:
  deck: {DECK8}
  sheriff: false
deal:
  1: villager
  2: werewolf
  3: hunter
  4: villager
  5: seer
  6: cupid
  7: witch
  8: werewolf
answers:
"""
"""The first lines of the example game of docs/practice-scripts.md; answer k stands on line FIRST_ANSWER + k - 1."""

FIRST_ANSWER = GAME_HEAD.count("\n") + 1
GAME_ANSWERS = ["cupid: [3, 6]", "seer: 2", "werewolves: 4", "witch: {heal: false, poison: null}", "vote: 2",
                "seer: 8", "werewolves: 3", "witch: {heal: false, poison: 8}", "hunter: 1"]
GAME_EXPECT = "expect:\n  winner: village\n  eliminated: [4, 2, 3, 8, 6, 1]\n"

SCRIPT_TABLE = f"table:\n  deck: {DECK6}\n  sheriff: false\n"
SCRIPT_DEAL = "deal:\n  1: villager\n  2: werewolf\n  3: seer\n  4: villager\n  5: werewolf\n  6: villager\n"
"""A sound six-player script's table (lines 1-3) and deal (lines 4-10)."""


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run_cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Runs the command line in ``cwd`` as a host would, with nothing on stdin to wait for."""
    return subprocess.run([sys.executable, "-m", "narrator", *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60, cwd=cwd, preexec_fn=_limit_memory)


def refused(result: subprocess.CompletedProcess[str], *snippets: str) -> str:
    """Asserts a clear refusal: exit 1, no traceback nor internal error, every snippet on stderr."""
    output = result.stdout + result.stderr
    assert "Traceback" not in output, output
    assert "internal error" not in output, output
    assert result.returncode == 1, output
    for snippet in snippets:
        assert snippet in result.stderr, f"{snippet!r} is not in the message:\n{result.stderr}"
    return result.stderr


def check(tmp_path: Path, text: str, name: str = "table.yaml") -> subprocess.CompletedProcess[str]:
    """Writes ``text`` to ``name`` and runs ``check`` on it."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    return run_cli(tmp_path, "check", name)


def game(answers: list[str], expect: str = GAME_EXPECT) -> str:
    """Returns the example game's script with these answers and this expect block."""
    return GAME_HEAD + "".join(f"  - {a}\n" for a in answers) + expect


def dry_run(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    """Writes the script and runs ``dry-run --silent --report report.json`` on it."""
    (tmp_path / "script.yaml").write_text(text, encoding="utf-8")
    return run_cli(tmp_path, "dry-run", "script.yaml", "--silent", "--report", "report.json")


# -- table configs ---------------------------------------------------------------------------


def test_a_sound_config_is_ok(tmp_path: Path) -> None:
    """A sound table config is reported ok, with exit status 0 and nothing on stderr."""
    result = check(tmp_path, f"seats: 8\ndeck: {DECK8}\nsheriff: true\n")
    assert result.returncode == 0, result.stderr
    assert "table.yaml: ok" in result.stdout
    assert result.stderr == ""


def test_more_than_a_quarter_werewolves_is_accepted_with_a_warning(tmp_path: Path) -> None:
    """Rulebook: "the number of Werewolves should not exceed a quarter" — advice, so a warning, not an error."""
    result = check(tmp_path, "deck: [werewolf, werewolf, werewolf, seer, villager, villager, villager, villager]\n")
    assert result.returncode == 0, result.stderr
    assert "ok" in result.stdout
    assert "warning:" in result.stderr and "quarter" in result.stderr and "table.yaml:1" in result.stderr


def test_an_unknown_key_is_named_with_a_suggestion(tmp_path: Path) -> None:
    """A misspelt key is named at its line, with the key it looks like."""
    result = check(tmp_path, f"deck: {DECK6}\nsherif: false\n")
    refused(result, "table.yaml:2", "'sherif'", "did you mean 'sheriff'?")


def test_an_unknown_house_rule_is_named_with_a_suggestion(tmp_path: Path) -> None:
    """A misspelt house rule is named at its line, with the rule it looks like."""
    result = check(tmp_path, f"deck: {DECK6}\nwhite_werewolf_intervall: 3\n")
    refused(result, "table.yaml:2", "'white_werewolf_intervall'", "did you mean 'white_werewolf_interval'?")


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("seats", "six", "6 to 47"),
    ("seats", "true", "6 to 47"),
    ("seats", "[Ann, [Bob, Cy]]", "list of their names"),
    ("deck", "werewolf, werewolf, seer", "list of characters, one card a player"),
    ("deck", "{werewolf: 2, villager: 4}", "list of characters, one card a player"),
    ("preset", "8", "classic"),
    ("preset", "[classic]", "classic"),
    ("deal", "yes", "app"),
    ("sheriff", "'no'", "true or false"),
    ("call_dead", "1", "true or false"),
    ("reveal_roles", "[false]", "true or false"),
    ("sisters_wake", "on even nights", "true or false"),
    ("profile", "7", "bestof"),
    ("profile", "[bestof]", "bestof"),
    ("language", "3", "en"),
    ("language", "{en: true}", "en"),
    ("speaker", "loud", "console"),
    ("rate", "fast", "80 to 400"),
    ("pause", "5", "[min, max]"),
    ("call_floor", "soon", "0 to 60"),
    ("call_floor", "-1", "0 to 60"),
    ("call_floor", "90", "0 to 60"),
    ("call_floor", "true", "0 to 60"),
    ("debate_timer", "soon", "seconds"),
    ("last_words", "soon", "seconds, 0 to 600"),
    ("last_words", "900", "seconds, 0 to 600"),
    ("inputs", "keypad", "keypad"),
    ("inputs", "{night: [[keypad]]}", "keypad"),
    ("white_werewolf_interval", "zero", "1 to 10"),
    ("white_werewolf_interval", "0", "1 to 10"),
    ("sisters_interval", "-1", "0 to 10"),
    ("elder_lives", "true", "1 to 5"),
    ("piper_charms", "4", "1 to 3"),
    ("sheriff_elected", "dawn", "first_day"),
    ("sheriff_double_vote", "twice", "true or false"),
    ("votes_may_be_skipped", "0", "true or false"),
    ("skip_idle_calls", "'yes'", "true or false"),
    ("wolf_hound_random", "[true]", "true or false"),
])
def test_a_key_of_the_wrong_type_says_what_it_expects(tmp_path: Path, key: str, value: str, expected: str) -> None:
    """A value of the wrong type is named with its file:line and key, and what the key expects."""
    rest = {"seats": f"deck: {DECK6}\n", "deck": "seats: 6\n", "preset": "seats: 8\n"}.get(key, f"deck: {DECK6}\n")
    result = check(tmp_path, f"# a table with one mistake\n{key}: {value}\n{rest}")
    refused(result, "table.yaml:2", f"{key}:", expected)


def test_an_unknown_character_is_named_at_its_line(tmp_path: Path) -> None:
    """An unknown card is named at its own line in the deck, with the character it looks like."""
    result = check(tmp_path, "deck:\n  - werewolf\n  - werewolf\n  - seerr\n  - villager\n  - villager\n  - villager\n")
    refused(result, "table.yaml:4", "deck", "'seerr'", "did you mean 'seer'?")


@pytest.mark.parametrize("seats", [5, 48, 0, -6])
def test_seats_outside_6_to_47_are_refused(tmp_path: Path, seats: int) -> None:
    """A table has 6 to 47 players."""
    result = check(tmp_path, f"seats: {seats}\ndeck: {DECK6}\n")
    refused(result, "table.yaml:1", "seats", "6 to 47", str(seats))


def test_a_deck_of_five_cards_is_refused(tmp_path: Path) -> None:
    """Without seats, the deck gives the number of players: five cards are too few."""
    result = check(tmp_path, "deck: [werewolf, seer, villager, villager, villager]\n")
    refused(result, "table.yaml:1", "deck", "6 to 47")


def test_a_deck_that_does_not_fit_the_seats_is_refused(tmp_path: Path) -> None:
    """One card a player: six cards do not deal to eight seats."""
    result = check(tmp_path, f"seats: 8\ndeck: {DECK6}\n")
    refused(result, "table.yaml:2", "deck", "6 cards", "8 cards for 8 players")


def test_the_thief_needs_his_two_extra_cards(tmp_path: Path) -> None:
    """French rules: with the Thief, two cards more than the players are dealt, face down in the centre."""
    result = check(tmp_path, "seats: 6\ndeck: [werewolf, werewolf, seer, villager, villager, thief]\n")
    refused(result, "table.yaml:2", "deck", "Thief's 2 centre cards")


def test_the_thief_needs_his_two_extra_cards_when_the_deck_gives_the_seats(tmp_path: Path) -> None:
    """Six cards with the Thief: the message must speak of his two centre cards, not of four players."""
    result = check(tmp_path, "deck: [werewolf, werewolf, seer, villager, villager, thief]\n")
    refused(result, "table.yaml:1", "deck", "Thief")


def test_a_lone_sister_is_refused(tmp_path: Path) -> None:
    """The Two Sisters: a deck holds both cards or neither."""
    result = check(tmp_path, "deck: [werewolf, werewolf, seer, villager, villager, sister]\n")
    refused(result, "table.yaml:1", "deck", "'sister'", "0 or 2")


def test_two_seers_are_refused(tmp_path: Path) -> None:
    """There is one Seer card."""
    result = check(tmp_path, "deck: [werewolf, werewolf, seer, seer, villager, villager]\n")
    refused(result, "table.yaml:1", "deck", "2 'seer' cards", "0 or 1")


def test_a_deck_without_a_werewolf_is_refused(tmp_path: Path) -> None:
    """A game needs werewolves."""
    result = check(tmp_path, "deck: [villager, villager, seer, villager, villager, villager]\n")
    refused(result, "table.yaml:1", "deck", "no werewolf card")


def test_deck_and_preset_together_are_refused(tmp_path: Path) -> None:
    """A deck is given one way: the list, or a preset."""
    result = check(tmp_path, f"seats: 6\npreset: classic\ndeck: {DECK6}\n")
    refused(result, "table.yaml:2", "deck or preset")


def test_a_preset_needs_the_seats(tmp_path: Path) -> None:
    """A preset is a column of the table of decks: it needs the number of players."""
    result = check(tmp_path, "language: en\npreset: classic\n")
    refused(result, "table.yaml:2", "preset", "seats")


def test_a_preset_for_a_seat_count_it_lacks_is_refused(tmp_path: Path) -> None:
    """The classic preset covers the French rules' table, 6 to 18 players."""
    result = check(tmp_path, "seats: 30\npreset: classic\n")
    refused(result, "table.yaml:2", "preset", "30", "6 to 18")


def test_an_unknown_language_is_refused_with_the_known_ones(tmp_path: Path) -> None:
    """The language must have a voice file."""
    result = check(tmp_path, f"deck: {DECK6}\nlanguage: de\n")
    refused(result, "table.yaml:2", "language", "'de'", "en")


def test_invalid_yaml_is_named_with_its_line_and_column(tmp_path: Path) -> None:
    """A YAML syntax error is named at its line and column."""
    result = check(tmp_path, "deck: [werewolf, werewolf\nseats: 6\n")
    refused(result, "table.yaml:2:6", "not valid YAML")


def test_an_empty_file_is_refused(tmp_path: Path) -> None:
    """An empty file is not a table config."""
    result = check(tmp_path, "")
    refused(result, "table.yaml", "mapping")


def test_a_file_that_is_a_list_is_refused(tmp_path: Path) -> None:
    """A table config is a mapping of keys, not a list."""
    result = check(tmp_path, "- werewolf\n- seer\n")
    refused(result, "table.yaml:1", "mapping", "deck")


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    """A file that is not there is named."""
    refused(run_cli(tmp_path, "check", "nowhere.yaml"), "nowhere.yaml", "no such file")


def test_a_folder_is_refused(tmp_path: Path) -> None:
    """A folder is not a file."""
    (tmp_path / "tables").mkdir()
    refused(run_cli(tmp_path, "check", "tables"), "tables", "folder")


def test_a_file_not_in_utf8_is_refused(tmp_path: Path) -> None:
    """Config files are UTF-8 text; another encoding is named as such, with the place of the first bad byte."""
    (tmp_path / "table.yaml").write_bytes(f"deck: {DECK6}\nlanguage: fran\xe7ais\n".encode("latin-1"))
    refused(run_cli(tmp_path, "check", "table.yaml"), "table.yaml", "UTF-8")


def test_a_duplicated_key_is_refused_at_its_second_line(tmp_path: Path) -> None:
    """A key given twice is ambiguous: named at the line that repeats it."""
    result = check(tmp_path, f"seats: 6\ndeck: {DECK6}\nseats: 7\n")
    refused(result, "table.yaml:3", "'seats'", "twice")


def test_a_control_character_is_refused_with_its_place(tmp_path: Path) -> None:
    """A control character (a stray escape pasted from a terminal) is bad input, not an internal error."""
    result = check(tmp_path, f"deck: {DECK6}\nlanguage: en\x1b\n")
    refused(result, "table.yaml", "character")


def test_a_date_that_does_not_exist_is_refused_at_its_line(tmp_path: Path) -> None:
    """YAML reads 2024-13-45 as a date; a date that cannot be is named at its line."""
    result = check(tmp_path, f"deck: {DECK6}\nlanguage: 2024-13-45\n")
    refused(result, "table.yaml:2")


def test_a_tag_that_does_not_fit_its_value_is_refused_at_its_line(tmp_path: Path) -> None:
    """An explicit YAML tag (!!int six) whose value cannot be read is named at its line."""
    result = check(tmp_path, f"deck: {DECK6}\nseats: !!int six\n")
    refused(result, "table.yaml:2")


@pytest.mark.parametrize("number", ["1" + "0" * 5000, "0x" + "f" * 4000], ids=["decimal", "hexadecimal"])
def test_a_huge_number_is_refused_at_its_line(tmp_path: Path, number: str) -> None:
    """A number thousands of digits long is named at its line, not an internal error."""
    result = check(tmp_path, f"deck: {DECK6}\nsheriff: {number}\n")
    refused(result, "table.yaml:2")


def test_a_billion_laughs_is_refused_not_expanded(tmp_path: Path) -> None:
    """Aliases nested ten deep would stand for a billion cards: refused, never a hang."""
    lines = ["l0: &l0 [" + ", ".join(["werewolf"] * 10) + "]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, 10)]
    result = check(tmp_path, "\n".join(lines) + "\n")
    refused(result, "table.yaml")


# -- practice scripts: mistakes found before the game is played ---------------------------------

COMMANDS = pytest.mark.parametrize("command", ["check", "dry-run"])


def script_cli(tmp_path: Path, command: str, text: str) -> subprocess.CompletedProcess[str]:
    """Writes script.yaml and runs ``command`` on it (dry runs silent)."""
    (tmp_path / "script.yaml").write_text(text, encoding="utf-8")
    extra = ["--silent"] if command == "dry-run" else []
    return run_cli(tmp_path, command, "script.yaml", *extra)


@COMMANDS
def test_a_script_needs_a_table_or_a_config(tmp_path: Path, command: str) -> None:
    """docs/practice-scripts.md: a script has table (the keys of a table config) or config (its path)."""
    result = script_cli(tmp_path, command, SCRIPT_DEAL + "answers: []\n")
    refused(result, "script.yaml", "'table'", "'config'")


@COMMANDS
def test_a_script_with_both_table_and_config_is_refused(tmp_path: Path, command: str) -> None:
    """docs/practice-scripts.md: table, or config — not both."""
    result = script_cli(tmp_path, command, SCRIPT_TABLE + "config: table.yaml\n" + SCRIPT_DEAL)
    refused(result, "script.yaml:4", "table or config")


@COMMANDS
def test_a_config_path_that_does_not_exist_is_named(tmp_path: Path, command: str) -> None:
    """config: names a file; a missing one is named at the script's line."""
    result = script_cli(tmp_path, command, "config: nowhere.yaml\n" + SCRIPT_DEAL)
    refused(result, "script.yaml:1", "config", "nowhere.yaml", "no such file")


@COMMANDS
def test_a_mistake_in_the_referenced_config_is_named_in_that_file(tmp_path: Path, command: str) -> None:
    """The table config a script points to is checked like any other, its mistakes named in it."""
    (tmp_path / "table.yaml").write_text(f"deck: {DECK6}\nsherif: false\n", encoding="utf-8")
    result = script_cli(tmp_path, command, "config: table.yaml\n" + SCRIPT_DEAL)
    refused(result, "table.yaml:2", "'sherif'")


@COMMANDS
def test_a_config_path_with_a_nul_character_is_refused(tmp_path: Path, command: str) -> None:
    """A config path no file can have ("a\\0b.yaml") is named at the script's line, not an internal error."""
    result = script_cli(tmp_path, command, 'config: "a\\0b.yaml"\n' + SCRIPT_DEAL)
    refused(result, "script.yaml:1", "config")


@COMMANDS
def test_a_deal_with_a_missing_seat_is_refused(tmp_path: Path, command: str) -> None:
    """docs/practice-scripts.md: one entry per seat, seats 1..N."""
    deal = SCRIPT_DEAL.replace("  5: werewolf\n", "").replace("  6: villager\n", "  6: villager\n  7: werewolf\n")
    result = script_cli(tmp_path, command, SCRIPT_TABLE + deal)
    refused(result, "script.yaml:4", "deal", "missing: [5]")


@COMMANDS
def test_a_deal_short_of_its_last_seat_is_named_as_the_deal(tmp_path: Path, command: str) -> None:
    """Five seats dealt from a six-card deck: the message must point at the deal, not only the deck."""
    result = script_cli(tmp_path, command, SCRIPT_TABLE + SCRIPT_DEAL.replace("  6: villager\n", ""))
    refused(result, "script.yaml", "deal")


@COMMANDS
def test_a_deal_whose_cards_differ_from_the_deck_is_refused(tmp_path: Path, command: str) -> None:
    """The deal hands out exactly the table's deck."""
    result = script_cli(tmp_path, command, SCRIPT_TABLE + SCRIPT_DEAL.replace("5: werewolf", "5: witch"))
    refused(result, "script.yaml:4", "deal", "'witch'", "'werewolf'")


@COMMANDS
def test_the_thief_needs_centre_cards_in_the_deal(tmp_path: Path, command: str) -> None:
    """docs/practice-scripts.md: centre: [a, b] — the two centre cards, with the thief."""
    table = "table:\n  deck: [werewolf, werewolf, seer, villager, villager, thief, villager, villager]\n"
    result = script_cli(tmp_path, command, table + SCRIPT_DEAL.replace("6: villager", "6: thief"))
    refused(result, "script.yaml:3", "deal", "centre")


@COMMANDS
def test_centre_cards_without_the_thief_are_refused(tmp_path: Path, command: str) -> None:
    """docs/practice-scripts.md: centre cards are dealt only with the thief."""
    result = script_cli(tmp_path, command, SCRIPT_TABLE + SCRIPT_DEAL + "  centre: [villager, villager]\n")
    refused(result, "script.yaml:11", "centre", "Thief")


@COMMANDS
def test_a_deal_with_a_huge_seat_number_is_refused_quickly(tmp_path: Path, command: str) -> None:
    """A seat numbered a billion is a mistake in the deal, named as such: never a hang."""
    result = script_cli(tmp_path, command, SCRIPT_TABLE + SCRIPT_DEAL.replace("6: villager", "1000000000: villager"))
    refused(result, "script.yaml", "deal")


@COMMANDS
def test_an_answer_that_is_not_a_one_key_mapping_is_refused(tmp_path: Path, command: str) -> None:
    """docs/practice-scripts.md: each item is {call id: answer}."""
    text = SCRIPT_TABLE + SCRIPT_DEAL + "answers:\n  - seer: 2\n    werewolves: 4\n  - 5\n"
    refused(script_cli(tmp_path, command, text), "script.yaml:12", "item 1", "script.yaml:14", "item 2",
            "{call: answer}")


@COMMANDS
def test_an_unknown_call_id_is_named_with_a_suggestion(tmp_path: Path, command: str) -> None:
    """An answer for a call the engine never makes is named at its line, with the call it looks like."""
    text = SCRIPT_TABLE + SCRIPT_DEAL + "answers:\n  - seeer: 2\n"
    refused(script_cli(tmp_path, command, text), "script.yaml:12", "item 1", "'seeer'", "did you mean 'seer'?")


@COMMANDS
def test_an_answer_for_a_call_that_needs_none_is_refused(tmp_path: Path, command: str) -> None:
    """docs/practice-scripts.md: calls that need no answer (lovers, ...) are not listed: the runner confirms them."""
    text = SCRIPT_TABLE + SCRIPT_DEAL + "answers:\n  - lovers: null\n"
    refused(script_cli(tmp_path, command, text), "script.yaml:12", "item 1", "'lovers'", "needs no answer")


@COMMANDS
@pytest.mark.parametrize(("expect", "snippets"), [
    ("expect:\n  winner: wolves\n", ("script.yaml:12", "winner", "'wolves'", "werewolves")),
    ("expect:\n  eliminated: four\n", ("script.yaml:12", "eliminated", "list of seat numbers")),
    ("expect:\n  eliminated: [4, two]\n", ("script.yaml:12", "eliminated", "list of seat numbers")),
    ("expect:\n  winer: village\n", ("script.yaml:12", "'winer'", "winner")),
    ("expect: village\n", ("script.yaml:11", "expect", "winner")),
], ids=["winner", "eliminated", "eliminated-item", "unknown-key", "not-a-mapping"])
def test_a_bad_expect_is_refused(tmp_path: Path, command: str, expect: str, snippets: tuple[str, ...]) -> None:
    """docs/practice-scripts.md: expect has winner (village, werewolves, ...) and/or eliminated (seats, in order)."""
    refused(script_cli(tmp_path, command, SCRIPT_TABLE + SCRIPT_DEAL + expect), *snippets)


# -- practice scripts: dry runs that stop -----------------------------------------------------


def test_the_example_game_plays_through(tmp_path: Path) -> None:
    """The sound script these tests spoil plays to its end and writes its report."""
    result = dry_run(tmp_path, game(GAME_ANSWERS))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "report.json").exists()


def test_an_answer_for_the_wrong_call_stops_the_run(tmp_path: Path) -> None:
    """docs/practice-scripts.md: the message names the call that was made, the answer expected, and its place."""
    result = dry_run(tmp_path, game(["seer: 2"] + GAME_ANSWERS[1:]))
    refused(result, f"script.yaml:{FIRST_ANSWER}", "'seer: 2'", "'seer'", "'cupid'", "- cupid:")
    assert not (tmp_path / "report.json").exists()


def test_answers_running_out_stop_the_run(tmp_path: Path) -> None:
    """docs/practice-scripts.md: a script whose answers run out before the game ends stops with a clear message."""
    result = dry_run(tmp_path, game(GAME_ANSWERS[:5], expect=""))
    refused(result, "script.yaml", "ran out", "'seer'", "night 2")
    assert not (tmp_path / "report.json").exists()


def test_answers_left_over_stop_the_run(tmp_path: Path) -> None:
    """docs/practice-scripts.md: so does a script with answers left over when the game ends."""
    result = dry_run(tmp_path, game(GAME_ANSWERS + ["vote: 5"]))
    refused(result, f"script.yaml:{FIRST_ANSWER + 9}", "'vote: 5'", "an answer left", "over")
    assert not (tmp_path / "report.json").exists()


def test_an_answer_the_rules_forbid_stops_the_run_with_the_reason(tmp_path: Path) -> None:
    """docs/practice-scripts.md: an answer the rules forbid stops the run with the engine's reason."""
    answers = GAME_ANSWERS[:2] + ["werewolves: 8"] + GAME_ANSWERS[3:]
    result = dry_run(tmp_path, game(answers))
    refused(result, f"script.yaml:{FIRST_ANSWER + 2}", "'werewolves: 8'", "seat 8 is a werewolf")
    assert not (tmp_path / "report.json").exists()


def test_an_answer_in_odd_digits_is_refused_with_its_place(tmp_path: Path) -> None:
    """An answer such as "²" is not a seat number: refused like any other, not an internal error."""
    answers = GAME_ANSWERS[:1] + ['seer: "²"'] + GAME_ANSWERS[2:]
    refused(dry_run(tmp_path, game(answers)), f"script.yaml:{FIRST_ANSWER + 1}", "'seer: \"²\"'", "not allowed")
    assert not (tmp_path / "report.json").exists()


def test_an_answer_that_is_a_date_is_refused_with_its_place(tmp_path: Path) -> None:
    """YAML reads 2024-01-02 as a date: not a seat, refused at its place, not an internal error."""
    answers = GAME_ANSWERS[:1] + ["seer: 2024-01-02"] + GAME_ANSWERS[2:]
    refused(dry_run(tmp_path, game(answers)), f"script.yaml:{FIRST_ANSWER + 1}", "'seer: \"2024-01-02\"'", "not allowed")
    assert not (tmp_path / "report.json").exists()


def test_a_different_winner_stops_the_run(tmp_path: Path) -> None:
    """docs/practice-scripts.md: the run fails, naming the first difference, if the game ends otherwise."""
    result = dry_run(tmp_path, game(GAME_ANSWERS, expect="expect:\n  winner: werewolves\n"))
    refused(result, "script.yaml", "'werewolves'", "'village'")
    assert not (tmp_path / "report.json").exists()


def test_a_different_elimination_stops_the_run_naming_the_first_difference(tmp_path: Path) -> None:
    """docs/practice-scripts.md: expect eliminated — the first difference is named."""
    result = dry_run(tmp_path, game(GAME_ANSWERS, expect="expect:\n  eliminated: [4, 2, 3, 8, 1, 6]\n"))
    refused(result, "script.yaml", "elimination 5", "expected 1", "got 6")
    assert not (tmp_path / "report.json").exists()


def test_a_report_that_cannot_be_written_is_refused(tmp_path: Path) -> None:
    """A report path that is a folder is named, not an internal error."""
    (tmp_path / "script.yaml").write_text(game(GAME_ANSWERS), encoding="utf-8")
    (tmp_path / "out").mkdir()
    refused(run_cli(tmp_path, "dry-run", "script.yaml", "--silent", "--report", "out"), "out", "report")


def test_a_missing_script_is_refused(tmp_path: Path) -> None:
    """dry-run on a file that is not there names it."""
    refused(run_cli(tmp_path, "dry-run", "nowhere.yaml", "--silent"), "nowhere.yaml", "no such file")


# -- the command line itself ------------------------------------------------------------------


@pytest.mark.parametrize("args", [["dance"], [], ["dry-run"], ["check"], ["dry-run", "script.yaml", "--loud"]],
                         ids=["unknown-command", "no-command", "dry-run-without-script", "check-without-file",
                              "unknown-option"])
def test_a_bad_command_line_gets_usage_and_status_2(tmp_path: Path, args: list[str]) -> None:
    """A bad command line is answered with the usage and exit status 2."""
    result = run_cli(tmp_path, *args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "usage:" in result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_a_script_dealing_the_actor_without_his_cards_is_refused_with_a_message(tmp_path: Path) -> None:
    """A script whose deck comes from its deal is checked like a config's deck: the Actor needs his cards."""
    (tmp_path / "actor.yaml").write_text(
        "table: {sheriff: false}\n"
        "deal: {1: actor, 2: werewolf, 3: villager, 4: villager, 5: villager, 6: villager}\n"
        "answers: []\n", encoding="utf-8")
    refused(run_cli(tmp_path, "dry-run", "actor.yaml", "--silent"), "actor.yaml", "actor_cards")


@pytest.mark.parametrize("argv", [["play"], ["resume", "--last"], ["dry-run", "examples/practice-en.yaml"]])
def test_on_windows_a_game_says_it_needs_a_posix_system_before_importing_what_windows_lacks(
        argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """On Windows `play` met termios and fcntl as an internal error; it now says at once what to do (WSL)."""
    from narrator import cli

    monkeypatch.setattr(cli, "POSIX", False)  # as on Windows, where os.name is "nt"
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert "need a POSIX system" in err and "WSL" in err and "Traceback" not in err


def test_a_fifo_given_as_a_voice_or_as_the_audio_folder_is_named_for_what_it_is(tmp_path: Path) -> None:
    """`voices add en FIFO.onnx` said "no such file" and `--audio-dir FIFO` "File exists": both misled the host."""
    import os

    os.mkfifo(tmp_path / "voice.onnx")
    os.mkfifo(tmp_path / "lines")
    env_home = {"HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "narrator", "voices", "add", "en", str(tmp_path / "voice.onnx")],
                            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60, cwd=tmp_path,
                            env={**os.environ, **env_home})
    refused(result, "voice.onnx: not a regular file")
    practice = Path(__file__).resolve().parent.parent / "examples" / "practice-en.yaml"
    refused(run_cli(tmp_path, "dry-run", str(practice), "--silent", "--audio-dir", "lines"),
            "lines: not a folder; --audio-dir names a folder")


def voice_with(tmp_path: Path, name: str, config: dict[str, object]) -> Path:
    """A file named as a Piper voice (never loaded: refused by its config first) and its .onnx.json."""
    import json

    model = tmp_path / f"{name}.onnx"
    model.write_bytes(b"not a model")
    model.with_name(model.name + ".json").write_text(json.dumps(config), encoding="utf-8")
    return model


@pytest.mark.parametrize("rate", [0, -22050, 1e9, "22050", None])
def test_voices_add_refuses_a_voice_config_whose_sample_rate_is_not_sane(tmp_path: Path, rate: object) -> None:
    """A rate of 0 was installed, then every line failed and espeak-ng said it, with no word of why."""
    model = voice_with(tmp_path, "en_US-x-low", {"language": {"family": "en"}, "audio": {"sample_rate": rate}})
    result = run_cli(tmp_path, "voices", "add", "en", str(model))
    refused(result, f"en_US-x-low.onnx.json: not a Piper voice config (audio: sample_rate {rate!r}, not a number of "
                    "samples a second from 8000 to 96000); nothing was installed")


def test_voices_add_quotes_what_it_prints_into_a_command_and_names_only_languages_of_ours(tmp_path: Path) -> None:
    """The voice's language was pasted unquoted into the command the host is told to run: `$(…)` would run."""
    audio = {"sample_rate": 22050}
    french = voice_with(tmp_path, "fr voice $(touch pwned)", {"language": {"family": "fr"}, "audio": audio})
    result = run_cli(tmp_path, "voices", "add", "en", str(french))
    refused(result, f"voices add fr '{french}'")
    foreign = voice_with(tmp_path, "x", {"language": {"family": "$(touch pwned)"}, "audio": audio})
    result = run_cli(tmp_path, "voices", "add", "en", str(foreign))
    refused(result, "x.onnx: this voice speaks '$(touch pwned)', not 'en', and the narrator speaks only en, fr, zh; "
                    "nothing was installed")
    assert "voices add $(" not in result.stderr


@pytest.mark.parametrize("argv", [["understand", "--lang", "../voices/en", "seven"],
                                  ["mic-test", "--lang", "/tmp/x"]])
def test_lang_takes_a_language_never_a_path(tmp_path: Path, argv: list[str]) -> None:
    result = run_cli(tmp_path, *argv)
    assert result.returncode == 2 and "is not a language of the narrator's: en, fr, zh" in result.stderr, result


def test_voices_render_takes_a_language_never_a_path(tmp_path: Path) -> None:
    voices = Path(__file__).resolve().parent.parent / "voices"
    refused(run_cli(tmp_path, "voices", "render", str(voices / "en")),
            f"no voice file for language '{voices / 'en'}'; languages: en, fr, zh")


def test_check_warns_about_a_blank_name_and_names_that_look_alike(tmp_path: Path) -> None:
    """A blank name names nobody; 'Ann' and 'Аnn' (a Cyrillic A) or 'Zoë' and 'Zoe' are one name to the table."""
    names = '["Ann", "\u0410nn", "  ", "Zo\u00eb", "Zoe", "\u3164", "\U0001f469\u200d\U0001f33e", "Bob"]'
    deck = "[werewolf, werewolf, seer, witch, villager, villager, villager, villager]"
    (tmp_path / "t.yaml").write_text(f"language: en\nseats: {names}\ndeck: {deck}\n", encoding="utf-8")
    result = run_cli(tmp_path, "check", "--no-simulate", "t.yaml")
    assert result.returncode == 0, result.stderr
    assert "t.yaml:2: seats: seat 2's name '\u0410nn' looks like seat 1's, 'Ann': the table could not tell them " \
           "apart" in result.stderr
    assert "seat 5's name 'Zoe' looks like seat 4's" in result.stderr
    assert "seat 3's name '  ' is blank: the screen and the voice would name nobody" in result.stderr
    assert "seat 6's name '\u3164' is blank" in result.stderr
    assert result.stderr.count("warning:") == 4  # the emoji and Bob are names like any other


@pytest.mark.parametrize("language", ["fr", "zh"])
def test_check_gives_a_tables_warnings_in_its_language(tmp_path: Path, language: str) -> None:
    """A French or Chinese host reads every warning about the table in the table's language (its keys and file
    names as written): a blank name, names alike, a pause under the floor, groups unused, too many werewolves."""
    (tmp_path / "t.yaml").write_text(
        f"language: {language}\nseats: [Zo\u00eb, Zoe, '  ', Bob, Cy, Di, Ed, Flo]\n"
        "deck: [werewolf, werewolf, werewolf, seer, villager, villager, villager, villager]\n"
        "pause: [1, 2]\ngroups: [[1, 2, 3, 4], [5, 6, 7, 8]]\n", encoding="utf-8")
    result = run_cli(tmp_path, "check", "--no-simulate", "t.yaml")
    assert result.returncode == 0, result.stderr
    voice = load_voice(language)
    label = voice.text("screen.check_warning", {"text": ""}, fragment=True)
    warnings = result.stderr.splitlines()
    assert len(warnings) == 5 and all(w.startswith(label) for w in warnings), result.stderr
    for where, key in [("t.yaml:2: seats", "names_alike"), ("t.yaml:2: seats", "blank_name"),
                       ("t.yaml:3", "werewolves_over_a_quarter"), ("t.yaml:4: pause", "pause_under_floor"),
                       ("t.yaml:5: groups", "groups_unused")]:
        stem = voice.lines[f"screen.advice_{key}"].split("{")[0]
        assert any(w.startswith(f"{label}{where}: {stem}") for w in warnings), (key, result.stderr)
    english = load_voice("en")
    for key in ("blank_name", "names_alike", "pause_under_floor", "werewolves_over_a_quarter"):
        words = english.lines[f"screen.advice_{key}"].split(":")[-1].split()[:3]
        assert " ".join(words) not in result.stderr, key


@pytest.mark.parametrize("language", ["fr", "zh"])
def test_a_warning_of_the_tables_devices_is_labelled_in_its_language(
        tmp_path: Path, language: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """No sound output: the warning is the table's language's, and so is its label (an English "warning:" before
    a Chinese sentence)."""
    import narrator.speak as speak
    from narrator.cli import main

    monkeypatch.setattr(speak, "output_problem", lambda device=None: speak.NO_OUTPUT)
    script = (Path(__file__).resolve().parent.parent / "examples" / f"practice-{language}.yaml").read_text("utf-8")
    (tmp_path / "p.yaml").write_text(script.replace("  sheriff: false", "  sheriff: false\n  speaker: pyttsx3"),
                                     encoding="utf-8")
    assert main(["dry-run", str(tmp_path / "p.yaml")]) == 0
    err = capsys.readouterr().err
    voice = load_voice(language)
    label = voice.text("screen.check_warning", {"text": ""}, fragment=True)
    told = voice.text("screen.no_sound", {"why": voice.text("sound.no_output", {})})
    assert err.startswith(label + told), err
    assert "warning:" not in err
