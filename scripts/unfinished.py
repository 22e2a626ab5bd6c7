"""Prints the share of games each table leaves unfinished, for every strategy: every table config of examples/, the
`classic` preset from 6 to 18 players, and scripts/tables/ (24 players with every building and the Characters
expansion). A game still running after engine.strategy.MAX_CALLS calls is unfinished; docs/simulate.md quotes the
figures (0 everywhere since the stalemate ends a game: docs/rules.md, "A game that cannot end").

    nice -n 10 .venv/bin/python scripts/unfinished.py [--games N] [--jobs N] [TABLE.yaml ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Table, preset  # noqa: E402
from engine.strategy import MODELS, UNFINISHED  # noqa: E402
from narrator.config import load_config  # noqa: E402
from narrator.errors import UserError  # noqa: E402
from narrator.script import load_script  # noqa: E402
from narrator.simulate import describe, simulate  # noqa: E402


def table_of(path: Path) -> Table:
    """Returns the table of a table config, or of a practice script (its table and deal)."""
    try:
        return load_config(str(path))[0].table
    except UserError:
        script, _ = load_script(str(path))
        return script.config.table


def tables(paths: list[str]) -> list[tuple[str, Table]]:
    """Returns the tables to measure, by name: the files given, or every example, preset and extra table."""
    files = [Path(p) for p in paths] or [*sorted((ROOT / "examples").glob("*.yaml")),
                                         *sorted((ROOT / "scripts" / "tables").glob("*.yaml"))]
    found = [(str(f.relative_to(ROOT) if f.is_relative_to(ROOT) else f), table_of(f)) for f in files]
    if not paths:
        found += [(f"classic preset, {n} players", Table(n, preset("classic", n))) for n in range(6, 19)]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tables", nargs="*", help="table configs (default: every example, preset and extra table)")
    parser.add_argument("--games", type=int, default=2000, help="games a strategy (default 2,000)")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: every core)")
    args = parser.parse_args()
    start, worst = time.perf_counter(), 0
    for name, table in tables(args.tables):
        shares = []
        for model in MODELS:
            result = simulate(table, args.games, model, seed=1, jobs=args.jobs)
            stuck = result.wins.get(UNFINISHED, 0)
            worst = max(worst, stuck)
            shares.append(f"{model} {stuck}/{result.games}")
        print(f"{name} ({describe(table)}): unfinished {', '.join(shares)}", flush=True)
    print(f"most unfinished games of a table and strategy: {worst} ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
