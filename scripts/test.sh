#!/usr/bin/env bash
# Sets up (scripts/setup.sh --test) and runs the test suite; extra arguments go to pytest (a `-m` of theirs wins).
# With no option: every test but the benchmarks' checks (CI and the README run this): in two runs when no
#         argument narrows it, the tests that need no terminal, sound or browser of their own on every core first.
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
if [ "${lane[*]}" = "-m not bench" ] && [ $# -eq 0 ]; then
    # The whole suite (CI, the README) in two runs: what needs no terminal, sound or browser of its own on every
    # core, then the tmux, sound-card, speech-model and browser tests one at a time (they time real terminals and
    # share the one virtual sound card). A run with nothing to select (pytest's 5) is no failure.
    status=0
    .venv/bin/python -m pytest -m "not (terminal or audio or browser or bench)" -n auto || status=$?
    [ "$status" -eq 5 ] && status=0
    second=0
    .venv/bin/python -m pytest -m "(terminal or audio or browser) and not bench" || second=$?
    [ "$second" -eq 5 ] && second=0
    [ "$status" -ne 0 ] && exit "$status"
    exit "$second"
fi
exec .venv/bin/python -m pytest "${lane[@]}" "$@"
