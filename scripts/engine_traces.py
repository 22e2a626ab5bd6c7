"""Plays thousands of seeded games of every deck the examples and tests use and prints a digest of each whole trace.

The reference for any change to the engine's hot path: every call (its id, phase, actors, seats, facts, ...), the
legal answers of every call that takes one (``Game.legal``), the answer the strategy gave, every fact told, the
eliminations and the outcome go into one SHA-256 per table. Two engines that play the same games print the same
digests. The tables: examples/*.yaml, the tables of tests/games and tests/golden, scripts/tables, the classic preset
for every size it covers, random Best Of decks (scripts/bench_engine.py's), and each house rule and variant changed
alone on a few of them.

    python scripts/engine_traces.py --write /tmp/traces.json      # record
    python scripts/engine_traces.py --compare /tmp/traces.json    # compare with a record
    python scripts/engine_traces.py --against main                # record main's (from a git worktree), compare

``--root DIR`` plays the engine of another checkout (how ``--against`` runs the old one).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

HERE = Path(__file__).resolve().parent.parent


def _import_root(root: Path) -> None:
    """Puts ``root``'s engine and narrator before any other on the path."""
    sys.path.insert(0, str(root))
    for name in [m for m in sys.modules if m.split(".")[0] in ("engine", "narrator")]:
        del sys.modules[name]


def _tables(root: Path) -> list[tuple[str, Any, int]]:
    """Returns (name, table, games weight) for every table traced, read by ``root``'s own loaders."""
    from engine import PRESETS, Game, Rules, Table, deal_cards, preset
    from narrator.config import load_config
    from narrator.errors import UserError
    from narrator.script import load_script

    found: list[tuple[str, Any, int]] = []
    paths = [*sorted((HERE / "examples").glob("*.yaml")), *sorted((HERE / "scripts" / "tables").glob("*.yaml")),
             *sorted((HERE / "tests" / "games").glob("*.yaml")), *sorted((HERE / "tests" / "golden").glob("*.yaml"))]
    for path in paths:
        weight = 1 if path.parent.name in ("games", "golden") else 4
        try:
            if "answers:" in path.read_text(encoding="utf-8"):  # a practice script: its table
                table = load_script(str(path))[0].config.table
            else:
                table = load_config(str(path))[0].table
        except UserError:
            continue  # a file meant to be refused
        found.append((str(path.relative_to(HERE)), table, weight))
    for name in sorted(PRESETS):
        for seats in sorted(PRESETS[name]):
            found.append((f"preset {name} {seats}", Table(seats, preset(name, seats), Rules()), 1))
    sys.path.insert(0, str(HERE / "scripts"))
    from bench_engine import SEATS, best_of_deck  # the bench's decks: the figure it prints must stay honest

    rng = random.Random(39)
    for i in range(20):
        deck = best_of_deck(rng)
        found.append((f"best of {i}", Table(SEATS, deck, Rules(sheriff=rng.random() < 0.5)), 1))
    bases = [(n, t) for n, t, _ in found if n in ("examples/classic-12-en.yaml", "examples/pact-20-en.yaml",
                                                   "scripts/tables/everything-24.yaml", "examples/variants-en.yaml")]
    for name, table in bases:
        for field, value in _rule_changes(table.rules):
            changed = dataclasses.replace(table, rules=dataclasses.replace(table.rules, **{field: value}))
            try:
                Game(changed, deal_cards(changed, 0))
            except ValueError:
                continue  # a change the deck cannot take (the Black Death with werewolves)
            found.append((f"{name} {field}={value}", changed, 1))
    return found


def _rule_changes(rules: Any) -> Iterator[tuple[str, Any]]:
    """Yields each house rule changed alone from ``rules``: a flag flipped, a number at each bound and its
    neighbour, each other choice, each variant added."""
    from engine.table import house_rules
    from engine.variants import VARIANTS

    for rule in house_rules():
        now = getattr(rules, rule.name)
        if rule.name == "variants":
            for name in VARIANTS:
                if name not in now:
                    yield rule.name, tuple(sorted((*now, name)))
            if now:
                yield rule.name, ()
        elif isinstance(now, bool):
            yield rule.name, not now
        elif rule.choices:
            yield from ((rule.name, c) for c in rule.choices if c != now)
        elif rule.bounds:
            low, high = rule.bounds
            yield from ((rule.name, v) for v in sorted({low, low + 1, high}) if v != now)


def _plain(value: Any) -> str:
    """Returns a stable text of an answer, a fact's value or a call's field (no addresses, sorted mappings)."""
    if isinstance(value, dict) or hasattr(value, "items"):
        return "{" + ",".join(f"{k!r}:{_plain(v)}" for k, v in sorted(value.items(), key=lambda kv: repr(kv[0]))) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_plain(v) for v in value) + "]"
    if isinstance(value, (frozenset, set)):
        return "{" + ",".join(sorted(_plain(v) for v in value)) + "}"
    if hasattr(value, "value") and isinstance(value, str):  # Phase, Team, Kind: their names
        return repr(str.__str__(value))
    return repr(value)


def _facts(facts: Any) -> str:
    return ";".join(f"{f.key}{_plain(f.values)}{'s' if f.secret else ''}" for f in facts)


def _call(call: Any) -> str:
    return "|".join((call.id, _plain(call.phase), str(call.number), _plain(call.kind), str(call.live),
                     _plain(call.actors), _plain(call.seats), str(call.optional), str(call.picks), _facts(call.facts),
                     str(call.needs_answer), _plain(call.options)))


def trace(table: Any, seed: int, model: str) -> Iterator[str]:
    """Plays game ``seed`` of ``table`` with the engine's strategy ``model``; yields its trace line by line."""
    import random as rnd

    from engine import Game, deal_cards
    from engine.strategy import MAX_CALLS, Player

    game = Game(table, deal_cards(table, seed))
    player = Player(game, rnd.Random(seed * 2 + 1), model)
    while not game.over and len(game.calls) <= MAX_CALLS:
        call = game.call
        assert call is not None
        yield _call(call)
        if call.needs_answer:
            yield "legal " + _plain(game.legal())
        step = player.step()
        yield f"answer {_plain(game.journal[-1])} facts {_facts(step.facts)}"
    yield "eliminated " + ";".join(f"{e.seat},{e.role},{_plain(e.phase)},{e.number},{e.cause}" for e in game.eliminated)
    yield "outcome " + (_plain(dataclasses.asdict(game.outcome)) if game.outcome else "none")


def _digest(job: tuple[str, int, str, Any, int]) -> tuple[str, str, int, int]:
    """Plays a table's games: returns (name, digest, games, calls)."""
    root, games, name, table, weight = job
    digest = hashlib.sha256()
    calls = 0
    for model, share in (("random", 1.0), ("hunt", 0.25), ("seer", 0.1)):
        for i in range(max(1, int(games * weight * share))):
            for line in trace(table, 1_000_003 * i + 7, model):
                digest.update(line.encode())
                digest.update(b"\n")
                calls += line.startswith("answer")
    return name, digest.hexdigest(), games, calls


def record(root: Path, games: int, jobs: int) -> dict[str, str]:
    """Returns every table's digest, played by ``root``'s engine."""
    _import_root(root)
    work = [(str(root), games, name, table, weight) for name, table, weight in _tables(root)]
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        results = pool.map(_digest, work, chunksize=1)
    calls = sum(r[3] for r in results)
    print(f"{root}: {len(results)} tables, {calls:,} answers, {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return {name: digest for name, digest, _, _ in results}


def compare(old: dict[str, str], new: dict[str, str]) -> int:
    """Prints the tables whose traces differ (or are missing); returns how many."""
    bad = [n for n in sorted(old.keys() | new.keys()) if old.get(n) != new.get(n)]
    for name in bad:
        print(f"DIFFERENT: {name}: {old.get(name, 'missing')[:12]} -> {new.get(name, 'missing')[:12]}")
    print(f"{len(old.keys() & new.keys()) - len([b for b in bad if b in old and b in new])} tables identical, "
          f"{len(bad)} different")
    return len(bad)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="random games per table and weight (default 10)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout whose engine plays")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path, help="write the digests to this file")
    group.add_argument("--compare", type=Path, help="compare with the digests in this file")
    group.add_argument("--against", metavar="REV", help="record REV's digests from a git worktree, then compare")
    args = parser.parse_args()
    if args.against:
        with tempfile.TemporaryDirectory() as tmp:
            tree, out = Path(tmp) / "tree", Path(tmp) / "old.json"
            subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", "-q", str(tree), args.against],
                           check=True)
            try:
                subprocess.run([sys.executable, __file__, "--root", str(tree), "--games", str(args.games),
                                "--jobs", str(args.jobs), "--write", str(out)], check=True)
                old = json.loads(out.read_text())
            finally:
                subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(tree)], check=True)
        return 1 if compare(old, record(args.root, args.games, args.jobs)) else 0
    digests = record(args.root, args.games, args.jobs)
    if args.write:
        args.write.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
        return 0
    return 1 if compare(json.loads(args.compare.read_text()), digests) else 0


if __name__ == "__main__":
    sys.exit(main())
