"""The ``werewolf-narrator`` command."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from .config import KEYS, Findings, read_table
from .errors import RunFailed, UserError
from .narration import SCREEN, Line
from .practice import dry_run, report
from .script import TOP_KEYS, load_script, read_script
from .yamlfile import YamlError, load


def _print_line(line: Line) -> None:
    prefix = "  [screen] " if line.channel == SCREEN else ""
    print(prefix + line.text, flush=True)


def cmd_dry_run(args: argparse.Namespace) -> int:
    script, warnings = load_script(args.script)
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    game, lines = dry_run(script, emit=_print_line)
    if args.report:
        data = report(game, lines, script.config.language)
        try:
            Path(args.report).write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        except OSError as exc:
            raise UserError(f"{args.report}: cannot write the report ({exc.strerror or exc})") from None
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        try:
            doc = load(path)
        except YamlError as exc:
            print(f"error: {exc}", file=sys.stderr)
            status = 1
            continue
        is_script = isinstance(doc.data, dict) and any(k in doc.data for k in ("deal", "answers", "table"))
        if is_script:
            script, found = read_script(doc)
            what = "practice script"
        else:
            found = Findings()
            config = read_table(doc.data, doc, (), found)
            what = "table config"
        for warning in found.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        for error in found.errors:
            print(f"error: {error}", file=sys.stderr)
        if found.errors:
            status = 1
            continue
        if is_script:
            assert script is not None
            table, language = script.config.table, script.config.language
            extra = f", {len(script.answers)} answers"
        else:
            assert config is not None
            table, language, extra = config.table, config.language, ""
        print(f"{path}: ok ({what}: {table.seats} players, language {language}{extra})")
    return status


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="werewolf-narrator",
        description="An offline narrator for The Werewolves of Miller's Hollow.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    p = sub.add_parser("dry-run", help="play a practice script through the narrator and report the game")
    p.add_argument("script", help="the practice script (YAML, see spec/dry-run.md)")
    p.add_argument("--silent", action="store_true", help="print the lines instead of speaking them")
    p.add_argument("--report", metavar="FILE", help="write the game report (JSON) to FILE")
    p.set_defaults(func=cmd_dry_run)
    p = sub.add_parser("check", help="check table configs and practice scripts, and explain every problem",
                       epilog="Table config keys:\n" + "\n".join(f"  {k}: {v}" for k, v in KEYS.items())
                       + "\nPractice script keys: " + ", ".join(TOP_KEYS),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(func=cmd_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status (0 ok, 1 a problem with the input, 2 usage)."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except RunFailed as exc:
        print(f"dry run stopped: {exc}", file=sys.stderr)
        return 1
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug of ours: say so plainly rather than show a traceback
        print(f"werewolf-narrator: internal error ({type(exc).__name__}: {exc}); please report it "
              "with the command and files that caused it", file=sys.stderr)
        return 3


def entry() -> None:
    """The console script's entry point."""
    sys.exit(main())


if __name__ == "__main__":
    entry()
