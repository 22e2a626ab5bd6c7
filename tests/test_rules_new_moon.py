"""The New Moon characters (docs/rules.md, "The New Moon"; the Chinese article): the Guard (Salvateur), the
Village Idiot and the Scapegoat."""

from __future__ import annotations

from engine import Game
from engine.calls import call_kinds
from engine.types import Fact, Kind, Phase
from helpers import call_ids, drive, eliminated, made, made_once, new_game, reach, refused, said

NO_POTION = {"heal": False, "poison": None}


def dawn_victims(game: Game, day: int) -> list[int]:
    """Returns the seats revealed at the dawn of ``day``, in order."""
    dawn = made_once(game, "dawn", day, Phase.DAY)
    return [int(str(f.values["seat"])) for f in dawn.facts if f.key == "victim"]


# -- the Guard -------------------------------------------------------------------------------------

GUARDED = ["guard", "werewolf", "villager", "villager", "villager", "villager", "villager", "villager"]


def test_guard_is_called_every_night_before_the_werewolves() -> None:
    """docs/rules.md: Guard (Salvateur): wakes before the werewolves — call `guard`, a seat or null."""
    game = new_game(GUARDED)
    call = reach(game, "guard")
    assert call.actors == (1,) and call.kind is Kind.SEAT and call.optional
    drive(game, ("guard", 3), ("werewolves", 4), ("vote", None), ("guard", 5))
    assert call_kinds()["guard"] is Kind.SEAT
    assert made_once(game, "guard", 2).live


def test_guard_protects_from_the_pack() -> None:
    """'protects one player … from the werewolves' bite that night': no victim, no life lost."""
    game = new_game(GUARDED)
    drive(game, ("guard", 3), ("werewolves", 3))
    assert dawn_victims(game, 1) == [] and game.alive(3)


def test_guard_may_protect_himself() -> None:
    """docs/rules.md: protects one player (himself allowed)."""
    game = new_game(GUARDED)
    drive(game, ("guard", 1), ("werewolves", 1))
    assert game.alive(1) and eliminated(game) == []


def test_guard_may_pass() -> None:
    """docs/rules.md: The Seer and the Guard may pass (`null`)."""
    game = new_game(GUARDED)
    drive(game, ("guard", None), ("werewolves", 3))
    assert eliminated(game) == [(3, "werewolves")]


def test_guard_never_protects_the_same_player_two_nights_running() -> None:
    """'never the same player two nights running' — refused on the screen only (who was protected is secret)."""
    game = new_game(GUARDED)
    drive(game, ("guard", 3), ("werewolves", 4), ("vote", None))
    reach(game, "guard")
    error = refused(game, 3)
    assert error.secret and error.key == "refusal.guarded_twice"
    drive(game, ("guard", 5), ("werewolves", 6), ("vote", None))
    reach(game, "guard")
    assert 3 in game.legal() and 5 not in game.legal()


def test_guard_may_protect_again_after_a_night_without_protecting() -> None:
    """The rule is 'two nights running': a night in between without that protection frees the player."""
    game = new_game(GUARDED)
    drive(game, ("guard", 3), ("werewolves", 4), ("vote", None), ("guard", None), ("werewolves", 5),
          ("vote", None))
    reach(game, "guard")
    assert 3 in game.legal()


def test_guard_protects_from_the_big_bad_wolf() -> None:
    """docs/rules.md: The Guard protects against every werewolf kill (the pack, the Big Bad Wolf, …)."""
    game = new_game(["guard", "big_bad_wolf", "werewolf", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("guard", 5), ("werewolves", 4), ("big_bad_wolf", 5))
    assert eliminated(game) == [(4, "werewolves")]


def test_guard_protects_from_the_white_werewolf() -> None:
    """docs/rules.md: '… and the White Werewolf'."""
    game = new_game(["guard", "white_werewolf", "werewolf", "villager", "villager", "villager", "villager",
                     "villager", "villager"])
    drive(game, ("guard", None), ("werewolves", 4), ("vote", None),
          ("guard", 3), ("werewolves", 5), ("white_werewolf", 3))
    assert game.alive(3) and dawn_victims(game, 2) == [5]


def test_guard_does_not_protect_from_poison() -> None:
    """'The protection does not stop poison': the Witch's poison kills the protected player."""
    game = new_game(["guard", "werewolf", "witch", "villager", "villager", "villager", "villager", "villager"])
    drive(game, ("guard", 4), ("werewolves", 5), ("witch", {"heal": False, "poison": 4}))
    assert eliminated(game) == [(4, "poison"), (5, "werewolves")]


def test_guard_does_not_stop_infection() -> None:
    """'The protection does not stop … infection': the protected victim is infected all the same."""
    game = new_game(["guard", "infected_father", "villager", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("guard", 3), ("werewolves", 3), ("infected_father", True))
    assert game.marked(3, "infected") and game.is_werewolf(3)


def test_guard_does_not_stop_the_charm() -> None:
    """'The protection does not stop … the charm'."""
    game = new_game(["guard", "werewolf", "piper", "villager", "villager", "villager", "villager", "villager"])
    drive(game, ("guard", 4), ("werewolves", 5), ("piper", [4, 6]))
    assert game.marked(4, "charmed")


def test_guard_does_not_protect_the_little_girl() -> None:
    """docs/rules.md: The Guard protects against every werewolf kill …, not the Little Girl (the Chinese article: his
    protection has no effect on her)."""
    game = new_game(["guard", "werewolf", "little_girl", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("guard", 3), ("werewolves", 3))
    assert eliminated(game) == [(3, "werewolves")]


def test_guard_protection_keeps_the_elder_life() -> None:
    """docs/rules.md: a heal or a protection cancels an attack (no life lost) — two bites still needed."""
    game = new_game(["guard", "werewolf", "elder", "villager", "villager", "villager", "villager", "villager"])
    drive(game, ("guard", 3), ("werewolves", 3), ("vote", None), ("guard", None), ("werewolves", 3))
    assert game.alive(3)
    drive(game, ("vote", None), ("guard", None), ("werewolves", 3))
    assert eliminated(game) == [(3, "werewolves")]


def test_guard_loses_power_after_elder_penalty() -> None:
    """docs/rules.md: 'Villagers' powers lost after the Elder's penalty: …, Guard, …'."""
    game = new_game(["guard", "werewolf", "elder", "villager", "villager", "villager", "villager", "villager"])
    drive(game, ("guard", None), ("werewolves", 4), ("vote", 3), ("werewolves", 5))
    assert not made_once(game, "guard", 2).live and dawn_victims(game, 2) == [5]


# -- the Idiot -------------------------------------------------------------------------------------

IDIOT = ["idiot", "werewolf", "villager", "villager", "villager", "villager", "villager", "villager"]


def test_idiot_voted_out_is_revealed_and_stays_in_the_game() -> None:
    """'voted out by the village, he reveals his card and stays in the game (not eliminated)' — said aloud."""
    game = new_game(IDIOT)
    step = drive(game, ("werewolves", 3), ("vote", 1))[-1]
    assert game.alive(1) and eliminated(game) == [(3, "werewolves")]
    assert Fact("idiot.revealed", {"seat": 1}) in step.facts and game.marked(1, "revealed")
    assert not any(f.key == "vote.nobody" for f in step.facts)


def test_idiot_never_votes_again_his_ballot_refused_aloud() -> None:
    """'… but never votes again': in a roll call his ballot is refused aloud (his card is public), never silently
    counted as nothing (docs/rules.md); the roll call without it is counted."""
    game = new_game(IDIOT)
    drive(game, ("werewolves", 3), ("vote", 1), ("werewolves", 4))
    reach(game, "vote")
    refusal = refused(game, {"ballots": {1: 5, 2: 5, 5: 6, 6: None}})
    assert refusal.key == "refusal.idiot_ballot" and not refusal.secret and refusal.values["seat"] == 1
    assert refused(game, {"ballots": {1: 5, 2: None}}).key == "refusal.idiot_ballot"
    drive(game, ("vote", {"ballots": {2: 5, 5: 6, 6: None}}))
    assert made_once(game, "revote", 2, Phase.DAY).seats == (5, 6) and game.alive(5)


def test_idiot_abstaining_in_a_roll_call_is_no_ballot() -> None:
    """A revealed Idiot who names nobody has cast no ballot: nothing to refuse."""
    game = new_game(IDIOT)
    drive(game, ("werewolves", 3), ("vote", 1), ("werewolves", 4))
    drive(game, ("vote", {"ballots": {1: None, 2: 5}}))
    assert eliminated(game)[-1] == (5, "vote")


def test_idiot_second_vote_eliminates_him() -> None:
    """docs/rules.md: The Idiot is spared by the vote once; a second vote … eliminates him."""
    game = new_game(IDIOT)
    drive(game, ("werewolves", 3), ("vote", 1), ("werewolves", 4), ("vote", 1))
    assert eliminated(game)[-1] == (1, "vote")


def test_idiot_vote_after_elder_penalty_eliminates_him() -> None:
    """docs/rules.md: … or a vote after the Elder's penalty, eliminates him."""
    game = new_game(["idiot", "werewolf", "elder", "villager", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 4), ("vote", 3), ("werewolves", 5), ("vote", 1))
    assert eliminated(game)[-1] == (1, "vote")


def test_idiot_dies_of_any_other_cause() -> None:
    """'Any other cause kills him' — the werewolves' bite, for one."""
    game = new_game(IDIOT)
    drive(game, ("werewolves", 1))
    assert eliminated(game) == [(1, "werewolves")]


def test_revealed_idiot_cannot_be_named_successor() -> None:
    """docs/rules.md: A revealed Idiot … cannot be named successor — a public refusal."""
    game = new_game(IDIOT, sheriff=True)
    drive(game, ("sheriff_election", 3), ("werewolves", 4), ("vote", 1), ("werewolves", 3))
    call = reach(game, "sheriff_successor")
    assert 1 not in call.seats
    error = refused(game, 1)
    assert not error.secret and error.key == "refusal.not_among"


def test_idiot_sheriff_revealed_ends_the_office_for_good() -> None:
    """docs/rules.md: 'if he was Sheriff, the office ends for good' — no successor, no double vote."""
    game = new_game(IDIOT, sheriff=True)
    step = drive(game, ("sheriff_election", 1), ("werewolves", 4), ("vote", 1))[-1]
    assert game.sheriff is None and Fact("sheriff.office_ends", {"seat": 1}) in step.facts
    assert made(game, "sheriff_successor", 1, Phase.DAY) is None
    drive(game, ("werewolves", 5), ("vote", 1))
    assert made(game, "sheriff_successor", 2, Phase.DAY) is None and game.sheriff is None


def test_idiot_loses_power_after_elder_penalty() -> None:
    """docs/rules.md: 'Villagers' powers lost after the Elder's penalty: …, Idiot'."""
    game = new_game(["idiot", "werewolf", "elder", "villager", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 4), ("vote", 3))
    assert game.penalty and not game.keeps_power(1)


# -- the Scapegoat ---------------------------------------------------------------------------------

GOAT = ["scapegoat", "werewolf", "villager", "villager", "villager", "villager", "villager", "villager"]


def test_scapegoat_is_eliminated_instead_of_the_tied() -> None:
    """'when a vote ends in a tie and he is alive, he is eliminated instead of anyone tied' (cause `scapegoat`)."""
    game = new_game(GOAT)
    drive(game, ("werewolves", 3), ("vote", {"tie": [4, 5]}))
    assert eliminated(game) == [(3, "werewolves"), (1, "scapegoat")]
    assert made(game, "revote", 1, Phase.DAY) is None


def test_scapegoat_takes_a_roll_call_tie() -> None:
    """A tie counted from a roll call is a tie too."""
    game = new_game(GOAT)
    drive(game, ("werewolves", 3), ("vote", {"ballots": {1: 4, 2: 5, 4: 5, 5: 4}}))
    assert eliminated(game)[-1] == (1, "scapegoat")


def test_scapegoat_takes_the_tie_before_the_sheriff_tiebreak() -> None:
    """docs/rules.md: … before any Sheriff tie-break or run-off."""
    game = new_game(GOAT, sheriff=True)
    drive(game, ("sheriff_election", 4), ("werewolves", 3), ("vote", {"tie": [5, 6]}))
    assert made(game, "sheriff_tiebreak", 1, Phase.DAY) is None
    assert eliminated(game)[-1] == (1, "scapegoat") and game.alive(5) and game.alive(6)


def test_dead_scapegoat_takes_no_tie() -> None:
    """'when a vote ends in a tie and he is alive': dead, the tie goes to the run-off."""
    game = new_game(GOAT)
    drive(game, ("werewolves", 1), ("vote", {"tie": [4, 5]}))
    assert made_once(game, "revote", 1, Phase.DAY).seats == (4, 5)


def test_scapegoat_names_the_voters_after_his_other_consequences() -> None:
    """docs/rules.md: he names the voters (living, at least one) after his other consequences."""
    game = new_game(GOAT, sheriff=True)
    drive(game, ("sheriff_election", 1), ("werewolves", 3), ("vote", {"tie": [4, 5]}), ("sheriff_successor", 4))
    assert [c.id for c in game.calls[-2:]] == ["sheriff_successor", "scapegoat"]
    call = game.call
    assert call is not None and call.actors == (1,) and call.kind is Kind.SEATS and 1 not in call.seats
    assert call_kinds()["scapegoat"] is Kind.SEATS
    assert refused(game, []).key == "refusal.no_voters"
    assert refused(game, [1]).key == "refusal.eliminated"
    assert refused(game, [4, 4]).key == "refusal.twice"
    drive(game, ("scapegoat", [4, 6, 7]))
    assert said(game, "scapegoat.voters") == [{"seats": [4, 6, 7]}]


def test_the_scapegoat_names_no_voters_when_his_death_ends_the_game() -> None:
    """docs/rules.md: he names the voters … after his other consequences, and only if the game goes on — the
    last villager but him gone, his death gives the werewolves the game: he is not asked."""
    game = new_game(["scapegoat", "werewolf", "villager", "werewolf", "villager", "villager"])
    drive(game, ("werewolves", 3), ("vote", 5), ("werewolves", 6), ("vote", {"tie": [2, 4]}))
    assert eliminated(game)[-1] == (1, "scapegoat")
    assert game.outcome is not None and game.outcome.winner == "werewolves"
    assert "scapegoat" not in call_ids(game) and game.call is None


def test_scapegoat_voters_alone_vote_in_the_next_vote() -> None:
    """'names the players allowed to vote in the next vote' — another's ballot is refused aloud (the list
    is public)."""
    game = new_game(GOAT)
    drive(game, ("werewolves", 3), ("vote", {"tie": [4, 5]}), ("scapegoat", [4, 6, 7]), ("werewolves", 8))
    reach(game, "vote")
    error = refused(game, {"ballots": {4: 5, 5: 4}})
    assert not error.secret and error.key == "refusal.not_a_voter"
    drive(game, ("vote", {"ballots": {4: 2, 6: 2, 7: 4, 5: None}}))
    assert eliminated(game)[-1] == (2, "vote")


def test_scapegoat_restriction_covers_the_run_off() -> None:
    """docs/rules.md: the restriction covers the next vote and its run-off."""
    game = new_game(GOAT + ["villager"])
    drive(game, ("werewolves", 3), ("vote", {"tie": [4, 5]}), ("scapegoat", [4, 6]), ("werewolves", 8),
          ("vote", {"ballots": {4: 6, 6: 4}}))
    assert refused(game, {"ballots": {5: 4}}).key == "refusal.not_a_voter"
    drive(game, ("revote", {"ballots": {4: 6, 6: 6}}))
    assert eliminated(game)[-1] == (6, "vote")


def test_scapegoat_restriction_ends_after_the_next_vote() -> None:
    """The restriction covers the next vote only: the vote after it is open to all."""
    game = new_game(GOAT + ["villager", "villager"])
    drive(game, ("werewolves", 3), ("vote", {"tie": [4, 5]}), ("scapegoat", [4]), ("werewolves", 8),
          ("vote", {"ballots": {4: 10}}), ("werewolves", 9))
    drive(game, ("vote", {"ballots": {5: 2, 6: 2, 7: 4}}))
    assert eliminated(game)[-1] == (2, "vote")


def test_scapegoat_keeps_power_after_elder_penalty() -> None:
    """docs/rules.md: Not lost: Thief, Scapegoat, …."""
    game = new_game(["scapegoat", "werewolf", "elder", "villager", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("werewolves", 4), ("vote", 3), ("werewolves", 5), ("vote", {"tie": [6, 7]}))
    assert game.penalty and eliminated(game)[-1] == (1, "scapegoat")


# -- the practice script, played in-process (the CLI needs the merged voice lines) -----------------


def test_new_moon_practice_script_plays_to_its_expected_end() -> None:
    """tests/games/new_moon_guard_idiot_scapegoat.yaml ends as its `expect:` says (docs/practice-scripts.md)."""
    from pathlib import Path

    import yaml

    from engine import Deal, Rules, Table

    script = yaml.safe_load((Path(__file__).parent / "games" / "new_moon_guard_idiot_scapegoat.yaml")
                            .read_text(encoding="utf-8"))
    deck, deal = script["table"]["deck"], script["deal"]
    game = Game(Table(len(deck), tuple(deck), Rules(sheriff=script["table"]["sheriff"])),
                Deal(tuple(deal[seat] for seat in range(1, len(deck) + 1))))
    drive(game, *(next(iter(item.items())) for item in script["answers"]))
    assert game.outcome is not None and game.outcome.winner == script["expect"]["winner"]
    assert [e.seat for e in game.eliminated] == script["expect"]["eliminated"]
