#!/usr/bin/env bash
# Sets up (scripts/setup.sh --test) and runs the whole test suite; extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
exec .venv/bin/python -m pytest "$@"
