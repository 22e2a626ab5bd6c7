#!/usr/bin/env bash
# Sets up (scripts/setup.sh --test) and runs the whole test suite; extra arguments go to pytest.
# --fast first: the fast lane, what to run while working (docs/development.md): every test but those marked slow,
# terminal, audio or bench (pyproject.toml's markers). Without it nothing is left out: CI and the README run that.
set -euo pipefail
cd "$(dirname "$0")/.."
lane=()
if [ "${1:-}" = "--fast" ]; then
    shift
    lane=(-m "not (slow or terminal or audio or bench)")
fi
scripts/setup.sh --test
exec .venv/bin/python -m pytest ${lane[@]+"${lane[@]}"} "$@"
