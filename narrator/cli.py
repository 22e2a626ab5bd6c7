"""The ``werewolf-narrator`` command.

Only what every command needs is imported here: `play` and `resume` run their game under a supervising process
(narrator.supervise) that must not load the engine, so each command imports what it uses.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import dataclasses
import errno
import io
import json
import math
import os
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence, TextIO

from .errors import GameStopped, RunFailed, UserError
from .folders import settle_home

# The speech backends (narrator.speak.BACKENDS), named here so that the supervisor need not import speech.
SPEAKERS = ("auto", "kokoro", "piper", "pyttsx3", "console")

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from .journal import Entry, Journal
    from .narration import Line


def _warn(message: str, language: str = "") -> None:
    """Prints a warning, cut between words at the terminal's width: printed before the full screen opens, it is
    what the host finds again once it closes, and the terminal would cut it mid-word. With a ``language``, the
    warning is about the table and labelled in its language, as its text is."""
    from .hint import columns, fold
    from .voices import load_voice

    labelled = (load_voice(language).text("screen.check_warning", {"text": message}, fragment=True) if language
                else f"warning: {message}")
    print(fold(labelled, columns(2)), file=sys.stderr, flush=True)


def cmd_dry_run(args: argparse.Namespace, replay: Sequence[Entry] = (), replay_from: str = "",
                journal: Journal | None = None) -> int:
    """Plays a practice script; or, with ``replay`` and the ``journal`` it came from, goes on with it."""
    from .journal import Journal
    from .narration import SCREEN, VOICE
    from .practice import dry_run, report
    from .script import load_script
    from .voices import load_voice

    script, warnings = load_script(args.script)
    config = script.config
    for warning in warnings:
        _warn(warning, config.language)
    spoken = load_voice(config.language).spoken
    speakers: list[Any] = []
    if args.audio_dir:
        from .speak import WavDirSpeaker

        speakers.append(WavDirSpeaker(Path(args.audio_dir), config.language, config.voice, config.rate,
                                      backend=config.speaker, warn=_warn))
        if config.ambience:  # once, for the host to hear what the table will hear under the night
            from .speak.ambience import night_loop

            try:
                night_loop().write(Path(args.audio_dir) / "ambience.wav")
            except OSError as exc:
                speakers[0].close()
                raise UserError(f"{args.audio_dir}: cannot write ambience.wav there ({exc.strerror or exc})") from None
    if not args.silent:
        from .speak import make_speaker, prepare_table

        speaker = make_speaker(config.speaker, config.language, config.voice, config.rate, config.device,
                               warn=_warn)
        if speaker.name == "console":
            speaker.close()  # the lines are printed anyway
        else:
            speakers.append(speaker)
            prepare_table(speaker, config.language, config.table.seats, config.names, config.table.deck,
                          config.source, config.table)

    said = []

    def emit(line: Line) -> None:
        said.append(line)
        print(("  [screen] " if line.channel == SCREEN else "") + line.text, flush=True)
        if line.channel == VOICE:
            for speaker in speakers:
                speaker.say(spoken(line.text))

    if getattr(args, "journal_file", None):
        from .practice import journal_header

        journal = Journal(Path(args.journal_file), journal_header(script))
    try:
        game, lines = dry_run(script, emit=emit, journal=journal, replay=replay, replay_from=replay_from,
                              pace=args.pace)
    except KeyboardInterrupt:
        if journal is not None:
            from .hint import resume_hint

            print(f"stopped; every answer so far is saved; to go on:\n  {resume_hint(journal.path)}", file=sys.stderr)
        raise
    finally:
        for speaker in speakers:
            speaker.close()
        if journal is not None:
            journal.close()
    if replay and not said:  # every line was replayed, silently: without this the command would print nothing
        winner = game.outcome.winner if game.outcome is not None else "?"
        print(f"{replay_from}: this practice game had ended already (the winner: {winner}): nothing is left to "
              f"play (`dry-run {args.script}` plays it again; --report FILE writes its report)", file=sys.stderr)
    if args.report:
        _write_report(args.report, report(game, lines, script.config.language))
    return 0


def cmd_resume(args: argparse.Namespace) -> int:
    from .supervise import supervise, table_journal, wanted

    if args.journal and args.last:
        raise UsageError("resume takes a journal or --last, not both")
    if not args.journal:
        from .journal import default_folder
        from .unfinished import choose

        chosen = choose(Path(args.journal_dir) if args.journal_dir else default_folder(), args.last)
        if chosen is None:
            return 0
        args.journal = str(chosen)
    if wanted() and table_journal(args.journal):
        resume = ["resume", *_table_options(args), "--", args.journal]
        return supervise(resume, Path(args.journal), resume)
    from engine.answers import shown

    from .journal import Journal, read_journal
    from .script import load_script

    read_journal(args.journal)  # a journal indeed: nothing is cut from a file that is not one
    journal = Journal(Path(args.journal))  # locked: the same game resumed twice at once stops here
    with contextlib.closing(journal):
        # Read again now that no one else writes it: a resume that ended meanwhile may have added to it.
        header, entries = read_journal(args.journal)
        if header.get("kind") == "dry-run":
            from .practice import script_fingerprint

            if args.voice_log:
                raise UsageError("--voice-log is for a game at the table; a dry run prints its lines "
                                 "(--report lists them)")
            script_path = str(header.get("script"))
            script, _ = load_script(script_path)
            if script_fingerprint(script) != header.get("sha256"):
                raise UserError(f"{args.journal}: its practice script {script_path} was changed since; "
                                "start the dry run again")
            args.script, args.audio_dir = script_path, None
            return cmd_dry_run(args, entries, args.journal, journal)
        if header.get("kind") == "play":
            from .play import resume_play

            with _voice_log(args.voice_log) as voice_log:
                resume_play(args, header, entries, warn=_warn, voice_log=voice_log, journal=journal)
            return 0
        raise UserError(f"{args.journal}:1: a journal of an unknown kind of game ({shown(header.get('kind'))})")


def _language(value: str) -> str:
    """An argparse type: a language the narrator speaks, by its name (never a path to a voice file)."""
    from .voices import languages

    if value not in languages():
        raise argparse.ArgumentTypeError(f"{value!r} is not a language of the narrator's: {', '.join(languages())}")
    return value


def _file_name(value: str) -> str:
    """An argparse type: a file or folder name, never empty (an empty one would be silently ignored), without a
    NUL character (no system takes one)."""
    if not value:
        raise argparse.ArgumentTypeError("an empty name (give the file or folder meant)")
    if "\0" in value:
        raise argparse.ArgumentTypeError(f"{value!r} is not a file or folder name (a NUL character)")
    return value


def _open_output(path: str, flags: int, mode: int, cannot: str) -> int:
    """Opens ``path`` for writing (with ``flags``: append or truncate) and returns its descriptor, blocking. The
    open itself does not block: a FIFO that no program reads would hang the command (a game on a blank screen)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC | flags, mode)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise UserError(f"{path}: {cannot} (a FIFO that no program reads: start its reader first)") from None
        raise UserError(f"{path}: {cannot} ({exc.strerror or exc})") from None
    os.set_blocking(fd, True)
    return fd


def _write_report(path: str, data: dict[str, Any]) -> None:
    fd = _open_output(path, os.O_TRUNC, 0o666, "cannot write the report")
    try:
        with open(fd, "w", encoding="utf-8") as report_file:
            report_file.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    except OSError as exc:
        raise UserError(f"{path}: cannot write the report ({exc.strerror or exc})") from None


def _table_options(args: argparse.Namespace) -> list[str]:
    """The options of `play` that a game keeps when it goes on with `resume`."""
    return [*(["--speaker", args.speaker] if args.speaker else []), *(["--plain"] if args.plain else []),
            *(["--model", args.model] if args.model else []),
            *(["--voice-log", args.voice_log] if args.voice_log else []),
            *(["--max-size", str(args.max_size)] if args.max_size else [])]


def _supervise_play(args: argparse.Namespace) -> int:
    """Plays the game in a supervised child process, which it gives its journal's name. Never the seed on its
    command line, which every account sees (ps): a seed the host chose goes by the environment, private to the
    account; without one, the game draws its own."""
    from .journal import default_folder, journal_name
    from .supervise import SEED_VARIABLE, supervise

    folder = Path(args.journal_dir) if args.journal_dir else default_folder()
    journal = Path(args.journal_file) if args.journal_file else folder / journal_name()
    game = ["play", "--journal", str(journal), *_table_options(args),
            *(["--journal-dir", args.journal_dir] if args.journal_dir else []),
            *(["--", args.config] if args.config else [])]
    return supervise(game, journal, ["resume", *_table_options(args), "--", str(journal)],
                     {SEED_VARIABLE: str(args.seed)} if args.seed is not None else {})


@contextlib.contextmanager
def _voice_log(path: str | None) -> Iterator[TextIO | None]:
    """Opens the voice log to append to (before anything is shown or said), or gives None without one."""
    if not path:
        yield None
        return
    fd = _open_output(path, os.O_APPEND, 0o600, "cannot write the voice log")
    with open(fd, "a", encoding="utf-8") as log:
        yield log


def cmd_play(args: argparse.Namespace) -> int:
    from .supervise import wanted

    if wanted():
        return _supervise_play(args)
    from .config import load_config
    from .play import STARTER, NewGame, open_table, play

    if args.config:
        config, warnings = load_config(args.config)
        for warning in warnings:
            _warn(warning, config.language)
    else:
        config = STARTER
    if args.speaker:
        config = dataclasses.replace(config, speaker=args.speaker)
    from .journal import open_to_others

    folder = Path(args.journal_dir) if args.journal_dir else None
    chosen = open_to_others(folder) if folder else None  # a file named with --journal is private (0600) alone
    seed = args.seed if args.seed is not None else _supervisor_seed()
    with _voice_log(args.voice_log) as voice_log:
        io = open_table(config, plain=args.plain, model=args.model, warn=_warn, warnings=[chosen] if chosen else [])
        play(config, io, seed=seed, voice_log=voice_log,
             start=NewGame(folder, Path(args.journal_file) if args.journal_file else None))
    return 0


def _supervisor_seed() -> int | None:
    """The seed the host gave the supervisor (`play --seed N`), passed by the environment, or None: the game draws
    its own. Taken out of the environment, so that nothing the game starts inherits it."""
    from .supervise import SEED_VARIABLE

    given = os.environ.pop(SEED_VARIABLE, None)
    try:
        return None if given is None else SEED(given)
    except argparse.ArgumentTypeError as exc:
        raise UserError(f"{SEED_VARIABLE}: {exc}") from None


def cmd_voices(args: argparse.Namespace) -> int:
    from .speak import describe_voices

    if args.action != "fetch" and (args.voice or args.url or args.sha256 or args.size is not None):
        raise UsageError("--voice, --url, --sha256 and --size go with `voices fetch LANG`")
    if args.action == "render":
        return _render_voices(args)
    if args.action == "add":
        return _add_voice(args)
    if args.action == "fetch":
        return _fetch_voice(args)
    if args.language or args.config or args.file:
        raise UsageError("`voices` alone lists the voices; `voices render LANG [--config FILE]` renders a language; "
                         "`voices add LANG FILE.onnx` installs a Piper voice; `voices fetch LANG` downloads one")
    for entry in describe_voices():
        voice = entry.get("voice")
        why = f"; {entry['why']}" if entry.get("why") else ""
        if voice:
            print(f"{entry['language']}: {voice}{why}")
        else:
            print(f"{entry['language']}: no voice on this machine; {entry.get('hint', '')}{why}".rstrip("; "))
    return 0


def _add_voice(args: argparse.Namespace) -> int:
    """Installs a Piper voice the user has, once it has loaded and said a line of the language."""
    from .speak.ahead import fixed_lines
    from .speak.piper_backend import add_voice
    from .voices import languages, load_voice

    if not args.language or not args.file or args.config:
        raise UsageError("`voices add` needs a language and a Piper voice: voices add LANG FILE.onnx")
    if args.language not in languages():
        raise UserError(f"no voice file for {args.language!r}: the languages are {', '.join(languages())}")
    sample = fixed_lines(load_voice(args.language))[0]
    voice = add_voice(args.language, args.file, sample)
    print(f"{args.language}: Piper voice {voice.name} installed in {voice.model.parent}; "
          "tables in that language now speak with it (speaker: auto or piper)")
    return 0


def _fetch_voice(args: argparse.Namespace) -> int:
    """Downloads the official Piper voice of a language (or --voice NAME), checks it and installs it."""
    from .speak.ahead import fixed_lines
    from .speak.piper_backend import INSTALL
    from .speak.voice_fetch import fetch_voice
    from .voices import languages, load_voice

    if not args.language or args.file or args.config:
        raise UsageError("`voices fetch` needs a language: voices fetch LANG [--voice NAME] [--url URL]")
    if args.language not in languages():
        raise UserError(f"no voice file for {args.language!r}: the languages are {', '.join(languages())}")
    sample = fixed_lines(load_voice(args.language))[0]
    voice, how = fetch_voice(args.language, sample, args.voice, url=args.url, sha256=args.sha256, size=args.size)
    if how == "already":
        print(f"{args.language}: Piper voice {voice.name} is already installed in {voice.model.parent}")
        return 0
    print(f"{args.language}: Piper voice {voice.name} installed in {voice.model.parent}; tables in that language "
          "now speak with it (speaker: auto or piper)")
    if how == "unheard":
        _warn(f"piper-tts is not installed, so the voice was checked against its checksums but not heard ({INSTALL})")
    return 0


class UsageError(Exception):
    """A mistake on the command line that argparse cannot see: exit status 2."""


def _size(text: str) -> int:
    """A size in bytes, as --size and --max-size give it: a positive whole number."""
    if not text.isdigit() or len(text) > 18 or int(text) == 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size in bytes (a positive whole number)")
    return int(text)


def _sha256(text: str) -> str:
    """A SHA-256 checksum, as --sha256 gives it: 64 hexadecimal digits (else a download would be checked against
    what no file can match, and deleted once whole)."""
    if len(text) != 64 or not all(c in "0123456789abcdefABCDEF" for c in text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a SHA-256 checksum (64 hexadecimal digits)")
    return text.lower()


def _whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, or a message saying so."""

    def whole(text: str) -> int:
        digits = text.strip().removeprefix("-")
        if not digits.isascii() or not digits.isdigit() or len(digits) > 19 or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from {low:,} to {high:,}")
        return int(text)

    return whole


def _seconds(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds from ``low`` to ``high`` (no nan, no inf), or a message saying so."""

    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not low <= value <= high:  # nan compares false
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds from {low:g} to {high:g}")
        return value

    return seconds


PACE = _seconds(0, 60)
SEED = _whole(0, 2**63 - 1)


def _render_voices(args: argparse.Namespace) -> int:
    """Renders every line of a language (and of a table, with --config) into the voice cache."""
    from .config import load_config
    from .script import load_script
    from .speak import lines_ahead, rendering_speaker
    from .voices import load_voice
    from .yamlfile import YamlError, load

    if not args.language:
        raise UsageError("`voices render` needs a language: voices render LANG [--config FILE]")
    language = args.language
    voice = load_voice(language)
    seats, voice_id, rate, backend = RENDER_SEATS, None, None, "auto"
    names: tuple[str | None, ...] = ()
    roles: tuple[str, ...] = ()
    table = None
    if args.config:
        try:
            is_script = _is_script(load(args.config).data)
        except YamlError as exc:
            raise UserError(str(exc)) from None
        if is_script:
            script, warnings = load_script(args.config)
            config = script.config  # a practice script's table
        else:
            config, warnings = load_config(args.config)
        for warning in warnings:
            _warn(warning, config.language)
        if config.language != language:
            raise UserError(f"{args.config}: the table speaks {config.language!r}, not {language!r}: "
                            f"voices render {config.language} --config {args.config}")
        seats, names, roles, table = config.table.seats, config.names, config.table.deck, config.table
        voice_id, rate = config.voice, config.rate
        backend = "auto" if config.speaker == "console" else config.speaker
    speaker = rendering_speaker(backend, language, voice_id, rate, warn=_warn)
    cache = speaker.cache
    assert cache is not None
    problem = cache.problem()
    if problem:
        speaker.close()
        raise UserError(f"cannot write rendered lines to the voice cache {cache.folder} ({problem}): nothing was "
                        "rendered; make that folder writable, or set XDG_CACHE_HOME to one that is")
    texts = list(lines_ahead(voice, seats, names, roles, table))
    builtin = ""
    if not args.config:
        from .play import STARTER

        if STARTER.language == language:  # `play` alone: its lines naming a character too, so none falls back
            starter = STARTER.table
            texts = list(dict.fromkeys([*texts, *lines_ahead(voice, starter.seats, STARTER.names, starter.deck,
                                                             starter)]))
            builtin = f", the built-in table's {starter.seats}"
    todo = speaker.todo(texts)  # a slow engine's lines are their clauses: each rendered once, for every line
    reused = len(texts) - sum(1 for text in texts if not speaker.cached(text))
    start = time.monotonic()
    done = [0]
    try:
        with _render_progress(language, len(todo), speaker.pieces_word) as advance:
            def step() -> None:
                done[0] += 1
                advance((time.monotonic() - start) / done[0])

            rendered, failed = speaker.render_all(todo, step, workers=render_workers())
    finally:
        speaker.close()
    if failed:
        _warn(f"{failed} of {len(todo)} {speaker.pieces_word} could not be rendered (they are rendered, and told, "
              "when said)")
    if not cache.writable:
        raise UserError(f"the voice cache {cache.folder} stopped taking rendered lines partway (see the warning "
                        "above): free some space there and run the command again; the lines kept stay kept")
    where = f"{seats} seats" + (f", {len(set(roles))} characters" if roles else "") + builtin
    each = speaker.pieces_word.rstrip("s")
    rate_note = f" ({(time.monotonic() - start) / (rendered + failed):.2f} s a {each})" if rendered + failed else ""
    pieces = f" as {rendered + failed} {speaker.pieces_word}" if speaker.pieces_word != "lines" and todo else ""
    print(f"{language}: {len(texts)} lines ({where}) with {speaker.voice_name} [{speaker.voice_id}]: "
          f"{len(texts) - reused} rendered{pieces}, {reused} already there" + (f", {failed} failed" if failed else "")
          + f", in {cache.folder}{rate_note}")
    return 1 if failed else 0


@contextlib.contextmanager
def _render_progress(language: str, total: int, what: str = "lines") -> Iterator[Callable[[float], None]]:
    """Shows, on a terminal, a progress bar of ``total`` lines (or clauses: ``what``) to render with the time left
    and the seconds each; yields the function that moves it on by one, given the seconds each so far."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    if not console.is_terminal or not total:
        yield lambda seconds: None
        return
    columns = (TextColumn(f"rendering {language}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[each]}"), TextColumn("time left"), TimeRemainingColumn())
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("render", total=total, each="")

        def advance(seconds: float) -> None:
            progress.update(task, advance=1, each=f"{seconds:.2f} s a {what.rstrip('s')}")

        yield advance


# Seats whose lines `voices render` renders without a config: the classic preset's largest table.
RENDER_SEATS = 18


def render_workers() -> int:
    """How many engines `voices render` runs side by side: one a core, at most four (each Kokoro engine loads its
    own model, ~280 MB); WEREWOLF_NARRATOR_RENDER_WORKERS sets it (1 on a small machine)."""
    given = os.environ.get("WEREWOLF_NARRATOR_RENDER_WORKERS", "")
    if given.isdigit() and 0 < int(given) <= 16:
        return int(given)
    return max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


def cmd_understand(args: argparse.Namespace) -> int:
    from .listen.understand import understand_command

    for entry in understand_command(args.lang, args.texts):
        print(json.dumps(entry, ensure_ascii=False))
    return 0


def cmd_mic_test(args: argparse.Namespace) -> int:
    from .mictest import mic_test

    return mic_test(args.lang, args.model, args.microphone, args.seconds, warn=_warn)


def cmd_models(args: argparse.Namespace) -> int:
    from .listen.models import run_models_fetch, run_models_list

    if args.action == "list":
        print(run_models_list())
    else:
        path = run_models_fetch(args.language, url=args.url, sha256=args.sha256, size=args.size)
        print(f"installed at {path}")
    return 0


def cmd_devices(args: argparse.Namespace) -> int:
    from .config import load_config
    from .listen.devices import devices_report

    config = load_config(args.config)[0] if args.config else None
    print(devices_report(config.microphone if config else None, config.device if config else None))
    return 0


def _is_script(data: object) -> bool:
    """Returns whether a YAML file's data is a practice script rather than a table config."""
    # A table config has a `deal` mode (app or cards); a script's `deal` is a map of seats.
    return isinstance(data, dict) and (any(k in data for k in ("answers", "table", "config"))
                                       or isinstance(data.get("deal"), dict))


def cmd_simulate(args: argparse.Namespace) -> int:
    from .simulate import cmd_simulate as run

    return run(args, warn=_warn)


def cmd_check(args: argparse.Namespace) -> int:
    from .config import Findings, TableConfig, read_table
    from .script import read_script
    from .voices import load_voice
    from .yamlfile import YamlError, load

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
            verdict = voice.text("screen.check_ok_script", {"path": path, "count": table.seats, "language": language,
                                                            "answers": len(script.answers)}, fragment=True)
        else:
            verdict = voice.text("screen.check_ok", {"path": path, "count": table.seats, "language": language},
                                 fragment=True)
            if not args.no_simulate:
                from .simulate import check_balance

                for advice in check_balance(table, voice):
                    print(voice.text("screen.check_warning", {"text": f"{path}: {advice}"}, fragment=True),
                          file=sys.stderr)
        print(verdict)
    return status


class _Parser(argparse.ArgumentParser):
    """A parser whose epilog may be a function, called only to show the help (check's list of keys loads the
    engine, which the supervisor of a game does without), and whose help fails loudly when it cannot be written."""

    def format_help(self) -> str:
        if callable(self.epilog):
            self.epilog = self.epilog()
        return super().format_help()

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse ignores a failed write, so `--help > /dev/full` exited 0 with its help lost: on the standard
        # output the failure is raised (main says it, exit 1). On the standard error (a usage mistake) nothing could
        # say it, and the exit status 2 already does.
        out: TextIO = sys.stdout
        if not message or file is not out:
            super()._print_message(message, file)
            return
        out.write(message)
        out.flush()


def _check_keys() -> str:
    from engine import ROLES

    from .config import KEYS
    from .script import TOP_KEYS

    return ("Table config keys:\n" + "\n".join(f"  {k}: {v}" for k, v in KEYS.items())
            + "\nPractice script keys: " + ", ".join(TOP_KEYS)
            + "\nCharacters (deck): " + ", ".join(sorted(ROLES)))


VOICE_LOG_HELP = ("append every line said aloud to FILE as it is said, one JSON line {\"key\": ..., \"text\": ..., "
                  "\"at\": ...} each, at the time it began in seconds since the epoch (a resumed game: from where it "
                  "goes on)")


def build_parser() -> argparse.ArgumentParser:
    yaml_size = _Parser(add_help=False)
    yaml_size.add_argument("--max-size", type=_size, metavar="BYTES",
                           help="read YAML files (configs, scripts) of up to BYTES (default 1000000)")
    parser = _Parser(
        prog="werewolf-narrator",
        description="An offline narrator for The Werewolves of Miller's Hollow.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    p = sub.add_parser("dry-run", parents=[yaml_size],
                       help="play a practice script through the narrator and report the game")
    p.add_argument("script", type=_file_name, help="the practice script (YAML, see docs/practice-scripts.md)")
    p.add_argument("--silent", action="store_true", help="print the lines instead of speaking them")
    p.add_argument("--report", type=_file_name, metavar="FILE", help="write the game report (JSON) to FILE")
    p.add_argument("--audio-dir", type=_file_name, metavar="DIR", help="write every spoken line as a WAV file in DIR, "
                   "in order (and ambience.wav, the night ambience, when the table turns it on)")
    p.add_argument("--journal", dest="journal_file", type=_file_name, metavar="FILE",
                   help="journal every answer to FILE, so that `resume FILE` goes on")
    p.add_argument("--pace", type=PACE, default=0.0, metavar="SECONDS", help="wait after each line said (0 to 60)")
    p.set_defaults(func=cmd_dry_run)
    p = sub.add_parser("resume", parents=[yaml_size], help="go on with a game (or a dry run) from its journal")
    p.add_argument("journal", nargs="?", type=_file_name,
                   help="the journal a game or `dry-run --journal` wrote; without it, the unfinished games in the "
                        "journal folder are listed to choose from")
    p.add_argument("--last", action="store_true", help="go on with the most recently played unfinished game")
    p.add_argument("--journal-dir", type=_file_name, metavar="DIR",
                   help="the journal folder to look in (default: where `play` writes)")
    p.add_argument("--silent", action="store_true", help="print the lines instead of speaking them")
    p.add_argument("--report", type=_file_name, metavar="FILE", help="a dry run's report (JSON), of the whole game")
    p.add_argument("--pace", type=PACE, default=0.0, metavar="SECONDS", help="wait after each line said (0 to 60)")
    p.add_argument("--speaker", choices=SPEAKERS, help="a game's speaker, instead of its own")
    p.add_argument("--plain", action="store_true",
                   help="print the screen line by line instead of full-screen (a call's secrets in the terminal's "
                        "alternate screen, gone when it ends)")
    p.add_argument("--model", type=_file_name, metavar="DIR", help="the speech recognition model's folder")
    p.add_argument("--voice-log", type=_file_name, metavar="FILE", help=VOICE_LOG_HELP)
    p.set_defaults(func=cmd_resume)
    p = sub.add_parser("play", parents=[yaml_size],
                       help="play a game at the table (with no CONFIG: an 8-player starter table)")
    p.add_argument("config", nargs="?", type=_file_name, help="the table config (YAML); see examples/")
    p.add_argument("--speaker", choices=SPEAKERS, help="override the config's speaker")
    p.add_argument("--seed", type=SEED, help="the shuffle's seed (to deal the same cards again)")
    p.add_argument("--journal-dir", type=_file_name, metavar="DIR", help="where the game's journal is written")
    p.add_argument("--journal", dest="journal_file", type=_file_name, metavar="FILE",
                   help="the game's journal: a new file; default: a new file in the journal folder")
    p.add_argument("--plain", action="store_true",
                   help="print the screen line by line instead of full-screen (a call's secrets in the terminal's "
                        "alternate screen, gone when it ends)")
    p.add_argument("--model", type=_file_name, metavar="DIR",
                   help="the speech recognition model's folder (see `models`)")
    p.add_argument("--voice-log", type=_file_name, metavar="FILE", help=VOICE_LOG_HELP)
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("voices", parents=[yaml_size], help="which speech voice each language gets on this machine; "
                       "`voices render LANG` renders its lines ahead; `voices add LANG FILE.onnx` installs a "
                       "Piper voice, `voices fetch LANG` downloads one",
                       description="With no action: which speech voice each language gets on this machine, and why "
                       "(a Piper voice when one is installed for it and piper-tts is, else espeak-ng). "
                       "`voices render LANG [--config FILE]`: renders every line of LANG ahead into the voice "
                       "cache (the fixed lines, and every seat's lines for 18 seats, or for the table FILE "
                       "describes with its names and characters), so that no line waits for its voice. "
                       "`voices add LANG FILE.onnx`: installs a Piper voice you have (FILE.onnx.json beside it) "
                       "for LANG, once it has loaded and said a line. "
                       "`voices fetch LANG [--voice NAME]`: downloads LANG's Piper voice from the official "
                       "repository (huggingface.co/rhasspy/piper-voices), checks its size and checksums, and "
                       "installs it as `add` does; resumes a download cut short.")
    p.add_argument("action", nargs="?", choices=("render", "add", "fetch"),
                   help="render: render the lines of LANG ahead; add: install a Piper voice for LANG; "
                        "fetch: download and install LANG's Piper voice")
    p.add_argument("language", nargs="?", metavar="LANG", help="en, fr or zh")
    p.add_argument("file", nargs="?", type=_file_name, metavar="FILE.onnx", help="add: the Piper voice's model")
    p.add_argument("--config", type=_file_name, metavar="FILE",
                   help="a table config (or a practice script): its seats, names, characters, voice and rate")
    p.add_argument("--voice", metavar="NAME", help="fetch: another voice of the language than its default "
                   "(part of its name, e.g. lessac)")
    p.add_argument("--url", help="fetch: a mirror, the folder holding NAME.onnx and NAME.onnx.json")
    p.add_argument("--sha256", type=_sha256, help="fetch: the model's checksum to expect instead of the known one")
    p.add_argument("--size", type=_size, metavar="BYTES", help="fetch: with --sha256, the model's size in bytes "
                   "(the download never goes past it)")
    p.set_defaults(func=cmd_voices)
    p = sub.add_parser("understand", help="show how the narrator understands recognised text, as JSON lines")
    p.add_argument("--lang", required=True, type=_language, help="en, fr or zh")
    p.add_argument("texts", nargs="+", metavar="TEXT", help="what the recogniser heard, e.g. 'number seven'")
    p.set_defaults(func=cmd_understand)
    p = sub.add_parser("mic-test", help="a live level meter and what the microphone hears")
    p.add_argument("--lang", default="en", type=_language, help="en, fr or zh: the words to listen for (default en)")
    p.add_argument("--model", type=_file_name, metavar="DIR", help="the speech recognition model's folder")
    p.add_argument("--microphone", help="the microphone: its number or part of its name")
    p.add_argument("--seconds", type=_seconds(0.1, 86400), default=60.0, help="how long to listen (default 60)")
    p.set_defaults(func=cmd_mic_test)
    p = sub.add_parser("models", help="the speech recognition models: list them, or fetch one")
    models = p.add_subparsers(dest="action", metavar="ACTION")
    models.required = True
    models.add_parser("list", help="the official small models, their sizes, and whether installed")
    fetch = models.add_parser("fetch", help="download, verify (SHA-256) and install a model; resumes")
    fetch.add_argument("language", help="en, fr or zh (or a model's name)")
    fetch.add_argument("--url", help="another address to download it from (a mirror)")
    fetch.add_argument("--sha256", type=_sha256, help="the checksum to expect instead of the known one")
    fetch.add_argument("--size", type=_size, metavar="BYTES",
                       help="with --sha256, the file's size in bytes (the download never goes past it)")
    p.set_defaults(func=cmd_models)
    p = sub.add_parser("devices", parents=[yaml_size], help="the sound input and output devices, and which are chosen")
    p.add_argument("config", nargs="?", type=_file_name, help="a table config, to show the devices it chooses")
    p.set_defaults(func=cmd_devices)
    epilog: Callable[[], str] = _check_keys
    p = sub.add_parser("check", parents=[yaml_size],
                       help="check table configs and practice scripts, and explain every problem",
                       epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)  # type: ignore[arg-type]
    p.add_argument("files", nargs="+", type=_file_name, metavar="FILE")
    p.add_argument("--no-simulate", action="store_true",
                   help="do not simulate a table config's deck to warn when it is lopsided (a side winning "
                        "under 25%% or over 75%% of up to 2,000 games played with the hunt model) or can deadlock "
                        "(a game that never ends)")
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("simulate", parents=[yaml_size],
                       help="play many games of a deck with simple strategies: who wins, how often",
                       description="Plays GAMES games of a deck through the rules engine with simple "
                       "strategies and prints each team's win rate with its 95% interval. Strategies: "
                       "random (every choice at random), seer (the Seer's looks are public; the "
                       "werewolves do not know her), hunt (the Seer accuses the first werewolf she finds, "
                       "then the werewolves devour her), all (the three).")
    p.add_argument("--deck", nargs="+", metavar="CARD",
                   help="the cards: ids separated by spaces or commas, id*N for N copies "
                        "(e.g. werewolf*2,seer,villager*5); the number of players follows")
    p.add_argument("--config", type=_file_name, metavar="FILE", help="the deck and house rules of a table config")
    p.add_argument("--preset", help="a deck preset (classic), with --seats")
    p.add_argument("--seats", type=_whole(1, 1000), help="the number of players (with --preset)")
    p.add_argument("--sheriff", action=argparse.BooleanOptionalAction, default=None,
                   help="elect a Sheriff or not (default: the config's rule, else yes)")
    p.add_argument("--games", type=_whole(1, 10_000_000), default=10000, help="games a strategy (default 10000)")
    p.add_argument("--strategy", choices=("random", "seer", "hunt", "all"), default="hunt",
                   help="the players' strategy (default hunt, the model `check` uses)")
    p.add_argument("--seed", type=SEED, default=1,
                   help="the seed: the same seed gives the same figures (default 1)")
    p.add_argument("--jobs", type=_whole(1, 256), help="processes (default: every core)")
    p.set_defaults(func=cmd_simulate)
    return parser


POSIX = os.name == "posix"
"""Whether this system has the terminal and files a game needs (termios, fcntl): not Windows."""

NOT_POSIX = ("play, resume and dry-run need a POSIX system (Linux, Raspberry Pi OS, macOS): the keypad, the journal's "
             "lock and the game's supervisor use its terminal and files; on Windows, run the narrator in WSL (see "
             "docs/voices.md)")
"""Why a game cannot be played here: said at once, not as an internal error from an import (termios, fcntl)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status (0 ok, 1 a problem with the input, 2 usage)."""
    _replace_unencodable()
    settle_home()
    stdout = sys.stdout
    sys.stdout = _WatchedOutput(stdout)
    try:
        args = build_parser().parse_args(argv)  # --help writes: a full device is met here too
        if args.func in (cmd_play, cmd_resume, cmd_dry_run) and not POSIX:
            raise UserError(NOT_POSIX)
        if args.func in (cmd_play, cmd_resume):
            from .supervise import die_with_supervisor

            die_with_supervisor()
        with _yaml_cap(getattr(args, "max_size", None)):
            status = int(args.func(args))
        sys.stdout.flush()  # a full disk or /dev/full is met here, not at exit where it would be a traceback
        return status
    except UsageError as exc:
        print(f"werewolf-narrator: error: {exc}", file=sys.stderr)
        return 2
    except GameStopped as exc:
        print(str(exc), file=sys.stderr)
        return 130
    except RunFailed as exc:
        print(f"dry run stopped: {exc}", file=sys.stderr)
        return 1
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (| head): stop quietly, as command-line tools do.
        _drop_stdout()
        return 141
    except Exception as exc:  # a bug of ours: say so plainly rather than show a traceback
        if isinstance(exc, OSError) and _stdout_fails():  # a full disk, /dev/full: not ours, and said
            _drop_stdout()
            print(f"werewolf-narrator: error: cannot write the output ({exc.strerror or exc})", file=sys.stderr)
            return 1
        if isinstance(exc, OSError) and exc.errno in PATH_FAULTS and exc.filename:
            print(f"error: {_path_fault(exc)}", file=sys.stderr)
            return 1
        print(f"werewolf-narrator: internal error ({type(exc).__name__}: {exc}); please report it "
              "with the command and files that caused it", file=sys.stderr)
        return 3
    finally:
        sys.stdout = stdout


PATH_FAULTS = {errno.EACCES: "this account may not use it (permission denied)",
               errno.EPERM: "this account may not use it (operation not permitted)",
               errno.ENAMETOOLONG: "a name too long for this system (at most 255 bytes a name, 4096 a path)",
               errno.ELOOP: "too many symbolic links on the way", errno.EROFS: "on a read-only file system"}
"""The faults of a path, met wherever the program opens or makes a file: told with the path, never as an internal
error."""


def _path_fault(exc: OSError) -> str:
    """Says what is wrong with the path an OSError names, and what to do."""
    from .hint import printable

    path = printable(os.fsdecode(exc.filename))
    if exc.errno not in (errno.EACCES, errno.EPERM):
        return f"{path}: {PATH_FAULTS[exc.errno or 0]}; give another"
    return (f"{path}: {PATH_FAULTS[exc.errno]}: it, or a folder above it, belongs to another account or is closed to "
            f"this one (made with sudo?); `ls -ld {shlex.quote(path)}` shows its owner: give it back to this account "
            f"(sudo chown -R \"$USER\" {shlex.quote(path)}) or choose another folder")


class _WatchedOutput:
    """The standard output, remembering whether a write failed: a failed write drops what it held, so that the
    error cannot be told from another by writing again."""

    def __init__(self, stream: TextIO | None) -> None:
        self.failed = False
        # A closed standard output (`>&-`) is None in Python: writing to it fails as on a full device. The null
        # device takes its descriptor meanwhile, so that no file opened later (a journal) becomes descriptor 1 and
        # receives a child process's output.
        self.closed = stream is None
        self.stream: TextIO = open(os.devnull, "w", encoding="utf-8") if stream is None else stream

    def write(self, text: str) -> int:
        if self.closed and text:
            self.failed = True
            raise OSError(errno.EBADF, "the standard output is closed")
        try:
            return self.stream.write(text)
        except OSError:
            self.failed = True
            raise

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError:
            self.failed = True
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _stdout_fails() -> bool:
    """Tells whether writing the standard output failed (a full disk, /dev/full)."""
    return isinstance(sys.stdout, _WatchedOutput) and sys.stdout.failed


def _drop_stdout() -> None:
    """Sends the rest of the output, and what is still buffered, nowhere: the exit's own flush must not fail
    again (Python would print a traceback-like warning and exit 120)."""
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


UNENCODABLE = "werewolf-narrator-unencodable"


def _unencodable(exc: UnicodeError) -> tuple[str, int]:
    """The codec error handler of the output: a character the output's encoding cannot show (Chinese lines in a
    latin-1 terminal, a file name's stray bytes) becomes ?, and the first time the host is told why."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    if not getattr(_unencodable, "told", False):
        _unencodable.told = True  # type: ignore[attr-defined]
        print(f"warning: the output's encoding ({exc.encoding}) cannot show some characters: they are shown "
              "as ?; a UTF-8 terminal (or PYTHONIOENCODING=utf-8) shows them", file=sys.stderr, flush=True)
    return "?" * (exc.end - exc.start), exc.end


def _replace_unencodable() -> None:
    """Makes the standard output replace what its encoding cannot show, instead of failing with an error; the
    standard error shows it escaped (Python's own way for stderr, whoever opened the stream)."""
    codecs.register_error(UNENCODABLE, _unencodable)
    for stream, errors in ((sys.stdout, UNENCODABLE), (sys.stderr, "backslashreplace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", errors) != errors:
            with contextlib.suppress(OSError, ValueError):
                reconfigure(errors=errors)


@contextlib.contextmanager
def _yaml_cap(size: int | None) -> Iterator[None]:
    """Reads YAML files of up to ``size`` bytes meanwhile (--max-size), instead of the default 1 MB."""
    if size is None:
        yield
        return
    from . import yamlfile

    yamlfile.max_bytes = size
    try:
        yield
    finally:
        yamlfile.max_bytes = yamlfile.MAX_BYTES


def entry() -> None:
    """The console script's entry point."""
    sys.exit(main())


if __name__ == "__main__":
    entry()
