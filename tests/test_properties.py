"""Properties of thousands of random legal games (every deck the engine accepts, random deals, house rules
and answers), and of the narration: secrets are never heard (the Best Of rulebook,
docs/rules.md, docs/practice-scripts.md)."""

from __future__ import annotations

import random
from typing import Any, Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from engine import (
    ROLES,
    Answer,
    Call,
    Game,
    IllegalAnswer,
    Kind,
    Phase,
    Rules,
    Table,
    Team,
    check_deck,
    deal_cards,
    night_calls,
)
from engine.events import CARDS as EVENT_CARDS, SEANCES
from engine.roles.actor import LENDABLE
from engine.roles.cupid import Lovers
from engine.state import snapshot
from engine.village import MANY, TOKENS
from helpers import narrate, new_game
from narrator.narration import VOICE, Line

WINNERS = ("village", "werewolves", "lovers", "white_werewolf", "piper", "angel", "prejudiced_manipulator",
           "nobody")
MAX_CALLS = 2000
GAMES = 3  # games played from each generated table: a new deal and new answers each time

WOLF_CARDS = frozenset(r for r, role in ROLES.items() if role.wolf_card)
UNIQUE = tuple(sorted(r for r, role in ROLES.items() if role.copies == (0, 1)))
PAIRED = tuple(sorted(r for r, role in ROLES.items() if role.copies == (0, 2)))
TRIOS = tuple(sorted(r for r, role in ROLES.items() if role.copies == (0, 3)))  # the Three Brothers
VARIANTS = ((), ("moonlight",), ("moonlight_wolves",))
"""The variants the random tables play: Moonlight and its option (the candles' rulings), or none."""

# The cards that make each night call ("A call is made only if its character is in the deck", docs/rules.md).
OWNERS: dict[str, frozenset[str]] = {
    **{call: frozenset({call}) for call in ("thief", "cupid", "seer", "wild_child", "wolf_hound", "bear_tamer",
                                            "white_werewolf", "infected_father", "big_bad_wolf", "witch", "fox",
                                            "piper", "guard", "stuttering_judge", "actor", "gypsy", "raven",
                                            "pyromaniac", "baker")},
    "lovers": frozenset({"cupid"}), "sisters": frozenset({"sister"}), "werewolves": WOLF_CARDS,
    "charmed": frozenset({"piper"}), "brothers": frozenset({"brother"}),
}
# The dead's last acts: the Hunter shoots and the Sheriff names his successor once eliminated.
LAST_ACTS = frozenset({"hunter", "sheriff_successor", "scapegoat"})

# No shrinking: a game is drawn from seeds, which shrink to nothing clearer, and a failure prints its table
# and seed, enough to replay it.
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                phases=(Stage.explicit, Stage.reuse, Stage.generate))


@st.composite
def tables(draw: st.DrawFn, call_dead: bool | None = None) -> Table:
    """Returns a legal table of 6 to 18 players: unique characters, maybe the Sisters, at least one werewolf
    card, the Thief's two centre cards, and random house rules."""
    seats = draw(st.integers(6, 18))
    specials = list(draw(st.permutations(UNIQUE)))[: draw(st.integers(0, len(UNIQUE)))]
    paired = [r for r in PAIRED if draw(st.booleans())]
    trios = [r for r in TRIOS if seats >= 10 and draw(st.booleans())]

    def cards() -> int:
        return seats + (2 if "thief" in specials else 0)

    def room() -> int:
        wolf = 0 if WOLF_CARDS & set(specials) else 1
        return cards() - len(specials) - 2 * len(paired) - 3 * len(trios) - wolf

    while room() < 0:
        specials.pop()
    free = cards() - len(specials) - 2 * len(paired) - 3 * len(trios)
    least = 0 if WOLF_CARDS & set(specials) else 1
    wolves = draw(st.integers(least, max(least, free // 3)))
    spare = [c for c in LENDABLE if c not in specials]  # the Actor's cards come from the unused ones
    if "actor" in specials and len(spare) < 3:
        specials[specials.index("actor")] = "villager"
    actor_cards = tuple(draw(st.permutations(spare))[:3]) if "actor" in specials else ()
    deck = tuple(specials + [r for r in paired for _ in range(2)] + [r for r in trios for _ in range(3)]
                 + ["werewolf"] * wolves + ["villager"] * (free - wolves))
    assert check_deck(seats, deck)[0] == []
    sheriff = draw(st.booleans())
    # The morning draw, half the time: some event cards (not the séance cards the Gypsy holds), in some order.
    playable = [card for card in EVENT_CARDS if "gypsy" not in deck or card not in SEANCES]
    events = tuple(draw(st.permutations(playable))[: draw(st.integers(0, len(playable)))]) if draw(st.booleans()) else ()
    rules = Rules(sheriff=sheriff, town_crier=sheriff and draw(st.booleans()),
                  call_dead=draw(st.booleans()) if call_dead is None else call_dead,
                  reveal_roles=draw(st.booleans()), sisters_wake=draw(st.booleans()),
                  sheriff_elected=draw(st.sampled_from(("start", "first_day"))),
                  sheriff_double_vote=draw(st.booleans()), sheriff_breaks_ties=draw(st.booleans()),
                  votes_may_be_skipped=draw(st.booleans()),
                  # Skipping calls with nothing to do gives secrets away by design: only where the dead's
                  # calls are skipped too, whose tests look at the order alone.
                  skip_idle_calls=call_dead is False and draw(st.booleans()),
                  big_bad_wolf_loses_power=draw(st.booleans()), white_werewolf_interval=draw(st.integers(1, 4)),
                  sisters_interval=draw(st.integers(0, 4)), brothers_interval=draw(st.integers(0, 4)),
                  variants=draw(st.sampled_from(VARIANTS)), elder_lives=draw(st.integers(1, 3)),
                  elder_revenge=draw(st.booleans()), idiot_dies_with_elder=draw(st.booleans()),
                  infected_bear_tamer_growls=draw(st.booleans()), wolf_hound_random=draw(st.booleans()),
                  piper_charms=draw(st.integers(1, 3)), piper_keeps_power_if_infected=draw(st.booleans()),
                  events=events, events_order=draw(st.sampled_from(("shuffled", "listed"))))
    groups: tuple[tuple[int, ...], ...] = ()
    if "prejudiced_manipulator" in deck:  # the host's two public groups, any split of the seats
        order = draw(st.permutations(range(1, seats + 1)))
        cut = draw(st.integers(1, seats - 1))
        groups = (tuple(sorted(order[:cut])), tuple(sorted(order[cut:])))
    # The Village's buildings, half the time: some unique tokens, maybe farmers and vagabonds.
    buildings: list[str] = []
    if draw(st.booleans()):
        unique = [t for t in TOKENS if t not in MANY]
        buildings = list(draw(st.permutations(unique)))[: draw(st.integers(0, len(unique)))]
        buildings += ["farmer"] * draw(st.integers(0, 3)) + ["vagabond"] * draw(st.integers(0, 2))
        buildings = buildings[:seats]
    return Table(seats, deck, rules, groups=groups, actor_cards=actor_cards, buildings=tuple(buildings))


def guess(game: Game, call: Call, rng: random.Random) -> Answer:
    """Returns an answer of the call's shape, maybe illegal: seats, ties and roll calls for votes."""
    seats = list(call.seats)
    if call.kind in (Kind.VOTE, Kind.ELECTION) and len(seats) >= 2 and rng.random() < 0.15:
        return {"tie": rng.sample(seats, rng.randint(2, min(3, len(seats))))}
    if call.kind is Kind.VOTE and rng.random() < 0.15:
        return {"ballots": {voter: rng.choice([*seats, None]) for voter in game.living()}}
    if call.kind in (Kind.SEAT, Kind.VOTE, Kind.ELECTION):
        return rng.choice([*seats, None])
    return rng.choice(game.candidates())


def pick(game: Game, rng: random.Random) -> Answer:
    """Returns a random legal answer: a few blind guesses, then one of game.legal()."""
    call = game.call
    assert call is not None
    if not call.needs_answer:
        return None
    for _ in range(4):
        value = guess(game, call, rng)
        try:
            game.check(value)
            return value
        except IllegalAnswer:
            pass
    legal = game.legal()
    assert legal, f"no legal answer to {call.id} ({call.phase.value} {call.number})"
    return rng.choice(legal)


Watch = Callable[[Game, Answer], None]


def play(game: Game, rng: random.Random, before: Callable[[Game], None] | None = None,
         after: Watch | None = None) -> Game:
    """Plays ``game`` to its end with random legal answers; ``before`` sees each call, ``after`` each answer
    with its value."""
    while not game.over:
        assert len(game.calls) <= MAX_CALLS, f"no outcome after {MAX_CALLS} calls"
        if before is not None:
            before(game)
        value = pick(game, rng)
        game.answer(value)
        if after is not None:
            after(game, value)
    return game


def games(table: Table, seed: int, **watch: Any) -> list[Game]:
    """Plays GAMES random games at ``table``, each with its own deal and answers."""
    return [play(Game(table, deal_cards(table, seed + k)), random.Random(seed * 7 + k), **watch)
            for k in range(GAMES)]


def call_key(call: Call | None) -> tuple[object, ...] | None:
    """Returns what identifies a call: id, phase, number, live, actors, seats (and its facts)."""
    if call is None:
        return None
    return (call.id, call.phase, call.number, call.live, call.actors, call.seats, call.facts)


def state(game: Game) -> tuple[object, ...]:
    """Returns everything a replay must rebuild."""
    return (game.outcome, tuple(call_key(c) for c in game.calls), call_key(game.call),
            tuple(map(repr, game.journal)), snapshot(game.state))


seeds = st.integers(0, 2**31)


@FAST
@given(tables(), seeds)
def test_every_game_ends_with_one_of_the_seven_outcomes(table: Table, seed: int) -> None:
    """Every game ends, in a bounded number of calls, with one of the seven winners (docs/rules.md, Victory)."""
    for game in games(table, seed):
        assert game.outcome is not None and game.call is None
        assert game.outcome.winner in WINNERS
        assert len(game.calls) <= MAX_CALLS


@FAST
@given(tables(), seeds)
def test_replaying_the_journal_rebuilds_the_identical_game(table: Table, seed: int) -> None:
    """A saved journal replays to the identical game (the journal is the source of truth)."""
    for game in games(table, seed):
        again = Game(game.table, game.deal, game.journal)
        assert state(again) == state(game)


@FAST
@given(tables(), seeds)
def test_undo_then_the_same_answer_yields_the_identical_game(table: Table, seed: int) -> None:
    """Undo is the replay without the last answer: giving it again restores the game."""
    rng = random.Random(seed)

    def undo_now(game: Game, value: Answer) -> None:
        answered = game.calls[-2] if game.call is not None else game.calls[-1]
        if not answered.needs_answer or rng.random() > (0.5 if game.over else 0.08):
            return
        before = state(game)
        assert game.undo()
        assert call_key(game.call) == call_key(answered) and not game.over
        game.answer(value)
        assert state(game) == before

    games(table, seed, after=undo_now)


@FAST
@given(tables(), seeds)
def test_no_eliminated_player_ever_acts(table: Table, seed: int) -> None:
    """The eliminated never wake nor are named; calls made for them wake nobody (docs/rules.md, fair play)."""

    def check(game: Game) -> None:
        call = game.call
        assert call is not None
        assert all(game.alive(s) for s in call.seats), (call.id, call.seats)
        if not call.live:
            assert call.actors == ()
        elif call.id not in LAST_ACTS:
            assert all(game.alive(s) for s in call.actors), (call.id, call.actors)

    games(table, seed, before=check)


@FAST
@given(tables(), seeds)
def test_the_rusts_doomed_werewolf_wakes_for_no_call(table: Table, seed: int) -> None:
    """The rust's doomed werewolf "dies at the start of the next night, before any call, so he takes no part
    in it", and "from then is not among the living for any choice that night" (docs/rules.md, the Knight's rust)."""

    def check(game: Game) -> None:
        call = game.call
        assert call is not None
        if call.phase is Phase.NIGHT:
            assert not set(call.actors) & game.tonight.doomed, (call.id, call.actors, "doomed:", game.tonight.doomed)
            assert not set(call.seats) & game.tonight.doomed, (call.id, call.seats, "doomed:", game.tonight.doomed)

    games(table, seed, before=check)


@FAST
@given(tables(), seeds)
def test_every_dawn_announces_its_dead_in_seat_order(table: Table, seed: int) -> None:
    """The dawn's dead are announced, and recorded, in ascending seat order, whatever killed them (docs/rules.md,
    Deaths: the order of the causes would tell which death was the poison)."""
    for game in games(table, seed):
        for dawn in (c for c in game.calls if c.id == "dawn"):
            told = [int(str(f.values["seat"])) for f in dawn.facts if f.key == "victim"]
            assert told == sorted(told), told
            recorded = [e.seat for e in game.eliminated if e.phase is Phase.NIGHT and e.number == dawn.number]
            assert recorded == told, (recorded, told)


def again_on(game: Game, night: int) -> bool:
    """Returns whether the first-night choices are made again on ``night``: a Devoted Servant took a card the day
    before (the condemned left holding hers)."""
    took = any(game.marked(p.seat, "devoted") for p in game.players)
    return took and any(e.role == "devoted_servant" and e.cause == "vote" and e.phase is Phase.DAY
                        and e.number == night - 1 for e in game.eliminated)


@FAST
@given(tables(call_dead=True), seeds)
def test_every_night_makes_the_profiles_calls_in_order(table: Table, seed: int) -> None:
    """Each night makes, in the bestof order, the call of every character in the deck, dead or not (docs/rules.md)."""
    # The Actor may hold his cards' powers: they are called; the Baker's call is made for his building.
    deck = set(table.deck) | set(table.actor_cards) | set(table.buildings)
    for game in games(table, seed):
        nights = sorted({c.number for c in game.calls if c.phase is Phase.NIGHT})
        last = game.calls[-1]
        for night in nights:
            made = [c.id for c in game.calls if c.phase is Phase.NIGHT and c.number == night]
            assert made[0] == "nightfall"
            order = night_calls("bestof", night, table.rules.sisters_wake, table.rules.intervals(),
                                again_on(game, night))
            expected = [c for c in order if OWNERS.get(c, frozenset()) & deck]
            if last.phase is Phase.NIGHT and last.number == night:
                assert made[1:] == expected[: len(made) - 1], (night, made)  # the game ended this night
            else:
                assert made[1:] == expected, (night, made)


@FAST
@given(tables(call_dead=False), seeds)
def test_a_night_without_calls_for_the_dead_keeps_the_profiles_order(table: Table, seed: int) -> None:
    """With call_dead off, a night's calls are still a subsequence of the profile's order (docs/rules.md)."""
    for game in games(table, seed):
        for night in {c.number for c in game.calls if c.phase is Phase.NIGHT}:
            made = iter(night_calls("bestof", night, table.rules.sisters_wake, table.rules.intervals(),
                                    again_on(game, night)))
            ids = [c.id for c in game.calls if c.phase is Phase.NIGHT and c.number == night][1:]
            assert all(i in made for i in ids), (night, ids)  # `in` on an iterator: a subsequence


@FAST
@given(tables(), seeds)
def test_winners_are_consistent_with_the_outcome(table: Table, seed: int) -> None:
    """Sides win with every member; nobody leaves no one alive; the others win alone (docs/rules.md, Victory)."""
    for game in games(table, seed):
        assert game.outcome is not None
        winner, winners, living = game.outcome.winner, game.outcome.winners, game.living()
        holders = [s for s in range(1, table.seats + 1) if game.card(s) == winner]
        if winner == "village":
            assert winners and all(game.side(s) is Team.VILLAGE for s in winners)
            assert all(game.side(s) is Team.VILLAGE for s in living)
        elif winner == "werewolves":
            assert winners and all(game.side(s) is Team.WEREWOLVES for s in winners)
            free = [s for s in living if game.side(s) is not Team.WEREWOLVES]
            if game.variant("cult"):  # Sunshine began the Cult: one villager at most is left unseduced
                assert len([s for s in free if not game.marked(s, "seduced")]) <= 1
            else:
                assert not free
        elif winner == "nobody":
            # Nobody left alive, or the stalemate: two players left, two rounds in a row with nobody eliminated.
            assert winners == () and len(living) == (2 if game.outcome.reason == "stalemate" else 0)
        elif winner == "lovers":
            (pair,) = [p for p in game.kept(Lovers).pairs() if set(p) == set(winners)]
            assert set(pair) == set(living)
            assert game.is_werewolf(pair[0]) != game.is_werewolf(pair[1])
        elif winner == "angel":
            (angel,) = winners
            assert holders == [angel] and not game.alive(angel)
            fall = next(e for e in game.eliminated if e.seat == angel)
            bites = {(Phase.NIGHT, 1, cause) for cause in ("werewolves", "big_bad_wolf", "poison")}
            window = {(Phase.DAY, 0, "vote")} | bites
            assert (fall.phase, fall.number, fall.cause) in window
        else:
            assert tuple(winners) == tuple(holders) and all(game.alive(s) for s in winners)
            assert not any(game.marked(s, "infected") for s in winners)
            if winner == "white_werewolf":
                assert living == tuple(winners)
            elif winner == "prejudiced_manipulator":
                (seat,) = winners
                other = next(g for g in table.groups if seat not in g)
                assert not any(game.alive(s) for s in other)
            else:
                assert all(game.marked(s, "charmed") for s in living if s not in winners)


def narrate_roles(roles: list[str], answers: list[tuple[str, Answer]]) -> list[Line]:
    """Plays a game through the English narrator and returns every line."""
    return narrate(new_game(roles), answers)


def voice(lines: list[Line]) -> list[str]:
    return [line.text for line in lines if line.channel == VOICE]


def screen(lines: list[Line]) -> list[str]:
    return [line.text for line in lines if line.channel != VOICE]


SEER_GAME = ["werewolf", "seer", "villager", "villager", "werewolf", "villager"]


def seer_game(target: int | None) -> list[Line]:
    return narrate_roles(SEER_GAME, [("seer", target), ("werewolves", 3), ("vote", 1),
                               ("seer", 5), ("werewolves", 4), ("vote", 5)])


def test_the_seers_choice_is_never_heard() -> None:
    """Whom the Seer looks at is secret: the voice lines are the same whatever she picks (docs/practice-scripts.md)."""
    base = seer_game(1)
    for target in (3, 4, 5, 6, None):
        other = seer_game(target)
        assert voice(other) == voice(base)
        assert screen(other) != screen(base)


FOX_GAME = ["werewolf", "fox", "villager", "villager", "villager", "villager", "werewolf", "villager"]


def fox_game(first: int, later: list[tuple[str, Answer]]) -> list[Line]:
    return narrate_roles(FOX_GAME, [("werewolves", 4), ("fox", first), ("vote", 1), ("werewolves", 5), *later,
                              ("vote", 7)])


def test_whether_the_fox_found_a_werewolf_is_never_heard() -> None:
    """The Fox's sign is secret, and so is the power a "no" costs: he is still called
    (docs/practice-scripts.md, the report's lines)."""
    found = fox_game(8, [("fox", None)])  # seat 8 sits next to the werewolf at seat 7: "yes", power kept
    missed = fox_game(4, [])  # seats 3, 4, 5: no werewolf; power lost, night 2's call is for fair play
    assert voice(found) == voice(missed)
    assert screen(found) != screen(missed)
