"""The village's vote (and the Sheriff's election) counted at the keypad, voter by voter (issue 13): each voter asked in seat order, the
engine's count (the Sheriff's double, the Raven's mark, the revealed Idiot's none) shown and read back before it
counts, journaled as the roll call it was and resumed from it."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import Answer, Deal, Game, IllegalAnswer, Rules, Table
from helpers import Printed, drive, new_game, play_keys
from keystrokes import ScriptedKeys, after, keys_for
from narrator.asking import KEYPAD, KeypadAnswers
from narrator.hearing import SpokenAnswers
from narrator.config import TableConfig, config_from_journal
from narrator.journal import Journal, read_journal
from narrator.play import NewGame, Resumed
from narrator.voices import load_voice

RAVEN_TABLE = ["raven", "werewolf", "villager", "villager", "villager", "villager", "werewolf", "villager"]


def raven_vote() -> Game:
    """Seat 1 (the Raven) is elected Sheriff, marks seat 5 in the night; the pack devours seat 8: the day's
    vote is called, seats 1 to 7 alive."""
    game = new_game(RAVEN_TABLE, sheriff=True)
    drive(game, ("sheriff_election", 1), ("raven", 5), ("werewolves", 8))
    assert game.call is not None and game.call.id == "vote"
    return game


def ballots_keys(targets: list[int | None]) -> list[str]:
    """The keys of a roll call: V, each voter's seat (0 for nobody) and Enter, then Enter to confirm the tally."""
    return ["rollcall"] + [k for t in targets for k in (*str(t or 0), "enter")] + ["enter"]


class Footed(Printed):
    """A printed screen that keeps every footer it was given (the keys that work), in order."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__(out)
        self.footers: list[str] = []

    def keys(self, text: str) -> None:
        self.footers.append(text)


def keypad(keys: list[str], language: str = "en") -> tuple[KeypadAnswers, list[str], io.StringIO]:
    """A keypad by day: what it says (each line rendered) and what the screen shows."""
    voice = load_voice(language)
    said: list[str] = []
    shown = io.StringIO()
    answers = KeypadAnswers(ScriptedKeys(keys), Footed(shown), voice,
                            say=lambda key, values: said.append(voice.text(key, values)), repeat=lambda: None)
    return answers, said, shown


def answered(answers: KeypadAnswers, game: Game) -> Answer:
    """The keypad's answer to the running call."""
    assert game.call is not None
    return answers.answer(game.call, game)


def test_the_sheriffs_ballot_counts_double_and_the_ravens_mark_adds_two_votes_read_back_before_it_counts() -> None:
    """Rulings, votes: "the Sheriff's vote counts double"; the Raven's mark "adds two votes against its target
    in that day's first vote". Seat 5 has the Sheriff's ballot (2), seat 4's (1) and the mark (2): five votes,
    against seat 3's three; the tally is shown and read back aloud, and only the confirmed roll call counts."""
    game = raven_vote()
    answers, said, shown = keypad(ballots_keys([5, 3, 3, 5, None, 2, 3]))
    value = answered(answers, game)
    assert value == {"ballots": {1: 5, 2: 3, 3: 3, 4: 5, 5: None, 6: 2, 7: 3}}
    tally = "Seat number five, five votes; seat number three, three votes; seat number two, one vote. Seat number five is eliminated?"
    assert said == [f"Seat number {n}, your vote?" for n in ("one", "two", "three", "four", "five", "six", "seven")] + [tally]
    assert tally in shown.getvalue()
    game.answer(value)
    assert (game.eliminated[-1].seat, game.eliminated[-1].cause) == (5, "vote")


def test_undo_in_the_roll_call_takes_back_the_last_ballot_and_asks_that_voter_again() -> None:
    """Undo takes back the last ballot typed (seat 2's), seat 2 is asked again; Backspace at the tally goes
    back to the last voter; undo with no ballot leaves the roll call for the result, typed as before."""
    game = raven_vote()
    keys = (["rollcall", "3", "enter", "6", "enter", "undo", "4", "enter"] + ["3", "enter"] * 5
            + ["back", "4", "enter", "enter"])
    answers, said, _ = keypad(keys)
    assert answered(answers, game) == {"ballots": {1: 3, 2: 4, 3: 3, 4: 3, 5: 3, 6: 3, 7: 4}}
    asked = [f"Seat number {n}, your vote?" for n in ("one", "two", "three", "two", "three", "four", "five", "six",
                                                  "seven")]
    assert said == asked + [
        "Seat number three, seven votes; seat number five, two votes; seat number four, one vote. Seat number three is eliminated?",
        "Seat number seven, your vote?",
        "Seat number three, six votes; seat number four, two votes; seat number five, two votes. Seat number three is eliminated?"]
    answers, _, _ = keypad(["rollcall", "3", "enter", "undo", "undo", "6", "enter", "enter"])
    assert answered(answers, game) == 6


def test_a_ballot_for_nobody_counts_for_no_one_and_no_votes_eliminate_nobody() -> None:
    """Rulings, votes: a vote may end with nobody eliminated (votes_may_be_skipped, the default). Every voter
    says "nobody" (0): the tally reads "no votes" but the Raven's mark, which counts alone."""
    game = raven_vote()
    answers, said, _ = keypad(ballots_keys([None] * 7))
    assert answered(answers, game) == {"ballots": dict.fromkeys(range(1, 8))}
    assert said[-1] == "Seat number five, two votes. Seat number five is eliminated?"
    game = new_game(RAVEN_TABLE, sheriff=True)
    drive(game, ("sheriff_election", 1), ("raven", None), ("werewolves", 8))
    answers, said, _ = keypad(ballots_keys([None, 3] + [None] * 5))
    value = answered(answers, game)
    assert said[-1] == "Seat number three, one vote. Seat number three is eliminated?"
    answers, said, _ = keypad(ballots_keys([None] * 7))
    assert answered(answers, game) == {"ballots": dict.fromkeys(range(1, 8))}
    assert said[-1] == "No votes. Nobody is eliminated?"
    assert value == {"ballots": {1: None, 2: 3, 3: None, 4: None, 5: None, 6: None, 7: None}}


def test_a_revealed_idiot_is_not_asked_in_the_roll_call() -> None:
    """Rulings, fine points: "a revealed Idiot's ballot does not count": voted out and spared on day 1, seat 3
    is skipped by the roll call of day 2; the voters are asked in seat order without him."""
    game = new_game(["werewolf", "villager", "idiot", "villager", "villager", "werewolf", "villager"])
    drive(game, ("werewolves", 7), ("vote", 3), ("werewolves", 5))
    assert game.call is not None and game.call.id == "vote" and 3 in game.living()
    answers, said, _ = keypad(ballots_keys([2, 1, 1, 1]))
    assert answered(answers, game) == {"ballots": {1: 2, 2: 1, 4: 1, 6: 1}}
    assert [line for line in said if line.endswith("your vote?")] == [
        f"Seat number {n}, your vote?" for n in ("one", "two", "four", "six")]
    assert said[-1] == "Seat number one, three votes; seat number two, one vote. Seat number one is eliminated?"


def test_the_roll_call_asks_only_the_voters_the_scapegoat_named() -> None:
    """Rulings, fine points: the Scapegoat "names the voters" of the next vote: eliminated by day 1's tie, he
    names seats 2 and 4; day 2's roll call asks them alone, in seat order."""
    game = new_game(["werewolf", "villager", "scapegoat", "villager", "villager", "werewolf", "villager"])
    drive(game, ("werewolves", 7), ("vote", {"tie": [1, 2]}), ("scapegoat", [4, 2]), ("werewolves", 5))
    assert game.call is not None and game.call.id == "vote" and game.living() == (1, 2, 4, 6)
    answers, said, _ = keypad(ballots_keys([1, 1]))
    assert answered(answers, game) == {"ballots": {2: 1, 4: 1}}
    assert said == ["Seat number two, your vote?", "Seat number four, your vote?", "Seat number one, two votes. Seat number one is eliminated?"]


def test_a_ballot_for_an_eliminated_seat_is_refused_at_once_and_that_voter_asked_again() -> None:
    """A seat out of the vote (seat 8, devoured) is refused when typed, said why by day, and the same voter
    is asked again: the roll call is not lost at its end. Repeat asks the voter again too."""
    game = raven_vote()
    answers, said, _ = keypad(["rollcall", "repeat", "8", "enter"] + ballots_keys([5] * 7)[1:])
    assert answered(answers, game) == {"ballots": dict.fromkeys(range(1, 8), 5)}
    assert said[:4] == ["Seat number one, your vote?", "Seat number one, your vote?", "Seat number eight has been eliminated.",
                        "Seat number one, your vote?"]


class Silent:
    """A microphone that hears nothing: it notes what the screen asked while it listened, then leaves the
    answer to the keypad."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.prompts: list[str] = []
        self.footers: list[str] = []

    def answer(self, call: object, legal: object) -> object:
        self.prompts.append(self.screen.state.prompt)
        self.footers.append(self.screen.footers[-1])
        return KEYPAD


def test_while_the_table_speaks_its_vote_the_roll_call_key_is_on_the_screen_and_works() -> None:
    """By day the microphone listens first: the vote's keypad prompt, with V for the roll call, is on the
    screen meanwhile, and the roll call works once the keypad answers."""
    game = raven_vote()
    answers, said, _ = keypad(ballots_keys([5] * 7))
    silent = Silent(answers.screen)
    answers.devices = (SpokenAnswers(silent, frozenset({"day"})),)
    assert answered(answers, game) == {"ballots": dict.fromkeys(range(1, 8), 5)}
    assert silent.prompts == [load_voice("en").text("prompt.vote", {})]
    assert "V for a roll call" in silent.prompts[0]
    assert silent.footers == [load_voice("en").text("screen.keys_roll_call")]


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_the_vote_and_the_election_footers_show_the_roll_call_key(language: str) -> None:
    """The footer shows the keys that work now, in the table's language: V at the village's vote and at the
    Sheriff's election (then a seat for each ballot), and the prompt says so."""
    voice = load_voice(language)
    for game in (raven_vote(), new_game(RAVEN_TABLE, sheriff=True)):
        answers, _, shown = keypad(["rollcall", "undo", "6", "enter", "enter"], language)
        assert answered(answers, game) == 6
        footers = answers.screen.footers
        assert footers[0] == voice.text("screen.keys_roll_call") and "V" in footers[0]
        assert footers[1] == voice.text("screen.keys_number")  # seat 1's ballot, undone
    assert "V" in voice.text("prompt.election") and voice.text("prompt.election") in shown.getvalue()


# -- the Sheriff's election by roll call ---------------------------------------------------------------------

ELECTED = {"en": "Seat number two, four votes; seat number three, three votes. Seat number two is elected Sheriff?",
           "fr": "Joueur deux, quatre voix ; joueur trois, trois voix. Joueur deux devient Capitaine\xa0?",
           "zh": "二号四票；三号三票。二号当选警长？"}


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_the_sheriff_is_elected_by_a_roll_call_counted_by_the_engine_and_read_back_before_it_counts(
        language: str) -> None:
    """The election is a count of hands too. Every living player is asked in seat order, one vote
    each (nobody is Sheriff yet: no double; the Raven's mark is the day's vote's), the tally read back aloud as
    who is elected, and only the confirmed roll call elects."""
    game = new_game(RAVEN_TABLE, sheriff=True)
    assert game.call is not None and game.call.id == "sheriff_election"
    answers, said, shown = keypad(ballots_keys([2, 2, 3, 3, 3, None, 2, 2]), language)
    value = answered(answers, game)
    assert value == {"ballots": {1: 2, 2: 2, 3: 3, 4: 3, 5: 3, 6: None, 7: 2, 8: 2}}
    voice = load_voice(language)
    assert said[:8] == [voice.text("roll_call.voter", {"seat": n}) for n in range(1, 9)]
    assert said[8:] == [ELECTED[language]] and ELECTED[language] in shown.getvalue()
    game.answer(value)
    assert game.sheriff == 2


def test_an_election_roll_call_tied_goes_to_the_run_off_and_one_with_no_vote_is_refused() -> None:
    """A tie at the top of the count is the election's tie (a run-off among the tied, as typed with T); an
    election names a Sheriff: a roll call where everyone says nobody is refused, as 0 is."""
    from engine import IllegalAnswer

    game = new_game(RAVEN_TABLE, sheriff=True)
    answers, said, _ = keypad(ballots_keys([2, 3, 2, 3, None, None, None, None]))
    value = answered(answers, game)
    assert said[-1] == "Seat number two, two votes; seat number three, two votes. A tie between seat number two " \
        "and seat number three?"
    game.answer(value)
    assert game.call is not None and game.call.id == "sheriff_runoff" and game.call.seats == (2, 3)
    game = new_game(RAVEN_TABLE, sheriff=True)
    answers, said, _ = keypad(ballots_keys([None] * 8))
    value = answered(answers, game)
    with pytest.raises(IllegalAnswer) as refused:
        game.answer(value)
    assert refused.value.key == "refusal.need_seat" and game.sheriff is None


# -- journaled as a roll call, and resumed from it ------------------------------------------------------------

CONFIG = TableConfig("en", Table(8, tuple(RAVEN_TABLE), Rules(sheriff=True)), pause=(0.0, 0.0), call_floor=0.0)
DEAL = Deal(tuple(RAVEN_TABLE), ())
DAY_ONE = [5, 3, 3, 5, None, 2, 3]


def planned() -> tuple[list[str], int, Game]:
    """The keys of a whole game (random legal answers, the day-1 vote a roll call); where the roll call's
    last Enter falls; the game played ahead."""
    game = Game(CONFIG.table, DEAL)
    rng = random.Random(5)
    keys = ["enter"] * 3 * CONFIG.table.seats
    answers: dict[str, Answer] = {"sheriff_election": 1, "raven": 5, "werewolves": 8}
    confirmed = -1
    while not game.over:
        call = game.call
        assert call is not None
        if call.id == "vote" and confirmed < 0:
            value: Answer = {"ballots": dict(zip(game.living(), DAY_ONE))}
            keys += ballots_keys(DAY_ONE)
            confirmed = len(keys)
        else:
            value = answers.pop(call.id) if call.needs_answer and call.id in answers else (
                rng.choice(game.legal()) if call.needs_answer else None)
            keys += keys_for(call, value)
        keys += after(game.answer(value))
    return keys, confirmed, game


def table_game(keys: list[str], folder: Path) -> Game:
    folder.mkdir(exist_ok=True)
    return play_keys(CONFIG, keys, seed=1, start=NewGame(folder=folder, deal=DEAL), screen=Printed(io.StringIO()))


def journaled(folder: Path) -> tuple[Path, list[tuple[str, int, Any]]]:
    (path,) = folder.glob("*.jsonl")
    return path, [(e.call, e.number, e.answer) for e in read_journal(str(path))[1]]


def test_a_roll_call_is_journaled_as_its_ballots_and_a_game_resumed_after_it_ends_the_same(tmp_path: Path) -> None:
    """Rulings, votes: "a roll call of every ballot, which the engine counts". The keypad's roll call is
    journaled as the engine's roll-call answer; a game stopped right after it resumes from the journal (the
    ballots replayed and counted again, the Sheriff's double and the Raven's mark included) to the same end."""
    keys, confirmed, ahead = planned()
    whole = table_game(keys, tmp_path / "whole")
    assert whole.eliminated == ahead.eliminated and whole.outcome == ahead.outcome
    assert whole.eliminated[1].seat == 5 and whole.eliminated[1].cause == "vote"
    _, entries = journaled(tmp_path / "whole")
    vote = next(answer for call, _, answer in entries if call == "vote")
    assert {int(v): t for v, t in vote["ballots"].items()} == dict(zip(range(1, 8), DAY_ONE))

    with pytest.raises(EOFError):
        table_game(keys[:confirmed], tmp_path / "stopped")
    path, stopped = journaled(tmp_path / "stopped")
    assert stopped == entries[:len(stopped)] and ("vote", 1, vote) in stopped  # then calls that need no key
    header, replay = read_journal(str(path))
    config = config_from_journal(header, str(path))
    resumed = play_keys(config, keys[confirmed:], seed=header["seed"],
                        start=Resumed(Journal(path), deal=DEAL, replay=replay, replay_from=str(path)),
                        screen=Printed(io.StringIO()))
    assert resumed.eliminated == whole.eliminated and resumed.outcome == whole.outcome
    assert journaled(tmp_path / "stopped")[1] == entries
    assert [json.loads(line) for line in path.read_text().splitlines()].count({"undo": 1}) == 0


def test_ballots_cast_in_secret_count_as_any_and_name_only_voters_of_the_roll_call() -> None:
    """A roll call's ``secret`` (the voters who cast theirs on a phone) changes nothing in the count, and lists
    voters of that roll call only: anything else is refused."""
    table = Table(6, ("werewolf", "seer", "villager", "villager", "villager", "villager"), Rules(sheriff=False))
    game = Game(table, Deal(table.deck, ()))
    while game.call is not None and game.call.id != "vote":
        game.answer(game.legal()[0] if game.call.needs_answer else None)
    assert game.call is not None
    living = game.living()
    cast = {str(voter): living[0] for voter in living}
    for secret in ([living[0] + 100], "1", [None], [s for s in range(1, 7) if s not in living][:1] or [99]):
        with pytest.raises(IllegalAnswer):
            game.check({"ballots": cast, "secret": secret})
    plain, secret = Game(table, Deal(table.deck, ())), game
    while plain.call is not None and plain.call.id != "vote":
        plain.answer(plain.legal()[0] if plain.call.needs_answer else None)
    assert plain.answer({"ballots": cast}).facts == secret.answer({"ballots": cast, "secret": living[:2]}).facts
