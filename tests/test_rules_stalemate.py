"""A game that cannot end (docs/rules.md, "A game that cannot end"): the rulebooks repeat the turns "until a player or
group of players has fulfilled their victory condition" and give "victory to neither side" when nobody can; with
two players left, two rounds in a row with nobody eliminated end the game, and nobody wins."""

from __future__ import annotations

from engine.victory import STALEMATE_ROUNDS
from helpers import drive, new_game
from narrator.narration import Line, Narrator, end_key
from narrator.recap import build_recap, markdown
from narrator.voices import load_voice

SIX = ["werewolf", "villager", "villager", "villager", "villager", "villager"]


def two_left() -> list[tuple[str, object]]:
    """The answers that leave the werewolf at seat 1 and a villager at seat 6."""
    return [("werewolves", 2), ("vote", 3), ("werewolves", 4), ("vote", 5)]


def test_two_players_left_two_quiet_rounds_end_the_game_nobody_wins() -> None:
    """'victory to neither side': two players left, a night and its day twice with nobody eliminated."""
    game = new_game(SIX)
    drive(game, *two_left(), ("werewolves", None), ("vote", None))
    assert game.outcome is None and game.living() == (1, 6)
    drive(game, ("werewolves", None), ("vote", None))
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.winners, game.outcome.reason) == ("nobody", (), "stalemate")
    assert STALEMATE_ROUNDS == 2


def test_the_round_that_leaves_two_players_is_not_a_quiet_one() -> None:
    """A round counts as quiet only when it eliminated nobody: the one that left two players did."""
    game = new_game(SIX)
    drive(game, *two_left(), ("werewolves", None))
    assert game.outcome is None and game.call is not None and game.call.id == "vote"
    drive(game, ("vote", None))
    assert game.outcome is None


def test_quiet_rounds_with_more_players_are_play_not_a_stalemate() -> None:
    """docs/rules.md: 'Quiet rounds with more players are legitimate play … and never end a game'."""
    game = new_game(SIX)
    drive(game, ("werewolves", 2), ("vote", 3))
    for _ in range(4):
        drive(game, ("werewolves", None), ("vote", None))
    assert game.outcome is None and len(game.living()) == 4


def test_an_elimination_between_quiet_rounds_starts_the_count_again() -> None:
    """Two rounds *in a row* with two players left: a quiet round with three players counts for nothing, and the
    round that leaves two players starts the count afresh."""
    game = new_game(["werewolf", "werewolf", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 3), ("vote", 4), ("werewolves", 5))
    drive(game, ("vote", None))  # three left (1, 2, 6): a quiet round, but with three players
    drive(game, ("werewolves", None), ("vote", 1))  # two left (2, 6)
    assert game.outcome is None and game.living() == (2, 6)
    drive(game, ("werewolves", None), ("vote", None))
    assert game.outcome is None
    drive(game, ("werewolves", None), ("vote", None))
    assert game.outcome is not None and game.outcome.reason == "stalemate"


def test_nobody_left_alive_is_told_by_its_own_line_not_the_stalemates() -> None:
    """No survivors says 'nobody is left alive'; the stalemate says why nobody wins, in every language."""
    game = new_game(SIX)
    drive(game, *two_left(), ("werewolves", None), ("vote", None), ("werewolves", None), ("vote", None))
    assert game.outcome is not None and end_key(game.outcome) == "end.stalemate"
    for language in ("en", "fr", "zh"):
        lines: list[Line] = []
        Narrator(load_voice(language), lines.append).finish(game)
        assert lines[0].key == "end.stalemate" and lines[0].channel == "voice" and lines[0].text
        assert not any(ch.isdigit() for ch in lines[0].text)


def test_the_recap_says_why_nobody_won() -> None:
    """The recap's result is the stalemate's line, in every language: why the game ended with no winner."""
    game = new_game(SIX)
    drive(game, *two_left(), ("werewolves", None), ("vote", None), ("werewolves", None), ("vote", None))
    for language in ("en", "fr", "zh"):
        voice = load_voice(language)
        recap = build_recap(game, voice)
        assert recap.result == [voice.text("end.stalemate", {})]
        assert recap.result[0] in markdown(recap)
