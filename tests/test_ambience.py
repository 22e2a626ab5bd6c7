"""The night ambience (issue 12): the generated wind, its mix with the lines, and how a game steers it."""

from __future__ import annotations

import array
import dataclasses
import io
import json
import math
import threading
from pathlib import Path
from typing import Any, Callable, Iterable

import pytest

from engine import Rules, Table
from helpers import old_header
from keystrokes import ScriptedKeys, plan_keys
from narrator import speak
from narrator.cli import main
from narrator.config import config_from_journal, journal_table, load_config
from narrator.errors import UserError
from narrator.narration import CLOSE_EYES, OPEN_EYES
from narrator.play import STARTER, NewGame, Timing, play
from narrator.table import TableIO
from narrator.screen import PlainScreen
from narrator.speak import ambience
from narrator.speak.ambience import (
    BLOCK,
    DUCK_DB,
    DUCK_DOWN,
    DUCK_UP,
    FADE_IN,
    FADE_OUT,
    LEVEL_DBFS,
    LOOP_SECONDS,
    PEAK_DBFS,
    RATE,
    AmbienceMix,
    NightAmbience,
    Ramp,
    mix_samples,
    night_loop,
)
from narrator.speak.audio import Sound, tone
from narrator.speak.hygiene import TARGET_DBFS

GAMES = Path(__file__).resolve().parent / "games"


def samples(sound: Sound) -> array.array[int]:
    return array.array("h", sound.frames)


def dbfs(values: Any) -> float:
    values = list(values)
    return 20 * math.log10(math.sqrt(sum(v * v for v in values) / len(values)) / 32768)


def constant(value: int, count: int, rate: int = RATE) -> Sound:
    return Sound(array.array("h", [value] * count).tobytes(), rate, 1, 2)


# -- the generated loop ---------------------------------------------------------------------------------


def test_the_loop_is_quiet_far_under_the_voice_and_never_near_full_scale() -> None:
    loop = samples(night_loop())
    assert len(loop) == round(RATE * LOOP_SECONDS)
    level = dbfs(loop)
    assert LEVEL_DBFS - 1.0 <= level <= LEVEL_DBFS + 0.1
    assert level <= TARGET_DBFS - 12  # the voice's lines stand well above it
    assert 20 * math.log10(max(abs(v) for v in loop) / 32768) <= PEAK_DBFS


def test_the_loop_is_generated_alike_every_time() -> None:
    """Deterministic (a fixed seed, nothing from the game): the cached loop and a fresh one are the same."""
    kept = night_loop()
    night_loop.cache_clear()
    try:
        assert night_loop().frames == kept.frames
    finally:
        night_loop.cache_clear()


def test_the_loop_comes_round_without_a_click() -> None:
    """Played round and round, the seam is like any other moment of the loop: its step (first difference) and
    its bend (second difference) are no larger than the largest inside it, and its level does not jump."""
    loop = samples(night_loop())
    n = len(loop)
    steps = [loop[(i + 1) % n] - loop[i] for i in range(n)]
    bends = [steps[i] - steps[i - 1] for i in range(n)]
    assert abs(steps[-1]) <= max(map(abs, steps[:-1]))
    assert max(abs(bends[-1]), abs(bends[0])) <= max(map(abs, bends[1:-1]))
    window = RATE // 2
    levels = [dbfs(loop[i:i + window]) for i in range(0, n, window)]
    jumps = [abs(b - a) for a, b in zip(levels, levels[1:])]
    assert abs(levels[0] - levels[-1]) <= max(jumps)


def test_the_wind_moves_slowly_and_gently() -> None:
    """Half-second levels rise and fall by several dB over the loop, but never by more than 3 dB at a time."""
    loop = samples(night_loop())
    window = RATE // 2
    levels = [dbfs(loop[i:i + window]) for i in range(0, len(loop), window)]
    assert max(levels) - min(levels) >= 4.0
    assert max(abs(b - a) for a, b in zip(levels, levels[1:])) <= 3.0


def test_the_wind_is_dark_not_a_hiss() -> None:
    """Most of its sound lies low: its sample-to-sample differences (what a hiss is made of) are far quieter
    than itself; white noise's are 3 dB louder."""
    loop = samples(night_loop())
    assert dbfs(b - a for a, b in zip(loop, loop[1:])) <= dbfs(loop) - 6


# -- the mix ----------------------------------------------------------------------------------------------


def test_a_ramp_reaches_its_target_in_the_samples_given_by_equal_steps() -> None:
    ramp = Ramp(1.0)
    assert ramp.take(4) == 1.0
    ramp.to(0.5, 5)
    values = ramp.take(8)
    assert isinstance(values, list)
    assert values[:5] == pytest.approx([0.9, 0.8, 0.7, 0.6, 0.5])
    assert values[4:] == [0.5] * 4
    assert ramp.take(3) == 0.5


def mix_with(value: int = 1000) -> AmbienceMix:
    """A mix whose loop is one constant sample: what it plays is its gain, times ``value``."""
    mix = AmbienceMix()
    mix.set_loop(constant(value, RATE))
    return mix


def pull(mix: AmbienceMix, seconds: float) -> array.array[int]:
    return array.array("h", mix.fill(round(seconds * RATE)))


def test_the_ambience_is_silent_until_the_eyes_close() -> None:
    mix = mix_with()
    assert set(pull(mix, 1.0)) == {0}


def test_it_fades_in_over_fade_in_and_out_over_fade_out() -> None:
    mix = mix_with()
    mix.start()
    rising = pull(mix, FADE_IN)
    assert list(rising) == sorted(rising) and rising[0] < 10 and rising[-1] == 1000
    assert set(pull(mix, 1.0)) == {1000}
    mix.stop()
    falling = pull(mix, FADE_OUT)
    assert list(falling) == sorted(falling, reverse=True) and falling[0] > 990 and falling[-1] == 0
    assert set(pull(mix, 1.0)) == {0}


def test_it_ducks_under_a_line_and_comes_back_after() -> None:
    """DUCK_DB down over DUCK_DOWN, back over DUCK_UP, smoothly (no step larger than the ramp's)."""
    mix = mix_with()
    mix.start()
    pull(mix, FADE_IN)
    mix.duck()
    down = pull(mix, DUCK_DOWN)
    ducked = round(1000 * 10 ** (DUCK_DB / 20))
    assert down[-1] in (ducked, ducked - 1)  # int() rounds towards zero
    assert max(a - b for a, b in zip(down, down[1:])) <= 1
    assert 20 * math.log10(pull(mix, 0.5)[0] / 1000) == pytest.approx(DUCK_DB, abs=0.1)
    mix.unduck()
    up = pull(mix, DUCK_UP)
    assert list(up) == sorted(up) and up[-1] == 1000


def test_a_loop_that_comes_after_the_eyes_closed_fades_in_from_silence() -> None:
    """Generated late (the first line and the nightfall came quickly), the loop does not burst in halfway up its
    fade: the fade begins again when it comes."""
    mix = AmbienceMix()
    mix.start()
    assert set(pull(mix, FADE_IN / 2)) == {0}
    mix.set_loop(constant(1000, RATE))
    rising = pull(mix, FADE_IN)
    assert rising[0] < 10 and list(rising) == sorted(rising) and rising[-1] == 1000


def test_a_line_is_added_over_the_ambience_and_told_heard_once_handed_over() -> None:
    mix = mix_with()
    mix.start()
    pull(mix, FADE_IN)
    line = array.array("h", [5000] * 1500)
    done = mix.add(line)
    first = array.array("h", mix.fill(1024))
    assert not done.is_set()
    second = array.array("h", mix.fill(1024))
    assert done.is_set()
    assert list(first) == [6000] * 1024
    assert list(second) == [6000] * (1500 - 1024) + [1000] * (2048 - 1500)


def test_a_line_at_full_scale_over_the_ambience_is_clamped_not_wrapped() -> None:
    mix = mix_with(30000)
    mix.start()
    pull(mix, FADE_IN)
    mix.add(array.array("h", [32767, -32768] * 512))
    out = array.array("h", mix.fill(1024))
    assert list(out[:4]) == [32767, -2768, 32767, -2768]


def test_lines_at_another_rate_or_in_stereo_are_mixed_at_the_mix_rate() -> None:
    beep = tone(seconds=0.5)  # 16 kHz
    assert len(mix_samples(beep)) == pytest.approx(RATE * 0.5, abs=2)
    stereo = Sound(array.array("h", [1000, 3000] * 100).tobytes(), RATE, 2, 2)
    assert list(mix_samples(stereo)) == [2000] * 100


# -- the ambience with its output -------------------------------------------------------------------------


class FakeOutput:
    """A sound card that takes BLOCK samples whenever it is asked to: while a line waits to be heard, and as
    the test says. What it took is its clock (``seconds``); ``chunks`` are what it took, labelled."""

    latency = 0.0

    def __init__(self) -> None:
        self.fill: Callable[[int], bytes] | None = None
        self.taken = 0
        self.chunks: list[tuple[str, array.array[int]]] = []
        self.label = ""
        self.closed = False

    def start(self, fill: Callable[[int], bytes]) -> None:
        self.fill = fill

    @property
    def seconds(self) -> float:
        return self.taken / RATE

    def pull(self, blocks: int, label: str = "") -> None:
        assert self.fill is not None
        for _ in range(blocks):
            self.chunks.append((label, array.array("h", self.fill(BLOCK))))
            self.taken += BLOCK

    def wait(self, done: threading.Event, timeout: float) -> bool:
        while not done.is_set():
            self.pull(1, self.label)
        return True

    def close(self) -> None:
        self.closed = True


class DeadOutput(FakeOutput):
    """A sound card that stopped taking samples."""

    def wait(self, done: threading.Event, timeout: float) -> bool:
        return False


def test_a_line_played_over_the_ambience_returns_once_handed_over() -> None:
    output = FakeOutput()
    ambience = NightAmbience(output, loop=constant(1000, RATE))
    ambience.play(constant(3000, 3 * BLOCK))
    assert [list(chunk) for _, chunk in output.chunks] == [[3000] * BLOCK] * 3


def test_the_loop_is_generated_once_the_first_line_has_been_heard() -> None:
    """Not while the program starts, where it would hold up the first line."""
    output = FakeOutput()
    ambience = NightAmbience(output)
    assert ambience.generating is None
    ambience.play(constant(3000, BLOCK))
    assert ambience.generating is not None
    ambience.generating.join()
    assert ambience.mix.loop is not None and ambience.mix.loop.tobytes() == night_loop().frames


def test_an_output_that_stopped_fails_the_line_then_every_later_one_at_once() -> None:
    """The speaker then prints the lines (RenderedSpeaker.say); no line waits for a dead sound card twice."""
    output = DeadOutput()
    ambience = NightAmbience(output, loop=constant(1000, RATE))
    with pytest.raises(RuntimeError, match="stopped"):
        ambience.play(constant(3000, BLOCK))
    output.wait = None  # type: ignore[method-assign,assignment]  # not asked again
    with pytest.raises(RuntimeError, match="stopped"):
        ambience.play(constant(3000, BLOCK))


def test_closing_at_night_fades_the_ambience_out_rather_than_cutting_it() -> None:
    output = FakeOutput()
    ambience = NightAmbience(output, loop=constant(1000, RATE))
    ambience.start()
    output.pull(round(FADE_IN * RATE / BLOCK) + 1)
    taken = len(output.chunks)
    ambience.close()
    tail = [v for _, chunk in output.chunks[taken:] for v in chunk]
    assert tail[0] > 900 and tail[-1] == 0 and tail == sorted(tail, reverse=True)
    assert output.closed


def test_without_a_sound_output_there_is_no_ambience_and_no_warning_of_its_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """make_speaker's own warning says the lines are printed; the ambience adds none."""
    monkeypatch.setattr(speak, "output_problem", lambda device: "no sound output device found")
    warnings: list[str] = []
    assert speak.open_ambience(None, warnings.append) is None
    assert warnings == []


def test_an_ambience_whose_stream_cannot_open_is_left_out_with_one_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: Any, fill: Any) -> None:
        raise OSError("Device unavailable")

    monkeypatch.setattr(speak, "output_problem", lambda device: None)
    monkeypatch.setattr(ambience.SoundDeviceOutput, "start", refuse)
    warnings: list[str] = []
    assert speak.open_ambience(None, warnings.append) is None
    assert len(warnings) == 1 and "Device unavailable" in warnings[0] and "without it" in warnings[0]


# -- a game steers it ---------------------------------------------------------------------------------------

KEY_BLOCKS = round(0.2 * RATE / BLOCK)
"""How long the table takes to press a key, in the fake output's blocks (about 0.2 s)."""
LINE = round(0.4 * RATE / BLOCK) * BLOCK
"""Every line the fake speaker says lasts this many samples (about 0.4 s): a whole number of blocks."""
VOICE = 8000
"""The fake line's constant sample: what a chunk holds beyond it is the ambience."""


class FakeTable:
    """The speaker, the voice log and the keys of a game played over a NightAmbience on a FakeOutput: each line
    said is a constant sound labelled with its key; each key read and each pause take time on the output."""

    def __init__(self, keys: list[str]) -> None:
        self.output = FakeOutput()
        self.ambience = NightAmbience(self.output, loop=constant(1000, RATE))
        self.keys = self.Keys(keys, self.output)
        self.said: list[str] = []
        self.name = "fake"
        self.renders_ahead = False
        self.not_ready_told = ""

    class Keys(ScriptedKeys):
        def __init__(self, keys: list[str], output: FakeOutput) -> None:
            super().__init__(keys)
            self.output = output

        def read(self, timeout: float | None = None) -> str | None:
            self.output.pull(KEY_BLOCKS, "key")
            return super().read(timeout)

    # the voice log: the key of the line just heard, written before the next chunk is pulled (the chunks are
    # labelled once the line is known)
    def write(self, text: str) -> int:
        for row in text.splitlines():
            self.said.append(json.loads(row)["key"])
            label = f"line {len(self.said) - 1} {self.said[-1]}"
            self.output.chunks = [(label if name == "line ?" else name, chunk) for name, chunk in self.output.chunks]
            self.output.label = label
        return len(text)

    def flush(self) -> None:
        pass

    # the speaker
    def say(self, text: str) -> None:
        self.output.label = "line ?"
        self.ambience.play(constant(VOICE, LINE))

    def prepare(self, texts: Iterable[str]) -> int:
        return 0

    def close(self) -> None:
        pass

    def sleep(self, seconds: float) -> None:
        self.output.pull(math.ceil(seconds * RATE / BLOCK), "pause")

    def residue(self) -> list[tuple[str, set[int]]]:
        """Every chunk's label and what it held beyond the line said: the ambience."""
        return [(label, set(v - VOICE for v in chunk) if label.startswith("line") else set(chunk))
                for label, chunk in self.output.chunks]


def night_game(tmp_path: Path, pause_at_night: bool = False) -> FakeTable:
    """The starter table without a Sheriff, played to its end over the ambience (the host pausing on the first
    night's first key, if asked)."""
    config = dataclasses.replace(STARTER, table=Table(8, STARTER.table.deck, Rules(sheriff=False)),
                                 pause=(0.0, 0.0), call_floor=1.0, ambience=True)
    keys, _ = plan_keys(config, 3)
    if pause_at_night:
        first_night = 3 * config.table.seats  # the deal's keys come first
        keys[first_night:first_night] = ["menu", "3", *["5"] * 12, "enter"]  # other keys than Enter wait on
    table = FakeTable(keys)
    play(config, TableIO(table.keys, PlainScreen(io.StringIO()), table, ambience=table.ambience), seed=3,
         start=NewGame(folder=tmp_path), timing=Timing(sleep=table.sleep, clock=lambda: table.output.seconds),
         out=io.StringIO(), voice_log=table)  # type: ignore[arg-type]
    return table


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> FakeTable:
    """One game for the tests that only read it."""
    return night_game(tmp_path_factory.mktemp("journal"))


def test_the_ambience_plays_while_the_eyes_are_closed_ducks_under_lines_and_stops_at_dawn(played: FakeTable) -> None:
    """Silent until the first nightfall; between lines at full level and under them ducked once faded in;
    silent again once faded out after the dawn; back the next night."""
    table = played
    full, ducked = {1000}, {int(1000 * 10 ** (DUCK_DB / 20))}
    eyes_closed = False
    since = 0  # blocks since the eyes last closed or opened
    nights = 0
    seen_full: dict[int, int] = {}  # by night: blocks between lines at full level, and lines said over it ducked
    seen_ducked: dict[int, int] = {}
    for label, residue in table.residue():
        if label.startswith("line"):
            key = label.split()[-1]
            if key in CLOSE_EYES and not eyes_closed:
                eyes_closed, since, nights = True, 0, nights + 1
            elif key in OPEN_EYES and eyes_closed:
                eyes_closed, since = False, 0
        since += 1
        settled = since * BLOCK >= RATE * (FADE_IN if eyes_closed else FADE_OUT) + LINE
        if not eyes_closed and (settled or nights == 0):
            assert residue == {0}, (label, "the ambience plays while the eyes are open")
        elif eyes_closed and settled and label.startswith("line") and residue == ducked:
            seen_ducked[nights] = seen_ducked.get(nights, 0) + 1
        elif eyes_closed and settled and not label.startswith("line") and residue == full:
            seen_full[nights] = seen_full.get(nights, 0) + 1
    assert nights >= 2
    assert set(seen_full) == set(seen_ducked) == set(range(1, nights + 1))  # every night, not only the first


def test_every_line_said_with_eyes_closed_is_said_over_the_ducked_ambience(played: FakeTable) -> None:
    """Once a line's ducking is over (DUCK_DOWN), the ambience under it is at most the ducked level (DUCK_DB
    under full): no line is said over the full ambience."""
    table = played
    ducked = int(1000 * 10 ** (DUCK_DB / 20))
    lines: dict[str, list[set[int]]] = {}
    for label, residue in table.residue():
        if label.startswith("line"):
            lines.setdefault(label, []).append(residue)
    after_duck = math.ceil(DUCK_DOWN * RATE / BLOCK)
    under = [label for label, chunks in lines.items() if any(c - {0} for c in chunks)]
    assert under
    for label in under:
        tail = set().union(*lines[label][after_duck:])
        assert tail - {0} <= set(range(1, ducked + 1)), (label, tail)


def test_a_pause_at_night_keeps_the_ambience_playing(tmp_path: Path) -> None:
    """The host's pause (menu, 3) changes nothing: the eyes stay closed (the pause is not said: issue 22), and the
    wind goes on under the wait."""
    table = night_game(tmp_path, pause_at_night=True)
    chunks = table.residue()
    assert not any(label.endswith(("notice.paused", "notice.resumed")) for label, _ in chunks)
    runs: list[tuple[int, int]] = []  # the keys read one after another, with no line between: (first, end)
    for i, (label, _) in enumerate(chunks):
        if label != "key":
            continue
        if runs and runs[-1][1] == i:
            runs[-1] = (runs[-1][0], i + 1)
        else:
            runs.append((i, i + 1))
    first, end = max(runs, key=lambda run: run[1] - run[0])  # the menu, 3, the twelve keys paused, Enter
    waits = [residue for _, residue in chunks[first:end]]
    assert len(waits) >= 14 * KEY_BLOCKS and all(residue - {0} for residue in waits)
    assert waits[-1] == {1000}  # faded in (since nightfall), and back from the duck
    after = [residue for label, residue in chunks[end:] if label == "key"]
    assert after[0] - {0}  # and it goes on once the game does


# -- the config and the dry run -----------------------------------------------------------------------------


def write_config(tmp_path: Path, extra: str) -> str:
    path = tmp_path / "table.yaml"
    path.write_text("seats: 6\ndeck: [werewolf, werewolf, seer, villager, villager, villager]\n" + extra,
                    encoding="utf-8")
    return str(path)


def test_the_ambience_is_off_unless_the_table_turns_it_on(tmp_path: Path) -> None:
    assert load_config(write_config(tmp_path, ""))[0].ambience is False
    assert load_config(write_config(tmp_path, "ambience: true\n"))[0].ambience is True


@pytest.mark.parametrize("value", ["'yes'", "1", "[true]", "loud"])
def test_an_ambience_that_is_not_true_or_false_is_named_with_its_line(tmp_path: Path, value: str) -> None:
    with pytest.raises(UserError) as refused:
        load_config(write_config(tmp_path, f"ambience: {value}\n"))
    message = str(refused.value)
    assert "table.yaml:3" in message and "ambience: expected true or false" in message


def test_a_journal_keeps_the_ambience_and_an_older_one_goes_on_without_it(tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path, "ambience: true\n"))[0]
    assert config_from_journal(journal_table(config), "j:1").ambience is True
    old = old_header()  # a journal's table in the shape it had before the table config's own
    assert config_from_journal(old, "j:1").ambience is True
    del old["config"]["ambience"]
    assert config_from_journal(old, "j:1").ambience is False


def test_check_help_lists_the_ambience(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "  ambience: true or false" in capsys.readouterr().out


def dry_run_with(tmp_path: Path, ambience: bool) -> tuple[Path, str]:
    script = (GAMES / "first_game.yaml").read_text(encoding="utf-8").replace(  # espeak-ng: a line in 15 ms
        "table:\n", "table:\n  speaker: pyttsx3\n", 1)
    if ambience:
        script = script.replace("  sheriff: false\n", "  sheriff: false\n  ambience: true\n")
    folder = tmp_path / ("on" if ambience else "off")
    folder.mkdir()
    (folder / "script.yaml").write_text(script, encoding="utf-8")
    assert main(["dry-run", str(folder / "script.yaml"), "--silent", "--report", str(folder / "report.json"),
                 "--audio-dir", str(folder / "audio")]) == 0
    return folder / "audio", (folder / "report.json").read_text(encoding="utf-8")


def test_dry_run_writes_the_ambience_once_for_the_host_and_the_same_report(tmp_path: Path) -> None:
    """With ambience: true, --audio-dir holds ambience.wav (the loop) beside the lines; the report is the same."""
    audio_on, report_on = dry_run_with(tmp_path, True)
    audio_off, report_off = dry_run_with(tmp_path, False)
    assert Sound.read(audio_on / "ambience.wav") == night_loop()
    assert not (audio_off / "ambience.wav").exists()
    assert report_on == report_off
    assert {p.name for p in audio_on.iterdir()} == {p.name for p in audio_off.iterdir()} | {"ambience.wav"}
