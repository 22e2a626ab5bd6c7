"""The ``werewolf-narrator`` command: its parser, and what its exit status and messages are when a command fails.

The commands themselves are narrator.commands' (game, voice, tools), and the checks of their arguments
narrator.commands.common's; none of them imports this module back. Only what every command needs is imported
at the top: `play` and `resume` run their game under a supervising process (narrator.supervise) that must not load
the engine, so each command imports what it uses inside its function.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import errno
import io
import os
import shlex
import sys
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence, TextIO

from .commands.common import PACE, PHONE_BIND, PHONE_PORT, SEED, UsageError, _address, _file_name, _language, _seconds, _sha256, _size, _whole
from .commands.game import _supervisor_seed as _supervisor_seed  # re-exported: the tests call it from here
from .commands.game import _voice_log as _voice_log  # re-exported: the tests call it from here
from .commands.game import cmd_dry_run, cmd_play, cmd_resume
from .commands.tools import cmd_check, cmd_devices, cmd_mic_test, cmd_models, cmd_simulate, cmd_understand
from .commands.voice import cmd_voices
from .errors import GameStopped, RunFailed, UserError
from .folders import settle_home

# The speech backends (narrator.speak.BACKENDS), named here so that the supervisor need not import speech.
SPEAKERS = ("auto", "kokoro", "piper", "pyttsx3", "console")

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


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

    from .table_keys import KEYS
    from .script import TOP_KEYS

    return ("Table config keys:\n" + "\n".join(f"  {k}: {v}" for k, v in KEYS.items())
            + "\nPractice script keys: " + ", ".join(TOP_KEYS)
            + "\nCharacters (deck): " + ", ".join(sorted(ROLES)))


VOICE_LOG_HELP = ("append every line said aloud to FILE as it is heard, one JSON line {\"key\": ..., \"text\": ..., "
                  "\"at\": ..., \"heard\": ..., \"voice\": ...} each: when it was asked for and when it began to "
                  "play, in seconds since the epoch, and the voice that said it, e.g. kokoro:af_heart (a resumed game: "
                  "from where it goes on)")


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
    p.add_argument("--phone-links", type=_file_name, metavar="FILE",
                   help="a game with the players' phones: write each seat's link to FILE (or FILE.html: a sheet of "
                        "QR codes), the new ones when the host's stop ended the old (docs/phones.md)")
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
    p.add_argument("--phones", action="store_true",
                   help="the players' phones as private screens and answer pads, on the local network: each seat "
                        "scans its QR code at the deal (docs/phones.md; as `phones: true` in the table config)")
    p.add_argument("--phone-links", type=_file_name, metavar="FILE",
                   help="with --phones: write each seat's link to FILE (readable by you alone); FILE.html: a sheet "
                        "of the seats' QR codes to print (a table without a screen: docs/phones.md)")
    p.add_argument("--phone-bind", type=_address, metavar="ADDRESS", default=PHONE_BIND,
                   help="with --phones: the address the phones' page listens on (default: every interface)")
    p.add_argument("--phone-port", type=_whole(0, 65535), default=PHONE_PORT, metavar="PORT",
                   help="with --phones: the port the phones' page listens on (default 8086; 0: any free one)")
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
        print(f"{exc.heading}{exc}", file=sys.stderr)
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
