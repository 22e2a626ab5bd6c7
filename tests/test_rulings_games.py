"""The practice games of the rulings changed for issue 23 (tests/games/ruling_*.yaml), each quoting the seed sentence
it plays, played to their expected end in every language: the same answers, the same end, every line filled and
no digit said aloud."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine import ROLES, Deal, Game, IllegalAnswer, Play, Rules, Table
from engine.roles.wild_child import RoleModel, WildChild
from helpers import drive, new_game, reach
from narrator.narration import SCREEN, VOICE, Line, Narrator
from narrator.practice import RunFailed, dry_run
from narrator.script import load_script
from narrator.voices import load_voice

GAMES = sorted((Path(__file__).resolve().parent / "games").glob("ruling_*.yaml"))


def test_every_changed_ruling_has_its_practice_game() -> None:
    """Wild Child, the Elder, Moonlight, the Servant's lovers, the Barkeeper, the Vagabond, the stalemate."""
    names = {p.stem for p in GAMES}
    for ruling in ("wild_child", "elder", "moonlight", "servant", "barkeeper", "vagabond", "stalemate"):
        assert any(ruling in name for name in names), ruling


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_ruling_game_plays_to_its_end_in_every_language(path: Path, language: str) -> None:
    """The script's expect (winner, eliminations, and a stalemate's reason) holds whatever the table's language."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# ") and '"' in text.splitlines()[0], "a ruling's game quotes its seed sentence"
    script, _ = load_script(str(path))
    script = dataclasses.replace(script, config=dataclasses.replace(script.config, language=language))
    game, lines = dry_run(script)  # raises RunFailed on any difference from its expect
    assert game.outcome is not None and game.outcome.winner == script.expect_winner
    said = [line for line in lines if line.channel == "voice"]
    assert said and all(line.text and "{" not in line.text for line in said)
    assert not any(ch.isascii() and ch.isdigit() for line in said for ch in line.text)
    if script.expect_reason == "stalemate":
        assert said[-1].key == "end.stalemate"


def refusal_lines(game: Game, value: object, language: str) -> list[Line]:
    """Returns the lines the narrator gives for the running call's refusal of ``value``."""
    call = game.call
    assert call is not None
    with pytest.raises(IllegalAnswer) as refused:
        game.check(value)  # type: ignore[arg-type]
    lines: list[Line] = []
    Narrator(load_voice(language), lines.append).refuse(call, refused.value)
    return lines


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_the_revealed_idiots_ballot_is_refused_aloud_by_day(language: str) -> None:
    """A revealed Idiot's ballot in a roll call is refused aloud, naming him (his card is public)."""
    game = new_game(["werewolf", "idiot", "villager", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 3), ("vote", 2), ("werewolves", 4))
    reach(game, "vote")
    (line,) = refusal_lines(game, {"ballots": {2: 5, 5: 6}}, language)
    assert line.key == "refusal.idiot_ballot" and line.channel == VOICE
    assert load_voice(language).seat(2, ()).lower() in line.text.lower()


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_the_barkeeper_refused_on_the_screen_at_night_and_aloud_by_day(language: str) -> None:
    """The pack's choice of the Barkeeper is refused on the screen only; a vote naming him, aloud."""
    table = Table(6, ("werewolf",) + ("villager",) * 5, Rules(sheriff=False), buildings=("barkeeper",))
    game = Game(table, Deal(table.deck, (), ((3, "barkeeper"),)))
    reach(game, "werewolves")
    (night,) = refusal_lines(game, 3, language)
    assert night.key == "refusal.barkeeper" and night.channel == SCREEN
    drive(game, ("werewolves", 2), ("barkeeper", None))
    reach(game, "vote")
    (day,) = refusal_lines(game, 3, language)
    assert day.key == "refusal.barkeeper" and day.channel == VOICE


class NightAfterWildChild(WildChild):
    """The old reading: a villager until the night after his model's elimination."""

    def on_mark(self, game: Play, seat: int, cause: str) -> None:
        pass

    def at_nightfall(self, game: Play) -> None:
        model = game.kept(RoleModel).seat
        if model is not None and not game.alive(model):
            for seat in game.holders(self.id):
                game.mark(seat, "turned")


def test_the_old_wild_child_reading_fails_his_ruling_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Played with the Wild Child who turned only at the next nightfall, the ruling's game ends on the day his model
    is voted out, the village winning, and the run fails: the script has answers left."""
    monkeypatch.setitem(ROLES, "wild_child", NightAfterWildChild())
    script, _ = load_script(str(Path(__file__).resolve().parent / "games" / "ruling_wild_child_turns_at_once.yaml"))
    with pytest.raises(RunFailed, match=r"the game is over, but the script has (\d+ answers|an answer) left"):
        dry_run(script)
