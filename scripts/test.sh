#!/usr/bin/env bash
# Sets up (scripts/setup.sh --test) and runs the test suite; extra arguments go to pytest (a `-m` of theirs wins).
# With no option: every test but the benchmarks' checks (CI and the README run this).
# --fast: the fast lane, what to run while working (docs/development.md): every test but those marked slow,
#         terminal, audio, browser or bench (pyproject.toml's markers), on every core.
# --bench: the benchmarks' checks alone (tests marked bench: each runs a scripts/bench_*.py and reads what it prints),
#         after a change to a benchmark script or to what it measures.
set -euo pipefail
cd "$(dirname "$0")/.."
lane=(-m "not bench")
case "${1:-}" in
    --fast) shift; lane=(-m "not (slow or terminal or audio or browser or bench)" -n auto) ;;  # every core (xdist)
    --bench) shift; lane=(-m "bench") ;;
esac
scripts/setup.sh --test
exec .venv/bin/python -m pytest "${lane[@]}" "$@"
