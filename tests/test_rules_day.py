"""The day, deaths, victory and the call order (Best Of rulebook, pages 4-6 and 21-23; French rules: the
Captain = the Sheriff; docs/rules.md): the Sheriff, the vote, the dawn, victory and winners, calls for
absent or dead characters, the call order, hidden roles, refusals and undo."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game
from engine.types import IllegalAnswer, Phase
from helpers import call_ids, drive, eliminated, made_once, new_game, play_harmlessly, reach, refused

EIGHT = ["werewolf", "werewolf", "villager", "villager", "villager", "villager", "villager", "villager"]








def revealed(game: Game, day: int) -> list[tuple[int, object]]:
    """Returns (seat, role) of the victims announced at the dawn of ``day``, in order."""
    dawn = made_once(game, "dawn", day, Phase.DAY)
    return [(int(str(f.values["seat"])), f.values["role"]) for f in dawn.facts if f.key == "victim"]


def outcome(game: Game) -> tuple[str, tuple[int, ...]]:
    """Returns (winner, winners) of a game that is over."""
    assert game.outcome is not None, f"the game is not over; running call {game.call}"
    return game.outcome.winner, game.outcome.winners




# -- the Sheriff -----------------------------------------------------------------------------------


def test_sheriff_is_elected_by_plurality_before_the_first_night() -> None:
    """'The Sheriff is then elected by a relative-majority vote … One cannot refuse the honor' — before
    night 1 (docs/rules.md)."""
    game = new_game(EIGHT, sheriff=True)
    call = game.call
    assert call is not None and call.id == "sheriff_election"
    assert (call.phase, call.number, call.seats) == (Phase.DAY, 0, tuple(range(1, 9)))
    assert not refused(game, None).secret  # someone is elected
    step = game.answer(3)
    assert game.sheriff == 3 and ("sheriff.elected", {"seat": 3}) in [(f.key, dict(f.values)) for f in step.facts]
    assert game.call is not None and game.call.id == "nightfall"


def test_sheriff_election_tie_is_rerun_among_the_tied() -> None:
    """docs/rules.md: A tied Sheriff election is re-run among the tied (call sheriff_runoff)."""
    game = new_game(EIGHT, sheriff=True)
    game.answer({"tie": [2, 5]})
    call = game.call
    assert call is not None and call.id == "sheriff_runoff" and call.seats == (2, 5)
    assert not refused(game, 3).secret
    game.answer(5)
    assert game.sheriff == 5


def test_second_sheriff_election_tie_means_no_sheriff() -> None:
    """docs/rules.md: a second tie: no Sheriff — then a tied vote goes to a second vote, not a tie-break."""
    game = new_game(EIGHT, sheriff=True)
    drive(game, ("sheriff_election", {"tie": [2, 5]}), ("sheriff_runoff", None))
    assert game.sheriff is None
    drive(game, ("werewolves", 3), ("vote", {"tie": [4, 5]}))
    assert game.call is not None and game.call.id == "revote"


def test_sheriff_vote_counts_double() -> None:
    """'From then on, this player's votes count as 2 votes' ('les votes de ce joueur comptent pour 2 voix')."""
    game = new_game(EIGHT, sheriff=True)
    drive(game, ("sheriff_election", 5), ("werewolves", 8), ("vote", {"ballots": {1: 4, 2: 4, 5: 3, 6: 3}}))
    assert eliminated(game) == [(8, "werewolves"), (3, "vote")]


def test_sheriff_breaks_a_tied_vote() -> None:
    """'If a tie remains after the vote, the Sheriff designates the victim among those tied.'"""
    game = new_game(EIGHT, sheriff=True)
    drive(game, ("sheriff_election", 5), ("werewolves", 8), ("vote", {"tie": [3, 4]}))
    call = game.call
    assert call is not None and call.id == "sheriff_tiebreak"
    assert call.actors == (5,) and call.seats == (3, 4)
    assert not refused(game, 6).secret
    drive(game, ("sheriff_tiebreak", 4))
    assert eliminated(game) == [(8, "werewolves"), (4, "vote")]
    assert "revote" not in call_ids(game)


def test_sheriff_names_his_successor_after_his_other_consequences() -> None:
    """'If the Sheriff is eliminated, with their dying breath they designate their successor' — among the
    living, after grief and the Hunter's shot (docs/rules.md)."""
    game = new_game(["werewolf", "werewolf", "cupid", "hunter", "villager", "villager", "villager", "villager"],
                    sheriff=True)
    drive(game, ("sheriff_election", 4), ("cupid", [4, 5]), ("werewolves", 8), ("vote", 4), ("hunter", 6))
    call = game.call
    assert call is not None and call.id == "sheriff_successor" and call.actors == (4,)
    assert call_ids(game, "day", 1)[-3:] == ["vote", "hunter", "sheriff_successor"]
    assert eliminated(game)[1:] == [(4, "vote"), (5, "grief"), (6, "hunter")]
    assert call.seats == (1, 2, 3, 7)
    assert not refused(game, 5).secret
    drive(game, ("sheriff_successor", 7))
    assert game.sheriff == 7


def test_sheriff_successor_inherits_the_double_vote() -> None:
    """The successor receives the medal: 'this player's votes count as 2 votes'."""
    game = new_game(EIGHT, sheriff=True)
    drive(game, ("sheriff_election", 3), ("werewolves", 3), ("sheriff_successor", 4),
          ("vote", {"ballots": {4: 5, 6: 7}}))
    assert game.sheriff == 4
    assert eliminated(game) == [(3, "werewolves"), (5, "vote")]


# -- the vote --------------------------------------------------------------------------------------


def test_vote_eliminates_the_player_with_the_most_votes() -> None:
    """'The player who receives a majority of votes is eliminated' — the table may report the result."""
    game = new_game(EIGHT)
    steps = drive(game, ("werewolves", 8), ("vote", 3))
    assert eliminated(game) == [(8, "werewolves"), (3, "vote")]
    vote = game.eliminated[1]
    assert (vote.phase, vote.number, vote.role) == (Phase.DAY, 1, "villager")
    assert [(f.key, dict(f.values)) for f in steps[1].facts] == [
        ("death", {"seat": 3, "role": "villager", "cause": "vote"})]


def test_vote_may_eliminate_nobody() -> None:
    """docs/practice-scripts.md: a vote's answer may be null (nobody)."""
    game = new_game(EIGHT)
    steps = drive(game, ("werewolves", 8), ("vote", None))
    assert eliminated(game) == [(8, "werewolves")]
    assert [f.key for f in steps[1].facts] == ["vote.nobody"]


def test_roll_call_is_counted_by_plurality() -> None:
    """docs/rules.md: Plurality of the votes cast — a roll call of every ballot, which the engine counts."""
    game = new_game(EIGHT)
    drive(game, ("werewolves", 8), ("vote", {"ballots": {1: 3, 2: 3, 3: 4, 4: 5, 5: 6, 6: None, 7: 3}}))
    assert eliminated(game) == [(8, "werewolves"), (3, "vote")]


def test_tie_without_sheriff_leads_to_a_second_vote_among_the_tied() -> None:
    """'In the event of a tie, a second vote is held against only those tied' — the tied may vote too
    ('y compris les joueurs en cause')."""
    game = new_game(EIGHT)
    drive(game, ("werewolves", 8), ("vote", {"ballots": {1: 3, 2: 3, 3: 4, 4: 5, 5: 4}}))
    call = game.call
    assert call is not None and call.id == "revote" and call.seats == (3, 4)
    assert not refused(game, 5).secret
    assert not refused(game, {"ballots": {1: 5}}).secret
    drive(game, ("revote", {"ballots": {3: 4, 4: 3, 5: 4}}))
    assert eliminated(game) == [(8, "werewolves"), (4, "vote")]


def test_second_tie_eliminates_nobody() -> None:
    """'If there is another tie, no player is eliminated.'"""
    game = new_game(EIGHT)
    steps = drive(game, ("werewolves", 8), ("vote", {"tie": [3, 4]}), ("revote", {"tie": [3, 4]}))
    assert eliminated(game) == [(8, "werewolves")]
    assert "vote.nobody" in [f.key for f in steps[2].facts]
    assert game.call is not None and game.call.phase is Phase.NIGHT and game.call.number == 2


# -- deaths at dawn --------------------------------------------------------------------------------

NIGHT_KILLERS = ["werewolf", "big_bad_wolf", "white_werewolf", "witch",
                 "villager", "villager", "villager", "villager", "villager", "villager"]


def test_the_dawn_announces_the_dead_in_seat_order() -> None:
    """docs/rules.md: night victims die at dawn and are announced together in seat order (ascending), whatever
    killed them; the record of the eliminations follows that order too."""
    game = new_game(NIGHT_KILLERS)
    drive(game, ("werewolves", 5), ("big_bad_wolf", 6), ("witch", {"heal": False, "poison": None}),
          ("vote", None), ("werewolves", 7), ("white_werewolf", 1), ("big_bad_wolf", 8),
          ("witch", {"heal": False, "poison": 9}))
    assert [s for s, _ in revealed(game, 2)] == [1, 7, 8, 9]
    assert eliminated(game)[2:] == [(1, "white_werewolf"), (7, "werewolves"), (8, "big_bad_wolf"), (9, "poison")]
    assert all(e.phase is Phase.NIGHT and e.number == 2 for e in game.eliminated[2:])


@pytest.mark.parametrize("devoured, poisoned", [(3, 6), (6, 3)])
def test_the_poisoned_and_the_devoured_are_announced_in_seat_order_whatever_the_cause(devoured: int,
                                                                                      poisoned: int) -> None:
    """docs/rules.md: 'the order the night produced them — the pack's victim first, the poisoned last — told the
    table which death was the Witch's': seat 3 is announced before seat 6, poisoned or devoured."""
    game = new_game(["werewolf", "werewolf", "villager", "witch", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", devoured), ("witch", {"heal": False, "poison": poisoned}))
    assert revealed(game, 1) == [(3, "villager"), (6, "villager")]
    assert [e.seat for e in game.eliminated] == [3, 6]


@pytest.mark.parametrize("pack, wolf", [(6, 3), (3, 6)])
@pytest.mark.parametrize("poison_instead_of", ["big_bad_wolf", "werewolves"])
def test_a_dawn_tells_nothing_of_which_death_was_the_poison(pack: int, wolf: int, poison_instead_of: str) -> None:
    """Fair play: two games alike but that one night death is the poison rather than a bite (the Big Bad Wolf's,
    or the pack's) make the same public dawn facts, in the same order, and the same record of seats."""
    deal = ["werewolf", "big_bad_wolf", "villager", "witch", "villager", "villager", "villager", "villager"]
    bitten = new_game(deal)
    drive(bitten, ("werewolves", pack), ("big_bad_wolf", wolf), ("witch", {"heal": False, "poison": None}))
    poisoned = new_game(deal)
    if poison_instead_of == "big_bad_wolf":
        drive(poisoned, ("werewolves", pack), ("big_bad_wolf", None), ("witch", {"heal": False, "poison": wolf}))
    else:
        drive(poisoned, ("werewolves", None), ("big_bad_wolf", wolf), ("witch", {"heal": False, "poison": pack}))
    assert "poison" in [e.cause for e in poisoned.eliminated] and "poison" not in [e.cause for e in bitten.eliminated]

    def public(game: Game) -> list[tuple[str, dict[str, object]]]:
        dawn = made_once(game, "dawn", 1, Phase.DAY)
        return [(f.key, dict(f.values)) for f in dawn.facts if not f.secret]

    assert public(bitten) == public(poisoned) == [("victim", {"seat": 3, "role": "villager"}),
                                                  ("victim", {"seat": 6, "role": "villager"})]
    assert [(e.seat, e.role) for e in bitten.eliminated] == [(e.seat, e.role) for e in poisoned.eliminated]
    assert call_ids(bitten, "day", 1) == call_ids(poisoned, "day", 1)


def test_killed_twice_in_one_night_reports_the_first_cause() -> None:
    """docs/rules.md: 'A player killed twice in one night is reported with the first cause in night order (the
    werewolves', the Big Bad Wolf's, the White Werewolf's, the poison)'."""
    game = new_game(["werewolf", "werewolf", "witch", "villager", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 4), ("witch", {"heal": False, "poison": 4}))
    assert eliminated(game) == [(4, "werewolves")]
    assert revealed(game, 1) == [(4, "villager")]


def test_consequences_at_dawn_run_in_seat_order() -> None:
    """docs/rules.md: then each runs its consequences in that same seat order — the poisoned lover at seat 3 has
    his beloved die of grief before the devoured Hunter at seat 5 shoots."""
    game = new_game(["werewolf", "werewolf", "villager", "witch", "hunter", "cupid", "villager", "villager"])
    drive(game, ("cupid", [3, 7]), ("werewolves", 5), ("witch", {"heal": False, "poison": 3}))
    assert call_ids(game, "day", 1)[:2] == ["dawn", "hunter"]
    assert not game.alive(7)  # grief came first
    drive(game, ("hunter", 8))
    assert eliminated(game) == [(3, "poison"), (5, "werewolves"), (7, "grief"), (8, "hunter")]
    assert [e.phase for e in game.eliminated] == [Phase.NIGHT, Phase.NIGHT, Phase.DAY, Phase.DAY]


def test_consequences_run_depth_first() -> None:
    """docs/rules.md: Consequences run depth-first: a lover who dies of grief runs his own (the Hunter's
    shot, the successor) before the next death's."""
    game = new_game(["werewolf", "werewolf", "cupid", "witch", "hunter", "villager", "villager", "villager"],
                    sheriff=True)
    drive(game, ("sheriff_election", 7), ("cupid", [5, 6]), ("werewolves", 6),
          ("witch", {"heal": False, "poison": 7}), ("hunter", 8), ("sheriff_successor", 3))
    assert call_ids(game, "day", 1)[:3] == ["dawn", "hunter", "sheriff_successor"]
    assert eliminated(game) == [(6, "werewolves"), (7, "poison"), (5, "grief"), (8, "hunter")]
    assert game.sheriff == 3


def test_day_runs_victims_consequences_growl_debate_vote() -> None:
    """'Course of the day phases: revealing the victims, the bear's growl, debate, vote' — the victims'
    consequences right after they are revealed (docs/rules.md)."""
    game = new_game(["werewolf", "bear_tamer", "villager", "hunter", "villager", "villager", "villager",
                     "villager"])
    drive(game, ("werewolves", 4), ("hunter", 5))
    assert call_ids(game, "day", 1) == ["dawn", "hunter", "growl", "debate", "vote"]


# -- victory ---------------------------------------------------------------------------------------

FOUR = ["villager", "villager", "villager", "villager"]

WINS: dict[str, tuple[list[str], list[tuple[str, Any]], tuple[int, ...]]] = {
    "village": (EIGHT, [("werewolves", 3), ("vote", 1), ("werewolves", 4), ("vote", 2)], (3, 4, 5, 6, 7, 8)),
    "werewolves": (["werewolf", "werewolf", *FOUR],
                   [("werewolves", 3), ("vote", 4), ("werewolves", 5), ("vote", 6)], (1, 2)),
    "lovers": (["werewolf", "cupid", *FOUR],
               [("cupid", [1, 3]), ("werewolves", 4), ("vote", 5), ("werewolves", 6), ("vote", 2)], (1, 3)),
    "white_werewolf": (["werewolf", "white_werewolf", *FOUR],
                       [("werewolves", 3), ("vote", 4), ("werewolves", 5), ("white_werewolf", 1), ("vote", 6)],
                       (2,)),
    "piper": (["werewolf", "piper", *FOUR],
              [("werewolves", 3), ("piper", [4, 5]), ("vote", 6), ("werewolves", 4), ("piper", [1])], (2,)),
    "angel": (["werewolf", "angel", *FOUR], [("vote", 2)], (2,)),
    "nobody": (["werewolf", "hunter", *FOUR],
               [("werewolves", 3), ("vote", 4), ("werewolves", 5), ("vote", 6), ("werewolves", 2), ("hunter", 1)],
               ()),
}


@pytest.mark.parametrize("winner", list(WINS))
def test_every_side_can_win(winner: str) -> None:
    """docs/rules.md, Victory: village, werewolves, lovers, White Werewolf, Piper, Angel, nobody (e.g. 'the
    last werewolf devours the Hunter, who shoots him: nobody wins, not the werewolves')."""
    roles, answers, winners = WINS[winner]
    game = new_game(roles)
    drive(game, *answers)
    assert outcome(game) == (winner, winners)
    assert game.call is None


def test_white_werewolf_alive_means_the_werewolves_have_not_won() -> None:
    """docs/rules.md: The White Werewolf is not on that team here: while he lives, the werewolves have not won."""
    game = new_game(["werewolf", "white_werewolf", *FOUR])
    drive(game, ("werewolves", 3), ("vote", 4), ("werewolves", 5), ("white_werewolf", None), ("vote", 6))
    assert game.living() == (1, 2) and not game.over
    drive(game, ("werewolves", None), ("vote", None), ("werewolves", None), ("white_werewolf", 1))
    assert outcome(game) == ("white_werewolf", (2,))


def test_victory_is_checked_once_all_deaths_of_a_moment_are_resolved() -> None:
    """docs/rules.md: 'The Hunter shoots and the Sheriff names a successor even when the game is already
    decided, unless nobody is left alive.'"""
    game = new_game(["werewolf", "villager", "hunter", "villager", "villager", "villager"], sheriff=True)
    drive(game, ("sheriff_election", 3), ("werewolves", 4), ("vote", 5), ("werewolves", 6), ("vote", 3),
          ("hunter", 1))
    assert not game.over and game.call is not None and game.call.id == "sheriff_successor"
    drive(game, ("sheriff_successor", 2))
    assert outcome(game) == ("village", (2, 3, 4, 5, 6))


def test_no_successor_when_nobody_is_left_alive() -> None:
    """docs/rules.md: the Sheriff names a successor even when the game is decided, 'unless nobody is left
    alive'."""
    game = new_game(["werewolf", "hunter", *FOUR], sheriff=True)
    drive(game, ("sheriff_election", 2), ("werewolves", 3), ("vote", 4), ("werewolves", 5), ("vote", 6),
          ("werewolves", 2), ("hunter", 1))
    assert call_ids(game, "day", 3) == ["dawn", "hunter"]
    assert outcome(game) == ("nobody", ())


def test_winners_are_every_seat_of_the_winning_side_dead_or_alive() -> None:
    """docs/practice-scripts.md: 'winners' lists the seats that win with the side — the eliminated too; lovers of the
    same team win with that team."""
    game = new_game(["werewolf", "werewolf", "cupid", *FOUR, "villager"])
    drive(game, ("cupid", [5, 6]), ("werewolves", 5), ("vote", 1), ("werewolves", 7), ("vote", 2))
    assert eliminated(game)[:2] == [(5, "werewolves"), (6, "grief")]
    assert outcome(game) == ("village", (3, 4, 5, 6, 7, 8))


def test_mixed_lovers_are_not_among_a_sides_winners() -> None:
    """docs/rules.md: Lovers of mixed teams (a werewolf and a non-werewolf) win when they are the only two
    left — they do not win with a side; Cupid always plays for the village."""
    game = new_game(["werewolf", "werewolf", "cupid", *FOUR, "villager"])
    drive(game, ("cupid", [1, 4]), ("werewolves", 5), ("vote", 1), ("werewolves", 6), ("vote", 2))
    assert (4, "grief") in eliminated(game)
    assert outcome(game) == ("village", (3, 5, 6, 7, 8))


def test_simultaneous_wins_lovers_before_piper() -> None:
    """docs/rules.md: Simultaneous wins are settled in this order: nobody, White Werewolf, lovers, Piper,
    village, werewolves — the lovers, a werewolf and the Piper, left alone with the werewolf charmed."""
    game = new_game(["werewolf", "piper", "cupid", "villager", "villager", "villager", "hunter"])
    drive(game, ("cupid", [1, 2]), ("werewolves", 4), ("piper", [1, 5]), ("vote", 5),
          ("werewolves", 6), ("piper", [6, 7]), ("vote", 7), ("hunter", 3))
    assert game.living() == (1, 2) and game.marked(1, "charmed")
    assert outcome(game) == ("lovers", (1, 2))


def test_simultaneous_wins_piper_before_village() -> None:
    """docs/rules.md: the Piper is settled before the village: voting out the last werewolf, who was the last
    uncharmed player, makes the Piper win."""
    game = new_game(["werewolf", "piper", "villager", "villager", "villager", "villager", "villager"])
    drive(game, ("werewolves", 3), ("piper", [4, 5]), ("vote", None), ("werewolves", 6), ("piper", [6, 7]),
          ("vote", 1))
    assert outcome(game) == ("piper", (2,))


# -- calls for absent or dead characters -------------------------------------------------------------

SEER = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager", "villager"]


def test_dead_characters_are_still_called_and_their_answer_ignored() -> None:
    """docs/rules.md: every character of the deck is still called after it has been eliminated … and its
    "answer" is ignored."""
    game = new_game(SEER)
    drive(game, ("seer", None), ("werewolves", 3))
    reach(game, "vote")
    game.answer(None)
    game.answer(None)  # nightfall
    call = game.call
    assert call is not None and (call.id, call.number) == ("seer", 2)
    assert not call.live and not call.needs_answer and call.actors == ()
    step = game.answer(4)
    assert step.facts == () and game.journal[-1] is None
    assert game.call is not None and game.call.id == "werewolves"


def test_call_dead_off_skips_dead_characters() -> None:
    """docs/rules.md: A table can turn this off (call_dead=False)."""
    game = new_game(SEER, call_dead=False)
    drive(game, ("seer", None), ("werewolves", 3), ("vote", None), ("werewolves", 4))
    assert call_ids(game, "night", 2) == ["nightfall", "werewolves"]


def test_characters_not_in_the_deck_are_never_called() -> None:
    """docs/rules.md: 'Characters not in the deck are never called.'"""
    game = new_game(EIGHT)
    drive(game, ("werewolves", 3), ("vote", None), ("werewolves", 4), ("vote", None))
    assert set(call_ids(game, "night")) == {"nightfall", "werewolves"}
    assert set(call_ids(game, "day")) == {"dawn", "debate", "vote"}


def test_recognition_calls_are_made() -> None:
    """docs/rules.md: every call of the order is made, 'including those whose only purpose … was to show the
    narrator a seat (bear_tamer, sisters, lovers, charmed)'."""
    game = new_game(["werewolf", "werewolf", "cupid", "sister", "sister", "bear_tamer", "piper", "villager",
                     "villager"])
    drive(game, ("cupid", [8, 9]), ("werewolves", 3), ("piper", [1, 4]))
    awake = {c.id: c.actors for c in game.calls if c.phase is Phase.NIGHT and not c.needs_answer}
    assert awake["lovers"] == (8, 9) and awake["sisters"] == (4, 5)
    assert awake["bear_tamer"] == (6,) and awake["charmed"] == (1, 4)


# -- the call order --------------------------------------------------------------------------------

EVERYONE = ["thief", "cupid", "seer", "sister", "sister", "wild_child", "wolf_hound", "bear_tamer", "werewolf",
            "infected_father", "big_bad_wolf", "witch", "fox", "piper", "white_werewolf", "little_girl",
            "knight", "elder", "hunter"]
LATER = ["nightfall", "seer", "werewolves", "infected_father", "big_bad_wolf", "witch", "fox", "piper", "charmed"]


def test_first_night_call_order() -> None:
    """docs/rules.md, profile bestof, first night: thief, cupid, lovers, seer, sisters, wild_child,
    wolf_hound, bear_tamer, werewolves, infected_father, big_bad_wolf, witch, fox, piper, charmed."""
    game = new_game(EVERYONE, centre=["villager", "villager"])
    play_harmlessly(game, 1)
    assert call_ids(game, "night", 1) == [
        "nightfall", "thief", "cupid", "lovers", "seer", "sisters", "wild_child", "wolf_hound", "bear_tamer",
        "werewolves", "infected_father", "big_bad_wolf", "witch", "fox", "piper", "charmed"]


def test_later_nights_call_order_with_the_white_werewolf_on_even_nights() -> None:
    """docs/rules.md, every later night: seer, werewolves, white_werewolf (nights 2, 4, 6, …),
    infected_father, big_bad_wolf, witch, fox, piper, charmed."""
    game = new_game(EVERYONE, centre=["villager", "villager"])
    play_harmlessly(game, 4)
    with_white = LATER[:3] + ["white_werewolf"] + LATER[3:]
    assert call_ids(game, "night", 2) == with_white
    assert call_ids(game, "night", 3) == LATER
    assert call_ids(game, "night", 4) == with_white


# -- hidden roles, refusals, undo ------------------------------------------------------------------


def test_eliminated_players_card_is_revealed() -> None:
    """'The narrator then indicates any players who fell victim … and reveals their identity.'"""
    game = new_game(SEER)
    drive(game, ("seer", None), ("werewolves", 3))
    assert revealed(game, 1) == [(3, "seer")]


def test_hidden_roles_carry_no_role() -> None:
    """Rules.reveal_roles=False: the 'victim' and 'death' facts name the seat, never the card."""
    game = new_game(SEER, reveal_roles=False)
    steps = drive(game, ("seer", None), ("werewolves", 3), ("vote", 1))
    assert revealed(game, 1) == [(3, None)]
    deaths = [dict(f.values) for f in steps[2].facts if f.key == "death"]
    assert deaths == [{"seat": 1, "role": None, "cause": "vote"}]


def test_public_refusals_are_not_secret() -> None:
    """docs/rules.md: that seat cannot be chosen only for choices illegal in public knowledge (an
    eliminated seat, a seat number out of range)."""
    game = new_game(EIGHT)
    reach(game, "werewolves")
    for seat in (0, 9):
        assert not refused(game, seat).secret
    drive(game, ("werewolves", 3))
    reach(game, "vote")
    assert not refused(game, 3).secret
    assert not refused(game, {"ballots": {3: 4}}).secret  # an eliminated player does not vote


def test_illegal_answer_leaves_the_game_as_it_was() -> None:
    """IllegalAnswer: 'the game is then untouched' — same call, same journal; a legal answer then works."""
    game = new_game(EIGHT)
    call = reach(game, "werewolves")
    journal = list(game.journal)
    with pytest.raises(IllegalAnswer) as info:
        game.answer(2)
    assert info.value.secret
    with pytest.raises(IllegalAnswer):
        game.answer("nobody")
    assert game.call is call and game.journal == journal and game.calls[-1] is call
    drive(game, ("werewolves", 3))
    assert eliminated(game) == [(3, "werewolves")]


def test_undo_takes_back_the_last_answer() -> None:
    """Game.undo: takes back the last answer that was not a mere confirmation, by replay."""
    game = new_game(EIGHT)
    assert not game.undo()
    drive(game, ("werewolves", 3), ("vote", 4))
    assert game.call is not None and game.call.id == "werewolves"
    assert game.undo()
    assert game.call is not None and (game.call.id, game.call.number) == ("vote", 1)
    assert eliminated(game) == [(3, "werewolves")]


def test_undo_then_the_same_answer_gives_the_identical_game() -> None:
    """Undo is a replay: answering the undone call again gives the identical game."""
    game, twin = new_game(EIGHT, sheriff=True), new_game(EIGHT, sheriff=True)
    for g in (game, twin):
        drive(g, ("sheriff_election", 4), ("werewolves", 3), ("vote", {"ballots": {4: 5, 6: 7}}))
    game.undo()
    drive(game, ("vote", {"ballots": {4: 5, 6: 7}}))
    assert game.journal == twin.journal and game.report_calls() == twin.report_calls()
    assert game.eliminated == twin.eliminated and game.sheriff == twin.sheriff == 4
    assert game.call is not None and twin.call is not None
    assert game.call._replace(check=None) == twin.call._replace(check=None)
