"""The host menu's take-back (1) by day: it names and takes back only an answer the whole table saw given — the call
just before the running one, answered with eyes open this very day. A night's answer is never offered: "take back
the Witch's answer?" on the day's screen would tell the table that her call was live (a dead Witch is called too,
and answers nothing), and taking it back would run the night again in front of everyone."""

from __future__ import annotations

import random

from engine import Deal, Game, Kind, Phase, Rules, Table
from narrator.narration import in_the_dark
from narrator.play import takeback

DECK = ("werewolf", "werewolf", "seer", "witch", "hunter", "villager", "villager", "villager")


def game(*answers: object) -> Game:
    return Game(Table(8, DECK, Rules(sheriff=False)), Deal(DECK), list(answers))


def test_no_answer_of_the_night_is_offered_by_day() -> None:
    played = game(None, 1, 6, {"heal": False, "poison": None})  # night 1: the Seer, the pack, the Witch
    assert (played.call.id, played.call.phase) == ("dawn", Phase.DAY)
    assert takeback(played) is None
    played.answer(None)  # the dawn; the debate
    assert takeback(played) is None


def test_a_live_witch_and_a_witch_who_spent_her_potions_offer_the_same_by_day() -> None:
    """Twins: the Witch asked (both potions left) or called for fair play only (both spent on night 1): at every call
    of day 2, the host menu offers the same thing."""
    spent = game(None, 1, 6, {"heal": True, "poison": 8}, None, None, 1)  # she heals 6 and poisons 8; 1 voted out
    kept = game(None, 1, 6, {"heal": False, "poison": None}, None, None, 1)
    assert [e.seat for e in spent.eliminated] == [8, 1] and [e.seat for e in kept.eliminated] == [6, 1]
    for played in (spent, kept):
        played.answer(None)  # nightfall, night 2
        played.answer(2)  # the Seer
        played.answer(7)  # the pack
        played.answer(None if played is spent else {"heal": False, "poison": None})  # the Witch: idle, or passing
        assert played.call.phase is Phase.NIGHT or played.call.id == "dawn"
    offered = [[], []]
    for i, played in enumerate((spent, kept)):
        while played.call is not None and played.call.phase is Phase.DAY and played.call.number == 2:
            offered[i].append(takeback(played))
            played.answer(None if not played.call.needs_answer else 2)
    assert offered[0] == offered[1] == [None, None, None]


def test_the_vote_is_offered_while_the_hunters_shot_is_asked() -> None:
    played = game(None, 1, 6, {"heal": False, "poison": None}, None, None, 5)  # the village votes the Hunter out
    assert (played.call.id, played.call.phase, played.call.number) == ("hunter", Phase.DAY, 1)
    offered = takeback(played)
    assert offered is not None and (offered.id, offered.phase, offered.number) == ("vote", Phase.DAY, 1)


def test_whatever_the_game_the_offer_is_a_public_answer_of_the_running_day() -> None:
    for seed in range(60):
        rng = random.Random(seed)
        played = game()
        while played.call is not None:
            offered = takeback(played)
            if offered is not None:
                running = played.call
                assert running.phase is Phase.DAY and not in_the_dark(running)
                assert offered.phase is Phase.DAY and offered.number == running.number and not in_the_dark(offered)
                assert offered.kind is not Kind.NONE and offered is played.last_answered()
            legal = played.legal()
            played.answer(rng.choice(legal))
