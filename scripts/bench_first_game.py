"""Measures a first game with no render step (issue 35): `play` at a table from a fresh voice cache, Kokoro rendering
in the background while the game is said, a line not ready waiting for its render.

A game at the table config (the starter tables by default) is played by the engine's random players (seeded), its
lines collected by a dry run; then, in a fresh child process with an empty voice cache (the Kokoro model linked in,
as the set-up leaves it), a KokoroSpeaker prepares the table as `play` does and says the game's lines in order into a
loudspeaker that takes each line's own length to play it. The table's time is modelled: --deal-seconds for each
player to come to the screen and see their card (the deal's window), --gap seconds after each other line (an
answer typed, a pause). Prints, for each table: the time from the start to the first line heard, each line's
silence before it is heard (its wait for a render: the longest, with its key, and how many waited over a second,
at night and by day), how many espeak-ng said, the clauses the table's lines need and how many were rendered by the
game's end, and the child's CPU-seconds (the renders, mostly). --lines says only a game's first lines (quicker).
With --render, each table's whole render by `voices render LANG --config TABLE` too, from a fresh cache: its clauses,
wall time and CPU-seconds (what a host who wants everything ready before the guests arrive waits).

    python scripts/bench_first_game.py [--config examples/starter-fr.yaml ...] [--seed 1] [--lines 40]
    taskset -c 0 python scripts/bench_first_game.py      # one core, the Raspberry Pi's proxy

The figures depend on the machine's load: say it with them (the first line prints the load average).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STARTERS = ["examples/starter-fr.yaml", "examples/starter-zh.yaml"]


def game_lines(config_path: str, seed: int) -> list[tuple[str, str]]:
    """Returns the (key, text as the speech engine gets it) of the lines a game at the table says aloud, played by
    the engine's random players."""
    from engine import Game
    from engine.strategy import play
    from narrator.config import load_config
    from narrator.narration import VOICE
    from narrator.practice import dry_run
    from narrator.script import Script, ScriptAnswer
    from narrator.voices import load_voice

    config, _ = load_config(config_path)
    played = play(config.table, seed)
    replay = Game(config.table, played.deal)
    answers: list[ScriptAnswer] = []
    for value in played.journal:
        call = replay.call
        assert call is not None
        if call.needs_answer:
            answers.append(ScriptAnswer(call.id, value, len(answers) + 1, config_path))
        replay.answer(value)
    _, lines = dry_run(Script(config_path, config, played.deal, tuple(answers)))
    voice = load_voice(config.language)
    # A dry run is given its deal: the deal's lines are said as `play` says them (play.py, table_narrator.py).
    deal: list[tuple[str, dict[str, object]]]
    if config.deal == "app":
        turns: list[tuple[str, dict[str, object]]] = [("deal.app_turn", {"seat": seat})
                                                      for seat in range(1, config.table.seats + 1)]
        deal = [("deal.app_intro", {}), *turns]
    else:
        deal = [("deal.cards_intro_centre" if played.deal.centre else "deal.cards_intro", {}), ("deal.cards_ready", {})]
    said = [(key, voice.text(key, values, config.names)) for key, values in deal]
    said += [(line.key, line.text) for line in lines if line.channel == VOICE]
    return [(key, voice.spoken(text)) for key, text in said]


def child(config_path: str, lines: list[tuple[str, str]], deal_seconds: float, gap: float) -> None:
    """In the measured process: the table's speaker as `play` makes it, the game's lines said in order."""
    start = time.monotonic()
    from narrator.config import load_config
    from narrator.speak import KokoroSpeaker, prepare_table
    from narrator.speak.audio import Sound
    from narrator.speak.kokoro_backend import SAMPLE_RATE

    config, _ = load_config(config_path)
    heard: list[tuple[float, int]] = []

    def loudspeaker(sound: Sound) -> None:
        heard.append((time.monotonic() - start, sound.rate))
        time.sleep(len(sound.frames) / (sound.rate * sound.channels * sound.width))  # it takes its length to play

    speaker = KokoroSpeaker(config.language, config.voice, config.rate, sink=loudspeaker)
    table = config.table
    clauses = prepare_table(speaker, config.language, table.seats, config.names, table.deck, config_path, table,
                            config.deal, config.phones)
    wanted = len(speaker.render_lines or ())
    silences = []
    night = False
    for key, text in lines:
        asked = time.monotonic() - start
        speaker.say(text)
        silences.append((heard[-1][0] - asked if heard else 0.0, key, night))
        if key in ("notice.close_eyes", "nightfall.call"):
            night = True
        elif key in ("dawn.call", "notice.open_eyes"):
            night = False
        time.sleep(deal_seconds if key.startswith(("deal.app_turn", "deal.phones_turn")) else gap)
    left = len(speaker.todo(speaker.render_lines or ()))
    speaker.close()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    longest = max(silences)
    print(json.dumps({
        "first": heard[0][0] if heard else None, "lines": len(heard), "wanted": wanted, "clauses": clauses,
        "rendered": clauses - left, "espeak": sum(1 for _, rate in heard if rate != SAMPLE_RATE),
        "longest": longest[0], "longest_key": longest[1], "at_night": sum(1 for s, _, n in silences if n and s > 1),
        "by_day": sum(1 for s, _, n in silences if not n and s > 1), "night_longest": max(
            (s for s, _, n in silences if n), default=0.0), "waits": len(speaker.waits),
        "worst": [f"{key} {silence:.1f} s" for silence, key, _ in sorted(silences, reverse=True)[:4]],
        "cpu": usage.ru_utime + usage.ru_stime, "wall": time.monotonic() - start}))


def render_all(config_path: str, env: dict[str, str]) -> str:
    """Runs `voices render` of the table from an empty voice cache; returns its figures as a phrase."""
    from narrator.config import load_config

    language = load_config(config_path)[0].language
    start = time.monotonic()
    child = subprocess.Popen([sys.executable, "-m", "narrator", "voices", "render", language, "--config", config_path],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    out = child.stdout.read() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{config_path}: voices render failed:\n{out}")
    told = next((line for line in reversed(out.splitlines()) if "rendered" in line), "").strip()
    return (f"{(time.monotonic() - start) / 60:.1f} min wall, {usage.ru_utime + usage.ru_stime:.0f} CPU-s, "
            f"peak {usage.ru_maxrss / 1024:.0f} MB ({told})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", nargs="+", default=STARTERS, help="the table configs (default: the starters)")
    parser.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    parser.add_argument("--lines", type=int, default=0, help="say only the game's first lines (default: all)")
    parser.add_argument("--deal-seconds", type=float, default=8.0,
                        help="seconds a player takes to see their card at the deal (default 8)")
    parser.add_argument("--gap", type=float, default=2.0, help="seconds after any other line (default 2)")
    parser.add_argument("--render", action="store_true", help="also time `voices render` of each table")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], json.loads(Path(args.child[1]).read_text(encoding="utf-8")), args.deal_seconds, args.gap)
        return

    from narrator.speak.kokoro_backend import MODEL_NAME, model_file

    joined = model_file()  # joined once, as the set-up leaves it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"machine: {cores} cores, load {os.getloadavg()[0]:.1f} (figures taken under that load)")
    for config_path in args.config:
        lines = game_lines(config_path, args.seed)
        lines = lines[:args.lines] if args.lines else lines
        with tempfile.TemporaryDirectory() as folder:
            cache = Path(folder) / "cache"
            kokoro = cache / "werewolf-narrator" / "kokoro"
            kokoro.mkdir(parents=True)
            os.symlink(joined, kokoro / MODEL_NAME)
            info = (kokoro / MODEL_NAME).stat()
            (kokoro / f"{MODEL_NAME}.ok").write_text(f"{info.st_size} {info.st_mtime_ns}", encoding="ascii")
            said = Path(folder) / "lines.json"
            said.write_text(json.dumps(lines, ensure_ascii=False), encoding="utf-8")
            env = {**os.environ, "XDG_CACHE_HOME": str(cache), "XDG_DATA_HOME": str(Path(folder) / "data")}
            done = subprocess.run([sys.executable, __file__, "--child", config_path, str(said), "--deal-seconds",
                                   str(args.deal_seconds), "--gap", str(args.gap)], env=env, capture_output=True,
                                  text=True, check=False)
            if done.returncode != 0:
                raise SystemExit(f"{config_path}: the game failed:\n{done.stderr}")
            result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
            shutil.rmtree(cache / "werewolf-narrator" / "voices", ignore_errors=True)
            if args.render:
                render = render_all(config_path, env)
        print(f"{config_path} (seed {args.seed}): {result['lines']} lines said, the first heard "
              f"{result['first']:.1f} s after the start; espeak-ng said {result['espeak']}")
        print(f"    longest silence before a line: {result['longest']:.1f} s ({result['longest_key']}); "
              f"over 1 s: {result['at_night']} at night (longest {result['night_longest']:.1f} s), "
              f"{result['by_day']} by day; {result['waits']} lines waited for their render")
        print(f"    the longest: {', '.join(result['worst'])}")
        print(f"    the table's lines: {result['wanted']} as {result['clauses']} clauses, {result['rendered']} "
              f"rendered by the end; {result['cpu']:.0f} CPU-s ({result['cpu'] / max(1, result['rendered']):.2f} "
              f"a clause), {result['wall'] / 60:.1f} min of game")
        if args.render:
            print(f"    voices render from a fresh cache: {render}")


if __name__ == "__main__":
    main()
