"""Calls last alike, living or dead: the floor, empty calls paced by the living, on a fake clock."""

from __future__ import annotations

import io
import math
import random
import re
from pathlib import Path
from typing import Iterable

import pytest

from engine import Game, Kind, Phase, Rules, Table, deal_cards
from helpers import old_header
from keystrokes import ScriptedKeys, plan_keys
from narrator.asking import KeypadAnswers
from narrator.hearing import SpokenAnswers
from narrator.cli import main
from narrator.config import TableConfig, config_from_journal, journal_table, load_config
from narrator.narration import wakes
from narrator.pacing import IDENTIFY, MIN_SAMPLES, Pacing
from narrator.play import STARTER, NewGame, Timing, play
from narrator.table import TableIO
from narrator.screen import PlainScreen
from narrator.voices import load_voice


class FakeTime:
    """A clock that moves only when the program sleeps, or when a test says time passed."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[tuple[float, float]] = []  # (when, how long)

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append((self.now, seconds))
        self.now += seconds

    def pass_(self, seconds: float) -> None:
        self.now += seconds


def pacing(floor: float = 5.0, fallback: tuple[float, float] = (6.0, 12.0), seed: int = 1) -> tuple[Pacing, FakeTime]:
    time = FakeTime()
    return Pacing(floor, fallback, clock=time.clock, sleep=time.sleep, rng=random.Random(seed)), time


def living(pace: Pacing, time: FakeTime, key: str, seconds: float) -> float:
    """A call answered by someone after ``seconds``; returns how long it lasted."""
    start = time.now
    pace.open(key, object())
    time.pass_(seconds)
    pace.close()
    return time.now - start


def empty(pace: Pacing, time: FakeTime, key: str) -> float:
    """A call nobody answers; returns how long it lasted."""
    start = time.now
    pace.open(key, object())
    pace.wait(key)
    pace.close()
    return time.now - start


# -- the floor --------------------------------------------------------------------------------------

def test_a_quick_answer_waits_out_the_floor() -> None:
    """An answer in 2 s with a floor of 5 s: the call closes 5 s after it opened."""
    pace, time = pacing()
    assert living(pace, time, "seer", 2.0) == 5.0
    assert time.slept == [(2.0, 3.0)]


def test_a_slow_answer_waits_nothing_more() -> None:
    """Past the floor, the call closes as soon as it is answered."""
    pace, time = pacing()
    assert living(pace, time, "seer", 12.0) == 12.0
    assert time.slept == []


def test_a_floor_of_zero_never_waits() -> None:
    """call_floor: 0 and pause: [0, 0] (the tests' tables): nothing is ever waited."""
    pace, time = pacing(floor=0.0, fallback=(0.0, 0.0))
    living(pace, time, "seer", 0.0)
    empty(pace, time, "witch")
    assert time.slept == [] and time.now == 0.0


def test_a_refused_answer_keeps_its_call_open() -> None:
    """The same call asked again after a refusal goes on timing from its opening, not from the refusal."""
    pace, time = pacing()
    call = object()
    pace.open("seer", call)
    time.pass_(3.0)
    pace.open("seer", call)  # the refusal shown, the Seer answers again
    time.pass_(4.0)
    pace.close()
    assert time.now == 7.0 and pace.samples["seer"] == [7.0]


# -- empty calls ----------------------------------------------------------------------------------

def test_an_empty_call_lasts_the_fallback_range_until_the_living_set_the_pace() -> None:
    """With fewer than MIN_SAMPLES living calls, an empty call lasts a time from the configured range."""
    pace, time = pacing(fallback=(6.0, 12.0))
    for _ in range(MIN_SAMPLES - 1):
        living(pace, time, "werewolves", 30.0)
    lengths = [empty(pace, time, "seer") for _ in range(50)]
    assert all(6.0 <= t <= 12.0 for t in lengths)
    assert len(set(lengths)) > 40  # drawn, not fixed


def test_the_fallback_range_never_goes_under_the_floor() -> None:
    """A range that starts under the floor counts as the floor."""
    pace, time = pacing(floor=5.0, fallback=(0.0, 8.0))
    assert all(5.0 <= empty(pace, time, "seer") <= 8.0 for _ in range(50))


def test_an_empty_call_lasts_as_long_as_the_living_calls_did() -> None:
    """Once the living have answered, an empty call's length is drawn from theirs, not from the range."""
    pace, time = pacing(fallback=(100.0, 100.0))
    for seconds in (9.0, 11.0, 14.0):
        living(pace, time, "seer", seconds)
    lengths = [empty(pace, time, "seer") for _ in range(200)]
    assert all(5.0 <= t <= 14.0 for t in lengths)  # never past the longest living call
    assert min(lengths) < 9.0 and max(lengths) > 12.0  # spread around them


def test_an_empty_call_never_repeats_a_living_length_to_the_tenth_of_a_second() -> None:
    """A drawn sample is stretched by a random factor: a stopwatch finds no living call's length again."""
    pace, time = pacing()
    for seconds in (9.0, 11.0, 14.0):
        living(pace, time, "seer", seconds)
    lengths = [empty(pace, time, "seer") for _ in range(200)]
    repeats = [t for t in lengths if any(abs(t - s) < 0.05 for s in (9.0, 11.0, 14.0))]
    assert len(repeats) < 40


def test_an_empty_call_is_paced_by_its_own_character_first() -> None:
    """A dead Seer waits as the living Seer took; a call with too few of its own, as all the night's calls."""
    pace, time = pacing(floor=0.0, fallback=(100.0, 100.0))
    for _ in range(MIN_SAMPLES):
        living(pace, time, "seer", 20.0)
        living(pace, time, "werewolves", 8.0)
    seer = [empty(pace, time, "seer") for _ in range(50)]
    witch = [empty(pace, time, "witch") for _ in range(200)]
    assert all(13.0 <= t <= 20.0 for t in seer)
    assert any(t < 10.0 for t in witch) and any(t > 13.0 for t in witch)


def test_the_identification_of_real_cards_is_paced_apart_from_the_night() -> None:
    """A card in the centre waits as long as the players took to type their seats, never as the night's calls."""
    pace, time = pacing(floor=0.0, fallback=(100.0, 100.0))
    for _ in range(MIN_SAMPLES):
        living(pace, time, "werewolves", 30.0)
    assert empty(pace, time, IDENTIFY) == 100.0  # no identification yet: the range
    for _ in range(MIN_SAMPLES):
        living(pace, time, IDENTIFY, 4.0)
    assert all(empty(pace, time, IDENTIFY) <= 4.0 for _ in range(20))
    assert all(empty(pace, time, "seer") > 4.0 for _ in range(20))


def test_the_hosts_pause_is_not_part_of_an_answer() -> None:
    """Time in the host menu (a pause for the phone) is left out of the living call's sample."""
    pace, time = pacing(fallback=(100.0, 100.0))
    pace.open("seer", object())
    time.pass_(3.0)
    with pace.held():
        time.pass_(600.0)
    time.pass_(6.0)
    pace.close()
    assert pace.samples["seer"] == [9.0]


def test_a_slow_characters_empty_calls_last_as_long_as_its_living_ones() -> None:
    """A Witch who took 22 s while the others took 5 to 7 had a 5 s call once her potions were spent (her
    sample, over three times the night's median, was left out as an outlier): her empty calls now lie within 25 % of
    her own living calls, however slow."""
    pace, time = pacing(floor=5.0, fallback=(6.0, 12.0))
    for seconds in (5.0, 6.0, 7.0):
        living(pace, time, "seer", seconds)
        living(pace, time, "werewolves", seconds)
    living(pace, time, "witch", 22.0)
    lengths = [empty(pace, time, "witch") for _ in range(200)]
    assert all(22.0 * 0.75 <= t <= 22.0 for t in lengths), (min(lengths), max(lengths))


def test_an_empty_call_gives_no_sample() -> None:
    """Only answered calls set the pace: an empty call's wait is not a living answer time."""
    pace, time = pacing()
    empty(pace, time, "seer")
    assert pace.samples == {}


# -- at the keypad ----------------------------------------------------------------------------------

def seer_game() -> Game:
    table = Table(6, ("werewolf", "werewolf", "seer", "villager", "villager", "villager"), Rules(sheriff=False))
    game = Game(table, deal_cards(table, 1))
    game.answer(None)  # nightfall
    return game


class TimedKeys(ScriptedKeys):
    """Keys that each take ``step`` seconds to press."""

    def __init__(self, keys: list[str], time: FakeTime, step: float) -> None:
        super().__init__(keys)
        self.time = time
        self.step = step

    def read(self, timeout: float | None = None) -> str | None:
        self.time.pass_(self.step)
        return super().read(timeout)


def keypad(keys: list[str], time: FakeTime, pace: Pacing, rng: random.Random | None = None) -> KeypadAnswers:
    return KeypadAnswers(TimedKeys(keys, time, 1.0), PlainScreen(io.StringIO()), load_voice("en"),
                         say=lambda k, v: None, repeat=lambda: None, rng=rng, clock=time.clock, pacing=pace)


def test_the_host_menu_at_a_night_call_is_not_counted() -> None:
    """The host pauses the game (menu, 3, Enter) during the Seer's call: the Seer's sample is her own time."""
    pace, time = pacing()
    game = seer_game()
    call = game.call
    assert call is not None and call.id == "seer"
    answers = keypad(["menu", "3", "enter", "2", "enter", "enter"], time, pace)
    assert answers.answer(call, game) == 2
    pace.close()
    assert time.now == 6.0 and pace.samples["seer"] == [5.0]  # 3 keys of hers, waited out to the floor


class SpokenSeat:
    """A microphone that hears "seat two" after ``seconds``."""

    def __init__(self, time: FakeTime, seconds: float) -> None:
        self.time = time
        self.seconds = seconds

    def answer(self, call: object, legal: object = None) -> int:
        self.time.pass_(self.seconds)
        return 2


def test_a_spoken_night_answer_counts_as_a_typed_one() -> None:
    """inputs: {night: [voice]}: the Seer who says her answer sets the pace, and waits out the floor, alike."""
    pace, time = pacing()
    game = seer_game()
    call = game.call
    assert call is not None and call.id == "seer"
    answers = keypad([], time, pace)
    answers.devices = (SpokenAnswers(SpokenSeat(time, 3.0), frozenset({"night"})),)
    assert answers.answer(call, game) == 2
    pace.close()
    assert time.now == 5.0 and pace.samples["seer"] == [5.0]


def test_a_call_made_for_the_dead_draws_nothing_from_the_games_generator() -> None:
    """The pacing has its own generator: the game's draws (journaled) are the same whatever it waited."""
    pace, time = pacing()
    game = seer_game()
    call = game.call._replace(live=False)  # type: ignore[union-attr]
    rng = random.Random(4)
    before = rng.getstate()
    assert keypad([], time, pace, rng).answer(call, game) is None
    assert rng.getstate() == before and time.now >= 5.0


def test_day_calls_are_not_paced() -> None:
    """By day everyone's eyes are open: no floor, no call opened."""
    table = Table(6, ("werewolf", "werewolf", "seer", "villager", "villager", "villager"), Rules(sheriff=True))
    game = Game(table, deal_cards(table, 1))
    call = game.call
    assert call is not None and call.phase is Phase.DAY
    pace, time = pacing()
    assert keypad(["3", "enter", "enter"], time, pace).answer(call, game) == 3
    assert pace.open_key is None and time.slept == []


def test_a_draw_shown_to_someone_awake_lasts_as_long_as_they_read_it() -> None:
    """The Wolf Hound's drawn side: answered at once; his reading makes it a living call (no wait drawn)."""
    pace, time = pacing()
    game = seer_game()
    seer = game.call
    assert seer is not None
    call = seer._replace(id="wolf_hound", kind=Kind.DRAW, actors=(3,), options=("village", "wolf"))
    assert keypad([], time, pace).answer(call, game) in ("village", "wolf")
    assert time.slept == [] and pace.open_key == "wolf_hound"


# -- through play() ----------------------------------------------------------------------------------

class TimedSpeaker:
    """A speaker that notes when each line is said."""

    name = "timed"
    renders_ahead = False
    not_ready_told = ""

    def __init__(self, time: FakeTime) -> None:
        self.time = time
        self.said: list[tuple[float, str]] = []

    def say(self, text: str) -> None:
        self.said.append((self.time.now, text))

    def prepare(self, texts: Iterable[str]) -> int:
        return 0

    def close(self) -> None:
        pass


def night_calls(config: TableConfig, seed: int) -> list[tuple[str, bool]]:
    """The night calls that wake characters in plan_keys's game, in order: (id, live)."""
    game = Game(config.table, deal_cards(config.table, seed))
    rng = random.Random(seed)
    calls = []
    while not game.over:
        call = game.call
        assert call is not None
        if wakes(call):
            calls.append((call.id, call.live))
        game.answer(rng.choice(game.legal()) if call.needs_answer else None)
    return calls


def windows(said: list[tuple[float, str]], calls: list[tuple[str, bool]]) -> list[tuple[float, float]]:
    """Returns when each call's wake line and sleep line were said, in order."""
    voice = load_voice("en")
    found, i = [], 0
    for call_id, _ in calls:
        wake, sleep = (voice.spoken(voice.text(f"{call_id}.{part}", {})) for part in ("wake", "sleep"))
        i = next(j for j in range(i, len(said)) if said[j][1] == wake)
        start = said[i][0]
        i = next(j for j in range(i, len(said)) if said[j][1] == sleep)
        found.append((start, said[i][0]))
    return found


def test_play_paces_every_night_call_from_the_living_answers(tmp_path: Path) -> None:
    """At the table: every night call lasts the floor at least; from night 2, a dead Seer's or a powerless
    Witch's call lasts as long as the living calls did (never the fallback range); only night calls wait."""
    config = TableConfig("en", STARTER.table, pause=(100.0, 100.0), call_floor=5.0)
    keys, ahead = plan_keys(config, 35)
    time = FakeTime()
    speaker = TimedSpeaker(time)
    game = play(config, TableIO(TimedKeys(keys, time, 2.0), PlainScreen(io.StringIO()), speaker), seed=35,
                start=NewGame(folder=tmp_path), timing=Timing(sleep=time.sleep, clock=time.clock),
                out=io.StringIO())
    assert game.outcome == ahead.outcome  # the pacing draws nothing from the game's generator
    calls = night_calls(config, 35)
    spans = windows(speaker.said, calls)
    lengths = [end - start for start, end in spans]
    assert all(t >= 5.0 - 1e-9 for t in lengths)
    dead = [t for t, (_, live) in zip(lengths, calls) if not live]
    alive = [t for t, (_, live) in zip(lengths, calls) if live]
    assert len(dead) == 8 and max(dead) <= max(alive) + 1e-9 and max(alive) < 100.0
    assert time.slept and all(any(start <= when < end for start, end in spans) for when, _ in time.slept)


def test_the_card_in_the_centre_is_paced_like_an_identification(tmp_path: Path) -> None:
    """deal: cards: the Seer's card lies in the centre; its call lasts about as long as the Thief's (the one
    identification so far), never the configured range; the others last as the players take, and no less
    than the floor."""
    table = Table(8, ("thief", "seer", "werewolf", "werewolf", "hunter", "villager", "villager", "villager",
                      "villager", "villager"), Rules(sheriff=False))
    config = TableConfig("en", table, deal="cards", pause=(100.0, 100.0), call_floor=5.0)
    kinds = sorted(set(table.deck))
    keys = ["enter"]  # every player has looked at their card
    keys += ["1", "enter", "enter"]  # the Thief is seat 1; the Seer and a villager lie in the centre
    keys += [str(kinds.index("seer") + 1), "enter", str(kinds.index("villager") + 1), "enter", "enter"]
    keys += ["3", "enter", "4", "enter", "enter"]  # the werewolves
    keys += ["5", "enter", "enter"]  # the Hunter
    time = FakeTime()
    speaker = TimedSpeaker(time)
    try:
        play(config, TableIO(TimedKeys(keys, time, 1.0), PlainScreen(io.StringIO()), speaker), seed=1,
             start=NewGame(folder=tmp_path), timing=Timing(sleep=time.sleep, clock=time.clock),
             out=io.StringIO())
    except EOFError:
        pass  # the keys end with the identification
    woken = [when for when, text in speaker.said if text.endswith("type your seat number on the keypad.")]
    asleep = [when for when, text in speaker.said if text.endswith("go back to sleep.")]
    thief, seer, werewolves, hunter = (end - start for start, end in zip(woken, asleep))
    assert thief == pytest.approx(8.0) and 5.0 - 1e-9 <= seer <= 8.0 + 1e-9
    assert werewolves == pytest.approx(5.0) and hunter == pytest.approx(5.0)


# -- the two distributions --------------------------------------------------------------------------

def ks_statistic(first: list[float], second: list[float]) -> float:
    """The two-sample Kolmogorov–Smirnov statistic: the largest gap between the two empirical distributions."""
    a, b = sorted(first), sorted(second)
    i = j = 0
    gap = 0.0
    while i < len(a) and j < len(b):
        x = min(a[i], b[j])
        while i < len(a) and a[i] <= x:
            i += 1
        while j < len(b) and b[j] <= x:
            j += 1
        gap = max(gap, abs(i / len(a) - j / len(b)))
    return gap


def ks_critical(n: int, m: int, alpha: float = 0.05) -> float:
    """The statistic over which two samples of sizes n and m differ at level ``alpha`` (large samples)."""
    return math.sqrt(-math.log(alpha / 2) / 2) * math.sqrt((n + m) / (n * m))


def answer_time(rng: random.Random, median: float) -> float:
    """How long a living character takes: mostly a log-normal spread around ``median``, sometimes quick."""
    if rng.random() < 0.15:
        return rng.uniform(1.5, 5.0)  # a quick answer, under the floor
    return rng.lognormvariate(math.log(median), 0.4)


CHARACTERS = {"werewolves": 14.0, "seer": 10.0, "witch": 12.0}
"""Three calls a night, with each character's typical time: the pack deliberates, the Seer is quick."""


def simulated_nights(games: int, nights: int, seed: int) -> tuple[list[float], list[float]]:
    """Plays ``games`` tables of ``nights`` nights; the Seer and the Witch die on a random night. Returns the
    lengths of their calls made for the living and those made for the dead."""
    rng = random.Random(seed)
    alive: list[float] = []
    dead: list[float] = []
    for game in range(games):
        time = FakeTime()
        pace = Pacing(5.0, (5.0, 15.0), clock=time.clock, sleep=time.sleep, rng=random.Random(seed * 1000 + game))
        dies = {"seer": rng.randint(2, nights + 1), "witch": rng.randint(2, nights + 1)}
        for night in range(1, nights + 1):
            for character, median in CHARACTERS.items():
                if night >= dies.get(character, nights + 2):
                    dead.append(empty(pace, time, character))
                    continue
                took = living(pace, time, character, answer_time(rng, median))
                if character in dies:
                    alive.append(took)
    return alive, dead


def test_a_dead_characters_calls_cannot_be_told_from_a_living_ones_by_their_length() -> None:
    """Over 200 nights (50 tables of 4), the dead Seer's and Witch's calls and the living ones' have the
    same distribution of lengths: a two-sample Kolmogorov–Smirnov test does not tell them apart."""
    alive, dead = simulated_nights(games=50, nights=4, seed=7)
    assert len(alive) > 100 and len(dead) > 100
    assert ks_statistic(alive, dead) < ks_critical(len(alive), len(dead))


def test_the_two_sample_test_tells_todays_pause_from_living_answers() -> None:
    """The control: the test does catch the leak the pacing closes — a dead call waiting 3 to 8 s against
    living answers of 10 to 20 s, or against realistic answer times."""
    rng = random.Random(7)
    before = [rng.uniform(3.0, 8.0) for _ in range(150)]
    assert ks_statistic([rng.uniform(10.0, 20.0) for _ in range(250)], before) > ks_critical(250, 150)
    realistic = [answer_time(rng, 11.0) for _ in range(250)]
    assert ks_statistic(realistic, before) > ks_critical(250, 150)


# -- the host's settings ----------------------------------------------------------------------------

def test_the_floor_and_the_range_are_read_from_the_config_with_their_defaults(tmp_path: Path) -> None:
    """call_floor and pause come from the table config; without them, 5 s and [5, 15]."""
    deck = "deck: [werewolf, seer, villager, villager, villager, villager]\n"
    (tmp_path / "plain.yaml").write_text(deck, encoding="utf-8")
    (tmp_path / "tuned.yaml").write_text(deck + "call_floor: 0\npause: [0, 0]\n", encoding="utf-8")
    plain, _ = load_config(str(tmp_path / "plain.yaml"))
    tuned, warnings = load_config(str(tmp_path / "tuned.yaml"))
    assert (plain.call_floor, plain.pause) == (5.0, (5.0, 15.0))
    assert (tuned.call_floor, tuned.pause) == (0.0, (0.0, 0.0)) and warnings == []


def test_a_range_under_the_floor_is_accepted_with_a_warning(tmp_path: Path) -> None:
    """pause: [1, 2] with the floor of 5 s: every empty call would last the floor; said at the key's line."""
    path = tmp_path / "table.yaml"
    path.write_text("deck: [werewolf, seer, villager, villager, villager, villager]\npause: [1, 2]\n", encoding="utf-8")
    _, warnings = load_config(str(path))
    assert len(warnings) == 1 and "table.yaml:2: pause:" in warnings[0] and "call_floor" in warnings[0]


def test_the_journal_keeps_the_floor_and_an_old_journal_resumes_with_the_default() -> None:
    """The floor is saved with the table; a journal written before it existed still resumes."""
    config = TableConfig("en", STARTER.table, pause=(2.0, 9.0), call_floor=3.5)
    assert config_from_journal(journal_table(config), "game.jsonl:1") == config
    old = old_header()  # a journal's table in the shape it had before the table config's own
    del old["config"]["call_floor"]
    assert config_from_journal(old, "game.jsonl:1").call_floor == TableConfig.call_floor


def test_check_help_lists_the_floor_and_the_range_with_their_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    """`werewolf-narrator check --help` tells the host what call_floor and pause do, and their defaults."""
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert re.search(r"call_floor: a number of seconds.*\(default 5\)", shown)
    assert re.search(r"pause: \[min, max\] seconds.*call_floor.*default \[5, 15\]\)", shown)


def test_the_timing_check_prints_each_characters_empty_calls_within_its_living_ones() -> None:
    """Issue 22's timing check (scripts/check_pacing.py): every empty call within 25 % of its own character's living
    calls, before and after a resume; its control (the samples forgotten at the resume) is caught out of range."""
    import subprocess
    import sys

    script = Path(__file__).resolve().parent.parent / "scripts" / "check_pacing.py"

    def within(*args: str) -> list[tuple[int, int]]:
        out = subprocess.run([sys.executable, str(script), "--games", "12", *args], capture_output=True, text=True,
                             check=True, timeout=120).stdout
        return [(int(good), int(total)) for good, total in re.findall(r"(\d+) of (\d+) empty calls within", out)]

    kept = within()
    assert kept and all(good == total for good, total in kept)
    assert any(good < total for good, total in within("--forget"))
