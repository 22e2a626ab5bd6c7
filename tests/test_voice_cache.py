"""The voice cache: lines rendered once, rendered ahead, stale or damaged files never used, `voices render`."""

from __future__ import annotations

import errno
import os
import random
import struct
import threading
from pathlib import Path
from typing import Any, Iterable

import pytest
from test_speak import needs_engine

from narrator.cli import main
from narrator.practice import dry_run
from narrator.script import load_script
from narrator.speak import (
    Pyttsx3Speaker,
    VoiceCache,
    default_folder,
    fixed_lines,
    lines_ahead,
    pyttsx3_backend,
    table_lines,
)
from narrator.speak.audio import Sound
from narrator.speak.cache import line_key
from narrator.speak.rendered import EngineThread, RenderedSpeaker
from narrator.voices import load_voice, placeholders

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LINE = "Seat seven, wake up."




class Counting:
    """A speaker's renderer that counts the lines it renders live."""

    def __init__(self, speaker: Pyttsx3Speaker) -> None:
        inner: Any = speaker._renderer
        self.inner = inner
        self.rendered: list[str] = []
        self.engine_version: str = inner.engine_version

    def render(self, text: str, voice: str, rate: int | None) -> Sound:
        self.rendered.append(text)
        return self.inner.render(text, voice, rate)  # type: ignore[no-any-return]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def speaker_with(folder: Path, warnings: list[str], language: str = "en", rate: int | None = None,
                 played: list[Sound] | None = None) -> tuple[Pyttsx3Speaker, Counting]:
    speaker = Pyttsx3Speaker(language, rate=rate, warn=warnings.append,
                             cache=VoiceCache(folder, warn=warnings.append),
                             sink=(played if played is not None else []).append)
    counting = Counting(speaker)
    speaker._renderer = counting  # type: ignore[assignment]
    return speaker, counting


def wait_ahead(speaker: Pyttsx3Speaker) -> None:
    """Waits until every line queued ahead is rendered."""
    assert speaker.wait_ahead(120)


def test_the_cache_key_changes_with_backend_engine_voice_rate_and_text() -> None:
    base = ("pyttsx3", "pyttsx3 2.99 espeak-ng 1.51", "gmw/en-us", 175, LINE)
    key = line_key(*base)
    assert key == line_key(*base)
    for i, other in enumerate(("nsss", "pyttsx3 2.99 espeak-ng 1.52", "roa/fr", 180, "Seat eight, wake up.")):
        changed = list(base)
        changed[i] = other
        assert line_key(*changed) != key, changed  # type: ignore[arg-type]


def test_the_cache_lives_in_the_users_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if default_folder().is_relative_to(tmp_path):  # Linux and the other XDG systems
        assert default_folder() == tmp_path / "werewolf-narrator" / "voices"
    assert VoiceCache().folder == default_folder()


@needs_engine
def test_a_line_said_twice_is_rendered_once(tmp_path: Path) -> None:
    warnings: list[str] = []
    played: list[Sound] = []
    speaker, counting = speaker_with(tmp_path, warnings, played=played)
    speaker.say(LINE)
    speaker.say(LINE)
    again, again_counting = speaker_with(tmp_path, warnings, played=played)  # a new game: from the disk
    again.say(LINE)
    assert counting.rendered == [LINE] and again_counting.rendered == []
    assert len(played) == 3 and played[0] == played[1] == played[2] and played[0].frames
    assert [p.name for p in tmp_path.glob("*.wav")] == [f"{speaker.key(LINE)}.wav"]
    assert not warnings


@needs_engine
def test_a_stale_entry_is_not_used_when_the_voice_or_rate_changes(tmp_path: Path) -> None:
    warnings: list[str] = []
    slow, _ = speaker_with(tmp_path, warnings, rate=120)
    slow.say(LINE)
    fast, counting = speaker_with(tmp_path, warnings, rate=240)
    french, french_counting = speaker_with(tmp_path, warnings, language="fr", rate=120)
    fast.say(LINE)
    french.say(LINE)
    assert counting.rendered == [LINE] and french_counting.rendered == [LINE]
    assert len({slow.key(LINE), fast.key(LINE), french.key(LINE)}) == 3
    assert len(fast.sound(LINE).frames) < len(slow.sound(LINE).frames)  # really said faster, not the old file


@needs_engine
def test_a_damaged_cache_file_is_rendered_again_with_one_warning(tmp_path: Path) -> None:
    warnings: list[str] = []
    played: list[Sound] = []
    speaker, counting = speaker_with(tmp_path, warnings, played=played)
    other = "Seat eight, wake up."
    for text in (LINE, other):
        speaker.cache.put(speaker.key(text), Sound(b"\0\0", 22050, 1, 2))  # type: ignore[union-attr]
        speaker.cache.path(speaker.key(text)).write_bytes(b"RIFF\x10\0\0\0WAVEtorn")  # type: ignore[union-attr]
    speaker.cache = VoiceCache(tmp_path, warn=warnings.append)  # nothing in memory: read from the disk
    speaker.say(LINE)
    speaker.say(other)
    assert counting.rendered == [LINE, other]
    assert all(p.frames for p in played) and len(played) == 2
    assert len(warnings) == 1 and "cannot be read" in warnings[0] and str(tmp_path) in warnings[0]
    assert VoiceCache(tmp_path).get(speaker.key(LINE)) == played[0]  # written again, whole


@needs_engine
def test_a_cache_that_cannot_be_written_falls_back_to_live_rendering_with_one_warning(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be")
    warnings: list[str] = []
    played: list[Sound] = []
    speaker, counting = speaker_with(blocked / "voices", warnings, played=played)
    speaker.say(LINE)
    speaker.say("Seat eight, wake up.")
    speaker.say(LINE)  # still kept in memory
    assert counting.rendered == [LINE, "Seat eight, wake up."]
    assert len(played) == 3 and all(p.frames for p in played)
    assert len(warnings) == 1 and "cannot write rendered lines" in warnings[0]


@needs_engine
def test_lines_rendered_ahead_are_said_without_rendering(tmp_path: Path) -> None:
    warnings: list[str] = []
    speaker, counting = speaker_with(tmp_path, warnings)
    lines = [LINE, "Seat eight, wake up.", LINE, "  "]
    assert speaker.prepare(lines) == 2
    wait_ahead(speaker)
    assert all(speaker.cached(line) for line in lines[:2])
    speaker.prepare(lines)  # all there already: nothing is rendered again
    wait_ahead(speaker)
    assert len(list(tmp_path.glob("*.wav"))) == 2
    speaker.say("Seat eight, wake up.")
    assert counting.rendered == [] and not warnings


@needs_engine
def test_lines_queued_ahead_are_dropped_when_the_speaker_closes(tmp_path: Path) -> None:
    warnings: list[str] = []
    speaker, _ = speaker_with(tmp_path, warnings)
    renderer: Any = speaker._renderer
    inner = renderer.inner
    gate = inner.submit(lambda: __import__("threading").Event().wait(0.5), pyttsx3_backend.NOW)  # keeps it busy
    speaker.prepare([f"Seat {n}, wake up." for n in range(1, 30)])
    speaker.close()
    gate.result(60)
    inner.submit(lambda: None).result(60)
    assert len(list(tmp_path.glob("*.wav"))) <= 1  # at most the one under way when it closed


def test_fixed_lines_are_said_lines_without_placeholders() -> None:
    for language in ("en", "fr", "zh"):
        voice = load_voice(language)
        lines = fixed_lines(voice)
        assert voice.spoken(voice.lines["nightfall.call"]) in lines
        assert all("{" not in line for line in lines)
        shown = {voice.text(key, {}) for key in voice.lines if key.startswith("screen.")
                 and not placeholders(voice.lines[key])}
        assert not shown & set(lines)


def test_table_lines_cover_every_seat_name_and_character_of_the_table() -> None:
    voice = load_voice("en")
    names = ("Ann", None, "Bob")
    lines = table_lines(voice, 3, names, ["witch", "werewolf"])
    assert "The village eliminates Ann, seat number one. Their card: Witch." in lines
    assert "Seat number two is the Sheriff." in lines
    assert "Bob, seat number three?" in lines  # the read-back of a day answer
    assert not any("seat number four" in line for line in lines)
    assert not any("Their card: Hunter" in line for line in lines)
    assert table_lines(voice, 3) and not any("Their card" in line for line in table_lines(voice, 3))


def test_every_line_a_practice_game_says_is_rendered_ahead_but_lists_of_seats() -> None:
    for language in ("en", "fr", "zh"):
        script, _ = load_script(str(EXAMPLES / f"practice-{language}.yaml"))
        _, lines = dry_run(script)
        voice = load_voice(language)
        config = script.config
        ahead = set(lines_ahead(voice, config.table.seats, config.names, config.table.deck, config.table))
        said = [line for line in lines if line.channel == "voice"]
        missed = [line for line in said if voice.spoken(line.text) not in ahead]
        assert said and all("seats" in placeholders(voice.lines[line.key]) for line in missed), missed


@pytest.mark.parametrize("script_path", sorted((EXAMPLES.parent / "tests" / "games").glob("*.yaml")),
                         ids=lambda path: path.stem)
def test_the_lines_left_out_of_a_tables_render_are_never_said_at_that_table(script_path: Path) -> None:
    """Lines of characters and parts of the game a table never plays are not rendered ahead (lines_ahead with the
    table): every practice game, of every character, variant and building, says no line the table's render left
    out that a render of every line would have held."""
    script, _ = load_script(str(script_path))
    _, lines = dry_run(script)
    config = script.config
    voice = load_voice(config.language)
    ahead = set(lines_ahead(voice, config.table.seats, config.names, config.table.deck, config.table))
    every = set(lines_ahead(voice, config.table.seats, config.names, config.table.deck))  # no line left out
    said = {voice.spoken(line.text) for line in lines if line.channel == "voice"}
    assert said and said & every <= ahead and len(ahead) < len(every)


@pytest.mark.slow
@needs_engine
def test_voices_render_renders_every_line_once_and_says_where(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    config = tmp_path / "practice-fr.yaml"  # said by espeak-ng: a line a file (Kokoro's clauses: test_kokoro.py)
    config.write_text((EXAMPLES / "practice-fr.yaml").read_text(encoding="utf-8").replace(
        "\ntable:\n", "\ntable:\n  speaker: pyttsx3\n", 1), encoding="utf-8")
    assert main(["voices", "render", "fr", "--config", str(config)]) == 0
    first = capsys.readouterr().out
    folder = tmp_path / "werewolf-narrator" / "voices"
    count = len(list(folder.glob("*.wav")))
    script, _ = load_script(str(config))
    table = script.config  # the lines of its way to deal alone, as `voices render` counts them
    expected = len(list(lines_ahead(load_voice("fr"), table.table.seats, table.names, table.table.deck, table.table,
                                    table.deal, table.phones)))
    assert count == expected > 100
    assert f"{expected} rendered, 0 already there, in {folder}" in first
    assert main(["voices", "render", "fr", "--config", str(config)]) == 0
    assert f"0 rendered, {expected} already there" in capsys.readouterr().out
    assert len(list(folder.glob("*.wav"))) == count


def test_voices_render_needs_a_language_of_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["voices", "render"]) == 2
    assert "needs a language" in capsys.readouterr().err
    assert main(["voices", "render", "en", "--config", str(EXAMPLES / "starter-fr.yaml")]) == 1
    assert "speaks 'fr', not 'en'" in capsys.readouterr().err
    assert main(["voices", "render", "xx"]) == 1
    assert "no voice file for language 'xx'" in capsys.readouterr().err


class PreparingSpeaker:
    """A speaker that notes what it is asked to say and to render ahead."""

    name = "fake"
    renders_ahead = True
    not_ready_told = ""

    def __init__(self) -> None:
        self.ahead: list[str] = []
        self.said: list[str] = []

    def prepare(self, texts: Iterable[str]) -> int:
        self.ahead += list(texts)
        return len(self.ahead)

    def say(self, text: str) -> None:
        self.said.append(text)

    def close(self) -> None:
        pass


def test_a_dry_run_renders_the_tables_lines_ahead_before_the_first_line(monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    import narrator.speak

    speaker = PreparingSpeaker()
    monkeypatch.setattr(narrator.speak, "make_speaker", lambda *args, **kwargs: speaker)
    assert main(["dry-run", str(EXAMPLES / "practice-zh.yaml")]) == 0
    capsys.readouterr()
    assert speaker.said and speaker.said[0] in speaker.ahead
    assert load_voice("zh").spoken(load_voice("zh").lines["nightfall.call"]) in speaker.ahead
    assert sum(line in speaker.ahead for line in speaker.said) >= 0.8 * len(speaker.said)


@needs_engine
def test_a_line_to_be_said_now_goes_before_the_lines_rendered_ahead(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    warnings: list[str] = []
    speaker, counting = speaker_with(tmp_path, warnings)
    inner = counting.inner
    order: list[str] = []
    real = inner._render

    def noting(text: str, voice: str, rate: int) -> Sound:
        order.append(text)
        return real(text, voice, rate)  # type: ignore[no-any-return]

    monkeypatch.setattr(inner, "_render", noting)
    gate, working = threading.Event(), threading.Event()
    busy = inner.submit(lambda: (working.set(), gate.wait(60)), pyttsx3_backend.NOW)  # the engine is busy
    assert working.wait(60)  # the worker holds the busy job: what is queued now waits behind it
    ahead = [f"Seat {n}, wake up." for n in range(1, 11)]
    assert speaker.prepare(ahead) == 10
    said = threading.Thread(target=speaker.say, args=("The village wakes up.",))
    said.start()
    for _ in range(6000):  # until the line to say now is queued (priority NOW), beside the lines ahead
        if any(entry[0] == pyttsx3_backend.NOW for entry in list(inner._jobs.queue)):
            break
        threading.Event().wait(0.01)
    gate.set()
    said.join(60)
    busy.result(60)
    wait_ahead(speaker)
    assert order[0] == "The village wakes up." and sorted(order[1:]) == sorted(ahead)


def test_the_cache_keeps_lines_on_the_disk_and_the_last_ones_said_in_memory(tmp_path: Path) -> None:
    sound = Sound(b"\1\0\2\0" * 100, 22050, 1, 2)
    cache = VoiceCache(tmp_path, memory_lines=2)
    cache.put("said", sound)
    cache.put("ahead", sound, remember=False)
    assert cache.path("said").is_file() and cache.path("ahead").is_file()
    assert "said" in cache._memory and "ahead" not in cache._memory
    assert VoiceCache(tmp_path).get("ahead") == sound  # another game reads it from the disk
    for key in ("a", "b", "c"):
        cache.put(key, sound)
    assert list(cache._memory) == ["b", "c"]
    assert not list(tmp_path.glob(".*.part"))  # written whole, then renamed
    assert cache.get("missing") is None and not cache.has("missing")


def test_the_lines_kept_in_memory_are_bounded_in_bytes_whatever_their_size(tmp_path: Path) -> None:
    """64 planted 64 MB entries took the memory to 383 MB: the lines kept in memory are bounded in bytes too."""
    cache = VoiceCache(tmp_path, memory_bytes=1000)
    small, large = Sound(b"\1\0" * 200, 22050, 1, 2), Sound(b"\1\0" * 2000, 22050, 1, 2)
    for key in ("a", "b", "c"):
        cache.put(key, small)
    assert list(cache._memory) == ["b", "c"] and cache._in_memory == 800
    cache.put("large", large)  # larger than the bound alone: on the disk only
    assert "large" not in cache._memory and cache.get("large") == large
    cache.put("c", small)  # kept again: counted once
    assert cache._in_memory == 800 and list(cache._memory) == ["b", "c"]


@pytest.mark.slow
@needs_engine
def test_voices_render_shows_a_progress_bar_with_the_time_left_and_the_seconds_a_line(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich draws its bar as on a terminal
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setattr("narrator.speak.choice.AUTO_ORDER", {})  # espeak-ng's lines (Kokoro's clauses: minutes)
    assert main(["voices", "render", "en", "--config", str(EXAMPLES / "practice-en.yaml")]) == 0
    captured = capsys.readouterr()
    assert "rendering en" in captured.err and "time left" in captured.err
    assert " s a line" in captured.err and "━" in captured.err
    summary = captured.out.strip().splitlines()[-1]
    assert " rendered, 0 already there" in summary and summary.endswith(" s a line)")


def wav_bytes(frames: bytes = b"\1\0\2\0" * 100, channels: int = 1, rate: int = 22050, width: int = 2,
              format_tag: int = 1, declared: int | None = None) -> bytes:
    """A WAV file written by hand, so its header can say what no WAV writer would (a rate of 0, a width of 5)."""
    fmt = struct.pack("<HHIIHH", format_tag, channels, rate, rate * channels * width, channels * width, width * 8)
    data = struct.pack("<I", len(frames) if declared is None else declared) + frames
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + data
    return b"RIFF" + struct.pack("<I", len(body)) + body


def test_a_wav_written_by_hand_as_the_speakers_write_it_is_used(tmp_path: Path) -> None:
    tmp_path.joinpath("k.wav").write_bytes(wav_bytes())
    warnings: list[str] = []
    cache = VoiceCache(tmp_path, warn=warnings.append)
    assert cache.has("k")
    assert cache.get("k") == Sound(b"\1\0\2\0" * 100, 22050, 1, 2)
    assert not warnings


BAD_WAVS = {
    "a rate of 0 Hz": wav_bytes(rate=0),
    "a rate of 200000 Hz": wav_bytes(rate=200_000),
    "a sample width of 5 bytes": wav_bytes(b"\0" * 500, width=5),
    "3 channels": wav_bytes(b"\0" * 600, channels=3),
    "unknown format: 3": wav_bytes(format_tag=3),  # 32-bit float: not what the speakers write
    "cut short": wav_bytes(declared=4000),  # the header announces 4000 bytes of sound, 400 follow
    "no sound in it": wav_bytes(b""),
    "file does not start with RIFF id": b"not a sound at all",
    "its chunk sizes do not add up": wav_bytes()[:36] + b"LIST" + struct.pack("<I", 10**9) + b"x" * 16,
}


@pytest.mark.parametrize("reason", BAD_WAVS)
@pytest.mark.parametrize("asked", ["get", "has"])
def test_a_bad_wav_in_the_cache_is_thrown_away_with_one_warning(tmp_path: Path, reason: str, asked: str) -> None:
    path = tmp_path / "k.wav"
    path.write_bytes(BAD_WAVS[reason])
    warnings: list[str] = []
    cache = VoiceCache(tmp_path, warn=warnings.append)
    assert (cache.get("k") if asked == "get" else cache.has("k")) in (None, False)
    assert not path.exists()  # rendered and written anew next time
    assert len(warnings) == 1 and f"{path} cannot be read ({reason}" in warnings[0]
    sound = Sound(b"\3\0" * 50, 16000, 1, 2)
    cache.put("k", sound)
    assert VoiceCache(tmp_path).get("k") == sound


def test_a_fifo_at_a_cache_path_is_thrown_away_without_waiting_for_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "k.wav"
    os.mkfifo(path)
    warnings: list[str] = []
    cache = VoiceCache(tmp_path, warn=warnings.append)
    found: list[object] = []
    reader = threading.Thread(target=lambda: found.extend([cache.has("k"), cache.get("k")]), daemon=True)
    reader.start()
    reader.join(10)
    assert not reader.is_alive(), "the cache waited on a FIFO"
    assert found == [False, None]
    assert not path.exists()
    assert len(warnings) == 1 and "cannot be read (not a regular file)" in warnings[0]


def test_many_bad_wavs_cost_one_warning(tmp_path: Path) -> None:
    for i, data in enumerate(BAD_WAVS.values()):
        tmp_path.joinpath(f"{i}.wav").write_bytes(data)
    warnings: list[str] = []
    cache = VoiceCache(tmp_path, warn=warnings.append)
    assert not any(cache.has(str(i)) for i in range(len(BAD_WAVS)))
    assert len(warnings) == 1 and not list(tmp_path.iterdir())


def test_a_cache_file_changed_at_random_is_used_only_if_it_plays_and_never_crashes(tmp_path: Path) -> None:
    rng = random.Random(14)
    good = wav_bytes(bytes(range(256)) * 4)
    used = 0
    for _ in range(500):
        data = bytearray(good)
        for _ in range(rng.randint(1, 4)):  # bytes of the header changed, the file cut, bytes inserted
            where, how = rng.randrange(len(data) + 1), rng.random()
            if how < 0.6 and where < min(60, len(data)):
                data[where] = rng.randrange(256)
            elif how < 0.8:
                del data[where:]
            else:
                data[where:where] = rng.randbytes(rng.randint(1, 8))
        tmp_path.joinpath("k.wav").write_bytes(data)
        VoiceCache(tmp_path, warn=lambda message: None).has("k")  # the header alone
        tmp_path.joinpath("k.wav").write_bytes(data)
        sound = VoiceCache(tmp_path, warn=lambda message: None).get("k")  # the whole file
        if sound is not None:
            used += 1
            assert sound.rate in range(8000, 96001) and sound.width in (1, 2, 3, 4) and sound.channels in (1, 2)
            assert sound.frames and len(sound.frames) % (sound.width * sound.channels) == 0
    assert 0 < used < 250  # some changes leave a file that plays (a changed sample), most do not


def test_voices_render_with_a_cache_that_cannot_be_written_fails_at_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    monkeypatch.setattr(EngineThread, "render", lambda *args: pytest.fail("a line was rendered"))
    assert main(["voices", "render", "en"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"error: cannot write rendered lines to the voice cache {blocked / 'werewolf-narrator'}" in err
    # (Kokoro's model, joined into the same cache folder, may say first that it cannot be joined there)
    assert "(Not a directory): nothing was rendered; make that folder writable, or set XDG_CACHE_HOME" in err


@needs_engine
def test_voices_render_stops_with_an_error_when_the_disk_fills_up_partway(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    write = Sound.write
    written: list[Path] = []

    def fills_up(sound: Sound, path: Path) -> None:
        if len(written) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(path)
        write(sound, path)

    monkeypatch.setattr(Sound, "write", fills_up)
    monkeypatch.setattr("narrator.speak.choice.AUTO_ORDER", {})  # espeak-ng: a line in 15 ms (Kokoro's: seconds)
    assert main(["voices", "render", "en"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("warning: ") == 1 and "cannot write rendered lines" in err and "No space left" in err
    assert "stopped taking rendered lines partway (see the warning above): free some space there" in err
    assert len(list((tmp_path / "werewolf-narrator" / "voices").glob("*.wav"))) == 3


@needs_engine
def test_voices_render_without_a_config_renders_the_built_in_tables_lines_too(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`play` alone plays the built-in table, whose lines naming a character a table of 18 seats and no deck lacks:
    the command a line not ready tells the host for it, `voices render en`, renders them all."""
    from narrator.play import STARTER

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    rendered: list[str] = []
    tick = Sound(b"\x00\x10" * 2205, 22050, 1, 2)
    monkeypatch.setattr(EngineThread, "render", lambda engine, text, voice, rate: rendered.append(text) or tick)
    monkeypatch.setattr("narrator.speak.choice.AUTO_ORDER", {})  # espeak-ng: a line a render (Kokoro's: its clauses)
    assert main(["voices", "render", "en"]) == 0
    voice = load_voice("en")
    starter = set(lines_ahead(voice, STARTER.table.seats, STARTER.names, STARTER.table.deck, STARTER.table,
                              STARTER.deal, STARTER.phones))
    generic = set(lines_ahead(voice, 18))
    assert starter - generic and set(rendered) == starter | generic and len(rendered) == len(set(rendered))
    assert f"{len(rendered)} lines (18 seats, the built-in table's 8)" in capsys.readouterr().out
    rendered.clear()
    assert main(["voices", "render", "fr"]) == 0  # no built-in table speaks French
    assert set(rendered) == set(lines_ahead(load_voice("fr"), 18))


def test_the_cache_on_the_disk_is_bounded_and_drops_the_least_recently_used_lines(tmp_path: Path) -> None:
    """Issue 22 (8 games left 1.4 GB): past its bound, the lines least recently used (read, or found by rendering
    ahead) are deleted down to nine tenths of it; the line just written and those used since stay."""
    sound = Sound(b"\1\0" * 5000, 22050, 1, 2)  # 10 KB of sound, and its header
    line = len(b"\1\0" * 5000) + 44
    cache = VoiceCache(tmp_path, disk_bytes=10 * line, memory_lines=0)
    for n in range(10):
        cache.put(f"k{n}", sound, remember=False)
        os.utime(cache.path(f"k{n}"), ns=(n * 10**9, n * 10**9))  # written one second apart
    assert cache.get("k0") == sound and cache.has("k1")  # used now: the most recent
    cache.put("k10", sound, remember=False)  # one line over the bound
    kept = sorted(path.stem for path in tmp_path.glob("*.wav"))
    assert kept == sorted(["k0", "k1", "k10", "k4", "k5", "k6", "k7", "k8", "k9"])  # k2 and k3: the least recently used
    assert sum(path.stat().st_size for path in tmp_path.glob("*.wav")) <= 9 * line
    assert cache.get("k2") is None  # rendered again when next needed


def test_the_cache_bound_is_read_in_megabytes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from narrator.speak.cache import DISK_MB, DISK_MB_ENV, disk_bound

    monkeypatch.delenv(DISK_MB_ENV, raising=False)
    assert disk_bound() == DISK_MB << 20
    monkeypatch.setenv(DISK_MB_ENV, "100")
    assert disk_bound() == 100 << 20
    warnings: list[str] = []
    monkeypatch.setenv(DISK_MB_ENV, "-5")
    assert disk_bound(warnings.append) == DISK_MB << 20 and DISK_MB_ENV in warnings[0]


def test_cheap_lines_never_evict_a_kokoro_render(tmp_path: Path) -> None:
    """Issue 35: a few English games filled the cache with 248 MB of espeak-ng lines (15 ms each to render again),
    which evicted Kokoro clauses that take minutes to render again. The cheap lines keep to their own share."""
    from narrator.speak.cache import CHEAP, CHEAP_SHARE

    sound = Sound(b"\1\0" * 5000, 22050, 1, 2)
    line = len(b"\1\0" * 5000) + 44
    cache = VoiceCache(tmp_path, disk_bytes=16 * line, memory_lines=0)
    dear = [f"k{n}" for n in range(14)]
    for key in dear:
        cache.put(key, sound, remember=False)
    for n in range(40):  # a game of espeak-ng lines, written after the Kokoro clauses: the most recently used
        cache.put(f"{CHEAP}{n}", sound, remember=False)
    assert all(cache.has(key) for key in dear)
    cheap = list(tmp_path.glob(f"{CHEAP}*.wav"))
    assert cheap and sum(path.stat().st_size for path in cheap) <= 16 * line // CHEAP_SHARE
    assert cache.has(f"{CHEAP}39") and not cache.has(f"{CHEAP}0")  # among them, the least recently used go


def test_past_the_whole_bound_the_cheap_lines_go_before_the_dear_ones(tmp_path: Path) -> None:
    from narrator.speak.cache import CHEAP

    sound = Sound(b"\1\0" * 5000, 22050, 1, 2)
    line = len(b"\1\0" * 5000) + 44
    cache = VoiceCache(tmp_path, disk_bytes=16 * line, memory_lines=0)
    cache.put(f"{CHEAP}old", sound, remember=False)
    cache.put(f"{CHEAP}new", sound, remember=False)
    for n in range(15):  # the last goes over the bound: the two cheap lines go, though used after the first dear
        cache.put(f"k{n}", sound, remember=False)
        os.utime(cache.path(f"k{n}"), ns=(n * 10**9, n * 10**9))
    assert not list(tmp_path.glob(f"{CHEAP}*.wav"))
    assert sum(1 for n in range(15) if cache.has(f"k{n}")) == 14  # and one dear line, the least recently used
    assert not cache.has("k0")


def test_espeak_ngs_lines_are_kept_as_cheap_and_kokoros_as_dear(tmp_path: Path) -> None:
    from narrator.speak.cache import CHEAP
    from narrator.speak.kokoro_backend import KokoroSpeaker
    from narrator.speak.pyttsx3_backend import Pyttsx3Speaker

    assert Pyttsx3Speaker.cheap and not KokoroSpeaker.cheap and not RenderedSpeaker.cheap
    speaker = RenderedSpeaker(cache=VoiceCache(tmp_path))
    speaker.cheap = True
    assert speaker.key("It is night.").startswith(CHEAP)
    speaker.cheap = False
    assert not speaker.key("It is night.").startswith(CHEAP)
