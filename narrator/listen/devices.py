"""Sound devices: which microphones and speakers this machine has, and which the narrator uses.

sounddevice is imported only here and only when asked, so a machine without it (or without the
PortAudio library) still plays: the narrator prints its lines and the keypad takes the answers.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Literal, TypedDict

from ..errors import UserError
from ..hint import command
from ..speak.audio import quiet_alsa

Kind = Literal["input", "output"]
KINDS: tuple[Kind, ...] = ("input", "output")
NO_SOUND_CARD = "no sound card found on this machine: the narrator prints its lines and play uses the keypad"


class Device(TypedDict):
    """One line of ``werewolf-narrator devices``."""

    index: int
    name: str
    inputs: int
    outputs: int
    default: list[str]
    """The kinds ('input', 'output') the system uses this device for when none is chosen."""
    chosen: list[str]
    """The kinds the narrator uses this device for, chosen by the config or else by default."""


def load_sounddevice() -> Any:
    """Imports sounddevice; raises UserError saying what to install when it cannot be."""
    try:
        quiet_alsa()
        return importlib.import_module("sounddevice")
    except ImportError:
        raise UserError("sounddevice is not installed (pip install sounddevice)") from None
    except OSError:
        if sys.platform.startswith("linux"):
            raise UserError("the PortAudio library is missing (sudo apt-get install libportaudio2)") from None
        raise UserError("the PortAudio library is missing (pip install --force-reinstall sounddevice)") from None


def _query() -> tuple[list[dict[str, Any]], list[int]]:
    """Returns PortAudio's devices and the default input and output indexes (-1 for none)."""
    sd = load_sounddevice()
    try:
        devices = [dict(d) for d in sd.query_devices()]
        defaults = [int(i) if i is not None else -1 for i in sd.default.device]
    except sd.PortAudioError as exc:
        raise UserError(f"the sound system cannot list its devices ({exc})") from None
    for position, device in enumerate(devices):
        device.setdefault("index", position)
    return devices, defaults


def _channels(device: dict[str, Any], kind: Kind) -> int:
    return int(device[f"max_{kind}_channels"])


def _describe(devices: list[dict[str, Any]]) -> str:
    return "; ".join(f"{d['index']}: {d['name']} ({_channels(d, 'input')} in, {_channels(d, 'output')} out)"
                     for d in devices) or "none"


def _pick(devices: list[dict[str, Any]], device: str | int | None, kind: Kind) -> int | None:
    if device is None or (isinstance(device, str) and device.strip().lower() in ("", "default")):
        return None
    if not devices:
        raise UserError(f"no {kind} device matches {str(device)!r}: {NO_SOUND_CARD}")
    usable = [d for d in devices if _channels(d, kind) > 0]
    listing = f"the {kind} devices are: {_describe(usable)} ({command()} devices lists them all)"
    if isinstance(device, int) or device.strip().isdigit():
        index = int(device)
        if any(d["index"] == index for d in usable):
            return index
        raise UserError(f"there is no {kind} device number {index}; {listing}")
    wanted = device.strip().lower()
    matches = [d for d in usable if wanted in str(d["name"]).lower()]
    exact = [d for d in matches if str(d["name"]).lower() == wanted]
    if len(matches) == 1 or len(exact) == 1:
        return int((exact or matches)[0]["index"])
    if matches:
        raise UserError(f"several {kind} devices match {device!r}: {_describe(matches)}; give more of the name "
                        "or the number")
    raise UserError(f"no {kind} device matches {device!r}; {listing}")


def pick(device: str | int | None, kind: Kind) -> int | None:
    """Returns the index of the ``kind`` device named by ``device`` (an index, or part of its name, any case).

    None (or "default") means the system's default device, and gives None. A device that matches
    nothing, or several, raises UserError listing the devices.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be 'input' or 'output', not {kind!r}")
    if device is None:
        return None
    devices, _ = _query()
    return _pick(devices, device, kind)


def list_devices(chosen_input: str | int | None = None, chosen_output: str | int | None = None) -> list[Device]:
    """Lists the sound devices, marking the defaults and those the narrator uses (the config's, else the defaults).

    Raises UserError when sounddevice cannot run here, or a chosen device matches nothing.
    """
    devices, defaults = _query()
    chosen = {kind: _pick(devices, wanted, kind) for kind, wanted in zip(KINDS, (chosen_input, chosen_output))}
    listed: list[Device] = []
    for device in devices:
        index = int(device["index"])
        default: list[str] = [kind for kind, i in zip(KINDS, defaults) if i == index]
        listed.append({
            "index": index,
            "name": str(device["name"]),
            "inputs": _channels(device, "input"),
            "outputs": _channels(device, "output"),
            "default": default,
            "chosen": [kind for kind in KINDS
                       if (chosen[kind] == index if chosen[kind] is not None else kind in default)],
        })
    return listed


def devices_report(chosen_input: str | int | None = None, chosen_output: str | int | None = None) -> str:
    """Returns ``werewolf-narrator devices``: every device, its channels, which are default and chosen.

    Never raises: what keeps sound from working here is the report.
    """
    try:
        found, _ = _query()
    except UserError as exc:
        return f"{exc}: the narrator prints its lines and play uses the keypad"
    if not found:
        return NO_SOUND_CARD
    try:
        devices = list_devices(chosen_input, chosen_output)
    except UserError as exc:
        return str(exc)
    lines = ["sound devices (the config picks them by number or by part of the name):"]
    for d in devices:
        marks = [f"default {kind}" for kind in d["default"]] + [f"chosen {kind}" for kind in d["chosen"]]
        lines.append(f"  {d['index']:>3}  {d['name']}  ({d['inputs']} in, {d['outputs']} out)"
                     + (f"  [{', '.join(marks)}]" if marks else ""))
    for kind in KINDS:
        if not any(kind in d["chosen"] for d in devices):
            lines.append(f"no {kind} device is chosen or default: "
                         + ("play uses the keypad" if kind == "input" else "the narrator prints its lines"))
    return "\n".join(lines)
