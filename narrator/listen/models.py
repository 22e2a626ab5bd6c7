"""Speech models: the official small vosk models, where they are installed, and fetching them.

A model lives in the user's data folder (``$XDG_DATA_HOME/werewolf-narrator/models/NAME``), or
wherever ``--model DIR`` says. Fetching downloads the official zip with a progress bar, resumes a
download cut short, never writes more than its recorded size, checks the SHA-256 of the whole file,
and unpacks it safely and atomically (the download itself is narrator/download.py's). One fetch of a
model runs at a time; it removes what a fetch killed while unpacking left, and a disk that fills up
while unpacking keeps the checked archive to unpack from next time.
"""

from __future__ import annotations

import errno
import os
import shutil
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Callable, TypedDict

from ..download import download, fetch_lock, verify
from ..errors import UserError
from ..folders import data_home
from ..hint import command

# The models come straight from alphacephei.com: a redirect elsewhere is refused (see narrator/download.py).
HOSTS = frozenset({"alphacephei.com"})


@dataclass(frozen=True)
class SpeechModel:
    """One official vosk model: what it is called, what it hears, where to get it, what it must be."""

    name: str
    language: str
    url: str
    size: int
    """The zip's size in bytes."""
    sha256: str
    """The zip's SHA-256, as the projects that pin these models record it."""


# Upstream publishes no SHA-256 of its own. Each size and checksum below is the one recorded by
# csic21/FrameNest (app/src/main/java/com/framenest/feature/listen_translate/asr/VoskModelInstaller.kt,
# which downloads these very URLs and checks them), and agrees with a second project:
MODELS = (
    # also kercre123/wirepod-pi-yocto (meta-wirepod/recipes-vosk/vosk-model/vosk-model-small-en-us_0.15.bb)
    # and agl-ic-eg/meta-agl-devel (meta-offline-voice-agent/recipes-vosk/vosk-model/vosk-model-small-en-us_0.15.bb)
    SpeechModel("vosk-model-small-en-us-0.15", "en",
                "https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip",
                41_205_931, "30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498"),
    # also kercre123/wirepod-pi-yocto (meta-wirepod/recipes-vosk/vosk-model/vosk-model-small-fr_0.22.bb)
    SpeechModel("vosk-model-small-fr-0.22", "fr",
                "https://alphacephei.com/vosk/models/vosk-model-small-fr-0.22.zip",
                42_233_323, "cabf6180e177eb9b3a9a9d43a437bd5e549f3a7d09525e5d69a3fed787be12ad"),
    # also Flashsator/AntiCyScam (app/src/main/java/com/anticyscam/app/ui/recognition/engine/VoskModelManager.kt)
    SpeechModel("vosk-model-small-cn-0.22", "zh",
                "https://alphacephei.com/vosk/models/vosk-model-small-cn-0.22.zip",
                43_898_754, "3af8b0e7e0f835ae9d414ce5df580237a3cfb08d586c9fbbb0f7ff29ad5b14ba"),
)


class ModelEntry(TypedDict):
    """One line of ``werewolf-narrator models list``."""

    name: str
    language: str
    size_mb: float
    installed: bool
    path: str | None


def find(language_or_name: str) -> SpeechModel:
    """Returns the official model for a language ('en', 'fr', 'zh') or of that name.

    >>> find("fr").name
    'vosk-model-small-fr-0.22'
    >>> find("vosk-model-small-cn-0.22").language
    'zh'
    """
    wanted = language_or_name.strip()
    for model in MODELS:
        if wanted in (model.language, model.name):
            return model
    known = ", ".join(f"{m.language} ({m.name})" for m in MODELS)
    raise UserError(f"no official speech model for {language_or_name!r}: the known ones are {known}; "
                    "any other vosk model can be given with --model DIR")


def data_folder() -> Path:
    """Returns the folder models are installed in: $XDG_DATA_HOME (or ~/.local/share)/werewolf-narrator/models."""
    return data_home() / "werewolf-narrator" / "models"


def is_model(folder: Path) -> bool:
    """Tells whether ``folder`` holds a vosk model: an acoustic model, its config and a decoding graph."""
    graph = folder / "graph"
    has_graph = (graph / "HCLG.fst").is_file() or ((graph / "HCLr.fst").is_file() and (graph / "Gr.fst").is_file())
    return (folder / "am" / "final.mdl").is_file() and (folder / "conf" / "model.conf").is_file() and has_graph


def installed(name: str, folder: Path | None = None) -> Path | None:
    """Returns where the model ``name`` (or of that language) is installed, or None if it is not (or is broken)."""
    path = (folder or data_folder()) / find(name).name
    return path if is_model(path) else None


def list_models(folder: Path | None = None) -> list[ModelEntry]:
    """Lists the official models, their sizes, and whether and where each is installed."""
    entries: list[ModelEntry] = []
    for model in MODELS:
        path = installed(model.name, folder)
        entries.append({"name": model.name, "language": model.language, "size_mb": round(model.size / 1e6, 1),
                        "installed": path is not None, "path": str(path) if path else None})
    return entries


def model_for(language: str, model_dir: str | Path | None = None, folder: Path | None = None) -> Path | None:
    """Returns the model to hear ``language`` with: ``--model DIR`` if given, else the installed one, else None.

    A ``model_dir`` that holds no model (nor exactly one model one level down, as an unzipped
    archive does) is a mistake worth stopping for, not a reason to fall back quietly.
    """
    if model_dir is not None:
        given = Path(model_dir).expanduser()
        if is_model(given):
            return given
        inside = [child for child in given.iterdir() if is_model(child)] if given.is_dir() else []
        if len(inside) == 1:
            return inside[0]
        raise UserError(f"--model {model_dir}: no vosk model there (a model folder holds am/final.mdl, "
                        "conf/model.conf and graph/); give the folder the model's zip unpacked to")
    if not any(model.language == language for model in MODELS):
        return None
    return installed(language, folder)


def no_model_message(language: str) -> str:
    """Says there is no model for ``language``, that play goes on with the keypad, and how to get one.

    >>> no_model_message("fr")
    'no speech model for fr: play goes on with the keypad; to speak the answers, run werewolf-narrator models fetch fr'
    """
    if any(model.language == language for model in MODELS):
        how = f"run {command()} models fetch {language}"
    else:
        how = "give a vosk model with --model DIR"
    return f"no speech model for {language}: play goes on with the keypad; to speak the answers, {how}"


def fetch(language_or_name: str, folder: Path | None = None, url: str | None = None, sha256: str | None = None,
          progress: bool = True, size: int | None = None, warn: Callable[[str], None] | None = None) -> Path:
    """Downloads, checks and installs a model; returns its folder (at once if it is installed already).

    The download goes to ``folder/NAME.zip.part`` and resumes from there when run again, never past
    the recorded size (or ``size``). ``url`` fetches the same file from a mirror; ``sha256``
    overrides the recorded checksum. A second fetch of the same model while one runs is refused
    (``NAME.zip.lock``); the unpacking a killed fetch left is removed, and ``warn`` told.
    """
    model = find(language_or_name)
    folder = folder or data_folder()
    target = folder / model.name
    if is_model(target) and not _leftovers(folder, model.name):
        return target
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create the models folder {folder}: {exc.strerror or exc}") from None
    with fetch_lock(folder / f"{model.name}.zip.lock", model.name):
        _remove_leftovers(folder, model.name, warn or _to_stderr)
        if is_model(target):
            return target
        part = folder / f"{model.name}.zip.part"
        source = url or model.url
        download(source, part, model.name, size or model.size, HOSTS, progress)
        verify(part, model.name, source, sha256 or model.sha256)
        _unpack(part, folder, target)
        part.unlink()
    return target


def _to_stderr(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def _leftovers(folder: Path, name: str) -> list[Path]:
    """The staging folders of ``name`` in ``folder``: a fetch killed while unpacking leaves one (see _unpack)."""
    try:
        return [path for path in folder.glob(f".{name}-*") if path.is_dir() and not path.is_symlink()]
    except OSError:
        return []


def _remove_leftovers(folder: Path, name: str, warn: Callable[[str], None]) -> None:
    """Removes what fetches of ``name`` killed while unpacking left; only called under the fetch's lock."""
    for leftover in _leftovers(folder, name):
        size = sum(path.stat().st_size for path in leftover.rglob("*") if path.is_file() and not path.is_symlink())
        shutil.rmtree(leftover, ignore_errors=True)
        warn(f"removed {leftover} ({size / 1e6:.1f} MB), an unpacking of {name} left unfinished by a fetch that "
             "was stopped")


class _Refused(Exception):
    """An archive that cannot be installed whatever is done: it is deleted."""


def _unpack(archive: Path, folder: Path, target: Path) -> None:
    """Unpacks the model in ``archive`` to ``target``: whole or not at all, and nothing outside ``folder``.

    Refusing the archive deletes it: it passed its checksum, so downloading it again would not help.
    A disk that fills up (or any other failure to write) keeps it: the next fetch unpacks it again
    without downloading it.
    """
    needed = 0
    # The staging folder sits beside the target, on the same file system, so the last step is one rename.
    staging: Path | None = None
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=folder))
        unpacked = staging / "unpacked"
        try:
            with zipfile.ZipFile(archive) as zipped:
                for member in zipped.namelist():
                    if _escapes(member, unpacked):
                        raise _Refused(f"the archive {archive} holds {member!r}, which would land outside "
                                       f"{folder}: it was deleted and nothing was installed")
                needed = sum(info.file_size for info in zipped.infolist())
                zipped.extractall(unpacked)
        except (zipfile.BadZipFile, EOFError) as exc:
            raise _Refused(f"the archive {archive} cannot be unpacked ({exc}): it was deleted and nothing was "
                           "installed") from None
        root = _model_root(unpacked)
        if root is None:
            raise _Refused(f"the archive {archive} holds no vosk model (am/final.mdl, conf/model.conf, graph/): "
                           "it was deleted and nothing was installed")
        if target.exists():
            # A broken leftover (fetch returns early for a good one): os.replace cannot overwrite a folder.
            target.rename(staging / "previous")
        os.replace(root, target)
    except _Refused as exc:
        archive.unlink(missing_ok=True)
        raise UserError(str(exc)) from None
    except OSError as exc:
        kept = (f"the checked download is kept ({archive}): run the command again to unpack it without downloading "
                "it again")
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            takes = f"; it takes {needed / 1e6:.1f} MB unpacked" if needed else ""
            raise UserError(f"the disk is full: the model could not be unpacked into {folder} ({exc.strerror}"
                            f"{takes}); nothing was installed; free some space: {kept}") from None
        raise UserError(f"cannot unpack the model into {folder} ({exc.strerror or exc}); nothing was installed; "
                        f"{kept}") from None
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)


def _escapes(member: str, folder: Path) -> bool:
    """Tells whether the zip member ``member`` would be written outside ``folder``."""
    pure = PurePosixPath(member.replace("\\", "/"))
    if pure.is_absolute() or ".." in pure.parts or (pure.parts and ":" in pure.parts[0]):
        return True
    root = folder.resolve()
    return not (root / pure).resolve().is_relative_to(root)


def _model_root(unpacked: Path) -> Path | None:
    """Returns the model folder inside an unpacked archive: the archive's one top folder, or the archive itself."""
    if is_model(unpacked):
        return unpacked
    found = [child for child in unpacked.iterdir() if is_model(child)] if unpacked.is_dir() else []
    return found[0] if len(found) == 1 else None


def run_models_list(folder: Path | None = None) -> str:
    """Returns ``werewolf-narrator models list``: each official model, its size, and where it is installed."""
    lines = [f"speech models (installed in {folder or data_folder()}):"]
    for entry in list_models(folder):
        where = f"installed: {entry['path']}" if entry["installed"] else \
            f"not installed ({command()} models fetch {entry['language']})"
        lines.append(f"  {entry['language']:<3} {entry['name']:<28} {entry['size_mb']:>5.1f} MB  {where}")
    return "\n".join(lines)


def run_models_fetch(language: str, folder: Path | None = None, url: str | None = None,
                     sha256: str | None = None, size: int | None = None) -> Path:
    """Runs ``werewolf-narrator models fetch LANG``: downloads with a progress bar and installs; returns the folder."""
    return fetch(language, folder, url=url, sha256=sha256, progress=True, size=size)
