"""The New Moon's morning draw (docs/rules.md, "The New Moon's morning draw"; the Chinese article, 新月牌): one event
card turned each morning after the victims, read by the most recently dead, and played. Each rule has its practice
script (tests/games/draw_*.yaml), which quotes its seed sentence, played to its end in every language."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from engine import Deal, Game, Phase, Rules, Table, deal_cards
from engine.events import CARDS, check_table
from engine.variants import cult_won
from engine.table import deal_events
from helpers import drive, play_keys, reach
from keystrokes import Recorder, after, answered_ahead, keys_for
from narrator.config import TableConfig, config_from_journal, load_config
from narrator.errors import UserError
from narrator.journal import Journal, read_journal
from narrator.narration import Line
from narrator.play import NewGame, Resumed
from narrator.practice import dry_run
from narrator.script import Script, load_script

GAMES = Path(__file__).resolve().parent / "games"
DRAWS = sorted(GAMES.glob("draw_*.yaml"))


def script(name: str, language: str = "en") -> Script:
    loaded, _ = load_script(str(GAMES / f"{name}.yaml"))
    return dataclasses.replace(loaded, config=dataclasses.replace(loaded.config, language=language))


def played(name: str, language: str = "en") -> tuple[Game, list[Line]]:
    return dry_run(script(name, language))  # raises RunFailed on any difference from the script's expect


def drawn(game: Game) -> list[tuple[int, str, int | None]]:
    """Returns each card turned: its day, its name and its reader (None: the narrator alone)."""
    found = []
    for call in game.calls:
        for fact in call.facts:
            if fact.key == "event.drawn":
                reader = fact.values.get("reader")
                found.append((call.number, str(fact.values["card"]), reader if isinstance(reader, int) else None))
    return found


def day_calls(game: Game, day: int) -> list[str]:
    return [c.id for c in game.calls if c.phase is Phase.DAY and c.number == day]


def seance_of(game: Game, day: int) -> dict[str, object]:
    (call,) = [c for c in game.calls if c.id == "event_seance" and c.number == day]
    return dict(call.facts[0].values)


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
@pytest.mark.parametrize("path", DRAWS, ids=[p.stem for p in DRAWS])
def test_every_draw_game_plays_to_its_end_in_every_language(path: Path, language: str) -> None:
    """The script's expect holds in every language; every line said is filled and says no digit."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# ") and '"' in text.splitlines()[0], "a draw's game quotes its seed sentence"
    game, lines = played(path.stem, language)
    said = [line for line in lines if line.channel == "voice"]
    assert any(line.key == "event.call" for line in said)
    assert all(line.text and "{" not in line.text for line in said)
    assert not any(ch.isascii() and ch.isdigit() for line in said for ch in line.text)


@pytest.mark.parametrize("path", DRAWS, ids=[p.stem for p in DRAWS])
def test_a_draw_game_resumes_at_every_call(path: Path) -> None:
    """Stopped at any call (a card waiting for its reader, a séance, a variant's first vote after its card), the game
    is rebuilt from its journal making the same call with the same facts, and the same variants playing."""
    game, _ = played(path.stem)
    deal = script(path.stem).deal
    going = Game(game.table, deal)  # played on answer by answer, as the table did
    for k, call in enumerate(game.calls):
        again = Game(game.table, deal, game.journal[:k])
        assert again.call is not None and again.call.id == call.id and again.call.facts == call.facts, (k, call.id)
        assert (again.call.phase, again.call.number, again.call.seats) == (call.phase, call.number, call.seats)
        assert again.variants == going.variants, (k, call.id)
        if k < len(game.journal):
            going.answer(game.journal[k])


def test_the_draw_comes_after_the_victims_the_growl_and_the_seance() -> None:
    """'在每天早上醒来、宣布完受害者之后，主持人翻开牌堆的第一张牌': the dawn, the growl, the Gypsy's séance, then the card, then
    the Town Crier, then the debate."""
    game, _ = played("draw_after_the_victims")
    assert day_calls(game, 1)[:6] == ["dawn", "growl", "seance", "event", "town_crier", "debate"]
    assert drawn(game) == [(1, "sunshine", 6), (2, "black_monday", 7)]


def test_the_card_is_read_by_the_most_recently_dead() -> None:
    """'由最近死亡的玩家大声朗读牌上的内容': of two victims told in seat order the last told (the poisoned seat 3 and the
    devoured seat 8: seat 8, whatever killed whom); after the Hunter's shot, the player he shot."""
    game, lines = played("draw_read_by_the_most_recently_dead")
    assert drawn(game) == [(1, "black_monday", 8), (2, "sunshine", 9)]
    reading = [line for line in lines if line.key == "event.drawn"]
    assert "Seat number eight" in reading[0].text and "Black Monday" in reading[0].text


def test_a_seance_card_makes_the_left_neighbour_of_the_last_dead_the_medium() -> None:
    """'坐在最近死亡的玩家左手边的玩家成为召魂师 … 召魂师将向第一个死亡的玩家提出卡片上的一个问题': the medium is the living
    player on the left of the most recently dead, the spirit the first to die, the card's questions said."""
    game, lines = played("draw_seance_card")
    assert seance_of(game, 1) == {"medium": 4, "recent": 3, "spirit": 3, "card": 2,
                                  "questions": "Is a Werewolf sitting next to me? Were you a villager?"}
    assert {k: v for k, v in seance_of(game, 2).items() if k != "questions"} == {"medium": 5, "recent": 4,
                                                                               "spirit": 3, "card": 4}
    assert [line.key for line in lines if line.key.startswith("event")].count("event.seance_read") == 2


def test_the_medium_is_the_nearest_living_player_on_the_left() -> None:
    """The left neighbour skips the eliminated (docs/rules.md, Seats and neighbours): seat 4 died before seat 3."""
    table = Table(8, ("werewolf", "villager", "villager", "villager", "seer", "villager", "werewolf", "villager"),
                  Rules(sheriff=False, events=("black_monday", "seance_1")))
    game = Game(table, Deal(table.deck, (), (), ("black_monday", "seance_1")))
    drive(game, ("seer", 7), ("werewolves", 4), ("chain_draw", 2), ("chain", 7), ("seer", 1), ("werewolves", 3))
    assert seance_of(game, 2) == {"medium": 5, "recent": 3, "spirit": 4, "card": 1}


def test_black_monday_starts_the_chain_of_innocence_the_same_day() -> None:
    """'此规则也可通过新月事件卡“黑色星期一”发动': the morning's card, then the day's vote is the chain, and every vote after."""
    game, _ = played("draw_black_monday_starts_the_chain")
    assert day_calls(game, 1)[:5] == ["dawn", "event", "debate", "chain_draw", "chain"]
    assert "vote" not in day_calls(game, 1) + day_calls(game, 2)
    assert game.variant("not_him") and game.table.rules.variants == ()


def test_sunshine_starts_the_cult_from_that_night() -> None:
    """'本规则只能在游戏开始前启用，或者通过新月事件卡“阳光普照”发动': the next victims are seduced, not killed; a seduced player
    voted out takes every seduced player along."""
    game, _ = played("draw_sunshine_starts_the_cult")
    assert [(e.seat, e.cause) for e in game.eliminated] == [(3, "werewolves"), (7, "vote"), (4, "vote"),
                                                            (6, "cult"), (1, "vote")]


def test_the_cards_are_turned_in_the_hosts_order() -> None:
    """'有经验的主持人可以按照自己的想法排列事件牌的顺序': events_order: listed turns them as the table lists them."""
    game, _ = played("draw_in_the_hosts_order")
    assert [card for _, card, _ in drawn(game)] == ["seance_3", "seance_1", "seance_5"]


def test_once_the_cards_run_out_nothing_is_drawn() -> None:
    """'主持人翻开牌堆的第一张牌': one card, turned the first morning; the second morning has no draw."""
    game, _ = played("draw_cards_run_out")
    assert drawn(game) == [(1, "seance_2", 3)]
    assert "event" in day_calls(game, 1) and "event" not in day_calls(game, 2)


def test_before_anyone_dies_the_narrator_reads_the_card_alone() -> None:
    """Nobody has died yet: no reader, the narrator reads it; a séance card, with no spirit, goes under the pile and
    comes back once the pile is through."""
    game, lines = played("draw_before_anyone_dies")
    assert drawn(game) == [(1, "seance_1", None), (2, "black_monday", 6), (3, "seance_1", 8)]
    assert [line.key for line in lines if line.key.startswith("event")][:3] == ["event.call", "event.drawn_alone",
                                                                                 "event.no_spirit"]
    assert seance_of(game, 3)["spirit"] == 6


def test_the_pile_is_shuffled_by_the_games_seed_alone() -> None:
    """The same seed turns the same cards in the same order, another seed (here) another order; the pile has a
    stream of its own, so the cards' deal does not move it."""
    rules = Rules(events=tuple(CARDS))
    table = Table(8, ("werewolf",) * 2 + ("villager",) * 6, rules)
    assert deal_events(table, 5) == deal_events(table, 5) == deal_cards(table, 5).events
    assert sorted(deal_events(table, 5)) == sorted(CARDS)
    assert len({deal_events(table, seed) for seed in range(20)}) > 1
    other = Table(8, ("werewolf",) * 3 + ("villager",) * 5, rules)
    assert deal_events(other, 5) == deal_events(table, 5)
    listed = Table(8, table.deck, dataclasses.replace(rules, events_order="listed"))
    assert deal_events(listed, 5) == tuple(CARDS)


def test_undo_takes_back_a_variant_a_card_began() -> None:
    """Undo replays the journal less its last answer: a variant begun after it is forgotten; a replay begins it at
    the same moment again."""
    table = Table(8, ("werewolf", "villager", "villager", "villager", "seer", "villager", "werewolf", "villager"),
                  Rules(sheriff=False, events=("black_monday",)))
    game = Game(table, Deal(table.deck))
    drive(game, ("seer", 7), ("werewolves", 3))
    reach(game, "chain_draw")
    assert game.call is not None and game.call.id == "chain_draw" and game.variant("not_him")
    replayed = Game(table, Deal(table.deck), game.journal)
    assert replayed.call is not None and replayed.call.id == "chain_draw" and replayed.variant("not_him")
    assert game.undo() and game.call is not None and game.call.id == "werewolves"
    assert not game.variant("not_him") and "not_him" not in game.variants


@pytest.mark.parametrize(("rules", "deck", "problem"), [
    ({"events": ("seance_1",)}, ("gypsy",), "the Gypsy holds the five séance cards"),
    ({"events": ("black_monday",), "variants": ("not_him",)}, (), "black_monday starts not_him, which the table "
                                                                 "plays from the start"),
    ({"events": ("sunshine",), "variants": ("black_death",)}, (), "black_death and cult cannot be played together"),
    ({"events": ("monday",)}, (), "unknown event card 'monday'"),
])
def test_event_cards_the_table_cannot_play_are_refused(rules: dict[str, object], deck: tuple[str, ...],
                                                       problem: str) -> None:
    table = Table(8, deck + ("werewolf",) * 2 + ("villager",) * (6 - len(deck)), Rules(**rules))  # type: ignore[arg-type]
    assert any(problem in error for error in check_table(table)), check_table(table)


def test_a_bad_event_card_is_named_with_its_line_in_the_table_config(tmp_path: Path) -> None:
    path = tmp_path / "table.yaml"
    path.write_text("seats: 8\ndeck: [gypsy, werewolf, werewolf, seer, villager, villager, villager, villager]\n"
                    "events: [black_monday, sunshin]\n", encoding="utf-8")
    with pytest.raises(UserError) as error:
        load_config(str(path))
    assert "table.yaml:3" in str(error.value) and "unknown event card 'sunshin'" in str(error.value)
    assert "sunshine" in str(error.value)  # the suggestion
    path.write_text("seats: 8\ndeck: [gypsy, werewolf, werewolf, seer, villager, villager, villager, villager]\n"
                    "events: [seance_2]\n", encoding="utf-8")
    with pytest.raises(UserError) as error:
        load_config(str(path))
    assert "table.yaml:3" in str(error.value) and "Gypsy holds the five séance cards" in str(error.value)


def test_a_table_config_keeps_the_hosts_order_and_the_journal_too(tmp_path: Path) -> None:
    path = tmp_path / "table.yaml"
    path.write_text("seats: 8\ndeck: [werewolf, werewolf, seer, villager, villager, villager, villager, villager]\n"
                    "events: [sunshine, seance_4, black_monday]\nevents_order: listed\n", encoding="utf-8")
    config, _ = load_config(str(path))
    assert config.table.rules.events == ("sunshine", "seance_4", "black_monday")
    assert config.table.rules.events_order == "listed"


# -- resumed in the middle of a morning, a card drawn --------------------------------------------------------------

DRAW_TABLE = TableConfig("en", Table(8, ("werewolf", "werewolf", "seer", "witch", "villager", "villager", "villager",
                                         "villager"),
                                     Rules(sheriff=False, events=("seance_3", "sunshine", "black_monday", "seance_5"))),
                         pause=(0.0, 0.0))
SEED = 11


def test_a_game_stopped_as_a_card_is_read_turns_the_same_card_when_resumed(tmp_path: Path) -> None:
    """Stopped as the first morning's card waits (shuffled by the seed), the game goes on from its journal: the same
    card, the same reader, the same end."""
    game = Game(DRAW_TABLE.table, deal_cards(DRAW_TABLE.table, SEED))
    keys = ["enter"] * 3 * DRAW_TABLE.table.seats
    stop = 0
    for call, value, step in answered_ahead(game, random.Random(SEED)):
        if call.id == "event" and not stop:
            stop = len(keys)  # the keys run out as the card's call waits for its Enter
        keys += keys_for(call, value) + after(step)
    assert stop, "the planned game draws a card"
    first = drawn(game)[0]
    spoken = Recorder()
    folder = tmp_path / "game"
    folder.mkdir()
    with pytest.raises(EOFError):
        play_keys(DRAW_TABLE, keys[:stop], seed=SEED, start=NewGame(folder=folder), speaker=spoken)
    (journal,) = folder.glob("*.jsonl")
    before = [text for text in spoken.said if read_out(text)]
    header, entries = read_journal(str(journal))
    config = config_from_journal(header, f"{journal}:1")
    again = Recorder()
    resumed = play_keys(config, keys[stop:], seed=header["seed"], speaker=again,
                        start=Resumed(Journal(journal), deal=Deal(tuple(header["deal"]), tuple(header["centre"])),
                                      replay=entries, replay_from=str(journal)))
    assert drawn(resumed)[0] == first
    assert resumed.outcome == game.outcome and resumed.eliminated == game.eliminated
    assert before and [text for text in again.said if read_out(text)][0] == before[-1]
    assert spoken.said[-1] == before[-1]  # stopped as that card waits: the last line said before the stop


def read_out(text: str) -> bool:
    """Returns whether ``text`` is the English line that names the card turned and its reader."""
    return text.startswith("It is") and ("reads it aloud" in text or "I read it" in text)



def test_the_cults_werewolves_have_not_won_while_the_white_werewolf_lives() -> None:
    """'当场上只剩一名村民没有被引诱时，狼人获胜', and while the White Werewolf lives the werewolves have not won (docs/rules.md,
    Victory): counted as a werewolf, he once gave the werewolves a win with no winner (found by random tables that
    turn Sunshine)."""
    table = Table(6, ("werewolf", "white_werewolf", "villager", "villager", "villager", "villager"),
                  Rules(sheriff=False, variants=("cult",)))
    game = Game(table, Deal(table.deck))
    for seat in (4, 5, 6):
        game.state.kill(seat, "vote")
    assert not cult_won(game)  # the pack's werewolf, the White Werewolf and one villager
    game.state.kill(1, "vote")
    assert not cult_won(game)  # the White Werewolf and a villager: no werewolf of the pack's team
    other = Game(table, Deal(table.deck))
    for seat in (2, 4, 5, 6):
        other.state.kill(seat, "vote")
    assert cult_won(other)  # the pack's werewolf and one villager unseduced
