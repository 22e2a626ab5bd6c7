"""Speech with Piper (piper-tts, an optional extra): neural voices installed per language, rendered in one thread.

piper-tts is GPL-3.0 and optional: it is imported only when a Piper voice speaks, and its
absence only means espeak-ng speaks instead. Voices are files the user installs (``voices add``):
``$XDG_DATA_HOME/werewolf-narrator/voices/LANG/NAME.onnx`` with ``NAME.onnx.json`` beside it.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import shlex
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TextIO

from ..errors import UserError
from ..hint import command
from .audio import Sound
from .cache import VoiceCache
from .console import print_to_stderr
from .hygiene import length_scale
from .neural import NeuralSpeaker
from .pyttsx3_backend import SpeechUnavailable, language_name
from .rendered import EngineThread

INSTALL = "pip install 'werewolf-narrator[piper]' (or pip install piper-tts)"

# The voice each language gets when several are installed, and the one `voices fetch` downloads: its name, and its
# dataset's licence as its MODEL_CARD in rhasspy/piper-voices states it (docs/voices.md says more).
DEFAULT_VOICES = {
    "en": ("en_US-joe-medium", "CC0 (the joe dataset, NabuCasa/voice-datasets)"),
    "fr": ("fr_FR-siwis-medium", "CC-BY 4.0 (the SIWIS French Speech Synthesis Database)"),
    "zh": ("zh_CN-huayan-medium", "Unknown (the HuaYan_TTS dataset, PlayVoice/HuaYan_TTS)"),
}
# Silence between the sentences of a line (Piper renders each sentence alone): the pause a reader makes.
SENTENCE_GAP = 0.2


@dataclass(frozen=True)
class PiperVoiceFile:
    """An installed Piper voice: its model and config files."""

    name: str
    model: Path
    size: int

    @property
    def config(self) -> Path:
        return self.model.with_name(self.model.name + ".json")

    @property
    def id(self) -> str:
        """What the cache names the voice by: a voice replaced by another file of the same name renders anew."""
        return f"{self.name} {self.size}"


def voices_folder() -> Path:
    """Returns where Piper voices are installed: beside the speech models, in the user's data folder."""
    from ..listen.models import data_folder

    return data_folder().parent / "voices"


def installed_piper_voices(language: str, folder: Path | None = None) -> list[PiperVoiceFile]:
    """Returns the Piper voices installed for ``language``, the default voice first, then by name."""
    where = (folder or voices_folder()) / language
    try:
        models = sorted(where.glob("*.onnx"))
    except OSError:
        return []
    found = [PiperVoiceFile(m.name[:-len(".onnx")], m, m.stat().st_size) for m in models
             if m.with_name(m.name + ".json").is_file()]
    default = DEFAULT_VOICES.get(language, ("",))[0]
    return sorted(found, key=lambda v: (v.name != default, v.name))


def choose_piper_voice(language: str, override: str | None = None,
                       folder: Path | None = None) -> PiperVoiceFile | None:
    """Returns the Piper voice for ``language``: the one ``override`` names (part of its name), else the default."""
    voices = installed_piper_voices(language, folder)
    if override:
        return next((v for v in voices if override.casefold() in v.name.casefold()), None)
    return voices[0] if voices else None


def piper_missing() -> str | None:
    """Returns why piper-tts cannot be used here (and what to install), or None if it can."""
    # Found, not imported: importing piper takes 0.2 s, which the voice's loading in the background pays.
    if importlib.util.find_spec("piper") is None:
        return f"piper-tts is not installed ({INSTALL})"
    return None


def piper_problem(language: str, voice: str | None = None, folder: Path | None = None) -> str | None:
    """Returns why Piper cannot say ``language`` here, or None if it can (piper-tts and a voice installed)."""
    if choose_piper_voice(language, voice, folder) is None:
        if voice:
            return f"no Piper voice for {language} matches {voice!r} ({command()} voices lists them)"
        if language in DEFAULT_VOICES:
            how = (f"{command()} voices fetch {language} downloads {DEFAULT_VOICES[language][0]}, or "
                   f"{command()} voices add {language} FILE.onnx installs one you have")
        else:
            how = f"{command()} voices add {language} FILE.onnx"
        return f"no Piper voice for {language_name(language)} is installed ({how})"
    return piper_missing()


def load_piper_voice(model: Path, config: Path) -> Any:
    """Loads a Piper voice as PiperVoice.load does, but with onnxruntime on one thread; raises SpeechUnavailable.

    One thread beat onnxruntime's default (a thread per core) on 2 cores, and leaves the other core
    to the game and the microphone; PiperVoice.load takes no session options, so the session is built here.
    """
    missing = piper_missing()
    if missing:
        raise SpeechUnavailable(missing)
    onnxruntime = importlib.import_module("onnxruntime")
    piper_voice = importlib.import_module("piper.voice")
    piper_config = importlib.import_module("piper.config")
    try:
        settings = json.loads(config.read_text(encoding="utf-8"))
        parsed = piper_config.PiperConfig.from_dict(settings)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise SpeechUnavailable(f"{config}: not a Piper voice config ({type(exc).__name__}: {exc})") from None
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    try:
        session = onnxruntime.InferenceSession(str(model), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types for a file it cannot read
        raise SpeechUnavailable(f"{model}: not a Piper voice model ({str(exc).strip() or type(exc).__name__})") \
            from None
    return piper_voice.PiperVoice(session=session, config=parsed)


def synthesize(voice: Any, text: str, rate: int | None) -> Sound:
    """Returns ``text`` said by the loaded Piper ``voice`` at ``rate``, its sentences a short pause apart."""
    piper_config = importlib.import_module("piper.config")
    base = float(getattr(voice.config, "length_scale", 1.0) or 1.0)
    settings = piper_config.SynthesisConfig(length_scale=length_scale(rate, base))
    chunks = [chunk.audio_int16_bytes for chunk in voice.synthesize(text, syn_config=settings)]
    rate_hz = int(voice.config.sample_rate)
    gap = bytes(2 * int(SENTENCE_GAP * rate_hz))
    frames = gap.join(chunks)
    if not frames:
        raise RuntimeError("the Piper voice rendered no sound")
    return Sound(frames, rate_hz, 1, 2)


class _PiperEngine(EngineThread):
    """The thread that owns one loaded Piper voice; every speaker with that voice shares it for the process.

    The voice loads in the thread (0.6 s and more): the first lines come from the cache, or from the
    fallback, meanwhile. A voice that cannot load makes every render fail with why.
    """

    starts_in_background = True

    def __init__(self, voice: PiperVoiceFile) -> None:
        from importlib.metadata import version

        self._file = voice
        self._voice: Any = None
        self._failure: SpeechUnavailable | None = None
        # Known before the voice loads: the cache key names it, and a cached line plays without the voice.
        self.engine_version = f"piper-tts {version('piper-tts')}"
        super().__init__(f"piper-{voice.name}")

    def _start(self) -> None:
        try:
            self._voice = load_piper_voice(self._file.model, self._file.config)
        except SpeechUnavailable as exc:
            self._failure = exc
            raise

    def _render(self, text: str, voice: str, rate: int) -> Sound:
        if self._voice is None:
            raise self._failure or SpeechUnavailable(f"the Piper voice {self._file.name} did not load")
        return synthesize(self._voice, text, rate)


# Loaded voices, by model file: a voice loads once per process (~0.5 s and ~100 MB each).
_engines: dict[tuple[Path, int], _PiperEngine] = {}
_engines_lock = threading.Lock()


def _engine(voice: PiperVoiceFile) -> _PiperEngine:
    with _engines_lock:
        key = (voice.model, voice.size)
        if key not in _engines:
            _engines[key] = _PiperEngine(voice)
        return _engines[key]


class PiperSpeaker(NeuralSpeaker):
    """Says lines with an installed Piper voice; playing, the cache and rendering ahead are RenderedSpeaker's.

    The voice loads in the background. With ``fallback`` (and a cache), a line not rendered yet when it is due
    is said by espeak-ng (the pyttsx3 speaker) at once; without espeak-ng, it waits for its render.
    Raises SpeechUnavailable, saying what to install, without piper-tts or a voice for ``language``.
    """

    name = "piper"
    engine_label = "Piper"

    def __init__(self, language: str, voice: str | None = None, rate: int | None = None,
                 device: str | int | None = None, *, out: TextIO | None = None,
                 warn: Callable[[str], None] = print_to_stderr, cache: VoiceCache | bool = True,
                 sink: Callable[[Sound], None] | None = None, folder: Path | None = None,
                 fallback: bool = True) -> None:
        problem = piper_problem(language, voice, folder)
        chosen = choose_piper_voice(language, voice, folder)
        if problem or chosen is None:
            raise SpeechUnavailable(problem or f"no Piper voice for {language}")
        super().__init__(rate, device, out=out, warn=warn, cache=cache, sink=sink)
        self.language = language
        self.voice = chosen
        self.voice_id = chosen.id
        self.voice_name = chosen.name
        self._attach(_engine(chosen), language, rate, device, out, warn, sink, fallback)


def add_voice(language: str, model: Path | str, sample: str, folder: Path | None = None) -> PiperVoiceFile:
    """Installs the Piper voice ``model`` (its .onnx.json beside it) for ``language``, once it has said ``sample``.

    Raises UserError, saying what is wrong, for a file that is missing, not a Piper voice, of
    another language, or that does not speak; nothing is installed then.
    """
    source = Path(model).expanduser()
    config = source.with_name(source.name + ".json")
    if source.suffix != ".onnx":
        raise UserError(f"{source}: a Piper voice is a .onnx file (with its .onnx.json beside it)")
    if not source.is_file():
        raise UserError(f"{source}: not a regular file (a FIFO, a folder or a device)" if source.exists()
                        else f"{source}: no such file")
    if not config.is_file():
        raise UserError(f"{source}: its config {config.name} is not beside it (a Piper voice comes as "
                        "NAME.onnx and NAME.onnx.json)")
    check_voice(language, source, config, sample)
    target = (folder or voices_folder()) / language
    name = source.name[:-len(".onnx")]
    try:
        target.mkdir(parents=True, exist_ok=True)
        # The config first, the model last, each under a temporary name: a voice is only listed once its
        # model is there whole, and its config is then there already.
        for src, dst in ((config, target / config.name), (source, target / source.name)):
            partial = dst.with_name(f".{dst.name}.{os.getpid()}.part")
            shutil.copyfile(src, partial)
            os.replace(partial, dst)
    except OSError as exc:
        raise UserError(f"cannot install the voice in {target} ({exc.strerror or exc})") from None
    installed = target / source.name
    return PiperVoiceFile(name, installed, installed.stat().st_size)


MIN_RATE, MAX_RATE = 8000, 96000
"""The sample rates a voice may have: Piper's are 16 kHz or 22.05 kHz; telephone to studio."""


def check_voice(language: str, model: Path, config: Path, sample: str) -> None:
    """Makes sure the Piper voice ``model`` (with ``config``) speaks ``language`` and can say ``sample``.

    Raises UserError, saying what is wrong and that nothing was installed, for a config of another
    language, a voice that does not load (or piper-tts missing), or one that says nothing.
    """
    try:
        data = json.loads(config.read_text(encoding="utf-8"))
        spoken, rate = data.get("language", {}).get("family"), data.get("audio", {}).get("sample_rate")
    except (OSError, ValueError, AttributeError) as exc:
        raise UserError(f"{config}: not a Piper voice config ({exc})") from None
    if type(rate) is not int or not MIN_RATE <= rate <= MAX_RATE:
        # A rate of 0 loads, then every line fails and espeak-ng says it, with no word of why.
        raise UserError(f"{config}: not a Piper voice config (audio: sample_rate {rate!r}, not a number of "
                        f"samples a second from {MIN_RATE} to {MAX_RATE}); nothing was installed")
    if isinstance(spoken, str) and spoken != language:
        from ..voices import languages

        if spoken not in languages():
            raise UserError(f"{model}: this voice speaks {spoken!r}, not {language!r}, and the narrator speaks "
                            f"only {', '.join(languages())}; nothing was installed")
        raise UserError(f"{model}: this voice speaks {spoken!r}, not {language!r}: "
                        f"{command()} voices add {spoken} {shlex.quote(str(model))}")
    try:
        sound = synthesize(load_piper_voice(model, config), sample, None)
    except SpeechUnavailable as exc:
        raise UserError(f"{exc}; nothing was installed") from None
    except Exception as exc:  # the model loaded but cannot speak: a broken or foreign voice
        raise UserError(f"{model}: the voice loads but cannot speak ({type(exc).__name__}: {exc}); "
                        "nothing was installed") from None
    if len(sound.frames) < sound.rate // 5:  # under 0.1 s of sound for a whole line
        raise UserError(f"{model}: the voice says nothing; nothing was installed")
