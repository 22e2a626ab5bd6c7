"""Speech out: real renders by pyttsx3 and espeak-ng, the console fallback, and playback into a fake sounddevice."""

from __future__ import annotations

import array
import io
import math
import os
import subprocess
import sys
import threading
import time
import types
import wave
from pathlib import Path
from typing import Any

import pytest

from narrator.speak import (
    ConsoleSpeaker,
    Pyttsx3Speaker,
    SpeechUnavailable,
    VoiceInfo,
    WavDirSpeaker,
    audio,
    describe_voices,
    make_speaker,
    pyttsx3_backend,
    rendered,
)
from narrator.speak.pyttsx3_backend import choose_voice
from narrator.voices import languages, load_voice

LOUD = 500  # of 32767: speech peaks in the thousands, silence and dither stay near zero
SENTENCE = "Seat seven, wake up."


def _engine_problem() -> str | None:
    try:
        pyttsx3_backend.installed_voices()
    except SpeechUnavailable as exc:
        return str(exc)
    return None


ENGINE_PROBLEM = _engine_problem()
needs_engine = pytest.mark.skipif(ENGINE_PROBLEM is not None, reason=f"no speech engine: {ENGINE_PROBLEM}")


def loudness(path: Path) -> tuple[int, int]:
    """Returns a WAV file's frame count and its loudest sample."""
    with wave.open(str(path), "rb") as wav:
        assert wav.getsampwidth() == 2
        frames = wav.getnframes()
        samples = array.array("h", wav.readframes(frames))
    if sys.byteorder == "big":
        samples.byteswap()
    return frames, max((abs(s) for s in samples), default=0)


class FakeStream:
    """A RawOutputStream that logs what it is given and takes time to play it."""

    def __init__(self, log: list[Any], **settings: Any) -> None:
        self.log = log
        self.latency = settings["latency"]  # PortAudio gives what is asked, or near it
        log.append(("open", settings))

    def __enter__(self) -> FakeStream:
        self.log.append("start")
        return self

    def write(self, data: bytes) -> None:
        self.log.append(("write", bytes(data)))

    def __exit__(self, *exc: object) -> None:
        time.sleep(0.05)  # a real stop waits for the queued buffers to play
        self.log.append("played")


def fake_sounddevice(devices: list[dict[str, Any]] | None = None) -> Any:
    """Returns a stand-in for the sounddevice module, with one output device unless told otherwise."""
    module: Any = types.ModuleType("sounddevice")
    module.log = []
    module.devices = [{"name": "Fake Speakers", "max_output_channels": 2}] if devices is None else devices
    module.PortAudioError = type("PortAudioError", (Exception,), {})

    def query_devices(device: Any = None, kind: str | None = None) -> Any:
        if kind is None:
            return module.devices
        outputs = [d for d in module.devices if d["max_output_channels"] > 0]
        if not outputs:
            raise module.PortAudioError("Error querying device -1")
        if device is None or device == 0:
            return outputs[0]
        matches = [d for d in outputs if str(device).lower() in d["name"].lower()]
        if not matches:
            raise ValueError(f"No output device matching {device!r}")
        return matches[0]

    module.query_devices = query_devices
    module.RawOutputStream = lambda **settings: FakeStream(module.log, **settings)
    return module


@pytest.fixture
def sounddevice(monkeypatch: pytest.MonkeyPatch) -> Any:
    module = fake_sounddevice()
    monkeypatch.setitem(sys.modules, "sounddevice", module)
    return module


class SampleValues(dict[str, str]):
    """Fills any placeholder with one sample value."""

    def __init__(self, value: str) -> None:
        super().__init__()
        self.value = value

    def __missing__(self, key: str) -> str:
        return self.value


@pytest.mark.slow
@needs_engine
@pytest.mark.parametrize("language", languages())
def test_every_line_of_the_voice_file_is_heard(language: str, tmp_path: Path) -> None:
    voice = load_voice(language)
    speaker = Pyttsx3Speaker(language)
    quiet = []
    try:
        for i, (key, template) in enumerate(voice.lines.items()):
            text = template.format_map(SampleValues(voice.seat(7)))
            path = tmp_path / f"{i:03d}.wav"
            speaker.render(text, path)
            frames, peak = loudness(path)
            if frames == 0 or peak < LOUD:
                quiet.append((key, text, frames, peak))
    finally:
        speaker.close()
    assert not quiet


@needs_engine
@pytest.mark.parametrize("language, tags", [("en", ("en",)), ("fr", ("fr",)), ("zh", ("cmn", "zh"))])
def test_each_language_gets_a_voice_of_that_language(language: str, tags: tuple[str, ...]) -> None:
    speaker = Pyttsx3Speaker(language)
    speaker.close()
    assert speaker.voice.languages
    assert all(tag.split("-")[0] in tags for tag in speaker.voice.languages), speaker.voice
    entry = next(e for e in describe_voices() if e["language"] == language)
    assert entry["hint"] is None
    if entry["backend"] == "pyttsx3":  # fr and zh get Kokoro where it is installed (tests/test_kokoro.py)
        assert entry["id"] == speaker.voice.id


def test_voices_are_chosen_by_language_whatever_their_ids() -> None:
    mac = [VoiceInfo("com.apple.voice.compact.fr-CA.Amelie", "Amélie", ("fr-ca",)),
           VoiceInfo("com.apple.voice.compact.fr-FR.Thomas", "Thomas", ("fr-fr",)),
           VoiceInfo("com.apple.voice.compact.zh-HK.Sinji", "Sinji", ("zh-hk",)),
           VoiceInfo("com.apple.voice.compact.zh-CN.Tingting", "Tingting", ("zh-cn",))]
    windows = [VoiceInfo(r"HKEY_LOCAL_MACHINE\SOFTWARE\Microsoft\Speech\Voices\Tokens\TTS_MS_EN-US_ZIRA_11.0",
                         "Microsoft Zira Desktop", ()),
               VoiceInfo(r"HKEY_LOCAL_MACHINE\SOFTWARE\Microsoft\Speech\Voices\Tokens\TTS_MS_FR-FR_HORTENSE_11.0",
                         "Microsoft Hortense Desktop", ())]
    cantonese = [VoiceInfo("sit/yue", "Chinese (Cantonese)", ("yue",))]

    def name(voices: list[VoiceInfo], language: str, override: str | None = None) -> str | None:
        chosen = choose_voice(voices, language, override)
        return chosen.name if chosen else None

    assert name(mac, "fr") == "Thomas"
    assert name(mac, "zh") == "Tingting"
    assert name(windows, "fr") == "Microsoft Hortense Desktop"
    assert name(windows, "zh") is None
    assert name(cantonese, "zh") is None
    assert name(mac, "zh", override="sinji") == "Sinji"
    assert name(mac, "en", override="nobody") is None


@pytest.mark.skipif(audio.output_problem() is None, reason="this machine has a sound output device")
def test_auto_falls_back_to_the_console_with_one_warning_without_a_sound_card(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("narrator.speak.choice.AUTO_ORDER", {})  # espeak-ng: the console takes over all the same
    warnings: list[str] = []
    speaker = make_speaker("auto", "en", warn=warnings.append)
    speaker.close()
    assert isinstance(speaker, ConsoleSpeaker)
    assert len(warnings) == 1
    assert "no sound output device found" in warnings[0].lower() and "printed instead" in warnings[0]


@needs_engine
def test_auto_speaks_when_there_is_an_output_device(sounddevice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("narrator.speak.choice.AUTO_ORDER", {})  # auto without Kokoro: espeak-ng (Kokoro's: test_kokoro)
    warnings: list[str] = []
    speaker = make_speaker("auto", "en", device="speakers", warn=warnings.append)
    try:
        assert isinstance(speaker, Pyttsx3Speaker) and not warnings
        speaker.say(SENTENCE)
    finally:
        speaker.close()
    assert sounddevice.log[-1] == "played"


@pytest.mark.parametrize("backend", ["auto", "pyttsx3"])
def test_a_missing_espeak_and_sound_card_are_named_in_one_warning(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pyttsx3 = pytest.importorskip("pyttsx3")

    def no_espeak(*args: object) -> None:
        raise RuntimeError("This means you probably do not have eSpeak or eSpeak-ng installed!")

    monkeypatch.setattr(pyttsx3, "init", no_espeak)
    monkeypatch.setattr(pyttsx3_backend, "_shared", None)  # as if no speaker had started the engine yet
    monkeypatch.setitem(sys.modules, "sounddevice", fake_sounddevice(devices=[]))
    warnings: list[str] = []
    monkeypatch.setattr("narrator.speak.choice.AUTO_ORDER", {})  # auto without Kokoro (its fr needs no pyttsx3)
    assert isinstance(make_speaker(backend, "fr", warn=warnings.append), ConsoleSpeaker)
    assert len(warnings) == 1
    if sys.platform.startswith("linux"):
        assert "sudo apt-get install espeak-ng" in warnings[0]
    assert "aucune sortie son trouvée" in warnings[0].lower()  # a French table's: no loudspeaker, in French


def test_a_missing_sounddevice_or_portaudio_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sounddevice", None)
    assert "pip install sounddevice" in (audio.output_problem() or "")

    def no_portaudio() -> None:
        raise OSError("PortAudio library not found")

    monkeypatch.setattr(audio, "load_sounddevice", no_portaudio)
    problem = audio.output_problem() or ""
    assert "PortAudio" in problem
    if sys.platform.startswith("linux"):
        assert "libportaudio2" in problem


def test_an_unknown_device_is_named(sounddevice: Any) -> None:
    assert audio.output_problem("hdmi") == "no sound output device matches 'hdmi' (python -m sounddevice lists them)"
    assert audio.output_problem("0") is None


def test_console_speaker_prints_each_line(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    speaker = ConsoleSpeaker(out)
    speaker.say("It is night.")
    speaker.say("")
    speaker.close()
    speaker.close()
    assert out.getvalue() == "It is night.\n"
    make_speaker("console", "en").say("The village wakes up.")
    assert capsys.readouterr().out == "The village wakes up.\n"


@needs_engine
def test_wav_dir_holds_one_numbered_file_per_line_and_their_list(tmp_path: Path) -> None:
    folder = tmp_path / "audio"
    folder.mkdir()
    (folder / "0009.wav").write_bytes(b"left by a longer run")
    lines = ["It is night, the whole village falls asleep.", "", "Seer, wake up.\nPoint at a player."]
    speaker = WavDirSpeaker(folder, "en", backend="pyttsx3")
    for line in lines:
        speaker.say(line)
    speaker.close()
    speaker.close()
    assert sorted(p.name for p in folder.iterdir()) == ["0001.wav", "0002.wav", "lines.txt"]
    assert (folder / "lines.txt").read_text(encoding="utf-8") == (
        "0001.wav\tIt is night, the whole village falls asleep.\n0002.wav\tSeer, wake up. Point at a player.\n")
    for name in ("0001.wav", "0002.wav"):
        frames, peak = loudness(folder / name)
        assert frames > 0 and peak > LOUD


@needs_engine
def test_say_plays_the_rendered_wav_and_returns_once_it_is_played(sounddevice: Any, tmp_path: Path) -> None:
    speaker = Pyttsx3Speaker("en", device="1")
    try:
        speaker.render(SENTENCE, tmp_path / "line.wav")
        speaker.say(SENTENCE)
    finally:
        speaker.close()
    with wave.open(str(tmp_path / "line.wav"), "rb") as wav:
        rate, channels = wav.getframerate(), wav.getnchannels()
    (opened, settings), started, (wrote, data), (padded, silence), played = sounddevice.log
    assert (opened, started, wrote, padded, played) == ("open", "start", "write", "write", "played")
    assert settings == {"samplerate": rate, "channels": channels, "dtype": "int16", "device": 1,
                        "latency": audio.OUTPUT_LATENCY}
    assert silence == bytes(2 * channels * math.ceil(audio.OUTPUT_LATENCY * rate))
    # espeak-ng's renders of one sentence differ by a few milliseconds, so compare lengths loosely.
    assert abs(len(data) - (tmp_path / "line.wav").stat().st_size) < rate // 10


def test_play_writes_the_wav_frames_as_they_are(sounddevice: Any, tmp_path: Path) -> None:
    path = tmp_path / "tone.wav"
    frames = array.array("h", [0, 8000, 16000, 8000, 0, -8000, -16000, -8000] * 100).tobytes()
    audio.Sound(frames, 16000, 2, 2).write(path)
    audio.play(audio.Sound.read(path), device="fake")
    # Then a buffer of silence: what stopping the stream may drop (through PulseAudio it drops the buffer).
    silence = bytes(2 * 2 * math.ceil(audio.OUTPUT_LATENCY * 16000))
    assert sounddevice.log == [("open", {"samplerate": 16000, "channels": 2, "dtype": "int16", "device": "fake",
                                         "latency": audio.OUTPUT_LATENCY}),
                               "start", ("write", frames), ("write", silence), "played"]


@needs_engine
def test_no_audio_saved_notice_reaches_the_screen(sounddevice: Any, tmp_path: Path,
                                                   capfd: pytest.CaptureFixture[str]) -> None:
    speaker = Pyttsx3Speaker("fr")
    try:
        speaker.render("Voyante, réveille-toi.", tmp_path / "line.wav")
        speaker.say("Voyante, rendors-toi.")
        print("the game's own output")
    finally:
        speaker.close()
    out, err = capfd.readouterr()
    assert "Audio saved" not in out + err
    assert out == "the game's own output\n"


@needs_engine
def test_empty_lines_are_skipped(sounddevice: Any) -> None:
    warnings: list[str] = []
    speaker = Pyttsx3Speaker("en", warn=warnings.append)
    try:
        speaker.say("")
        speaker.say("  \n")
        with pytest.raises(ValueError):
            speaker.sound("")
    finally:
        speaker.close()
    assert sounddevice.log == [] and warnings == []


@needs_engine
def test_a_failing_engine_prints_the_line_sounds_a_tone_warns_once_and_goes_on(
        sounddevice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The speech engine failing on a line: the line printed and a tone, the game goes on."""
    import pyttsx3.engine

    def broken(*args: object) -> None:
        raise RuntimeError("the engine broke")

    out = io.StringIO()
    warnings: list[str] = []
    speaker = Pyttsx3Speaker("en", out=out, warn=warnings.append)
    monkeypatch.setattr(pyttsx3.engine.Engine, "save_to_file", broken)
    try:
        speaker.say("Seer, wake up.")
        speaker.say("Seer, go back to sleep.")
    finally:
        speaker.close()
    assert out.getvalue() == "Seer, wake up.\nSeer, go back to sleep.\n"
    assert len(warnings) == 1 and "the engine broke" in warnings[0]
    tone = audio.tone()
    silence = ("write", bytes(2 * math.ceil(audio.OUTPUT_LATENCY * tone.rate)))
    assert [entry for entry in sounddevice.log if entry[0] == "write"] == [("write", tone.frames), silence] * 2


@needs_engine
def test_a_failing_sound_card_prints_the_line_and_warns_once(monkeypatch: pytest.MonkeyPatch) -> None:
    def unplugged(**settings: object) -> None:
        raise OSError("device unplugged")

    module = fake_sounddevice()
    module.RawOutputStream = unplugged
    monkeypatch.setitem(sys.modules, "sounddevice", module)
    out = io.StringIO()
    warnings: list[str] = []
    speaker = Pyttsx3Speaker("zh", out=out, warn=warnings.append)
    speaker.say("天黑请闭眼。")
    speaker.say("天亮了。")
    speaker.close()
    assert out.getvalue() == "天黑请闭眼。\n天亮了。\n"
    assert len(warnings) == 1 and "device unplugged" in warnings[0]


@needs_engine
def test_a_stuck_engine_does_not_stop_the_game_and_speaks_again_when_it_answers(
        sounddevice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import pyttsx3.engine

    answer = threading.Event()
    run_and_wait = pyttsx3.engine.Engine.runAndWait

    def stuck(self: Any) -> None:
        answer.wait(5)
        run_and_wait(self)

    out = io.StringIO()
    warnings: list[str] = []
    speaker = Pyttsx3Speaker("en", out=out, warn=warnings.append)
    monkeypatch.setattr(rendered.EngineThread, "render_timeout", 0.2)
    monkeypatch.setattr(pyttsx3.engine.Engine, "runAndWait", stuck)
    try:
        started = time.monotonic()
        speaker.say("Werewolves, wake up.")
        speaker.say("Werewolves, go back to sleep.")
        assert time.monotonic() - started < 1
        answer.set()
        time.sleep(0.5)  # the late line takes ~20 ms
        speaker.say("The village wakes up.")
    finally:
        answer.set()
        speaker.close()
    assert out.getvalue() == "Werewolves, wake up.\nWerewolves, go back to sleep.\n"
    assert len(warnings) == 1 and "has not answered" in warnings[0]
    assert sounddevice.log[-1] == "played"


@needs_engine
def test_close_may_be_repeated_and_the_engine_serves_the_next_speaker(tmp_path: Path) -> None:
    first = Pyttsx3Speaker("en")
    second = WavDirSpeaker(tmp_path / "audio", "fr")
    for speaker in (first, second, first, second):
        speaker.close()
    with pytest.raises(ValueError, match="closed"):
        first.render("Seat seven.", tmp_path / "closed.wav")
    with pytest.raises(ValueError, match="closed"):
        second.say("Siège sept.")
    again = Pyttsx3Speaker("zh")
    again.render("天亮了。", tmp_path / "line.wav")
    again.close()
    assert loudness(tmp_path / "line.wav")[1] > LOUD


def test_an_unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown speech backend"):
        make_speaker("festival", "en")


@needs_engine
def test_chinese_is_said_with_tones_not_spelt_as_english() -> None:
    """espeak-ng's plain cmn voice reads characters as English-spelt pinyin; the pinyin voice is chosen."""
    voices = pyttsx3_backend.installed_voices()
    if not any("cmn-latn-pinyin" in v.languages for v in voices):
        pytest.fail("espeak-ng's cmn-latn-pinyin voice is missing: scripts/setup.sh installs espeak-ng with it")
    assert choose_voice(voices, "zh") is not None
    assert choose_voice(voices, "zh").languages == ("cmn-latn-pinyin",)  # type: ignore[union-attr]


def test_alsas_own_messages_never_reach_the_terminal() -> None:
    # alsa-lib prints "ALSA lib pcm.c:…: underrun occurred" on stderr, across the full-screen view; once sounddevice
    # is loaded the narrator's handler swallows them. An unknown PCM makes ALSA print one for sure.
    probe = ("import ctypes, sys\n"
             "from narrator.speak.audio import load_sounddevice\n"
             "if sys.argv[1] == 'quiet':\n"
             "    load_sounddevice()\n"
             "pcm = ctypes.c_void_p()\n"
             "print(ctypes.CDLL('libasound.so.2').snd_pcm_open(ctypes.byref(pcm), b'no-such-pcm', 0, 0))\n")
    loud = subprocess.run([sys.executable, "-c", probe, "loud"], capture_output=True, text=True, check=True)
    quiet = subprocess.run([sys.executable, "-c", probe, "quiet"], capture_output=True, text=True, check=True)
    assert "ALSA lib" in loud.stderr and "no-such-pcm" in loud.stderr  # the control: ALSA does print
    assert quiet.stderr == "" and quiet.stdout.strip() == loud.stdout.strip()


# Each line's text copied to the very end of readable memory, an unreadable page after it, before espeak-ng gets it:
# espeak-ng reading one byte past the text (and its final NUL) kills the process with SIGSEGV.
AT_THE_EDGE = """
import ctypes, mmap, sys
from pyttsx3.drivers import _espeak
from narrator.speak import Pyttsx3Speaker

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
page = mmap.PAGESIZE
base = libc.mmap(None, 2 * page, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
assert base not in (None, ctypes.c_void_p(-1).value) and libc.mprotect(base + page, page, 0) == 0  # PROT_NONE
real = _espeak.cSynth

def at_the_edge(text, size, *rest):
    at = base + page - len(text) - 1
    ctypes.memmove(at, text + b"\\0", len(text) + 1)
    print(size, len(text), flush=True)
    return real(ctypes.cast(at, ctypes.c_char_p), size, *rest)

_espeak.cSynth = at_the_edge
for language, line in (("en", "Seat number three, you were eaten."), ("fr", "Le village se réveille."),
                       ("zh", "天黑请闭眼。")):
    sound = Pyttsx3Speaker(language, cache=False).sound(line)
    assert len(sound.frames) > sound.rate // 2, (language, len(sound.frames))
print("done")
"""


@needs_engine
def test_espeak_ng_reads_nothing_past_a_line_of_text() -> None:
    """pyttsx3 told espeak-ng each line was ten times its length: espeak-ng copied that much memory, and the game
    crashed whenever a line ended near an unmapped page (pyttsx3_backend._tell_espeak_the_true_length)."""
    done = subprocess.run([sys.executable, "-c", AT_THE_EDGE], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    sizes = [tuple(map(int, line.split())) for line in done.stdout.splitlines()[:-1]]
    assert len(sizes) == 3 and all(size == length + 1 for size, length in sizes), done.stdout
    assert done.stdout.endswith("done\n")


# The game printing its lines in the main thread while the engine's thread renders lines ahead, as a dry run does.
PRINTS_WHILE_RENDERING = """
import sys, tempfile
from narrator.speak import Pyttsx3Speaker
from narrator.speak.cache import VoiceCache

speaker = Pyttsx3Speaker("en", cache=VoiceCache(tempfile.mkdtemp()), rate=400)
speaker.prepare([f"Line {i}." for i in range(60)])
printed = 0
while not speaker.wait_ahead(0):
    print("the game's own output", printed, flush=True)
    printed += 1
speaker.close()
print(printed, "printed", file=sys.stderr)
"""


@needs_engine
def test_the_game_can_print_while_lines_are_rendered_ahead() -> None:
    """The engine's thread once replaced sys.stdout around each render (to hide pyttsx3's "Audio saved" notices), and
    the stand-in was freed under a print() of the main thread: a practice game in ten crashed (SIGSEGV), every run of
    this one did."""
    done = subprocess.run([sys.executable, "-c", PRINTS_WHILE_RENDERING], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, timeout=120, env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stderr.endswith(" printed\n") and int(done.stderr.split()[0]) > 0, done.stderr
