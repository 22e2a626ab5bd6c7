"""The commands that play: `play` and `resume` (a game at the table, under its supervisor) and `dry-run` (a
practice script), with the voice log and the report they write.

The supervisor of a game must not load the engine: everything past it is imported inside the functions."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import functools
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence, TextIO

from ..errors import UserError
from .common import PHONE_BIND, PHONE_PORT, SEED, UsageError, _warn

if TYPE_CHECKING:
    from ..config import TableConfig
    from ..journal import Entry, Journal
    from ..table import TableIO
    from ..narration import Line
    from ..speak import Speaker


def cmd_dry_run(args: argparse.Namespace, replay: Sequence[Entry] = (), replay_from: str = "",
                journal: Journal | None = None) -> int:
    """Plays a practice script; or, with ``replay`` and the ``journal`` it came from, goes on with it."""
    from ..journal import Journal
    from ..narration import SCREEN, VOICE
    from ..practice import dry_run, report
    from ..script import load_script
    from ..voices import load_voice

    script, warnings = load_script(args.script)
    config = script.config
    for warning in warnings:
        _warn(warning, config.language)
    spoken = load_voice(config.language).spoken
    speakers: list[Speaker] = []
    if args.audio_dir:
        from ..speak import WavDirSpeaker

        speakers.append(WavDirSpeaker(Path(args.audio_dir), config.language, config.voice, config.rate,
                                      backend=config.speaker, warn=functools.partial(_warn, language=config.language)))
        if config.ambience:  # once, for the host to hear what the table will hear under the night
            from ..speak.ambience import night_loop

            try:
                night_loop().write(Path(args.audio_dir) / "ambience.wav")
            except OSError as exc:
                speakers[0].close()
                raise UserError(f"{args.audio_dir}: cannot write ambience.wav there ({exc.strerror or exc})") from None
    if not args.silent:
        from ..speak import make_speaker, prepare_table

        speaker = make_speaker(config.speaker, config.language, config.voice, config.rate, config.device,
                               warn=functools.partial(_warn, language=config.language))
        if speaker.name == "console":
            speaker.close()  # the lines are printed anyway
        else:
            speakers.append(speaker)
            prepare_table(speaker, config.language, config.table.seats, config.names, config.table.deck,
                          config.source, config.table, config.deal, config.phones)

    said = []

    def emit(line: Line) -> None:
        said.append(line)
        print(("  [screen] " if line.channel == SCREEN else "") + line.text, flush=True)
        if line.channel == VOICE:
            for speaker in speakers:
                speaker.say(spoken(line.text))

    if getattr(args, "journal_file", None):
        from ..practice import journal_header

        journal = Journal(Path(args.journal_file), journal_header(script))
    try:
        game, lines = dry_run(script, emit=emit, journal=journal, replay=replay, replay_from=replay_from,
                              pace=args.pace)
    except KeyboardInterrupt:
        if journal is not None:
            from ..hint import resume_hint

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
    from ..supervise import supervise, table_journal, wanted

    if args.journal and args.last:
        raise UsageError("resume takes a journal or --last, not both")
    if not args.journal:
        from ..journal import default_folder
        from ..unfinished import choose

        chosen = choose(Path(args.journal_dir) if args.journal_dir else default_folder(), args.last)
        if chosen is None:
            return 0
        args.journal = str(chosen)
    kept = TableOptions.given(args)
    if wanted() and table_journal(args.journal):
        return supervise(kept.resume(args.journal), Path(args.journal), kept.resume(args.journal))
    from engine.answers import shown

    from ..journal import Journal, read_journal
    from ..script import load_script

    read_journal(args.journal)  # a journal indeed: nothing is cut from a file that is not one
    journal = Journal(Path(args.journal))  # locked: the same game resumed twice at once stops here
    with contextlib.closing(journal):
        # Read again now that no one else writes it: a resume that ended meanwhile may have added to it.
        header, entries = read_journal(args.journal)
        if header.get("kind") == "dry-run":
            from ..practice import script_fingerprint

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
            from ..journal import table_language
            from ..play import ResumeOptions, resume_play

            # Labelled in the table's language, as the messages a table's devices give are written.
            language = table_language(args.journal)
            with _voice_log(args.voice_log) as voice_log:
                options = ResumeOptions(str(args.journal), kept.speaker, kept.plain, kept.model, kept.phone_links)
                resume_play(options, header, entries, warn=functools.partial(_warn, language=language), voice_log=voice_log,
                            journal=journal)
            return 0
        raise UserError(f"{args.journal}:1: a journal of an unknown kind of game ({shown(header.get('kind'))})")


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


@dataclasses.dataclass(frozen=True)
class TableOptions:
    """The options of `play` that a game at the table keeps when it goes on with `resume`, read once from the
    command line. The supervisor hands them on as the command line of each process it runs, the game's and every
    `resume` after a crash. The table itself never goes by them, nor by the supervisor, which must not load the
    engine: the game's process reads the config file and writes the table into its journal's header, and a game that
    goes on reads it there, never the file again (config.config_from_journal)."""

    speaker: str | None
    plain: bool
    model: str | None
    voice_log: str | None
    max_size: int | None
    phone_links: str | None

    @classmethod
    def given(cls, args: argparse.Namespace) -> TableOptions:
        """Returns the options the command line gave `play` or `resume`."""
        return cls(args.speaker, args.plain, args.model, args.voice_log, args.max_size, args.phone_links)

    def argv(self) -> list[str]:
        """Returns the options as a command line gives them. The phones' links file too: a game going on after a
        crash writes the same links there again; after the host's stop, its new ones."""
        return [*(["--speaker", self.speaker] if self.speaker else []), *(["--plain"] if self.plain else []),
                *(["--model", self.model] if self.model else []),
                *(["--voice-log", self.voice_log] if self.voice_log else []),
                *(["--max-size", str(self.max_size)] if self.max_size else []),
                *(["--phone-links", self.phone_links] if self.phone_links else [])]

    def resume(self, journal: str) -> list[str]:
        """Returns the command line that goes on with the game ``journal`` keeps, with these options."""
        return ["resume", *self.argv(), "--", journal]


def _phone_options(args: argparse.Namespace) -> list[str]:
    """The options of `play` for the players' phones (a game going on needs none: its journal keeps its phones), all
    of them whether `--phones` or the table config's ``phones: true`` asks for the phones: the supervisor does not
    read the config, so it hands on where the page listens in either case (where the links go: `TableOptions`)."""
    return [*(["--phones"] if args.phones else []),  # the defaults need no handing on
            *(["--phone-bind", args.phone_bind] if args.phone_bind != PHONE_BIND else []),
            *(["--phone-port", str(args.phone_port)] if args.phone_port != PHONE_PORT else [])]


def _play_argv(args: argparse.Namespace, journal: str | None) -> list[str]:
    """Returns `play`'s command line with the options given, but the seed (`without_seed`), and the journal
    ``journal`` (None: the folder's new file)."""
    return ["play", *(["--journal", journal] if journal else []), *TableOptions.given(args).argv(),
            *_phone_options(args), *(["--journal-dir", args.journal_dir] if args.journal_dir else []),
            *(["--", args.config] if args.config else [])]


def _supervise_play(args: argparse.Namespace) -> int:
    """Plays the game in a supervised child process, which it gives its journal's name. Never the seed on its
    command line, which every account sees (ps): a seed the host chose goes by the environment, private to the
    account, to the game's first process alone; without one, the game draws its own."""
    from ..journal import default_folder, journal_name
    from ..supervise import SEED_VARIABLE, supervise

    folder = Path(args.journal_dir) if args.journal_dir else default_folder()
    journal = Path(args.journal_file) if args.journal_file else folder / journal_name()
    seed = os.environ.pop(SEED_VARIABLE, None)  # `play --seed N`, taken off the command line (`without_seed`)
    return supervise(_play_argv(args, str(journal)), journal, TableOptions.given(args).resume(str(journal)),
                     {SEED_VARIABLE: seed} if seed is not None else {})


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
    from ..supervise import wanted, without_seed

    if args.seed is not None:  # at once, before anything else: every account reads a command line
        without_seed(_play_argv(args, args.journal_file), args.seed)
    if wanted():
        return _supervise_play(args)
    from ..config import load_config
    from ..play import STARTER, NewGame, play
    from ..table import open_table

    if args.config:
        config, warnings = load_config(args.config)
        for warning in warnings:
            _warn(warning, config.language)
    else:
        config = STARTER
    if args.speaker:
        config = dataclasses.replace(config, speaker=args.speaker)
    from ..journal import open_to_others

    folder = Path(args.journal_dir) if args.journal_dir else None
    chosen = open_to_others(folder) if folder else None  # a file named with --journal is private (0600) alone
    seed = _supervisor_seed()  # `play --seed N`, by the environment (`without_seed`)
    with _voice_log(args.voice_log) as voice_log:
        io = open_table(config, plain=args.plain, model=args.model, warn=functools.partial(_warn, language=config.language),
                        warnings=[chosen] if chosen else [])
        with _phones(args, config, io) as (io, phones):
            play(config, io, seed=seed, voice_log=voice_log,
                 start=NewGame(folder, Path(args.journal_file) if args.journal_file else None, phones=phones))
    return 0


@contextlib.contextmanager
def _phones(args: argparse.Namespace, config: TableConfig, io: TableIO) -> Iterator[tuple[TableIO, dict[str, Any] | None]]:
    """The table's devices with the players' phones among them when the table wants them (`play --phones`,
    ``phones: true``), and what the journal keeps of them to serve the same links when the game goes on; the
    phones' server stops with the game, and its links with it."""
    if not (args.phones or config.phones):
        yield io, None
        return
    from ..phones.table import PhoneOptions, journaled, phones_at

    options = PhoneOptions(bind=args.phone_bind, port=args.phone_port,
                           links=Path(args.phone_links) if args.phone_links else None)
    with phones_at(io, config.language, config.table.seats, config.names, options) as (io, server):
        yield io, journaled(server)


def _supervisor_seed() -> int | None:
    """The seed the host gave (`play --seed N`, or WEREWOLF_NARRATOR_SEED itself), passed by the environment (by the
    supervisor, or by `without_seed`), or None: the game draws its own. Taken out of the environment, so that nothing the game starts inherits it."""
    from ..supervise import SEED_VARIABLE

    given = os.environ.pop(SEED_VARIABLE, None)
    try:
        return None if given is None else SEED(given)
    except argparse.ArgumentTypeError as exc:
        raise UserError(f"{SEED_VARIABLE}: {exc}") from None
