"""The host's tools around a game: `check`, `simulate`, `understand`, `mic-test`, `models` and `devices`."""

from __future__ import annotations

import argparse
import json
import sys

from .common import _is_script, _warn


def cmd_understand(args: argparse.Namespace) -> int:
    from ..listen.understand import understand_command

    for entry in understand_command(args.lang, args.texts):
        print(json.dumps(entry, ensure_ascii=False))
    return 0


def cmd_mic_test(args: argparse.Namespace) -> int:
    from ..mictest import mic_test

    return mic_test(args.lang, args.model, args.microphone, args.seconds, warn=_warn)


def cmd_models(args: argparse.Namespace) -> int:
    from ..listen.models import run_models_fetch, run_models_list

    if args.action == "list":
        print(run_models_list())
    else:
        path = run_models_fetch(args.language, url=args.url, sha256=args.sha256, size=args.size)
        print(f"installed at {path}")
    return 0


def cmd_devices(args: argparse.Namespace) -> int:
    from ..config import load_config
    from ..listen.devices import devices_report

    config = load_config(args.config)[0] if args.config else None
    print(devices_report(config.microphone if config else None, config.device if config else None))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from ..simulate import DeckOptions, SimulateOptions, cmd_simulate as run

    deck = DeckOptions(tuple(args.deck or ()), args.config, args.preset, args.seats, args.sheriff)
    return run(SimulateOptions(deck, args.games, args.strategy, args.seed, args.jobs), warn=_warn)


def cmd_check(args: argparse.Namespace) -> int:
    from ..config import Findings, TableConfig, read_table
    from ..script import read_script
    from ..voices import load_voice
    from ..yamlfile import YamlError, load

    status = 0
    for path in args.files:
        try:
            doc = load(path)
        except YamlError as exc:
            print(f"error: {exc}", file=sys.stderr)
            status = 1
            continue
        data = doc.data
        is_script = _is_script(data)
        checked: TableConfig | None
        if is_script:
            script, found = read_script(doc)
            checked = script.config if script is not None else None
        else:
            found = Findings()
            checked = read_table(doc.data, doc, (), found)
        # The verdict and the warnings in the table's language; the errors (in a file that may name none) in English.
        voice = load_voice(checked.language if checked is not None else "en")
        for warning in found.warnings:
            print(voice.text("screen.check_warning", {"text": warning.text(voice)}, fragment=True), file=sys.stderr)
        for error in found.errors:
            print(f"error: {error}", file=sys.stderr)
        if found.errors:
            status = 1
            continue
        assert checked is not None
        table, language = checked.table, checked.language
        if is_script:
            assert script is not None
            from ..errors import RunFailed
            from ..practice import dry_run

            try:  # played as `dry-run --silent` plays it: answers in the wrong order or the rules forbid stop it
                dry_run(script)
            except RunFailed as exc:
                print(f"{exc.heading}{exc}", file=sys.stderr)
                status = 1
                continue
            verdict = voice.text("screen.check_ok_script", {"path": path, "count": table.seats, "language": language,
                                                            "answers": len(script.answers)}, fragment=True)
        else:
            verdict = voice.text("screen.check_ok", {"path": path, "count": table.seats, "language": language},
                                 fragment=True)
            if not args.no_simulate:
                from ..simulate import check_balance

                for advice in check_balance(table, voice):
                    print(voice.text("screen.check_warning", {"text": f"{path}: {advice}"}, fragment=True),
                          file=sys.stderr)
        print(verdict)
    return status
