"""`simulate` (simple strategies playing whole games through the engine) and `check`'s
warning about lopsided decks."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from engine import Deal, Game, Kind, Rules, Table, deal_cards, preset
from engine.strategy import MAX_CALLS, MODELS, Player, play, winner
from helpers import new_game, reach
from narrator.cli import main
from narrator.simulate import (CHECK_LOOKS, FAIR, DeckOptions, Result, bar, deadlocks, decided, lopsided, parse_deck,
                               sequential, simulate, table_from_options, wilson)
from narrator.voices import load_voice
from test_properties import WINNERS, tables

EN = load_voice("en")

EIGHT = ["werewolf", "seer", "villager", "villager", "werewolf", "villager", "villager", "villager"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Stage.explicit, Stage.reuse, Stage.generate))
@given(tables(), st.integers(0, 2**31), st.sampled_from(MODELS))
def test_strategies_always_give_legal_answers(table: Table, seed: int, model: str) -> None:
    """Every answer a strategy gives is one the running call accepts, and every game ends with a winner,
    whatever the deck, the house rules and the deal (every character in engine/roles)."""
    game = Game(table, deal_cards(table, seed))
    player = Player(game, random.Random(seed), model)
    while not game.over:
        # The two stalemates once left open (the Barkeeper sheltered from the bite and the vote; the Prejudiced
        # Manipulator against the last of the other group) end now: the Barkeeper cannot be named, and two
        # players left for two quiet rounds end the game with no winner (docs/rules.md). No game may run on.
        assert len(game.calls) <= MAX_CALLS, f"a game that never ends: {table.deck}, living {game.living()}"
        call = game.call
        assert call is not None
        value = player.answer()
        game.check(value)  # raises IllegalAnswer if the strategy broke a rule
        if call.needs_answer and call.kind is not Kind.VOTE:  # votes are roll calls, not in legal()
            assert value in game.legal(), (call.id, value)
        player.observe(game.answer(value))
    assert winner(game) in WINNERS


def test_a_strategy_plays_the_same_game_from_the_same_seed() -> None:
    """A game is decided by its seed alone: the same seed deals and plays the same game."""
    table = Table(12, preset("classic", 12))
    for model in MODELS:
        first, again = play(table, 77, model), play(table, 77, model)
        assert first.journal == again.journal and first.outcome == again.outcome


def test_the_seer_model_votes_out_the_werewolf_she_found_and_spares_those_she_cleared() -> None:
    """Seer model: what she saw is public; every villager votes for the werewolf she found, and nobody of
    the village votes for a player she cleared."""
    game = new_game(EIGHT)
    player = Player(game, random.Random(3), "seer")
    reach(game, "seer")
    game.answer(1)
    player.knows.looks = {1: True, 3: False}
    player.knows.telling = 2
    reach(game, "werewolves")
    game.answer(4)
    while game.call is not None and game.call.id != "vote":
        player.step()
    call = game.call
    for voter in game.living():
        for _ in range(10):
            target = player.ballot(voter, call.seats)
            if voter not in (1, 5):
                assert target == 1, (voter, target)
            assert target != 3
    assert player.answer() == 1


def test_the_hunt_model_devours_the_seer_the_night_after_she_accuses() -> None:
    """Hunt model: she keeps quiet until she finds a werewolf, accuses it the next day (the village votes
    it out), and the werewolves devour her the next night."""
    game = new_game(EIGHT)
    player = Player(game, random.Random(5), "hunt")
    reach(game, "seer")
    player.step()
    player.knows.looks = {1: True}  # whatever she looked at, say it was the werewolf at seat 1
    player.knows.telling = 2
    reach(game, "werewolves")
    game.answer(4)
    assert player.knows.found == set()  # nothing is public before the day
    while game.call is not None and game.call.id != "vote":
        player.step()
    assert player.knows.found == {1} and player.knows.seer == 2
    player.step()
    assert not game.alive(1)
    while game.call is not None and game.call.id != "werewolves":
        player.step()
    assert player.answer() == 2


def test_a_seer_devoured_the_night_of_her_find_tells_nothing() -> None:
    """The eliminated do not speak: a Seer devoured the night she found a werewolf takes it with her."""
    for model in ("seer", "hunt"):
        game = new_game(EIGHT)
        player = Player(game, random.Random(5), model)
        reach(game, "seer")
        player.step()
        player.knows.looks = {1: True}
        player.knows.telling = 2
        reach(game, "werewolves")
        game.answer(2)
        while game.call is not None and game.call.id != "vote":
            player.step()
        assert not game.alive(2) and player.knows.found == set() and player.knows.seer is None


def test_the_pack_never_devours_a_werewolf_in_the_informed_models() -> None:
    """Seer and hunt models: the werewolves know each other and devour a villager."""
    for model in ("seer", "hunt"):
        for seed in range(20):
            game = new_game(EIGHT)
            player = Player(game, random.Random(seed), model)
            reach(game, "seer")
            player.step()
            reach(game, "werewolves")
            victim = player.answer()
            assert victim in (2, 3, 4, 6, 7, 8)


def test_a_seed_gives_the_same_figures_whatever_the_number_of_jobs() -> None:
    """Game i of a run is played from the run's seed and i alone: one job or two, the figures agree."""
    table = Table(8, preset("classic", 8))
    one = simulate(table, 40, "hunt", seed=9, jobs=1)
    two = simulate(table, 40, "hunt", seed=9, jobs=2)
    assert one.wins == two.wins and sum(one.wins.values()) == 40


def test_the_wilson_interval_holds_the_rate() -> None:
    low, high = wilson(30, 100)
    assert low < 0.30 < high and high - low < 0.2
    assert wilson(100, 100)[1] == 1.0 and wilson(100, 100)[0] > 0.96


def test_a_lopsided_deck_is_named_with_the_side_and_its_figure() -> None:
    """A side winning above the band is named with its rate; a balanced result gives no warning."""
    heavy = Result("hunt", 1000, {"werewolves": 900, "village": 100}, 1.0, 1)
    (warning,) = lopsided(heavy, EN)
    assert "werewolves win 90.0%" in warning and f"{FAIR[0]:.0%} to {FAIR[1]:.0%}" in warning
    assert lopsided(Result("hunt", 1000, {"werewolves": 500, "village": 480, "lovers": 20}, 1.0, 1), EN) == []
    (village,) = lopsided(Result("hunt", 1000, {"werewolves": 100, "village": 900}, 1.0, 1), EN)
    assert village.startswith("the village wins 90.0%")


def test_check_stops_once_its_verdict_is_decided() -> None:
    """`check` plays only as many games as its verdict needs: the classic deck is decided at one of the first looks, a
    hopeless one at the first, and its games are simulate's first ones (the same seed, whatever the jobs)."""
    classic = Table(8, preset("classic", 8))
    quick = sequential(classic, 2000, jobs=2)
    assert quick.games in CHECK_LOOKS[:2] and decided(quick)
    assert quick.wins == simulate(classic, quick.games, "hunt", seed=1, jobs=1).wins == sequential(classic, 2000,
                                                                                                  jobs=1).wins
    hopeless = sequential(Table(6, ("werewolf",) * 4 + ("seer", "villager")), 2000, jobs=1)
    assert hopeless.games == CHECK_LOOKS[0] and hopeless.rate("werewolves") == 1.0


def test_check_plays_every_game_of_its_cap_when_a_side_is_on_the_edge() -> None:
    """A side whose interval straddles a bound of the FAIR band is not decided: more games are played, up to the cap."""
    edge = Result("hunt", 400, {"village": 100, "werewolves": 300}, 0.0, 1)
    assert not decided(edge)
    assert decided(Result("hunt", 400, {"village": 60, "werewolves": 340}, 0.0, 1))  # wholly outside: lopsided
    stopped = sequential(Table(6, ("werewolf",) * 4 + ("seer", "villager")), 80, jobs=1)
    assert stopped.games == 80  # a cap below every look: the cap is the only look


def test_a_deck_that_can_deadlock_is_warned_about_with_its_share() -> None:
    """Games still running after MAX_CALLS calls make `check` warn that the deck can deadlock, with the
    share; none, no warning."""
    (warning,) = deadlocks(Result("hunt", 2000, {"village": 1900, "werewolves": 88, "unfinished": 12}, 1.0, 1), EN)
    assert warning.startswith("12 of 2,000 simulated games (0.6%, hunt model) never ended") and "deadlock" in warning
    assert deadlocks(Result("hunt", 2000, {"village": 1000, "werewolves": 1000}, 1.0, 1), EN) == []


def test_simulate_reports_the_unfinished_share_of_every_strategy(capsys: pytest.CaptureFixture[str]) -> None:
    """Every strategy's share of unfinished games is printed, 0 included."""
    assert main(["simulate", "--deck", "werewolf*2,seer,villager*5", "--games", "20", "--strategy", "all",
                 "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    for model in MODELS:
        assert f"{model} unfinished: 0 of 20 games (0.0%)" in out


def test_the_stalemates_once_unfinished_now_end_with_nobody_winning() -> None:
    """The two stalemates simulate once counted as unfinished end: a Prejudiced Manipulator against the last of
    the other group, no Sheriff, the votes tying forever — two quiet rounds, then nobody wins."""
    game = Game(Table(6, ("prejudiced_manipulator", "werewolf", "villager", "villager", "villager", "villager"),
                      Rules(sheriff=False), groups=((1, 2, 3), (4, 5, 6))),
                Deal(("prejudiced_manipulator", "werewolf", "villager", "villager", "villager", "villager")))
    for seat in (2, 3, 5, 6):  # the werewolf, then the others but the Manipulator and seat 4, voted out
        while game.call is not None and game.call.id != "vote":
            game.answer(None)
        game.answer(seat)
    while game.call is not None and not game.over and len(game.calls) < 200:
        game.answer({"tie": [1, 4]} if game.call.id in ("vote", "revote") else None)
    assert game.outcome is not None and (game.outcome.winner, game.outcome.reason) == ("nobody", "stalemate")
    assert game.living() == (1, 4)


def test_the_deck_option_reads_ids_commas_and_counts() -> None:
    assert parse_deck(["werewolf*2,seer", "villager"]) == ("werewolf", "werewolf", "seer", "villager")
    assert bar(1.0, 10) == "█" * 10 and bar(0.55, 10).startswith("█████▌")


def test_simulate_prints_the_win_rates_of_every_strategy(capsys: pytest.CaptureFixture[str]) -> None:
    """The command end to end: a table of wins, rates and intervals per strategy and team, bars, speed."""
    code = main(["simulate", "--deck", "werewolf*2,seer,villager*5", "--games", "30", "--strategy", "all",
                 "--jobs", "1", "--seed", "4"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "30 games a strategy, 8 players: werewolf×2, seer, villager×5" in out
    for word in ("random", "seer", "hunt", "village", "werewolves", "95% interval", "█", "games/s"):
        assert word in out
    again = main(["simulate", "--deck", "werewolf*2,seer,villager*5", "--games", "30", "--strategy", "all",
                  "--jobs", "2", "--seed", "4"])
    assert again == 0
    assert capsys.readouterr().out.split("\n")[:10] == out.split("\n")[:10]  # the same figures


def test_simulate_reads_a_preset_or_a_table_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--preset", "classic", "--seats", "9", "--games", "10", "--jobs", "1"]) == 0
    assert "9 players" in capsys.readouterr().out
    (tmp_path / "table.yaml").write_text("seats: 6\ndeck: [werewolf, werewolf, seer, villager, villager, "
                                         "villager]\nsheriff: false\n", encoding="utf-8")
    assert main(["simulate", "--config", str(tmp_path / "table.yaml"), "--games", "10", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "6 players" in out and "(no Sheriff)" in out


@pytest.mark.parametrize("args, says", [
    (["--deck", "werewolf*2,seer,villagr*5"], "unknown character 'villagr'"),
    (["--deck", "werewolf*x"], "id*N"),
    (["--deck", "werewolf", "seer", "villager"], "a table has 6 to 47 players"),
    (["--deck", "seer*1,villager*5"], "no werewolf card"),
    (["--preset", "classic"], "--seats"),
    (["--preset", "classic", "--seats", "30"], "no column for 30 players"),
    (["--deck", "werewolf*2,villager*4", "--preset", "classic"], "one of --deck, --config or --preset"),
    ([], "one of --deck, --config or --preset"),
    (["--config", "nowhere.yaml"], "nowhere.yaml"),
], ids=["unknown-card", "bad-count", "too-few", "no-werewolf", "preset-without-seats", "preset-too-big",
        "two-decks", "no-deck", "missing-config"])
def test_simulate_refuses_bad_input_clearly(args: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad options get a message naming what is wrong, status 1, never a traceback."""
    assert main(["simulate", *args]) == 1
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and "internal error" not in err


@pytest.mark.parametrize("option, value, says", [
    ("--games", "0", "from 1 to 10,000,000"), ("--games", "10000001", "from 1 to 10,000,000"),
    ("--jobs", "0", "from 1 to 256"), ("--seed", "-1", "from 0 to")])
def test_simulate_refuses_a_number_out_of_range_as_a_command_line_mistake(
        option: str, value: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A count out of range is a mistake on the command line: argparse names the option, status 2."""
    with pytest.raises(SystemExit) as exited:
        main(["simulate", "--deck", "werewolf*2,villager*4", option, value])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and f"argument {option}: '{value}'" in err and says in err


def test_check_warns_about_a_lopsided_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Four werewolves among six players: `check` names the werewolves and their win rate; the config is
    still sound (status 0), and --no-simulate skips the simulation."""
    (tmp_path / "table.yaml").write_text("seats: 6\ndeck: [werewolf, werewolf, werewolf, werewolf, seer, "
                                         "villager]\n", encoding="utf-8")
    assert main(["check", str(tmp_path / "table.yaml")]) == 0
    err = capsys.readouterr().err
    # Decided at the first look: 100 games, and the margin of their 95% interval.
    assert "the werewolves win 100.0% ± 1.8% of 100 simulated games" in err and "lopsided" in err
    assert main(["check", "--no-simulate", str(tmp_path / "table.yaml")]) == 0
    assert "simulated" not in capsys.readouterr().err


def test_check_is_quiet_about_the_classic_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "table.yaml").write_text("seats: 8\npreset: classic\n", encoding="utf-8")
    assert main(["check", str(tmp_path / "table.yaml")]) == 0
    assert capsys.readouterr().err == ""


# -- simulate --config: the config's table whole ---------------------------------------------------------------

def _options(config: Path) -> DeckOptions:
    return DeckOptions(config=str(config))


def test_simulate_config_keeps_the_buildings_the_groups_and_the_actors_cards(tmp_path: Path) -> None:
    """The Village's buildings, the Actor's cards and the séance cards are the table's: simulated without them, a
    village deck showed other figures, and an Actor's table stopped with an internal error."""
    village = table_from_options(_options(Path(__file__).resolve().parent.parent / "examples" / "village-zh.yaml"))
    assert village.buildings
    actor = tmp_path / "actor.yaml"
    actor.write_text("language: en\ndeck: [actor, werewolf, seer, werewolf, villager, villager, villager, villager]\n"
                     "actor_cards: [hunter, witch, fox]\n", encoding="utf-8")
    assert table_from_options(_options(actor)).actor_cards == ("hunter", "witch", "fox")
    assert main(["simulate", "--config", str(actor), "--games", "20", "--seed", "1"]) == 0


def test_simulate_config_plays_the_black_death_without_werewolves(tmp_path: Path) -> None:
    plague = tmp_path / "plague.yaml"
    plague.write_text("language: en\ndeck: [seer, witch, hunter, elder, villager, villager, villager, villager]\n"
                      "variants: [black_death]\n", encoding="utf-8")
    assert main(["simulate", "--config", str(plague), "--games", "20", "--seed", "1"]) == 0
