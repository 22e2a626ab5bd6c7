import atexit
import importlib
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pulse  # noqa: E402  (tests/ is on the path from here)
from pulse import SoundCard  # noqa: E402

# Rendered voice lines go to a folder of this test run, never to the user's own cache (the
# subprocesses the tests start inherit it too).
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="werewolf-tests-cache-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)
# Likewise the data folder (journals, speech models, Piper voices): a voice or a model the user installed must
# not change what the tests choose.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="werewolf-tests-data-")
atexit.register(shutil.rmtree, os.environ["XDG_DATA_HOME"], True)
# The hints name the command that runs the program where the user is (narrator.hint); pinned here, so that the
# messages the tests expect do not depend on where pytest runs (test_hints.py checks how it is chosen).
os.environ["WEREWOLF_NARRATOR_COMMAND"] = "werewolf-narrator"
# The tests that play a game in a real terminal (tmux) type its keys ahead, a night's answers too: a night call keeps
# them (narrator.keypad.TYPE_AHEAD). test_host_screen.py checks, without it, that a table's stray keys are dropped.
os.environ["WEREWOLF_NARRATOR_TYPE_AHEAD"] = "1"

LANES_BY_MODULE = {
    "terminal": {"test_terminal", "test_twins_terminal", "test_game_night_terminal", "test_screen_terminal",
                 "test_kill_trials", "test_pacing_terminal", "test_draw_terminal"},
    "audio": {"test_sound_card", "test_piper", "test_kokoro", "test_listen_vosk"},
    "bench": {"test_bench_scripts"},
    "browser": {"test_phones_browser"},
}
"""The markers (pyproject.toml) every test of a module has: what the whole module is about."""

LANES_BY_FIXTURE = {"sound_card": "audio", "joe": "audio"}
"""The markers a test has when it uses a fixture, directly or through another: the sound card (``on_sound_card``),
the real Piper voice (test_piper.py's ``joe``)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks the tests by what they need (the lanes of docs/development.md); other tests are marked by hand."""
    for item in items:
        module = item.path.stem
        for marker, modules in LANES_BY_MODULE.items():
            if module in modules:
                item.add_marker(marker)
        for fixture in getattr(item, "fixturenames", ()):
            if fixture in LANES_BY_FIXTURE:
                item.add_marker(LANES_BY_FIXTURE[fixture])


@pytest.fixture(scope="session")
def sound_card() -> Iterator[SoundCard]:
    """A private PulseAudio daemon: a null sink as the loudspeaker, another's monitor as the microphone (pulse.py).

    The tests that use it exercise the real output and input paths, so a machine that cannot start it fails them
    with the reason: scripts/setup.sh installs what it needs."""
    folder = Path(tempfile.mkdtemp(prefix="werewolf-pulse-"))
    try:
        card = pulse.start(folder)
    except pulse.SoundCardError as exc:
        shutil.rmtree(folder, True)
        pytest.fail(f"the virtual sound card (PulseAudio) cannot start: {exc}", pytrace=False)
    try:
        yield card
    finally:
        card.stop()
        shutil.rmtree(folder, True)


@pytest.fixture
def on_sound_card(sound_card: SoundCard, monkeypatch: pytest.MonkeyPatch) -> Iterator[SoundCard]:
    """This process plays and records on the virtual sound card for the test, then on this machine's own again."""
    sd = importlib.import_module("sounddevice")
    with monkeypatch.context() as patch:
        for name, value in sound_card.env.items():
            patch.setenv(name, value)
        pulse.reload_portaudio(sd)
        try:
            yield sound_card
        finally:
            patch.undo()
            pulse.reload_portaudio(sd)
