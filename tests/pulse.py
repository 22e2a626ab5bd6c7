"""A real sound card without hardware: a private PulseAudio daemon with two null sinks.

The loudspeaker is a null sink: what the narrator plays there is recorded from its monitor
(`parecord`). The microphone is a second null sink whose monitor is the default source: a WAV
played into it (`paplay`) is what a microphone would hear. ALSA's default device points at the
daemon, so PortAudio (sounddevice) plays and records through it as through any sound card.

Everything lives in a temporary folder (runtime dir, state, config): no system-wide state is read
or written, it runs as root (CI) as well as a user, and it is killed when the tests end. Needs the
Debian packages pulseaudio, pulseaudio-utils and libasound2-plugins (scripts/setup.sh --test installs them).
"""

from __future__ import annotations

import ctypes
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

# The loudspeaker runs at the rate and format of the rendered lines (espeak-ng and Piper: 22050 Hz mono 16-bit),
# so a line passes through unchanged, sample for sample: a test finds each line whole in the recording.
LOUDSPEAKER_RATE = 22050
MICROPHONE_RATE = 16000
ALSA_CONFIG = Path("/usr/share/alsa/alsa.conf")
PACKAGES = "pulseaudio pulseaudio-utils libasound2-plugins"


class SoundCardError(Exception):
    """The virtual sound card cannot start here; the message says why and what to install."""


class Recording:
    """The loudspeaker's monitor recorded by parecord, with when each piece of it arrived (time.perf_counter())."""

    def __init__(self, env: dict[str, str], source: str = "loudspeaker.monitor", rate: int = LOUDSPEAKER_RATE) -> None:
        self.rate = rate
        self.data = bytearray()
        self.arrivals: list[tuple[float, int]] = []
        """(when, bytes recorded by then): a piece's last sample was recorded by ``when``."""
        # A low latency keeps the null sink from rendering in two-second blocks (its latency when no stream asks
        # for less): played sound then reaches the monitor when it is played, as from a real card.
        self._process = subprocess.Popen(
            ["parecord", f"--device={source}", "--raw", "--format=s16le", f"--rate={rate}", "--channels=1",
             "--latency-msec=10"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self._thread = threading.Thread(target=self._read, name="parecord", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self.data:  # the sink runs even when idle: silence arrives at once
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                why = self._process.stderr.read().decode(errors="replace") if self._process.stderr else ""
                raise SoundCardError(f"parecord records nothing from {source}: {why}")
            time.sleep(0.01)

    def _read(self) -> None:
        assert self._process.stdout is not None
        while chunk := os.read(self._process.stdout.fileno(), 4096):
            self.data.extend(chunk)
            self.arrivals.append((time.perf_counter(), len(self.data)))

    def stop(self) -> bytes:
        """Stops recording; returns the mono 16-bit samples recorded."""
        if self._process.poll() is None:
            self._process.terminate()
        self._process.wait(10)
        self._thread.join(10)
        return bytes(self.data)

    def when(self, sample: int) -> float:
        """Returns when ``sample`` (an index in the recording) was recorded, on time.perf_counter()'s clock."""
        end = 2 * (sample + 1)
        at, recorded = next((at, n) for at, n in self.arrivals if n >= end)
        return at - (recorded - end) / 2 / self.rate  # the samples after it in the same piece came later


class SoundCard:
    """A private PulseAudio daemon in ``folder``: ``env`` points a process's ALSA and PulseAudio clients at it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        missing = [tool for tool in ("pulseaudio", "parecord", "paplay") if shutil.which(tool) is None]
        if missing:
            raise SoundCardError(f"{', '.join(missing)} not found: install {PACKAGES} (scripts/setup.sh --test does)")
        if not any(Path("/usr/lib").glob("*alsa-lib/libasound_module_pcm_pulse.so")) and \
                not any(Path("/usr/lib").glob("*/alsa-lib/libasound_module_pcm_pulse.so")):
            raise SoundCardError(f"ALSA's PulseAudio plugin not found: install {PACKAGES} (scripts/setup.sh --test does)")
        if not ALSA_CONFIG.exists():
            raise SoundCardError(f"{ALSA_CONFIG} not found: ALSA's configuration is needed (libasound2-data)")
        for sub in ("run", "state", "home", "config"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        socket = folder / "run" / "native"
        (folder / "daemon.pa").write_text(
            f"load-module module-native-protocol-unix socket={socket} auth-anonymous=1\n"
            f"load-module module-null-sink sink_name=loudspeaker rate={LOUDSPEAKER_RATE} channels=1 format=s16le "
            "sink_properties=device.description=Loudspeaker\n"
            f"load-module module-null-sink sink_name=microphone rate={MICROPHONE_RATE} channels=1 format=s16le "
            "sink_properties=device.description=Microphone\n"
            "set-default-sink loudspeaker\n"
            "set-default-source microphone.monitor\n")
        # A client never starts a daemon of its own, and sends its sound over the socket: with shared memory
        # (memfd), PulseAudio 16 aborted in the null sink ("imported_size >= length" in memblock.c, after
        # "Cannot send block reference with non-registered memfd ID", its issue 824) under load, and the
        # clients crashed with it.
        (folder / "client.conf").write_text("autospawn = no\nenable-shm = no\nenable-memfd = no\n")
        # A stream that ran dry (the machine too busy) goes on late rather than flushing what it holds: with the
        # plugin's default, PortAudio's recovery dropped up to a buffer of the line (a game in four whole at load
        # 5 under nice; four in four with this). The tests check the narrator's sound, not the machine's load.
        (folder / "asound.conf").write_text("pcm.!default { type pulse\n    handle_underrun false\n}\n"
                                            "ctl.!default { type pulse }\n")
        self.env = {
            "PULSE_SERVER": f"unix:{socket}",
            "PULSE_CLIENTCONFIG": str(folder / "client.conf"),
            # ALSA reads its own configuration, then ours, whose default device is the daemon.
            "ALSA_CONFIG_PATH": f"{ALSA_CONFIG}:{folder / 'asound.conf'}",
        }
        daemon_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder / "home"),
                      "XDG_RUNTIME_DIR": str(folder / "run"), "XDG_CONFIG_HOME": str(folder / "config"),
                      "PULSE_RUNTIME_PATH": str(folder / "run"), "PULSE_STATE_PATH": str(folder / "state")}
        self.log = folder / "daemon.log"
        with open(self.log, "wb") as log:
            # -n: no system default.pa, only ours; never exits when idle; in the foreground, so it is ours to kill.
            self._daemon = subprocess.Popen(
                ["pulseaudio", "-n", "-F", str(folder / "daemon.pa"), "--daemonize=no", "--exit-idle-time=-1",
                 "--use-pid-file=no", "--disallow-module-loading", "--disable-shm=yes", "--log-target=stderr"],
                env=daemon_env, stdin=subprocess.DEVNULL, stdout=log, stderr=log, preexec_fn=_die_with_parent)
        self._room: subprocess.Popen[bytes] | None = None
        deadline = time.monotonic() + 15
        while subprocess.run(["pactl", "info"], env=self.client_env(), capture_output=True).returncode != 0:
            if self._daemon.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SoundCardError(f"PulseAudio did not start: {self.log.read_text(errors='replace').strip()}")
            time.sleep(0.05)
        # The quiet room: silence played into the microphone all along, at a low latency. Without a stream, the
        # null sink renders two seconds at a time, and the microphone delivered nothing for two seconds (the
        # listener took it for lost) or lost the start of a sound.
        with open(os.devnull, "wb") as quiet, open("/dev/zero", "rb") as zeros:
            self._room = subprocess.Popen(
                ["pacat", "--playback", "--device=microphone", "--raw", "--format=s16le",
                 f"--rate={MICROPHONE_RATE}", "--channels=1", "--latency-msec=10"],
                stdin=zeros, stdout=quiet, stderr=quiet, env=self.client_env(), preexec_fn=_die_with_parent)

    def client_env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """Returns ``base`` (default: this process's environment) with the sound card's variables."""
        return {**(os.environ if base is None else base), **self.env}

    def record(self) -> Recording:
        """Starts recording the loudspeaker; returns once sound arrives."""
        return Recording(self.client_env())

    def into_microphone(self, wav: Path | str) -> None:
        """Plays a WAV file into the microphone, returning once it has been played."""
        # A low latency, as the recording's: the null sink then takes the sound as it comes, not two seconds at a time
        # (which lost the start of a sound when a new one began).
        subprocess.run(["paplay", "--device=microphone", "--latency-msec=10", str(wav)], env=self.client_env(),
                       check=True, timeout=60)

    def stop(self) -> None:
        """Kills the daemon; stopping again does nothing."""
        if self._room is not None and self._room.poll() is None:
            self._room.terminate()
            self._room.wait(10)
        if self._daemon.poll() is None:
            self._daemon.terminate()
            try:
                self._daemon.wait(10)
            except subprocess.TimeoutExpired:
                self._daemon.kill()
                self._daemon.wait()


def _die_with_parent() -> None:
    """In the daemon's process before it starts: the kernel ends it when the process that started it ends, even
    killed (PR_SET_PDEATHSIG), so no daemon outlives its tests."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG


def start(folder: Path | None = None) -> SoundCard:
    """Starts a sound card in ``folder`` (default: a new temporary folder)."""
    return SoundCard(folder or Path(tempfile.mkdtemp(prefix="werewolf-pulse-")))


def reload_portaudio(sd: Any) -> None:
    """Makes an imported sounddevice see the devices of the environment as it is now (PortAudio lists them
    once, when it starts)."""
    sd._terminate()
    sd._initialize()


def main() -> None:
    """`python tests/pulse.py [FOLDER]`: starts a sound card by hand, prints the variables that point a shell's programs
    at it (eval them, or source FOLDER/env.sh), and keeps it running until Ctrl-C."""
    import sys

    card = start(Path(sys.argv[1]) if len(sys.argv) > 1 else None)
    exports = "".join(f"export {name}={shlex.quote(value)}\n" for name, value in card.env.items())
    (card.folder / "env.sh").write_text(exports)
    print(exports + f"# or: . {card.folder / 'env.sh'}; record loudspeaker.monitor; Ctrl-C stops the card", flush=True)
    stop = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, stop)  # taken by sigwait, so the card is stopped either way
    try:
        signal.sigwait(stop)
    finally:
        card.stop()


if __name__ == "__main__":
    main()
