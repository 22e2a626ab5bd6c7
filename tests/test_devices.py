"""Sound devices: listing and picking through a fake sounddevice, and the real report on this machine."""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

import pytest

from narrator.errors import UserError
from narrator.listen import devices
from narrator.listen.devices import devices_report, list_devices, pick


class PortAudioError(Exception):
    pass


def fake_sounddevice(entries: list[tuple[str, int, int]], default: tuple[int, int] = (1, 2)) -> types.ModuleType:
    """Builds a sounddevice module whose devices are (name, input channels, output channels)."""
    fake = types.ModuleType("sounddevice")
    listed = [{"name": name, "index": i, "hostapi": 0, "max_input_channels": ins, "max_output_channels": outs,
               "default_samplerate": 48000.0} for i, (name, ins, outs) in enumerate(entries)]

    def query_devices(*args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        assert not args and not kwargs, "devices.py asks for the whole list only"
        return listed

    fake.query_devices = query_devices  # type: ignore[attr-defined]
    fake.default = types.SimpleNamespace(device=list(default))  # type: ignore[attr-defined]
    fake.PortAudioError = PortAudioError  # type: ignore[attr-defined]
    return fake


TABLE = [("HDA Intel PCH: ALC257 Analog (hw:0,0)", 2, 2), ("USB Conference Mic", 1, 0),
         ("HDMI 0 (hw:0,3)", 0, 8), ("USB Speaker", 0, 2)]


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sounddevice", fake_sounddevice(TABLE))


def test_listing_marks_defaults_and_choices(table: None) -> None:
    listed = list_devices()
    assert [(d["index"], d["name"], d["inputs"], d["outputs"]) for d in listed] == [
        (i, name, ins, outs) for i, (name, ins, outs) in enumerate(TABLE)]
    assert [d["default"] for d in listed] == [[], ["input"], ["output"], []]
    assert [d["chosen"] for d in listed] == [[], ["input"], ["output"], []]
    chosen = list_devices("alc257", "usb speaker")
    assert [d["chosen"] for d in chosen] == [["input"], [], [], ["output"]]
    assert [d["default"] for d in chosen] == [[], ["input"], ["output"], []]


def test_picking_by_index(table: None) -> None:
    assert pick(1, "input") == 1
    assert pick("3", "output") == 3
    assert pick(" 0 ", "input") == 0


def test_picking_by_name_substring_any_case(table: None) -> None:
    assert pick("conference", "input") == 1
    assert pick("usb", "input") == 1  # the USB Speaker has no input
    assert pick("HDMI", "output") == 2
    assert pick("usb speaker", "output") == 3


def test_no_choice_is_the_default(table: None) -> None:
    assert pick(None, "input") is None
    assert pick("default", "output") is None
    assert pick("", "input") is None


def test_an_unknown_device_lists_the_devices(table: None) -> None:
    with pytest.raises(UserError) as caught:
        pick("bluetooth", "input")
    message = str(caught.value)
    assert "no input device matches 'bluetooth'" in message
    assert "0: HDA Intel PCH: ALC257 Analog (hw:0,0) (2 in, 2 out)" in message
    assert "1: USB Conference Mic (1 in, 0 out)" in message
    assert "HDMI" not in message  # only the devices that could be picked for input


def test_an_index_of_the_wrong_kind_is_refused(table: None) -> None:
    with pytest.raises(UserError, match="there is no input device number 2; the input devices are: 0: .*1: USB"):
        pick(2, "input")
    with pytest.raises(UserError, match="no output device number 9"):
        pick("9", "output")


def test_an_ambiguous_name_lists_the_matches(table: None) -> None:
    with pytest.raises(UserError, match="several output devices match 'hw:0'.*ALC257.*HDMI"):
        pick("hw:0", "output")


def test_a_chosen_device_that_matches_nothing_is_reported(table: None) -> None:
    with pytest.raises(UserError, match="no output device matches 'jabra'"):
        list_devices(chosen_output="jabra")
    assert "no output device matches 'jabra'" in devices_report(chosen_output="jabra")


def test_the_report_lists_devices_and_choices(table: None) -> None:
    report = devices_report("conference")
    assert "  1  USB Conference Mic  (1 in, 0 out)  [default input, chosen input]" in report
    assert "  2  HDMI 0 (hw:0,3)  (0 in, 8 out)  [default output, chosen output]" in report


def test_the_report_says_when_nothing_can_be_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sounddevice", fake_sounddevice([("HDMI", 0, 2)], default=(-1, 0)))
    assert "no input device is chosen or default: play uses the keypad" in devices_report()


def test_a_missing_sounddevice_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sounddevice", None)  # makes the import raise ImportError
    assert devices_report() == ("sounddevice is not installed (pip install sounddevice): the narrator prints its "
                                "lines and play uses the keypad")
    with pytest.raises(UserError, match="pip install sounddevice"):
        pick("usb", "input")


def test_a_missing_portaudio_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_portaudio(name: str) -> Any:
        raise OSError("PortAudio library not found")

    monkeypatch.setattr(importlib, "import_module", no_portaudio)
    monkeypatch.setattr(sys, "platform", "linux")
    assert devices_report().startswith("the PortAudio library is missing (sudo apt-get install libportaudio2)")


def test_a_failing_sound_system_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = fake_sounddevice(TABLE)

    def broken(*args: Any) -> Any:
        raise PortAudioError("Error querying device -1")

    fake.query_devices = broken  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sounddevice", fake)
    assert devices_report().startswith("the sound system cannot list its devices (Error querying device -1)")


def test_the_real_report_on_this_machine() -> None:
    """This machine (like CI) has no sound card; on one that has, the report lists its devices instead."""
    report = devices_report()
    if len(devices.load_sounddevice().query_devices()) == 0:
        assert report == ("no sound card found on this machine: the narrator prints its lines and play uses "
                          "the keypad")
        assert list_devices() == []
        with pytest.raises(UserError, match="no input device matches 'usb': no sound card found"):
            pick("usb", "input")
    else:
        assert report.startswith("sound devices")
    assert pick(None, "input") is None
