"""`werewolf-narrator mic-test`: the level meter, and a clear message on a machine with no microphone."""

from __future__ import annotations

import array
import io
import math
from typing import Any, Callable

import pytest

from narrator import mictest
from narrator.cli import main
from narrator.listen import audio_in


class ToneSource:
    """A microphone that hears a steady tone at half of full scale."""

    name = "microphone"
    rate = 16000

    def __init__(self, device: Any = None, samplerate: Any = None) -> None:
        self.closed = False

    def start(self, sink: Callable[[bytes], None]) -> None:
        tone = array.array("h", (int(16384 * math.sin(i / 5)) for i in range(4000)))
        sink(tone.tobytes())

    def cue(self) -> None:
        pass

    def problem(self) -> str | None:
        return None

    def close(self) -> None:
        self.closed = True


def test_the_meter_shows_how_loud_the_microphone_hears(monkeypatch: pytest.MonkeyPatch) -> None:
    """A live level meter: a tone at half scale shows about -9 dB; without a model it still meters."""
    monkeypatch.setattr(audio_in, "MicrophoneSource", ToneSource)
    monkeypatch.setenv("XDG_DATA_HOME", "/nonexistent-models")
    out = io.StringIO()
    warnings: list[str] = []
    assert mictest.mic_test("en", None, None, seconds=0.3, out=out, warn=warnings.append) == 0
    shown = out.getvalue()
    assert "#" in shown and "-9 dB" in shown
    assert len(warnings) == 1 and "models fetch en" in warnings[0]


def test_no_microphone_is_said_plainly(capsys: pytest.CaptureFixture[str]) -> None:
    """This machine has no sound card: one clear message, exit 1, no traceback."""
    assert main(["mic-test", "--seconds", "0.2"]) == 1
    err = capsys.readouterr().err
    assert "no microphone" in err and "devices" in err and "Traceback" not in err
